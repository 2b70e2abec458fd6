package shell

import (
	"path"
	"strings"
)

// git as a program runner: configuration is held to a table of keys known
// to run nothing, and the table of subcommands (gitcommands.go) says, an
// option a line, which options run a program, read a list or name a file
// and which leave a call read-only, read by the one option reader in
// whatever abbreviation, cluster or joined value git accepts.

// gitSafeKeys are the configuration keys, lower case, known to make git
// run no program and read or write no file of their choosing; any other
// key set with -c, --config-env or git config asks. "section.*" is any
// key of the section.
var gitSafeKeys = map[string]bool{
	"user.name": true, "user.email": true, "author.name": true, "author.email": true,
	"committer.name": true, "committer.email": true, "color.*": true, "advice.*": true,
	"core.quotepath": true, "core.autocrlf": true, "core.safecrlf": true, "core.eol": true,
	"core.abbrev": true, "core.filemode": true, "core.ignorecase": true, "core.whitespace": true,
	"core.longpaths": true, "core.precomposeunicode": true, "core.untrackedcache": true,
	"init.defaultbranch": true, "commit.gpgsign": true, "commit.verbose": true, "tag.gpgsign": true,
	"log.date": true, "log.decorate": true, "log.follow": true, "log.abbrevcommit": true, "log.showroot": true,
	"diff.renames": true, "diff.algorithm": true, "diff.noprefix": true, "diff.mnemonicprefix": true,
	"diff.colormoved": true, "diff.context": true, "diff.interhunkcontext": true, "diff.relative": true,
	"merge.conflictstyle": true, "merge.ff": true, "merge.log": true, "pull.rebase": true, "pull.ff": true,
	"push.default": true, "push.autosetupremote": true, "push.followtags": true, "fetch.prune": true,
	"fetch.prunetags": true, "rebase.autosquash": true, "rebase.autostash": true, "rebase.updaterefs": true,
	"status.short": true, "status.branch": true, "status.showuntrackedfiles": true, "status.relativepaths": true,
	"column.ui": true, "i18n.commitencoding": true, "i18n.logoutputencoding": true, "gc.auto": true,
	"maintenance.auto": true, "protocol.version": true, "branch.sort": true, "tag.sort": true,
	"versionsort.suffix": true, "grep.linenumber": true, "grep.patterntype": true, "grep.extendedregexp": true,
	"blame.date": true, "blame.coloring": true,
}

// gitKeySafe reports whether setting the key is known to run nothing.
func gitKeySafe(key string) bool {
	key = strings.ToLower(key)
	section, _, ok := strings.Cut(key, ".")
	return ok && (gitSafeKeys[key] || gitSafeKeys[section+".*"])
}

// gitSafeVariables are the GIT_ environment variables known to make git
// run no program and write no file of their choosing; any other set for a
// command asks.
var gitSafeVariables = map[string]bool{
	"GIT_AUTHOR_NAME": true, "GIT_AUTHOR_EMAIL": true, "GIT_AUTHOR_DATE": true,
	"GIT_COMMITTER_NAME": true, "GIT_COMMITTER_EMAIL": true, "GIT_COMMITTER_DATE": true,
	"GIT_TERMINAL_PROMPT": true, "GIT_OPTIONAL_LOCKS": true, "GIT_FLUSH": true,
	"GIT_MERGE_AUTOEDIT": true, "GIT_LITERAL_PATHSPECS": true, "GIT_GLOB_PATHSPECS": true,
	"GIT_NOGLOB_PATHSPECS": true, "GIT_ICASE_PATHSPECS": true, "GIT_CONFIG_NOSYSTEM": true,
	"GIT_NO_REPLACE_OBJECTS": true, "GIT_ADVICE": true, "GIT_PAGER_IN_USE": true,
	"GIT_DEFAULT_HASH": true, "GIT_PROGRESS_DELAY": true,
	// Like -C and --git-dir, these say which repository git reads.
	"GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_CEILING_DIRECTORIES": true,
	"GIT_DISCOVERY_ACROSS_FILESYSTEM": true, "GIT_NAMESPACE": true,
}

// gitGlobals are git's own options before the subcommand, by effect;
// -c, --config-env and --exec-path are read by gitEffects.
var gitGlobals = flagSet(byEffect{
	inert: `
		C:
		git-dir:
		work-tree:
		namespace:
		bare
		no-replace-objects
		literal-pathspecs
		glob-pathspecs
		noglob-pathspecs
		icase-pathspecs
		no-optional-locks
		no-lazy-fetch
		P no-pager
		p paginate
		no-advice
		html-path
		man-path
		info-path
		version v
		help h
		list-cmds:
		attr-source:
		super-prefix:
	`,
	changes: `
		c:
		config-env:
		exec-path::
	`,
})

// gitEffects reads git's command line.
func gitEffects(args []word) effects {
	e := effects{}
	p := gitGlobals.parseFlags("git", args, false)
	e.unseen = p.opaque
	for _, g := range p.options {
		switch g.name {
		case "c", "config-env":
			key, _, _ := strings.Cut(g.value.value, "=")
			if !g.value.literal || !gitKeySafe(key) {
				e.unseen = firstOf(e.unseen, "git "+g.written+" "+key+" is not a setting known to run nothing")
			}
		case "exec-path":
			if g.hasValue {
				e.unseen = firstOf(e.unseen, "git --exec-path changes which programs git runs")
			}
		}
	}
	if e.unseen != "" || len(p.operands) == 0 {
		return e
	}
	sub, rest := p.operands[0], p.operands[1:]
	if !sub.literal {
		e.unseen = "the git subcommand " + sub.value + " is known only when it runs"
		return e
	}
	o := gitOptions(sub.value, rest)
	e.reads, e.writes, e.scripts = o.reads, o.writes, o.scripts
	e.unseen = firstOf(o.unseen, gitTransport(sub.value, rest))
	reads, writes, tops, why := gitOperandFiles(gitAction(sub.value, rest))
	e.unseen = firstOf(e.unseen, why)
	e.reads, e.writes = append(e.reads, reads...), append(e.writes, writes...)
	writes, why = gitActionWrites(sub.value, rest)
	e.unseen = firstOf(e.unseen, why)
	e.writes = append(e.writes, writes...)
	whole, why := gitRewritesWhole(sub.value, rest)
	e.unseen = firstOf(e.unseen, why)
	if whole {
		e.writes = append(e.writes, gitTop(sub, p))
	}
	switch sub.value {
	case "init":
		at, why := gitNewRepository(sub, rest)
		e.unseen = firstOf(e.unseen, why)
		e.writes = append(e.writes, at)
	case "clone":
		why, reads, at := gitClone(sub, rest)
		e.unseen = firstOf(e.unseen, why)
		e.reads = append(e.reads, reads...)
		e.writes = append(e.writes, at...)
	case "config":
		// The language's own reason first: "--edit runs an editor".
		writes, why := gitConfig(sub, rest)
		e.unseen = firstOf(why, e.unseen)
		e.writes = append(e.writes, writes...)
	case "remote", "submodule":
		if sub.value == "submodule" && len(rest) > 0 && rest[0].value == "foreach" {
			e.unseen = firstOf(e.unseen, "git submodule foreach runs a command in every submodule")
		}
		if len(rest) > 0 && gitRemoteWrites[rest[0].value] {
			config := sub
			config.value = ".git/config"
			e.writes = append(e.writes, config)
		}
	case "bisect":
		if len(rest) > 1 && rest[0].value == "run" {
			e.commands = append(e.commands, rest[1:])
		}
	case "filter-branch", "filter-repo", "difftool", "mergetool", "instaweb", "web--browse":
		e.unseen = firstOf(e.unseen, "git "+sub.value+" runs commands of its own")
	}
	e.unseen = firstOf(e.unseen, gitElsewhere(p, e.reads, e.writes))
	if action, _ := gitAction(sub.value, rest); gitCommands()[action].operands == readsArg {
		e.reads = append(e.reads, gitRepositories(p)...)
	}
	if p.has("C") {
		// The top of the repository may be where git was started, the
		// -C directory a directory in it.
		e.reads = append(e.reads, tops...)
		if whole && !p.has("work-tree") {
			e.writes = append(e.writes, gitTop(sub, parsed{}))
		}
	}
	// Another repository's configuration may run commands of its own:
	// Claude Code asks for git -C, and the table does not call it
	// read-only.
	elsewhere := p.has("C", "git-dir", "work-tree")
	e.readOnly = e.unseen == "" && len(e.writes) == 0 && !elsewhere && allKnown(args) && gitReadOnly(sub.value, rest)
	return e
}

// gitAction is the entry of the table a subcommand's words are read
// against: "stash push" for git stash with no action, an option, push
// or save, which puts the paths it names away and restores them; "stash
// show" for show, which prints the stashed copies of the paths it names.
func gitAction(sub string, rest []word) (string, []word) {
	if sub != "stash" {
		return sub, rest
	}
	switch {
	case len(rest) == 0 || strings.HasPrefix(rest[0].value, "-"):
		return "stash push", rest
	case rest[0].value == "push" || rest[0].value == "save":
		return "stash push", rest[1:]
	case rest[0].value == "show":
		return "stash show", rest[1:]
	}
	return sub, rest
}

// gitElsewhere resolves the files git reads and writes against its -C
// options, each relative to the one before, as git changes directory for
// each before it reads anything else. It is why the files cannot be known:
// a -C made when the command runs, or --git-dir or --work-tree, which move
// the repository and its configuration away from the directory the paths
// name.
func gitElsewhere(p parsed, reads, writes []word) string {
	dir := ""
	for _, g := range p.options {
		switch {
		case g.name == "git-dir" || g.name == "work-tree":
			if len(reads)+len(writes) > 0 {
				return "git --" + g.name + " moves the files git reads and writes"
			}
		case g.name == "C":
			// "~/dir" is a directory the rules name as written.
			if why := pathUnseen(g.value); why != "" && !fromHome(g.value) {
				return why
			}
			dir = gitJoin(dir, g.value.value)
		}
	}
	if dir == "" {
		return ""
	}
	for _, list := range [][]word{reads, writes} {
		for i, w := range list {
			if !path.IsAbs(w.value) && !strings.HasPrefix(w.value, "~") {
				list[i].value = path.Join(dir, w.value)
				list[i].tilde = list[i].tilde || strings.HasPrefix(dir, "~")
			}
		}
	}
	return ""
}

// gitRepositories are the directories a subcommand that prints what
// files hold reads when git is moved to another repository: the -C
// directory, each relative to the one before, or the --work-tree and
// --git-dir directories relative to it. A repository inside a denied
// directory shows the files there: "git -C secrets log -p" prints their
// history, "git --work-tree=secrets diff" their changes. Each is read as
// the directory, which a rule for the files under it meets, not as a
// tree: in the repository, "git -C src show HEAD:main.go" reads one file.
func gitRepositories(p parsed) []word {
	var dirs []word
	at := word{literal: true}
	for _, g := range p.options {
		switch g.name {
		case "C":
			at.value = gitJoin(at.value, g.value.value)
			at.literal = at.literal && g.value.literal
			at.tilde = at.tilde || g.value.tilde
		case "work-tree", "git-dir":
			dir := g.value
			dir.value = gitJoin(at.value, g.value.value)
			dirs = append(dirs, dir)
		}
	}
	if at.value != "" && !p.has("work-tree") {
		dirs = append(dirs, at)
	}
	return dirs
}

// gitJoin is the path to, given to -C or --work-tree, from the directory
// git is in: to itself when absolute or from home.
func gitJoin(dir, to string) string {
	if path.IsAbs(to) || strings.HasPrefix(to, "~") {
		return to
	}
	return path.Join(dir, to)
}

// fromHome reports whether a literal word is a path from the home
// directory, "~" or "~/path", which the rules name as written.
func fromHome(w word) bool {
	return w.literal && !w.braces && !w.pattern && (w.value == "~" || strings.HasPrefix(w.value, "~/"))
}

// gitRemoteWrites are the actions of git remote and git submodule that
// write the repository's .git/config.
var gitRemoteWrites = map[string]bool{
	"add": true, "set-url": true, "rename": true, "remove": true, "rm": true, "set-head": true,
	"set-branches": true, "init": true, "deinit": true, "sync": true,
}

// hasWord reports whether one of the words is one of values.
func hasWord(words []word, values ...string) bool {
	for _, w := range words {
		if contains(values, w.value) {
			return true
		}
	}
	return false
}
