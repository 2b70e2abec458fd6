package claudecode

import (
	"encoding/json"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// FuzzBashIndex holds the Bash index to the matcher: an allow rule, read
// as written, and a deny rule, read as the shell reads the command, decide
// any command alike whether the engine finds them by their literal or
// calls the matcher for each, in lists padded long enough to be filed.
func FuzzBashIndex(f *testing.F) {
	for _, seed := range [][2]string{
		{"touch x*", "touch  x.txt"},
		{"touch x.txt", "touch\tx.txt"},
		{`git commit -m "fix: *"`, `git commit -m "fix: a"`},
		{"npm test *", "NODE_ENV=1 npm test"},
		{"npm test *", "LANG=C  npm  test --watch"},
		{"rm -f:*", "rm -f 'missing'"},
		{"echo 'a  b' *", "echo 'a  b'   x"},
		{"ls ~/x *", "ls ~/x"},
		{"a\\ b", "a\\ b"},
	} {
		f.Add(seed[0], seed[1])
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, pattern, command string) {
		settings, _ := json.Marshal(map[string]any{"permissions": map[string]any{
			"allow": []string{"Bash(" + pattern + ")"},
			"deny":  []string{"Bash(" + pattern + " --force)"},
		}})
		s, err := Load(LoadOptions{Project: dir, Home: dir, ConfigDir: dir, ManagedDir: dir, Settings: []string{string(settings)},
			Tracked: func(string) (bool, error) { return false, nil }})
		if err != nil {
			return
		}
		p, err := s.Policy()
		if err != nil {
			return
		}
		p = padded(p)
		indexed, err := s.Engine(p, Options{})
		if err != nil {
			return
		}
		called, err := agentpolicy.Build(p, s.Matchers(Options{}), agentpolicy.WithAliases(s.Aliases()))
		if err != nil {
			t.Fatalf("the indexed engine builds and the called one does not: %v", err)
		}
		args, _ := json.Marshal(map[string]string{"command": command})
		a, b := wouldRaw(t, indexed, "Bash", args), wouldRaw(t, called, "Bash", args)
		if a.Action != b.Action || a.Reason != b.Reason {
			t.Errorf("rule %q on %q: indexed %s %q, called %s %q", pattern, command, outcome(a), a.Reason, outcome(b), b.Reason)
		}
	})
}
