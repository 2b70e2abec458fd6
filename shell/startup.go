package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Startup files: the file a shell runs before its commands, named by the
// environment it starts with. bash started for a script or a -c string
// runs the file $BASH_ENV names; sh (dash) and bash --posix run the one
// $ENV names when interactive (sh -i). The variable reaches the shell by
// a prefix ("BASH_ENV=f bash -c ls"), through env or sudo, by export,
// declare -x or set -a earlier in the call, or from the environment the
// call runs in, and the shell may be any program the call runs: a script
// whose first line is #!/bin/bash, a shell a build tool or a hook starts.
// So every value a script gives either variable is a file each program
// it runs may run as code: setting the variable asks (table.go), and the
// file it names is a file each program reads, held to the deny rules in
// the directory that program runs in. An empty value names no file and
// changes nothing.

// startupVariables name the file a shell started with them runs first.
var startupVariables = []string{"BASH_ENV", "ENV"}

// startupUnseen is why handing a program the variable name set to value
// hides code, as environmentUnseen, but for a startup variable set
// empty: "BASH_ENV= bash -c ls" runs no file.
func startupUnseen(name string, value word) string {
	if slices.Contains(startupVariables, name) && value.literal && value.value == "" {
		return ""
	}
	return environmentUnseen(name)
}

// handedUnseen is why a NAME=VALUE word a wrapper (env, sudo) reads
// before the command it runs hides code.
func handedUnseen(assignment word) string {
	name, value, _ := strings.Cut(assignment.value, "=")
	return firstOf(startupUnseen(name, word{value: value, literal: assignment.literal}), substitutionUnseen(name, assignment))
}

// startupReads are the files the NAME=VALUE words a wrapper hands the
// command it runs name for a shell to run first: "env BASH_ENV=.env bash
// -c ls" reads .env.
func startupReads(assignments []word) []word {
	var out []word
	for _, a := range assignments {
		name, value, _ := strings.Cut(a.value, "=")
		if slices.Contains(startupVariables, strings.TrimSuffix(name, "+")) && value != "" {
			out = append(out, word{value: value, literal: a.literal})
		}
	}
	return out
}

// startupFiles adds, as files the command c run with words reads, the
// values the script and the scripts around it give BASH_ENV and ENV. A
// builtin that starts no program reads none.
func (s *splitter) startupFiles(c *syntax.CallExpr, words []word) {
	if words[0].literal && quietBuiltins[words[0].value] {
		return
	}
	values := append(s.ownStartup(), s.startup...)
	if len(values) == 0 {
		return
	}
	readTool, _ := s.operandTargets()
	in := s.dirs.of(c)
	seen := map[string]bool{}
	for _, w := range values {
		if w.literal && (w.value == "" || seen[w.value]) {
			continue
		}
		seen[w.value] = true
		s.file(readTool, w, in)
	}
}

// ownStartup are the values the script being read gives BASH_ENV and
// ENV, literal or not, by assignment, prefix or declaration, and by read
// or printf -v (values.go).
func (s *splitter) ownStartup() []word {
	if !s.namesStartup {
		// Neither name stands in the script: it sets neither.
		return nil
	}
	v := s.assignedValues()
	var out []word
	for _, w := range v.startup {
		out = append(out, s.wordOf(w))
	}
	for _, name := range startupVariables {
		for _, value := range v.given[name] {
			out = append(out, word{value: value, literal: true})
		}
	}
	return out
}

// startupAround are the values of BASH_ENV and ENV that the script being
// read and those around it give, as words that stand nowhere in a script
// read inside it, whose shells inherit them.
func (s *splitter) startupAround() []word {
	out := slices.Clone(s.startup)
	if s.tree == nil {
		return out
	}
	for _, w := range s.ownStartup() {
		w.pos, w.end, w.src = 0, 0, nil
		out = append(out, w)
	}
	return out
}
