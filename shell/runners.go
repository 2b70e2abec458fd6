package shell

import "strings"

// The commands of the table whose options can make them run a program
// or read a configuration that does: rsync, ssh, scp, sftp, rg, man, zip
// and the vi family. Each option is known; the ones that run a program
// make the command hide code, as an option the table does not know does.

// addRunners adds the commands of this file to the table of programs.
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
	table["zip"] = &program{flags: zipOptions, permute: true, files: zipFiles}
	for _, name := range []string{"vi", "vim", "nvim", "ex", "view"} {
		table[name] = &program{flags: vimOptions, permute: true, files: vimFiles, check: vimCommands}
	}
}

// rsyncOptions are rsync's options.
var rsyncOptions = flagSet(byEffect{
	inert:      "v verbose info: debug: stderr: q quiet no-motd c checksum a archive r recursive R relative no-implied-dirs b backup backup-dir: suffix: u update inplace append append-verify d dirs mkpath l links L copy-links copy-unsafe-links safe-links munge-links k copy-dirlinks K keep-dirlinks H hard-links p perms E executability chmod: A acls X xattrs o owner g group devices copy-devices write-devices specials D t times U atimes open-noatime N crtimes O omit-dir-times J omit-link-times super fake-super S sparse preallocate n dry-run W whole-file checksum-choice: x one-file-system B: block-size: existing ignore-existing remove-source-files del delete delete-before delete-during delete-delay delete-after delete-excluded ignore-missing-args delete-missing-args ignore-errors force max-delete: max-size: min-size: max-alloc: P partial partial-dir: delay-updates m prune-empty-dirs numeric-ids usermap: groupmap: chown: timeout: contimeout: I ignore-times size-only modify-window: T: temp-dir: y fuzzy compare-dest: copy-dest: link-dest: z compress compress-choice: compress-level: skip-compress: C cvs-exclude f: filter: F exclude: include: 0 from0 s protect-args secluded-args trust-sender address: port: sockopts: blocking-io outbuf: stats 8 8-bit-output h human-readable progress i itemize-changes out-format: log-file-format: list-only bwlimit: stop-after: stop-at: fsync 4 ipv4 6 ipv6 V version help no-v no-verbose no-r no-recursive no-perms no-p no-times no-t no-owner no-o no-group no-g no-D no-devices no-specials no-links no-l",
	readsArg:   "exclude-from: include-from: password-file: read-batch:",
	listsFiles: "files-from:",
	writesArg:  "log-file: write-batch: only-write-batch:",
	runs:       "e: rsh: rsync-path:",
})

// rsyncFiles are the local files rsync reads and writes: the sources and
// the destination, the last operand; HOST:PATH and rsync:// URLs name
// files on another host.
func rsyncFiles(p parsed) (reads, writes []word) {
	var local []word
	for _, w := range p.operands {
		if !remotePath(w.value) {
			local = append(local, w)
		}
	}
	if len(p.operands) < 2 || remotePath(p.operands[len(p.operands)-1].value) {
		return sourcesRemoved(p, local, nil)
	}
	return sourcesRemoved(p, local[:len(local)-1], local[len(local)-1:])
}

// sourcesRemoved are rsync's files when --remove-source-files deletes
// the sources it sent: they are written as well as read.
func sourcesRemoved(p parsed, sources, dest []word) (reads, writes []word) {
	if p.has("remove-source-files") {
		return sources, append(dest[:len(dest):len(dest)], sources...)
	}
	return sources, dest
}

// remotePath reports whether rsync or scp reads a path as on another
// host: a colon before any slash, or a URL.
func remotePath(v string) bool {
	head, _, _ := strings.Cut(v, "/")
	return strings.Contains(head, ":")
}

// sshOptions are the options of ssh, scp and sftp: -F reads a
// configuration that may name a local command, -S and sftp's -D run a
// program.
var sshOptions = map[string]*optionTable{
	"ssh": flagSet(byEffect{
		inert:     "4 6 A a C f G g K k M N n q s T t V v X x Y y B: b: c: D: e: I: J: L: l: m: O: o: p: P: Q: R: W: w:",
		readsArg:  "i:",
		writesArg: "E:",
		runs:      "F: S:",
	}),
	"scp": flagSet(byEffect{
		inert:    "3 4 6 A B C O p q R r s T v c: D: J: l: o: P: X:",
		readsArg: "i:",
		runs:     "F: S:",
	}),
	"sftp": flagSet(byEffect{
		inert:    "4 6 A a C f N p q r v B: c: J: l: o: P: R: s:",
		readsArg: "b: i:",
		runs:     "F: S: D:",
	}),
}

// sshSafeSettings are the -o settings of ssh known to run no local
// command, lower case; any other asks, as ProxyCommand, LocalCommand and
// KnownHostsCommand run one.
var sshSafeSettings = map[string]bool{
	"batchmode": true, "connecttimeout": true, "connectionattempts": true, "port": true, "user": true,
	"hostname": true, "stricthostkeychecking": true, "identitiesonly": true, "serveraliveinterval": true,
	"serveralivecountmax": true, "loglevel": true, "compression": true, "requesttty": true,
	"passwordauthentication": true, "pubkeyauthentication": true, "preferredauthentications": true,
	"addressfamily": true, "tcpkeepalive": true, "forwardagent": true, "forwardx11": true,
	"hostkeyalgorithms": true, "pubkeyacceptedalgorithms": true, "kbdinteractiveauthentication": true,
	"updatehostkeys": true, "visualhostkey": true, "checkhostip": true, "exitonforwardfailure": true,
	"gssapiauthentication": true, "numberofpasswordprompts": true, "setenv": true, "sendenv": true,
}

// sshSettings is why a -o setting may run a local command: one not known
// to be safe, or one made when the command runs.
func sshSettings(base string, p parsed) string {
	for _, g := range p.options {
		if g.name != "o" || !g.hasValue {
			continue
		}
		v := g.value.value
		key, _, _ := strings.Cut(strings.TrimSpace(v), "=")
		key, _, _ = strings.Cut(key, " ")
		if !g.value.literal || !sshSafeSettings[strings.ToLower(key)] {
			return base + " -o " + key + " is not a setting known to run no local command"
		}
	}
	return ""
}

// rgOptions are ripgrep's options: --pre and --hostname-bin run a
// program.
var rgOptions = flagSet(byEffect{
	inert:    "A: after-context: B: before-context: C: context: c count count-matches color: colors: column no-column context-separator: no-context-separator E: encoding: no-encoding F fixed-strings no-fixed-strings L follow no-follow g: glob: iglob: glob-case-insensitive h help heading no-heading hidden no-hidden i ignore-case ignore-file-case-insensitive include-zero invert-match v l files-with-matches files-without-match line-buffered line-number n N no-line-number M: max-columns: max-columns-preview max-count: m: max-depth: d: max-filesize: mmap no-mmap multiline U multiline-dotall no-ignore no-ignore-dot no-ignore-exclude no-ignore-files no-ignore-global no-ignore-messages no-ignore-parent no-ignore-vcs no-messages no-pcre2-unicode no-require-git no-unicode null 0 null-data one-file-system o only-matching passthru passthrough path-separator: P pcre2 pcre2-version p pretty q quiet regex-size-limit: dfa-size-limit: engine: r: replace: s case-sensitive S smart-case sort: sortr: sort-files stats no-stats t: type: T: type-not: type-add: type-clear: type-list u unrestricted vimgrep w word-regexp x line-regexp j: threads: trim no-trim z search-zip no-search-zip a text no-text b byte-offset binary no-binary block-buffered H with-filename I no-filename json no-json crlf no-crlf files debug trace V version field-context-separator: field-match-separator: hyperlink-format: auto-hybrid-regex no-config",
	readsArg: "e: regexp: f: file: ignore-file:",
	runs:     "pre: pre-glob: hostname-bin:",
})

// manOptions are man-db's options: -P names a pager, -H a browser, -X
// and -T a program to show the page with.
var manOptions = flagSet(byEffect{
	inert: "C: config-file: d debug D default w where path c catman W where-cat location-cat e: extension: f whatis k apropos K global-apropos l local-file r: prompt: 7 ascii E: encoding: no-hyphenation nh no-justification nj p: preprocessor: Z ditroff a all u update no-subpages L: locale: m: systems: M: manpath: S: s: sections: i ignore-case I match-case regex wildcard names-only R: recode: t troff h help V version",
	runs:  "P: pager: H:: html:: X:: gxditview:: T:: troff-device::",
})

// zipOptions are zip's options: -TT names the command that tests the
// archive.
var zipOptions = flagSet(byEffect{
	inert:      "0 1 2 3 4 5 6 7 8 9 r recurse-paths R recurse-patterns q quiet v verbose j junk-paths u update f freshen d delete m move x: exclude: i: include: y symlinks e encrypt P: password: T test D no-dir-entries X no-extra o latest-time g grow A adjust-sfx J junk-sfx l to-crlf ll from-crlf F fix FF fixfix s: split-size: sp split-pause b: temp-path: n: suffixes: Z: compression-method: z archive-comment c entry-comments k DOS-names S system-hidden t: from-date: tt: before-date: dg display-globaldots ds: display-bytes dd display-dots h help L license",
	listsFiles: "@",
	runs:       "TT: unzip-command:",
})

// vimOptions are the options of the vi family: -c, --cmd, -S, -u and -s
// run editor commands, which may be shell commands, as a +CMD operand
// does.
var vimOptions = flagSet(byEffect{
	inert:     "R r L n N b l C Z m M A H F e E d y g f o:: O:: p:: V:: D x nofork noplugin clean not-a-term ttyfail h help v version",
	writesArg: "w: W:",
	runs:      "c: cmd: S: u: U: s: i:",
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
