package shell

import "strings"

// Interpreters of other languages: python (with pypy, ipython and the py
// launcher), node (with ts-node and tsx), perl and raku, ruby (with jruby
// and irb), php, deno, bun, lua, julia, R, osascript, elixir, groovy,
// scala, jrunscript, pwsh and powershell, tcl and expect, dc (whose !
// runs a command) and gdb (whose -ex commands run programs), and the
// shells whose language is not bash's (fish, csh, tcsh, nu, xonsh,
// elvish). Their programs are code no rule reads, given inline, loaded by
// an option (perl -M, node --require, python -X), read from a file or
// from standard input, so every one of them asks; only an option that
// prints and exits (--version, --help) and python -m of a tool, which
// runs as the command it stands for, are decided as written.

// language is what one family's command line holds.
type language struct {
	// inline and inlineLong are the options that give the program on the
	// command line; loads and loadsLong those whose value names code to
	// load, or settings that may (php -d auto_prepend_file).
	inline, loads         string
	inlineLong, loadsLong []string
	// values are the other short options that take a value, joined or
	// as the next word.
	values string
	// shell marks a shell whose language is not bash's: its inline
	// program asks, and is also read as the commands it names.
	shell bool
	// commands, for a family whose command line begins with a
	// subcommand, are the subcommands decided as written (deno fmt, bun
	// install), and run those whose next operand is a script file.
	commands map[string]bool
	run      string
}

// languages are the families of interpreters.
var languages = map[string]language{
	"python": {inline: "c", loads: "XW", values: "mQ"},
	"node": {inline: "ep", loads: "r", inlineLong: []string{"--eval", "--print"}, values: "C",
		loadsLong: []string{"--require", "--import", "--loader", "--experimental-loader", "--env-file", "--env-file-if-exists", "--experimental-config-file"}},
	"perl":       {inline: "eE", loads: "Mm", values: "I"},
	"ruby":       {inline: "e", loads: "r", values: "ICE"},
	"php":        {inline: "rRBE", loads: "dc", values: "fFtz", inlineLong: []string{"--run"}},
	"pypy":       {inline: "c", loads: "XW", values: "mQ"},
	"lua":        {inline: "e", loads: "l"},
	"luajit":     {inline: "e", loads: "l"},
	"julia":      {inline: "eE", loads: "L", inlineLong: []string{"--eval", "--print"}, loadsLong: []string{"--load"}},
	"Rscript":    {inline: "e"},
	"R":          {inline: "e"},
	"osascript":  {inline: "e"},
	"elixir":     {inline: "e", loads: "r", inlineLong: []string{"--eval"}},
	"groovy":     {inline: "e"},
	"pwsh":       {inline: "cCeE"},
	"fish":       {inline: "cC", shell: true, inlineLong: []string{"--command", "--init-command"}},
	"csh":        {inline: "c", shell: true},
	"tcsh":       {inline: "c", shell: true},
	"nu":         {inline: "ce", shell: true, inlineLong: []string{"--commands", "--execute"}},
	"xonsh":      {inline: "c", shell: true},
	"elvish":     {inline: "c", shell: true},
	"tclsh":      {},
	"wish":       {},
	"expect":     {inline: "c"},
	"ipython":    {inline: "c", values: "m"},
	"py":         {inline: "c", loads: "XW", values: "mQ"},
	"jrunscript": {inline: "e"},
	"scala":      {inline: "e"},
	"ts-node":    {inline: "ep", loads: "r", inlineLong: []string{"--eval", "--print"}, loadsLong: []string{"--require"}},
	"tsx":        {inline: "ep", inlineLong: []string{"--eval", "--print"}, loadsLong: []string{"--require", "--import"}},
	"powershell": {inline: "cCeE"},
	"raku":       {inline: "e"},
	"jruby":      {inline: "e", loads: "r", values: "ICE"},
	"irb":        {loads: "r", values: "I"},
	"dc":         {inline: "e", inlineLong: []string{"--expression"}},
	"gdb":        {inline: "ex", inlineLong: []string{"--ex", "--eval-command", "--iex", "--init-eval-command", "--command", "--init-command"}},
	"deno":       {inlineLong: []string{"eval"}, run: "run", commands: words("fmt lint test check info doc install uninstall task upgrade compile bench cache coverage init publish types vendor serve outdated add remove clean jupyter")},
	"bun": {inline: "ep", inlineLong: []string{"--eval", "--print"}, loadsLong: []string{"--preload", "-r", "--require", "--import", "--env-file"},
		commands: words("run test x install i add a remove rm update build init create pm link unlink upgrade exec outdated publish patch why audit info")},
}

// pythonTools are the modules python -m runs that are tools decided as
// the command they stand for, as pip or pytest run by name are: any other
// module is a program no rule reads (python3 -m pdb x.py runs x.py,
// python3 -m timeit runs the code it is given).
var pythonTools = words("json.tool pip venv ensurepip http.server pytest unittest site sysconfig platform mypy black ruff isort flake8 pylint pyflakes pycodestyle build twine tox nox pipx poetry")

// words is the set of the space-separated words of s.
func words(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(s) {
		set[w] = true
	}
	return set
}

// interpreterEffects reads an interpreter's command line, given what its
// family's command line holds: the program it runs and where it comes
// from.
func interpreterEffects(lang *language, base string, args []word) effects {
	if onlyInfo(args) {
		return effects{}
	}
	if lang.commands != nil && len(args) > 0 && args[0].literal {
		switch sub := args[0].value; {
		case contains(lang.inlineLong, sub):
			return inlineProgram(base+" "+sub, args[1:])
		case sub == lang.run && lang.run != "":
			return scriptProgram(base, args[1:])
		case sub == "run" && runsFile(args[1:]) >= 0:
			// bun run FILE runs the file, as bun FILE does; bun run
			// NAME runs a package script, decided as written.
			return scriptProgram(base+" run", args[1+runsFile(args[1:]):])
		case lang.commands[sub]:
			return effects{}
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.value
		switch {
		case !a.literal && !strings.HasPrefix(v, "-"):
			return effects{unseen: base + " runs a program made when it runs"}
		case v == "-":
			return effects{unseen: base + " reads its program from standard input"}
		case v == "--":
			return scriptProgram(base, args[i+1:])
		case strings.HasPrefix(v, "--"):
			name, _, joined := strings.Cut(v, "=")
			rest := args[i+1:]
			if joined {
				rest = args[i:]
			}
			switch {
			case contains(lang.inlineLong, name):
				return inlineProgram(base+" "+name, rest)
			case contains(lang.loadsLong, name):
				return effects{unseen: base + " " + name + " loads code named on the command line, which the splitter does not read"}
			}
		case len(v) > 1 && v[0] == '-':
			for j := 1; j < len(v); j++ {
				c := v[j]
				joined := j < len(v)-1
				switch {
				case strings.IndexByte(lang.inline, c) >= 0:
					what, rest := base+" "+v[:j+1], args[i+1:]
					if joined {
						return inlineProgram(what, args[i:])
					}
					e := inlineProgram(what, rest)
					if lang.shell && len(rest) > 0 && rest[0].literal {
						e.scripts = []string{rest[0].value}
					}
					return e
				case lang.loads == "XW" && c == 'W' && !strings.Contains(optionValue(v, j, args, i), ":"):
					// A warning filter imports the category it names
					// after a colon; "-W ignore" names none.
					if !joined {
						i++
					}
					j = len(v)
				case strings.IndexByte(lang.loads, c) >= 0:
					return effects{unseen: base + " -" + string(c) + " loads code named on the command line, which the splitter does not read"}
				case lang.values == "mQ" && c == 'm':
					// -m names a module, run as the command it stands for
					// when it is a tool the table knows.
					switch module := optionValue(v, j, args, i); {
					case !joined && (i+1 >= len(args) || !args[i+1].literal):
						return effects{unseen: base + " -m runs a module named when it runs"}
					case pythonTools[module]:
						return effects{}
					default:
						return effects{unseen: base + " -m " + module + " runs code the table does not know as a tool's, which no rule reads"}
					}
				case strings.IndexByte(lang.values, c) >= 0:
					if !joined {
						i++
					}
					j = len(v)
				}
			}
		default:
			return scriptProgram(base, args[i:])
		}
		if !a.literal {
			return effects{unseen: base + " " + v + " may be an option, known only when it runs"}
		}
	}
	return effects{unseen: base + " reads its program from standard input"}
}

// runsFile is the index in args of the first operand when it names a
// file of code rather than a package's script (it has a path or an
// extension of the languages bun runs, or is known only when it runs),
// -1 otherwise.
func runsFile(args []word) int {
	for i, w := range args {
		switch {
		case !w.literal || strings.ContainsRune(w.value, '/'):
			return i
		case strings.HasPrefix(w.value, "-"):
			continue
		}
		for _, ext := range []string{".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx"} {
			if strings.HasSuffix(w.value, ext) {
				return i
			}
		}
		return -1
	}
	return -1
}

// onlyInfo reports whether a command line is only an option that prints
// and exits: --version, -V, -v, --help, -h.
func onlyInfo(args []word) bool {
	if len(args) != 1 || !args[0].literal {
		return false
	}
	switch args[0].value {
	case "--version", "-V", "-v", "--help", "-h":
		return true
	}
	return false
}

// inlineProgram is the effect of a program given on the command line,
// in the first of words: a program in another language, which no rule
// reads, so the call asks whether it is literal or made when it runs
// ("python3 -c "$(curl …)"").
func inlineProgram(what string, words []word) effects {
	if len(words) > 0 && !words[0].literal {
		return effects{unseen: what + " runs a program made when it runs"}
	}
	return effects{unseen: what + " runs a program given inline, which the splitter does not read"}
}

// scriptProgram is the effect of a program read from a file, the first
// of words: the file is read, and its contents are code no rule reads.
func scriptProgram(what string, words []word) effects {
	switch {
	case len(words) == 0:
		return effects{unseen: what + " reads its program from standard input"}
	case !words[0].literal:
		return effects{unseen: what + " runs a program made when it runs"}
	case streamPath(words[0].value):
		return effects{unseen: what + " reads its program from " + words[0].value + ", which no rule reads"}
	}
	return effects{reads: words[:1], unseen: what + " runs the program in " + words[0].value + ", which no rule reads"}
}

// optionValue is the value of the short option at v[j], the word args[i]:
// the rest of the word, or the next word.
func optionValue(v string, j int, args []word, i int) string {
	if j < len(v)-1 {
		return v[j+1:]
	}
	if i+1 < len(args) {
		return args[i+1].value
	}
	return ""
}
