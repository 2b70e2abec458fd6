package claudecode

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// FuzzSettingsRule: whatever rules a settings file holds, in whatever
// list, Load never panics and the policy it gives always builds, so one bad
// entry can never keep a host from starting; each entry is translated or
// reported.
func FuzzSettingsRule(f *testing.F) {
	for _, seed := range []string{
		"Bash(npm run *)", "Read(./Finance (2024)/**)", "Read(!x)", "mcp__a__b*", "Bash(", "Bash(ls) x",
		"Read([)", "Edit(a !b)", "Bash(echo \")\")", "a(b)c(d)", "Skill(x *)", "Agent(model:op*)", "*", "(x)",
		"WebFetch(domain:)", "Read(//)", "Read(~)", "Bash(timeout:*)", "Read(offset:1/x)",
	} {
		for i := range 3 {
			f.Add(seed, "Read(!a(b)", i)
		}
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, rule, second string, list int) {
		name := []string{Allow, Ask, Deny}[(list%3+3)%3]
		project := filepath.Join(dir, "p")
		if err := os.MkdirAll(filepath.Join(project, ".claude"), 0o755); err != nil {
			t.Fatal(err)
		}
		// The rule in one list, then a second rule in every list, so a
		// "!" meets the rules before it.
		l := in(name, rule)
		l.Allow, l.Ask, l.Deny = append(l.Allow, second), append(l.Ask, second), append(l.Deny, second)
		if err := os.WriteFile(filepath.Join(project, ".claude", "settings.json"), []byte(l.file()), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Load(LoadOptions{Project: project, Home: filepath.Join(dir, "h"), ConfigDir: filepath.Join(dir, "h"), ManagedDir: filepath.Join(dir, "m"), Trusted: true,
			Tracked: func(string) (bool, error) { return false, nil }})
		if err != nil {
			t.Fatalf("Load: %v", err)
		}
		problems := 0
		for _, e := range s.Files()[0].Entries {
			if e.Problem != "" {
				problems++
			}
		}
		if n := len(s.Files()[0].Entries); n != 4 || problems != len(s.Problems()) {
			t.Fatalf("%s %q %q: %d entries, %d with problems, problems %v", name, rule, second, n, problems, s.Problems())
		}
		p, err := s.Policy("mcp__a__b", "mcp__x__y")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := agentpolicy.Build(p, s.Matchers(Options{}), agentpolicy.WithAliases(s.Aliases())); err != nil {
			t.Fatalf("%s %q then %q: the policy does not build: %v", name, rule, second, err)
		}
	})
}
