package shell

// The table's entries for the GNU tools that list, search or describe
// files, names and the system: each option on a line of its own (a short
// option and its long alias share one), under the effect it has; then how
// the operands are read.

// addFileCommands adds the GNU tools that list, search or describe files,
// names and the system to the table.
func addFileCommands(table map[string]*program) {
	for name, prog := range map[string]*program{
		"ls": {
			flags: gnuOptions(byEffect{
				inert: `
					a all
					A almost-all
					author
					b escape
					block-size:
					B ignore-backups
					c
					C
					color::
					d directory
					D dired
					f
					F
					classify::
					file-type
					format:
					full-time
					g
					group-directories-first
					G no-group
					h human-readable
					si
					H dereference-command-line
					dereference-command-line-symlink-to-dir
					hide:
					hyperlink::
					indicator-style:
					i inode
					I: ignore:
					k kibibytes
					l
					L dereference
					m
					n numeric-uid-gid
					N literal
					o
					p
					q hide-control-chars
					show-control-chars
					Q quote-name
					quoting-style:
					r reverse
					R recursive
					s size
					S
					sort:
					time:
					time-style:
					t
					T: tabsize:
					u
					U
					v
					w: width:
					x
					X
					Z context
					zero
					1
				`,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"stat": {
			flags: gnuOptions(byEffect{
				inert: `
					L dereference
					f file-system
					cached:
					c:
					format:
					printf:
					t terse
				`,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"du": {
			flags: gnuOptions(byEffect{
				inert: `
					0 null
					a all
					apparent-size
					B: block-size:
					b bytes
					c total
					D dereference-args
					d: max-depth:
					H
					h human-readable
					inodes
					k
					L dereference
					l count-links
					m
					P no-dereference
					S separate-dirs
					si
					s summarize
					t: threshold:
					time::
					time-style:
					exclude:
					x one-file-system
				`,
				readsArg: `
					X: exclude-from:
				`,
				listsFiles: `
					files0-from:
				`,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"file": {
			flags: gnuOptions(byEffect{
				inert: `
					v
					b brief
					c checking-printout
					e: exclude:
					exclude-quiet:
					F: separator:
					i mime
					mime-type
					mime-encoding
					apple
					extension
					k keep-going
					l list
					L dereference
					h no-dereference
					n no-buffer
					N no-pad
					0 print0
					P: parameter:
					r raw
					s special-files
					S no-sandbox
					z uncompress
					Z uncompress-noreport
					d debug
				`,
				readsArg: `
					m: magic-file:
				`,
				listsFiles: `
					f: files-from:
				`,
				changes: `
					C compile
					p preserve-date
				`,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"grep":  grepProgram,
		"egrep": grepProgram,
		"fgrep": grepProgram,
		"diff": {
			flags: gnuOptions(byEffect{
				inert: `
					normal
					q brief
					s report-identical-files
					c
					C::
					context::
					u
					U::
					unified::
					e ed
					n rcs
					y side-by-side
					W: width:
					left-column
					suppress-common-lines
					p show-c-function
					F: show-function-line:
					label:
					t expand-tabs
					T initial-tab
					tabsize:
					suppress-blank-empty
					r recursive
					no-dereference
					N new-file
					unidirectional-new-file
					ignore-file-name-case
					no-ignore-file-name-case
					x: exclude:
					S: starting-file:
					i ignore-case
					E ignore-tab-expansion
					Z ignore-trailing-space
					b ignore-space-change
					w ignore-all-space
					B ignore-blank-lines
					I: ignore-matching-lines:
					a text
					strip-trailing-cr
					D: ifdef:
					old-group-format:
					new-group-format:
					unchanged-group-format:
					changed-group-format:
					line-format:
					old-line-format:
					new-line-format:
					unchanged-line-format:
					d minimal
					horizon-lines:
					speed-large-files
					color::
					palette:
					v
				`,
				readsArg: `
					X: exclude-from:
					from-file:
					to-file:
				`,
				runs: `
					l paginate
				`,
			}),
			permute: true, readOnly: true, files: recursive(readsAll, []string{"r", "recursive"}),
		},
		"basename": {
			flags: gnuOptions(byEffect{
				inert: `
					a multiple
					s: suffix:
					z zero
				`,
			}),
			permute: true, readOnly: true, files: noFiles,
		},
		"dirname": {
			flags: gnuOptions(byEffect{
				inert: `
					z zero
				`,
			}),
			permute: true, readOnly: true, files: noFiles,
		},
		"realpath": {
			flags: gnuOptions(byEffect{
				inert: `
					e canonicalize-existing
					m canonicalize-missing
					L logical
					P physical
					q quiet
					relative-to:
					relative-base:
					s strip
					no-symlinks
					z zero
				`,
			}),
			permute: true, readOnly: true, files: noFiles,
		},
		"readlink": {
			flags: gnuOptions(byEffect{
				inert: `
					f canonicalize
					e canonicalize-existing
					m canonicalize-missing
					n no-newline
					q quiet
					s silent
					v verbose
					z zero
				`,
			}),
			permute: true, readOnly: true, files: noFiles,
		},
		"uname": {
			flags: gnuOptions(byEffect{
				inert: `
					a all
					s kernel-name
					n nodename
					r kernel-release
					v kernel-version
					m machine
					p processor
					i hardware-platform
					o operating-system
				`,
			}),
			permute: true, readOnly: true, files: noFiles,
		},
		"id": {
			flags: gnuOptions(byEffect{
				inert: `
					a
					Z context
					g group
					G groups
					n name
					r real
					u user
					z zero
				`,
			}),
			permute: true, readOnly: true, files: noFiles,
		},
		"date": {
			flags: gnuOptions(byEffect{
				inert: `
					d: date:
					debug
					I::
					iso-8601::
					resolution
					R rfc-email
					rfc-3339:
					u utc
					universal
				`,
				readsArg: `
					f: file:
					r: reference:
				`,
				changes: `
					s: set:
				`,
			}),
			permute: true, readOnly: true, files: noFiles,
		},
		"pwd": {
			flags: flagSet(byEffect{
				inert: `
					L
					P
				`,
			}),
			readOnly: true, files: noFiles,
		},
		"which": {
			flags: flagSet(byEffect{
				inert: `
					a
					s
				`,
			}),
			readOnly: true, files: noFiles,
		},
		"whoami": {
			flags:   gnuOptions(byEffect{}),
			permute: true, readOnly: true, files: noFiles,
		},
	} {
		table[name] = prog
	}
}

// grepProgram is grep's table; a pattern given with -e or -f leaves every
// operand a file.
var grepProgram = &program{
	flags: gnuOptions(byEffect{
		inert: `
			E extended-regexp
			F fixed-strings
			G basic-regexp
			P perl-regexp
			e: regexp:
			i ignore-case
			y
			no-ignore-case
			w word-regexp
			x line-regexp
			z null-data
			s no-messages
			v invert-match
			V
			m: max-count:
			b byte-offset
			n line-number
			line-buffered
			H with-filename
			h no-filename
			label:
			o only-matching
			q quiet
			silent
			binary-files:
			a text
			I
			d: directories:
			D: devices:
			r recursive
			R dereference-recursive
			include:
			exclude:
			exclude-dir:
			L files-without-match
			l files-with-matches
			c count
			T initial-tab
			Z null
			B: before-context:
			A: after-context:
			C: context:
			group-separator:
			no-group-separator
			color::
			colour::
			U binary
		` + digits,
		readsArg: `
			f: file:
			exclude-from:
		`,
	}),
	permute: true, readOnly: true, files: recursive(readsAfterScript("e", "regexp", "f", "file"), []string{"r", "recursive", "R", "dereference-recursive"}, "include"),
}
