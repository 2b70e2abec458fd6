package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// effects is what a command does besides running as itself.
type effects struct {
	// unseen is why the command runs code no rule can read.
	unseen string
	// wrapper marks a command that runs another, decided as that command;
	// privileged marks one that changes who runs it, decided in full as
	// itself too.
	wrapper, privileged bool
	// commands are the commands it runs, as words, and scripts the
	// strings it runs as shell code.
	commands [][]word
	scripts  []string
	// elsewhere, when set, is why the commands it runs run in a
	// directory known only when it runs (find -execdir).
	elsewhere string
	// reads and writes are the files it reads and writes, as words.
	reads, writes []word
	// readOnly marks a command the tables know changes nothing.
	readOnly bool
	// links marks a copy that makes links rather than files (cp -s, -l).
	links bool
}

// effectsOf reads what the command named base does with its arguments.
func effectsOf(base string, args []word) effects {
	if e, ok := stateEffects(base, args); ok {
		return e
	}
	if w, ok := wrappers()[base]; ok {
		return w.unwrap(base, args)
	}
	switch {
	case base == "env":
		return envEffects(args)
	case shells[base]:
		return shellEffects(base, args)
	case base == "eval":
		return evalEffects(args)
	case base == "source" || base == ".":
		file := "a file"
		if len(args) > 0 {
			file = args[0].value
		}
		return effects{unseen: base + " runs the commands of " + file}
	case base == "alias":
		for _, a := range args {
			if strings.Contains(a.value, "=") || !a.literal {
				return effects{unseen: "alias defines a command the shell expands later"}
			}
		}
	case base == "find":
		return findEffects(args)
	case base == "fd" || base == "fdfind":
		return fdEffects(args)
	case base == "sed" || base == "gsed":
		return sedEffects(args)
	case isAwkName(base):
		return awkEffects(base, args)
	case base == "git":
		return gitEffects(args)
	case base == "tar":
		return tarEffects(args)
	case base == "jq":
		return jqEffects(args)
	case base == "dd":
		return ddEffects(args)
	case base == "watch":
		return watchEffects(args)
	case base == "su" || base == "runuser" || base == "script":
		return commandOption(base, args)
	case base == "flock":
		return flockEffects(args)
	case base == "hash" && hasOption(args, "p", "", nil):
		return effects{unseen: "hash -p changes which program a name runs"}
	case base == "enable" && hasOption(args, "f", "", nil):
		return effects{unseen: "enable -f loads a builtin from a shared object"}
	case (base == "mapfile" || base == "readarray") && hasOption(args, "C", "", nil):
		return effects{unseen: base + " -C runs a string for every line it reads"}
	case setsVariables[base] != "":
		why := variablesSet(base, args)
		// printf prints unless -v names a variable it sets instead.
		printsOnly := base == "printf" && (len(args) == 0 || !strings.HasPrefix(args[0].value, "-v"))
		return effects{unseen: why, readOnly: printsOnly && why == "" && allKnown(args)}
	case interpreter(base) != "":
		return interpreterEffects(base, args)
	}
	if prog := programs()[base]; prog != nil {
		return prog.effectsOf(base, args)
	}
	if printsOnly[base] {
		return effects{readOnly: allKnown(args)}
	}
	return effects{}
}

// printsOnly are the builtins that read no option that changes anything
// and print, or test, their words: every word is text to them.
var printsOnly = map[string]bool{"echo": true, "true": true, "false": true, "test": true, "[": true, ":": true}

// fdEffects reads fd, whose -x and -X run a command for what it finds.
func fdEffects(args []word) effects {
	var e effects
	for i := 0; i < len(args); i++ {
		switch args[i].value {
		case "-x", "--exec", "-X", "--exec-batch":
			var inner []word
			inner, i = commandUntil(args, i+1, ";")
			e.commands = append(e.commands, nonEmpty(inner)...)
		}
	}
	return e
}

// commandUntil returns the words from start up to a literal terminator,
// and the index of the terminator, or of the end.
func commandUntil(args []word, start int, terminators ...string) ([]word, int) {
	i := start
	for i < len(args) && !(args[i].literal && contains(terminators, args[i].value)) {
		i++
	}
	return args[start:i], i
}

// setsVariables are the builtins that set the variables they name, with
// their short options that take an argument; printf sets one only with -v.
var setsVariables = map[string]string{
	"read": "dinNptu", "printf": "v", "mapfile": "dnOsuCc", "readarray": "dnOsuCc", "getopts": "-",
}

// variablesSet is why a builtin that sets variables hides code: a name it
// sets that is in the table of variables, or one known only when it runs.
func variablesSet(base string, args []word) string {
	var names []word
	switch base {
	case "printf":
		for i := 0; i < len(args); i++ {
			if v, ok := strings.CutPrefix(args[i].value, "-v"); ok && v != "" {
				names = append(names, word{value: v, literal: args[i].literal})
			} else if ok && i+1 < len(args) {
				names = append(names, args[i+1])
			}
		}
	case "getopts":
		if len(args) > 1 {
			names = args[1:2]
		}
	default:
		short := setsVariables[base]
		for i := 0; i < len(args); i++ {
			v := args[i].value
			switch {
			case v == "-a" && i+1 < len(args):
				i++
				names = append(names, args[i])
			case len(v) == 2 && v[0] == '-' && strings.IndexByte(short, v[1]) >= 0:
				i++
			case !strings.HasPrefix(v, "-"):
				names = append(names, args[i])
			}
		}
	}
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

// assignsUnseen is why assignments hide code: the first that does.
// Exported ones, before a command or through export, are handed to the
// programs that run and are held to the table of the known-safe.
func (s *splitter) assignsUnseen(as []*syntax.Assign, exported bool) string {
	for _, a := range as {
		if a.Name == nil {
			// A declaration's word that is not NAME=VALUE as written:
			// 'a[$(…)]=1' or "$v", which may set any variable.
			if a.Value != nil {
				w := s.wordOf(a.Value)
				if why := firstOf(subscriptCode([]word{w}), literalOrWhy(w)); why != "" {
					return why
				}
			}
			continue
		}
		var value word
		if a.Value != nil {
			value = s.wordOf(a.Value)
		}
		unseen := variableUnseen
		if exported {
			unseen = environmentUnseen
		}
		if why := firstOf(unseen(a.Name.Value), substitutionUnseen(a.Name.Value, value)); why != "" {
			return why
		}
	}
	return ""
}

// literalOrWhy is why a declaration's word with an expansion hides what
// it sets.
func literalOrWhy(w word) string {
	if w.literal {
		return ""
	}
	return "the declaration " + w.value + " sets a variable named when it runs"
}

// substitutionUnseen is why a variable's value hides code: a literal
// that holds a command substitution, which arithmetic, eval or a prompt
// would run later though the parser read it as text.
func substitutionUnseen(name string, value word) string {
	if value.holdsCode {
		return "the value of " + name + " holds a command substitution the shell may run later"
	}
	return ""
}
