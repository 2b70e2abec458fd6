package shell

// git config is a language of its own: its options, read by the one
// option reader against [gitConfigOptions], say which file it works on
// and what it does; its operands are a key and a value, or, in the
// spelling of newer gits, an action ("get", "set", "edit") before them.

// gitConfigOptions are git config's options by effect: --file names the
// file it reads, and writes when it sets something; the options that
// set, unset or rename are changes, held to the table of safe keys by
// [gitConfig]; --edit opens an editor.
var gitConfigOptions = flagSet(byEffect{
	inert: `
		global
		system
		local
		worktree
		blob:
		get
		get-all
		get-regexp
		get-urlmatch
		l list
		get-color
		get-colorbool
		fixed-value
		t: type:
		bool
		int
		bool-or-int
		bool-or-str
		path
		expiry-date
		z null
		name-only
		includes
		no-includes
		show-origin
		show-scope
		default:
	`,
	readsArg: `
		f: file:
	`,
	runs: `
		e edit
	`,
	changes: `
		add
		replace-all
		unset
		unset-all
		rename-section
		remove-section
	`,
})

// gitConfigReaders are the options that make git config read rather
// than set: given one, its operands are a key and a pattern.
var gitConfigReaders = []string{"get", "get-all", "get-regexp", "get-urlmatch", "l", "list", "get-color", "get-colorbool"}

// gitConfig reads git config: the configuration file it writes, when it
// writes one, and why that may make git run a command: a key outside
// the table of safe keys set, added, unset or renamed, the file opened
// in an editor, or a line the table cannot read.
func gitConfig(sub word, rest []word) (writes []word, why string) {
	p := gitConfigOptions.parseFlags("git config", rest, true)
	operands := make([]string, 0, len(p.operands))
	for _, w := range p.operands {
		if !w.literal {
			return []word{gitConfigFile(sub, p)}, "git config runs with a word known only when it runs"
		}
		operands = append(operands, w.value)
	}
	action := ""
	if len(operands) > 0 && contains([]string{"get", "list", "set", "unset", "edit"}, operands[0]) {
		action, operands = operands[0], operands[1:]
	}
	_, changes := p.first(changes)
	switch {
	case p.opaque != "":
		return []word{gitConfigFile(sub, p)}, p.opaque
	case p.has("e", "edit") || action == "edit":
		return []word{gitConfigFile(sub, p)}, "git config --edit runs an editor"
	case action == "get" || action == "list":
		return nil, ""
	case action == "" && (p.has(gitConfigReaders...) || len(operands) < 2 && !changes):
		return nil, ""
	case len(operands) == 0:
		return []word{gitConfigFile(sub, p)}, "git config changes settings the splitter cannot read"
	case !gitKeySafe(operands[0]):
		return []word{gitConfigFile(sub, p)}, "git config " + operands[0] + " is not a setting known to run nothing"
	}
	return []word{gitConfigFile(sub, p)}, ""
}

// gitConfigFile is the configuration file git config writes: the one
// --file names, ~/.gitconfig with --global, /etc/gitconfig with
// --system, or the repository's .git/config.
func gitConfigFile(sub word, p parsed) word {
	file := sub
	file.value = ".git/config"
	for _, g := range p.options {
		switch g.name {
		case "f", "file":
			if g.hasValue {
				file = g.value
			}
		case "global":
			// $XDG_CONFIG_HOME/git/config or $HOME/.gitconfig: which,
			// and where, is known only when git runs.
			file.value, file.literal = "~/.gitconfig", false
		case "system":
			file.value = "/etc/gitconfig"
		}
	}
	return file
}
