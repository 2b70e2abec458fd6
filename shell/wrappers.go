package shell

import "strings"

// The commands that run other commands: the wrappers decided as the
// command they run, and the commands that run a string as shell code.

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
	// assigns marks a wrapper that reads NAME=VALUE words before the
	// command as the environment to run it with.
	assigns bool
	// shell lists the short options, and login the long ones, that make
	// it run the command's words through a shell, or start one that reads
	// standard input when no command follows.
	shell string
	login []string
}

// wrappers are the commands decided as the command they run.
var wrappers = map[string]wrapper{
	"sudo":     {short: "CDghpRrTtUu", long: []string{"--chdir", "--close-from", "--group", "--host", "--prompt", "--chroot", "--role", "--type", "--command-timeout", "--other-user", "--user"}, none: "eKklLVv", privileged: true, assigns: true, shell: "is", login: []string{"--login", "--shell"}},
	"doas":     {short: "Cu", none: "L", privileged: true, shell: "s"},
	"nice":     {short: "n", long: []string{"--adjustment"}},
	"nohup":    {},
	"timeout":  {short: "sk", long: []string{"--signal", "--kill-after"}, operands: 1},
	"time":     {short: "fo", long: []string{"--format", "--output"}},
	"command":  {none: "vV"},
	"builtin":  {},
	"exec":     {short: "a"},
	"stdbuf":   {short: "ioe", long: []string{"--input", "--output", "--error"}},
	"ionice":   {short: "cnpPu", long: []string{"--class", "--classdata", "--pid", "--pgid", "--uid"}, none: "pPu"},
	"setsid":   {},
	"xargs":    {short: "adEILnPs", long: []string{"--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"}},
	"taskset":  {operands: 1, none: "p"},
	"unbuffer": {},
}

// unwrap finds the command a wrapper runs.
func (w wrapper) unwrap(base string, args []word) effects {
	e := effects{wrapper: true, privileged: w.privileged}
	i, stopped := skipOptions(args, w.short, w.long, w.none)
	if stopped {
		return e
	}
	options := args[:i]
	i = min(i+w.operands, len(args))
	for ; w.assigns && i < len(args) && isAssignment(args[i].value); i++ {
		name, _, _ := strings.Cut(args[i].value, "=")
		e.unseen = firstOf(e.unseen, variableUnseen(name), substitutionUnseen(name, args[i]))
	}
	rest := args[i:]
	switch {
	case w.shell != "" && hasOption(options, w.shell, w.short, w.login):
		// "sudo -s CMD" hands the words to a shell's -c: they are code.
		e.scripts, e.unseen = shellString(base, rest, e.unseen)
	case len(rest) > 0:
		e.commands = append(e.commands, rest)
	}
	if base == "xargs" {
		e.unseen = firstOf(e.unseen, xargsUnseen(options, rest))
	}
	return e
}

// shellString reads words a program joins and hands to a shell: they
// are a script when literal; with none the shell reads standard input.
// unseen is a reason already known, kept first.
func shellString(what string, words []word, unseen string) ([]string, string) {
	switch {
	case len(words) == 0:
		return nil, firstOf(unseen, what+" starts a shell that reads standard input")
	case !allLiteral(words):
		return nil, firstOf(unseen, what+" runs a string made when it runs")
	}
	return []string{strings.Join(values(words), " ")}, unseen
}

// hasOption reports whether the options give one of the short options in
// flags, or one of the long ones. A short option that takes an argument
// ends its cluster.
func hasOption(options []word, flags, short string, long []string) bool {
	for _, o := range options {
		v := o.value
		if strings.HasPrefix(v, "--") {
			name, _, _ := strings.Cut(v, "=")
			if contains(long, name) {
				return true
			}
			continue
		}
		if len(v) < 2 || v[0] != '-' {
			continue
		}
		for j := 1; j < len(v); j++ {
			if strings.IndexByte(flags, v[j]) >= 0 {
				return true
			}
			if strings.IndexByte(short, v[j]) >= 0 {
				break
			}
		}
	}
	return false
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
		case isAssignment(v):
			name, _, _ := strings.Cut(v, "=")
			e.unseen = firstOf(e.unseen, variableUnseen(name), substitutionUnseen(name, a))
		default:
			e.commands = nonEmpty(args[i:])
			return e
		}
	}
	return e
}

// isAssignment reports whether a word a wrapper reads is NAME=VALUE.
func isAssignment(v string) bool {
	name, _, ok := strings.Cut(v, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range name {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
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
			// "+c" and "+s" read as "-c" and "-s" to bash and dash.
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
		e.unseen = name + " -c has no string: what runs it, xargs or find, supplies one"
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

// commandOption reads su, runuser and script, which run the string
// given with -c through a shell, and otherwise start a shell that reads
// standard input.
func commandOption(base string, args []word) effects {
	e := effects{wrapper: true, privileged: base != "script"}
	for i := 0; i < len(args); i++ {
		v := args[i].value
		var code []word
		switch {
		case (v == "-c" || v == "--command" || v == "--session-command") && i+1 < len(args):
			code = args[i+1 : i+2]
		case strings.HasPrefix(v, "--command=") || strings.HasPrefix(v, "--session-command="):
			_, value, _ := strings.Cut(v, "=")
			code = []word{{value: value, literal: args[i].literal}}
		case strings.HasPrefix(v, "-c") && !strings.HasPrefix(v, "--"):
			code = []word{{value: v[2:], literal: args[i].literal}}
		default:
			continue
		}
		e.scripts, e.unseen = shellString(base+" -c", code, "")
		return e
	}
	e.unseen = base + " starts a shell that reads standard input"
	return e
}

// flockEffects reads flock: "flock FILE CMD…" runs the command, and
// "flock FILE -c STRING" the string through a shell.
func flockEffects(args []word) effects {
	e := effects{wrapper: true}
	for i, a := range args {
		if (a.value == "-c" || a.value == "--command") && i+1 < len(args) {
			e.scripts, e.unseen = shellString("flock -c", args[i+1:i+2], "")
			return e
		}
	}
	i, _ := skipOptions(args, "wE", []string{"--timeout", "--wait", "--conflict-exit-code"}, "")
	if i+1 < len(args) {
		e.commands = append(e.commands, args[i+1:])
	}
	return e
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
	rest := args[min(i, len(args)):]
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
