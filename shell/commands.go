package shell

import "sync"

// The table of the commands whose every option is known: what each
// option does and which operands are files the command reads or writes.
// A command in the table given an option it does not list is opaque, so
// the call asks; shell/README.md lists the table.

// program is what the table knows of a command.
type program struct {
	flags *optionTable
	// permute marks a command that reads options among its operands, as
	// GNU tools do; without it the options end at the first operand.
	permute bool
	// readOnly marks a command that changes nothing when every option it
	// is given is inert or names a file it reads.
	readOnly bool
	// stdinOnly narrows readOnly to a command line with no operand, one
	// that reads standard input: Claude Code runs "uniq -c" but asks for
	// "uniq -c f" (its second operand is a file it writes).
	stdinOnly bool
	// files picks the operands that are files it reads and writes.
	files fileOperands
	// check, when set, is why a command line read against the table runs
	// code the options alone do not show: ssh's -o settings.
	check func(base string, p parsed) string
}

// gnu are the options every GNU tool has.
const gnu = " help version"

// digits are the short options "-5" of head, tail and grep, a count.
const digits = " 0 1 2 3 4 5 6 7 8 9"

// reader is a read-only GNU command: its inert options, the others by
// effect, and its file operands.
func reader(files fileOperands, inertFlags string, others byEffect) *program {
	return &program{flags: gnuOptions(inertFlags, others), permute: true, readOnly: true, files: files}
}

// changer is a GNU command that changes files whatever its options.
func changer(files fileOperands, inertFlags string, others byEffect) *program {
	return &program{flags: gnuOptions(inertFlags, others), permute: true, files: files}
}

// gnuOptions is a GNU tool's table: the inert options, the others by
// effect (none inert), and the options every GNU tool has.
func gnuOptions(inertFlags string, others byEffect) *optionTable {
	others[inert] = inertFlags
	return &optionTable{lists: others, gnu: true}
}

// programs is the table, by base name, made the first time a command is
// looked up in it: a process that reads no command, such as a hook
// deciding a call of another tool, pays nothing for it.
var programs = sync.OnceValue(func() map[string]*program {
	tablesBuilt.Add(1)
	table := map[string]*program{
		"ls": reader(readsAll,
			"a all A almost-all author b escape block-size: B ignore-backups c C color:: d directory D dired f F classify:: file-type format: full-time g group-directories-first G no-group h human-readable si H dereference-command-line dereference-command-line-symlink-to-dir hide: hyperlink:: indicator-style: i inode I: ignore: k kibibytes l L dereference m n numeric-uid-gid N literal o p q hide-control-chars show-control-chars Q quote-name quoting-style: r reverse R recursive s size S sort: time: time-style: t T: tabsize: u U v w: width: x X Z context zero 1", byEffect{}),
		"cat":  reader(readsAll, "A show-all b number-nonblank e E show-ends n number s squeeze-blank t T show-tabs u v show-nonprinting", byEffect{}),
		"tac":  reader(readsAll, "b before r regex s: separator:", byEffect{}),
		"head": reader(readsAll, "c: bytes: n: lines: q quiet silent v verbose z zero-terminated"+digits, byEffect{}),
		"tail": reader(readsAll, "c: bytes: f follow:: F n: lines: max-unchanged-stats: pid: q quiet silent retry s: sleep-interval: v verbose z zero-terminated"+digits, byEffect{}),
		"wc":   reader(readsAll, "c bytes m chars l lines L max-line-length w words total:", byEffect{listsFiles: "files0-from:"}),
		"sort": {flags: gnuOptions("b ignore-leading-blanks d dictionary-order f ignore-case g general-numeric-sort i ignore-nonprinting M month-sort h human-numeric-sort n numeric-sort R random-sort r reverse sort: V version-sort batch-size: c check:: C m merge k: key: s stable S: buffer-size: t: field-separator: T: temporary-directory: parallel: u unique z zero-terminated debug",
			byEffect{readsArg: "random-source:", listsFiles: "files0-from:", writesArg: "o: output:", runs: "compress-program:"}), permute: true, readOnly: true, files: readsAll},
		"uniq":     {flags: gnuOptions("c count d repeated D all-repeated:: f: skip-fields: group:: i ignore-case s: skip-chars: u unique z zero-terminated w: check-chars:", byEffect{}), permute: true, readOnly: true, stdinOnly: true, files: inThenOut},
		"cut":      reader(readsAll, "b: bytes: c: characters: d: delimiter: f: fields: n complement s only-delimited output-delimiter: z zero-terminated", byEffect{}),
		"paste":    reader(readsAll, "d: delimiters: s serial z zero-terminated", byEffect{}),
		"comm":     reader(readsAll, "1 2 3 check-order nocheck-order output-delimiter: total z zero-terminated", byEffect{}),
		"tr":       reader(noFiles, "c C complement d delete s squeeze-repeats t truncate-set1", byEffect{}),
		"nl":       reader(readsAll, "b: body-numbering: d: section-delimiter: f: footer-numbering: h: header-numbering: i: line-increment: l: join-blank-lines: n: number-format: p no-renumber s: number-separator: v: starting-line-number: w: number-width:", byEffect{}),
		"od":       reader(readsAll, "A: address-radix: endian: j: skip-bytes: N: read-bytes: S:: strings:: t: format: v output-duplicates w:: width:: traditional a b c d f i l o s x", byEffect{}),
		"base64":   reader(readsAll, "d decode i ignore-garbage w: wrap:", byEffect{}),
		"basename": reader(noFiles, "a multiple s: suffix: z zero", byEffect{}),
		"dirname":  reader(noFiles, "z zero", byEffect{}),
		"realpath": reader(noFiles, "e canonicalize-existing m canonicalize-missing L logical P physical q quiet relative-to: relative-base: s strip no-symlinks z zero", byEffect{}),
		"readlink": reader(noFiles, "f canonicalize e canonicalize-existing m canonicalize-missing n no-newline q quiet s silent v verbose z zero", byEffect{}),
		"stat":     reader(readsAll, "L dereference f file-system cached: c: format: printf: t terse", byEffect{}),
		"du": reader(readsAll, "0 null a all apparent-size B: block-size: b bytes c total D dereference-args d: max-depth: H h human-readable inodes k L dereference l count-links m P no-dereference S separate-dirs si s summarize t: threshold: time:: time-style: exclude: x one-file-system",
			byEffect{readsArg: "X: exclude-from:", listsFiles: "files0-from:"}),
		"file": reader(readsAll, "v b brief c checking-printout e: exclude: exclude-quiet: F: separator: i mime mime-type mime-encoding apple extension k keep-going l list L dereference h no-dereference n no-buffer N no-pad 0 print0 P: parameter: r raw s special-files S no-sandbox z uncompress Z uncompress-noreport d debug",
			byEffect{readsArg: "m: magic-file:", listsFiles: "f: files-from:", changes: "C compile p preserve-date"}),
		"grep":  grepProgram,
		"egrep": grepProgram,
		"fgrep": grepProgram,
		"diff": reader(readsAll, "normal q brief s report-identical-files c C:: context:: u U:: unified:: e ed n rcs y side-by-side W: width: left-column suppress-common-lines p show-c-function F: show-function-line: label: t expand-tabs T initial-tab tabsize: suppress-blank-empty r recursive no-dereference N new-file unidirectional-new-file ignore-file-name-case no-ignore-file-name-case x: exclude: S: starting-file: i ignore-case E ignore-tab-expansion Z ignore-trailing-space b ignore-space-change w ignore-all-space B ignore-blank-lines I: ignore-matching-lines: a text strip-trailing-cr D: ifdef: old-group-format: new-group-format: unchanged-group-format: changed-group-format: line-format: old-line-format: new-line-format: unchanged-line-format: d minimal horizon-lines: speed-large-files color:: palette: v",
			byEffect{readsArg: "X: exclude-from: from-file: to-file:", runs: "l paginate"}),
		"cmp":       reader(readsAll, "b print-bytes i: ignore-initial: l verbose n: bytes: s quiet silent v", byEffect{}),
		"md5sum":    reader(readsAll, checksumOptions, byEffect{listsFiles: checkLists}),
		"sha1sum":   reader(readsAll, checksumOptions, byEffect{listsFiles: checkLists}),
		"sha224sum": reader(readsAll, checksumOptions, byEffect{listsFiles: checkLists}),
		"sha256sum": reader(readsAll, checksumOptions, byEffect{listsFiles: checkLists}),
		"sha384sum": reader(readsAll, checksumOptions, byEffect{listsFiles: checkLists}),
		"sha512sum": reader(readsAll, checksumOptions, byEffect{listsFiles: checkLists}),
		"b2sum":     reader(readsAll, checksumOptions+" l: length:", byEffect{listsFiles: checkLists}),
		"cksum":     reader(readsAll, checksumOptions+" a: algorithm: l: length: base64 raw untagged debug", byEffect{listsFiles: checkLists}),
		"seq":       reader(noFiles, "f: format: s: separator: w equal-width", byEffect{}),
		"uname":     reader(noFiles, "a all s kernel-name n nodename r kernel-release v kernel-version m machine p processor i hardware-platform o operating-system", byEffect{}),
		"id":        reader(noFiles, "a Z context g group G groups n name r real u user z zero", byEffect{}),
		"date": reader(noFiles, "d: date: debug I:: iso-8601:: resolution R rfc-email rfc-3339: u utc universal",
			byEffect{readsArg: "f: file: r: reference:", changes: "s: set:"}),
		"pwd":    {flags: flagSet(byEffect{inert: "L P"}), readOnly: true, files: noFiles},
		"which":  {flags: flagSet(byEffect{inert: "a s"}), readOnly: true, files: noFiles},
		"whoami": reader(noFiles, "", byEffect{}),

		"cp": withBackups(changer(copies, "a archive attributes-only backup:: b copy-contents d f force i interactive H l link L dereference n no-clobber P no-dereference p preserve:: no-preserve: parents R r recursive reflink:: remove-destination sparse: strip-trailing-slashes s symbolic-link S: suffix: T no-target-directory u update:: v verbose x one-file-system Z context:: debug keep-directory-symlink",
			byEffect{writesArg: "t: target-directory:"})),
		"mv": withBackups(changer(moves, "backup:: b f force i interactive n no-clobber strip-trailing-slashes S: suffix: T no-target-directory u update:: v verbose Z context debug no-copy exchange",
			byEffect{writesArg: "t: target-directory:"})),
		"ln": withBackups(changer(links, "backup:: b d F directory f force i interactive L logical n no-dereference P physical r relative s symbolic S: suffix: T no-target-directory v verbose",
			byEffect{writesArg: "t: target-directory:"})),
		"install": withBackups(changer(installs, "backup:: b c C compare d directory D g: group: m: mode: o: owner: p preserve-timestamps s strip S: suffix: T no-target-directory v verbose preserve-context Z context:: debug",
			byEffect{writesArg: "t: target-directory:", runs: "strip-program:"})),
		"rm":       changer(writesAll, "f force i I interactive:: one-file-system no-preserve-root preserve-root:: r R recursive d dir v verbose", byEffect{}),
		"rmdir":    changer(writesAll, "ignore-fail-on-non-empty p parents v verbose", byEffect{}),
		"mkdir":    changer(writesAll, "m: mode: p parents v verbose Z context::", byEffect{}),
		"touch":    changer(writesAll, "a c no-create d: date: f h no-dereference m t: time:", byEffect{readsArg: "r: reference:"}),
		"tee":      changer(writesAll, "a append i ignore-interrupts p output-error::", byEffect{}),
		"truncate": changer(writesAll, "c no-create o io-blocks s: size:", byEffect{readsArg: "r: reference:"}),
		"chmod":    changer(chmodFiles, "c changes f silent quiet v verbose no-preserve-root preserve-root R recursive"+modeLetters, byEffect{readsArg: "reference:"}),
		"chown":    changer(writesAfterFirst, "c changes f silent quiet v verbose dereference h no-dereference from: no-preserve-root preserve-root R recursive H L P", byEffect{readsArg: "reference:"}),
		"chgrp":    changer(writesAfterFirst, "c changes f silent quiet v verbose dereference h no-dereference no-preserve-root preserve-root R recursive H L P", byEffect{readsArg: "reference:"}),
	}
	addRunners(table)
	addWriters(table)
	return table
})

// grepProgram is grep's table; a pattern given with -e or -f leaves every
// operand a file.
var grepProgram = reader(recursive(readsAfterScript("e", "regexp", "f", "file"), []string{"r", "recursive", "R", "dereference-recursive"}, "include"),
	"E extended-regexp F fixed-strings G basic-regexp P perl-regexp e: regexp: i y ignore-case no-ignore-case w word-regexp x line-regexp z null-data s no-messages v invert-match V m: max-count: b byte-offset n line-number line-buffered H with-filename h no-filename label: o only-matching q quiet silent binary-files: a text I d: directories: D: devices: r recursive R dereference-recursive include: exclude: exclude-dir: L files-without-match l files-with-matches c count T initial-tab Z null B: before-context: A: after-context: C: context: group-separator: no-group-separator color:: colour:: U binary"+digits,
	byEffect{readsArg: "f: file: exclude-from:"})

// checkLists are the options of md5sum and its kin that read the names
// of the files they check from their operands, lists.
const checkLists = "c check"

// checksumOptions are the options md5sum and its kin share.
const checksumOptions = "b binary tag t text z zero ignore-missing quiet status strict w warn"

// modeLetters are the options chmod reads as a mode, "-x" or "-rw", the
// letters of chmodModes: each takes the rest of its cluster.
const modeLetters = " r:: w:: x:: X:: s:: t:: u:: g:: o:: a:: 0:: 1:: 2:: 3:: 4:: 5:: 6:: 7::"

// effectsOf reads a command in the table: it is opaque when an option is
// one the table does not know, runs code no rule reads when an option
// runs a program, and is read-only when the table says so, every option
// is inert or names a file it reads, and every word is known before it
// runs.
func (prog *program) effectsOf(base string, args []word) effects {
	p := prog.flags.parseFlags(base, args, prog.permute)
	e := effects{unseen: p.opaque}
	if g, ok := p.first(runs); ok {
		e.unseen = firstOf(e.unseen, base+" "+g.written+" may run a program")
	}
	e.unseen = firstOf(e.unseen, listedFiles(base, p))
	if g, ok := p.first(changes); ok {
		// file -C writes a compiled magic file, file -p resets the
		// times of what it reads, date -s sets the clock: changes the
		// tables name no file for.
		e.unseen = firstOf(e.unseen, base+" "+g.written+" changes what the splitter does not name")
	}
	if prog.check != nil {
		e.unseen = firstOf(e.unseen, prog.check(base, p))
	}
	e.reads, e.writes = prog.filesOf(p)
	e.readOnly = prog.readOnly && e.unseen == "" && len(e.writes) == 0 && allKnown(args) && !(prog.stdinOnly && len(p.operands) > 0)
	if _, ok := p.first(writesArg, changes); ok {
		e.readOnly = false
	}
	e.links = base == "cp" && p.has("s", "symbolic-link", "l", "link")
	return e
}

// listedFiles is why the files a command reads are known only when it
// runs: an option that reads their names from a list file or from
// standard input ("sort --files0-from=-", "tar -T list", "zip -@").
func listedFiles(base string, p parsed) string {
	g, ok := p.first(listsFiles)
	if !ok {
		return ""
	}
	from := "standard input"
	if g.hasValue && g.value.value != "-" {
		from = g.value.value
	}
	return base + " " + g.written + " reads the names of the files it reads from " + from + ", known only when it runs"
}

// allKnown reports whether every word is literal and no glob.
func allKnown(words []word) bool {
	for _, w := range words {
		if !w.literal || w.pattern {
			return false
		}
	}
	return true
}
