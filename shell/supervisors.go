package shell

import "strings"

// The supervisors: programs that start a command as a daemon, under a
// process supervisor's limits, with capabilities, outside a sandbox, or
// in a terminal multiplexer's pane. Each is read as the launchers are
// (launchers.go): its options a table, one a line, and an option it
// does not list asks. An option that moves the command to another
// directory or root, sets a variable, or names another program to run is
// left out for that reason.

// addSupervisors adds the supervisors to the table.
func addSupervisors(table map[string]*program) {
	// "daemonize [options] PATH [ARG…]" runs PATH as a daemon.
	table["daemonize"] = &program{
		flags: flagSet(byEffect{
			inert: `
				a
				u:
				v
			`,
			writesArg: `
				e:
				o:
				p:
				l:
			`,
		}),
		wraps: &wrapper{privileged: true},
	}
	// runit's chpst runs the command with another user, limits or a lock.
	table["chpst"] = &program{
		flags: flagSet(byEffect{
			inert: `
				u:
				U:
				n:
				m:
				d:
				o:
				p:
				f:
				c:
				r:
				t:
				v
				P
				0
				1
				2
			`,
			writesArg: `
				l:
				L:
			`,
		}),
		wraps: &wrapper{privileged: true},
	}
	// flatpak-spawn runs the command in a new sandbox or, with --host,
	// outside the one it is called from.
	table["flatpak-spawn"] = &program{
		flags: flagSet(byEffect{
			inert: `
				host
				watch-bus
				expose-pids
				share-pids
				no-network
				sandbox
				clear-env
				latest-version
				sandbox-expose:
				sandbox-expose-ro:
				sandbox-flag:
				forward-fd:
				v verbose
				h help
			`,
		}),
		wraps: &wrapper{none: []string{"h", "help"}, privileged: true},
	}
	table["screen"] = &program{hook: argsOnly(screenEffects)}
	table["capsh"] = &program{hook: argsOnly(capshEffects)}
	table["zellij"] = &program{hook: argsOnly(zellijEffects)}
	// byobu hands its words to tmux, its usual back end; a word only
	// screen reads is an option tmux's table does not know, and asks.
	table["byobu"] = &program{hook: argsOnly(tmuxEffects)}
	table["byobu-tmux"] = table["byobu"]
}

// capshOptions are capsh's options before "--": each sets what the
// shell it then starts may do. --chroot, --shell, --exec-like "==" and
// the options that change the user's environment are left out: they ask.
var capshOptions = flagSet(byEffect{
	inert: `
		caps:
		drop:
		inh:
		iab:
		addamb:
		delamb:
		noamb
		keep:
		uid:
		gid:
		groups:
		user:
		secbits:
		mode:
		print
		quiet
		h help
	`,
})

// capshEffects reads capsh, which after its options and "--" runs
// /bin/bash with the words that follow: "capsh -- -c 'rm x'" runs
// "bash -c 'rm x'". With no "--" it starts nothing.
func capshEffects(args []word) effects {
	e := effects{wrapper: true, privileged: true}
	i := 0
	for i < len(args) && !(args[i].literal && args[i].value == "--") {
		i++
	}
	p := capshOptions.parseFlags("capsh", args[:i], false)
	switch {
	case p.opaque != "":
		e.unseen = p.opaque
	case len(p.operands) > 0:
		e.unseen = "capsh reads an operand the splitter does not: " + p.operands[0].value
	case i < len(args):
		e.commands = [][]word{append([]word{{value: "bash", literal: true}}, args[i+1:]...)}
	}
	return e
}

// zellijRun is "zellij run [options] [--] CMD…": a new pane of the
// session runs the command. --cwd, which moves it, is left out.
var zellijRun = &program{
	flags: flagSet(byEffect{
		inert: `
			c close-on-exit
			d: direction:
			f floating
			n: name:
			s start-suspended
			in-place
			width:
			height:
			x:
			y:
			pinned:
			stacked
			h help
		`,
	}),
	wraps: &wrapper{none: []string{"h", "help"}},
}

// zellijReads are the zellij subcommands that run no command of their own.
var zellijReads = words("list-sessions ls kill-session k kill-all-sessions ka delete-session d delete-all-sessions da list-aliases la help")

// zellijEffects reads zellij: its run runs a command in a pane of the
// session, in the session's directory; "action write-chars" types text
// into a pane (asks, and the text is read too, so a deny rule for what
// it names holds); the subcommands that run none are decided as
// written; any other subcommand, a layout or a configuration (its
// options -l and -c), and no subcommand, which starts a shell, ask.
func zellijEffects(args []word) effects {
	p := zellijGlobals.parseFlags("zellij", args, false)
	switch {
	case p.opaque != "":
		return effects{unseen: p.opaque}
	case p.has("h", "help", "V", "version"):
		return effects{}
	case len(p.operands) == 0:
		return effects{unseen: "zellij starts a shell in a new session"}
	}
	sub, rest := p.operands[0], p.operands[1:]
	switch {
	case !sub.literal:
		return effects{unseen: "zellij runs a subcommand made when it runs"}
	case zellijReads[sub.value]:
		return effects{}
	case sub.value == "run" || sub.value == "r":
		e := launched("zellij run", zellijRun.flags, zellijRun.wraps, rest)
		if len(e.commands) > 0 {
			e.elsewhere = "zellij run runs its command in a directory the session keeps"
		}
		return e
	case (sub.value == "action" || sub.value == "ac") && len(rest) > 1 && rest[0].value == "write-chars" && allLiteral(rest[1:]):
		return effects{unseen: "zellij action write-chars types keys into a pane", scripts: []string{strings.Join(values(rest[1:]), "")}}
	}
	return effects{unseen: "zellij " + sub.value + " runs commands in a zellij session"}
}

// zellijGlobals are zellij's options before its subcommand.
var zellijGlobals = flagSet(byEffect{
	inert: `
		s: session:
		debug
		h help
		V version
	`,
})

// screenFlags are screen's options: -X, which sends a screen command
// to a session, is read by screenEffects; -c, which names a
// configuration, and -L, which writes a log, are left out.
var screenFlags = flagSet(byEffect{
	inert: `
		a
		A
		d
		D
		m
		q
		r
		R
		U
		x
		S:
		T:
		t:
		h:
		e:
		p:
		v
	`,
})

// screenWrapper is how "screen [options] CMD…" runs its command.
var screenWrapper = &wrapper{none: []string{"v"}, startsShell: true}

// screenEffects reads screen: with -X, the words after it are a screen
// command sent to a running session; without, screen is a wrapper whose
// table launchers.go holds. "-X exec CMD…" and "-X screen CMD…" run the
// command in a new window, in the session's directory; "-X stuff TEXT"
// types the text into a window (asks, and the text is read too, so a
// deny rule for what it names holds). Any other screen command asks.
func screenEffects(args []word) effects {
	x := 0
	for x < len(args) && !(args[x].literal && args[x].value == "-X") {
		x++
	}
	if x == len(args) {
		return launched("screen", screenFlags, screenWrapper, args)
	}
	p := screenFlags.parseFlags("screen", args[:x], false)
	switch {
	case p.opaque != "":
		return effects{unseen: p.opaque}
	case len(p.operands) > 0:
		// "screen CMD -X": -X is an argument of the command.
		return launched("screen", screenFlags, screenWrapper, args)
	}
	command := args[x+1:]
	if len(command) == 0 || !command[0].literal {
		return effects{unseen: "screen -X sends a command the splitter does not read"}
	}
	rest := command[1:]
	switch name := command[0].value; name {
	case "stuff":
		e := effects{unseen: "screen -X stuff types keys into a window"}
		if allLiteral(rest) {
			e.scripts = []string{screenStuffText(strings.Join(values(rest), " "))}
		}
		return e
	case "exec", "screen":
		e := effects{wrapper: true, elsewhere: "screen -X " + name + " runs its command in a directory the session keeps"}
		switch {
		case len(rest) == 0:
			e.unseen = "screen -X " + name + " starts a shell"
		case !rest[0].literal || strings.HasPrefix(rest[0].value, "-") || strings.ContainsAny(rest[0].value[:1], ".!|:"):
			// screen's own options, or exec's file-descriptor pattern.
			e.unseen = "screen -X " + name + " reads a word the splitter does not: " + rest[0].value
		default:
			e.commands = [][]word{rest}
		}
		return e
	}
	return effects{unseen: "screen -X " + command[0].value + " runs a command in a screen session"}
}

// screenStuffText is the text "screen -X stuff" types: its escapes for
// a line break (\n, \r, ^M, ^J) typed as one.
func screenStuffText(s string) string {
	return strings.NewReplacer(`\n`, "\n", `\r`, "\n", "^M", "\n", "^J", "\n").Replace(s)
}

// launched reads a launcher whose table names no file and no option
// that takes a command (screen, zellij run) as unwrap does: the command
// after its options, none after one of its none options, and a shell,
// which asks, when no command follows. A hook cannot call unwrap, which
// looks programs up, while the table is being built.
func launched(base string, flags *optionTable, w *wrapper, args []word) effects {
	e := effects{wrapper: true}
	p := flags.parseFlags(base, args, false)
	switch {
	case p.opaque != "":
		e.unseen = p.opaque
	case p.has(w.none...):
	case len(p.operands) == 0:
		e.unseen = base + " starts a shell that reads standard input"
	default:
		e.commands = [][]word{p.operands}
	}
	return e
}
