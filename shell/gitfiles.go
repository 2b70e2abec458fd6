package shell

import (
	"cmp"
	"path"
	"slices"
	"strings"
)

// The files git reads and writes besides its repository: the values of
// options that name a file, the working-tree files diff and grep read,
// and the directory init and clone make a repository in.

// gitOptions are the effects of a subcommand's options, read against
// its table as git reads them ("-o out", "-oout", "--output=out", "--out
// out", "-aF msg"): the files they name, read and written; the shell
// code rebase's --exec runs; and why what git does cannot be known: an
// option that runs a program, one that reads the paths git works on from
// a list, or a word made when git runs, written as an option, in a table
// with an option that writes a file, which may be that option. A
// subcommand the table does not hold (an alias, or a program git-NAME)
// is read against [gitUnknown].
func gitOptions(sub string, rest []word) effects {
	if len(rest) > 0 && gitActions[sub] {
		if _, ok := gitCommands()[sub+" "+rest[0].value]; ok {
			// An action's own table: "stash show --output=f".
			sub, rest = sub+" "+rest[0].value, rest[1:]
		}
	}
	c, known := gitCommands()[sub]
	table := cmp.Or(c.inert, c.options, c.files)
	switch {
	case !known:
		table = gitUnknown
	case table == nil:
		return effects{}
	}
	var e effects
	p := table.parseFlags("git "+sub, rest, true)
	for _, g := range p.options {
		switch {
		case g.effect == listsFiles:
			e.unseen = firstOf(e.unseen, "git "+sub+" "+g.written+" reads the names of what it reads from standard input or a list, known only when it runs")
		case g.effect == runs && sub == "rebase":
			// Its command is shell code, decided as written.
			switch {
			case g.hasValue && !g.value.literal:
				e.unseen = firstOf(e.unseen, "git rebase "+g.written+" runs a string made when it runs")
			case g.hasValue:
				e.scripts = append(e.scripts, g.value.value)
			}
		case g.effect == runs && g.hasValue:
			e.unseen = firstOf(e.unseen, "git "+sub+" "+g.written+" names a program git runs")
		case g.effect == runs:
			e.unseen = firstOf(e.unseen, "git "+sub+" "+g.written+" runs a program")
		case !g.hasValue:
		case g.effect == readsArg:
			e.reads = append(e.reads, g.value)
		case g.effect == writesArg:
			e.writes = append(e.writes, g.value)
		}
	}
	if !table.indexed().risky {
		return e
	}
	for _, w := range rest {
		switch {
		case w.value == "--" && w.literal:
			return e
		case !w.literal && strings.HasPrefix(w.value, "-"):
			e.unseen = firstOf(e.unseen, "the word "+w.value+" may be an option of git "+sub+" that writes a file or runs a program, known only when it runs")
			return e
		}
	}
	return e
}

// gitUnknown is the table of a subcommand the table does not hold,
// which may be an alias for one it does: the long options that make any
// of git's subcommands run a program or read the paths it works on from
// a list, read in any abbreviation.
var gitUnknown = flagSet(byEffect{
	listsFiles: `
		pathspec-from-file:
	`,
	runs: `
		upload-pack:
		receive-pack:
		exec:
		smtp-server:
		sendmail-cmd:
		access-hook:
		open-files-in-pager::
	`,
})

// gitTransport is why a subcommand that reads a remote's URL runs a
// command: a word naming the ext:: or fd:: transport, which git may read
// as the URL wherever it stands, after "--" too.
func gitTransport(sub string, rest []word) string {
	if !gitCommands()[sub].url {
		return ""
	}
	for _, w := range rest {
		if strings.Contains(w.value, "ext::") || strings.Contains(w.value, "fd::") {
			return "a URL of the ext:: or fd:: transport makes git run a command"
		}
	}
	return ""
}

// gitOperandFiles are the files a subcommand's operands name, read or
// written as its table says, and why they cannot be known. Every operand
// counts, revisions too, which name no file in the working tree: git
// reads "HEAD" or "main" as a revision unless a file of that name
// exists, and a subject too many is only a path nothing denies. An
// operand "REV:path" (":path", ":0:path", "HEAD~1:./path") names the
// committed or staged copy of path, whose contents git prints as a
// reader of the file would: it is a subject as written and as path.
// A subcommand whose operands are revisions (rev-parse, cat-file) reads
// only the path of "REV:path"; log and show read any other operand as a
// path too, as git does a word that names no revision ("git log -p
// .env"): when it may be both, git refuses it as ambiguous. grep's first operand is its pattern unless -e or
// -f gave one. A
// pathspec with magic (":(icase).ENV", ":!x") or a glob ("*.env"), which
// git matches against the files itself, is a pattern.
//
// tops are the paths of "REV:path" that are relative to the top of the
// repository rather than to the directory git runs in (no "./" or
// "../"): after "git -C sub" they may name "path" as well as "sub/path".
func gitOperandFiles(sub string, rest []word) (reads, writes, tops []word, why string) {
	c := gitCommands()[sub]
	if c.operands == inert {
		return nil, nil, nil, ""
	}
	operands, why := gitOperandWords(sub, c, rest)
	if why != "" {
		return nil, nil, nil, why
	}
	var files []word
	for i, w := range operands {
		named, magic := gitPathOf(w)
		if magic {
			return nil, nil, nil, "git " + sub + " " + w.value + " is a pathspec with magic, which matches files known only when it runs"
		}
		if len(named) > 1 && !strings.HasPrefix(named[1].value, "./") && !strings.HasPrefix(named[1].value, "../") {
			tops = append(tops, named[1])
		}
		before := i < len(operands)-gitPathspecs(rest)
		if before && (c.blobsOnly || c.revisions && len(named) > 1) {
			named = named[1:]
		}
		files = append(files, named...)
	}
	if c.operands == writesArg {
		writes, why := gitRewrites(sub, rest, files)
		return nil, writes, tops, why
	}
	return gitWholeTrees(sub, rest, files), nil, tops, ""
}

// gitWholeTrees are the files diff and grep outside the index read, each
// read whole when it is a directory, a tree: git diff --no-index of two
// directories recurses, as it does for a path outside the repository,
// which makes git compare as --no-index without being told; grep with
// --no-index or --untracked reads the files it names outside the index,
// or, with no path, every file under the working directory. The other
// subcommands' operands are read as named: diff and grep within the
// repository read only tracked files, which the repository alone knows.
// diff finds --no-index as written, grep in any abbreviation ("--untr",
// "--no-ind"), as git 2.39 does.
func gitWholeTrees(sub string, rest, files []word) []word {
	switch {
	case sub == "diff" && (hasWord(rest, "--no-index") || slices.ContainsFunc(files, outsideRepository)):
	case sub == "grep" && gitCommands()[sub].inert.parseFlags("git grep", rest, true).has("no-index", "untracked"):
		if len(files) == 0 {
			files = []word{{value: ".", literal: true}}
		}
	default:
		return files
	}
	return asTrees(files, &tree{})
}

// outsideRepository reports whether a path git diff is given may lie
// outside the repository it runs in: absolute, from home, or climbing
// with "..". A path made when the shell runs may be any of these.
func outsideRepository(w word) bool {
	v := w.value
	return !w.literal || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") ||
		v == ".." || strings.HasPrefix(v, "../") || strings.Contains(v, "/../") || strings.HasSuffix(v, "/..")
}

// gitOperandWords are the operands of a subcommand, read against its
// table, with the pattern of grep dropped and the tree of archive read as
// the path it names; a line the table cannot read counts every word but
// the options, or, for a writer, asks. The lines of "log -L START,END:FILE"
// name a file too.
func gitOperandWords(sub string, c gitCommand, rest []word) ([]word, string) {
	operands := gitWords(rest)
	if sub == "grep" && !gitPatternOption(rest) && len(operands) > 0 {
		operands = operands[1:]
	}
	table := cmp.Or(c.inert, c.options)
	if table == nil && c.revisions {
		// format-patch's table holds its short options and those that
		// name a file: a long option it does not know counts every word.
		table = c.files
	}
	if table == nil {
		return operands, ""
	}
	p := table.parseFlags("git "+sub, rest, true)
	switch {
	case p.opaque != "" && table == c.options:
		// An option the table of a writer does not know may take the
		// word that names what it writes.
		return nil, p.opaque
	case p.opaque != "":
		return operands, ""
	}
	if g, ok := p.first(listsFiles); ok {
		return nil, "git " + sub + " " + g.written + " reads the names of what it reads from standard input or a list, known only when it runs"
	}
	operands = p.operands
	switch {
	case sub == "checkout-index" && len(operands) == 0 && p.has("a", "all"):
		// Every file of the index, into the working tree.
		at := rest[0]
		at.value, at.tree = ".", &tree{}
		operands = []word{at}
	case (sub == "add" || sub == "stage") && len(operands) == 0 && p.has("A", "all", "u", "update"):
		// Every file of the working tree.
		at := rest[0]
		at.value = "."
		operands = []word{at}
	case sub == "grep" && !p.has("e", "f") && len(operands) > 0:
		operands = operands[1:]
	case sub == "archive" && len(operands) > 0:
		// The tree it archives, then the paths in it.
		tree, _ := gitPathOf(operands[0])
		operands = append(tree[1:len(tree):len(tree)], operands[1:]...)
	}
	var lines []word
	for _, g := range p.options {
		if g.name == "L" && sub != "blame" {
			if i := strings.LastIndex(g.value.value, ":"); i >= 0 {
				file := g.value
				file.value = ":" + file.value[i+1:]
				lines = append(lines, file)
			}
		}
	}
	// Before the operands, whose last ones may be the paths after "--".
	return append(lines, operands...), ""
}

// gitPathspecs counts the words after "--", which are paths whatever the
// subcommand reads its other operands as.
func gitPathspecs(rest []word) int {
	for i, w := range rest {
		if w.value == "--" {
			return len(rest) - i - 1
		}
	}
	return 0
}

// gitWords are the words of a subcommand whose options the table does
// not hold that may be operands: every word that is no option, values of
// options among them (a subject too many), and every word after "--".
func gitWords(rest []word) []word {
	var operands []word
	for i, w := range rest {
		switch {
		case w.value == "--":
			return append(operands, rest[i+1:]...)
		case !strings.HasPrefix(w.value, "-"):
			operands = append(operands, w)
		}
	}
	return operands
}

// gitPatternOption reports whether a word may be grep's -e or -f, which
// give the pattern in place of the first operand: "-e", "-f", or a
// cluster holding either.
func gitPatternOption(rest []word) bool {
	for _, w := range rest {
		v := w.value
		if v == "--" {
			return false
		}
		if len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.ContainsAny(v[1:], "ef") {
			return true
		}
	}
	return false
}

// gitPathOf is the word as the files it may name: itself and, for
// "REV:path", the path, marked a pattern where git would match it as a
// glob; magic reports a pathspec with magic (":(…)", ":!", ":^"),
// whose files cannot be named.
func gitPathOf(w word) (named []word, magic bool) {
	v := w.value
	if strings.HasPrefix(v, ":(") || strings.HasPrefix(v, ":!") || strings.HasPrefix(v, ":^") {
		return nil, true
	}
	named = []word{gitGlob(w)}
	// A revision may hold a colon inside "@{…}" (a date); the path
	// starts after the first colon past it.
	from := strings.LastIndex(v, "}") + 1
	i := strings.Index(v[from:], ":")
	if i < 0 {
		return named, false
	}
	path := v[from+i+1:]
	if strings.HasPrefix(path, "/") && from+i == 0 {
		// ":/text" names the commit whose message matches, or, as a
		// pathspec, the top of the repository: all of it.
		path = "."
	}
	if j := strings.Index(path, ":"); from+i == 0 && j >= 0 && j <= 1 {
		// ":0:path", ":1:path": a stage of the index.
		path = path[j+1:]
	}
	if path == "" {
		path = "."
	}
	at := w
	at.value = path
	return append(named, gitGlob(at)), false
}

// gitGlob marks a word a pattern when it holds a character git matches
// as a glob in a pathspec.
func gitGlob(w word) word {
	if strings.ContainsAny(w.value, "*?[") {
		w.pattern = true
	}
	return w
}

// gitActionOptions are the options of the actions that make a directory
// or a file a word names: "worktree add PATH", "submodule add URL PATH",
// "bundle create FILE".
var gitActionOptions = map[string]*optionTable{
	"worktree add": flagSet(byEffect{
		inert: `
			f force
			detach
			checkout
			no-checkout
			lock
			reason:
			orphan
			q quiet
			track
			no-track
			guess-remote
			no-guess-remote
			relative-paths
			no-relative-paths
			b:
			B:
		`,
	}),
	"worktree remove": flagSet(byEffect{
		inert: `
			f force
		`,
	}),
	"worktree move": flagSet(byEffect{
		inert: `
			f force
		`,
	}),
	"bundle create": flagSet(byEffect{
		inert: `
			q quiet
			progress
			no-progress
			all-progress
			all-progress-implied
			version:
		`,
	}),
	"submodule add": flagSet(byEffect{
		inert: `
			b: branch:
			f force
			name:
			reference:
			depth:
			q quiet
		`,
	}),
}

// gitActionWrites are the files an action of a subcommand writes, and
// why they cannot be known: the working tree "worktree add" makes,
// "worktree remove" deletes and "worktree move" moves, the submodule's
// directory (named after its URL without one), the bundle file, the
// directory format-patch writes its patches in; and apply and am, which
// write the files their patches name, but to report (apply --stat,
// --numstat, --summary, --check without --apply, or into the index only
// with --cached; am --show-current-patch).
func gitActionWrites(sub string, rest []word) (writes []word, why string) {
	action := ""
	if len(rest) > 0 {
		action = sub + " " + rest[0].value
	}
	switch {
	case gitActionOptions[action] != nil:
		// bundle create reads no option after its file: the words
		// after it are rev-list's.
		p := gitActionOptions[action].parseFlags("git "+action, rest[1:], action != "bundle create")
		switch {
		case p.opaque != "":
			return nil, p.opaque
		case len(p.operands) == 0:
			return nil, ""
		case action == "worktree move":
			// Every file of the working tree it moves, and where to.
			return asTrees(p.operands[:min(len(p.operands), 2)], &tree{}), ""
		case action == "worktree add" || action == "worktree remove":
			return asTrees(p.operands[:1], &tree{}), ""
		case action == "bundle create":
			return p.operands[:1], ""
		case len(p.operands) > 1:
			return p.operands[1:2], ""
		}
		at := p.operands[0]
		at.value = humanish(at.value)
		if at.value == "" {
			at.literal, at.value = false, p.operands[0].value
		}
		return []word{at}, ""
	case sub == "format-patch":
		// Without a directory, a file or --stdout, it writes its
		// patches into the directory it runs in.
		p := gitCommands()[sub].files.parseFlags("git "+sub, rest, true)
		if !p.has("o", "output-directory", "output", "stdout") {
			return []word{{value: ".", literal: true}}, ""
		}
	case sub == "merge-file":
		// It writes the merge into its first operand, but with -p.
		p := gitCommands()[sub].options.parseFlags("git "+sub, rest, true)
		if p.opaque == "" && len(p.operands) > 0 && !p.has("p", "stdout") {
			return p.operands[:1], ""
		}
	case sub == "apply":
		p := gitCommands()[sub].options.parseFlags("git "+sub, rest, true)
		if p.has("apply") || !p.has("stat", "numstat", "summary", "check", "cached") {
			return nil, "git apply writes the files its patch names, known only when it runs"
		}
	case sub == "am":
		p := gitCommands()[sub].files.parseFlags("git "+sub, rest, true)
		if !p.has("quit", "show-current-patch") {
			return nil, "git am writes the files its patches name, known only when it runs"
		}
	}
	return nil, ""
}

// gitNewRepository is where git init makes a repository, whose
// .git/config git later runs programs from: its directory operand or the
// working directory, its .git unless --bare. An option init's table does
// not know asks: it may take the word that names the directory. So does
// --template, whose hooks it copies into the repository for later git
// commands to run.
func gitNewRepository(sub word, rest []word) (word, string) {
	p := gitCommands()["init"].options.parseFlags("git init", rest, true)
	if g, ok := p.first(readsArg); ok && g.name == "template" {
		p.opaque = firstOf(p.opaque, "git init "+g.written+" copies hooks that later git commands run")
	}
	at := sub
	at.value = "."
	if len(p.operands) > 0 {
		at = p.operands[0]
	}
	if !p.has("bare") {
		at.value = path.Join(at.value, ".git")
	}
	return at, p.opaque
}

// gitClone reads git clone against its table: why it runs what no rule
// reads (a template directory, whose hooks run during the clone, or a
// setting not known to run nothing), the source it reads when that is a
// path on this machine, and the new directory it writes, named by its
// second operand or, without one, after the repository. A line the table
// cannot read asks: an option it does not know may take the word that
// names the directory.
func gitClone(sub word, rest []word) (why string, reads, writes []word) {
	p := gitCommands()["clone"].options.parseFlags("git clone", rest, true)
	if p.opaque != "" {
		// Every word that is no option may be the source or the
		// directory.
		for _, w := range gitWords(rest) {
			if localRepository(w.value) {
				reads = append(reads, w)
			}
			at := w
			at.value = humanish(w.value)
			writes = append(writes, w, at)
		}
		return p.opaque, reads, writes
	}
	for _, g := range p.options {
		switch g.name {
		case "template":
			why = firstOf(why, "git clone "+g.written+" copies hooks that run during the clone")
		case "c", "config":
			key, _, _ := strings.Cut(g.value.value, "=")
			if !g.value.literal || !gitKeySafe(key) {
				why = firstOf(why, "git clone "+g.written+" "+key+" is not a setting known to run nothing")
			}
		}
	}
	operands := p.operands
	if len(operands) > 0 && localRepository(operands[0].value) {
		reads = operands[:1]
	}
	switch len(operands) {
	case 0:
		return why, nil, nil
	case 1:
		at := operands[0]
		at.value = humanish(at.value)
		if at.value == "" {
			at.literal = false
			at.value = operands[0].value
		}
		return why, reads, []word{at}
	}
	return why, reads, operands[1:2]
}

// localRepository reports whether git clone reads its source as a path
// on this machine: no URL ("scheme://"), and no host before a colon that
// comes before any slash ("host:path").
func localRepository(source string) bool {
	return !strings.Contains(source, "://") && !remotePath(source)
}

// humanish is the directory git clone names after a repository's URL or
// path: its last part without ".git" or ".bundle", "" when there is none.
func humanish(url string) string {
	url = strings.TrimRight(url, "/")
	url = strings.TrimSuffix(url, "/.git")
	if i := strings.LastIndexAny(url, "/:"); i >= 0 {
		url = url[i+1:]
	}
	url = strings.TrimSuffix(strings.TrimSuffix(url, ".git"), ".bundle")
	if url == "." || url == ".." {
		return ""
	}
	return url
}

// gitTops are the paths of git's "REV:path" operands that are relative
// to the top of the repository ([gitOperandFiles]): after a cd, "cd src
// && git show HEAD:.env" reads the top's .env, not src/.env, when the
// top is where the call started.
func gitTops(args []word) []word {
	p := gitGlobals.parseFlags("git", args, false)
	if p.opaque != "" || len(p.operands) == 0 || !p.operands[0].literal {
		return nil
	}
	_, _, tops, _ := gitOperandFiles(gitAction(p.operands[0].value, p.operands[1:]))
	return tops
}
