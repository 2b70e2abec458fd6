package shell

import "strings"

// The wrappers: the commands decided as the command they run, found
// after their options (shells.go holds those that run a string as shell
// code, or another command in a way of their own).

// wrapper is how a command that runs another reads its command line;
// its options are its entry's flags, and it stops reading options at
// its first operand.
type wrapper struct {
	// operands is how many words come between the options and the command.
	operands int
	// none names the options after which no command runs ("sudo -l").
	none []string
	// describes names the options after which it only prints how each
	// name would run ("command -v git"), as type does: read-only when
	// every word is known.
	describes []string
	// privileged marks a wrapper that changes who runs the command.
	privileged bool
	// assigns marks a wrapper that reads NAME=VALUE words before the
	// command as the environment to run it with.
	assigns bool
	// shell names the options that make it run the command's words
	// through a shell, or start one that reads standard input when no
	// command follows.
	shell []string
	// appends marks xargs, which appends the words it reads to the
	// command it runs.
	appends bool
	// code names the options whose value is a string a shell runs
	// ("npx -c STRING").
	code []string
	// startsShell marks a wrapper that, given no command, starts a shell
	// that reads standard input (chroot, unshare, fakeroot).
	startsShell bool
	// elsewhere, when set, is why the command runs where this call's
	// paths mean other files: another root, another namespace.
	elsewhere string
	// output is the file it writes when no option names another:
	// "perf record" writes perf.data.
	output string
	// resolves marks a runner that may find the command it is given
	// somewhere other than PATH (a project's bin, a package it fetches):
	// the runner is decided in full as written, the command as a
	// constraint (README.md, "Project runners").
	resolves bool
	// joins marks a runner that joins its words into one line a shell
	// reads ("pixi run", "devbox run"): they are read as that script.
	joins bool
	// input is the file it reads when no option names another:
	// dotenv reads .env.
	input string
}

// addWrappers adds the commands decided as the command they run: each
// option a line under its effect, and how the command it runs is found.
func addWrappers(table map[string]*program) {
	for name, prog := range map[string]*program{
		"sudo": {
			flags: flagSet(byEffect{
				inert: `
					A askpass
					a: auth-type:
					B bell
					b background
					C: close-from:
					c: login-class:
					D: chdir:
					E
					preserve-env::
					g: group:
					H set-home
					h::
					host:
					help
					i login
					K remove-timestamp
					k reset-timestamp
					l list
					N no-update
					n non-interactive
					P preserve-groups
					p: prompt:
					R: chroot:
					r: role:
					S stdin
					s shell
					T: command-timeout:
					t: type:
					U: other-user:
					u: user:
					V version
					v validate
				`,
				changes: `
					e edit
				`,
			}),
			wraps: &wrapper{none: []string{"K", "remove-timestamp", "l", "list", "V", "version", "v", "validate", "help"}, privileged: true, assigns: true, shell: []string{"i", "login", "s", "shell"}},
		},
		"doas": {
			flags: flagSet(byEffect{
				inert: `
					a:
					C:
					L
					n
					s
					u:
				`,
			}),
			wraps: &wrapper{none: []string{"C", "L"}, privileged: true, shell: []string{"s"}},
		},
		"nice": {
			flags: flagSet(byEffect{
				inert: `
					n: adjustment:
					help
					version
					0
					1
					2
					3
					4
					5
					6
					7
					8
					9
				`,
			}),
			wraps: &wrapper{},
		},
		"nohup": {
			flags: flagSet(byEffect{
				inert: `
					help
					version
				`,
			}),
			wraps: &wrapper{},
		},
		"timeout": {
			flags: flagSet(byEffect{
				inert: `
					k: kill-after:
					s: signal:
					foreground
					preserve-status
					v verbose
					help
					version
				`,
			}),
			wraps: &wrapper{operands: 1, none: []string{"help", "version"}},
		},
		"time": {
			flags: flagSet(byEffect{
				inert: `
					a append
					f: format:
					p portability
					q quiet
					v verbose
					V version
					help
				`,
				writesArg: `
					o: output:
				`,
			}),
			wraps: &wrapper{},
		},
		"command": {
			flags: flagSet(byEffect{
				inert: `
					p
					v
					V
				`,
			}),
			wraps: &wrapper{none: []string{"v", "V"}, describes: []string{"v", "V"}},
		},
		"builtin": {
			flags: flagSet(byEffect{}),
			wraps: &wrapper{},
		},
		"exec": {
			flags: flagSet(byEffect{
				inert: `
					a:
					c
					l
				`,
			}),
			wraps: &wrapper{},
		},
		"stdbuf": {
			flags: flagSet(byEffect{
				inert: `
					i: input:
					o: output:
					e: error:
					help
					version
				`,
			}),
			wraps: &wrapper{none: []string{"help", "version"}},
		},
		"ionice": {
			flags: flagSet(byEffect{
				inert: `
					c: class:
					n: classdata:
					p: pid:
					P: pgid:
					t ignore
					u: uid:
					h help
					V version
				`,
			}),
			wraps: &wrapper{none: []string{"p", "pid", "P", "pgid", "u", "uid", "h", "help", "V", "version"}},
		},
		"setsid": {
			flags: flagSet(byEffect{
				inert: `
					c ctty
					f fork
					w wait
					h help
					V version
				`,
			}),
			wraps: &wrapper{none: []string{"h", "help", "V", "version"}},
		},
		"xargs": {
			flags: flagSet(byEffect{
				inert: `
					0 null
					d: delimiter:
					E:
					e:: eof::
					I:
					i:: replace::
					L: max-lines:
					l::
					n: max-args:
					o open-tty
					P: max-procs:
					p interactive
					process-slot-var:
					r no-run-if-empty
					s: max-chars:
					show-limits
					t verbose
					x exit
					help
					version
				`,
				readsArg: `
					a: arg-file:
				`,
			}),
			wraps: &wrapper{none: []string{"help", "version"}, appends: true},
		},
		"taskset": {
			flags: flagSet(byEffect{
				inert: `
					a all-tasks
					p pid
					c cpu-list
					h help
					V version
				`,
			}),
			wraps: &wrapper{operands: 1, none: []string{"p", "pid", "h", "help", "V", "version"}},
		},
		"unbuffer": {
			flags: flagSet(byEffect{
				inert: `
					p
				`,
			}),
			wraps: &wrapper{},
		},
		"busybox": {
			flags: flagSet(byEffect{
				inert: `
					list
					list-full
					install
					s
					help
				`,
			}),
			wraps: &wrapper{none: []string{"list", "list-full", "install", "help"}},
		},
	} {
		table[name] = prog
	}
	// Homebrew's coreutils and gnu-time name the GNU tools with a g before
	// their names on macOS. gxargs is not among them: xargs is read by
	// its name, as the one that appends words.
	for _, name := range []string{"nice", "nohup", "timeout", "stdbuf", "time"} {
		table["g"+name] = table[name]
	}
}

// unwrap finds the command a wrapper runs.
func (w *wrapper) unwrap(base string, options *optionTable, args []word) effects {
	e := effects{wrapper: true, privileged: w.privileged, resolves: w.resolves, elsewhere: w.elsewhere}
	p := options.parseFlags(base, args, false)
	if p.opaque != "" {
		e.unseen = p.opaque
		return e
	}
	if g, ok := p.first(changes); ok {
		e.unseen = base + " " + g.written + " edits files"
		return e
	}
	e.reads, e.writes = optionFiles(p)
	if p.has(w.none...) {
		e.readOnly = p.has(w.describes...) && allKnown(args)
		return e
	}
	if w.output != "" && len(e.writes) == 0 {
		e.writes = []word{{value: w.output, literal: true}}
	}
	if w.input != "" && len(e.reads) == 0 {
		e.reads = []word{{value: w.input, literal: true}}
	}
	rest := p.operands
	rest = rest[min(w.operands, len(rest)):]
	if w.operands > 0 && len(rest) > 0 && strings.HasPrefix(rest[0].value, "-") {
		// "aws-vault exec PROFILE -- CMD": a "--" after the operands
		// ends the options; any other option there is one the table,
		// read up to the first operand, did not see.
		if rest[0].value != "--" || !rest[0].literal {
			e.unseen = firstOf(e.unseen, base+" reads an option after its operands: "+rest[0].value)
			return e
		}
		rest = rest[1:]
	}
	for ; w.assigns && len(rest) > 0 && strings.Contains(rest[0].value, "="); rest = rest[1:] {
		e.unseen = firstOf(e.unseen, handedUnseen(rest[0]))
		e.reads = append(e.reads, startupReads(rest[:1])...)
	}
	for _, g := range p.options {
		if contains(w.code, g.name) {
			scripts, why := shellString(base+" "+g.written, []word{g.value}, "")
			e.scripts, e.unseen = append(e.scripts, scripts...), firstOf(e.unseen, why)
		}
	}
	switch {
	case len(e.scripts) > 0:
		// The string is the command; words after it are its arguments.
	case p.has(w.shell...) || w.joins:
		// "sudo -s CMD" hands the words to a shell's -c: they are code.
		e.scripts, e.unseen = shellString(base, rest, e.unseen)
	case len(rest) > 0 && w.resolves:
		e.commands = append(e.commands, packageCommand(rest))
	case len(rest) > 0:
		e.commands = append(e.commands, rest)
	case w.startsShell:
		e.unseen = firstOf(e.unseen, base+" starts a shell that reads standard input")
	}
	if w.appends {
		e.xargs, e.appendsUnseen = &p, xargsUnseen(p, rest)
	}
	return e
}

// passesStdin reports whether the wrapper named base runs its command
// with the standard input it is given: sudo, env, nice and the others
// that only change how the command runs. A literal text the call gives
// it reaches a shell it runs (split.go). A launcher that starts the
// command in a session or later (screen, tmux, at), or xargs, which
// reads the input itself, is not on the table.
func passesStdin(base string) bool {
	switch base {
	case "sudo", "doas", "env", "nice", "nohup", "timeout", "time", "command", "builtin", "exec", "stdbuf", "ionice",
		"setsid", "taskset", "chrt", "gtimeout", "gnice", "gnohup", "gstdbuf", "gtime", "strace", "ltrace", "fakeroot", "eatmydata":
		return true
	}
	return false
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

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
