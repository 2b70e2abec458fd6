package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// codexModel is a model the pinned Codex CLI knows: with it Codex offers
// apply_patch (as a freeform tool) beside exec_command.
const codexModel = "gpt-5.5"

// codexBinary is the Codex CLI the tests run: node_modules/.bin/codex of
// conformance/codex, where `make codex` (npm ci) installs the version its
// lockfile pins. A missing one fails the test, never skips it.
func codexBinary(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "conformance", "codex")
	bin := filepath.Join(dir, "node_modules", ".bin", "codex")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("Codex CLI is not installed at %s: run `make codex` (npm ci in %s)", bin, dir)
	}
	return bin
}

// codexProject is a scratch workspace for the real Codex CLI: a scratch
// HOME whose .codex is CODEX_HOME, the workspace the session runs in, and
// the built agentpolicy binary. Its config.toml names the loopback
// stand-in as the model provider.
type codexProject struct {
	t          *testing.T
	codex, bin string
	home, dir  string
	codexHome  string
	pathEnv    string // PATH, the sandbox helper's link first
	standIn    *responsesStandIn
}

func newCodexProject(t *testing.T) *codexProject {
	t.Helper()
	p := &codexProject{t: t, codex: codexBinary(t), bin: binary(t), home: t.TempDir(), dir: t.TempDir()}
	p.codexHome = filepath.Join(p.home, ".codex")
	// Codex runs its sandbox through a helper it finds on PATH by the
	// name codex-linux-sandbox, which the native binary answers to.
	native, err := nativeCodex(p.codex)
	if err != nil {
		t.Fatal(err)
	}
	links := t.TempDir()
	if err := os.Symlink(native, filepath.Join(links, "codex-linux-sandbox")); err != nil {
		t.Fatal(err)
	}
	p.pathEnv = links + string(os.PathListSeparator) + os.Getenv("PATH")
	if err := os.MkdirAll(p.codexHome, 0o755); err != nil {
		t.Fatal(err)
	}
	p.standIn = newResponsesStandIn(t)
	p.writeConfig()
	return p
}

// nativeCodex is the native binary the npm launcher runs, from the
// per-platform package beside it.
func nativeCodex(launcher string) (string, error) {
	real, err := filepath.EvalSymlinks(launcher)
	if err != nil {
		return "", err
	}
	root := filepath.Join(filepath.Dir(real), "..", "..")
	matches, _ := filepath.Glob(filepath.Join(root, "codex-linux-*", "vendor", "*", "bin", "codex"))
	if len(matches) == 0 {
		return "", fmt.Errorf("no native codex binary under %s", root)
	}
	return matches[0], nil
}

// configPath is the user's config.toml.
func (p *codexProject) configPath() string { return filepath.Join(p.codexHome, "config.toml") }

// writeConfig writes config.toml: the stand-in as the model provider,
// with comments, as a user's file would have.
func (p *codexProject) writeConfig() string {
	p.t.Helper()
	text := fmt.Sprintf(`# my Codex settings
model = %q
model_provider = "standin"  # the loopback stand-in

[model_providers.standin]
name = "standin"
base_url = %q
wire_api = "responses"
env_key = "STANDIN_API_KEY"

# The sandbox protects .git in each writable root by mounting over it,
# making an empty .git where there is none; /tmp as a writable root would
# leave one in /tmp, which turns every directory below it into a git
# work tree. The workspace alone is writable.
[sandbox_workspace_write]
exclude_slash_tmp = true
exclude_tmpdir_env_var = true
`, codexModel, p.standIn.url())
	if err := os.WriteFile(p.configPath(), []byte(text), 0o644); err != nil {
		p.t.Fatal(err)
	}
	return text
}

func (p *codexProject) env() []string {
	return append(os.Environ(), "HOME="+p.home, "CODEX_HOME="+p.codexHome, "PATH="+p.pathEnv,
		"STANDIN_API_KEY=standin", "CLAUDE_CONFIG_DIR=")
}

// agentpolicy runs the built binary in the workspace, with the scratch
// home, and returns its output; a failure fails the test.
func (p *codexProject) agentpolicy(args ...string) string {
	p.t.Helper()
	cmd := exec.Command(p.bin, args...)
	cmd.Dir, cmd.Env = p.dir, p.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.t.Fatalf("agentpolicy %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// run runs one headless codex exec turn of the scripted calls and returns
// what Codex sent back as each call's result. The hook runs only because
// install trusted it: no flag bypasses Codex's hook trust.
func (p *codexProject) run(calls ...scriptedCall) []string {
	p.t.Helper()
	s := p.standIn
	s.script(calls...)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.codex, "exec", "--json", "--skip-git-repo-check", "--sandbox", "workspace-write",
		"-C", p.dir, "do the scripted steps")
	cmd.Dir, cmd.Env = p.dir, p.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.t.Fatalf("codex exec: %v\n%s", err, out)
	}
	results := make([]string, len(calls))
	for k := range calls {
		r, ok := s.result(k)
		if !ok {
			p.t.Fatalf("Codex sent back no result of call %d; its output:\n%s", k+1, out)
		}
		p.t.Logf("Codex: %s: %q", calls[k].describe(), r)
		results[k] = r
	}
	return results
}

// file is name inside the workspace.
func (p *codexProject) file(name string) string { return filepath.Join(p.dir, name) }

// write writes a file of the workspace.
func (p *codexProject) write(name, content string) {
	p.t.Helper()
	path := p.file(name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// exists reports whether the workspace holds the file.
func (p *codexProject) exists(name string) bool {
	_, err := os.Stat(p.file(name))
	return err == nil
}
