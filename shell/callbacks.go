package shell

import "strings"

// Builtins that keep a string and run it later, or run it where the
// splitter cannot follow: a completion's command (compgen -C, complete
// -C), a key binding's (bind -x), the editor fc starts, mapfile's
// callback and a trap on a condition the splitter does not read as one
// more command. Each stays unseen, and the string, when literal, is also
// read as the shell code it is, so a deny rule for what it runs holds.
// Their other options are known by a table; an option outside it is
// unseen.

// builtinOption is one option of a builtin as bash reads it: its letter,
// and its value when it takes one.
type builtinOption struct {
	letter byte
	value  word
}

// builtinOptions reads a builtin's command line as bash's own option
// reader does: clusters of letters after "-" (or "+", where plus is
// set), a value joined to its letter or in the next word for a letter in
// values, up to "--" or the first operand. why is set for a word made
// when it runs in the options, or a value missing.
func builtinOptions(name string, args []word, values string, plus bool) (opts []builtinOption, operands []word, why string) {
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		v := a.value
		if v == "--" {
			i++
			break
		}
		if len(v) < 2 || v[0] != '-' && !(plus && v[0] == '+') || v[1] >= '0' && v[1] <= '9' {
			// A negative number is an operand: fc -e ed -1.
			break
		}
		if !a.literal {
			return nil, nil, name + " " + v + " may be an option, known only when it runs"
		}
		for j := 1; j < len(v); j++ {
			c := v[j]
			if strings.IndexByte(values, c) < 0 {
				opts = append(opts, builtinOption{letter: c})
				continue
			}
			var value word
			switch {
			case j < len(v)-1:
				value = word{value: v[j+1:], literal: true}
			case i+1 < len(args):
				i++
				value = args[i]
			default:
				return nil, nil, name + " -" + string(c) + " has no value"
			}
			opts = append(opts, builtinOption{letter: c, value: value})
			break
		}
	}
	return opts, args[i:], ""
}

// keptCode is the effect of a builtin that runs what, a string it is
// given, where no rule reads it: unseen, with the string read as code
// when literal.
func keptCode(why string, what word) effects {
	e := effects{unseen: why}
	if what.literal {
		e.scripts = []string{what.value}
	}
	return e
}

// completionFlags are the options of compgen, complete and compopt that
// choose words, print or remove a completion: -A, -G, -P, -S, -X and -o
// take a value that is a name, a pattern or text, never code.
const completionFlags = "abcdefgjksuvprDEIAGPSXo"

// completionEffects reads compgen, complete and compopt: -C runs a
// command, -F a function, and -W's word list is expanded, running the
// substitutions it holds.
func completionEffects(base string, args []word) effects {
	opts, _, why := builtinOptions(base, args, "ACFGPSWXo", base == "compopt")
	if why != "" {
		return effects{unseen: why}
	}
	for _, o := range opts {
		switch {
		case o.letter == 'C':
			return keptCode(base+" -C runs a command when it completes", o.value)
		case o.letter == 'F':
			return effects{unseen: base + " -F runs a function when it completes"}
		case o.letter == 'W' && (!o.value.literal || strings.ContainsAny(o.value.value, "$`<>")):
			return keptCode(base+" -W expands its word list, running what it holds", word{value: ": " + o.value.value, literal: o.value.literal})
		case o.letter != 'W' && strings.IndexByte(completionFlags, o.letter) < 0:
			return effects{unseen: base + " -" + string(o.letter) + " is not an option the splitter knows"}
		}
	}
	return effects{}
}

// fcEffects reads fc: -l lists the history, and anything else (-s with
// -l too) runs commands from it, after an editor (-e's, or FCEDIT's)
// changes them.
func fcEffects(args []word) effects {
	opts, _, why := builtinOptions("fc", args, "e", false)
	if why != "" {
		return effects{unseen: why}
	}
	var editor word
	lists, runs := false, false
	for _, o := range opts {
		switch o.letter {
		case 'l':
			lists = true
		case 'e':
			editor = o.value
		case 's':
			runs = true
		case 'n', 'r':
		default:
			return effects{unseen: "fc -" + string(o.letter) + " is not an option the splitter knows"}
		}
	}
	const fromHistory = "fc runs commands from the history, which no rule reads"
	switch {
	case lists && !runs:
		return effects{}
	case runs || editor.value == "" || editor.value == "-":
		return effects{unseen: fromHistory}
	}
	return keptCode(fromHistory+", after the editor "+editor.value+" changes them", editor)
}

// bindEffects reads bind: -x binds a key to a shell command, which
// readline runs when the key is typed; the other options list, remove or
// read bindings, and a word alone is a binding readline reads.
func bindEffects(args []word) effects {
	opts, _, why := builtinOptions("bind", args, "mqurfx", false)
	if why != "" {
		return effects{unseen: why}
	}
	for _, o := range opts {
		if o.letter != 'x' {
			if strings.IndexByte("lpPsSvVXmqurf", o.letter) < 0 {
				return effects{unseen: "bind -" + string(o.letter) + " is not an option the splitter knows"}
			}
			continue
		}
		command := o.value
		if _, after, ok := strings.Cut(command.value, ":"); ok {
			command.value = strings.TrimSpace(after)
			if n := len(command.value); n > 1 && (command.value[0] == '"' || command.value[0] == '\'') && command.value[n-1] == command.value[0] {
				command.value = command.value[1 : n-1]
			}
		}
		return keptCode("bind -x binds a key to a command the shell runs when it is typed", command)
	}
	return effects{}
}

// mapfileCallback reads mapfile's -C, the string it runs every -c lines,
// and ok when it is given; without it mapfile is read as the builtin
// that sets its array.
func mapfileCallback(base string, args []word) (effects, bool) {
	opts, _, why := builtinOptions(base, args, "dnOsuCc", false)
	if why != "" {
		return effects{unseen: why}, true
	}
	for _, o := range opts {
		if o.letter == 'C' {
			return keptCode(base+" -C runs a string for every line it reads", o.value), true
		}
	}
	return effects{}, false
}

// trapCode is trap's effect, with the action read as code as well when
// it runs on a condition the splitter does not follow (DEBUG, RETURN,
// ERR), so a deny rule for what it runs holds there too.
func trapCode(args []word) effects {
	e := trapEffects(args)
	if e.unseen == "" || len(e.scripts) > 0 {
		return e
	}
	p := trapOptions.parseFlags("trap", args, false)
	if p.opaque == "" && len(p.operands) > 0 && p.operands[0].literal && p.operands[0].value != "-" {
		e.scripts = []string{p.operands[0].value}
	}
	return e
}

// enableSafe are the builtins that, disabled with enable -n, leave a
// program of the same name that does what the builtin did with the
// words the splitter read: any other changes what a later word means
// (enable -n cd: cd no longer moves the shell).
var enableSafe = words("echo test [ true false kill pwd")

// enableEffects reads enable: -f loads a builtin from a file, and -n
// disables those it names.
func enableEffects(args []word) effects {
	opts, operands, why := builtinOptions("enable", args, "f", false)
	if why != "" {
		return effects{unseen: why}
	}
	disables := false
	for _, o := range opts {
		switch o.letter {
		case 'f':
			return effects{unseen: "enable -f loads a builtin from a shared object"}
		case 'n':
			disables = true
		case 'a', 'd', 'p', 's':
		default:
			return effects{unseen: "enable -" + string(o.letter) + " is not an option the splitter knows"}
		}
	}
	for _, n := range operands {
		if !n.literal {
			return effects{unseen: "enable " + n.value + " names a builtin when it runs"}
		}
		if disables && !enableSafe[n.value] {
			return effects{unseen: "enable -n " + n.value + " makes " + n.value + " run a program, not the builtin the splitter reads"}
		}
	}
	return effects{}
}

// waitEffects reads wait, whose -p names a variable it sets.
func waitEffects(args []word) effects {
	opts, _, why := builtinOptions("wait", args, "p", false)
	for _, o := range opts {
		if o.letter == 'p' {
			if !o.value.literal {
				why = firstOf(why, "wait -p sets a variable named when it runs")
			}
			why = firstOf(why, shellVariableUnseen(o.value.value))
		}
	}
	return effects{unseen: why}
}

// aliasEffects reads alias: NAME=VALUE defines an alias the shell may
// expand later, so it is unseen, and VALUE, when literal, is read as the
// code it stands for. Names alone print the aliases.
func aliasEffects(args []word) effects {
	var e effects
	for _, a := range args {
		_, value, defines := strings.Cut(a.value, "=")
		switch {
		case !a.literal:
			return effects{unseen: "alias defines a command the shell expands later"}
		case defines:
			e.unseen = "alias defines a command the shell expands later"
			e.scripts = append(e.scripts, value)
		}
	}
	return e
}

// hashEffects reads hash: -p FILE NAME makes NAME run FILE, which is
// unseen, with FILE read as the program it runs.
func hashEffects(args []word) effects {
	opts, _, why := builtinOptions("hash", args, "p", false)
	if why != "" {
		return effects{unseen: why}
	}
	for _, o := range opts {
		if o.letter == 'p' {
			return keptCode("hash -p changes which program a name runs", o.value)
		}
	}
	return effects{}
}
