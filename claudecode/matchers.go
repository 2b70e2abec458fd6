package claudecode

import (
	"encoding/json"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
)

// Options says how [Settings.Matchers] reads the paths a file tool is
// given. Paths and patterns are compared without regard to case on every
// platform, as Claude Code compares them (spec §11): a deny of ".env"
// refuses ".ENV", and ".Git" is protected as ".git" is.
type Options struct {
	// Windows reads Windows paths in their POSIX form; see
	// [Paths.Windows].
	Windows bool
	// Links resolves symbolic links, so a file tool's call is decided on
	// the path requested and on the file it opens; see [Paths.Links].
	Links fs.ReadLinkFS
	// Dir is the directory a tool's relative path is read from, the
	// shell's current directory (a hook event's cwd); empty is the
	// project directory. Rules stay anchored at the project; see
	// [Paths.Dir].
	Dir string
}

// Matchers returns the matchers of Claude Code's tools, keyed by tool name
// and read with Claude Code's argument names, so
//
//	eng, err := agentpolicy.Build(policy, s.Matchers(o), agentpolicy.WithAliases(s.Aliases()))
//
// decides Bash, Read, Edit, Write, MultiEdit, NotebookEdit, Glob, Grep,
// WebFetch, WebSearch, Agent and Skill calls as the files' rules say.
// Paths are anchored at the project directory and the home directory
// [Load] was given, the process's working directory standing in for a
// project when none was. Every tool also takes parameter rules of spec §2.4,
// "Agent(model:opus)", which read the call's other arguments.
//
// [Settings.Engine] builds the same engine with the path matchers indexed,
// which makes a file tool's decision against many path rules several times
// faster; building from Matchers is for a host that changes a matcher
// before it builds, and gives the same verdicts.
func (s *Settings) Matchers(o Options) map[string]agentpolicy.ToolMatcher {
	m, _ := s.matchers(o)
	return m
}

// Engine builds the engine that decides Claude Code's tool calls under
// policy, a policy of the settings ([Settings.Policy]):
//
//	agentpolicy.Build(policy, s.Matchers(o), agentpolicy.WithAliases(s.Aliases()), opts...)
//
// with one addition, the [agentpolicy.Index] of every matcher that has
// one: the file tools' path matchers, filed by directory, and the Bash and
// Skill matchers, filed by the literal prefix of their patterns. A decision
// then calls a matcher only for the rules whose literal the path or the
// command begins with, rather than for each rule of every list, and gives
// the verdicts of the engine built without the indexes.
func (s *Settings) Engine(policy agentpolicy.Policy, o Options, opts ...agentpolicy.Option) (*agentpolicy.Engine, error) {
	m, indexes := s.matchers(o)
	base := []agentpolicy.Option{agentpolicy.WithAliases(s.Aliases())}
	for _, tool := range slices.Sorted(maps.Keys(indexes)) {
		base = append(base, agentpolicy.WithIndex(m[tool].Match, indexes[tool]))
	}
	return agentpolicy.Build(policy, m, append(base, opts...)...)
}

// matchers is [Settings.Matchers], with the index of each matcher that has
// one, by tool.
func (s *Settings) matchers(o Options) (map[string]agentpolicy.ToolMatcher, map[string]agentpolicy.Index) {
	p := Paths{Cwd: s.cwd, Dir: filepath.ToSlash(o.Dir), Home: s.home, FoldCase: true, Windows: o.Windows, Links: o.Links}
	compiled := newPatterns(p)
	bash, skill := agentpolicy.GlobMatcher("command"), agentpolicy.GlobMatcher("invocation")
	m := map[string]agentpolicy.ToolMatcher{
		"Bash":       {Match: withParameters("Bash", bash), Subjects: bashSubjects(s.writtenRules())},
		"PowerShell": {Match: withParameters("PowerShell", agentpolicy.GlobMatcher("command")), Subjects: powerShellSubjects},
		"WebFetch":   {Match: withParameters("WebFetch", DomainMatcher("url")), Subjects: urlSubjects("url")},
		"WebSearch":  {Match: withParameters("WebSearch", nothing), Subjects: checkedSubjects},
		"Agent":      {Match: withParameters("Agent", exactMatcher("subagent_type")), Subjects: checkedSubjects},
		"Skill":      {Match: withParameters("Skill", skill), Subjects: skillSubjects},
	}
	indexes := map[string]agentpolicy.Index{
		"Bash":  parameterIndex("Bash", bash),
		"Skill": parameterIndex("Skill", skill),
	}
	for _, f := range []struct {
		tool, field string
		split       agentpolicy.Subjects
	}{
		{"Read", "file_path", PathSubjects("file_path", p)},
		{"Edit", "file_path", PathSubjects("file_path", p)},
		{"Write", "file_path", PathSubjects("file_path", p)},
		{"MultiEdit", "file_path", PathSubjects("file_path", p)},
		{"NotebookEdit", "notebook_path", PathSubjects("notebook_path", p)},
		{operandTool, "file_path", nil},
		{redirectTool, "file_path", nil},
		{"Glob", "path", globSubjects(p)},
		{"Grep", "path", pathSubjects("path", p, true)},
	} {
		pm := newPathMatcher(f.field, compiled, f.tool)
		m[f.tool] = agentpolicy.ToolMatcher{Match: pm.match, Subjects: f.split}
		indexes[f.tool] = pm.index()
	}
	// A glob is matched against every rule, since the index files a rule
	// by the path it begins with, which a glob's matches need not share.
	for tool, rules := range map[string]string{globReadTool: "Read", globEditTool: "Edit"} {
		pm := newPathMatcher("file_path", compiled, rules)
		pm.globs = true
		m[tool] = agentpolicy.ToolMatcher{Match: pm.match}
	}
	for tool, rules := range map[string]string{treeTool: "Read", writeTreeTool: "Edit"} {
		pm := newPathMatcher("file_path", compiled, rules)
		pm.trees, pm.anchoredTrees = true, tool == writeTreeTool
		m[tool] = agentpolicy.ToolMatcher{Match: pm.match}
	}
	return m, indexes
}

// writtenRules reports whether a file holds a Bash rule matched against
// the command as written: an allow rule with a pattern, or a deny or ask
// rule with quotes.
func (s *Settings) writtenRules() bool {
	for _, f := range s.files {
		for _, list := range [][]agentpolicy.Rule{f.allow, f.ask, f.deny} {
			for _, r := range list {
				if r.Tool == "Bash" && strings.HasPrefix(r.Spec, writtenField+":") {
					return true
				}
			}
		}
	}
	return false
}

// parameterIndex is the index of withParameters(tool, own) for a built-in
// own: own's rules are filed as the engine files them, and the parameter
// rules, which read other arguments, are tried always.
func parameterIndex(tool string, own agentpolicy.Matcher) agentpolicy.Index {
	ix, _ := agentpolicy.BuiltinIndex(own)
	literal := ix.Literal
	ix.Literal = func(spec string) string {
		if pattern, ok := strings.CutPrefix(spec, writtenField+":"); ok && (tool == "Bash" || tool == "PowerShell") {
			return writtenLiteral(pattern)
		}
		if pattern, ok := strings.CutPrefix(spec, optionSetField+":"); ok && tool == "Bash" {
			// Every command an option set matches begins with its
			// program's name.
			name, _, _ := strings.Cut(pattern, " ")
			return name
		}
		if isParameter(tool, spec) {
			return ""
		}
		return literal(spec)
	}
	return ix
}

// nothing is the matcher of a tool whose only specifiers are parameter
// rules.
func nothing(string, json.RawMessage) bool { return false }

// exactMatcher matches a specifier equal to the string member field.
func exactMatcher(field string) agentpolicy.Matcher {
	return func(spec string, args json.RawMessage) bool {
		value, ok, err := agentpolicy.Field(args, field)
		return ok && err == nil && value == spec
	}
}

// withParameters reads a specifier "param:value" whose param is an input
// field of the tool as a parameter rule (spec §2.4), and any other
// specifier with the tool's own matcher.
func withParameters(tool string, own agentpolicy.Matcher) agentpolicy.Matcher {
	return func(spec string, args json.RawMessage) bool {
		if pattern, ok := strings.CutPrefix(spec, writtenField+":"); ok && (tool == "Bash" || tool == "PowerShell") {
			// An allow rule reads one member; decoding every member for
			// each rule would cost what the rule's match does many times.
			written, ok, err := agentpolicy.Field(args, writtenField)
			return ok && err == nil && matchCommand(pattern, written)
		}
		if pattern, ok := strings.CutPrefix(spec, optionSetField+":"); ok && tool == "Bash" {
			return matchOptionSet(pattern, args)
		}
		if isParameter(tool, spec) {
			return matchParameter(spec, args)
		}
		return own(spec, args)
	}
}

// matchParameter matches "param:value" against the top-level member param:
// a string by its text, any other value by its JSON text, "true" say, each
// "*" of value standing for any run of characters. A call without the
// member never matches.
func matchParameter(spec string, args json.RawMessage) bool {
	param, want, _ := strings.Cut(spec, ":")
	param, want = strings.TrimSpace(param), strings.TrimSpace(want)
	members, err := members(args)
	if err != nil {
		return false
	}
	raw, ok := members[param]
	if !ok {
		return false
	}
	var text string
	if json.Unmarshal(raw, &text) != nil {
		text = string(raw)
	}
	return matchStars(want, text)
}
