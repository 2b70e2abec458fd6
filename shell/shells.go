package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The commands that run a string as shell code, or another command in a
// way no wrapper's table says: env, the shells, eval, trap, su, runuser,
// script, flock and watch. Each is an entry of the table read by its
// hook (hooks.go, builtins.go).

// envOptions are env's options; -S splits a string into the command and
// -P names where to look it up, which the splitter does not follow.
var envOptions = flagSet(byEffect{
	inert: `
		i ignore-environment
		u: unset:
		0 null
		v debug
		a:
		argv0:
		default-signal::
		ignore-signal::
		block-signal::
		list-signal-handling
		help
		version
	`,
	changes: `
		C: chdir:
		S: split-string:
		P:
	`,
})

// envEffects reads env: its options, its NAME=VALUE words, then the
// command.
func envEffects(args []word) effects {
	e := effects{wrapper: true}
	p := envOptions.parseFlags("env", args, false)
	if p.opaque != "" {
		e.unseen = p.opaque
		return e
	}
	if g, ok := p.first(changes); ok {
		if split, ok := splitString(p); ok {
			// The words of "-S STRING" stand in its place.
			return envEffects(append(split, p.operands...))
		}
		switch g.name {
		case "S", "split-string":
			e.unseen = "env " + g.written + " splits a string into the command it runs"
		case "P":
			e.unseen = "env -P changes where the command is looked up"
		default:
			e.unseen = "env " + g.written + " runs the command in another directory"
		}
		return e
	}
	// --list-signal-handling prints the list and still runs the command.
	if p.has("help", "version") {
		return e
	}
	rest := p.operands
	// env sets any word with "=" before the command, a name bash would
	// not take included: env 'BASH_FUNC_f%%=() { …; }' bash -c f.
	for ; len(rest) > 0 && strings.Contains(rest[0].value, "="); rest = rest[1:] {
		e.unseen = firstOf(e.unseen, handedUnseen(rest[0]))
		e.reads = append(e.reads, startupReads(rest[:1])...)
	}
	e.commands = nonEmpty(rest)
	return e
}

// splitString is the words env's one -S string splits into, with its
// other options, and ok when -S is the only option that changes what
// runs and the string has no escape or variable: words split at blanks
// and newlines, quoted in single or double quotes, and a "#" that starts
// a word begins a comment. A string with a backslash or a "$" is not
// split (env -S expands ${NAME} and reads escapes of its own): it asks.
func splitString(p parsed) ([]word, bool) {
	var out []word
	split := 0
	for _, g := range p.options {
		if g.effect != changes {
			option := word{value: g.written, literal: true}
			switch {
			case g.hasValue && strings.HasPrefix(g.written, "--"):
				option = word{value: g.written + "=" + g.value.value, literal: g.value.literal}
			case g.hasValue:
				option = word{value: g.written + g.value.value, literal: g.value.literal}
			}
			out = append(out, option)
			continue
		}
		split++
		if g.name != "S" && g.name != "split-string" || split > 1 || !g.value.literal {
			return nil, false
		}
		words, ok := envSplit(g.value.value)
		if !ok {
			return nil, false
		}
		out = append(out, words...)
	}
	return out, split == 1
}

// envSplit splits text as env -S does, ok when it holds no backslash
// and no "$".
func envSplit(text string) ([]word, bool) {
	if strings.ContainsAny(text, `\$`) {
		return nil, false
	}
	var out []word
	var b strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			b.WriteByte(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case strings.IndexByte(" \t\n\r\f\v", c) >= 0:
			if in {
				out = append(out, word{value: b.String(), literal: true})
				b.Reset()
				in = false
			}
		case c == '#' && !in:
			return out, true
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if quote != 0 {
		return nil, false
	}
	if in {
		out = append(out, word{value: b.String(), literal: true})
	}
	return out, true
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

// shellEffects reads a shell's command line: the -c string is read as
// code, a script file runs as the rule allows it, and a shell with neither
// reads its commands from standard input.
func shellEffects(name string, args []word) effects {
	if len(args) == 1 && (args[0].value == "--version" || args[0].value == "--help") {
		// It prints and exits, reading no commands.
		return effects{}
	}
	e := effects{wrapper: true}
	code, stdin := false, false
	i := 0
options:
	for ; i < len(args); i++ {
		a := args[i].value
		switch {
		case !args[i].literal:
			break options
		case a == "--" || a == "-":
			i++
			break options
		case a == "--rcfile" || a == "--init-file":
			// The file is read, and what it runs is code no rule read.
			e := effects{unseen: name + " " + a + " runs the commands of a file"}
			if i+1 < len(args) {
				e.reads = args[i+1 : i+2]
			}
			return e
		case a == "-o" || a == "+o" || a == "-O" || a == "+O":
			table := setOptions
			if a[1] == 'O' {
				table = shoptOptions
			}
			// -o keyword is read: the string is then read in keyword
			// mode (keyword.go), as bash reads it.
			if i++; i < len(args) && !table[args[i].value] && !(a == "-o" && args[i].value == "keyword") {
				return effects{unseen: name + " " + a + " " + args[i].value + " changes how the shell reads or runs commands"}
			}
		case strings.HasPrefix(a, "--"):
			if !shellLongOptions[a] {
				return effects{unseen: name + " " + a + " is not an option the splitter knows to run no other file"}
			}
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
			// "+c" and "+s" read as "-c" and "-s" to bash and dash.
			for _, c := range a[1:] {
				switch {
				case c == 'c':
					code = true
				case c == 's':
					stdin = true
				case c != 'r' && c != 'l' && c != 'k' && !setOptions[string(c)]:
					// -k, keyword mode, is read: the string is then
					// read in keyword mode (keyword.go).
					return effects{unseen: name + " " + a[:1] + string(c) + " changes how the shell reads or runs commands"}
				}
			}
		default:
			break options
		}
	}
	switch {
	case code && i < len(args) && args[i].literal:
		e.scripts = []string{args[i].value}
		e.scriptArgs = args[i+1:]
	case code && i < len(args):
		e.unseen = name + " -c runs a string made when it runs"
		if homeOrDirOnly(args[i]) {
			// "$HOME" and "$PWD" are the shell's own in the string:
			// what it runs is held to the deny rules as written.
			e.scripts = []string{args[i].value}
			e.scriptArgs = args[i+1:]
		}
	case code:
		e.unseen = name + " -c has no string: what runs it, xargs or find, supplies one"
	case stdin || i >= len(args):
		// It asks whatever the input, which may also be read by the
		// commands it runs; a literal input the call gives it is read
		// too, so a deny rule for what it runs holds.
		e.unseen = name + " reads its commands from standard input"
		e.stdin = e.unseen
	case !args[i].literal:
		e.unseen = name + " runs a script made when it runs"
	default:
		return scriptProgram(name, args[i:])
	}
	return e
}

// shellLongOptions are the long options of bash known to run no file
// but the command's own and the user's startup files (a login shell's,
// as git's configuration on disk is not read either): --debugger and the
// rest are not.
var shellLongOptions = map[string]bool{
	"--login": true, "--norc": true, "--noprofile": true, "--posix": true, "--restricted": true, "--verbose": true,
	"--noediting": true, "--version": true, "--help": true,
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
// comes. The conditions bash raises itself, DEBUG before every command,
// RETURN and ERR, run it where the splitter cannot follow (a DEBUG trap
// may skip the command under extdebug), and so does a condition outside
// the table of signals.
func trapEffects(args []word) effects {
	p := trapOptions.parseFlags("trap", args, false)
	if p.opaque != "" {
		return effects{unseen: p.opaque}
	}
	operands := p.operands
	if len(operands) < 2 || operands[0].value == "-" {
		return effects{}
	}
	action := operands[0]
	for _, sig := range operands[1:] {
		if name := strings.TrimPrefix(strings.ToUpper(sig.value), "SIG"); !sig.literal || !signals[name] && strings.Trim(name, "0123456789") != "" {
			return effects{unseen: "trap " + sig.value + " runs its action where the splitter cannot follow"}
		}
	}
	if !action.literal {
		return effects{unseen: "trap runs a string made when it runs"}
	}
	return effects{wrapper: true, scripts: []string{action.value}}
}

// trapOptions are bash 5.2's trap options, which print: -l the
// signals, -p the actions set.
var trapOptions = flagSet(byEffect{
	inert: `
		l
		p
	`,
})

// signals are the conditions trap may run an action on that the splitter
// reads as one more command: the signals, and EXIT.
var signals = map[string]bool{
	"EXIT": true, "HUP": true, "INT": true, "QUIT": true, "ILL": true, "TRAP": true, "ABRT": true, "BUS": true,
	"FPE": true, "USR1": true, "SEGV": true, "USR2": true, "PIPE": true, "ALRM": true, "TERM": true,
	"CHLD": true, "CONT": true, "TSTP": true, "TTIN": true, "TTOU": true, "URG": true, "XCPU": true,
	"XFSZ": true, "VTALRM": true, "PROF": true, "WINCH": true, "IO": true, "PWR": true, "SYS": true,
}

// suOptions are the options su and runuser share that run nothing.
const suOptions = `
	c: command:
	session-command:
	f fast
	g: group:
	G: supp-group:
	l login
	m
	p preserve-environment
	P pty
	w: whitelist-environment:
	h help
	V version
`

// commandOptions are the options of su, runuser and script: -c gives
// the string a shell runs; su's -s names the shell; script's -I, -O, -B,
// -T and -t name files it writes.
var commandOptions = map[string]*optionTable{
	"su": flagSet(byEffect{
		inert: suOptions,
		runs: `
			s: shell:
		`,
	}),
	// runuser has su's options and -u, the user to run as.
	"runuser": flagSet(byEffect{
		inert: suOptions + `
			u: user:
		`,
		runs: `
			s: shell:
		`,
	}),
	"script": flagSet(byEffect{
		inert: `
			a append
			c: command:
			e return
			f flush
			force
			E: echo:
			m: logging-format:
			o: output-limit:
			q quiet
			h help
			V version
		`,
		writesArg: `
			I: log-in:
			O: log-out:
			B: log-io:
			T: log-timing:
			t::
			timing::
		`,
	}),
}

// commandOption reads su, runuser and script, which run the string
// given with -c through a shell, and otherwise start a shell that reads
// standard input; "runuser -u USER CMD…" runs the command.
func commandOption(base string, args []word) effects {
	e := effects{wrapper: true, privileged: base != "script"}
	p := commandOptions[base].parseFlags(base, args, true)
	if p.opaque != "" {
		e.unseen = p.opaque
		return e
	}
	if g, ok := p.first(runs); ok {
		e.unseen = base + " " + g.written + " names the shell it runs"
		return e
	}
	_, e.writes = optionFiles(p)
	if p.has("h", "help", "V", "version") {
		return e
	}
	operands := p.operands
	for _, g := range p.options {
		if g.name == "c" || g.name == "command" || g.name == "session-command" {
			e.scripts, e.unseen = shellString(base+" -c", []word{g.value}, "")
		}
	}
	switch {
	case base == "script":
		// The operand is the file it writes the session to.
		e.writes = append(e.writes, operands...)
	case base == "runuser" && p.has("u", "user") && len(operands) > 0:
		e.commands = nonEmpty(operands)
	case len(operands) > 1 && !(len(operands) == 2 && operands[0].value == "-"):
		// Words after the user go to the user's shell as its arguments.
		e.unseen = firstOf(e.unseen, base+" passes words after the user to a shell")
	}
	if len(e.scripts) == 0 && len(e.commands) == 0 {
		e.unseen = firstOf(e.unseen, base+" starts a shell that reads standard input")
	}
	return e
}

// flockOptions are flock's options; -c runs a string through a shell.
var flockOptions = flagSet(byEffect{
	inert: `
		s shared
		x exclusive
		e
		u unlock
		n nonblock
		nb
		w: timeout:
		wait:
		E: conflict-exit-code:
		o close
		F no-fork
		verbose
		h help
		V version
		c: command:
	`,
})

// flockEffects reads flock: "flock FILE CMD…" runs the command, and
// "flock FILE -c STRING" the string through a shell; the lock file is
// created if it is missing, a file flock writes. "flock FD" runs nothing.
func flockEffects(args []word) effects {
	e := effects{wrapper: true}
	p := flockOptions.parseFlags("flock", args, false)
	if p.opaque != "" {
		e.unseen = p.opaque
		return e
	}
	rest := p.operands
	if len(rest) == 0 {
		return e
	}
	// "flock 9" locks descriptor 9; with a command after it, 9 is a file.
	if file := rest[0]; len(rest) > 1 || p.has("c", "command") || !file.literal || !isDescriptor(file.value) {
		e.writes = rest[:1]
	}
	rest = rest[1:]
	for _, g := range p.options {
		if g.name == "c" || g.name == "command" {
			e.scripts, e.unseen = shellString("flock -c", []word{g.value}, "")
			return e
		}
	}
	if len(rest) > 1 && rest[0].literal && (rest[0].value == "-c" || rest[0].value == "--command") {
		e.scripts, e.unseen = shellString("flock -c", rest[1:2], "")
		return e
	}
	e.commands = nonEmpty(rest)
	return e
}

// watchEffects reads watch, which runs its words joined through sh -c,
// or as a command with -x.
func watchEffects(args []word) effects {
	e := effects{wrapper: true}
	p := watchOptions.parseFlags("watch", args, false)
	rest := p.operands
	switch {
	case p.opaque != "":
		e.unseen = p.opaque
	case len(rest) == 0:
	case p.has("x", "exec"):
		e.commands = [][]word{rest}
	case !allLiteral(rest):
		e.unseen = "watch runs a string made when it runs"
	default:
		e.scripts = []string{strings.Join(values(rest), " ")}
	}
	return e
}

// watchOptions are procps watch's options.
var watchOptions = flagSet(byEffect{
	inert: `
		b beep
		c color
		C
		no-color
		d
		differences::
		e errexit
		g chgexit
		q: equexit:
		n: interval:
		p precise
		r
		no-rerun
		t no-title
		w no-wrap
		x exec
		h help
		v version
	`,
})

// homeOrDirOnly reports whether a word's only expansions are $HOME and
// $PWD, in any spelling of a plain parameter: "cat $HOME/.ssh/id_rsa".
// Its value, which keeps them as written, is what a shell it is handed
// to reads them as, its home and directory being the caller's.
func homeOrDirOnly(w word) bool {
	if w.src == nil {
		return false
	}
	known := func(p syntax.WordPart) bool {
		pe, ok := p.(*syntax.ParamExp)
		return ok && pe.Param != nil && (pe.Param.Value == "HOME" || pe.Param.Value == "PWD") &&
			!pe.Excl && !pe.Length && !pe.Width && pe.Index == nil && pe.Slice == nil && pe.Repl == nil && pe.Names == 0 && pe.Exp == nil
	}
	for _, p := range w.src.Parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if _, lit := q.(*syntax.Lit); !lit && !known(q) {
					return false
				}
			}
		default:
			if !known(p) {
				return false
			}
		}
	}
	return true
}
