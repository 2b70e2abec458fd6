package shell

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// FuzzSubjects splits hostile commands: the splitter never panics, ends
// quickly, returns no empty subject, and for a command with no nesting
// returns one subject per simple command the parser reads.
func FuzzSubjects(f *testing.F) {
	for _, c := range splitCases {
		f.Add(c.command)
	}
	// The attacks and twins of each class the splitter asks about.
	for _, c := range unreadCases {
		f.Add(c.command)
	}
	for _, c := range continuationCases {
		f.Add(c.command)
	}
	for _, c := range arithCases {
		f.Add(c.command)
	}
	for _, c := range stdinCases {
		f.Add(c.command)
	}
	for _, c := range quoteCases {
		f.Add(c.command)
	}
	for _, c := range dialectCases {
		f.Add(c.command)
	}
	for _, c := range literalCases {
		f.Add(c.command)
	}
	for _, c := range pathCases {
		f.Add("echo x > " + c.target)
	}
	// Keyword mode, sessions and launchers: strings and standard input
	// read as scripts.
	for _, c := range launcherCases {
		f.Add(c.attack)
		f.Add(c.twin)
	}
	for _, c := range redTeamState {
		f.Add(c.attack)
	}
	f.Add(strings.Repeat("$(", 300) + strings.Repeat(")", 300))
	f.Add(strings.Repeat("sh -c '", 20))
	f.Add(strings.Repeat("eval ", 40) + "ls")
	f.Add("echo {1..9}{1..9}{1..9}{1..9}")
	split := Subjects(WithWriteTool("write", "path"), WithReadTool("read", "path"))
	f.Fuzz(func(t *testing.T, command string) {
		// A split that hangs would stop the fuzzer without a report, so
		// a watchdog crashes the worker and the input is kept.
		watchdog := time.AfterFunc(5*time.Second, func() { panic(fmt.Sprintf("split of %q takes over 5s", command)) })
		defer watchdog.Stop()
		subjects, err := split(commandArgs(command))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "agentpolicy") {
				t.Fatalf("error %q names no package", err)
			}
			return
		}
		if len(subjects) == 0 {
			t.Fatal("no subjects and no error")
		}
		for _, s := range subjects {
			var m map[string]string
			if err := json.Unmarshal(s.Args, &m); err != nil || len(m) != 1 || s.Text == "" {
				t.Fatalf("subject %+v in %q: %v", s, command, err)
			}
			for _, v := range m {
				if v == "" {
					t.Fatalf("empty subject %+v in %q", s, command)
				}
			}
		}
		commands := 0
		for _, s := range subjects {
			if s.Tool == "" {
				commands++
			}
		}
		if want, flat := simpleCommands(command); flat && commands != want {
			t.Fatalf("%q: %d subjects of commands, want one per simple command, %d", command, commands, want)
		}
	})
}

// simpleCommands counts the simple commands the parser reads in command,
// and reports whether the command is flat: nothing nested in a word or a
// function, no redirect to a file, and no command the splitter reads
// further, a wrapper, a path or a string run as code.
func simpleCommands(command string) (int, bool) {
	if strings.IndexByte(command, '\r') >= 0 || strings.Contains(command, "\\\n") || strings.HasSuffix(command, "\\") {
		// The parser reads a carriage return as space, a line
		// continuation may read otherwise joined, and a backslash at
		// the end bash keeps: the split may ask with subjects of more
		// than one reading.
		return 0, false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return 0, false
	}
	count, flat := 0, true
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.FuncDecl, *syntax.Redirect, *syntax.BraceExp, *syntax.ForClause,
			*syntax.ArithmExp, *syntax.ArrayElem, *syntax.ExtGlob:
			// Each may add a subject of its own.
			flat = false
		case *syntax.Assign:
			// A pager's or an editor's value is read as code.
			runs := false
			if n.Name != nil {
				_, runs = commandVariables[n.Name.Value]
				runs = runs || promptVariables[n.Name.Value] || bashTables[n.Name.Value]
			}
			flat = flat && n.Index == nil && !runs
		case *syntax.BinaryArithm, *syntax.UnaryArithm:
			// An assignment may add a subject for its variable.
			flat = false
		case *syntax.ParamExp:
			flat = flat && n.Exp == nil && n.Index == nil && n.Slice == nil && !n.Excl
		case *syntax.CallExpr:
			count++
			if len(n.Args) > 0 {
				name := strings.ReplaceAll(n.Args[0].Lit(), `\`, "")
				if name == "" || strings.ContainsAny(name, "/{") || readFurther(name) {
					flat = false
				}
			}
			for _, w := range n.Args {
				if strings.Contains(w.Lit(), "{") {
					flat = false
				}
			}
		case *syntax.DeclClause:
			// A declaration with -i may add a subject for a value.
			count++
			flat = false
		case *syntax.LetClause, *syntax.TestClause, *syntax.ArithmCmd:
			count++
		}
		return true
	})
	return count, flat
}

// readFurther reports whether the splitter reads more commands out of a
// command named name.
func readFurther(name string) bool {
	if prog := lookup(name); prog != nil && (prog.wraps != nil || prog.subcommands != nil || prog.language != nil) {
		return true
	}
	switch name {
	case "env", "eval", "trap", "find", "fd", "fdfind", "git", "watch", "su", "runuser", "script", "flock", "man",
		"alias", "hash", "history", "fc", "bind", "compgen", "complete", "compopt", "mapfile", "readarray", "less",
		"tmux", "at", "batch", "newgrp", "sg", "parallel", "nix-shell", "nix", "hyperfine", "mise",
		"hatch", "capsh", "zellij", "byobu", "byobu-tmux", "screen",
		"tar", "rsync", "scp", "sort", "zip", "jobs":
		// Their strings are read as code (callbacks.go, pagers.go,
		// sessions.go, tmux.go, projectrunners.go, envrunners.go,
		// supervisors.go, commands.go's runsCommand).
		return true
	case "set", "shopt":
		// Keyword mode reads a command twice (keyword.go).
		return true
	}
	return isShell(name) || contains(loaderNames, name)
}
