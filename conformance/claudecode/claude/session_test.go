package claude

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSessionRun runs the real Claude Code: a session of three calls, one
// an allow rule lets run, one a deny rule denies, one that needs approval,
// and a hook's deny. It fails, not skips, when Claude Code is not
// installed: `npm ci` in this module installs it.
func TestSessionRun(t *testing.T) {
	if _, err := Binary(); err != nil {
		t.Fatal(err)
	}
	home, dir := t.TempDir(), t.TempDir()
	settings := `{"permissions":{"allow":["Bash(echo:*)"],"deny":["Bash(touch:*)"]},
	"hooks":{"PreToolUse":[{"matcher":"Read","hooks":[{"type":"command",
	"command":"echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no reading here\"}}'"}]}]}}`
	if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := TrustProject(home, dir); err != nil {
		t.Fatal(err)
	}
	s := Session{Dir: dir, Home: home, Calls: []ToolCall{
		{Name: "Bash", Input: map[string]any{"command": "echo conformance", "description": "print"}},
		{Name: "Bash", Input: map[string]any{"command": "touch x", "description": "create"}},
		{Name: "Bash", Input: map[string]any{"command": "mkdir d", "description": "create"}},
		{Name: "Read", Input: map[string]any{"file_path": filepath.Join(dir, ".claude", "settings.json")}},
	}}
	res, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ decision, text string }{
		{Allow, "conformance"},
		{Deny, "Permission to use Bash with command touch x has been denied"},
		{Ask, "needs approval"},
		{Deny, "no reading here"},
	}
	for i, w := range want {
		if o := res.Outcomes[i]; o.Decision != w.decision || !strings.Contains(o.Text, w.text) {
			t.Errorf("call %d (%v): %s %q; want %s with %q", i, o.Call.Input, o.Decision, o.Text, w.decision, w.text)
		}
	}
	for _, name := range []string{"x", "d"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s exists: a refused call ran", name)
		}
	}
}
