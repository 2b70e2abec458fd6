package shell

// The commands read by a hook of their own: those whose grammar is a
// language (sed, awk, find, git, tar, jq, dd), the shells and the
// interpreters of other languages, and the commands that run another in
// a way no wrapper's table says (env, watch, su, flock, fd).

// addHooks adds the commands read by a hook to the table.
func addHooks(table map[string]*program) {
	for name, read := range map[string]hook{
		"sed":     argsOnly(sedEffects),
		"gsed":    argsOnly(sedEffects),
		"awk":     awkEffects,
		"gawk":    awkEffects,
		"mawk":    awkEffects,
		"nawk":    awkEffects,
		"find":    argsOnly(findEffects),
		"fd":      argsOnly(fdEffects),
		"fdfind":  argsOnly(fdEffects),
		"git":     argsOnly(gitEffects),
		"tar":     argsOnly(tarEffects),
		"jq":      argsOnly(jqEffects),
		"dd":      argsOnly(ddEffects),
		"env":     argsOnly(envEffects),
		"watch":   argsOnly(watchEffects),
		"su":      commandOption,
		"runuser": commandOption,
		"script":  commandOption,
		"flock":   argsOnly(flockEffects),
	} {
		table[name] = &program{hook: read}
	}
	for _, name := range []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "posh", "rbash"} {
		table[name] = &program{hook: shellEffects, shell: true}
	}
	for family, lang := range languages {
		table[family] = interpreterEntry(&lang)
	}
	// nodejs is Debian's node.
	table["nodejs"] = table["node"]
}

// interpreterEntry is the entry of an interpreter of the language.
func interpreterEntry(lang *language) *program {
	read := func(base string, args []word) effects { return interpreterEffects(lang, base, args) }
	return &program{hook: read, language: lang}
}
