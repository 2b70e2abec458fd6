package shell

import "strings"

// The programs that run a command in a session of their own or later, in
// a grammar no wrapper's table says: sg and newgrp (another group), at
// and batch (later, from standard input), crontab (later and again),
// tmux (tmux.go: a server that
// runs its own command language), parallel (a string run through a
// shell once for each argument) and nix-shell (a string run in an
// environment the project's shell.nix builds).

// addSessions adds the programs of this file to the table.
func addSessions(table map[string]*program) {
	table["sg"] = &program{hook: argsOnly(sgEffects)}
	table["newgrp"] = &program{hook: argsOnly(func([]word) effects {
		// The shell is the user's login shell, which the splitter does
		// not know: what it reads asks, and is read for deny rules.
		return effects{wrapper: true, privileged: true, unseen: "newgrp starts the user's shell, which reads standard input", stdin: "newgrp starts a shell that reads standard input"}
	})}
	table["at"] = &program{hook: atEffects}
	table["batch"] = &program{hook: atEffects}
	table["crontab"] = &program{hook: crontabEffects}
	table["tmux"] = &program{hook: argsOnly(tmuxEffects)}
	table["parallel"] = &program{hook: argsOnly(parallelEffects)}
	table["nix-shell"] = &program{hook: argsOnly(nixShellEffects)}
	table["hyperfine"] = &program{hook: argsOnly(hyperfineEffects)}
	table["nix"] = &program{hook: argsOnly(nixEffects)}
}

// sgEffects reads "sg [-] GROUP [-c] COMMAND": the command, one string,
// runs through /bin/sh -c as the group; with no command sg starts a
// shell.
func sgEffects(args []word) effects {
	e := effects{wrapper: true, privileged: true}
	if len(args) > 0 && args[0].literal && args[0].value == "-" {
		args = args[1:]
	}
	if len(args) <= 1 {
		// A shell reading standard input: a literal input is read for
		// the deny rules, as newgrp's is.
		e.unseen = "sg starts a shell that reads standard input"
		e.stdin = e.unseen
		return e
	}
	rest := args[1:]
	if len(rest) > 0 && rest[0].literal && rest[0].value == "-c" {
		rest = rest[1:]
	}
	e.scripts, e.unseen = shellString("sg", rest, "")
	return e
}

// atOptions are the options of at and batch: -l, -c, -r and -d list,
// print and remove jobs, -f names the file of commands to run.
var atOptions = flagSet(byEffect{
	inert: `
		V
		q:
		m
		M
		t:
		b
		l
		c
		r
		d
		v
		h
		u:
	`,
	readsArg: `
		f:
	`,
})

// atEffects reads at and batch, which run later, with sh, the commands
// they read from standard input: a script read as code when the call
// gives it as a literal text (a here-string, a here-document, echo piped
// in), code no rule reads otherwise, and so is a file -f names. Listing,
// printing and removing jobs are decided as written.
func atEffects(base string, args []word) effects {
	p := atOptions.parseFlags(base, args, false)
	switch {
	case p.opaque != "":
		return effects{unseen: p.opaque}
	case p.has("l", "c", "r", "d", "V", "h"):
		return effects{}
	case p.has("f"):
		return effects{unseen: base + " -f runs, later, the commands of a file"}
	}
	return effects{wrapper: true, stdin: base + " runs, later, the commands it reads from standard input"}
}

// crontabOptions are the options of crontab: -u names whose jobs, -l
// prints them, -r removes them, -e edits them, -i asks before -r.
var crontabOptions = flagSet(byEffect{
	inert: `
		u:
		l
		r
		e
		i
	`,
})

// crontabEffects reads crontab, which installs, from a file or standard
// input, commands cron runs later and again, with no rule reading them:
// only -l, which prints the jobs, is decided as written. A file it reads
// is a subject too.
func crontabEffects(base string, args []word) effects {
	p := crontabOptions.parseFlags(base, args, true)
	switch {
	case p.opaque != "":
		return effects{unseen: p.opaque}
	case p.has("u"):
		return effects{unseen: "crontab -u changes another user's jobs"}
	case p.has("l") && len(p.operands) == 0:
		return effects{}
	case p.has("r"), p.has("e"):
		return effects{unseen: "crontab -r and -e change the jobs cron runs"}
	}
	e := effects{unseen: "crontab installs commands cron runs later, which no rule reads"}
	for _, w := range p.operands {
		if w.value != "-" {
			e.reads = append(e.reads, w)
		}
	}
	return e
}

// parallelOptions are GNU parallel's options that run nothing of their
// own and leave its command and arguments where they are written.
var parallelOptions = flagSet(byEffect{
	inert: `
		j: jobs:
		P: max-procs:
		k keep-order
		bar
		eta
		progress
		v
		verbose
		t
		n: max-args:
		N: max-replace-args:
		X
		m
		halt:
		tag
		timeout:
		retries:
		delay:
		line-buffer
		group
		u ungroup
		no-notice
		will-cite
		r no-run-if-empty
		dry-run
		version
		help
	`,
	writesArg: `
		joblog:
	`,
})

// parallelEffects reads GNU parallel: its command words, joined, run
// through a shell once for each argument after ":::", which is appended,
// quoted, or put where "{}" stands. Other replacement strings ("{.}",
// "{/}", "{2}") are filled in when it runs, and arguments from standard
// input or a file are known only then: those ask, but the command is
// still read with each unknown word as a word made when it runs, so a
// deny rule for the program it names holds. "{= perl =}" is perl code.
func parallelEffects(args []word) effects {
	e := effects{wrapper: true}
	p := parallelOptions.parseFlags("parallel", args, false)
	switch {
	case p.opaque != "":
		e.unseen = p.opaque
		return e
	case p.has("version", "help"):
		return e
	}
	_, e.writes = optionFiles(p)
	command, i := commandUntil(p.operands, 0, ":::", "::::", ":::+", "::::+")
	inputs := p.operands[i:]
	template := strings.Join(values(command), " ")
	switch {
	case len(command) == 0:
		e.unseen = "parallel runs the commands it reads from standard input"
		return e
	case !allLiteral(p.operands):
		e.unseen = "parallel runs a string made when it runs"
		return e
	case strings.Contains(template, "{="):
		e.unseen = "parallel runs the perl code of a {= =} replacement string"
		return e
	}
	filled := template
	for _, r := range parallelReplacements(template) {
		if r != "{}" {
			e.unseen = firstOf(e.unseen, "parallel fills in its replacement string "+r+" when it runs")
		}
		filled = strings.ReplaceAll(filled, r, parallelUnknown)
	}
	if filled != template && strings.ContainsAny(template, `'"\$`) {
		// An argument put inside quotes or an expansion is quoted as
		// parallel quotes it, which the splitter does not copy.
		e.unseen = firstOf(e.unseen, "parallel puts its arguments inside quotes or an expansion of its command")
	}
	var sources [][]string
	for _, w := range inputs {
		switch w.value {
		case ":::", ":::+":
			sources = append(sources, nil)
		case "::::", "::::+":
			e.unseen = firstOf(e.unseen, "parallel "+w.value+" reads its arguments from files")
			sources = append(sources, nil)
		default:
			last := len(sources) - 1
			sources[last] = append(sources[last], w.value)
		}
	}
	if len(sources) == 0 {
		e.unseen = firstOf(e.unseen, "parallel reads the arguments it appends from standard input")
	}
	if p.has("X", "m", "n", "max-args", "N", "max-replace-args") {
		e.unseen = firstOf(e.unseen, "parallel groups its arguments into jobs when it runs")
	}
	if e.unseen != "" || len(sources) > 1 {
		// The jobs are known only when it runs: the command is read with
		// every argument known appended, and a word made when it runs for
		// the rest.
		e.unseen = firstOf(e.unseen, "parallel combines its argument sources when it runs")
		if filled == template {
			for _, source := range sources {
				for _, arg := range source {
					filled += " " + shellQuote(arg)
				}
			}
			filled += " " + parallelUnknown
		}
		e.scripts = []string{filled}
		return e
	}
	for _, arg := range sources[0] {
		job := template + " " + shellQuote(arg)
		if filled != template {
			job = strings.ReplaceAll(template, "{}", shellQuote(arg))
		}
		e.scripts = append(e.scripts, job)
	}
	return e
}

// parallelReplacements are GNU parallel's replacement strings in a
// template: "{}", "{.}", "{/}", "{//}", "{/.}", "{#}", "{%}", "{3}",
// "{2/.}", "{+.}": braces around digits and then marks.
func parallelReplacements(template string) []string {
	var found []string
	for i := 0; i < len(template); i++ {
		if template[i] != '{' {
			continue
		}
		j := i + 1
		for j < len(template) && '0' <= template[j] && template[j] <= '9' {
			j++
		}
		for j < len(template) && strings.IndexByte("+./#%", template[j]) >= 0 {
			j++
		}
		if j < len(template) && template[j] == '}' {
			found = append(found, template[i:j+1])
			i = j
		}
	}
	return found
}

// parallelUnknown stands for an argument parallel fills in when it runs:
// a word the splitter knows only as one made then.
const parallelUnknown = `"$PARALLEL_ARGUMENT"`

// shellQuote is s as one single-quoted shell word.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// nixShellEffects reads nix-shell, which builds an environment from the
// project's shell.nix (code no rule reads, so the line is decided in full
// as written) and runs the --run or --command string in it, or starts a
// shell that reads standard input.
func nixShellEffects(args []word) effects {
	e := effects{wrapper: true, resolves: true}
	for i, w := range args {
		switch {
		case !w.literal:
			e.unseen = "nix-shell has a word made when it runs"
			return e
		case w.value == "-i":
			e.unseen = "nix-shell -i runs a script with an interpreter it names"
			return e
		case (w.value == "--run" || w.value == "--command") && i+1 < len(args):
			e.scripts, e.unseen = shellString("nix-shell "+w.value, args[i+1:i+2], "")
			return e
		}
	}
	e.unseen = "nix-shell starts a shell that reads standard input"
	return e
}

// hyperfineOptions are hyperfine's options: --setup, --prepare,
// --conclude and --cleanup give strings a shell runs; --shell names the
// shell, and the parameter scans fill in the commands when it runs, so
// they are not in the table.
var hyperfineOptions = flagSet(byEffect{
	inert: `
		w: warmup:
		m: min-runs:
		M: max-runs:
		r: runs:
		s: setup:
		p: prepare:
		C: conclude:
		c: cleanup:
		N
		i ignore-failure
		style:
		sort:
		u: time-unit:
		show-output
		n: command-name:
		h help
		V version
	`,
	writesArg: `
		export-asciidoc:
		export-csv:
		export-json:
		export-markdown:
		export-orgmode:
	`,
})

// hyperfineEffects reads hyperfine, which runs each operand, and the
// strings its setup, prepare, conclude and cleanup options give, through
// a shell: every one is a script.
func hyperfineEffects(args []word) effects {
	e := effects{wrapper: true}
	p := hyperfineOptions.parseFlags("hyperfine", args, true)
	if p.opaque != "" {
		e.unseen = p.opaque
		return e
	}
	_, e.writes = optionFiles(p)
	code := p.operands
	for _, g := range p.options {
		switch g.name {
		case "s", "setup", "p", "prepare", "C", "conclude", "c", "cleanup":
			code = append(code, g.value)
		}
	}
	for _, w := range code {
		if !w.literal {
			e.unseen = "hyperfine runs a string made when it runs"
			return e
		}
		e.scripts = append(e.scripts, w.value)
	}
	return e
}

// nixEffects reads "nix develop" and "nix shell", which build an
// environment from the project's flake (code no rule reads, so the line
// is decided in full as written) and run the words after -c or --command
// in it, or start a shell that reads standard input. Nix's other
// subcommands are decided as written.
func nixEffects(args []word) effects {
	if len(args) == 0 || !args[0].literal || args[0].value != "develop" && args[0].value != "shell" {
		return effects{}
	}
	e := effects{wrapper: true, resolves: true}
	for i, w := range args[1:] {
		switch {
		case !w.literal:
			e.unseen = "nix " + args[0].value + " has a word made when it runs"
			return e
		case w.value == "-c" || w.value == "--command":
			e.commands = nonEmpty(args[i+2:])
			if len(e.commands) == 0 {
				e.unseen = "nix " + args[0].value + " " + w.value + " has no command"
			}
			return e
		}
	}
	e.unseen = "nix " + args[0].value + " starts a shell that reads standard input"
	return e
}
