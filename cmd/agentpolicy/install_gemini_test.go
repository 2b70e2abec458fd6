package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const geminiSettings = `{
  "general": {"vimMode": true},
  "hooks": {
    "BeforeTool": [
      {"matcher": "^read_file$", "hooks": [{"type": "command", "command": "my-audit"}]}
    ]
  }
}
`

// Install appends the entry after the file's own, with the anchored
// matcher; the same flags again change nothing, other flags replace the
// entry; uninstall gives the file back byte for byte.
func TestInstallGeminiHook(t *testing.T) {
	prefix := "/usr/bin/agentpolicy hook"
	command := prefix + " --policy /etc/team.json --agent gemini"
	data, err := addGeminiHook([]byte(geminiSettings), hookPrefixes{written: prefix, known: []string{prefix}}, command)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "general": {"vimMode": true},
  "hooks": {
    "BeforeTool": [
      {"matcher": "^read_file$", "hooks": [{"type": "command", "command": "my-audit"}]},
      {
        "matcher": "^.*$",
        "hooks": [
          {
            "type": "command",
            "command": "/usr/bin/agentpolicy hook --policy /etc/team.json --agent gemini",
            "name": "agentpolicy",
            "timeout": 10000
          }
        ]
      }
    ]
  }
}
`
	if string(data) != want {
		t.Fatalf("installed:\n%s\nwant:\n%s", data, want)
	}
	again, err := addGeminiHook(data, hookPrefixes{written: prefix, known: []string{prefix}}, command)
	if err != nil || string(again) != string(data) {
		t.Errorf("the second install changed the file (%v):\n%s", err, again)
	}
	other, err := addGeminiHook(data, hookPrefixes{written: prefix, known: []string{prefix}}, command+" --allow")
	if err != nil || strings.Count(string(other), "agentpolicy hook") != 1 || !strings.Contains(string(other), "--allow") {
		t.Errorf("installing with other flags (%v):\n%s", err, other)
	}
	out, err := removeGeminiHook(other, hookPrefixes{written: prefix, known: []string{prefix}})
	if err != nil || string(out) != geminiSettings {
		t.Errorf("uninstall (%v) left:\n%s", err, out)
	}
	// Into a file with no hooks, and out of it again.
	data, err = addGeminiHook([]byte("{}\n"), hookPrefixes{written: prefix, known: []string{prefix}}, command)
	if err != nil || !strings.Contains(string(data), `"BeforeTool"`) {
		t.Fatalf("install into {} (%v):\n%s", err, data)
	}
	if out, err := removeGeminiHook(data, hookPrefixes{written: prefix, known: []string{prefix}}); err != nil || string(out) != "{}\n" {
		t.Errorf("uninstall (%v) left %q", err, out)
	}
}

// hook install --agent writes to each agent's default scope, with
// --agent in the command, and refuses a policy the hook could not load,
// writing nothing.
func TestHookInstallAgentScopes(t *testing.T) {
	w := newHookWorld(t, `{}`)
	codexHome := filepath.Join(w.home, ".codex")
	t.Setenv("CODEX_HOME", codexHome)
	policy := w.write(filepath.Join(t.TempDir(), "team.json"), `{"permissions": {"deny": ["Bash(rm *)"]}}`)
	install := func(args ...string) (string, int) {
		var out, errb bytes.Buffer
		code := run(context.Background(), append([]string{"hook", "install", "--project", w.project}, args...), strings.NewReader(""), &out, &errb)
		return out.String() + errb.String(), code
	}
	if out, code := install("--agent", "codex", "--policy", policy); code != 0 {
		t.Fatalf("install --agent codex: %d %s", code, out)
	}
	if data, _ := os.ReadFile(filepath.Join(codexHome, "config.toml")); !strings.Contains(string(data), "--agent codex") || !strings.Contains(string(data), "trusted_hash") {
		t.Errorf("config.toml:\n%s", data)
	}
	if out, code := install("--agent", "gemini", "--policy", policy); code != 0 {
		t.Fatalf("install --agent gemini: %d %s", code, out)
	}
	if data, _ := os.ReadFile(filepath.Join(w.project, ".gemini", "settings.json")); !strings.Contains(string(data), "--agent gemini") {
		t.Errorf(".gemini/settings.json:\n%s", data)
	}
	broken := w.write(filepath.Join(t.TempDir(), "broken.json"), `{"permissions": `)
	t.Setenv("CODEX_HOME", filepath.Join(w.home, "other-codex"))
	if out, code := install("--agent", "codex", "--policy", broken); code == 0 || !strings.Contains(out, "nothing was installed") {
		t.Errorf("install of a broken policy: %d %s", code, out)
	}
	if _, err := os.Stat(filepath.Join(w.home, "other-codex", "config.toml")); err == nil {
		t.Errorf("install of a broken policy wrote config.toml")
	}
	if out, code := install("--agent", "codex", "--scope", "local"); code == 0 || !strings.Contains(out, "user or project") {
		t.Errorf("install --agent codex --scope local: %d %s", code, out)
	}
}
