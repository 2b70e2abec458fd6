package shell

import (
	"mvdan.cc/sh/v3/syntax"
)

// effects is what a command does besides running as itself.
type effects struct {
	// unseen is why the command runs code no rule can read.
	unseen string
	// wrapper marks a command that runs another, decided as that command;
	// privileged marks one that changes who runs it, decided in full as
	// itself too.
	wrapper, privileged bool
	// resolves marks a runner that may find the command it runs other
	// than by PATH: it is decided in full as itself, and what it runs as
	// a constraint.
	resolves bool
	// commands are the commands it runs, as words, and scripts the
	// strings it runs as shell code.
	commands [][]word
	scripts  []string
	// scriptArgs are the words after a shell's -c string: its $0, $1
	// and so on.
	scriptArgs []word
	// elsewhere, when set, is why the commands it runs run in a
	// directory known only when it runs (find -execdir).
	elsewhere string
	// reads and writes are the files it reads and writes, as words.
	reads, writes []word
	// readOnly marks a command the tables know changes nothing.
	readOnly bool
	// links marks a copy that makes links rather than files (cp -s, -l).
	links bool
	// listedIn, when set, marks a program that reads the names of files
	// it reads from standard input ("tar -T -", "zip -@"): the
	// directory they are relative to. When the call gives the list as a
	// literal text, each name is a file it reads, held to the deny rules.
	listedIn *word
	// xargs, when set, are the options of xargs, which appends the words
	// it reads to the commands it runs, and appendsUnseen why those
	// words hide code when they are known only when it runs (xargs.go).
	xargs         *parsed
	appendsUnseen string
	// commandsIn, when set, marks a database shell that reads its
	// commands from standard input, and reads what they reach: read when
	// the call gives the input as a literal text.
	commandsIn func(string) reach
	// stdin, when set, marks a program that runs its standard input as
	// shell code: read as a script when the call gives it as a literal
	// text, and why it is unseen otherwise.
	stdin string
}

// commandUntil returns the words from start up to a literal terminator,
// and the index of the terminator, or of the end.
func commandUntil(args []word, start int, terminators ...string) ([]word, int) {
	i := start
	for i < len(args) && !(args[i].literal && contains(terminators, args[i].value)) {
		i++
	}
	return args[start:i], i
}

// assignsUnseen is why assignments hide code: the first that does.
// Exported ones, before a command or through export, are handed to the
// programs that run and are held to the table of the known-safe.
func (s *splitter) assignsUnseen(as []*syntax.Assign, exported bool) string {
	for _, a := range as {
		if a.Name == nil {
			// A declaration's word that is not NAME=VALUE as written:
			// 'a[$(…)]=1' or "$v", which may set any variable.
			if a.Value != nil {
				w := s.wordOf(a.Value)
				if why := firstOf(subscriptCode([]word{w}), literalOrWhy(w)); why != "" {
					return why
				}
			}
			continue
		}
		value := word{literal: true}
		if a.Value != nil {
			value = s.wordOf(a.Value)
		}
		unseen := variableUnseen(a.Name.Value)
		if exported {
			unseen = startupUnseen(a.Name.Value, value)
		}
		if why := firstOf(unseen, substitutionUnseen(a.Name.Value, value)); why != "" {
			return why
		}
	}
	return ""
}

// literalOrWhy is why a declaration's word with an expansion hides what
// it sets.
func literalOrWhy(w word) string {
	if w.literal {
		return ""
	}
	return "the declaration " + w.value + " sets a variable named when it runs"
}

// substitutionUnseen is why a variable's value hides code: a literal
// that holds a command substitution, which arithmetic, eval or a prompt
// would run later though the parser read it as text.
func substitutionUnseen(name string, value word) string {
	if value.holdsCode {
		return "the value of " + name + " holds a command substitution the shell may run later"
	}
	return ""
}
