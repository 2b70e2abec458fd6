package gemini

import (
	"encoding/json"
	"regexp"
	"strings"
	"sync"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/shell"
)

// Matchers returns the matchers an engine built from Gemini CLI's
// policies alone decides with, by the engine's tool names and Gemini
// CLI's argument names:
//
//	policy, err := rules.Policy(agentpolicy.Ask())
//	eng, err := agentpolicy.Build(policy, gemini.Matchers())
//
// Bash is split by the shell module, each command a compound line runs
// decided on its own, as Gemini CLI splits one and re-checks each part;
// a redirect's target is a call of Write (a write) or Read (a read). A
// commandPrefix is read over each part's words; a commandRegex or an
// argsPattern over the part's (or the call's) arguments as JSON. A
// tool's own rules read its primary argument: Read, Write and Edit
// "file_path", Glob and Grep "dir_path", WebFetch "prompt".
func Matchers() map[string]agentpolicy.ToolMatcher {
	return map[string]agentpolicy.ToolMatcher{
		"Bash": {Match: WithRegex(agentpolicy.GlobMatcher("command")),
			Subjects: shell.Subjects(shell.WithWriteTool("Write", "file_path"), shell.WithReadTool("Read", "file_path"),
				shell.WithOperandTools("", "", ""))},
		"Read":     {Match: WithRegex(agentpolicy.GlobMatcher("file_path"))},
		"Write":    {Match: WithRegex(agentpolicy.GlobMatcher("file_path"))},
		"Edit":     {Match: WithRegex(agentpolicy.GlobMatcher("file_path"))},
		"Glob":     {Match: WithRegex(agentpolicy.GlobMatcher("dir_path"))},
		"Grep":     {Match: WithRegex(agentpolicy.GlobMatcher("dir_path"))},
		"WebFetch": {Match: WithRegex(agentpolicy.GlobMatcher("prompt"))},
	}
}

// Matchers is the package's [Matchers] with one more for every tool a
// rule of the files reads arguments of and the package has none for (an
// MCP tool with an argsPattern): its "re:" and "*" specifiers and nothing
// else.
func (r *Rules) Matchers() map[string]agentpolicy.ToolMatcher {
	m := Matchers()
	for _, f := range r.files {
		for _, e := range f.Entries {
			for _, rule := range e.Rules {
				if _, ok := m[rule.Tool]; !ok && !rule.Bare() && !rule.Glob() {
					m[rule.Tool] = agentpolicy.ToolMatcher{Match: WithRegex(nothing)}
				}
			}
		}
	}
	return m
}

// nothing is the own matcher of a tool whose only specifiers are a Gemini
// rule's.
func nothing(string, json.RawMessage) bool { return false }

// compiled holds the regular expressions of the specifiers seen, which
// [translate] compiled once already, so a decision compiles none.
var compiled sync.Map

// WithRegex reads the specifiers a Gemini CLI rule writes beside a
// tool's own: "re:R" as the regular expression R searched for in the
// arguments, re-serialised compactly as Gemini CLI serialises them, and
// "*" as every call; any other specifier is own's. A host that decides
// Gemini CLI's rules with another importer's matchers wraps each with it.
func WithRegex(own agentpolicy.Matcher) agentpolicy.Matcher {
	return func(spec string, args json.RawMessage) bool {
		if spec == "*" {
			return true
		}
		pattern, ok := strings.CutPrefix(spec, regexPrefix)
		if !ok {
			return own(spec, args)
		}
		re, ok := compiled.Load(pattern)
		if !ok {
			c, err := regexp.Compile(pattern)
			if err != nil {
				return false
			}
			re, _ = compiled.LoadOrStore(pattern, c)
		}
		return re.(*regexp.Regexp).MatchString(serialise(args))
	}
}

// serialise is the arguments as JSON.stringify writes them: no blanks
// between tokens and no escapes for <, > and &.
func serialise(args json.RawMessage) string {
	var v any
	if err := json.Unmarshal(args, &v); err != nil {
		return string(args)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return string(args)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
