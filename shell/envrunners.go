package shell

import "strings"

// The environment runners: project runners (projectrunners.go) of the
// Python and JavaScript tool managers whose command is found in the
// project's environment or its task table, and the programs that run a
// command with variables they load from a file, a vault or a service.
// What such a program hands the command is known only when it runs, so
// each is decided in full as written and what it runs as a constraint,
// as direnv exec is. An option that moves the command to another
// directory, names a configuration, or sets a variable from the command
// line is left out of its table: it asks.

// addEnvRunners adds the environment runners to the table.
func addEnvRunners(table map[string]*program) {
	table["pdm"] = &program{subcommands: map[string]*program{"run": {
		flags: flagSet(byEffect{
			inert: `
				g global
				l list
				j json
				s site-packages
				r recreate
				skip:
				v verbose
				q quiet
				h help
			`,
		}),
		wraps: &wrapper{none: []string{"h", "help", "l", "list", "j", "json"}, resolves: true},
	}}}
	table["hatch"] = &program{hook: argsOnly(hatchEffects)}
	table["rye"] = &program{subcommands: map[string]*program{"run": {
		flags: flagSet(byEffect{
			inert: `
				l list
				v verbose
				q quiet
				h help
			`,
		}),
		wraps: &wrapper{none: []string{"h", "help", "l", "list"}, resolves: true},
	}}}
	// pixi joins the words after the task name into one line its own
	// shell reads: "pixi run 'rm x'" runs rm. (devbox run, which Claude
	// Code's table has an allow of "devbox run *" cover whatever it runs,
	// stays decided as written.)
	table["pixi"] = &program{subcommands: map[string]*program{"run": {
		flags: flagSet(byEffect{
			inert: `
				e: environment:
				frozen
				locked
				no-install
				clean-env
				skip-deps
				v verbose
				q quiet
				color:
				h help
			`,
		}),
		wraps: &wrapper{none: []string{"h", "help"}, resolves: true, joins: true},
	}}}
	table["op"] = &program{subcommands: map[string]*program{"run": {
		flags: flagSet(byEffect{
			inert: `
				no-masking
				account:
				session:
				cache
				debug
				iso-timestamps
				encoding:
				h help
			`,
		}),
		wraps: &wrapper{none: []string{"h", "help"}, resolves: true},
	}}}
	table["doppler"] = &program{subcommands: map[string]*program{"run": {
		flags: flagSet(byEffect{
			inert: `
				p: project:
				c: config:
				preserve-env
				forward-signals
				name-transformer:
				silent
				debug
				no-check-version
				command:
				h help
			`,
		}),
		wraps: &wrapper{none: []string{"h", "help"}, code: []string{"command"}, resolves: true},
	}}}
	table["aws-vault"] = &program{subcommands: map[string]*program{"exec": {
		flags: flagSet(byEffect{
			inert: `
				d: duration:
				n no-session
				region:
				t: mfa-token:
				prompt:
				h help
			`,
		}),
		// "aws-vault exec PROFILE [--] CMD": with no CMD it starts $SHELL.
		wraps: &wrapper{operands: 1, none: []string{"h", "help"}, startsShell: true, resolves: true},
	}}}
	table["dotenv"] = &program{
		flags: flagSet(byEffect{
			readsArg: `
				e:
			`,
			inert: `
				h help
			`,
		}),
		wraps: &wrapper{none: []string{"h", "help"}, resolves: true, input: ".env"},
	}
	// with-contenv (s6-overlay) runs the command with the container's
	// saved environment.
	table["with-contenv"] = &program{flags: flagSet(byEffect{}), wraps: &wrapper{resolves: true}}
}

// hatchEffects reads hatch, whose "run [ENV:]CMD…" runs the command, or
// a script of the environment's, in that environment. Its other
// subcommands are decided as written.
func hatchEffects(args []word) effects {
	i := 0
	if len(args) > 0 && !args[0].literal {
		return effects{unseen: "hatch runs a subcommand made when it runs"}
	}
	if len(args) > 0 && strings.HasPrefix(args[0].value, "-") {
		// Options before the subcommand: the words from a run on are
		// still read, so a deny rule for what it runs holds.
		for i < len(args) && args[i].literal && args[i].value != "run" {
			i++
		}
		if i < len(args) && !args[i].literal {
			return effects{unseen: "hatch runs a subcommand made when it runs"}
		}
	}
	if i == len(args) || !args[i].literal || args[i].value != "run" {
		return effects{}
	}
	e := effects{wrapper: true, resolves: true}
	if i > 0 {
		e.unseen = "hatch " + args[0].value + " is an option before its subcommand the splitter does not read"
	}
	command := args[i+1:]
	if len(command) == 0 {
		e.unseen = firstOf(e.unseen, "hatch run names no command")
		return e
	}
	if env, name, ok := strings.Cut(command[0].value, ":"); ok && command[0].literal {
		// "hatch run test:pytest" runs pytest in the environment test.
		if env == "" || name == "" {
			e.unseen = firstOf(e.unseen, "hatch run reads a command it is not given: "+command[0].value)
			return e
		}
		command = append([]word{{value: name, literal: true}}, command[1:]...)
	}
	switch {
	case !command[0].literal:
		e.unseen = firstOf(e.unseen, "hatch run runs a command made when it runs")
	case strings.HasPrefix(command[0].value, "-"):
		e.unseen = firstOf(e.unseen, "hatch run reads an option the splitter does not: "+command[0].value)
	default:
		e.commands = [][]word{command}
	}
	return e
}
