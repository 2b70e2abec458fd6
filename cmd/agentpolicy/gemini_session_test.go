package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// geminiBinary is the Gemini CLI the tests run: node_modules/.bin/gemini
// of conformance/gemini, where `make gemini` (npm ci) installs the
// version its lockfile pins. A missing one fails the test, never skips.
func geminiBinary(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "conformance", "gemini")
	bin := filepath.Join(dir, "node_modules", ".bin", "gemini")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("Gemini CLI is not installed at %s: run `make gemini` (npm ci in %s)", bin, dir)
	}
	return bin
}

// geminiProject is a scratch project for the real Gemini CLI: a scratch
// HOME whose ~/.gemini selects API-key auth and trusts the project, the
// project, the built agentpolicy binary and the loopback stand-in.
type geminiProject struct {
	t         *testing.T
	gemini    string
	bin       string
	home, dir string
	standIn   *geminiStandIn
}

func newGeminiProject(t *testing.T) *geminiProject {
	t.Helper()
	p := &geminiProject{t: t, gemini: geminiBinary(t), bin: binary(t), home: t.TempDir(), dir: t.TempDir(), standIn: newGeminiStandIn(t)}
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

func (p *geminiProject) env() []string {
	return append(os.Environ(), "HOME="+p.home, "GEMINI_API_KEY=standin", "GOOGLE_GEMINI_BASE_URL="+p.standIn.srv.URL,
		"CLAUDE_CONFIG_DIR=", "NO_COLOR=1", "CI=true")
}

// agentpolicy runs the built binary in the project, with the scratch
// home; a failure fails the test.
func (p *geminiProject) agentpolicy(args ...string) string {
	p.t.Helper()
	cmd := exec.Command(p.bin, args...)
	cmd.Dir, cmd.Env = p.dir, p.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.t.Fatalf("agentpolicy %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
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
	cmd.Dir, cmd.Env = p.dir, p.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.t.Fatalf("gemini: %v\n%s", err, out)
	}
	results := make([]string, len(calls))
	for k := range calls {
		r, ok := p.standIn.result(k)
		if !ok {
			p.t.Fatalf("Gemini CLI sent back no response to call %d; its output:\n%s", k+1, out)
		}
		p.t.Logf("Gemini CLI: %s: %s", calls[k].describe(), r)
		results[k] = r
	}
	return results
}

// file is name inside the project.
func (p *geminiProject) file(name string) string { return filepath.Join(p.dir, name) }

// write writes a file of the project.
func (p *geminiProject) write(name, content string) {
	p.t.Helper()
	if err := os.MkdirAll(filepath.Dir(p.file(name)), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(p.file(name), []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// exists reports whether the project holds the file.
func (p *geminiProject) exists(name string) bool {
	_, err := os.Stat(p.file(name))
	return err == nil
}
