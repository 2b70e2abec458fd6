package shell

import (
	"strings"
	"sync"
)

// The one table of every command the splitter knows, by name: the GNU
// tools read against their options (commands.go), the programs whose
// options may run one (runners.go), the wrappers that run a command
// (wrappers.go), the builtins (builtins.go), and the programs whose
// grammar is a language, read by a hook of their own (hooks.go).
// effectsOf is one lookup in it; a command it does not hold does what
// no table says, so it is neither read-only nor decided as another.
// shell/README.md lists every entry, and a test keeps the two in step.

// program is what the table knows of one command. An entry is read in
// one of four ways, the first that applies: by its hook, as a wrapper,
// as a builtin that only prints, or against its options.
type program struct {
	// flags are its options, each with its effect; nil for a command
	// read by a hook. For a tool with subcommands, they are the options
	// before the subcommand, when known.
	flags *optionTable
	// permute marks a command that reads options among its operands, as
	// GNU tools do; without it the options end at the first operand.
	permute bool
	// readOnly marks a command that changes nothing when every option it
	// is given is inert or names a file it reads.
	readOnly bool
	// stdinOnly narrows readOnly to a command line with no operand, one
	// that reads standard input: Claude Code runs "uniq -c" but asks for
	// "uniq -c f" (its second operand is a file it writes).
	stdinOnly bool
	// files picks the operands that are files it reads and writes.
	files fileOperands
	// check, when set, is why a command line read against the table runs
	// code the options alone do not show: ssh's -o settings.
	check func(base string, p parsed) string

	// hook reads a command whose grammar is a language (sed, awk, find,
	// git), that runs another in a way of its own (env, a shell, eval,
	// su), or that changes the shell's state (set, declare, trap).
	hook hook
	// wraps marks a wrapper: a command decided as the command it runs.
	wraps *wrapper
	// subcommands are the wrappers a tool has as subcommands ("uv run",
	// "bundle exec"), by name; its other subcommands are decided as
	// written.
	subcommands map[string]*program
	// printsOnly marks a builtin that reads no option that changes
	// anything and prints or tests its words, every one of them text to
	// it (echo, test); printf, whose hook reads -v, is one too.
	printsOnly bool
	// shell marks a shell, whose -c string is code and which may read
	// its commands from a descriptor.
	shell bool
	// language, when set, marks an interpreter of another language and
	// is what its family's command line holds; an interpreter is also
	// known by its name with a version: python3, python3.12, perl5.36.
	language *language
}

// hook reads the command line of a command the options alone do not
// say: base is the command's name, args the words after it.
type hook func(base string, args []word) effects

// argsOnly is a hook for a reader that does not need the command's name.
func argsOnly(read func(args []word) effects) hook {
	return func(_ string, args []word) effects { return read(args) }
}

// programs is the table, by name, made the first time a command is
// looked up in it: a process that reads no command, such as a hook
// deciding a call of another tool, pays nothing for it.
var programs = sync.OnceValue(func() map[string]*program {
	tablesBuilt.Add(1)
	table := map[string]*program{}
	for _, add := range []func(map[string]*program){addTextCommands, addFileCommands, addWriteCommands, addWriters, addRunners, addWrappers, addLaunchers, addProjectRunners, addSessions, addBuiltins, addLoaders, addHooks} {
		part := map[string]*program{}
		add(part)
		for name, prog := range part {
			if table[name] != nil {
				panic("agentpolicy/shell: the table of programs names " + name + " twice")
			}
			table[name] = prog
		}
	}
	return table
})

// lookup is the entry of the command named base, nil when the table has
// none: an interpreter may be named with its version (python3.12), and
// an awk with a suffix (original-awk).
func lookup(base string) *program {
	table := programs()
	if prog := table[base]; prog != nil {
		return prog
	}
	if prog := table[strings.TrimRight(base, "0123456789.")]; prog != nil && prog.language != nil {
		return prog
	}
	if isAwkName(base) {
		return table["awk"]
	}
	return nil
}

// effectsOf reads what the command named base does with its arguments.
func effectsOf(base string, args []word) effects {
	prog := lookup(base)
	switch {
	case prog == nil:
		if line, ok := gitLine(base, args); ok {
			e := gitEffects(line)
			e.readOnly = false
			return e
		}
		return effects{}
	case prog.hook != nil:
		return prog.hook(base, args)
	case prog.wraps != nil:
		return prog.wraps.unwrap(base, prog.flags, args)
	case prog.subcommands != nil:
		return subcommandEffects(base, prog, args)
	case prog.printsOnly:
		return effects{readOnly: allKnown(args)}
	}
	return prog.optionEffects(base, args)
}

// appendSafe reports whether a program is known to run no command and
// write no file whatever arguments xargs appends to it: a builtin that
// only prints or tests its words, or a read-only command of the table
// none of whose options writes a file, runs a program or changes
// anything, and whose operands it only reads. Any other program, a
// shell, env, find, git, xargs, sort (-o), uniq (its second operand), a
// program the table does not know, may take an appended word as an
// option that runs a command or writes a file. The files the appended
// words name are read subjects known only when xargs runs.
func appendSafe(base string) bool {
	prog := lookup(base)
	switch {
	case prog == nil:
		return false
	case prog.printsOnly:
		return true
	case prog.hook != nil || prog.wraps != nil || prog.subcommands != nil:
		return false
	}
	return prog.readOnly && !prog.stdinOnly && prog.check == nil && !prog.flags.indexed().risky
}

// isShell reports whether base names a shell.
func isShell(base string) bool {
	prog := lookup(base)
	return prog != nil && prog.shell
}
