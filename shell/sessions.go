package shell

import "strings"

// The programs that run a command in a session of their own or later, in
// a grammar no wrapper's table says: sg and newgrp (another group), at
// and batch (later, from standard input), tmux (a server that runs its
// own command language), parallel (a string run through a shell with the
// arguments appended) and nix-shell (a string run in an environment the
// project's shell.nix builds).

// addSessions adds the programs of this file to the table.
func addSessions(table map[string]*program) {
	table["sg"] = &program{hook: argsOnly(sgEffects)}
	table["newgrp"] = &program{hook: argsOnly(func([]word) effects {
		return effects{wrapper: true, privileged: true, unseen: "newgrp starts a shell that reads standard input"}
	})}
	table["at"] = &program{hook: atEffects}
	table["batch"] = &program{hook: atEffects}
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
	if len(args) == 0 {
		e.unseen = "sg starts a shell that reads standard input"
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

// atEffects reads at and batch, which run later the commands they read
// from standard input or a file: code no rule reads. Listing, printing
// and removing jobs are decided as written.
func atEffects(base string, args []word) effects {
	p := atOptions.parseFlags(base, args, false)
	switch {
	case p.opaque != "":
		return effects{unseen: p.opaque}
	case p.has("l", "c", "r", "d", "V", "h"):
		return effects{}
	}
	return effects{unseen: base + " runs, later, the commands it reads from standard input or a file"}
}

// tmuxOptions are tmux's options before its command: -c runs a shell
// command, -f reads a configuration of tmux commands.
var tmuxOptions = flagSet(byEffect{
	inert: `
		2
		C
		D
		l
		N
		u
		v
		V
		L:
		S:
		T:
	`,
	runs: `
		c:
		f:
	`,
})

// tmuxReads are the tmux commands that run no command of their own,
// by their names and aliases; every other starts a shell, runs a shell
// command or tmux commands, or types keys into a pane.
var tmuxReads = map[string]bool{
	"ls": true, "list-sessions": true, "list-windows": true, "lsw": true, "list-panes": true, "lsp": true,
	"list-clients": true, "lsc": true, "list-buffers": true, "lsb": true, "list-keys": true, "lsk": true,
	"list-commands": true, "lscm": true, "has-session": true, "has": true, "kill-session": true,
	"kill-server": true, "kill-window": true, "killw": true, "kill-pane": true, "killp": true,
	"detach-client": true, "detach": true, "rename-session": true, "rename": true, "rename-window": true,
	"renamew": true, "select-window": true, "selectw": true, "select-pane": true, "selectp": true,
	"capture-pane": true, "capturep": true, "show-options": true, "show": true, "show-buffer": true,
	"showb": true, "server-info": true, "info": true, "display-message": true, "display": true,
}

// tmuxEffects reads tmux: a command on the table of those that run
// nothing is decided as written; any other, a second command after ";",
// or a format holding "#(", which runs a shell command, asks.
func tmuxEffects(args []word) effects {
	p := tmuxOptions.parseFlags("tmux", args, false)
	switch {
	case p.opaque != "":
		return effects{unseen: p.opaque}
	case p.has("V"):
		return effects{}
	}
	if g, ok := p.first(runs); ok {
		return effects{unseen: "tmux " + g.written + " runs commands"}
	}
	rest := p.operands
	if len(rest) == 0 {
		return effects{unseen: "tmux starts a shell in a new session"}
	}
	for _, w := range rest {
		if !w.literal || strings.HasSuffix(w.value, ";") || strings.Contains(w.value, "#(") {
			return effects{unseen: "tmux runs a command the splitter does not read: " + w.value}
		}
	}
	if !tmuxReads[rest[0].value] {
		return effects{unseen: "tmux " + rest[0].value + " runs commands in a tmux server"}
	}
	return effects{}
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
// through a shell with each argument after ":::" appended, quoted. A
// replacement string ("{}", "{= perl =}") is filled in when it runs, and
// arguments from standard input or a file are known only then: both ask.
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
	switch {
	case len(command) == 0:
		e.unseen = "parallel runs the commands it reads from standard input"
	case !allLiteral(p.operands):
		e.unseen = "parallel runs a string made when it runs"
	case len(inputs) == 0:
		e.unseen = "parallel reads the arguments it appends from standard input"
	}
	if e.unseen != "" {
		return e
	}
	script := strings.Join(values(command), " ")
	if strings.Contains(script, "{") {
		e.unseen = "parallel fills in its replacement strings when it runs"
		return e
	}
	for _, w := range inputs {
		switch w.value {
		case ":::", ":::+":
		case "::::", "::::+":
			e.unseen = "parallel " + w.value + " reads its arguments from files"
			return e
		default:
			script += " " + shellQuote(w.value)
		}
	}
	e.scripts = []string{script}
	return e
}

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
