package main

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// rule parses one rule of the grammar for a test, stamped with a source.
func rule(t *testing.T, text string, src agentpolicy.Source) agentpolicy.Rule {
	t.Helper()
	rules, err := agentpolicy.ParseRules(text)
	if err != nil || len(rules) != 1 {
		t.Fatalf("ParseRules(%q) = %v, %v", text, rules, err)
	}
	rules[0].Source = src
	return rules[0]
}

func kinds(fs []finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Kind+" "+f.List+" "+f.Rule)
	}
	slices.Sort(out)
	return out
}

func TestLintShapeWarnings(t *testing.T) {
	user := agentpolicy.Source{Name: "user", Rank: 1, Trusted: true}
	cases := []struct {
		list, text string
		want       []string
	}{
		{"allow", "Bash(git * main)", []string{"star_before_word allow Bash(git * main)"}},
		{"allow", "Bash(* --version)", []string{"star_before_word allow Bash(* --version)"}},
		{"allow", "Bash(npm run *)", nil},
		{"allow", "Bash(npm run:*)", nil},
		{"allow", "Bash(npm test)", nil},
		{"deny", "Bash(git * main)", nil}, // Claude Code warns about allow rules only
		{"allow", "Bash(curl http://example.com/ *)", []string{"not_a_boundary allow Bash(curl http://example.com/ *)"}},
		{"ask", "Bash(wget -q example.com)", []string{"not_a_boundary ask Bash(wget -q example.com)"}},
		{"deny", "Bash(curl *)", nil},
		{"deny", "Bash(curl:*)", nil},
		{"deny", "Bash(curl)", nil},
		{"deny", "Read(./.env)", nil},
	}
	for _, c := range cases {
		l := located{File: "settings.json", List: c.list, Text: c.text, Rule: rule(t, c.text, user)}
		if got := kinds(claudeWarnings(l)); !slices.Equal(got, c.want) {
			t.Errorf("%s %s: %v, want %v", c.list, c.text, got, c.want)
		}
	}
}

func TestLintCoveredAllowsAndDuplicates(t *testing.T) {
	user := agentpolicy.Source{Name: "user", Rank: 1, Trusted: true}
	project := agentpolicy.Source{Name: "project", Rank: 2, Trusted: true}
	rules := []located{
		{File: "user.json", List: "allow", Index: 0, Text: "Bash(git push *)", Rule: rule(t, "Bash(git push *)", user)},
		{File: "user.json", List: "allow", Index: 1, Text: "Bash(git status)", Rule: rule(t, "Bash(git status)", user)},
		{File: "project.json", List: "ask", Index: 0, Text: "Bash(git push *)", Rule: rule(t, "Bash(git push *)", project)},
		{File: "project.json", List: "allow", Index: 0, Text: "Bash(git status)", Rule: rule(t, "Bash(git status)", project)},
	}
	// A stand-in for the matcher: a rule covers another with the same text.
	covers := func(by, allow agentpolicy.Rule) bool { return by.Tool == allow.Tool && by.Spec == allow.Spec }
	got := kinds(coveredAllows(rules, covers))
	if want := []string{"covered allow Bash(git push *)"}; !slices.Equal(got, want) {
		t.Errorf("covered %v, want %v", got, want)
	}
	dups := duplicates(rules)
	if len(dups) != 1 || dups[0].File != "project.json" || !strings.Contains(dups[0].Message, "user.json") {
		t.Errorf("duplicates %+v, want the project's copy of Bash(git status) naming user.json", dups)
	}
}

func TestLintBuildErrorsNeverFire(t *testing.T) {
	user := agentpolicy.Source{Name: "user", Rank: 1, Trusted: true}
	l := located{File: "u.json", List: "deny", Text: "Frob(x)", Rule: rule(t, "Frob(x)", user)}
	build := func(located) error {
		return errors.Join(agentpolicy.ErrNoMatcher)
	}
	fs := lintRules([]located{l}, build, func(_, _ agentpolicy.Rule) bool { return false })
	if len(fs) != 1 || fs[0].Severity != sevError || !strings.HasPrefix(fs[0].Message, "never fires:") {
		t.Fatalf("findings %+v, want one error that says the rule never fires", fs)
	}
}
