package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// These tests put the built hook in front of the real Codex CLI
// (conformance/codex: the pinned npm package, codex exec headless, in its
// workspace-write sandbox, against a loopback stand-in for the Responses
// API). They fail, never skip, when Codex is not installed. Codex really
// runs what the hook lets through, so every command here is harmless: it
// runs git status, or touches, writes or removes a file inside the
// scratch workspace, and nothing else.

// rulesFile writes a rule file outside the workspace, in Claude Code's
// settings format, as a team would give it with --policy.
func rulesFile(t *testing.T, allow, deny []string) string {
	t.Helper()
	data, _ := json.MarshalIndent(map[string]any{"permissions": map[string]any{"allow": allow, "deny": deny}}, "", "  ")
	path := filepath.Join(t.TempDir(), "team-policy.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// codexShell is a call of Codex's shell tool.
func codexShell(command string) scriptedCall {
	return scriptedCall{name: "exec_command", args: map[string]any{"cmd": command}}
}

// blocked checks that Codex refused the call with the hook's reason,
// saying what it must.
func blocked(t *testing.T, result string, says ...string) {
	t.Helper()
	for _, s := range append([]string{"blocked by PreToolUse hook", "agentpolicy: "}, says...) {
		if !strings.Contains(result, s) {
			t.Errorf("Codex's result of the call %q does not say %q", result, s)
		}
	}
}

// A deny rule blocks `git status && rm -rf x` as a whole: x is still
// there. Its twin, git status then touch, runs.
func TestCodexE2EDeniesCompound(t *testing.T) {
	p := newCodexProject(t)
	policy := rulesFile(t, []string{"Bash(git status)", "Bash(touch *)"}, []string{"Bash(rm *)"})
	p.agentpolicy("hook", "install", "--agent", "codex", "--policy", policy)
	p.write("x", "keep me\n")
	p.write("sub/keep", "")
	inSub := scriptedCall{name: "exec_command", args: map[string]any{"cmd": "touch in-sub.txt", "workdir": "sub"}}
	results := p.run(codexShell("git status && rm -rf x"), codexShell("git status; touch ok.txt"), inSub, codexShell("touch in-top.txt"))
	blocked(t, results[0], "denied by Bash(rm *)", policy)
	if !p.exists("x") {
		t.Errorf("the denied command ran: x is gone")
	}
	if !p.exists("ok.txt") {
		t.Errorf("the allowed twin did not run: %q", results[1])
	}
	// In another directory the command is `cd DIR && touch …`, which no
	// rule allows; the same command in the project is allowed.
	blocked(t, results[2], "cannot ask through a hook")
	if p.exists("sub/in-sub.txt") {
		t.Errorf("the command in sub ran")
	}
	if !p.exists("in-top.txt") {
		t.Errorf("the command in the project did not run: %q", results[3])
	}
}

// apply_patch is an Edit of every file the patch names: a patch that
// touches a denied path is blocked whole; one that does not runs.
func TestCodexE2EApplyPatch(t *testing.T) {
	p := newCodexProject(t)
	policy := rulesFile(t, []string{"Edit(./**)"}, []string{"Edit(./secret/**)"})
	p.agentpolicy("hook", "install", "--agent", "codex", "--policy", policy)
	patch := func(files ...string) scriptedCall {
		text := "*** Begin Patch\n"
		for _, f := range files {
			text += "*** Add File: " + f + "\n+hello\n"
		}
		return scriptedCall{name: "apply_patch", input: text + "*** End Patch\n"}
	}
	results := p.run(patch("notes.txt", "secret/key.txt"), patch("readme.txt"))
	blocked(t, results[0], "denied by Edit(./secret/**)")
	if p.exists("notes.txt") || p.exists("secret/key.txt") {
		t.Errorf("the denied patch was applied, in part or whole")
	}
	if !p.exists("readme.txt") {
		t.Errorf("the allowed twin was not applied: %q", results[1])
	}
}

// A secret in the tool's input is blocked and kept out of the journal;
// the same command without one runs.
func TestCodexE2ESecret(t *testing.T) {
	p := newCodexProject(t)
	policy := rulesFile(t, []string{"Bash(echo *)", "Edit(./**)"}, nil)
	jnl := filepath.Join(t.TempDir(), "verdicts.jsonl")
	p.agentpolicy("hook", "install", "--agent", "codex", "--policy", policy, "--journal", jnl)
	key := "AKIA" + "IOSFODNN7Q3RZKXW" // AWS's example key is a placeholder, by its word
	results := p.run(codexShell("echo "+key+" > creds.txt"), codexShell("echo no-key-here > notes.txt"))
	blocked(t, results[0], "secret detected: aws_access_key")
	// Codex quotes the command after the hook's reason; the reason
	// itself must not quote the key.
	if reason, _, _ := strings.Cut(results[0], ". Command: "); strings.Contains(reason, key) {
		t.Errorf("the reason quotes the key: %q", reason)
	}
	if p.exists("creds.txt") {
		t.Errorf("the command with the key ran")
	}
	if !p.exists("notes.txt") {
		t.Errorf("the harmless twin did not run: %q", results[1])
	}
	data, err := os.ReadFile(jnl)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), key) || !strings.Contains(string(data), "[REDACTED aws_access_key]") {
		t.Errorf("the journal holds the key, or no redaction of it:\n%s", data)
	}
}

// An asked call is denied with the way to approve it and queued; once
// approved it runs in the next session.
func TestCodexE2EQueueApprove(t *testing.T) {
	p := newCodexProject(t)
	queue := filepath.Join(t.TempDir(), "queue.jsonl")
	p.agentpolicy("hook", "install", "--agent", "codex", "--unattended", queue)
	results := p.run(codexShell("touch queued.txt"))
	blocked(t, results[0], "queued for a person to review", "agentpolicy queue approve --project "+p.dir+" "+queue+" 1")
	if p.exists("queued.txt") {
		t.Fatalf("the queued call ran")
	}
	if list := p.agentpolicy("queue", "list", queue); !strings.Contains(list, "touch queued.txt") || !strings.Contains(list, "waiting") {
		t.Fatalf("queue list:\n%s\nwant the call, waiting", list)
	}
	p.agentpolicy("queue", "approve", "--project", p.dir, "--user-dir", filepath.Join(p.home, ".claude"), queue, "1")
	results = p.run(codexShell("touch queued.txt"))
	if !p.exists("queued.txt") {
		t.Errorf("after the approval the call did not run: %q", results[0])
	}
}

// A policy file that breaks after install denies every call.
func TestCodexE2EBrokenPolicy(t *testing.T) {
	p := newCodexProject(t)
	policy := rulesFile(t, []string{"Bash(touch *)"}, nil)
	p.agentpolicy("hook", "install", "--agent", "codex", "--policy", policy)
	if err := os.WriteFile(policy, []byte(`{"permissions": {"allow": ["Bash(touch *)"`), 0o644); err != nil {
		t.Fatal(err)
	}
	results := p.run(codexShell("touch broken.txt"))
	blocked(t, results[0], "the settings cannot be read", policy)
	if p.exists("broken.txt") {
		t.Errorf("the call ran under a broken policy")
	}
}

// Install into a config.toml of the user's own keeps every line of it;
// a second install changes nothing; uninstall gives the file back byte
// for byte, and Codex then runs what the hook had denied.
func TestCodexE2EInstallTwiceUninstall(t *testing.T) {
	p := newCodexProject(t)
	original, err := os.ReadFile(p.configPath())
	if err != nil {
		t.Fatal(err)
	}
	policy := rulesFile(t, nil, []string{"Bash(touch *)"})
	out := p.agentpolicy("hook", "install", "--agent", "codex", "--policy", policy)
	if !strings.Contains(out, "installed in") {
		t.Fatalf("install said %q", out)
	}
	installed, err := os.ReadFile(p.configPath())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(installed), string(original)) {
		t.Errorf("install changed the user's lines:\n%s", installed)
	}
	if out := p.agentpolicy("hook", "install", "--agent", "codex", "--policy", policy); !strings.Contains(out, "already installed") {
		t.Errorf("the second install said %q", out)
	}
	again, _ := os.ReadFile(p.configPath())
	if string(again) != string(installed) {
		t.Errorf("the second install changed config.toml:\n%s", again)
	}
	results := p.run(codexShell("touch hooked.txt"))
	blocked(t, results[0], "denied by Bash(touch *)")
	if p.exists("hooked.txt") {
		t.Errorf("the denied command ran")
	}
	p.agentpolicy("hook", "uninstall", "--agent", "codex")
	after, _ := os.ReadFile(p.configPath())
	if string(after) != string(original) {
		t.Errorf("uninstall left config.toml as:\n%s\nwant:\n%s", after, original)
	}
	p.run(codexShell("touch unhooked.txt"))
	if !p.exists("unhooked.txt") {
		t.Errorf("after uninstall, the command did not run")
	}
}

// An MCP tool's call comes to the hook as mcp__server__tool with the
// tool's arguments: a deny rule for the server blocks it; under a policy
// without one the hook lets it through to Codex's own approval (which,
// in exec, refuses an MCP call that needs approval).
func TestCodexE2EMCP(t *testing.T) {
	p := newCodexProject(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(p.configPath(), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The test binary serves one MCP tool, files/read (mcp_server_test.go).
	if _, err := f.WriteString("\n[mcp_servers.files]\ncommand = " + tomlString(self) + "\nenv = { AGENTPOLICY_TEST_MCP = \"1\" }\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	read := scriptedCall{namespace: "mcp__files", name: "read", args: map[string]any{"path": "notes"}}
	policy := rulesFile(t, []string{"mcp__files__read"}, nil)
	p.agentpolicy("hook", "install", "--agent", "codex", "--policy", policy)
	if results := p.run(read); strings.Contains(results[0], "blocked by PreToolUse hook") {
		t.Errorf("the allowed MCP call was blocked by the hook: %q", results[0])
	}
	if err := os.WriteFile(policy, []byte(`{"permissions": {"deny": ["mcp__files"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	blocked(t, p.run(read)[0], "denied by mcp__files")
}
