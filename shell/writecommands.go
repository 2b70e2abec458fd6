package shell

// The table's entries for the GNU tools that write, move or remove files:
// each option on a line of its own (a short option and its long alias
// share one), under the effect it has; then how the operands are read.

// addWriteCommands adds the GNU tools that write, move or remove files to
// the table.
func addWriteCommands(table map[string]*program) {
	for name, prog := range map[string]*program{
		"cp": withBackups(&program{
			flags: gnuOptions(byEffect{
				inert: `
					a archive
					attributes-only
					backup::
					b
					copy-contents
					d
					f force
					i interactive
					H
					l link
					L dereference
					n no-clobber
					P no-dereference
					p
					preserve::
					no-preserve:
					parents
					R
					r recursive
					reflink::
					remove-destination
					sparse:
					strip-trailing-slashes
					s symbolic-link
					S: suffix:
					T no-target-directory
					u
					update::
					v verbose
					x one-file-system
					Z
					context::
					debug
					keep-directory-symlink
				`,
				writesArg: `
					t: target-directory:
				`,
			}),
			permute: true, files: copies,
		}),
		"mv": withBackups(&program{
			flags: gnuOptions(byEffect{
				inert: `
					backup::
					b
					f force
					i interactive
					n no-clobber
					strip-trailing-slashes
					S: suffix:
					T no-target-directory
					u
					update::
					v verbose
					Z context
					debug
					no-copy
					exchange
				`,
				writesArg: `
					t: target-directory:
				`,
			}),
			permute: true, files: moves,
		}),
		"ln": withBackups(&program{
			flags: gnuOptions(byEffect{
				inert: `
					backup::
					b
					d
					F directory
					f force
					i interactive
					L logical
					n no-dereference
					P physical
					r relative
					s symbolic
					S: suffix:
					T no-target-directory
					v verbose
				`,
				writesArg: `
					t: target-directory:
				`,
			}),
			permute: true, files: links,
		}),
		"install": withBackups(&program{
			flags: gnuOptions(byEffect{
				inert: `
					backup::
					b
					c
					C compare
					d directory
					D
					g: group:
					m: mode:
					o: owner:
					p preserve-timestamps
					s strip
					S: suffix:
					T no-target-directory
					v verbose
					preserve-context
					Z
					context::
					debug
				`,
				writesArg: `
					t: target-directory:
				`,
				runs: `
					strip-program:
				`,
			}),
			permute: true, files: installs,
		}),
		"rm": {
			flags: gnuOptions(byEffect{
				inert: `
					f force
					i
					I
					interactive::
					one-file-system
					no-preserve-root
					preserve-root::
					r
					R recursive
					d dir
					v verbose
				`,
			}),
			permute: true, files: recursiveWrites(writesAll, "r", "R", "recursive"),
		},
		"rmdir": {
			flags: gnuOptions(byEffect{
				inert: `
					ignore-fail-on-non-empty
					p parents
					v verbose
				`,
			}),
			permute: true, files: writesAll,
		},
		"mkdir": {
			flags: gnuOptions(byEffect{
				inert: `
					m: mode:
					p parents
					v verbose
					Z
					context::
				`,
			}),
			permute: true, files: writesAll,
		},
		"touch": {
			flags: gnuOptions(byEffect{
				inert: `
					a
					c no-create
					d: date:
					f
					h no-dereference
					m
					t:
					time:
				`,
				readsArg: `
					r: reference:
				`,
			}),
			permute: true, files: writesAll,
		},
		"tee": {
			flags: gnuOptions(byEffect{
				inert: `
					a append
					i ignore-interrupts
					p
					output-error::
				`,
			}),
			permute: true, files: writesAll,
		},
		"truncate": {
			flags: gnuOptions(byEffect{
				inert: `
					c no-create
					o io-blocks
					s: size:
				`,
				readsArg: `
					r: reference:
				`,
			}),
			permute: true, files: writesAll,
		},
		"chmod": {
			flags: gnuOptions(byEffect{
				inert: `
					c changes
					f silent
					quiet
					v verbose
					no-preserve-root
					preserve-root
					R recursive
				` + modeLetters,
				readsArg: `
					reference:
				`,
			}),
			permute: true, files: recursiveWrites(chmodFiles, "R", "recursive"),
		},
		"chown": {
			flags: gnuOptions(byEffect{
				inert: ownerOptions + `
					from:
				`,
				readsArg: `
					reference:
				`,
			}),
			permute: true, files: recursiveWrites(writesAfterFirst, "R", "recursive"),
		},
		"chgrp": {
			flags: gnuOptions(byEffect{
				inert: ownerOptions,
				readsArg: `
					reference:
				`,
			}),
			permute: true, files: recursiveWrites(writesAfterFirst, "R", "recursive"),
		},
	} {
		table[name] = prog
	}
}

// ownerOptions are the options chown and chgrp share; chown also has
// --from.
const ownerOptions = `
	c changes
	f silent
	quiet
	v verbose
	dereference
	h no-dereference
	no-preserve-root
	preserve-root
	R recursive
	H
	L
	P
`

// modeLetters are the options chmod reads as a mode, "-x" or "-rw", the
// letters of chmodModes: each takes the rest of its cluster.
const modeLetters = `
	r::
	w::
	x::
	X::
	s::
	t::
	u::
	g::
	o::
	a::
	0::
	1::
	2::
	3::
	4::
	5::
	6::
	7::
`
