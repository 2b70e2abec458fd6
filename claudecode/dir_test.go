package claudecode

import (
	"path/filepath"
	"testing"
)

// Once the shell has changed directory (a hook event's cwd is the shell's
// current directory), a relative path in a call is read from there, while
// the rules stay anchored at the project: "cat secret.txt" in src reads
// src/secret.txt, which "Read(/secret.txt)" does not name, and
// "echo > docs/a.md" in src writes src/docs/a.md, which "Edit(/docs/**)"
// does not allow. Each case beside its twin run from the project.
func TestOptionsDirReadsRelativePathsFromTheShell(t *testing.T) {
	for _, tc := range []struct {
		lists        lists
		command, dir string
		want         string
	}{
		{lists{Deny: []string{"Read(/secret.txt)"}}, "cat secret.txt", "", "deny"},
		{lists{Deny: []string{"Read(/secret.txt)"}}, "cat secret.txt", "src", "allow"},
		{lists{Deny: []string{"Read(/secret.txt)"}}, "cat ../secret.txt", "src", "deny"},
		{lists{Deny: []string{"Read(.env)"}}, "cat .env", "src", "deny"},
		{lists{Allow: []string{"Edit(/docs/**)", "Bash(echo *)"}}, "echo hi > docs/a.md", "", "allow"},
		{lists{Allow: []string{"Edit(/docs/**)", "Bash(echo *)"}}, "echo hi > docs/a.md", "src", "ask"},
		{lists{Allow: []string{"Edit(/docs/**)", "Bash(echo *)"}}, "echo hi > ../docs/a.md", "src", "allow"},
	} {
		w := newWorld(t)
		w.write(w.scopeFile(ScopeProject), tc.lists.file())
		if tc.dir != "" {
			w.matcherOpt = Options{Dir: filepath.Join(w.cwd, tc.dir)}
		}
		if got := outcome(w.decide("Bash", map[string]any{"command": tc.command})); got != tc.want {
			t.Errorf("%+v, %q run in %q: %s, want %s", tc.lists, tc.command, tc.dir, got, tc.want)
		}
	}
}
