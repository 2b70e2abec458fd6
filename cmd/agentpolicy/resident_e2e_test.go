//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy/conformance/claudecode/claude"
)

// The end-to-end tests of the resident path: hook install by a binary
// with agentpolicy-hook beside it writes agentpolicy-hook, and each real
// agent's calls are decided through it, the first by the binary (which
// the client runs as it starts the resident process), the rest by the
// resident process. Every command is harmless, as in the other
// end-to-end tests.

// useResident makes the workspace's binary the one with agentpolicy-hook
// beside it, with an XDG_RUNTIME_DIR of its own, which it returns.
func (w *workspace) useResident() string {
	w.bin = residentBinary(w.t)
	runtime := privateRuntime(w.t)
	w.env = append(w.env, "XDG_RUNTIME_DIR="+runtime)
	return runtime
}

// wantResidentInstalled fails the test unless the file holds the hook as
// agentpolicy-hook.
func wantResidentInstalled(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if client := filepath.Join(filepath.Dir(residentBinary(t)), "agentpolicy-hook"); !strings.Contains(string(data), client+" --policy") {
		t.Fatalf("hook install did not write %s:\n%s", client, data)
	}
}

// residentAgent is what the resident end-to-end test needs of an agent's
// scratch project.
type residentAgent interface {
	agentpolicy(args ...string) string
	write(name, content string) string
	exists(name string) bool
	useResident() string
	run(calls ...scriptedCall) []string
}

// TestResidentE2EAgents runs Codex CLI and Gemini CLI with the hook
// installed as agentpolicy-hook: a compound command a deny rule reaches
// is blocked twice, the calls between them run, and a resident process
// was started for them.
func TestResidentE2EAgents(t *testing.T) {
	for _, a := range []struct {
		agent   string
		project func(t *testing.T) (residentAgent, string)
		shell   func(command string) scriptedCall
		blocked func(t *testing.T, result string, says ...string)
	}{
		{agentCodex, func(t *testing.T) (residentAgent, string) {
			p := newCodexProject(t)
			return p, p.configPath()
		}, codexShell, blocked},
		{agentGemini, func(t *testing.T) (residentAgent, string) {
			p := newGeminiProject(t)
			return p, p.file(".gemini/settings.json")
		}, geminiShell, geminiBlocked},
	} {
		t.Run(a.agent, func(t *testing.T) {
			p, config := a.project(t)
			runtime := p.useResident()
			policy := rulesFile(t, []string{"Bash(git status)", "Bash(touch *)"}, []string{"Bash(rm *)"})
			p.agentpolicy("hook", "install", "--agent", a.agent, "--policy", policy)
			wantResidentInstalled(t, config)
			p.write("x", "keep me\n")
			results := p.run(a.shell("git status && rm -rf x"), a.shell("touch one.txt"), a.shell("git status && rm -rf x"), a.shell("touch two.txt"))
			for _, i := range []int{0, 2} {
				a.blocked(t, results[i], "denied by Bash(rm *)", policy)
			}
			if !p.exists("x") {
				t.Errorf("the denied command ran: x is gone")
			}
			if !p.exists("one.txt") || !p.exists("two.txt") {
				t.Errorf("the allowed calls did not run: %q", results)
			}
			if !socketIn(runtime) {
				t.Errorf("no resident process was started")
			}
		})
	}
}

func TestResidentE2EClaude(t *testing.T) {
	p := newCCProject(t, `{"permissions": {"allow": ["Bash(touch *)"]}}`)
	runtime := p.useResident()
	policy := teamPolicyFile(t, "Bash(touch denied*)")
	p.install("--policy", policy)
	wantResidentInstalled(t, p.file(".claude/settings.json"))
	outcomes, _ := p.run("touch denied-1.txt", "touch allowed-1.txt", "touch denied-2.txt", "touch allowed-2.txt")
	p.wantDenied(outcomes[0], "denied-1.txt", "denied by Bash(touch denied*)")
	p.wantDenied(outcomes[2], "denied-2.txt", "denied by Bash(touch denied*)")
	for _, o := range []claude.Outcome{outcomes[1], outcomes[3]} {
		if o.Decision != claude.Allow {
			t.Errorf("%v: Claude Code decided %s (%q), want it run", o.Call.Input, o.Decision, o.Text)
		}
	}
	if !p.exists("allowed-1.txt") || !p.exists("allowed-2.txt") {
		t.Errorf("the allowed calls did not run")
	}
	if !socketIn(runtime) {
		t.Errorf("no resident process was started")
	}
}
