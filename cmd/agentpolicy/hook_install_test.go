package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	testPrefix  = "/opt/bin/agentpolicy hook"
	testCommand = testPrefix + " --policy /etc/team.json"
)

// testPrefixes knows the one prefix the install tests write.
var testPrefixes = hookPrefixes{written: testPrefix, known: []string{testPrefix}}

// installed is the settings text with the hook added, which must be JSON
// holding the entry once, and removed again, which must give back the
// text as it was.
func installed(t *testing.T, before string) string {
	t.Helper()
	after, err := addHook([]byte(before), testPrefixes, testCommand)
	if err != nil {
		t.Fatalf("addHook: %v", err)
	}
	var doc struct {
		Hooks struct {
			PreToolUse []hookEntry
		}
	}
	if err := json.Unmarshal(after, &doc); err != nil {
		t.Fatalf("addHook wrote what is not JSON (%v):\n%s", err, after)
	}
	n := 0
	for _, e := range doc.Hooks.PreToolUse {
		if e.Matcher == "*" && len(e.Hooks) == 1 && e.Hooks[0] == (hookCommand{"command", testCommand}) {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("the entry is there %d times, want once:\n%s", n, after)
	}
	again, err := addHook(after, testPrefixes, testCommand)
	if err != nil || string(again) != string(after) {
		t.Errorf("installing twice changed the file (%v):\n%s", err, again)
	}
	removed, err := removeHook(after, testPrefixes)
	if err != nil || string(removed) != before {
		t.Errorf("uninstall did not give the file back (%v):\n--- got\n%s\n--- want\n%s", err, removed, before)
	}
	return string(after)
}

func TestHookInstallKeepsTheFile(t *testing.T) {
	before := `{
  "permissions": {
    "allow": ["Bash(npm test)", "Read(./src/**)"]
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          { "type": "command", "command": "./scripts/check.sh" }
        ]
      }
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]
  },
  "env": {"FOO": "1"}
}
`
	want := `{
  "permissions": {
    "allow": ["Bash(npm test)", "Read(./src/**)"]
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          { "type": "command", "command": "./scripts/check.sh" }
        ]
      },
      {
        "matcher": "*",
        "hooks": [
          {
            "type": "command",
            "command": "/opt/bin/agentpolicy hook --policy /etc/team.json"
          }
        ]
      }
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]
  },
  "env": {"FOO": "1"}
}
`
	if got := installed(t, before); got != want {
		t.Errorf("install wrote:\n%s\nwant:\n%s", got, want)
	}
}

func TestHookInstallCreates(t *testing.T) {
	cases := map[string]struct{ before, want string }{
		"an empty file": {"{}\n", `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "*",
        "hooks": [
          {
            "type": "command",
            "command": "/opt/bin/agentpolicy hook --policy /etc/team.json"
          }
        ]
      }
    ]
  }
}
`},
		"no hooks, tab-indented": {"{\n\t\"model\": \"opus\"\n}\n", "{\n\t\"model\": \"opus\",\n\t\"hooks\": {\n\t\t\"PreToolUse\": [\n\t\t\t{\n\t\t\t\t\"matcher\": \"*\",\n\t\t\t\t\"hooks\": [\n\t\t\t\t\t{\n\t\t\t\t\t\t\"type\": \"command\",\n\t\t\t\t\t\t\"command\": \"/opt/bin/agentpolicy hook --policy /etc/team.json\"\n\t\t\t\t\t}\n\t\t\t\t]\n\t\t\t}\n\t\t]\n\t}\n}\n"},
		"hooks without PreToolUse, on one line": {`{"hooks": {"Stop": []}}`,
			`{"hooks": {"Stop": [], "PreToolUse": [{"matcher":"*","hooks":[{"type":"command","command":"/opt/bin/agentpolicy hook --policy /etc/team.json"}]}]}}`},
	}
	for name, c := range cases {
		if got := installed(t, c.before); got != c.want {
			t.Errorf("%s: install wrote:\n%s\nwant:\n%s", name, got, c.want)
		}
	}
}

// Installing with other flags replaces the entry this binary installed,
// rather than adding a second hook.
func TestHookInstallReplaces(t *testing.T) {
	first, err := addHook([]byte("{}\n"), testPrefixes, testPrefix+" --journal /var/log/a.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	second, err := addHook(first, testPrefixes, testCommand)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := addHook([]byte("{}\n"), testPrefixes, testCommand); string(second) != string(want) {
		t.Errorf("install over the old entry wrote:\n%s\nwant:\n%s", second, want)
	}
}

// A file install cannot edit faithfully is refused, and left alone.
func TestHookInstallRefuses(t *testing.T) {
	for name, text := range map[string]string{
		"not JSON":               `{"hooks": `,
		"not an object":          `["hooks"]`,
		"two hooks members":      `{"hooks": {}, "hooks": {}}`,
		"two PreToolUse members": `{"hooks": {"PreToolUse": [], "PreToolUse": []}}`,
		"hooks not an object":    `{"hooks": []}`,
		"PreToolUse not a list":  `{"hooks": {"PreToolUse": {}}}`,
	} {
		if out, err := addHook([]byte(text), testPrefixes, testCommand); err == nil {
			t.Errorf("%s: install wrote %s, want an error", name, out)
		}
	}
}

// The command installs into the scope's file, written whole with its mode
// kept, and uninstalls only its own entry.
func TestHookInstallCommand(t *testing.T) {
	project := t.TempDir()
	settings := filepath.Join(project, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	before := "{\n  \"permissions\": {\"deny\": [\"Bash(rm *)\"]}\n}\n"
	if err := os.WriteFile(settings, []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}
	policy := filepath.Join(project, "team policy.json")
	if err := os.WriteFile(policy, []byte(teamPolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	nowhere := filepath.Join(project, "nowhere")
	jnl := filepath.Join(t.TempDir(), "j.jsonl")
	args := []string{"hook", "install", "--scope", "project", "--project", project, "--policy", policy, "--journal", jnl,
		"--user-dir", nowhere, "--managed-dir", nowhere}
	stdout, stderr, code := cli(t, args...)
	if code != 0 || !strings.HasPrefix(stdout, "installed in ") {
		t.Fatalf("install: exit %d, %q %q", code, stdout, stderr)
	}
	data, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	want := shellQuote(exe) + " hook --policy '" + policy + "' --user-dir " + nowhere + " --managed-dir " + nowhere + " --journal " + jnl
	if !strings.Contains(string(data), `"command": "`+want+`"`) {
		t.Errorf("the entry does not run %s:\n%s", want, data)
	}
	if info, err := os.Stat(settings); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the file's mode is %v, want 0600 kept", info.Mode())
	}
	if stdout, _, code := cli(t, args...); code != 0 || !strings.HasPrefix(stdout, "already installed") {
		t.Errorf("install again: exit %d, %q", code, stdout)
	}
	if stdout, _, code := cli(t, "hook", "uninstall", "--scope", "project", "--project", project); code != 0 || !strings.HasPrefix(stdout, "uninstalled") {
		t.Errorf("uninstall: exit %d, %q", code, stdout)
	}
	if data, _ := os.ReadFile(settings); string(data) != before {
		t.Errorf("uninstall left:\n%s\nwant:\n%s", data, before)
	}
	if _, stderr, code := cli(t, "hook", "install", "--scope", "team"); code != exitInput || !strings.Contains(stderr, "--scope") {
		t.Errorf("an unknown scope: exit %d, %q", code, stderr)
	}
}

// A settings file that is a symbolic link stays one: the file it points to
// is edited.
func TestHookInstallThroughLink(t *testing.T) {
	dir := t.TempDir()
	dotfiles := filepath.Join(dir, "dotfiles", "claude-settings.json")
	if err := os.MkdirAll(filepath.Dir(dotfiles), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dotfiles, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "settings.json")
	if err := os.Symlink(dotfiles, link); err != nil {
		t.Fatal(err)
	}
	changed, err := editSettings(link, func(data []byte) ([]byte, error) { return addHook(data, testPrefixes, testCommand) })
	if err != nil || !changed {
		t.Fatalf("editSettings: %v, %v", changed, err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
	if data, _ := os.ReadFile(dotfiles); !strings.Contains(string(data), testCommand) {
		t.Errorf("the linked file holds no entry:\n%s", data)
	}
}
