package main

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/claudecode"
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
		{"allow", "Bash(curl https://example.com/status)", nil}, // exact: nothing can be added
		{"deny", "Bash(curl https://example.com/status)", []string{"not_a_boundary deny Bash(curl https://example.com/status)"}},
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
	fs := lintRules([]located{l}, nil, build, func(_, _ agentpolicy.Rule) bool { return false })
	if len(fs) != 1 || fs[0].Severity != sevError || !strings.HasPrefix(fs[0].Message, "never fires:") {
		t.Fatalf("findings %+v, want one error that says the rule never fires", fs)
	}
}

// An entry's own rule is compared for duplicates, not the rules it
// implies: Edit(**) also reads, but repeats no Read(**).
func TestLintDuplicatesAcrossTools(t *testing.T) {
	user := agentpolicy.Source{Name: "user", Rank: 1, Trusted: true}
	rules := []located{
		{File: "u.json", List: "allow", Index: 0, Text: "Read(**)", Rule: rule(t, "Read(**)", user)},
		{File: "u.json", List: "allow", Index: 1, Text: "Edit(**)", Rule: rule(t, "Edit(**)", user)},
		{File: "u.json", List: "allow", Index: 1, Text: "Edit(**)", Rule: rule(t, "Read(**)", user), Derived: true},
		{File: "u.json", List: "allow", Index: 2, Text: "Edit(**)", Rule: rule(t, "Edit(**)", user)},
	}
	got := kinds(duplicates(rules))
	if want := []string{"duplicate allow Edit(**)"}; !slices.Equal(got, want) {
		t.Errorf("duplicates %v, want %v", got, want)
	}
}

func TestLintStraySpaces(t *testing.T) {
	user := agentpolicy.Source{Name: "user", Rank: 1, Trusted: true}
	cases := []struct {
		list, text, engine string
		stray              bool
	}{
		{"deny", "Bash(git push *)", "Bash(git push:*)", false},
		{"deny", "Bash(git  push *)", "Bash(git  push:*)", true},
		{"deny", "Bash( rm *)", "Bash( rm:*)", true},
		{"allow", "Bash(npm test )", "Bash(npm test )", true},
		{"deny", "Read(.env )", "Read(.env )", true},
		{"deny", "Read(.env)", "Read(.env)", false},
		{"allow", `Bash(echo "a  b")`, `Bash(as_written:echo "a  b")`, false},
	}
	for _, c := range cases {
		l := located{File: "u.json", List: c.list, Text: c.text, Rule: rule(t, c.engine, user)}
		if got := len(strayFindings([]located{l})) == 1; got != c.stray {
			t.Errorf("%s %s: stray %v, want %v", c.list, c.text, got, c.stray)
		}
	}
}

func TestLintInertAllows(t *testing.T) {
	project := agentpolicy.Source{Name: "project", Rank: 2, Trusted: true}
	user := agentpolicy.Source{Name: "user", Rank: 1, Trusted: true}
	cases := []struct {
		list, text string
		src        agentpolicy.Source
		inert      bool
	}{
		{"allow", "TodoWrite", project, true},
		{"allow", "Agent(Explore)", project, true},
		{"allow", "Skill(commit)", project, true},
		{"allow", "Read(src/**)", project, true},
		{"allow", "Read(/src/**)", project, true},
		{"allow", "Read(/src/**)", user, false}, // ~/.claude/src
		{"allow", "Read(~/notes/**)", project, false},
		{"allow", "Read(//etc/hosts)", project, false},
		{"allow", "Read(../sibling/**)", project, false},
		{"allow", "Read", project, false},
		{"deny", "Read(src/**)", project, false},
		{"allow", "Bash(ls)", project, false},
	}
	for _, c := range cases {
		l := located{File: "p.json", List: c.list, Text: c.text, Rule: rule(t, c.text, c.src)}
		if got := len(inertFindings([]located{l})) == 1; got != c.inert {
			t.Errorf("%s %s from %s: inert %v, want %v", c.list, c.text, c.src.Name, got, c.inert)
		}
	}
}

func TestLintModes(t *testing.T) {
	files := []claudecode.File{
		{Source: agentpolicy.Source{Name: "user", Path: "u.json", Trusted: true}, DefaultMode: "yolo"},
		{Source: agentpolicy.Source{Name: "project", Path: "p.json"}, DefaultMode: "bypassPermissions"},
		{Source: agentpolicy.Source{Name: "local", Path: "l.json", Trusted: true}, DefaultMode: "bypassPermissions"},
		{Source: agentpolicy.Source{Name: "settings", Path: "s.json", Trusted: true}, DefaultMode: "manual"},
	}
	got := kinds(modeFindings(files))
	if want := []string{"unknown_mode defaultMode yolo", "withheld defaultMode bypassPermissions"}; !slices.Equal(got, want) {
		t.Errorf("mode findings %v, want %v", got, want)
	}
}

// A settings file that is JSON but not an object is not a settings object,
// and the command says so rather than "invalid JSON".
func TestLintNotASettingsObject(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "array.json")
	if err := os.WriteFile(path, []byte(`["Bash(ls)"]`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code := cli(t, "--project", dir, "--user-dir", dir, "--managed-dir", dir, "--settings", path, "lint")
	if code == exitOK || !strings.Contains(errs, "not a settings object") || strings.Contains(errs, "invalid JSON") {
		t.Errorf("exit %d, stderr %q: want a failure that says the file is not a settings object", code, errs)
	}
}
