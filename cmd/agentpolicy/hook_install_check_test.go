package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// install refuses, before it writes anything, a hook that would refuse
// every call: a --policy file missing, not JSON or holding a rule the
// engine cannot use, a --settings file missing, a journal or queue in a
// directory that does not exist. --force installs anyway, with the reason
// on standard error. The harmless twin installs.
func TestHookInstallChecksWhatTheHookReads(t *testing.T) {
	u := newUser(t)
	good := u.write("team.json", teamPolicy)
	notJSON := u.write("broken.json", `{"permissions": {"deny": [`)
	unusable := u.write("unusable.json", `{"permissions": {"deny": ["Bash(foo (bar)"]}}`)
	missing := filepath.Join(u.wd, "no-such.json")
	nodir := filepath.Join(u.wd, "no-such-dir", "log.jsonl")
	cases := []struct {
		name  string
		flags []string
		says  string
	}{
		{"missing policy", []string{"--policy", missing}, "no-such.json"},
		{"policy not JSON", []string{"--policy", notJSON}, "broken.json"},
		{"unusable policy rule", []string{"--policy", unusable}, `"Bash(foo (bar)"`},
		{"missing --settings file", []string{"--settings", missing}, "no-such.json"},
		{"journal in no directory", []string{"--journal", nodir}, "no-such-dir"},
		{"queue in no directory", []string{"--unattended", nodir}, "no-such-dir"},
	}
	settings := filepath.Join(u.wd, ".claude", "settings.local.json")
	for _, c := range cases {
		args := append([]string{"hook", "install", "--project", u.wd}, c.flags...)
		_, stderr, code := u.run("", args...)
		if code != exitInput || !strings.Contains(stderr, c.says) || !strings.Contains(stderr, "--force") {
			t.Errorf("%s: exit %d, %q; want 2 naming %s and --force", c.name, code, stderr, c.says)
		}
		if _, err := os.Stat(settings); err == nil {
			t.Fatalf("%s: install wrote %s", c.name, settings)
		}
		stdout, stderr, code := u.run("", append(args, "--force")...)
		if code != 0 || !strings.HasPrefix(stdout, "installed in ") || !strings.Contains(stderr, "warning") {
			t.Errorf("%s --force: exit %d, %q, %q; want it installed with a warning", c.name, code, stdout, stderr)
		}
		os.Remove(settings)
	}
	journal := filepath.Join(u.wd, "log.jsonl")
	// Only the note that agentpolicy-hook is not beside the test's binary
	// (TestInstallNotesResident) is said.
	if stdout, stderr, code := u.run("", "hook", "install", "--project", u.wd, "--policy", good, "--journal", journal); code != 0 ||
		strings.Count(stderr, "\n") > 1 || stderr != "" && !strings.HasPrefix(stderr, "agentpolicy: note: each call will start this binary") {
		t.Errorf("a good policy and journal: exit %d, %q, %q; want installed", code, stdout, stderr)
	}
}

// Every flag the hook reads is carried into the installed command, which
// then runs and reads them: a --settings file's deny and --trust's allow
// decide. The hook refuses --project and --verbose, which it does not
// read, rather than ignore them.
func TestHookInstallCarriesEveryFlag(t *testing.T) {
	u := newUser(t)
	u.write(".claude/settings.json", `{"permissions": {"allow": ["Bash(make *)"]}}`)
	extra := u.write("extra.json", `{"permissions": {"deny": ["Bash(git push *)"]}}`)
	userDir := filepath.Join(u.home, "elsewhere")
	u.write(filepath.Join(userDir, "settings.json"), `{"permissions": {"deny": ["Bash(npm publish *)"]}}`)
	stdout, stderr, code := u.run("", "hook", "install", "--scope", "project", "--project", u.wd,
		"--settings", extra, "--settings", `{"permissions": {"deny": ["Bash(curl *)"]}}`, "--user-dir", userDir, "--trust", "--allow")
	if code != 0 {
		t.Fatalf("install: exit %d, %q %q", code, stdout, stderr)
	}
	var file struct {
		Hooks struct {
			PreToolUse []hookEntry
		}
	}
	data, _ := os.ReadFile(filepath.Join(u.wd, ".claude", "settings.json"))
	if err := json.Unmarshal(data, &file); err != nil || len(file.Hooks.PreToolUse) != 1 {
		t.Fatalf("the settings file holds no entry (%v):\n%s", err, data)
	}
	command := file.Hooks.PreToolUse[0].Hooks[0].Command
	for _, flag := range []string{"--managed-dir " + u.managed, "--settings " + extra, "--settings '{", "--user-dir " + userDir, "--trust", "--allow"} {
		if !strings.Contains(command, flag) {
			t.Errorf("the installed command %s lacks %s", command, flag)
		}
	}
	// The installed command, run as Claude Code runs it, by the shell.
	hook := func(cmdline string) string {
		ev, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "cwd": u.wd, "session_id": "s", "tool_use_id": "c",
			"permission_mode": "default", "tool_name": "Bash", "tool_input": map[string]string{"command": cmdline}})
		sh := exec.Command("sh", "-c", command)
		sh.Dir, sh.Env, sh.Stdin = u.wd, u.env, strings.NewReader(string(ev))
		out, err := sh.Output()
		if err != nil {
			t.Fatalf("the installed command: %v, %s", err, out)
		}
		return string(out)
	}
	for cmdline, want := range map[string]string{
		"git push origin main": `"permissionDecision":"deny"`,  // --settings file
		"curl example.com":     `"permissionDecision":"deny"`,  // inline --settings
		"npm publish x":        `"permissionDecision":"deny"`,  // --user-dir
		"make all":             `"permissionDecision":"allow"`, // --trust, --allow
	} {
		if got := hook(cmdline); !strings.Contains(got, want) {
			t.Errorf("%s: the installed hook answered %q, want %s", cmdline, got, want)
		}
	}
	for _, flag := range []string{"--project=.", "--verbose"} {
		_, stderr, code := u.run(`{}`, "hook", flag)
		if code != exitInput || !strings.Contains(stderr, "is not a flag of the hook") {
			t.Errorf("hook %s: exit %d, %q; want it refused", flag, code, stderr)
		}
	}
}

// From a subdirectory of a git repository both --scope project and
// --scope local write at the repository's root, where Claude Code reads
// them; uninstall removes a file install created and leaves one it did
// not.
func TestHookInstallScopesAtTheProjectRoot(t *testing.T) {
	u := newUser(t)
	if err := os.MkdirAll(filepath.Join(u.wd, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(u.wd, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	for scope, file := range map[string]string{"project": ".claude/settings.json", "local": ".claude/settings.local.json"} {
		if stdout, stderr, code := u.run("", "hook", "install", "--scope", scope, "--project", src); code != 0 || !u.exists(file) {
			t.Errorf("--scope %s from src: exit %d, %q %q; want %s at the root", scope, code, stdout, stderr, file)
		}
		if _, err := os.Stat(filepath.Join(src, file)); err == nil {
			t.Errorf("--scope %s wrote src/%s", scope, file)
		}
		if _, _, code := u.run("", "hook", "uninstall", "--scope", scope, "--project", src); code != 0 || u.exists(file) {
			t.Errorf("--scope %s: uninstall left the file install created (exit %d)", scope, code)
		}
	}
	kept := u.write(".claude/settings.json", `{"permissions": {"allow": ["Bash(make *)"]}}`+"\n")
	u.run("", "hook", "install", "--scope", "project", "--project", src)
	u.run("", "hook", "uninstall", "--scope", "project", "--project", src)
	if data, err := os.ReadFile(kept); err != nil || !strings.Contains(string(data), "Bash(make *)") || strings.Contains(string(data), "hooks") {
		t.Errorf("uninstall from a file install did not create: %v\n%s", err, data)
	}
}
