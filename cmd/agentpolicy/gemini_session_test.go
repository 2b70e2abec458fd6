package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// geminiProject is a scratch project for the real Gemini CLI: a scratch
// HOME whose ~/.gemini selects API-key auth and trusts the project, the
// project, the built agentpolicy binary and the loopback stand-in.
type geminiProject struct {
	*workspace
	gemini  string
	standIn *geminiStandIn
}

func newGeminiProject(t *testing.T) *geminiProject {
	t.Helper()
	p := &geminiProject{workspace: &workspace{t: t, bin: binary(t), home: t.TempDir(), dir: t.TempDir()},
		gemini: npmCLI(t, "gemini", "Gemini CLI"), standIn: newGeminiStandIn(t)}
	p.env = append(os.Environ(), "HOME="+p.home, "GEMINI_API_KEY=standin", "GOOGLE_GEMINI_BASE_URL="+p.standIn.srv.URL,
		"CLAUDE_CONFIG_DIR=", "NO_COLOR=1", "CI=true")
	user := map[string]any{
		"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"privacy":  map[string]any{"usageStatisticsEnabled": false},
		"general":  map[string]any{"disableAutoUpdate": true},
	}
	p.writeJSON(filepath.Join(p.home, ".gemini", "settings.json"), user)
	p.writeJSON(filepath.Join(p.home, ".gemini", "trustedFolders.json"), map[string]string{p.dir: "TRUST_FOLDER"})
	return p
}

func (p *geminiProject) writeJSON(path string, v any) {
	p.t.Helper()
	data, _ := json.MarshalIndent(v, "", "  ")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// run runs one headless Gemini CLI turn of the scripted calls, in yolo
// mode (which offers the shell and edit tools), and returns what Gemini
// CLI sent back as each call's response.
func (p *geminiProject) run(calls ...scriptedCall) []string {
	p.t.Helper()
	p.standIn.script(calls...)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.gemini, "-p", "do the scripted steps", "-o", "json", "-m", "gemini-2.5-flash", "--approval-mode", "yolo")
	cmd.Dir, cmd.Env = p.dir, p.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.t.Fatalf("gemini: %v\n%s", err, out)
	}
	return p.results("Gemini CLI", calls, p.standIn.result, out)
}
