package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// These tests put the built hook in front of the real Gemini CLI
// (conformance/gemini: the pinned npm package, headless, in yolo mode so
// it offers its shell and edit tools, against a loopback stand-in for the
// Gemini API). They fail, never skip, when Gemini CLI is not installed.
// Gemini CLI really runs what the hook lets through, so every command
// here is harmless: it runs git status, or touches, writes or removes a
// file inside the scratch project, and nothing else.

// geminiShell is a call of Gemini CLI's shell tool.
func geminiShell(command string) scriptedCall {
	return scriptedCall{name: "run_shell_command", args: map[string]any{"command": command}}
}

// geminiBlocked checks that Gemini CLI refused the call with the hook's
// reason, saying what it must.
func geminiBlocked(t *testing.T, result string, says ...string) {
	t.Helper()
	for _, s := range append([]string{"Tool execution blocked: agentpolicy: "}, says...) {
		if !strings.Contains(result, s) {
			t.Errorf("Gemini CLI's response to the call %s does not say %q", result, s)
		}
	}
}

// A deny rule blocks `git status && rm -rf x` as a whole, and a write to
// a denied path; their twins run.
func TestGeminiE2EDenies(t *testing.T) {
	p := newGeminiProject(t)
	policy := rulesFile(t, []string{"Bash(git status)", "Bash(touch *)", "Edit(./**)"}, []string{"Bash(rm *)", "Edit(./secret/**)"})
	p.agentpolicy("hook", "install", "--agent", "gemini", "--policy", policy)
	p.write("x", "keep me\n")
	results := p.run(
		geminiShell("git status && rm -rf x"),
		geminiShell("git status; touch ok.txt"),
		scriptedCall{name: "write_file", args: map[string]any{"file_path": "secret/key.txt", "content": "hello\n"}},
		scriptedCall{name: "write_file", args: map[string]any{"file_path": "notes.txt", "content": "hello\n"}},
	)
	geminiBlocked(t, results[0], "denied by Bash(rm *)", policy)
	if !p.exists("x") {
		t.Errorf("the denied command ran: x is gone")
	}
	if !p.exists("ok.txt") {
		t.Errorf("the allowed twin did not run: %s", results[1])
	}
	geminiBlocked(t, results[2], "denied by Edit(./secret/**)")
	if p.exists("secret/key.txt") {
		t.Errorf("the denied write ran")
	}
	if !p.exists("notes.txt") {
		t.Errorf("the allowed write did not run: %s", results[3])
	}
}

// A secret in the tool's input is blocked and kept out of the journal;
// the same command without one runs.
func TestGeminiE2ESecret(t *testing.T) {
	p := newGeminiProject(t)
	policy := rulesFile(t, []string{"Bash(echo *)", "Edit(./**)"}, nil)
	jnl := filepath.Join(t.TempDir(), "verdicts.jsonl")
	p.agentpolicy("hook", "install", "--agent", "gemini", "--policy", policy, "--journal", jnl)
	key := "AKIA" + "IOSFODNN7Q3RZKXW" // AWS's example key is a placeholder, by its word
	results := p.run(geminiShell("echo "+key+" > creds.txt"), geminiShell("echo no-key-here > notes.txt"))
	geminiBlocked(t, results[0], "secret detected: aws_access_key")
	if strings.Contains(results[0], key) {
		t.Errorf("the reason quotes the key: %s", results[0])
	}
	if p.exists("creds.txt") {
		t.Errorf("the command with the key ran")
	}
	if !p.exists("notes.txt") {
		t.Errorf("the harmless twin did not run: %s", results[1])
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
// approved it runs. A policy file that breaks then denies every call.
func TestGeminiE2EQueueApproveThenBrokenPolicy(t *testing.T) {
	p := newGeminiProject(t)
	queue := filepath.Join(t.TempDir(), "queue.jsonl")
	policy := rulesFile(t, nil, []string{"Bash(rm *)"})
	p.agentpolicy("hook", "install", "--agent", "gemini", "--policy", policy, "--unattended", queue)
	results := p.run(geminiShell("touch queued.txt"))
	geminiBlocked(t, results[0], "queued for a person to review", "agentpolicy queue approve --project "+p.dir+" "+queue+" 1")
	if p.exists("queued.txt") {
		t.Fatalf("the queued call ran")
	}
	p.agentpolicy("queue", "approve", "--project", p.dir, "--user-dir", filepath.Join(p.home, ".claude"), queue, "1")
	results = p.run(geminiShell("touch queued.txt"))
	if !p.exists("queued.txt") {
		t.Fatalf("after the approval the call did not run: %s", results[0])
	}
	if err := os.WriteFile(policy, []byte(`{"permissions": {"deny": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	results = p.run(geminiShell("touch queued.txt broken.txt"))
	geminiBlocked(t, results[0], "the settings cannot be read", policy)
	if p.exists("broken.txt") {
		t.Errorf("the call ran under a broken policy")
	}
}

// Install into the project's settings of its own keeps every member; a
// second install changes nothing; uninstall gives the file back byte for
// byte, and Gemini CLI then runs what the hook had denied.
func TestGeminiE2EInstallTwiceUninstall(t *testing.T) {
	p := newGeminiProject(t)
	original := `{
  "general": {"vimMode": false},
  "hooks": {
    "AfterTool": [
      {"matcher": "^read_file$", "hooks": [{"type": "command", "command": "true"}]}
    ]
  }
}
`
	p.write(".gemini/settings.json", original)
	policy := rulesFile(t, nil, []string{"Bash(touch *)"})
	if out := p.agentpolicy("hook", "install", "--agent", "gemini", "--policy", policy); !strings.Contains(out, "installed in") {
		t.Fatalf("install said %q", out)
	}
	installed, _ := os.ReadFile(p.file(".gemini/settings.json"))
	if !strings.Contains(string(installed), `"matcher": "^.*$"`) || !strings.Contains(string(installed), `"AfterTool"`) {
		t.Errorf("installed settings:\n%s", installed)
	}
	if out := p.agentpolicy("hook", "install", "--agent", "gemini", "--policy", policy); !strings.Contains(out, "already installed") {
		t.Errorf("the second install said %q", out)
	}
	if again, _ := os.ReadFile(p.file(".gemini/settings.json")); string(again) != string(installed) {
		t.Errorf("the second install changed the settings:\n%s", again)
	}
	results := p.run(geminiShell("touch hooked.txt"))
	geminiBlocked(t, results[0], "denied by Bash(touch *)")
	if p.exists("hooked.txt") {
		t.Errorf("the denied command ran")
	}
	p.agentpolicy("hook", "uninstall", "--agent", "gemini")
	if after, _ := os.ReadFile(p.file(".gemini/settings.json")); string(after) != original {
		t.Errorf("uninstall left the settings as:\n%s\nwant:\n%s", after, original)
	}
	p.run(geminiShell("touch unhooked.txt"))
	if !p.exists("unhooked.txt") {
		t.Errorf("after uninstall, the command did not run")
	}
}

// An MCP tool's call (mcp_files_read, with mcp_context naming the server
// and the tool) is decided as mcp__files__read: a deny rule for the
// server blocks it; its twin under an allow rule runs.
func TestGeminiE2EMCP(t *testing.T) {
	p := newGeminiProject(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The test binary serves one MCP tool, files/read (mcp_server_test.go).
	p.writeJSON(p.file(".gemini/settings.json"), map[string]any{"mcpServers": map[string]any{
		"files": map[string]any{"command": self, "env": map[string]string{"AGENTPOLICY_TEST_MCP": "1"}, "trust": true},
	}})
	read := scriptedCall{name: "mcp_files_read", args: map[string]any{"path": "notes"}}
	policy := rulesFile(t, []string{"mcp__files__read"}, nil)
	p.agentpolicy("hook", "install", "--agent", "gemini", "--policy", policy)
	if results := p.run(read); !strings.Contains(results[0], "the note") {
		t.Errorf("the allowed MCP call did not run: %s", results[0])
	}
	if err := os.WriteFile(policy, []byte(`{"permissions": {"deny": ["mcp__files"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	geminiBlocked(t, p.run(read)[0], "denied by mcp__files")
}
