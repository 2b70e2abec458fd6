package claudecode

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// Equal compares every field of Settings, File and Entry, and File.clone
// copies every slice of a File: a field added to one of them must be
// added to Equal (and File.clone), and to this list.
func TestEqualCoversEveryField(t *testing.T) {
	for typ, want := range map[reflect.Type][]string{
		reflect.TypeFor[Settings](): {"files", "problems", "mode", "dirs", "managedOnly", "cwd", "home", "local"},
		reflect.TypeFor[File]():     {"Scope", "Source", "Entries", "DefaultMode", "AdditionalDirectories", "allow", "ask", "deny", "mcp"},
		reflect.TypeFor[Entry]():    {"List", "Index", "Text", "Rules", "Problem", "family"},
	} {
		var got []string
		for f := range typ.Fields() {
			got = append(got, f.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s has the fields %q; Equal compares %q", typ, got, want)
		}
	}
}

// Two loads of the same files are Equal, and agree with reflect.DeepEqual;
// a change to any file, the trust, the mode or the home is not.
func TestEqual(t *testing.T) {
	project, home, managed := t.TempDir(), t.TempDir(), t.TempDir()
	write := func(path, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(project, ".claude", "settings.json"), `{"permissions": {"allow": ["Bash(git status)"], "deny": ["Read(./.env)", "Read(!./.env.example)", "Bash("], "additionalDirectories": ["../lib"]}}`)
	write(filepath.Join(home, ".claude", "settings.json"), `{"permissions": {"ask": ["Bash(git push *)"], "defaultMode": "acceptEdits"}}`)
	opts := LoadOptions{Project: project, Home: home, ConfigDir: filepath.Join(home, ".claude"), ManagedDir: managed, Trusted: true}
	load := func(o LoadOptions) *Settings {
		t.Helper()
		s, err := Load(o)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := load(opts), load(opts)
	if !a.Equal(b) || !reflect.DeepEqual(a, b) {
		t.Fatalf("two loads of the same files differ: Equal %v, DeepEqual %v", a.Equal(b), reflect.DeepEqual(a, b))
	}
	if (*Settings)(nil).Equal(a) || a.Equal(nil) || !(*Settings)(nil).Equal(nil) {
		t.Errorf("nil settings compare wrong")
	}
	untrusted := opts
	untrusted.Trusted = false
	plan := opts
	plan.Mode = ModePlan
	otherHome := opts
	otherHome.Home = t.TempDir()
	for name, o := range map[string]*Settings{"untrusted": load(untrusted), "plan mode": load(plan), "another home": load(otherHome)} {
		if a.Equal(o) || reflect.DeepEqual(a, o) {
			t.Errorf("%s: Equal %v, DeepEqual %v, want both false", name, a.Equal(o), reflect.DeepEqual(a, o))
		}
	}
	for name, content := range map[string]string{
		"a rule more":      `{"permissions": {"ask": ["Bash(git push *)", "Bash(rm *)"], "defaultMode": "acceptEdits"}}`,
		"another rule":     `{"permissions": {"ask": ["Bash(git pull *)"], "defaultMode": "acceptEdits"}}`,
		"another list":     `{"permissions": {"deny": ["Bash(git push *)"], "defaultMode": "acceptEdits"}}`,
		"another mode":     `{"permissions": {"ask": ["Bash(git push *)"], "defaultMode": "default"}}`,
		"the same, spaced": `{"permissions": {"ask": ["Bash(git push *)"],  "defaultMode": "acceptEdits"}}`,
		"a skipped rule":   `{"permissions": {"ask": ["Bash(git push *)", "Bash("], "defaultMode": "acceptEdits"}}`,
		"a directory more": `{"permissions": {"ask": ["Bash(git push *)"], "defaultMode": "acceptEdits", "additionalDirectories": ["/srv"]}}`,
		"a carve-out more": `{"permissions": {"ask": ["Bash(git push *)", "Read(./src/**)", "Read(!./src/ok)"], "defaultMode": "acceptEdits"}}`,
	} {
		write(filepath.Join(home, ".claude", "settings.json"), content)
		if o := load(opts); a.Equal(o) || reflect.DeepEqual(a, o) {
			t.Errorf("%s: Equal %v, DeepEqual %v, want both false", name, a.Equal(o), reflect.DeepEqual(a, o))
		}
	}
}

// A file's clone is equal to it and shares no memory with it: what a
// loader changes in one (reachDirectories) never reaches the other, or
// the parse kept in parsedFiles.
func TestFileClone(t *testing.T) {
	rule := func(spec string) agentpolicy.Rule { return agentpolicy.Rule{Tool: "Read", Spec: spec} }
	f := &File{Scope: ScopeProject, Source: agentpolicy.Source{Name: "project", Path: "/p/.claude/settings.json"},
		Entries:     []Entry{{List: Deny, Text: "Read(./.env)", Rules: []agentpolicy.Rule{rule("./.env")}, family: "Read"}},
		DefaultMode: "default", AdditionalDirectories: []string{"/lib"},
		allow: []agentpolicy.Rule{rule("a")}, ask: []agentpolicy.Rule{rule("b")}, deny: []agentpolicy.Rule{rule("./.env")}, mcp: []string{"mcp__x"}}
	c := f.clone()
	if !c.equal(f) {
		t.Fatalf("the clone differs: %+v", c)
	}
	c.Entries[0].Rules[0].Spec = "changed"
	c.AdditionalDirectories[0], c.allow[0].Spec, c.ask[0].Spec, c.deny[0].Spec, c.mcp[0] = "x", "x", "x", "x", "x"
	c.reachDirectories([]string{"/other"})
	if f.Entries[0].Rules[0].Spec != "./.env" || f.AdditionalDirectories[0] != "/lib" || f.allow[0].Spec != "a" ||
		f.ask[0].Spec != "b" || f.deny[0].Spec != "./.env" || len(f.deny) != 1 || len(f.Entries[0].Rules) != 1 || f.mcp[0] != "mcp__x" {
		t.Errorf("changing the clone changed the file: %+v", f)
	}
}

// Loading the same files again takes their parse from parsedFiles, and
// gives settings equal to the first load's, additional directories and
// all; a file changed on disk is parsed anew.
func TestParsedFiles(t *testing.T) {
	project, home, managed := t.TempDir(), t.TempDir(), t.TempDir()
	settings := filepath.Join(project, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(content string) {
		if err := os.WriteFile(settings, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"permissions": {"deny": ["Read(./.env)", "Bash("], "additionalDirectories": ["../lib", "/srv"]}}`)
	opts := LoadOptions{Project: project, Home: home, ConfigDir: filepath.Join(home, ".claude"), ManagedDir: managed, Trusted: true}
	first, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		again, err := Load(opts)
		if err != nil {
			t.Fatal(err)
		}
		if !again.Equal(first) {
			t.Fatalf("a second load of the same files differs:\n%+v\n%+v", again.Files(), first.Files())
		}
	}
	if len(first.Problems()) != 1 {
		t.Errorf("problems: %v, want the one skipped rule", first.Problems())
	}
	write(`{"permissions": {"deny": ["Read(./.npmrc)"]}}`)
	changed, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	if changed.Equal(first) || len(changed.Problems()) != 0 {
		t.Errorf("a changed file was not parsed anew: %+v", changed.Files())
	}
}
