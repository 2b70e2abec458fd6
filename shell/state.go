package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The shell's own state: the options set and shopt change, the variables
// every way of setting one reaches, and bash's tables of commands and
// completions. A word is read under the state in force where it stands,
// and the splitter models only the state its tables know: a change to
// any other makes the command that changes it unseen, so the call asks.

// setOptions are the options of set (and of a shell started with them)
// known to change nothing of which commands run or what their words are,
// by letter and by the name set -o gives them. -k (keyword), which makes
// every NAME=VALUE word environment, set or shopt -o reads as keyword.go
// models it (a shell started with it asks). Any other is unseen: -a (allexport)
// exports every later assignment, -T and -E hand traps to functions,
// -P and -H change how directories and history words read, -B turns
// brace expansion off or on, -p and -i change which files the shell runs.
var setOptions = map[string]bool{
	"e": true, "u": true, "x": true, "v": true, "n": true, "C": true, "f": true, "b": true, "h": true,
	"errexit": true, "nounset": true, "xtrace": true, "verbose": true, "noexec": true,
	"noclobber": true, "noglob": true, "notify": true, "hashall": true, "pipefail": true,
}

// shoptOptions are the shopt options known to change nothing of which
// commands run or where: how globs match, which the splitter reads as
// known only when they run anyway, and how the shell reports. Any other
// is unseen: expand_aliases runs aliases, lastpipe runs the last command
// of a pipeline (a cd) in this shell, cdable_vars makes cd read a
// variable, extdebug lets a DEBUG trap skip commands, sourcepath and
// progcomp change what source and completion run.
var shoptOptions = map[string]bool{
	"nullglob": true, "failglob": true, "dotglob": true, "globstar": true, "nocaseglob": true,
	"nocasematch": true, "extglob": true, "globasciiranges": true, "globskipdots": true,
	"xpg_echo": true, "inherit_errexit": true, "checkwinsize": true, "histappend": true,
	"cmdhist": true, "lithist": true, "checkhash": true, "shift_verbose": true, "gnu_errfmt": true,
}

// setUnseen is why set's words change state the splitter does not
// model: an option outside setOptions. Words after the options are the
// positional parameters, text to set.
func setUnseen(args []word) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.value
		if !a.literal {
			return "set " + v + " may set an option, known only when it runs"
		}
		if v == "--" || v == "-" || len(v) < 2 || v[0] != '-' && v[0] != '+' {
			return ""
		}
		for j := 1; j < len(v); j++ {
			switch {
			case v[j] == 'o' && i+1 < len(args) && j == len(v)-1:
				i++
				if name := args[i].value; !args[i].literal || !setOptions[name] && name != "keyword" {
					return "set -o " + name + " changes how the shell reads or runs commands"
				}
			case v[j] == 'o':
				// "set -o" alone prints the options.
			case !setOptions[v[j:j+1]] && v[j] != 'k':
				return "set " + v[:1] + v[j:j+1] + " changes how the shell reads or runs commands"
			}
		}
	}
	return ""
}

// shoptUnseen is why shopt's words change state the splitter does not
// model: an option outside the tables, turned on or off.
func shoptUnseen(args []word) string {
	table, changes, set := shoptOptions, false, false
	var names []word
	for _, a := range args {
		switch v := a.value; {
		case !a.literal:
			return "shopt " + v + " may set an option, known only when it runs"
		case len(v) > 1 && v[0] == '-':
			for _, c := range v[1:] {
				switch c {
				case 's', 'u':
					changes = true
				case 'o':
					table, set = setOptions, true
				case 'p', 'q':
				default:
					return "shopt -" + string(c) + " is not an option the splitter knows"
				}
			}
		default:
			names = append(names, a)
		}
	}
	if !changes {
		return ""
	}
	for _, n := range names {
		// keyword mode is modelled: keyword.go.
		if !table[n.value] && !(set && n.value == "keyword") {
			return "shopt " + n.value + " changes how the shell reads or runs commands"
		}
	}
	return ""
}

// shellVariableUnseen is why setting the variable name in the shell,
// without export, hides code. A variable the environment may already
// hold is handed to every program run after it, so it is held to the
// table a prefix assignment is; a name with no capital letter is taken
// for the shell's own, as environments hold capitals by convention, but
// for the ones programs read in lower case (the proxies). A variable in
// the table of those that change what the shell itself runs always is.
func shellVariableUnseen(name string) string {
	if why := variableUnseen(name); why != "" {
		return why
	}
	if strings.ToLower(name) == name && !strings.HasSuffix(name, "_proxy") || shellOwn[name] {
		return ""
	}
	return environmentUnseen(name)
}

// modelled are the builtins whose effect the splitter models (the
// directory, options, variables, bash's tables, strings kept to run): a
// function of the same name runs in their place, so what the splitter
// read of a later call of it is not what runs (function cd { :; }; cd
// src leaves the shell where it was).
var modelled = words("cd pushd popd dirs builtin command exec eval source . set shopt declare typeset local export readonly unset read mapfile readarray printf getopts let trap alias unalias hash enable wait fc history compgen complete compopt bind")

// shellOwn are bash's own variables that change nothing of what runs
// and that no program reads from its environment: what getopts, read
// and mapfile set, and how time and the history report.
var shellOwn = words("OPTARG OPTIND OPTERR REPLY MAPFILE TIMEFORMAT HISTSIZE HISTFILESIZE HISTCONTROL HISTIGNORE HISTTIMEFORMAT")

// declarationUnseen is why a declaration builtin (declare, typeset,
// local, export, readonly) run with words hides code: a variable in the
// table of those that change what runs that it sets, exports,
// un-exports or makes a name reference to, a reference with no target
// (set by a later assignment), or a word made when it runs, which may
// name any variable. env is why a variable it sets that the environment
// may hold hides code, which holds only when a program runs after it.
func declarationUnseen(variant string, args []word) (why, env string) {
	nameref := false
	for _, a := range args {
		v := a.value
		if !a.literal {
			return "the declaration " + v + " sets a variable named when it runs", ""
		}
		if len(v) > 1 && (v[0] == '-' || v[0] == '+') && v != "--" {
			if strings.ContainsRune(v, 'n') {
				nameref = variant != "export"
			}
			continue
		}
		name, value, set := strings.Cut(v, "=")
		name, _, _ = strings.Cut(name, "[")
		name = strings.TrimSuffix(name, "+")
		if !isName(name) {
			continue
		}
		if why := variableUnseen(name); why != "" {
			return why, ""
		}
		env = firstOf(env, shellVariableUnseen(name))
		if nameref && !set {
			return variant + " -n " + name + " makes " + name + " a reference to a variable named later", ""
		}
		if nameref {
			if why := shellVariableUnseen(value); why != "" || !isName(value) {
				return firstOf(why, variant+" -n "+name+" refers to "+value+", not a variable name"), ""
			}
		}
	}
	return "", env
}

// unsetUnseen is why unset hides code: a variable it unsets that is held
// to the tables (unset PATH makes bash search the working directory).
func unsetUnseen(args []word) string {
	for _, a := range args {
		switch {
		case !a.literal:
			return "unset " + a.value + " unsets a variable named when it runs"
		case strings.HasPrefix(a.value, "-"):
		default:
			name, _, _ := strings.Cut(a.value, "[")
			if why := shellVariableUnseen(name); why != "" {
				return why
			}
		}
	}
	return ""
}

// readUnseen is why read or getopts hides code: a variable it sets
// that is held to the tables, named by read's operands or its -a,
// joined or not (read -aPATH), or getopts's second operand.
func readUnseen(base string, args []word) string {
	p := readOptions.parseFlags(base, args, false)
	if p.opaque != "" {
		return p.opaque
	}
	operands := p.operands
	var names []word
	for _, o := range p.options {
		if o.name == "a" {
			names = append(names, o.value)
		}
	}
	switch {
	case base == "read":
		names = append(names, operands...)
	case len(operands) > 1:
		names = append(names, operands[1])
	}
	return variablesUnseen(base, names)
}

// stateEffects reads the builtins that change the shell's state or run
// a string the shell keeps, and ok when base is one.
func stateEffects(base string, args []word) (effects, bool) {
	switch base {
	case "set":
		return effects{unseen: setUnseen(args)}, true
	case "shopt":
		return effects{unseen: shoptUnseen(args)}, true
	case "declare", "typeset", "local", "export", "readonly":
		// Run through builtin or command, which the parser reads as
		// words: "builtin export PATH=x".
		why, env := declarationUnseen(base, args)
		return effects{unseen: firstOf(why, env), reads: startupReads(args)}, true
	case "unset":
		return effects{unseen: unsetUnseen(args)}, true
	case "let":
		return effects{unseen: "let run as a command evaluates words the splitter does not read as arithmetic"}, true
	case "compgen", "complete", "compopt":
		return completionEffects(base, args), true
	case "trap":
		return trapCode(args), true
	case "fc":
		return fcEffects(args), true
	case "bind":
		return bindEffects(args), true
	case "enable":
		return enableEffects(args), true
	case "wait":
		return waitEffects(args), true
	case "mapfile", "readarray":
		return mapfileCallback(base, args)
	case "alias":
		return aliasEffects(args), true
	case "hash":
		return hashEffects(args), true
	case "read", "getopts":
		return effects{unseen: readUnseen(base, args)}, true
	case "history":
		for i, a := range args {
			if a.value == "-s" && a.literal {
				// The words are a command fc may run next: read as code.
				return keptCode("history -s adds a command the shell may run", word{value: strings.Join(values(args[i+1:]), " "), literal: allLiteral(args[i+1:])}), true
			}
			if a.value != "-c" && strings.HasPrefix(a.value, "-") || !a.literal {
				// -r and -n read the history file they name, -a and -w
				// write it.
				e := effects{unseen: "history " + a.value + " changes the history the shell may run"}
				if a.literal && strings.ContainsAny(a.value, "aw") {
					e.writes = args[i+1:]
				} else {
					e.reads = args[i+1:]
				}
				return e, true
			}
		}
		return effects{}, true
	case "source", ".":
		return scriptProgram(base, args), true
	}
	return effects{}, false
}

// declared are a declaration's arguments as the words the builtin reads:
// NAME=VALUE, or NAME alone, for an assignment the parser read, and the
// word itself for one it did not ('PATH=x', CD”PATH=x, -n).
func (s *splitter) declared(as []*syntax.Assign) []word {
	out := make([]word, 0, len(as))
	for _, a := range as {
		switch {
		case a.Name == nil && a.Value != nil:
			out = append(out, s.wordOf(a.Value))
		case a.Name != nil && a.Value != nil:
			v := s.wordOf(a.Value)
			out = append(out, word{value: a.Name.Value + "=" + v.value, literal: true})
		case a.Name != nil:
			out = append(out, word{value: a.Name.Value, literal: true})
		}
	}
	return out
}

// aloneUnseen is why assignments run alone hide code: one of a variable
// the environment may hold, which bash hands to every program run after
// it.
func (s *splitter) aloneUnseen(as []*syntax.Assign, end uint) string {
	for _, a := range as {
		if a.Name != nil {
			if why := shellVariableUnseen(a.Name.Value); why != "" && s.programAfter(end) {
				return why
			}
		}
	}
	return ""
}

// quietBuiltins are the builtins that run no program, so hand no
// variable to one.
var quietBuiltins = map[string]bool{
	"echo": true, "printf": true, "test": true, "[": true, "true": true, "false": true, ":": true,
	"cd": true, "pushd": true, "popd": true, "dirs": true, "pwd": true, "read": true, "shift": true,
	"return": true, "exit": true, "break": true, "continue": true, "wait": true, "getopts": true,
	"mapfile": true, "readarray": true, "local": true, "declare": true, "typeset": true, "readonly": true,
	"export": true, "unset": true, "set": true, "shopt": true, "type": true, "let": true,
}

// programAfter reports whether a program may run after the text that
// ends at end, in the script being read: a command after it (or in a
// loop around it, which runs again) that is not a quiet builtin, named
// by a word made when it runs included. A string run as code may be
// eval's, run in the shell that runs the rest of the call, so in one
// any program may follow.
func (s *splitter) programAfter(end uint) bool {
	if s.src != s.command {
		return true
	}
	start := end
	syntax.Walk(s.tree, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.WhileClause, *syntax.ForClause:
			if n.Pos().Offset() < start && n.End().Offset() >= end {
				start = n.Pos().Offset()
			}
		}
		return true
	})
	found := false
	syntax.Walk(s.tree, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 && c.Pos().Offset() >= start {
			if name := s.wordOf(c.Args[0]); !name.literal || !quietBuiltins[name.value] {
				found = true
			}
		}
		return !found
	})
	return found
}

// lastInShell reports whether nothing runs after n in the shell that
// runs it: n is in a subshell, a command substitution or a part of a
// pipeline, no command follows it there, no loop or function inside that
// shell runs it again or later, and no trap runs when the shell exits.
// A string run as code may be eval's, whose shell runs the rest of the
// call.
func (s *splitter) lastInShell(n syntax.Node) bool {
	if s.src != s.command || strings.Contains(s.src, "trap") {
		return false
	}
	start, end := n.Pos().Offset(), n.End().Offset()
	var scope syntax.Node = s.tree
	again := false
	syntax.Walk(s.tree, func(m syntax.Node) bool {
		if m == nil || m == n || m.Pos().Offset() > start || m.End().Offset() < end {
			return false
		}
		switch m := m.(type) {
		case *syntax.Subshell, *syntax.CmdSubst, *syntax.ProcSubst:
			scope, again = m, false
		case *syntax.BinaryCmd:
			if m.Op == syntax.Pipe || m.Op == syntax.PipeAll {
				scope, again = m.X, false
				if m.Y.Pos().Offset() <= start {
					scope = m.Y
				}
			}
		case *syntax.WhileClause, *syntax.ForClause, *syntax.FuncDecl, *syntax.CoprocClause:
			again = true
		}
		return true
	})
	if again || scope == syntax.Node(s.tree) {
		// At the top, the shell may be one the agent's next call runs
		// in: an option set last stays set for it.
		return false
	}
	last := true
	syntax.Walk(scope, func(m syntax.Node) bool {
		if st, ok := m.(*syntax.Stmt); ok && st.Pos().Offset() >= end {
			last = false
		}
		return last
	})
	return last
}
