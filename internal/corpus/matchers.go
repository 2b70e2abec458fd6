package corpus

// This file runs matchers.json.

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/ChristopherDavenport/agentpolicy"
)

// matcherCase is one case of matchers.json: a matcher over the field
// "command", a specifier, the arguments as JSON or as raw text that is not
// JSON, and whether the specifier matches.
type matcherCase struct {
	Matcher string          `json:"matcher"`
	Spec    string          `json:"spec"`
	Args    json.RawMessage `json:"args"`
	Raw     string          `json:"raw"`
	Match   bool            `json:"match"`
}

// Matchers are the matchers matchers.json names, each over the field
// "command".
var matchers = map[string]func(field string) agentpolicy.Matcher{
	"glob":   agentpolicy.GlobMatcher,
	"prefix": agentpolicy.PrefixMatcher,
}

// MatcherNames are the matchers a matchers.json case may name, for a check
// that a corpus has a case of each.
func MatcherNames() []string {
	return slices.Sorted(maps.Keys(matchers))
}

// matcherCases are the cases of matchers.json, each named for what it
// tries.
func matcherCases(dir string) ([]Case, error) {
	var file struct {
		Cases []matcherCase `json:"cases"`
	}
	if err := load(dir, "matchers.json", &file); err != nil {
		return nil, err
	}
	cases := make([]Case, len(file.Cases))
	for i, c := range file.Cases {
		args := c.Args
		if args == nil {
			args = json.RawMessage(c.Raw)
		}
		name := fmt.Sprintf("%d %s %q on %s", i, c.Matcher, c.Spec, args)
		cases[i] = Case{File: "matchers.json", Name: name, Covers: c.Matcher, run: func(t T) { runMatcherCase(t, c, args) }}
	}
	return cases, nil
}

// runMatcherCase matches the case's specifier against its arguments.
func runMatcherCase(t T, c matcherCase, args json.RawMessage) {
	if c.Args != nil && c.Raw != "" {
		t.Fatalf("the case has both args and raw")
	}
	newMatcher, ok := matchers[c.Matcher]
	if !ok {
		t.Fatalf("unknown matcher %q", c.Matcher)
	}
	if got := newMatcher("command")(c.Spec, args); got != c.Match {
		t.Errorf("match = %v, want %v", got, c.Match)
	}
}
