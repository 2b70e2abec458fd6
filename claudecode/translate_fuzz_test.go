package claudecode

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// FuzzSettingsRule: whatever rule a settings file holds, in whatever list,
// Load never panics and the policy it gives always builds, so one bad
// entry can never keep a host from starting; the entry is translated or
// reported.
func FuzzSettingsRule(f *testing.F) {
	for _, seed := range []string{
		"Bash(npm run *)", "Read(./Finance (2024)/**)", "Read(!x)", "mcp__a__b*", "Bash(", "Bash(ls) x",
		"Read([)", "Edit(a !b)", "Bash(echo \")\")", "a(b)c(d)", "Skill(x *)", "Agent(model:op*)", "*", "(x)",
		"WebFetch(domain:)", "Read(//)", "Read(~)", "Bash(timeout:*)", "Read(offset:1/x)",
	} {
		for i := range 3 {
			f.Add(seed, i)
		}
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, rule string, list int) {
		name := []string{Allow, Ask, Deny}[(list%3+3)%3]
		project := filepath.Join(dir, "p")
		if err := os.MkdirAll(filepath.Join(project, ".claude"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(project, ".claude", "settings.json"), []byte(in(name, rule).file()), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Load(LoadOptions{Project: project, Home: filepath.Join(dir, "h"), ConfigDir: filepath.Join(dir, "h"), ManagedDir: filepath.Join(dir, "m"), Trusted: true,
			Tracked: func(string) (bool, error) { return false, nil }})
		if err != nil {
			t.Fatalf("Load: %v", err)
		}
		entries := s.Files()[0].Entries
		if len(entries) != 1 || (entries[0].Problem == "") == (len(s.Problems()) == 1) {
			t.Fatalf("%s %q: entries %+v, problems %v", name, rule, entries, s.Problems())
		}
		p, err := s.Policy("mcp__a__b", "mcp__x__y")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := agentpolicy.Build(p, s.Matchers(Options{}), agentpolicy.WithAliases(s.Aliases())); err != nil {
			t.Fatalf("%s %q: the policy does not build: %v", name, rule, err)
		}
	})
}
