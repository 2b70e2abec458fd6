package shell

import (
	"cmp"
	"path"
	"strings"
)

// git rewriting the working tree. A subcommand that rewrites the files
// its pathspecs name (git checkout -- src, git restore ., git rm -r src)
// writes every file under each: a pathspec is a directory as often as a
// file, and git matches a glob in it across directories ("*.go" names
// src/a.go), so each is a tree, a glob's the directory written before its
// first wildcard. A subcommand that rewrites whatever differs between two
// commits (git reset --hard, git switch, git merge, git stash) writes
// the whole working tree, whose top is taken to be where git runs: the
// directory after its -C options and, when it was moved there (git -C
// build, cd build), the directory the call started in as well, which
// holds the tree when the repository's top lies above. A subcommand is
// known to leave the working tree alone only by the tables below; any
// other, an alias or a program git-NAME among them, rewrites it whole.

// gitKeepsWorktree reports whether a subcommand, or the action of one
// that has them ("stash list"), is known to change no file of the working
// tree but those its table names (the file of git log --output, the
// directory git clone makes): it reads, or changes only the index, the
// refs, the objects or the configuration. Every action of remote,
// config, reflog and notes does.
func gitKeepsWorktree(sub, action string) bool {
	switch sub {
	case "remote", "config", "reflog", "notes":
		return true
	}
	switch action {
	case "status", "log", "show", "diff", "whatchanged", "shortlog", "rev-list", "blame", "annotate",
		"branch", "tag", "rev-parse", "ls-files", "ls-tree", "describe", "cat-file", "show-ref",
		"for-each-ref", "merge-base", "count-objects", "grep", "version", "var", "check-ignore",
		"check-attr", "check-ref-format", "range-diff", "diff-tree", "diff-index", "diff-files",
		"bundle", "format-patch", "archive", "commit", "add", "stage", "hash-object", "update-index",
		"merge-file", "clone", "init", "fetch", "fetch-pack", "ls-remote", "push", "send-pack",
		"daemon", "send-email", "gc", "fsck", "prune", "repack", "pack-refs", "update-ref",
		"symbolic-ref", "commit-tree", "write-tree", "mktree", "mktag", "show-branch", "name-rev",
		"cherry", "verify-commit", "verify-tag", "help",
		"rm", "mv", "checkout-index",
		"stash list", "stash show", "stash drop", "stash clear", "stash create", "stash store",
		"worktree add", "worktree remove", "worktree move", "worktree list", "worktree lock",
		"worktree unlock", "worktree prune",
		"sparse-checkout list", "sparse-checkout check-rules",
		"submodule status", "submodule summary", "submodule init", "submodule sync",
		"submodule foreach", "submodule add",
		"bisect log", "bisect terms", "bisect visualize", "bisect view", "bisect help":
		return true
	}
	return false
}

// gitKeepingOptions are the options with which a subcommand that
// rewrites the working tree leaves it alone: it gives up without
// restoring it (--quit), prints the patch it stopped at, or ends a merge
// by committing what is staged.
func gitKeepingOptions(sub string) []string {
	switch sub {
	case "merge":
		return []string{"quit", "continue"}
	case "rebase", "am":
		return []string{"quit", "show-current-patch"}
	case "cherry-pick", "revert":
		return []string{"quit"}
	}
	return nil
}

// gitRewritesWhole reports whether a subcommand given rest rewrites the
// whole working tree, and why that cannot be known: a word its table
// does not know, which may be the option that decides.
func gitRewritesWhole(sub string, rest []word) (bool, string) {
	action, words := gitAction(sub, rest)
	if gitActions[sub] || sub == "submodule" || sub == "sparse-checkout" || sub == "bisect" {
		if len(rest) == 0 {
			// Without an action they print (stash is "stash push").
			return sub == "stash", ""
		}
		if action == sub {
			action = sub + " " + rest[0].value
		}
	}
	if gitKeepsWorktree(sub, action) {
		return false, ""
	}
	c, known := gitCommands()[action]
	table := cmp.Or(c.inert, c.options, c.files)
	if !known || table == nil {
		return true, ""
	}
	p := table.parseFlags("git "+action, words, true)
	if p.opaque != "" && table != c.files {
		return false, p.opaque
	}
	operands, paths := gitSplitOperands(words, p.operands)
	whole := false
	switch action {
	case "reset":
		// Without these it moves the branch and the index alone.
		whole = p.has("hard", "merge", "keep")
	case "switch":
		// --orphan empties the tree; -c with no start point moves
		// nothing, nor does --detach.
		whole = p.has("orphan") || len(p.operands) > 0
	case "checkout":
		// A word before "--" with no path after it, or the only word, may
		// be a branch; -f or -p alone restore every file.
		whole = len(paths) == 0 && len(operands) == 1 || len(p.operands) == 0 && p.has("f", "force", "p", "patch")
	case "read-tree":
		whole = p.has("u") && !p.has("n", "dry-run")
	case "clean":
		whole = len(p.operands) == 0 && !p.has("n", "dry-run")
	case "stash push":
		// The words of save are its message, not paths: it stashes
		// every change.
		whole = len(p.operands) == 0 || rest[0].value == "save"
	case "restore":
		// -p with no path offers every file, in the working tree unless
		// --staged alone keeps it to the index.
		whole = len(p.operands) == 0 && p.has("p", "patch") && !(p.has("S", "staged") && !p.has("W", "worktree"))
	case "apply":
		// Into the index only, or to report.
		whole = p.has("apply") || !p.has("stat", "numstat", "summary", "check", "cached")
	default:
		whole = !p.has(gitKeepingOptions(action)...)
	}
	if whole {
		return true, ""
	}
	return false, gitHiddenOption(action, operands)
}

// gitHiddenOption is why a subcommand whose options say it rewrites no
// file may yet: an operand made when git runs ("git reset "$opt"",
// "git restore --staged "$x" src"), or a glob the shell may expand to
// one, may be the option that makes it (--hard, --worktree).
func gitHiddenOption(sub string, operands []word) string {
	for _, w := range operands {
		if !w.literal || w.pattern && !literalHead(w.value) {
			return "the word " + w.value + " may be an option that makes git " + sub + " rewrite the working tree, known only when it runs"
		}
	}
	return ""
}

// gitSplitOperands are the operands before "--" and the paths after it,
// among the operands an option reader found in words.
func gitSplitOperands(words, operands []word) (before, after []word) {
	n := gitPathspecs(words)
	if n == 0 && !hasWord(words, "--") {
		return operands, nil
	}
	return operands[:len(operands)-n], operands[len(operands)-n:]
}

// gitRewrites are the pathspecs a subcommand that rewrites the files
// they name writes, each as the tree of files it names (see the top of
// the file), and none when its options say it writes no file of the
// working tree: git restore --staged, git rm --cached, a dry run, and
// why, then, it may yet ([gitHiddenOption]). The files of git
// checkout-index are files, not pathspecs.
func gitRewrites(sub string, rest, files []word) ([]word, string) {
	c := gitCommands()[sub]
	p := cmp.Or(c.inert, c.options, c.files).parseFlags("git "+sub, rest, true)
	switch {
	case sub == "restore" && p.has("S", "staged") && !p.has("W", "worktree"),
		sub == "rm" && p.has("cached"),
		(sub == "rm" || sub == "mv" || sub == "clean") && p.has("n", "dry-run"):
		before, _ := gitSplitOperands(rest, p.operands)
		return nil, gitHiddenOption(sub, before)
	case sub == "checkout-index":
		// The files it names, its "." of -a a tree already, or, with
		// --prefix, each under the prefix.
		if prefix := gitPrefixTree(p); prefix != nil {
			return prefix, ""
		}
		return files, ""
	}
	out := make([]word, 0, 2*len(files))
	for _, w := range files {
		if w.pattern {
			// The glob itself, a pattern of the files it names, and the
			// directory it begins with, whose files git matches it
			// against.
			out = append(out, w)
			w.value, w.pattern = gitGlobHead(w.value), false
		}
		w.tree = &tree{}
		out = append(out, w)
	}
	return out, ""
}

// gitGlobHead is the directory a pathspec glob begins with: "src" of
// "src/*.go", "." of "*.go".
func gitGlobHead(glob string) string {
	i := strings.IndexAny(glob, "*?[")
	head := glob[:i]
	if j := strings.LastIndexByte(head, '/'); j >= 0 {
		return cmp.Or(head[:j], "/")
	}
	return "."
}

// gitPrefixTree is the directory git checkout-index --prefix writes in:
// the prefix when it ends in "/", else the directory it begins in, since
// git joins it to each path as text ("--prefix=sr" writes "src/a.go" of
// "c/a.go").
func gitPrefixTree(p parsed) []word {
	for _, g := range p.options {
		if g.name == "prefix" && g.hasValue {
			at := g.value
			if !strings.HasSuffix(at.value, "/") {
				at.value = path.Dir(at.value)
			}
			at.tree = &tree{}
			return []word{at}
		}
	}
	return nil
}

// gitLine is git's command line for a command named base: its words,
// for git, and for a program git-NAME the table does not hold, which
// git's exec path holds for its subcommand NAME (/usr/lib/git-core/
// git-reset --hard), NAME and its words.
func gitLine(base string, args []word) ([]word, bool) {
	switch {
	case base == "git":
		return args, true
	case strings.HasPrefix(base, "git-") && len(base) > len("git-") && lookup(base) == nil:
		return append([]word{{value: base[len("git-"):], literal: true}}, args...), true
	}
	return nil, false
}

// gitTop is the top of the working tree a subcommand rewrites whole, a
// tree: the directory git runs in, at the word that names the
// subcommand, or the one --work-tree names, from the directory its -C
// options before it move git to.
func gitTop(sub word, p parsed) word {
	at := sub
	at.value, at.literal = ".", true
	dir := ""
	for _, g := range p.options {
		switch g.name {
		case "C":
			dir = gitJoin(dir, g.value.value)
		case "work-tree":
			at = g.value
			at.value = gitJoin(dir, g.value.value)
		}
	}
	at.tree = &tree{}
	return at
}

// gitRewritesTop reports whether git's command line rewrites the whole
// working tree, whose top may be the directory the call started in when
// a cd moved git away from it ("cd build && git reset --hard"), unless
// --work-tree says where it is.
func gitRewritesTop(args []word) bool {
	p := gitGlobals.parseFlags("git", args, false)
	if p.opaque != "" || len(p.operands) == 0 || !p.operands[0].literal || p.has("work-tree") {
		return false
	}
	whole, _ := gitRewritesWhole(p.operands[0].value, p.operands[1:])
	return whole
}

// gitMovedUnseen is why the files git reads and writes cannot be known
// when the call names GIT_WORK_TREE or GIT_DIR, which move them as
// --work-tree and --git-dir do ([gitElsewhere]): "export
// GIT_WORK_TREE=src; git checkout -- README" writes src/README. The
// call's text is read whole, since export, env, an assignment before the
// command or one a shell string makes all name the variable, and a name
// made when the call runs hides code already.
func gitMovedUnseen(call string, e effects) string {
	if len(e.reads)+len(e.writes) == 0 {
		return ""
	}
	for _, name := range []string{"GIT_WORK_TREE", "GIT_DIR"} {
		if strings.Contains(call, name) {
			return name + " may move the files git reads and writes"
		}
	}
	return ""
}
