package shell

import (
	"cmp"
	"slices"
	"strings"
)

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
// runs as the command it stands for, are decided as written. Each
// family's options are a table (languages.go) read by the one option
// reader; what a program runs through a shell, or as a program, is read
// as shell code where its words name it, so a deny rule for it holds.

// language is what one family's command line holds.
type language struct {
	// options are its options by effect (languages.go), read by the one
	// option reader.
	options *optionTable
	// longOnly marks a family whose options are long options however
	// they are written, one dash or two (gdb -ex, pwsh -Command);
	// folded marks one that reads them in any case.
	longOnly, folded bool
	// tools, for a family whose -m runs a module, are the modules that
	// run as the command they stand for; nil when none does.
	tools map[string]bool
	// shellCode are the commands a program in the family's language
	// runs through a shell or as programs, which a deny rule for them
	// reads: a shell's whole program, gdb's "shell" and "!" commands,
	// dc's "!", expect's "spawn" and "system", Tcl's "exec". Nil for a
	// family whose programs run none the splitter can name.
	shellCode func(code string) []string
	// commands, for a family whose command line begins with a
	// subcommand, are the subcommands decided as written (deno fmt, bun
	// install); run is the one whose next operand is a script file, and
	// eval the one whose next word is code.
	commands  map[string]bool
	run, eval string
	// fetch is the subcommand that runs a package's program as the
	// runner fetcher does ("bun x" as bunx), and shellRun the one whose
	// words are a shell script ("bun exec").
	fetch, shellRun string
	fetcher         *program
	// runOptions, when set, are the options of run, which has a table
	// of its own.
	runOptions *optionTable
}

// languages are the families of interpreters.
var languages = map[string]language{
	"python":     {options: pythonOptions, tools: pythonTools},
	"pypy":       {options: pythonOptions, tools: pythonTools},
	"py":         {options: pythonOptions, tools: pythonTools},
	"ipython":    {options: ipythonOptions},
	"node":       {options: nodeOptions},
	"ts-node":    {options: nodeOptions},
	"tsx":        {options: nodeOptions},
	"perl":       {options: perlOptions},
	"ruby":       {options: rubyOptions},
	"jruby":      {options: rubyOptions},
	"irb":        {options: irbOptions},
	"php":        {options: phpOptions},
	"lua":        {options: luaOptions},
	"luajit":     {options: luaOptions},
	"julia":      {options: juliaOptions},
	"Rscript":    {options: rOptions},
	"R":          {options: rOptions},
	"osascript":  {options: inlineOnly},
	"groovy":     {options: inlineOnly},
	"scala":      {options: inlineOnly},
	"jrunscript": {options: inlineOnly},
	"raku":       {options: inlineOnly},
	"elixir":     {options: elixirOptions},
	"pwsh":       {options: pwshOptions, longOnly: true, folded: true},
	"powershell": {options: pwshOptions, longOnly: true, folded: true},
	"fish":       {options: fishOptions, shellCode: wholeProgram},
	"csh":        {options: cshOptions, shellCode: wholeProgram},
	"tcsh":       {options: cshOptions, shellCode: wholeProgram},
	"nu":         {options: nuOptions, shellCode: wholeProgram},
	"xonsh":      {options: replShellOptions, shellCode: wholeProgram},
	"elvish":     {options: replShellOptions, shellCode: wholeProgram},
	"tclsh":      {options: tclOptions, shellCode: tclCommands},
	"wish":       {options: tclOptions, shellCode: tclCommands},
	"expect":     {options: expectOptions, shellCode: tclCommands},
	"dc":         {options: dcOptions, shellCode: dcCommands},
	"gdb":        {options: gdbOptions, longOnly: true, shellCode: gdbCommands},
	"deno": {options: denoOptions, run: "run", eval: "eval",
		commands: words("fmt lint test check info doc install uninstall task upgrade compile bench cache coverage init publish types vendor serve outdated add remove clean jupyter")},
	"bun": {options: bunOptions, run: "run", runOptions: bunRunOptions, fetch: "x", fetcher: bunx, shellRun: "exec",
		commands: words("run test install i add a remove rm update build init create pm link unlink upgrade outdated publish patch why audit info")},
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

// fetchEffects reads a subcommand that runs a package's program as the
// runner fetcher does ("bun x prettier" as "bunx prettier"): the runner
// is decided as written and what it runs as a constraint. (The runner's
// own unwrap reads the table, which this file's entries are part of.)
func fetchEffects(fetcher *program, base string, args []word) effects {
	p := fetcher.flags.parseFlags(base, args, false)
	e := effects{wrapper: true, resolves: true, unseen: p.opaque}
	if e.unseen == "" && len(p.operands) > 0 {
		e.commands = [][]word{packageCommand(p.operands)}
	}
	return e
}

// interpreterEffects reads an interpreter's command line against its
// family's table: the program it runs and where it comes from, on the
// command line, loaded by an option, read from a file or from standard
// input. An option the table does not know asks, whatever follows.
func interpreterEffects(lang *language, base string, args []word) effects {
	if onlyInfo(args) {
		return effects{}
	}
	if lang.commands != nil && len(args) > 0 && args[0].literal {
		switch sub := args[0].value; {
		case sub == lang.eval && lang.eval != "":
			return inlineProgram(base+" "+sub, args[1:])
		case sub == lang.run && lang.run != "":
			return runEffects(lang, base+" "+sub, args[1:])
		case sub == lang.fetch && lang.fetch != "":
			return fetchEffects(lang.fetcher, base+" "+sub, args[1:])
		case sub == lang.shellRun && lang.shellRun != "":
			e := effects{wrapper: true}
			e.scripts, e.unseen = shellString(base+" "+sub, args[1:], "")
			return e
		case lang.commands[sub]:
			return effects{}
		}
	}
	if lang.longOnly {
		args = longOptions(args, lang.folded)
	}
	p := lang.options.parseFlags(base, args, false)
	e := programOf(lang, base, p)
	e.unseen = firstOf(e.unseen, p.opaque)
	if e.unseen != "" {
		// The call asks: every value an option is given, and the first
		// operand, may be a file the program reads (a script, a core
		// file, a library), read subjects a deny rule reads.
		for _, g := range p.options {
			if g.hasValue && g.effect != inlineCode && !harmlessWarning(lang, g) {
				e.reads = append(e.reads, g.value)
			}
		}
		if len(p.operands) > 0 && !streamPath(p.operands[0].value) && !strings.HasPrefix(p.operands[0].value, "-") {
			e.reads = append(e.reads, p.operands[0])
		}
	}
	return e
}

// programOf is the effect of the program an interpreter's options and
// operands name: the first option that gives or loads code, or runs the
// words after it, decides; without one, the first operand is the script.
func programOf(lang *language, base string, p parsed) effects {
	var e effects
	for _, g := range p.options {
		what := base + " " + g.written
		switch {
		case g.effect == inlineCode && e.unseen == "":
			e = inlineProgram(what, valueOf(g))
			if lang.shellCode != nil && g.value.literal {
				e.scripts = lang.shellCode(g.value.value)
			}
		case g.effect == loadsCode && e.unseen == "" && !harmlessWarning(lang, g):
			e = effects{unseen: what + " loads code named on the command line, which the splitter does not read"}
		case g.effect == runsRest:
			// The last option: what it runs is run after the code
			// before it ("gdb -ex run --args rm x").
			rest := restProgram(lang, what, g, p.operands)
			if e.unseen == "" {
				return rest
			}
			e.commands = rest.commands
			return e
		}
	}
	if e.unseen != "" {
		return e
	}
	if len(p.operands) > 0 && p.operands[0].literal && p.operands[0].value == "-" {
		return effects{unseen: base + " reads its program from standard input"}
	}
	e = scriptProgram(base, p.operands)
	// The script is read as interpreterEffects reads every file a call
	// that asks may name; an option the table does not know goes first.
	e.reads = nil
	e.unseen = firstOf(p.opaque, e.unseen)
	return e
}

// harmlessWarning reports whether g is python's -W with a warning
// filter that imports nothing: a filter imports the category it names
// after a colon, and "-W ignore" names none.
func harmlessWarning(lang *language, g given) bool {
	return g.name == "W" && lang.tools != nil && g.value.literal && !strings.Contains(g.value.value, ":")
}

// valueOf is an option's value as the words it stands in: none when it
// was given none.
func valueOf(g given) []word {
	if !g.hasValue {
		return nil
	}
	return []word{g.value}
}

// restProgram is the effect of an option that runs the words after it:
// python's -m, which runs a module, as the command it stands for when
// it is a tool the family's table knows; gdb's --args, which debugs the
// program the words name, decided as that command too.
func restProgram(lang *language, what string, g given, rest []word) effects {
	switch {
	case !g.hasValue && g.arity == required:
		return effects{unseen: what + " runs a module named when it runs"}
	case g.arity == bare:
		if len(rest) == 0 {
			return effects{unseen: what + " names no program"}
		}
		return effects{unseen: what + " runs the program under the debugger, whose own commands no rule reads", commands: [][]word{rest}}
	case !g.value.literal:
		return effects{unseen: what + " runs a module named when it runs"}
	case lang.tools[g.value.value]:
		return effects{}
	}
	return effects{unseen: what + " " + g.value.value + " runs code the table does not know as a tool's, which no rule reads"}
}

// longOptions are the words of a family whose options are long however
// they are written, with "-name" written "--name" (and in lower case
// when the family reads them in any case), up to "--": "-ex" is gdb's
// --ex, not -e with the value x.
func longOptions(args []word, folded bool) []word {
	out := args
	for i, a := range args {
		v := a.value
		if v == "--" || v == "--args" {
			break
		}
		if !strings.HasPrefix(v, "-") {
			continue
		}
		if folded {
			v = strings.ToLower(v)
		}
		if len(v) > 2 && v[1] != '-' {
			v = "-" + v
		}
		if v != a.value {
			if &out[0] == &args[0] {
				out = slices.Clone(args)
			}
			out[i].value = v
		}
		if v == "--args" {
			break
		}
	}
	return out
}

// runEffects reads the words after a family's run subcommand against
// the options of run, its own table when the family has one (bun run)
// or the family's (deno run, which so asks for any option of run's). A
// package's script, "bun run NAME" or "bun run" alone, which lists them,
// is decided as written; NAME is read too, for bun runs the file of that
// name when the package has no such script. A file of code, or code an
// option gives or loads, is the family's program, read as its command
// line is.
func runEffects(lang *language, what string, args []word) effects {
	run := *lang
	run.options, run.commands = cmp.Or(lang.runOptions, lang.options), nil
	p := run.options.parseFlags(what, args, false)
	var writes []word
	for _, g := range p.options {
		if g.effect == writesArg && g.hasValue {
			writes = append(writes, g.value)
		}
	}
	_, code := p.first(inlineCode, loadsCode)
	if lang.commands[lang.run] && p.opaque == "" && !code && (len(p.operands) == 0 || !scriptFile(p.operands[0])) {
		return effects{reads: p.operands[:min(1, len(p.operands))], writes: writes}
	}
	e := interpreterEffects(&run, what, args)
	e.writes = append(e.writes, writes...)
	return e
}

// scriptFile reports whether run's operand names a file of code rather
// than a package's script: it has a path or an extension of the
// languages bun runs, or is known only when it runs.
func scriptFile(w word) bool {
	if !w.literal || strings.ContainsRune(w.value, '/') {
		return true
	}
	for _, ext := range []string{".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx"} {
		if strings.HasSuffix(w.value, ext) {
			return true
		}
	}
	return false
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

// wholeProgram is the code of a shell whose language is not bash's,
// read as the commands it names.
func wholeProgram(code string) []string {
	return []string{code}
}

// gdbCommands are the shell commands of gdb's "shell CMD" and "!CMD",
// one a line.
func gdbCommands(code string) []string {
	var out []string
	for line := range strings.SplitSeq(code, "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "!"); ok {
			out = append(out, rest)
		} else if rest, ok := strings.CutPrefix(line, "shell "); ok {
			out = append(out, rest)
		}
	}
	return out
}

// dcCommands are the shell commands of dc's "!", the rest of its line;
// "!<", "!>" and "!=" are comparisons.
func dcCommands(code string) []string {
	var out []string
	for line := range strings.SplitSeq(code, "\n") {
		_, rest, ok := strings.Cut(line, "!")
		if ok && !strings.HasPrefix(rest, "<") && !strings.HasPrefix(rest, ">") && !strings.HasPrefix(rest, "=") {
			out = append(out, rest)
		}
	}
	return out
}

// tclCommands are the programs Tcl's "exec" and expect's "spawn" and
// "system" run, as commands: each a command of its own, split at newlines, ";" and
// brackets, without its leading options and with braces, Tcl's quotes,
// removed.
func tclCommands(code string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(code, func(r rune) bool { return strings.ContainsRune("\n;[]", r) }) {
		words := strings.Fields(strings.NewReplacer("{", "", "}", "").Replace(part))
		if len(words) == 0 || words[0] != "exec" && words[0] != "spawn" && words[0] != "system" {
			continue
		}
		words = words[1:]
		for len(words) > 0 && strings.HasPrefix(words[0], "-") {
			words = words[1:]
		}
		if len(words) > 0 {
			out = append(out, strings.Join(words, " "))
		}
	}
	return out
}
