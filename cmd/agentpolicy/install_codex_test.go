package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The hash Codex CLI 0.171.0 computed for a hook (codex app-server's
// hooks/list, currentHash) is the one install writes.
func TestCodexHookHash(t *testing.T) {
	// [[hooks.PreToolUse]] matcher = ".*", command = "/bin/true hook",
	// timeout = 10: Codex's currentHash for it.
	const want = "sha256:73e47b380bd0ff6ea2683fb6e30a86fdd6eb01ca037fd7839b0443a8f9ff1195"
	if got := codexHookHash("/bin/true hook"); got != want {
		t.Errorf("codexHookHash = %s, want %s", got, want)
	}
	if codexHookHash("/bin/true hook ") == want {
		t.Errorf("another command hashes the same")
	}
}

const userConfig = `# my settings
model = "gpt-5.5"   # the model

[projects."/work/repo"]
trust_level = "trusted"

[[hooks.PreToolUse]]  # the linter first
matcher = "^Bash$"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "my-linter"
notes = """
[[hooks.PreToolUse]]
"""

[hooks.state."/elsewhere/config.toml:pre_tool_use:0:0"]
trusted_hash = "sha256:00"
`

// Install appends the hook and its trust, keyed by the entry's index
// after the file's own entries, and touches no other line; a second
// install changes nothing; uninstall gives the file back byte for byte.
func TestInstallCodexUserScope(t *testing.T) {
	home := t.TempDir()
	t.Setenv("CODEX_HOME", home)
	path := filepath.Join(home, "config.toml")
	if err := os.WriteFile(path, []byte(userConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := codexScopeFiles("user", ".")
	if err != nil {
		t.Fatal(err)
	}
	command := "/usr/bin/agentpolicy hook --policy '/etc/team policy.json' --agent codex"
	var out bytes.Buffer
	if err := installCodex(&out, files, command); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	want := userConfig + codexHookBegin + `
[[hooks.PreToolUse]]
matcher = ".*"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "/usr/bin/agentpolicy hook --policy '/etc/team policy.json' --agent codex"
timeout = 10
` + codexHookEnd + "\n" + codexTrustBegin + `
[hooks.state."` + path + `:pre_tool_use:1:0"]
trusted_hash = "` + codexHookHash(command) + `"
` + codexTrustEnd + "\n"
	if string(data) != want {
		t.Fatalf("config.toml:\n%s\nwant:\n%s", data, want)
	}
	out.Reset()
	if err := installCodex(&out, files, command); err != nil || !strings.Contains(out.String(), "already installed") {
		t.Errorf("the second install: %v, %q", err, out.String())
	}
	if again, _ := os.ReadFile(path); string(again) != want {
		t.Errorf("the second install changed the file:\n%s", again)
	}
	// Other flags replace the entry where it is.
	if err := installCodex(&out, files, command+" --allow"); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(path); !strings.Contains(string(again), "--agent codex --allow\"") || strings.Count(string(again), codexHookBegin) != 1 {
		t.Errorf("installing with other flags:\n%s", again)
	}
	if err := uninstallCodex(&out, files); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(path); string(after) != userConfig {
		t.Errorf("uninstall left:\n%s", after)
	}
}

// The project scope puts the hook in the project's .codex/config.toml,
// its trust in the user's, and says when Codex does not trust the
// project, without which it reads no project config.
func TestInstallCodexProjectScope(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	t.Setenv("CODEX_HOME", home)
	files, err := codexScopeFiles("project", project)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := installCodex(&out, files, "/bin/agentpolicy hook --agent codex"); err != nil {
		t.Fatal(err)
	}
	hook, _ := os.ReadFile(filepath.Join(project, ".codex", "config.toml"))
	user, _ := os.ReadFile(filepath.Join(home, "config.toml"))
	key := `[hooks.state."` + filepath.Join(project, ".codex", "config.toml") + `:pre_tool_use:0:0"]`
	if !strings.Contains(string(hook), "[[hooks.PreToolUse]]") || strings.Contains(string(hook), "hooks.state") || !strings.Contains(string(user), key) {
		t.Errorf("project config:\n%s\nuser config:\n%s", hook, user)
	}
	if !strings.Contains(out.String(), "trust_level") {
		t.Errorf("install did not say the project is not trusted: %q", out.String())
	}
	if err := uninstallCodex(&out, files); err != nil {
		t.Fatal(err)
	}
	hook, _ = os.ReadFile(filepath.Join(project, ".codex", "config.toml"))
	user, _ = os.ReadFile(filepath.Join(home, "config.toml"))
	if len(hook) != 0 || len(user) != 0 {
		t.Errorf("uninstall left %q and %q", hook, user)
	}
}

// A file whose entries install cannot count, or that already trusts the
// key install would write, is refused, and left as it was.
func TestInstallCodexRefuses(t *testing.T) {
	for _, text := range []string{
		"[hooks]\nPreToolUse = [{ matcher = \".*\" }]\n",
		"hooks = { PreToolUse = [] }\n",
		"[hooks.state.\"CONFIG:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:00\"\n",
	} {
		home := t.TempDir()
		t.Setenv("CODEX_HOME", home)
		path := filepath.Join(home, "config.toml")
		text = strings.ReplaceAll(text, "CONFIG", path)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		files, _ := codexScopeFiles("user", ".")
		if err := installCodex(&bytes.Buffer{}, files, "/bin/agentpolicy hook --agent codex"); err == nil {
			t.Errorf("install into %q: no error", text)
		}
		if data, _ := os.ReadFile(path); string(data) != text {
			t.Errorf("install changed the file it refused:\n%s", data)
		}
	}
}

func TestTOMLString(t *testing.T) {
	if got := tomlString(`a "b" \c` + "\x01"); got != `"a \"b\" \\c\u0001"` {
		t.Errorf("tomlString = %s", got)
	}
}
