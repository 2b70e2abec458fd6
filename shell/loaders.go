package shell

// The programs that run the program they are given, outside the
// wrappers' table: the dynamic loader, which runs any program named as
// its operand ("/lib64/ld-linux-x86-64.so.2 /bin/rm x"), the toybox
// multi-call binary, dbus-launch, and bash's jobs -x. Each is decided as
// the command it runs, as a wrapper is. dbus-launch's --config-file,
// whose services it may start, is left out of its table, so it asks.

// loaderNames are the names the dynamic loader is installed under.
var loaderNames = []string{
	"ld.so",
	"ld-linux.so.2",
	"ld-linux-x86-64.so.2",
	"ld-linux-aarch64.so.1",
	"ld-linux-armhf.so.3",
	"ld64.so.1",
	"ld64.so.2",
	"ld-musl-x86_64.so.1",
	"ld-musl-aarch64.so.1",
}

// loaderOptions are the dynamic loader's options: --preload, --audit
// and --library-path load code the splitter does not read; the others
// print what the program would load, or change nothing it runs.
var loaderOptions = flagSet(byEffect{
	inert: `
		list
		verify
		list-tunables
		list-diagnostics
		help
		version
		inhibit-cache
		inhibit-rpath:
		argv0:
		glibc-hwcaps-prefix:
		glibc-hwcaps-mask:
	`,
	runs: `
		library-path:
		preload:
		audit:
	`,
})

// loaderEffects reads a dynamic loader's command line: its first
// operand is the program it runs, decided as a wrapper's command is;
// an option that loads code asks.
func loaderEffects(base string, args []word) effects {
	p := loaderOptions.parseFlags(base, args, false)
	e := effects{wrapper: true, unseen: p.opaque}
	if g, ok := p.first(runs); ok {
		e.unseen = firstOf(e.unseen, base+" "+g.written+" loads code the splitter does not read")
	}
	if e.unseen != "" || p.has("list", "verify", "list-tunables", "list-diagnostics", "help", "version") || len(p.operands) == 0 {
		return e
	}
	e.commands = [][]word{p.operands}
	return e
}

// jobsOptions are bash's jobs options: -x runs its operands as a
// command, after replacing job numbers in them.
var jobsOptions = flagSet(byEffect{
	inert: `
		l
		n
		p
		r
		s
		x
	`,
})

// jobsEffects reads jobs: it prints the jobs, or with -x runs its
// operands as a command.
func jobsEffects(base string, args []word) effects {
	p := jobsOptions.parseFlags(base, args, false)
	switch {
	case p.opaque != "":
		return effects{unseen: p.opaque}
	case !p.has("x"):
		return effects{readOnly: allKnown(args)}
	case len(p.operands) == 0:
		return effects{}
	}
	return effects{wrapper: true, commands: [][]word{p.operands}}
}

// addLoaders adds the commands of this file to the table.
func addLoaders(table map[string]*program) {
	for _, name := range loaderNames {
		table[name] = &program{hook: loaderEffects}
	}
	table["toybox"] = &program{
		flags: flagSet(byEffect{
			inert: `
				help
				version
				long
			`,
		}),
		wraps: &wrapper{none: []string{"help", "version", "long"}},
	}
	table["dbus-launch"] = &program{
		flags: flagSet(byEffect{
			inert: `
				sh-syntax
				csh-syntax
				auto-syntax
				binary-syntax
				close-stderr
				exit-with-session
				exit-with-x11
				autolaunch:
				help
				version
			`,
		}),
		wraps: &wrapper{none: []string{"help", "version"}},
	}
	table["jobs"] = &program{hook: jobsEffects}
}
