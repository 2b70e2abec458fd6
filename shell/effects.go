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
}

// effectsOf reads what the command named base does with its arguments.
func effectsOf(base string, args []word) effects {
	if w, ok := wrappers[base]; ok {
		return w.unwrap(base, args)
	}
	switch {
	case base == "env":
		return envEffects(args)
	case shells[base]:
		return shellEffects(base, args)
	case base == "eval":
		return evalEffects(args)
	case base == "trap":
		return trapEffects(args)
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
	case base == "git":
		return gitEffects(args)
	case base == "watch":
		return watchEffects(args)
	case interpreter(base) != "":
		return interpreterEffects(base, args)
	}
	return effects{unseen: riskyOption(base, args)}
}

// wrapper is how a command that runs another reads its options.
type wrapper struct {
	// short lists the one-letter options that take an argument, long the
	// long ones that take the next word unless joined with "=".
	short string
	long  []string
	// operands is how many words come between the options and the command.
	operands int
	// none lists options after which no command runs ("command -v").
	none string
	// privileged marks a wrapper that changes who runs the command.
	privileged bool
}

// wrappers are the commands decided as the command they run.
var wrappers = map[string]wrapper{
	"sudo":    {short: "CDghpRrTtUu", long: []string{"--chdir", "--close-from", "--group", "--host", "--prompt", "--chroot", "--role", "--type", "--command-timeout", "--other-user", "--user"}, none: "eKklLVv", privileged: true},
	"doas":    {short: "Cu", none: "L", privileged: true},
	"nice":    {short: "n", long: []string{"--adjustment"}},
	"nohup":   {},
	"timeout": {short: "sk", long: []string{"--signal", "--kill-after"}, operands: 1},
	"time":    {short: "fo", long: []string{"--format", "--output"}},
	"command": {none: "vV"},
	"builtin": {},
	"exec":    {short: "a"},
	"stdbuf":  {short: "ioe", long: []string{"--input", "--output", "--error"}},
	"ionice":  {short: "cnpPu", long: []string{"--class", "--classdata", "--pid", "--pgid", "--uid"}, none: "pPu"},
	"setsid":  {},
	"xargs":   {short: "adEILnPs", long: []string{"--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"}},
}

// unwrap finds the command a wrapper runs.
func (w wrapper) unwrap(base string, args []word) effects {
	e := effects{wrapper: true, privileged: w.privileged}
	i, stopped := skipOptions(args, w.short, w.long, w.none)
	if stopped {
		return e
	}
	i += w.operands
	if i < len(args) {
		e.commands = append(e.commands, args[i:])
	}
	return e
}

// skipOptions returns the index of the first operand of args, given the
// short and long options that take an argument, and stopped when one of
// the short options in none says no command follows.
func skipOptions(args []word, short string, long []string, none string) (int, bool) {
	for i := 0; i < len(args); i++ {
		a := args[i].value
		switch {
		case a == "--":
			return i + 1, false
		case strings.HasPrefix(a, "--"):
			name, _, joined := strings.Cut(a, "=")
			if !joined && contains(long, name) {
				i++
			}
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				if strings.IndexByte(none, a[j]) >= 0 {
					return len(args), true
				}
				if strings.IndexByte(short, a[j]) >= 0 {
					if j == len(a)-1 {
						i++
					}
					break
				}
			}
		default:
			return i, false
		}
	}
	return len(args), false
}

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// envEffects reads env: its assignments and options, then the command.
func envEffects(args []word) effects {
	e := effects{wrapper: true}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch v := a.value; {
		case v == "--":
			e.commands = nonEmpty(args[i+1:])
			return e
		case v == "-S" || v == "--split-string" || strings.HasPrefix(v, "--split-string=") || strings.HasPrefix(v, "-S"):
			e.unseen = firstOf(e.unseen, "env -S splits a string into the command it runs")
			return e
		case v == "-P" || strings.HasPrefix(v, "-P"):
			e.unseen = firstOf(e.unseen, "env -P changes where the command is looked up")
			return e
		case v == "-u" || v == "--unset" || v == "-C" || v == "--chdir":
			i++
		case strings.HasPrefix(v, "-"):
		case strings.Contains(v, "="):
			name, _, _ := strings.Cut(v, "=")
			e.unseen = firstOf(e.unseen, variableUnseen(name), substitutionUnseen(name, a))
		default:
			e.commands = nonEmpty(args[i:])
			return e
		}
	}
	return e
}

// nonEmpty is words as one command, or none when there are no words.
func nonEmpty(words []word) [][]word {
	if len(words) == 0 {
		return nil
	}
	return [][]word{words}
}

// shells are the shells whose -c string is read as code; the bash dialect
// reads what they share.
var shells = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "ash": true, "yash": true, "posh": true, "rbash": true,
}

// shellEffects reads a shell's command line: the -c string is read as
// code, a script file runs as the rule allows it, and a shell with neither
// reads its commands from standard input.
func shellEffects(name string, args []word) effects {
	e := effects{wrapper: true}
	code, stdin := false, false
	i := 0
options:
	for ; i < len(args); i++ {
		a := args[i].value
		switch {
		case a == "--" || a == "-":
			i++
			break options
		case a == "--rcfile" || a == "--init-file":
			return effects{unseen: name + " " + a + " runs the commands of a file"}
		case a == "-o" || a == "+o" || a == "-O" || a == "+O":
			i++
		case strings.HasPrefix(a, "--"):
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
			code = code || strings.ContainsRune(a[1:], 'c')
			stdin = stdin || strings.ContainsRune(a[1:], 's')
		default:
			break options
		}
	}
	switch {
	case code && i < len(args) && args[i].literal:
		e.scripts = []string{args[i].value}
	case code && i < len(args):
		e.unseen = name + " -c runs a string made when it runs"
	case code:
	case stdin || i >= len(args):
		e.unseen = name + " reads its commands from standard input"
	case !args[i].literal:
		e.unseen = name + " runs a script made when it runs"
	default:
		e.wrapper = false
	}
	return e
}

// evalEffects reads eval, whose words joined are run as code.
func evalEffects(args []word) effects {
	if !allLiteral(args) {
		return effects{unseen: "eval runs a string made when it runs"}
	}
	if len(args) == 0 {
		return effects{}
	}
	return effects{wrapper: true, scripts: []string{strings.Join(values(args), " ")}}
}

// trapEffects reads trap, whose action is run as code when a signal
// comes.
func trapEffects(args []word) effects {
	i, _ := skipOptions(args, "", nil, "")
	if len(args)-i < 2 || args[i].value == "-" {
		return effects{}
	}
	action := args[i]
	if !action.literal {
		return effects{unseen: "trap runs a string made when it runs"}
	}
	return effects{wrapper: true, scripts: []string{action.value}}
}

// watchEffects reads watch, which runs its words joined through sh -c,
// or as a command with -x.
func watchEffects(args []word) effects {
	e := effects{wrapper: true}
	execute := false
	i := 0
	for ; i < len(args); i++ {
		a := args[i].value
		if a == "--" {
			i++
			break
		}
		if a == "-x" || a == "--exec" {
			execute = true
			continue
		}
		if a == "-n" || a == "--interval" || a == "-q" || a == "--equexit" {
			i++
			continue
		}
		if !strings.HasPrefix(a, "-") {
			break
		}
	}
	rest := args[i:]
	switch {
	case len(rest) == 0:
	case execute:
		e.commands = [][]word{rest}
	case !allLiteral(rest):
		e.unseen = "watch runs a string made when it runs"
	default:
		e.scripts = []string{strings.Join(values(rest), " ")}
	}
	return e
}

// findEffects reads find: the commands -exec and its kin run, and the
// actions that delete or write files.
func findEffects(args []word) effects {
	var e effects
	for i := 0; i < len(args); i++ {
		switch a := args[i].value; a {
		case "-exec", "-execdir", "-ok", "-okdir":
			start := i + 1
			for i++; i < len(args) && !(args[i].literal && (args[i].value == ";" || args[i].value == "+")); i++ {
			}
			if i > start {
				e.commands = append(e.commands, args[start:i])
			}
		case "-delete":
			e.unseen = firstOf(e.unseen, "find -delete deletes files")
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			e.unseen = firstOf(e.unseen, "find "+a+" writes a file")
		}
	}
	return e
}

// interpreter is the family of a command that runs a program in another
// language, "" for none.
func interpreter(base string) string {
	for _, family := range []string{"python", "node", "perl", "ruby", "php"} {
		if rest, ok := strings.CutPrefix(base, family); ok && strings.Trim(rest, "0123456789.") == "" {
			return family
		}
	}
	return ""
}

// interpreterCode lists, per family, the options that give the program
// inline, and the short options that take an argument.
var interpreterCode = map[string]struct{ inline, short string }{
	"python": {inline: "cm", short: "WXQ"},
	"node":   {inline: "ep", short: "rC"},
	"perl":   {inline: "eE", short: ""},
	"ruby":   {inline: "e", short: "IrC"},
	"php":    {inline: "rR", short: "cdz"},
}

// interpreterEffects reads an interpreter's command line: one with no
// program named and none inline reads its program from standard input.
func interpreterEffects(base string, args []word) effects {
	family := interpreter(base)
	code := interpreterCode[family]
	for i := 0; i < len(args); i++ {
		a := args[i].value
		switch {
		case a == "-":
			return effects{unseen: base + " reads its program from standard input"}
		case a == "--eval" || a == "--print" || strings.HasPrefix(a, "--eval=") || strings.HasPrefix(a, "--print="):
			return effects{}
		case a == "--require" || a == "--import":
			i++
		case strings.HasPrefix(a, "--"):
		case len(a) > 1 && a[0] == '-':
			if strings.ContainsAny(a[1:], code.inline) {
				return effects{}
			}
			if len(a) == 2 && strings.IndexByte(code.short, a[1]) >= 0 {
				i++
			}
		default:
			if !args[i].literal {
				return effects{unseen: base + " runs a program made when it runs"}
			}
			return effects{}
		}
	}
	return effects{unseen: base + " reads its program from standard input"}
}

// assignsUnseen is why assignments hide code: the first that does.
func (s *splitter) assignsUnseen(as []*syntax.Assign) string {
	for _, a := range as {
		if a.Name == nil {
			continue
		}
		var value word
		if a.Value != nil {
			value = s.wordOf(a.Value)
		}
		if why := firstOf(variableUnseen(a.Name.Value), substitutionUnseen(a.Name.Value, value)); why != "" {
			return why
		}
	}
	return ""
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
