package shell

// The table's entries for the GNU tools that read and print text: each
// option on a line of its own (a short option and its long alias share
// one), under the effect it has; then how the operands are read.

// addTextCommands adds the GNU tools that read and print text to the
// table.
func addTextCommands(table map[string]*program) {
	for name, prog := range map[string]*program{
		"cat": {
			flags: gnuOptions(byEffect{
				inert: `
					A show-all
					b number-nonblank
					e
					E show-ends
					n number
					s squeeze-blank
					t
					T show-tabs
					u
					v show-nonprinting
				`,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"tac": {
			flags: gnuOptions(byEffect{
				inert: `
					b before
					r regex
					s: separator:
				`,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"head": {
			flags: gnuOptions(byEffect{
				inert: `
					c: bytes:
					n: lines:
					q quiet
					silent
					v verbose
					z zero-terminated
				` + digits,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"tail": {
			flags: gnuOptions(byEffect{
				inert: `
					c: bytes:
					f
					follow::
					F
					n: lines:
					max-unchanged-stats:
					pid:
					q quiet
					silent
					retry
					s: sleep-interval:
					v verbose
					z zero-terminated
				` + digits,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"wc": {
			flags: gnuOptions(byEffect{
				inert: `
					c bytes
					m chars
					l lines
					L max-line-length
					w words
					total:
				`,
				listsFiles: `
					files0-from:
				`,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"sort": {
			flags: gnuOptions(byEffect{
				inert: `
					b ignore-leading-blanks
					d dictionary-order
					f ignore-case
					g general-numeric-sort
					i ignore-nonprinting
					M month-sort
					h human-numeric-sort
					n numeric-sort
					R random-sort
					r reverse
					sort:
					V version-sort
					batch-size:
					c
					check::
					C
					m merge
					k: key:
					s stable
					S: buffer-size:
					t: field-separator:
					T: temporary-directory:
					parallel:
					u unique
					z zero-terminated
					debug
				`,
				readsArg: `
					random-source:
				`,
				writesArg: `
					o: output:
				`,
				listsFiles: `
					files0-from:
				`,
				runs: `
					compress-program:
				`,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"uniq": {
			flags: gnuOptions(byEffect{
				inert: `
					c count
					d repeated
					D
					all-repeated::
					f: skip-fields:
					group::
					i ignore-case
					s: skip-chars:
					u unique
					z zero-terminated
					w: check-chars:
				`,
			}),
			permute: true, readOnly: true, stdinOnly: true, files: inThenOut,
		},
		"cut": {
			flags: gnuOptions(byEffect{
				inert: `
					b: bytes:
					c: characters:
					d: delimiter:
					f: fields:
					n
					complement
					s only-delimited
					output-delimiter:
					z zero-terminated
				`,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"paste": {
			flags: gnuOptions(byEffect{
				inert: `
					d: delimiters:
					s serial
					z zero-terminated
				`,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"comm": {
			flags: gnuOptions(byEffect{
				inert: `
					1
					2
					3
					check-order
					nocheck-order
					output-delimiter:
					total
					z zero-terminated
				`,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"tr": {
			flags: gnuOptions(byEffect{
				inert: `
					c
					C complement
					d delete
					s squeeze-repeats
					t truncate-set1
				`,
			}),
			permute: true, readOnly: true, files: noFiles,
		},
		"nl": {
			flags: gnuOptions(byEffect{
				inert: `
					b: body-numbering:
					d: section-delimiter:
					f: footer-numbering:
					h: header-numbering:
					i: line-increment:
					l: join-blank-lines:
					n: number-format:
					p no-renumber
					s: number-separator:
					v: starting-line-number:
					w: number-width:
				`,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"od": {
			flags: gnuOptions(byEffect{
				inert: `
					A: address-radix:
					endian:
					j: skip-bytes:
					N: read-bytes:
					S::
					strings::
					t: format:
					v output-duplicates
					w::
					width::
					traditional
					a
					b
					c
					d
					f
					i
					l
					o
					s
					x
				`,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"base64": {
			flags: gnuOptions(byEffect{
				inert: `
					d decode
					i ignore-garbage
					w: wrap:
				`,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"cmp": {
			flags: gnuOptions(byEffect{
				inert: `
					b print-bytes
					i: ignore-initial:
					l verbose
					n: bytes:
					s quiet
					silent
					v
				`,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"md5sum": {
			flags: gnuOptions(byEffect{
				inert:      checksumOptions,
				listsFiles: checkLists,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"sha1sum": {
			flags: gnuOptions(byEffect{
				inert:      checksumOptions,
				listsFiles: checkLists,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"sha224sum": {
			flags: gnuOptions(byEffect{
				inert:      checksumOptions,
				listsFiles: checkLists,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"sha256sum": {
			flags: gnuOptions(byEffect{
				inert:      checksumOptions,
				listsFiles: checkLists,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"sha384sum": {
			flags: gnuOptions(byEffect{
				inert:      checksumOptions,
				listsFiles: checkLists,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"sha512sum": {
			flags: gnuOptions(byEffect{
				inert:      checksumOptions,
				listsFiles: checkLists,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"b2sum": {
			flags: gnuOptions(byEffect{
				inert: checksumOptions + `
					l: length:
				`,
				listsFiles: checkLists,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"cksum": {
			flags: gnuOptions(byEffect{
				inert: checksumOptions + `
					a: algorithm:
					l: length:
					base64
					raw
					untagged
					debug
				`,
				listsFiles: checkLists,
			}),
			permute: true, readOnly: true, files: readsAll,
		},
		"seq": {
			flags: gnuOptions(byEffect{
				inert: `
					f: format:
					s: separator:
					w equal-width
				`,
			}),
			permute: true, readOnly: true, files: noFiles,
		},
	} {
		table[name] = prog
	}
}

// checkLists are the options of md5sum and its kin that read the names
// of the files they check from their operands, lists.
const checkLists = `
	c check
`

// checksumOptions are the options md5sum and its kin share.
const checksumOptions = `
	b binary
	tag
	t text
	z zero
	ignore-missing
	quiet
	status
	strict
	w warn
`
