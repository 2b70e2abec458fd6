package shell

import (
	"slices"
	"strings"
)

// The project runners: programs that run a command they find in the
// project (node_modules/.bin, a virtualenv, a bundle), in a package they
// fetch, or by PATH. What "npx prettier" runs is whatever the project or
// the registry calls prettier, so the runner is decided in full as
// written, and an allow of Bash(npx prettier:*) allows it; the command
// it names is decided as a constraint, so a deny of Bash(rm:*) holds
// through "npx rm x" and an allow of Bash(prettier:*) alone does not
// allow "npx prettier". Each is a wrapper whose table has its options.

// addProjectRunners adds the project runners, and the tools whose
// runner is a subcommand, to the table.
func addProjectRunners(table map[string]*program) {
	table["npx"] = npmExec
	table["bunx"] = bunx
	table["uvx"] = uvToolRun
	table["pipx"] = &program{subcommands: map[string]*program{"run": {
		flags: flagSet(byEffect{
			inert: `
				spec:
				python:
				no-cache
				pypackages
				system-site-packages
				index-url:
				editable
				pip-args:
				q quiet
				v verbose
				h help
			`,
		}),
		wraps: &wrapper{none: []string{"h", "help"}, resolves: true},
	}}}
	table["npm"] = &program{flags: npmGlobals, subcommands: map[string]*program{"exec": npmExec, "x": npmExec}}
	table["pnpm"] = &program{flags: pnpmGlobals, subcommands: map[string]*program{
		"exec": {
			flags: flagSet(byEffect{
				inert: `
					shell-mode
					c
					no-reporter-hide-prefix
					h help
				`,
			}),
			wraps: &wrapper{none: []string{"h", "help"}, shell: []string{"c", "shell-mode"}, resolves: true},
		},
		"dlx": {
			flags: flagSet(byEffect{
				inert: `
					package:
					allow-build:
					c shell-mode
					silent
					h help
				`,
			}),
			wraps: &wrapper{none: []string{"h", "help"}, shell: []string{"c", "shell-mode"}, resolves: true},
		},
	}}
	yarnExec := &program{flags: flagSet(byEffect{}), wraps: &wrapper{resolves: true}}
	table["yarn"] = &program{flags: yarnGlobals, subcommands: map[string]*program{
		"exec": yarnExec,
		"dlx": {
			flags: flagSet(byEffect{
				inert: `
					p: package:
					q quiet
				`,
			}),
			wraps: &wrapper{resolves: true},
		},
	}}
	table["bundle"] = &program{subcommands: map[string]*program{"exec": {
		flags: flagSet(byEffect{
			inert: `
				keep-file-descriptors
				h help
			`,
		}),
		wraps: &wrapper{none: []string{"h", "help"}, resolves: true},
	}}}
	table["uv"] = &program{flags: uvGlobals, subcommands: map[string]*program{"run": {
		flags: flagSet(byEffect{
			inert: `
				extra:
				all-extras
				no-extra:
				no-dev
				dev
				group:
				no-group:
				no-default-groups
				only-group:
				all-groups
				only-dev
				exact
				with:
				with-editable:
				isolated
				active
				no-sync
				locked
				frozen
				no-project
				no-editable
				script
				s
				package:
				all-packages
				p: python:
				managed-python
				no-managed-python
				offline
				no-cache
				q quiet
				v verbose
				no-progress
				h help
			`,
			readsArg: `
				env-file:
				with-requirements:
			`,
		}),
		wraps: &wrapper{none: []string{"h", "help"}, resolves: true},
	}, "tool run": uvToolRun}}
	table["poetry"] = &program{subcommands: map[string]*program{"run": {
		flags: flagSet(byEffect{
			inert: `
				q quiet
				v verbose
				n no-interaction
				no-ansi
				h help
			`,
		}),
		wraps: &wrapper{none: []string{"h", "help"}, resolves: true},
	}}}
	table["pipenv"] = &program{subcommands: map[string]*program{"run": {
		flags: flagSet(byEffect{
			inert: `
				python:
				v verbose
				h help
			`,
		}),
		wraps: &wrapper{none: []string{"h", "help"}, resolves: true},
	}}}
	table["conda"] = &program{subcommands: map[string]*program{"run": {
		flags: flagSet(byEffect{
			inert: `
				n: name:
				p: prefix:
				no-capture-output
				live-stream
				v verbose
				h help
			`,
		}),
		wraps: &wrapper{none: []string{"h", "help"}, resolves: true},
	}}}
	table["direnv"] = &program{subcommands: map[string]*program{"exec": {
		flags: flagSet(byEffect{}),
		// "direnv exec DIR CMD" runs the command with DIR's .envrc loaded.
		wraps: &wrapper{operands: 1, resolves: true},
	}}}
	table["asdf"] = &program{subcommands: map[string]*program{"exec": {flags: flagSet(byEffect{}), wraps: &wrapper{resolves: true}}}}
	table["volta"] = &program{subcommands: map[string]*program{"run": {
		flags: flagSet(byEffect{
			inert: `
				node:
				npm:
				bundled-npm
				pnpm:
				no-pnpm
				yarn:
				no-yarn
				verbose
				quiet
				h help
			`,
		}),
		wraps: &wrapper{none: []string{"h", "help"}, resolves: true},
	}}}
	table["mise"] = &program{hook: argsOnly(miseEffects)}
	for _, name := range []string{"pyenv", "rbenv", "nodenv", "goenv"} {
		// "pyenv exec CMD…" runs the version's CMD, found by its shims.
		table[name] = &program{subcommands: map[string]*program{"exec": {flags: flagSet(byEffect{}), wraps: &wrapper{resolves: true}}}}
	}
	table["perf"] = &program{subcommands: map[string]*program{
		"stat": {
			flags: flagSet(byEffect{
				inert: `
					e: event:
					a all-cpus
					C: cpu:
					d detailed
					r: repeat:
					x: field-separator:
					A no-aggr
					B big-num
					n null
					v verbose
					q quiet
					p: pid:
					t: tid:
					h help
				`,
				writesArg: `
					o: output:
				`,
			}),
			wraps: &wrapper{none: []string{"h", "help"}},
		},
		"record": {
			flags: flagSet(byEffect{
				inert: `
					e: event:
					a all-cpus
					C: cpu:
					c: count:
					F: freq:
					g
					call-graph:
					p: pid:
					t: tid:
					q quiet
					v verbose
					h help
				`,
				writesArg: `
					o: output:
				`,
			}),
			wraps: &wrapper{none: []string{"h", "help"}, output: "perf.data"},
		},
	}}
	addEnvRunners(table)
}

// bunx is bunx and "bun x": it runs a package's program, fetched when
// the project has none.
var bunx = &program{
	flags: flagSet(byEffect{
		inert: `
			bun
			p: package:
			no-install
			verbose
			silent
		`,
	}),
	wraps: &wrapper{resolves: true},
}

// npmExec is "npm exec" and npx: -c runs a string through a shell; the
// command is found in node_modules/.bin, then PATH, then the registry.
// --workspace and pnpm's --recursive and --filter, which run the command
// in other directories, are not in the tables: they ask.
var npmExec = &program{
	flags: flagSet(byEffect{
		inert: `
			p: package:
			c: call:
			y yes
			no
			q quiet
			silent
			h help
		`,
	}),
	wraps: &wrapper{none: []string{"h", "help"}, code: []string{"c", "call"}, resolves: true},
}

// uvGlobals are uv's options before its subcommand: --directory moves
// the directory the subcommand runs in, --config-file reads settings.
var uvGlobals = flagSet(byEffect{
	inert: `
		q quiet
		v verbose
		color:
		native-tls
		no-native-tls
		offline
		no-offline
		allow-insecure-host:
		preview
		no-preview
		isolated
		show-settings
		n no-cache
		cache-dir:
		python-preference:
		managed-python
		no-managed-python
		no-python-downloads
		allow-python-downloads
		no-progress
		no-config
		directory:
		project:
		h help
		V version
	`,
	readsArg: `
		config-file:
	`,
})

// movers are the options before a tool's subcommand that run it in
// another directory, or in several: uv --directory, npm --prefix and
// --workspace, pnpm --dir and --filter, yarn --cwd.
var movers = map[string][]string{
	"uv":   {"directory"},
	"npm":  {"prefix", "w", "workspace", "ws", "workspaces", "include-workspace-root"},
	"pnpm": {"C", "dir", "w", "workspace-root", "F", "filter", "r", "recursive"},
	"yarn": {"cwd"},
}

// npmGlobals are npm's options before its subcommand, the settings a
// command line may give any subcommand: those that print less or more,
// and those of movers. One that names a configuration file (--userconfig),
// which may set the shell npm runs scripts with, is left out: it asks.
var npmGlobals = flagSet(byEffect{
	inert: `
		s silent
		q quiet
		d
		dd
		ddd
		loglevel:
		color:
		no-color
		progress
		no-progress
		prefix:
		w: workspace:
		ws workspaces
		include-workspace-root
		offline
		prefer-offline
		prefer-online
		y yes
		no
		h help
		v version
	`,
})

// pnpmGlobals are pnpm's options before its subcommand.
var pnpmGlobals = flagSet(byEffect{
	inert: `
		C: dir:
		w workspace-root
		F: filter:
		r recursive
		s silent
		reporter:
		loglevel:
		color
		no-color
		stream
		aggregate-output
		h help
		v version
	`,
})

// yarnGlobals are yarn's options before its subcommand.
var yarnGlobals = flagSet(byEffect{
	inert: `
		cwd:
		s silent
		verbose
		offline
		no-progress
		non-interactive
		h help
		v version
	`,
})

// uvToolRun is uvx and "uv tool run": the command is a package's
// executable, fetched when it is missing.
var uvToolRun = &program{
	flags: flagSet(byEffect{
		inert: `
			from:
			with:
			python:
			p
			isolated
			offline
			no-cache
			q quiet
			v verbose
			h help
		`,
	}),
	wraps: &wrapper{none: []string{"h", "help"}, resolves: true},
}

// subcommandEffects reads a tool whose runner is a subcommand of it:
// "uv run", "bundle exec". Any other subcommand is decided as written.
// The options before the subcommand are read against the tool's own
// table, globals, when it has one (uv's): an option that moves the
// directory (uv --directory) makes where the runner runs known only when
// it runs. An option no table reads asks when a runner's name follows it,
// and the words from that name on are still read as that runner, so a
// deny rule for the command it runs holds; a first --help or --version
// prints and runs nothing.
func subcommandEffects(base string, prog *program, args []word) effects {
	moved := ""
	if prog.flags != nil {
		p := prog.flags.parseFlags(base, args, false)
		if p.opaque == "" {
			for _, g := range p.options {
				if contains(movers[base], g.name) {
					moved = base + " " + g.written + " runs its subcommand in another directory"
				}
			}
			args = p.operands
		}
	}
	e := subcommandRunner(base, prog.subcommands, args)
	if moved != "" && (len(e.commands) > 0 || len(e.scripts) > 0) {
		e.elsewhere = moved
	}
	return e
}

// subcommandRunner reads the words from a tool's subcommand on.
func subcommandRunner(base string, subs map[string]*program, args []word) effects {
	if len(args) == 0 || !args[0].literal {
		return effects{}
	}
	if len(args) > 1 && args[1].literal {
		if prog := subs[args[0].value+" "+args[1].value]; prog != nil {
			return prog.wraps.unwrap(base+" "+args[0].value+" "+args[1].value, prog.flags, args[2:])
		}
	}
	if prog := subs[args[0].value]; prog != nil {
		return prog.wraps.unwrap(base+" "+args[0].value, prog.flags, args[1:])
	}
	switch args[0].value {
	case "-h", "--help", "-V", "--version":
		// It prints its help or version: "npm --help x" runs nothing.
		return effects{}
	}
	if !strings.HasPrefix(args[0].value, "-") {
		return effects{}
	}
	why := base + " " + args[0].value + " is an option before its subcommand the splitter does not read"
	for i, w := range args[1:] {
		if !w.literal {
			return effects{unseen: why}
		}
		if subs[w.value] != nil {
			e := subcommandRunner(base, subs, args[i+1:])
			e.unseen = firstOf(why, e.unseen)
			return e
		}
	}
	return effects{}
}

// packageCommand is the command a project runner is given with the
// package it names turned into the command's name, as the runner runs
// it: "@scope/tool@1.2" runs tool.
func packageCommand(words []word) []word {
	name := words[0]
	if !name.literal || strings.Contains(name.value, "/") && !strings.HasPrefix(name.value, "@") {
		return words
	}
	v := name.value
	if i := strings.LastIndexByte(v, '/'); strings.HasPrefix(v, "@") && i > 0 {
		v = v[i+1:]
	}
	if i := strings.IndexByte(v, '@'); i > 0 {
		v = v[:i]
	}
	if v == name.value || v == "" {
		return words
	}
	name.value = v
	return append([]word{name}, words[1:]...)
}

// constrainFrom marks the commands added from index first on as
// constraints, when on: what a project runner runs (and, under
// [WithRunnerField], as a runner's). The files they read
// and write stay subjects in full, as any command's do.
func (s *splitter) constrainFrom(first int, on bool) {
	if !on {
		return
	}
	for i := first; i < len(s.subjects); i++ {
		if sub := &s.subjects[i]; sub.Tool == "" {
			sub.Constrain = true
			if s.runner != "" && !hasTrue(*sub, s.runner) {
				markTrue(sub, s.runner)
			}
		}
	}
}

// miseOptions are the options of "mise exec": --cd, which runs the
// command in another directory, and --env are not in the table.
var miseOptions = flagSet(byEffect{
	inert: `
		j: jobs:
		raw
		fresh-env
		no-prepare
		q quiet
		v verbose
		y yes
		h help
	`,
})

// miseGlobals are mise's options before its subcommand: -C (--cd) runs
// it in another directory.
var miseGlobals = flagSet(byEffect{
	inert: `
		C: cd:
		q quiet
		v verbose
		y yes
		silent
		j: jobs:
		raw
		debug
		trace
	`,
})

// miseEffects reads mise, whose exec (or x) runs the command after "--"
// with the tools named before it, found by mise; with no "--" it starts
// a shell. Its other subcommands are decided as written. Its options
// before the subcommand are read against miseGlobals; one no table
// reads asks when an exec follows it, whose words are still read.
func miseEffects(args []word) effects {
	moved, why := "", ""
	if len(args) > 0 && args[0].literal && strings.HasPrefix(args[0].value, "-") {
		p := miseGlobals.parseFlags("mise", args, false)
		switch {
		case p.opaque == "":
			args = p.operands
			if p.has("C", "cd") {
				moved = "mise --cd runs its subcommand in another directory"
			}
		default:
			why = p.opaque
			i := slices.IndexFunc(args, func(w word) bool { return w.literal && (w.value == "exec" || w.value == "x") })
			if i < 0 {
				// No runner follows: decided as written.
				return effects{}
			}
			args = args[i:]
		}
	}
	e := miseExec(args)
	e.unseen = firstOf(why, e.unseen)
	if len(e.commands) > 0 {
		e.elsewhere = moved
	}
	return e
}

// miseExec reads the words of mise from its subcommand on.
func miseExec(args []word) effects {
	if len(args) == 0 || !args[0].literal || args[0].value != "exec" && args[0].value != "x" {
		return effects{}
	}
	e := effects{wrapper: true, resolves: true}
	tools, command := args[1:], []word(nil)
	for i, w := range tools {
		if w.literal && w.value == "--" {
			tools, command = tools[:i], tools[i+1:]
			break
		}
	}
	p := miseOptions.parseFlags("mise exec", tools, true)
	switch {
	case p.opaque != "":
		e.unseen = p.opaque
	case p.has("h", "help"):
	case len(command) == 0:
		e.unseen = "mise exec starts a shell that reads standard input"
	default:
		e.commands = [][]word{command}
	}
	return e
}
