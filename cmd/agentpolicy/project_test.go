package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// After the agent runs `cd src`, Claude Code's events carry the shell's
// directory, project/src, as cwd. The project's rules still apply, found
// through CLAUDE_PROJECT_DIR or, without it, by walking up to the
// directory that holds .claude/; a relative path is read from src, where
// the shell is; the project's trust holds. Each denied call beside a
// harmless twin, answered allow under --allow.
func TestHookProjectAfterCd(t *testing.T) {
	w := newHookWorld(t, `{"permissions": {"deny": ["Bash(rm:*)", "Read(/secret.txt)", "Read(**/.env)"], "allow": ["Bash(make *)"]}}`)
	src := filepath.Join(w.project, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	inSrc := func(command string) string {
		ev := w.event("Bash", map[string]string{"command": command})
		return replaceCwd(t, ev, src)
	}
	cases := []struct {
		command, want string
	}{
		{"rm -rf victim", "deny"},
		{`bash -c "rm -rf victim"`, "deny"},
		{"ls", "allow"},
		{"cat ../secret.txt", "deny"},
		{"cat secret.txt", "allow"}, // src/secret.txt, which no rule names
		{"cat .env", "deny"},        // src/.env, at any depth
		{"make all", "allow"},       // the trusted project's allow rule, under --allow
	}
	for _, env := range []string{"", w.project} {
		t.Setenv("CLAUDE_PROJECT_DIR", env)
		for _, c := range cases {
			if got, reason := w.decision(inSrc(c.command), "--allow"); got != c.want {
				t.Errorf("CLAUDE_PROJECT_DIR=%q, in src: %s: %q (%s), want %q", env, c.command, got, reason, c.want)
			}
		}
	}
}

// Without CLAUDE_PROJECT_DIR the walk up stops at the git root when no
// directory holds .claude/, and never takes the home directory's .claude
// (the user's) for a project's.
func TestSessionProject(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	for _, d := range []string{"home/.claude", "home/loose/deep", "repo/.git", "repo/a/b", "proj/.claude", "proj/.git/x", "proj/sub/.git", "proj/sub/c"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Past the home directory, whose .claude is skipped, the walk reaches
	// what lies above the scratch directory: a project there, if a test
	// of another package left one, else nothing, and then cwd itself.
	loose := filepath.Join(root, "home/loose/deep")
	outside := loose
	for d := filepath.Dir(root); d != filepath.Dir(d); d = filepath.Dir(d) {
		if isDir(filepath.Join(d, ".claude")) || exists(filepath.Join(d, ".git")) {
			outside = d
			break
		}
	}
	for cwd, want := range map[string]string{
		filepath.Join(root, "repo/a/b"):   filepath.Join(root, "repo"),
		filepath.Join(root, "repo"):       filepath.Join(root, "repo"),
		filepath.Join(root, "proj/sub/c"): filepath.Join(root, "proj/sub"), // the nearer git root
		loose:                             outside,
	} {
		got, err := sessionProject(cwd)
		if err != nil || got != want {
			t.Errorf("sessionProject(%s) = %s, %v; want %s", cwd, got, err, want)
		}
	}
	t.Setenv("CLAUDE_PROJECT_DIR", filepath.Join(root, "proj"))
	if got, _ := sessionProject(filepath.Join(root, "repo/a")); got != filepath.Join(root, "proj") {
		t.Errorf("with CLAUDE_PROJECT_DIR set: %s, want it", got)
	}
}

// replaceCwd is the event with its cwd replaced.
func replaceCwd(t *testing.T, event, cwd string) string {
	t.Helper()
	var ev map[string]any
	if err := json.Unmarshal([]byte(event), &ev); err != nil {
		t.Fatal(err)
	}
	ev["cwd"] = cwd
	out, _ := json.Marshal(ev)
	return string(out)
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
