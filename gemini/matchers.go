package gemini

import (
	"bytes"
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

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
// a redirect's target is a call of [Redirect], which no rule allows. A
// commandPrefix is read over each part's words; a commandRegex or an
// argsPattern over the part's (or the call's) arguments as JSON. A
// tool's own rules read its primary argument: Read, Write and Edit
// "file_path", Glob and Grep "dir_path", WebFetch "prompt".
func Matchers() map[string]agentpolicy.ToolMatcher {
	m, _ := matchers()
	return m
}

// Redirect is the tool a shell redirect's target is decided under: one no
// Gemini CLI rule names, so a redirect gets the policy's default, as
// Gemini CLI asks about a command with a redirect (an error in a headless
// run) rather than holding its target to write_file's rules.
const Redirect = "Bash.redirect"

// fields are the argument each tool's own rules read.
var fields = map[string]string{
	"Bash": "command", "Read": "file_path", "Write": "file_path", "Edit": "file_path",
	"Glob": "dir_path", "Grep": "dir_path", "WebFetch": "prompt",
}

// matchers are [Matchers] and, by tool, the index of each: the glob's,
// with the regular expressions and "*", which it cannot file, tried
// always.
func matchers() (map[string]agentpolicy.ToolMatcher, map[string]agentpolicy.Index) {
	m := make(map[string]agentpolicy.ToolMatcher, len(fields))
	indexes := make(map[string]agentpolicy.Index, len(fields))
	for tool, field := range fields {
		own := agentpolicy.GlobMatcher(field)
		ix, _ := agentpolicy.BuiltinIndex(own)
		literal := ix.Literal
		ix.Literal = func(spec string) string {
			if spec == "*" || strings.HasPrefix(spec, regexPrefix) {
				return ""
			}
			return literal(spec)
		}
		m[tool], indexes[tool] = agentpolicy.ToolMatcher{Match: WithRegex(own)}, ix
	}
	bash := m["Bash"]
	bash.Subjects = shell.Subjects(shell.WithWriteTool(Redirect, "file_path"), shell.WithReadTool(Redirect, "file_path"),
		shell.WithOperandTools("", "", ""))
	m["Bash"] = bash
	return m, indexes
}

// Engine builds the engine of a policy of the files' rules with
// [Rules.Matchers], each tool's own matcher given its index, so a
// decision tries only the rules whose literal the argument begins with
// and the regular expressions:
//
//	policy, err := rules.Policy(agentpolicy.Ask())
//	eng, err := rules.Engine(policy)
//
// It decides as agentpolicy.Build(policy, rules.Matchers(), opts...) does.
func (r *Rules) Engine(policy agentpolicy.Policy, opts ...agentpolicy.Option) (*agentpolicy.Engine, error) {
	m, indexes := matchers()
	r.addMatchers(m)
	base := make([]agentpolicy.Option, 0, len(indexes)+len(opts))
	for _, tool := range slices.Sorted(maps.Keys(indexes)) {
		base = append(base, agentpolicy.WithIndex(m[tool].Match, indexes[tool]))
	}
	return agentpolicy.Build(policy, m, append(base, opts...)...)
}

// Matchers is the package's [Matchers] with one more for every tool a
// rule of the files reads arguments of and the package has none for (an
// MCP tool with an argsPattern): its "re:" and "*" specifiers and nothing
// else.
func (r *Rules) Matchers() map[string]agentpolicy.ToolMatcher {
	m := Matchers()
	r.addMatchers(m)
	return m
}

// addMatchers gives m a matcher for every tool a rule reads arguments of
// that has none.
func (r *Rules) addMatchers(m map[string]agentpolicy.ToolMatcher) {
	for _, f := range r.files {
		for _, e := range f.Entries {
			for _, rule := range e.Rules {
				if _, ok := m[rule.Tool]; !ok && !rule.Bare() && !rule.Glob() {
					m[rule.Tool] = agentpolicy.ToolMatcher{Match: WithRegex(nothing)}
				}
			}
		}
	}
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
		return re.(*regexp.Regexp).MatchString(serialised(args))
	}
}

// lastSerialised is the last arguments [serialised] wrote and what it
// wrote: the engine calls a matcher once for each rule it tries, with
// the same arguments.
var lastSerialised atomic.Pointer[serialisedArgs]

// serialisedArgs is one pair of arguments and their serialisation.
type serialisedArgs struct {
	raw []byte
	out string
}

// serialised is [serialise], remembered for the arguments last given:
// only arguments equal byte for byte reuse it.
func serialised(args json.RawMessage) string {
	if last := lastSerialised.Load(); last != nil && bytes.Equal(last.raw, args) {
		return last.out
	}
	out := serialise(args)
	lastSerialised.Store(&serialisedArgs{raw: bytes.Clone(args), out: out})
	return out
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
