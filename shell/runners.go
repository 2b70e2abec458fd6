package shell

import "strings"

// The commands of the table whose options can make them run a program
// or read a configuration that does: rsync, ssh, scp, sftp, rg, man, zip,
// the vi family and emacs, and the database shells (databases.go). Each option is known; the ones that run a program
// make the command hide code, as an option the table does not know does.

// addRunners adds the commands of this file and of remote.go to the
// table.
func addRunners(table map[string]*program) {
	table["rsync"] = &program{flags: rsyncOptions, permute: true, files: rsyncFiles}
	for _, name := range []string{"ssh", "scp", "sftp"} {
		table[name] = &program{flags: sshOptions[name], permute: name != "ssh", files: noFiles, check: sshSettings}
	}
	// scp reads its local sources and writes a local destination, as
	// rsync does.
	table["scp"].files = rsyncFiles
	table["rg"] = &program{flags: rgOptions, permute: true, readOnly: true, files: recursive(readsAfterScript("e", "regexp", "f", "file", "files", "type-list"), nil, "g", "glob", "iglob")}
	table["man"] = &program{flags: manOptions, permute: true, files: noFiles}
	table["zip"] = &program{flags: zipOptions, permute: true, files: zipFiles, check: zipTester}
	for _, name := range []string{"vi", "vim", "nvim", "ex", "view"} {
		table[name] = &program{flags: vimOptions, permute: true, files: vimFiles, check: vimCommands}
	}
	table["emacs"] = &program{hook: emacsEffects}
	table["emacsclient"] = &program{hook: emacsEffects}
	addDatabases(table)
}

// rgOptions are ripgrep's options: --pre and --hostname-bin run a
// program.
var rgOptions = flagSet(byEffect{
	inert: `
		A: after-context:
		B: before-context:
		C: context:
		c count
		count-matches
		color:
		colors:
		column
		no-column
		context-separator:
		no-context-separator
		E: encoding:
		no-encoding
		F fixed-strings
		no-fixed-strings
		L follow
		no-follow
		g: glob:
		iglob:
		glob-case-insensitive
		h help
		heading
		no-heading
		hidden
		no-hidden
		i ignore-case
		ignore-file-case-insensitive
		include-zero
		invert-match
		v
		l files-with-matches
		files-without-match
		line-buffered
		line-number
		n
		N no-line-number
		M: max-columns:
		max-columns-preview
		max-count:
		m: max-depth:
		d: max-filesize:
		mmap
		no-mmap
		multiline
		U multiline-dotall
		no-ignore
		no-ignore-dot
		no-ignore-exclude
		no-ignore-files
		no-ignore-global
		no-ignore-messages
		no-ignore-parent
		no-ignore-vcs
		no-messages
		no-pcre2-unicode
		no-require-git
		no-unicode
		null
		0 null-data
		one-file-system
		o only-matching
		passthru
		passthrough
		path-separator:
		P pcre2
		pcre2-version
		p pretty
		q quiet
		regex-size-limit:
		dfa-size-limit:
		engine:
		r: replace:
		s case-sensitive
		S smart-case
		sort:
		sortr:
		sort-files
		stats
		no-stats
		t: type:
		T: type-not:
		type-add:
		type-clear:
		type-list
		u unrestricted
		vimgrep
		w word-regexp
		x line-regexp
		j: threads:
		trim
		no-trim
		z search-zip
		no-search-zip
		a text
		no-text
		b byte-offset
		binary
		no-binary
		block-buffered
		H with-filename
		I no-filename
		json
		no-json
		crlf
		no-crlf
		files
		debug
		trace
		V version
		field-context-separator:
		field-match-separator:
		hyperlink-format:
		auto-hybrid-regex
		no-config
	`,
	readsArg: `
		e: regexp:
		f: file:
		ignore-file:
	`,
	runs: `
		pre:
		pre-glob:
		hostname-bin:
	`,
})

// manOptions are man-db's options: -P names a pager, -H a browser, -X
// and -T a program to show the page with.
var manOptions = flagSet(byEffect{
	inert: `
		C: config-file:
		d debug
		D default
		w where
		path
		c catman
		W where-cat
		location-cat
		e: extension:
		f whatis
		k apropos
		K global-apropos
		l local-file
		r: prompt:
		7 ascii
		E: encoding:
		no-hyphenation
		nh
		no-justification
		nj
		p: preprocessor:
		Z ditroff
		a all
		u update
		no-subpages
		L: locale:
		m: systems:
		M: manpath:
		S:
		s: sections:
		i ignore-case
		I match-case
		regex
		wildcard
		names-only
		R: recode:
		t troff
		h
		help
		V version
	`,
	runs: `
		P: pager:
		H:: html::
		X:: gxditview::
		T:: troff-device::
	`,
})

// zipOptions are zip's options: -TT names the command that tests the
// archive. zip reads "TT" as one option even inside a cluster, which a
// getopt table cannot say, so zipTester finds it.
var zipOptions = flagSet(byEffect{
	inert: `
		0
		1
		2
		3
		4
		5
		6
		7
		8
		9
		r recurse-paths
		R recurse-patterns
		q quiet
		v verbose
		j junk-paths
		u update
		f freshen
		d delete
		m move
		x: exclude:
		i: include:
		y symlinks
		e encrypt
		P: password:
		T test
		D no-dir-entries
		X no-extra
		o latest-time
		g grow
		A adjust-sfx
		J junk-sfx
		l to-crlf
		ll
		from-crlf
		F fix
		FF
		fixfix
		s: split-size:
		sp
		split-pause
		b: temp-path:
		n: suffixes:
		Z: compression-method:
		z archive-comment
		c entry-comments
		k DOS-names
		S system-hidden
		t: from-date:
		tt:
		before-date:
		dg
		display-globaldots
		ds:
		display-bytes
		dd
		display-dots
		h help
		L license
	`,
	listsFiles: `
		@
	`,
	runs: `
		TT:
		unzip-command:
	`,
})

// vimOptions are the options of the vi family: -c, --cmd, -S, -u and -s
// run editor commands, which may be shell commands, as a +CMD operand
// does.
var vimOptions = flagSet(byEffect{
	inert: `
		R
		r
		L
		n
		N
		b
		l
		C
		Z
		m
		M
		A
		H
		F
		e
		E
		d
		y
		g
		f
		o::
		O::
		p::
		V::
		D
		x
		nofork
		noplugin
		clean
		not-a-term
		ttyfail
		h help
		v
		version
	`,
	writesArg: `
		w:
		W:
	`,
	runs: `
		c: cmd:
		S:
		u:
		U:
		s:
		i:
	`,
})

// vimCommands is why a vi command line runs an editor command: a +CMD
// operand.
func vimCommands(base string, p parsed) string {
	for _, w := range p.operands {
		if len(w.value) > 1 && w.value[0] == '+' {
			return base + " " + w.value + " runs an editor command"
		}
	}
	return ""
}

// vimFiles are the files the vi family edits: its operands but +CMD.
func vimFiles(p parsed) (reads, writes []word) {
	for _, w := range p.operands {
		if !strings.HasPrefix(w.value, "+") {
			writes = append(writes, w)
		}
	}
	return writes, writes
}

// zipTester is why a zip command line runs a program: -TT, which the
// option reader, holding zip to getopt, reads as -T twice ("-TT cmd",
// "-qTTcmd"). -T given twice in a row is read as -TT, so the test that
// runs no program, "-T", stays allowed and no spelling of -TT is missed.
func zipTester(base string, p parsed) string {
	for i := 1; i < len(p.options); i++ {
		if p.options[i-1].name == "T" && p.options[i].name == "T" {
			return base + " -TT names the command that tests the archive"
		}
	}
	return ""
}

// emacsSafe are the options of emacs and emacsclient known to run no
// code but the user's own init files, as emacs spells them, with one
// dash or two. Any other asks: --eval, -l, -f, --batch and --script run
// Lisp no rule reads, and emacs reads "-eval" as "--eval", which an
// option table of getopt's cannot say.
var emacsSafe = map[string]bool{
	"-nw": true, "--no-window-system": true,
	"-q": true, "--no-init-file": true,
	"-Q": true, "--quick": true,
	"--no-splash": true, "--no-desktop": true, "--no-site-file": true, "--no-site-lisp": true,
	"-n": true, "--no-wait": true, "-c": true, "--create-frame": true, "-t": true, "--tty": true,
	"--version": true, "--help": true,
}

// emacsEffects reads emacs and emacsclient: the files they edit, and
// whether an option runs code; "+LINE" moves to a line.
func emacsEffects(base string, args []word) effects {
	var e effects
	for _, w := range args {
		switch {
		case !w.literal:
			e.unseen = firstOf(e.unseen, "the word "+w.value+" may be an option of "+base+", known only when it runs")
		case strings.HasPrefix(w.value, "-") && !emacsSafe[w.value]:
			e.unseen = firstOf(e.unseen, base+" "+w.value+" is not an option the splitter knows to run no code")
		case strings.HasPrefix(w.value, "+"):
		default:
			e.reads, e.writes = append(e.reads, w), append(e.writes, w)
		}
	}
	return e
}
