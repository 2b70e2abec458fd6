package claudecode

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// Equal compares every field of Settings, File and Entry: a field added to
// one of them must be added to Equal, and to this list.
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
