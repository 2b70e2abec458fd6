package codex

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// TestLoadErrors: every file Codex 0.171.0 refuses (each checked with
// `codex execpolicy check`) is refused here, with its twin that loads.
func TestLoadErrors(t *testing.T) {
	for _, c := range []struct{ bad, good, why string }{
		{`prefix_rule(pattern=["a"], decision="deny")`, `prefix_rule(pattern=["a"], decision="forbidden")`, "invalid decision"},
		{`prefix_rule(pattern=["a"], match=["b"])`, `prefix_rule(pattern=["a"], match=["a b"])`, "does not match"},
		{`prefix_rule(pattern=["a"], not_match=["a b"])`, `prefix_rule(pattern=["a"], not_match=["b a"])`, "not to match"},
		{`prefix_rule(pattern=[])`, `prefix_rule(pattern=["a"])`, "cannot be empty"},
		{`prefix_rule(pattern=["a", []])`, `prefix_rule(pattern=["a", ["b"]])`, "alternatives cannot be empty"},
		{`prefix_rule(pattern=["a", 1])`, `prefix_rule(pattern=["a", "1"])`, "string or list of strings"},
		{`prefix_rule(pattern="a")`, `prefix_rule(pattern=["a"])`, "pattern"},
		{`prefix_rule(pattern=["a"], justification="")`, `prefix_rule(pattern=["a"], justification="j")`, "justification cannot be empty"},
		{`prefix_rule(pattern=["a"], match=["a 'y"])`, `prefix_rule(pattern=["a"], match=["a 'y z'"])`, "invalid shell syntax"},
		{`prefix_rule(pattern=["a"], match=[""])`, `prefix_rule(pattern=["a"], match=[["a"]])`, "empty string"},
		{`prefix_rule(pattern=["a"], foo=1)`, `prefix_rule(pattern=["a"])`, "foo"},
		{`network_rule(host="x.com", protocol="ftp")`, `network_rule(host="x.com", protocol="https")`, "protocol must be one of"},
		{`host_executable(name="git", paths=["git"])`, `host_executable(name="git", paths=["/usr/bin/git"])`, "must be absolute"},
		{`host_executable(name="git", paths=["/usr/bin/gitx"])`, `host_executable(name="git", paths=["/bin/git"])`, "basename"},
		{`host_executable(name="/usr/bin/git", paths=[])`, `host_executable(name="git", paths=[])`, "bare executable name"},
		{`load("x.star", "y")`, `y = 1`, "load"},
		{"while True:\n    pass", "x = 0\nwhile x < 3:\n    x += 1", "steps"},
	} {
		_, err := Parse("t.rules", "codex:t", []byte(c.bad), rankFile, true)
		var fe *FileError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%s: got %v, want a *FileError saying %q", c.bad, err, c.why)
		}
		if _, err := Parse("t.rules", "codex:t", []byte(c.good), rankFile, true); err != nil {
			t.Errorf("%s: %v", c.good, err)
		}
	}
}

// TestEntries: each call is named as the file writes it, with its line,
// its list and the engine rules it became.
func TestEntries(t *testing.T) {
	src := `# rules
prefix_rule(
    pattern = ["git", ["status", "log"]],
    justification = "read-only git",
)
for p in ["ls", "timeout"]:
    prefix_rule(pattern = [p], decision = "prompt")
prefix_rule(pattern = ["rm", "-rf x"], decision = "forbidden", justification = "no")
prefix_rule(pattern = ["echo", "a b"])
prefix_rule(pattern = ["echo", "*"])
prefix_rule(pattern = ["!x"], decision = "forbidden")
`
	f, err := Parse("t.rules", "codex:t", []byte(src), rankFile, true)
	if err != nil {
		t.Fatal(err)
	}
	New(f)
	type want struct {
		line          int
		text, list    string
		rules         []string
		problemSubstr string
	}
	wants := []want{
		{2, `prefix_rule( pattern = ["git", ["status", "log"]], justification = "read-only git", )`, ListAllow, []string{"Bash(git status:*)", "Bash(git log:*)"}, ""},
		{7, `prefix_rule(pattern = [p], decision = "prompt")`, ListAsk, []string{"Bash(ls)", "Bash(ls *)"}, ""},
		{7, `prefix_rule(pattern = [p], decision = "prompt")`, ListAsk, []string{"Bash(timeout)", "Bash(timeout *)"}, ""},
		{8, `prefix_rule(pattern = ["rm", "-rf x"], decision = "forbidden", justification = "no")`, ListDeny, []string{"Bash(rm)", "Bash(rm *)"}, "reaches every command that begins with the words before it"},
		{9, `prefix_rule(pattern = ["echo", "a b"])`, ListAllow, nil, "holds a blank"},
		{10, `prefix_rule(pattern = ["echo", "*"])`, ListAllow, nil, "holds a *"},
		{11, `prefix_rule(pattern = ["!x"], decision = "forbidden")`, ListDeny, []string{"Bash"}, "begins with \"!\""},
	}
	if len(f.Entries) != len(wants) {
		t.Fatalf("got %d entries, want %d: %+v", len(f.Entries), len(wants), f.Entries)
	}
	for i, w := range wants {
		e := f.Entries[i]
		var rules []string
		for _, r := range e.Rules {
			rules = append(rules, r.String())
		}
		if e.Line != w.line || e.Text != w.text || e.List != w.list || !slices.Equal(rules, w.rules) ||
			(w.problemSubstr == "") != (e.Problem == "") || !strings.Contains(e.Problem, w.problemSubstr) {
			t.Errorf("entry %d: got %d %q %s %v %q, want %d %q %s %v %q", i, e.Line, e.Text, e.List, rules, e.Problem, w.line, w.text, w.list, w.rules, w.problemSubstr)
		}
	}
	if got := f.Entries[0].Rules[0].Note; got != "read-only git" {
		t.Errorf("the justification is the rule's note: got %q", got)
	}
}

// TestBlankAndStarWords: a deny rule with a word holding a blank or a
// star still reaches what Codex's does; an allow rule with one is
// skipped, so it never allows what Codex's would not.
func TestBlankAndStarWords(t *testing.T) {
	eng := engineOf(t, map[string]string{"t.rules": `prefix_rule(pattern = ["rm", "-rf x"], decision = "forbidden")
prefix_rule(pattern = ["echo", "a b"])
prefix_rule(pattern = ["ls", "*"])
prefix_rule(pattern = ["echo"], decision = "prompt")
prefix_rule(pattern = ["cat"])`})
	for command, want := range map[string]string{
		`rm '-rf x'`:   ListDeny, // Codex's own match
		`rm -rf y`:     ListDeny, // stricter: the rule is cut before "-rf x"
		`echo 'a b'`:   ListAsk,  // the allow rule is skipped; Codex allows
		`ls '*'`:       ListAsk,  // skipped too
		`ls -la`:       ListAsk,
		`cat a.txt`:    ListAllow,
		`cat a.txt; x`: ListAsk,
	} {
		if got := word(decide(t, eng, command)); got != want {
			t.Errorf("%s: got %s, want %s", command, got, want)
		}
	}
}

// TestWordBoundaries: an allow rule matches the words a program is
// given, not the normalised command, which joins them with spaces.
func TestWordBoundaries(t *testing.T) {
	eng := engineOf(t, map[string]string{"t.rules": `prefix_rule(pattern = ["git", "status"])
prefix_rule(pattern = ["echo"])`})
	for command, want := range map[string]string{
		`git status`:          ListAllow,
		`git status -s`:       ListAllow,
		`git "status"`:        ListAllow,
		`git 'status x'`:      ListAsk, // Codex: ["git", "status x"] does not begin with ["git", "status"]
		`'git status'`:        ListAsk, // one word, a program named "git status"
		`git status 'a b'`:    ListAllow,
		`echo 'a b'`:          ListAllow,
		`git statusx`:         ListAsk,
		`git status && echo`:  ListAllow,
		`git 'status x' || x`: ListAsk,
	} {
		if got := word(decide(t, eng, command)); got != want {
			t.Errorf("%s: got %s, want %s", command, got, want)
		}
	}
}

// TestLoadTrust: a project's allow rules apply only when config.toml
// trusts it, its forbidden and prompt rules always.
func TestLoadTrust(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	write := func(path, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(home, "rules", "default.rules"), `prefix_rule(pattern = ["git", "status"])`)
	write(filepath.Join(home, "rules", "notes.txt"), `not rules`)
	write(filepath.Join(project, ".codex", "rules", "team.rules"), `prefix_rule(pattern = ["npm", "test"])
prefix_rule(pattern = ["rm"], decision = "forbidden", justification = "team says no")`)
	for _, c := range []struct {
		config  string
		trusted bool
	}{
		{"", false},
		{"[projects.\"" + project + "\"]\ntrust_level = \"untrusted\"\n", false},
		{"[projects.\"" + project + "\"]\nTrust_Level = \"trusted\"\n", false},
		{"[projects.\"" + project + "/sub\"]\ntrust_level = \"trusted\"\n", false},
		{"[projects.\"" + project + "\"]\ntrust_level = \"trusted\"\n", true},
	} {
		config, trusted := c.config, c.trusted
		write(filepath.Join(home, "config.toml"), "model = \"x\"\n"+config)
		rules, err := Load(LoadOptions{Home: home, Project: project})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range rules.Files() {
			names = append(names, f.Source.Name)
		}
		if !slices.Equal(names, []string{"codex:user/default.rules", "codex:project/team.rules"}) {
			t.Fatalf("files: %v", names)
		}
		policy, err := rules.Policy()
		if err != nil {
			t.Fatal(err)
		}
		allowed := slices.ContainsFunc(policy.Allow, func(r agentpolicy.Rule) bool { return r.Spec == "npm test:*" })
		withheld := slices.ContainsFunc(policy.Withheld, func(r agentpolicy.Rule) bool { return r.Spec == "npm test:*" })
		if allowed != trusted || withheld == trusted {
			t.Errorf("trusted=%v: the project's allow rule applies: %v, withheld: %v", trusted, allowed, withheld)
		}
		if !slices.ContainsFunc(policy.Deny, func(r agentpolicy.Rule) bool { return r.Spec == "rm" && r.Note == "team says no" }) {
			t.Errorf("trusted=%v: the project's forbidden rule does not apply: %v", trusted, policy.Deny)
		}
	}
	write(filepath.Join(home, "rules", "broken.rules"), `prefix_rule(pattern = ["a"], decision = "deny")`)
	rules, err := Load(LoadOptions{Home: home})
	var fe *FileError
	if !errors.As(err, &fe) || !strings.HasSuffix(fe.Path, "broken.rules") || len(rules.Files()) != 1 {
		t.Errorf("a broken file: got %v and %d files, want its *FileError beside the other file", err, len(rules.Files()))
	}
	if _, err := Load(LoadOptions{Home: home, Files: []string{filepath.Join(home, "missing.rules")}}); err == nil {
		t.Error("a missing named file loads")
	}
}
