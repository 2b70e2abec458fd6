package claudecode

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
)

// Claude Code matches an allow rule against a command after removing a
// fixed set of wrappers and the assignments of a few known-safe variables
// (spec §4.4); any other wrapper or assignment is part of what the rule
// must match. The shell module decides the command a wrapper runs, and
// the command after assignments, as commands of their own, so here the
// subjects are made to need what Claude Code's allow rules need.

// strippedWrappers are the wrappers Claude Code removes before matching
// an allow rule: "timeout 30 npm test" is approved by Bash(npm test *).
// xargs is removed only when it is given no option.
var strippedWrappers = []string{"timeout", "time", "nice", "nohup", "stdbuf", "command", "builtin", "noglob", "xargs"}

// safeVariables are the variables whose assignment before a command an
// allow rule may skip: the ones Claude Code documents, and the locale and
// time zone, which change no program that runs.
var safeVariables = []string{"NODE_ENV", "LANG", "LANGUAGE", "LC_ALL", "NO_COLOR", "TZ"}

// holdPrefixes makes a wrapper Claude Code does not remove, "env npm
// test", "sh -c '…'", a subject every list reads, where the splitter lets
// only deny and ask rules read it, so an allow rule for the command it
// runs does not approve it; and it asks about a command after an
// assignment Claude Code does not skip, "FOO=bar npm test", which the
// splitter leaves out of the command's text.
//
// Claude Code runs a read-only command without a rule after timeout or
// command alone: "timeout 5 ls" runs, "nice ls", "env ls" and
// "NODE_ENV=x ls" ask (recorded from 2.1.328). So a command run by any
// other wrapper, or after an assignment, loses its read-only mark.
func holdPrefixes(subjects []agentpolicy.Subject) {
	wrapped := false
	for i := range subjects {
		s := &subjects[i]
		if s.Tool != "" {
			continue
		}
		if s.Constrain && runnerCommand(s) {
			continue
		}
		if s.Constrain && !baseName(s) {
			s.Constrain = strippedWrapper(s)
			wrapped = !readOnlyWrapper(s)
			continue
		}
		if s.Constrain {
			continue
		}
		if wrapped || startsWithAssignment(s.Text) {
			dropReadOnly(s)
		}
		wrapped = false
		if s.Unseen == "" && !assignsOnly(s) {
			if name := unsafeAssignment(s.Text); name != "" {
				s.Unseen = "the assignment of " + name + " before the command is not one an allow rule may skip"
			}
		}
	}
}

// assignsOnly reports whether a subject is assignments that run alone,
// "x=1", which set variables and run nothing.
func assignsOnly(s *agentpolicy.Subject) bool {
	command, _, _ := agentpolicy.Field(s.Args, "command")
	return startsWithAssignment(command)
}

// readOnlyMember is how the splitter marks a read-only command: the last
// member of its arguments.
const readOnlyMember = `,"` + readOnlyField + `":true}`

// dropReadOnly removes a command's read-only mark.
func dropReadOnly(s *agentpolicy.Subject) {
	if rest, ok := strings.CutSuffix(string(s.Args), readOnlyMember); ok {
		s.Args = json.RawMessage(rest + "}")
	}
}

// startsWithAssignment reports whether a command's text begins with an
// assignment, "FOO=1 ls".
func startsWithAssignment(text string) bool {
	_, _, ok := assignment(text)
	return ok
}

// strippedWrapper reports whether a wrapper's subject is one Claude Code
// removes before matching an allow rule.
func strippedWrapper(s *agentpolicy.Subject) bool {
	command, _, _ := agentpolicy.Field(s.Args, "command")
	words := strings.Fields(command)
	if len(words) == 0 || !slices.Contains(strippedWrappers, words[0]) {
		return false
	}
	return words[0] != "xargs" || len(words) < 2 || !strings.HasPrefix(words[1], "-")
}

// readOnlyWrapper reports whether a wrapper keeps the command it runs in
// Claude Code's read-only set: timeout and command do.
func readOnlyWrapper(s *agentpolicy.Subject) bool {
	command, _, _ := agentpolicy.Field(s.Args, "command")
	name, _, _ := strings.Cut(command, " ")
	return name == "timeout" || name == "command"
}

// runnerCommand reports whether a constraint subject is what a project
// or package runner runs, which stays a constraint: Bash(npx prettier:*)
// approves "npx prettier --check .", and a deny of Bash(rm:*) still
// holds through "npx rm x".
func runnerCommand(s *agentpolicy.Subject) bool {
	return strings.Contains(string(s.Args), `,"`+runnerField+`":true`)
}

// baseName reports whether a constraint subject is the splitter's base
// name of a command named by a path, "rm -f x" for "/bin/rm -f x", which
// only deny and ask rules read.
func baseName(s *agentpolicy.Subject) bool {
	command, _, _ := agentpolicy.Field(s.Args, "command")
	name, _, _ := strings.Cut(command, " ")
	written, _, _ := strings.Cut(strings.TrimSpace(s.Text), " ")
	return strings.Contains(written, "/") && strings.HasSuffix(written, "/"+name)
}

// unsafeAssignment returns the first variable a command's text assigns
// before its name that is not a safe one, "" for none. A value it cannot
// read to its end, one holding a substitution, counts as unsafe.
func unsafeAssignment(text string) string {
	for {
		name, rest, ok := assignment(text)
		if !ok {
			return ""
		}
		end, ok := valueEnd(rest)
		if !ok || !slices.Contains(safeVariables, name) {
			return name
		}
		text = strings.TrimLeft(rest[end:], " \t")
	}
}

// withoutSafeAssignments is a command's text without the assignments of
// safe variables before its name, which Claude Code removes before it
// matches an allow rule.
func withoutSafeAssignments(text string) string {
	for {
		name, rest, ok := assignment(text)
		if !ok || !slices.Contains(safeVariables, name) {
			return text
		}
		end, ok := valueEnd(rest)
		if !ok {
			return text
		}
		text = strings.TrimLeft(rest[end:], " \t")
	}
}

// assignment reads "NAME=" or "NAME+=" at the start of text.
func assignment(text string) (name, rest string, ok bool) {
	i := 0
	for i < len(text) && (text[i] == '_' || isLetter(text[i]) || i > 0 && '0' <= text[i] && text[i] <= '9') {
		i++
	}
	if i == 0 {
		return "", "", false
	}
	name, rest = text[:i], text[i:]
	rest = strings.TrimPrefix(rest, "+")
	if !strings.HasPrefix(rest, "=") {
		return "", "", false
	}
	return name, rest[1:], true
}

// valueEnd returns where an assignment's value ends: at the first blank
// outside quotes. It reports false for a value holding an expansion or a
// quote it cannot close, whose end it does not try to read.
func valueEnd(v string) (int, bool) {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case ' ', '\t', '\n':
			return i, true
		case '\\':
			i++
		case '$', '`', '(':
			return 0, false
		case '\'', '"':
			end := strings.IndexByte(v[i+1:], c)
			if end < 0 || c == '"' && strings.ContainsAny(v[i+1:i+1+end], "$`\\") {
				return 0, false
			}
			i += end + 1
		}
	}
	return len(v), true
}
