package shell

// The builtins of bash the table knows: those that only print or test
// their words, those that set the variables they name, those that
// change the shell's state (state.go reads them), and those one of
// whose options hides code.

// addBuiltins adds the builtins to the table.
func addBuiltins(table map[string]*program) {
	for _, name := range []string{"echo", "true", "false", "test", "[", ":"} {
		table[name] = &program{printsOnly: true}
	}
	// printf prints unless -v names a variable it sets instead.
	table["printf"] = &program{hook: printfEffects, printsOnly: true}
	for _, name := range []string{
		"set", "shopt", "declare", "typeset", "local", "export", "readonly", "unset", "let",
		"compgen", "complete", "compopt", "trap", "fc", "history", "source", ".",
		"bind", "wait", "alias", "hash", "enable",
	} {
		table[name] = &program{hook: stateHook}
	}
	// These are read against their options here and for the strings
	// they keep in state.go: both readings hold.
	table["read"] = &program{hook: alongState(setsVariables(readOptions))}
	table["getopts"] = &program{hook: alongState(getoptsEffects)}
	for _, name := range []string{"mapfile", "readarray"} {
		table[name] = &program{hook: alongState(setsVariables(mapfileOptions))}
	}
	table["eval"] = &program{hook: argsOnly(evalEffects)}
	// type prints how each name would run, as command -v does, and runs
	// none of them; its operands are names, not files.
	table["type"] = &program{flags: typeOptions, readOnly: true, files: noFiles}
}

// stateHook reads a builtin that changes the shell's state: state.go
// reads each.
func stateHook(base string, args []word) effects {
	e, _ := stateEffects(base, args)
	return e
}

// alongState is a builtin's hook that reads it against its options,
// joined with what state.go reads of the strings it keeps and the files
// it names: the first reason either gives, and every string and file.
func alongState(read hook) hook {
	return func(base string, args []word) effects {
		e := read(base, args)
		kept, _ := stateEffects(base, args)
		e.unseen = firstOf(e.unseen, kept.unseen)
		e.scripts = append(e.scripts, kept.scripts...)
		e.reads = append(e.reads, kept.reads...)
		e.writes = append(e.writes, kept.writes...)
		e.readOnly = e.readOnly && kept.unseen == "" && len(kept.scripts) == 0
		return e
	}
}

// hashOptions are bash's hash options; -p names the program a name runs.
var hashOptions = flagSet(byEffect{
	inert: `
		l
		r
		d
		t
	`,
	runs: `
		p:
	`,
})

// enableOptions are bash's enable options; -f loads a builtin from a
// shared object.
var enableOptions = flagSet(byEffect{
	inert: `
		a
		d
		n
		p
		s
	`,
	runs: `
		f:
	`,
})

// typeOptions are bash's type options.
var typeOptions = flagSet(byEffect{
	inert: `
		a
		f
		p
		P
		t
	`,
})

// mapfileOptions are the options of mapfile and readarray; -C runs a
// string for every line read.
var mapfileOptions = flagSet(byEffect{
	inert: `
		d:
		n:
		O:
		s:
		t
		u:
		c:
	`,
	runs: `
		C:
	`,
})

// readOptions are the options of read: -a names the array it sets.
var readOptions = flagSet(byEffect{
	inert: `
		a:
		d:
		e
		i:
		n:
		N:
		p:
		r
		s
		t:
		u:
	`,
})

// setsVariables is the hook of a builtin that sets the variables its
// operands name, and the array its -a names, given its options.
func setsVariables(options *optionTable) hook {
	return func(base string, args []word) effects {
		p := options.parseFlags(base, args, false)
		if p.opaque != "" {
			return effects{unseen: p.opaque}
		}
		names := p.operands
		for _, g := range p.options {
			if g.name == "a" && g.hasValue {
				names = append(names[:len(names):len(names)], g.value)
			}
		}
		return effects{unseen: variablesUnseen(base, names)}
	}
}

// getoptsEffects reads getopts OPTSTRING NAME [ARG…], which sets NAME
// (and OPTARG and OPTIND, which change nothing that runs).
func getoptsEffects(base string, args []word) effects {
	if len(args) < 2 {
		return effects{}
	}
	return effects{unseen: variablesUnseen(base, args[1:2])}
}

// printfOptions are the options of printf: -v names the variable it
// sets instead of printing.
var printfOptions = flagSet(byEffect{
	inert: `
		v:
	`,
})

// printfEffects reads printf, which prints its words unless -v names a
// variable it sets instead; an option it does not have asks.
func printfEffects(base string, args []word) effects {
	p := printfOptions.parseFlags(base, args, false)
	if p.opaque != "" {
		return effects{unseen: p.opaque}
	}
	var names []word
	for _, g := range p.options {
		if g.hasValue {
			names = append(names, g.value)
		}
	}
	why := variablesUnseen(base, names)
	return effects{unseen: why, readOnly: len(names) == 0 && why == "" && allKnown(args)}
}

// variablesUnseen is why a builtin that sets the variables names hides
// code: one in the table of variables, or one known only when it runs.
func variablesUnseen(base string, names []word) string {
	for _, n := range names {
		if !n.literal {
			return base + " sets a variable named when it runs"
		}
		if why := shellVariableUnseen(n.value); why != "" {
			return why
		}
	}
	return ""
}
