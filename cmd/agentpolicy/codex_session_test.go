package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// codexModel is a model the pinned Codex CLI knows: with it Codex offers
// apply_patch (as a freeform tool) beside exec_command.
const codexModel = "gpt-5.5"

// codexProject is a scratch workspace for the real Codex CLI: a scratch
// HOME whose .codex is CODEX_HOME, the workspace the session runs in, and
// the built agentpolicy binary. Its config.toml names the loopback
// stand-in as the model provider.
type codexProject struct {
	*workspace
	codex     string
	codexHome string
	standIn   *responsesStandIn
}

func newCodexProject(t *testing.T) *codexProject {
	t.Helper()
	p := &codexProject{workspace: &workspace{t: t, bin: binary(t), home: t.TempDir(), dir: t.TempDir()}, codex: npmCLI(t, "codex", "Codex CLI")}
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
	p.env = append(os.Environ(), "HOME="+p.home, "CODEX_HOME="+p.codexHome,
		"PATH="+links+string(os.PathListSeparator)+os.Getenv("PATH"), "STANDIN_API_KEY=standin", "CLAUDE_CONFIG_DIR=")
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
	cmd.Dir, cmd.Env = p.dir, p.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.t.Fatalf("codex exec: %v\n%s", err, out)
	}
	return p.results("Codex", calls, s.result, out)
}
