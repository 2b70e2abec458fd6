package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy/conformance/claudecode/claude"
	"github.com/ChristopherDavenport/agentpolicy/journal"
)

// These tests put the built hook in front of the real Claude Code
// (conformance/claudecode: the pinned npm package, headless, against a
// loopback stand-in for the Messages API). They fail, never skip, when
// Claude Code is not installed: `npm ci` in conformance/claudecode
// installs it. Claude Code really runs what it allows, so every command
// here is harmless: it touches or writes a file inside the scratch
// project, and nothing else.

// ccProject is a scratch project Claude Code trusts, its scratch home, and
// the built agentpolicy binary.
type ccProject struct{ *workspace }

func newCCProject(t *testing.T, settings string) *ccProject {
	t.Helper()
	if _, err := claude.Binary(); err != nil {
		t.Fatal(err)
	}
	p := &ccProject{&workspace{t: t, dir: t.TempDir(), home: t.TempDir(), bin: buildBinary(t)}}
	p.env = append(os.Environ(), "HOME="+p.home, "CLAUDE_CONFIG_DIR=")
	if err := claude.TrustProject(p.home, p.dir); err != nil {
		t.Fatal(err)
	}
	p.write(".claude/settings.json", settings)
	return p
}

// install installs the hook into the project's settings file.
func (p *ccProject) install(flags ...string) {
	p.t.Helper()
	p.agentpolicy(append([]string{"hook", "install", "--scope", "project", "--project", p.dir}, flags...)...)
}

// run runs one headless session of the scripted Bash commands and returns
// what became of each, and Claude Code's session ID.
func (p *ccProject) run(commands ...string) ([]claude.Outcome, string) {
	p.t.Helper()
	var calls []claude.ToolCall
	for _, c := range commands {
		calls = append(calls, claude.ToolCall{Name: "Bash", Input: map[string]any{"command": c}})
	}
	// Claude Code's environment is the session's own; a resident
	// process's runtime directory (useResident) is carried into it.
	var env []string
	for _, kv := range p.env {
		if strings.HasPrefix(kv, "XDG_RUNTIME_DIR=") {
			env = append(env, kv)
		}
	}
	res, err := claude.Session{Dir: p.dir, Home: p.home, Calls: calls, Env: env}.Run(context.Background())
	if err != nil {
		p.t.Fatal(err)
	}
	for _, o := range res.Outcomes {
		p.t.Logf("Claude Code: %s %v: %q", o.Decision, o.Call.Input["command"], o.Text)
	}
	var out struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal(res.Output, &out); err != nil || out.SessionID == "" {
		p.t.Fatalf("Claude Code's output names no session (%v): %s", err, res.Output)
	}
	return res.Outcomes, out.SessionID
}

// policyFile writes a team's rule file outside the project.
func teamPolicyFile(t *testing.T, deny ...string) string {
	t.Helper()
	data, _ := json.MarshalIndent(map[string]any{"permissions": map[string]any{"deny": deny}}, "", "  ")
	path := filepath.Join(t.TempDir(), "team-policy.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// wantDenied checks that Claude Code denied the call with the hook's
// reason, which says what it must, and that the file the command would
// have made is not there.
func (p *ccProject) wantDenied(o claude.Outcome, file string, says ...string) {
	p.t.Helper()
	if o.Decision != claude.Deny {
		p.t.Errorf("%v: Claude Code decided %s (%q), want deny", o.Call.Input, o.Decision, o.Text)
	}
	for _, s := range append([]string{"agentpolicy: "}, says...) {
		if !strings.Contains(o.Text, s) {
			p.t.Errorf("%v: the model read %q, want it to say %q", o.Call.Input, o.Text, s)
		}
	}
	if p.exists(file) {
		p.t.Errorf("%v: the command ran: %s exists", o.Call.Input, file)
	}
}

// 1. A call Claude Code alone runs is denied by a --policy rule: the
// command does not run and the model reads the hook's reason.
func TestHookE2EPolicyDenies(t *testing.T) {
	p := newCCProject(t, `{"permissions": {"allow": ["Bash(touch *)"]}}`)
	outcomes, _ := p.run("touch alone.txt")
	if outcomes[0].Decision != claude.Allow || !p.exists("alone.txt") {
		t.Fatalf("without the hook, Claude Code decided %s (%q); want it to run the call", outcomes[0].Decision, outcomes[0].Text)
	}
	policy := teamPolicyFile(t, "Bash(touch *)")
	p.install("--policy", policy)
	outcomes, _ = p.run("touch hooked.txt")
	p.wantDenied(outcomes[0], "hooked.txt", "denied by Bash(touch *) [policy settings, "+policy+"]")
}

// 2. Under --journal a session of five calls leaves five records, in
// order, each with the session and the call; with the journal made
// unwritable, the next call is denied and does not run.
func TestHookE2EJournal(t *testing.T) {
	p := newCCProject(t, `{"permissions": {"allow": ["Bash(touch *)"]}}`)
	jnl := filepath.Join(t.TempDir(), "verdicts.jsonl")
	p.install("--journal", jnl)
	commands := []string{"touch one.txt", "touch two.txt", "touch three.txt", "touch four.txt", "touch five.txt"}
	outcomes, session := p.run(commands...)
	vs, err := journal.Verdicts(jnl)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != len(commands) {
		t.Fatalf("the journal holds %d records, want %d", len(vs), len(commands))
	}
	seen := map[string]bool{}
	for i, v := range vs {
		if outcomes[i].Decision != claude.Allow {
			t.Errorf("%s: Claude Code decided %s (%q), want allow", commands[i], outcomes[i].Decision, outcomes[i].Text)
		}
		var args struct{ Command string }
		if err := json.Unmarshal([]byte(v.Args), &args); err != nil || args.Command != commands[i] {
			t.Errorf("record %d is of %q, want %q", i, v.Args, commands[i])
		}
		if v.RunID != session || v.CallID == "" || seen[v.CallID] || v.Tool != "Bash" {
			t.Errorf("record %d: session %q, call %q, tool %q; want session %s and a call of its own", i, v.RunID, v.CallID, v.Tool, session)
		}
		seen[v.CallID] = true
	}
	// Unwritable: the journal's path is now a directory. (A file's mode
	// would not stop the root user that CI may run as.)
	if err := os.Remove(jnl); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(jnl, 0o755); err != nil {
		t.Fatal(err)
	}
	outcomes, _ = p.run("touch six.txt")
	p.wantDenied(outcomes[0], "six.txt", "the decision could not be recorded", jnl)
}

// 3. Under --unattended a headless run's ask is refused and queued; once
// agentpolicy queue approve answers it, the same call runs in the next
// headless run.
func TestHookE2EUnattended(t *testing.T) {
	p := newCCProject(t, `{}`)
	queue := filepath.Join(t.TempDir(), "queue.jsonl")
	p.install("--unattended", queue)
	outcomes, _ := p.run("touch queued.txt")
	p.wantDenied(outcomes[0], "queued.txt", "queued for a person to review; it did not run", queue)
	if list := p.agentpolicy("queue", "list", queue); !strings.Contains(list, "touch queued.txt") || !strings.Contains(list, "waiting") {
		t.Fatalf("queue list:\n%s\nwant the call, waiting", list)
	}
	p.agentpolicy("queue", "approve", "--project", p.dir, "--user-dir", filepath.Join(p.home, ".claude"), queue, "1")
	outcomes, _ = p.run("touch queued.txt")
	if outcomes[0].Decision != claude.Allow || !p.exists("queued.txt") {
		t.Errorf("after the approval, Claude Code decided %s (%q); want the call run", outcomes[0].Decision, outcomes[0].Text)
	}
}

// 4. hook install into a project that has hooks and settings of its own:
// the run of test 1 works, and git diff of the settings file shows the
// added entry and nothing else.
func TestHookE2EInstallKeepsSettings(t *testing.T) {
	p := newCCProject(t, `{
  "permissions": {
    "allow": ["Bash(touch *)", "Bash(git status)"],
    "deny": ["Read(./.env)"]
  },
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{"type": "command", "command": "true"}]
      }
    ]
  },
  "env": {"PROJECT_FLAVOUR": "plain"}
}
`)
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=agentpolicy", "-c", "user.email=agentpolicy@example.com"}, args...)...)
		cmd.Dir = p.dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	git("init", "-q")
	git("add", ".claude/settings.json")
	git("commit", "-q", "-m", "settings")
	policy := teamPolicyFile(t, "Bash(touch *)")
	p.install("--policy", policy)
	var added, removed []string
	for _, line := range strings.Split(git("diff", "-U0", "--", ".claude/settings.json"), "\n") {
		switch {
		case strings.HasPrefix(line, "+++"), strings.HasPrefix(line, "---"):
		case strings.HasPrefix(line, "+"):
			added = append(added, strings.TrimSpace(line[1:]))
		case strings.HasPrefix(line, "-"):
			removed = append(removed, line)
		}
	}
	// The entry goes after PostToolUse, whose closing line gains a comma;
	// git shows that as the line "]," added before the entry and the old
	// "]" kept as the one that closes PreToolUse, so nothing is removed.
	entry, _ := json.MarshalIndent(hookEntry{Matcher: "*", Hooks: []hookCommand{{Type: "command", Command: p.bin + " hook --policy " + policy}}}, "", "  ")
	want := []string{"],", `"PreToolUse": [`}
	for _, line := range strings.Split(string(entry), "\n") {
		want = append(want, strings.TrimSpace(line))
	}
	if got := strings.Join(added, "\n"); len(removed) != 0 || got != strings.Join(want, "\n") {
		t.Errorf("git diff removed %q and added:\n%s\nwant only the entry:\n%s", removed, got, strings.Join(want, "\n"))
	}
	outcomes, _ := p.run("touch hooked.txt")
	p.wantDenied(outcomes[0], "hooked.txt", "denied by Bash(touch *) [policy settings, "+policy+"]")
}

// 5. A tool_input holding an AWS access key, echoed to a file, is denied;
// the key is in neither the reason nor the journal. The same command
// without a key runs.
func TestHookE2ESecret(t *testing.T) {
	p := newCCProject(t, `{"permissions": {"allow": ["Bash(echo *)", "Edit(./**)"]}}`)
	jnl := filepath.Join(t.TempDir(), "verdicts.jsonl")
	p.install("--journal", jnl)
	key := "AKIA" + "IOSFODNN7Q3RZKXW" // AWS's example key is a placeholder, by its word
	outcomes, _ := p.run("echo "+key+" > creds.txt", "echo no-key-here > notes.txt")
	p.wantDenied(outcomes[0], "creds.txt", "secret detected: aws_access_key")
	if strings.Contains(outcomes[0].Text, key) {
		t.Errorf("the reason quotes the key: %q", outcomes[0].Text)
	}
	if outcomes[1].Decision != claude.Allow || !p.exists("notes.txt") {
		t.Errorf("the harmless twin: Claude Code decided %s (%q), want it run", outcomes[1].Decision, outcomes[1].Text)
	}
	data, err := os.ReadFile(jnl)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), key) || !strings.Contains(string(data), "[REDACTED aws_access_key]") {
		t.Errorf("the journal holds the key, or no redaction of it:\n%s", data)
	}
}

// 6. After `cd src` Claude Code's events carry src as their cwd; the
// project's deny rule still applies, through CLAUDE_PROJECT_DIR, and the
// file is still there. The harmless twin, a listing, runs.
func TestHookE2EAfterCd(t *testing.T) {
	p := newCCProject(t, `{"permissions": {"deny": ["Bash(rm:*)"], "allow": ["Bash(cd:*)", "Bash(ls:*)", "Edit(./**)"]}}`)
	p.write("src/victim/keep.txt", "kept")
	p.install()
	outcomes, _ := p.run("cd src", "rm -rf victim", "ls victim > listed.txt")
	if outcomes[0].Decision != claude.Allow {
		t.Fatalf("cd src: Claude Code decided %s (%q), want it run", outcomes[0].Decision, outcomes[0].Text)
	}
	p.wantDenied(outcomes[1], "src/victim/gone", "denied by Bash(rm:*) [project settings, ")
	if !p.exists("src/victim/keep.txt") {
		t.Errorf("rm -rf victim ran in src: src/victim/keep.txt is gone")
	}
	if outcomes[2].Decision != claude.Allow || !p.exists("src/listed.txt") {
		t.Errorf("the harmless twin in src: Claude Code decided %s (%q), want it run there", outcomes[2].Decision, outcomes[2].Text)
	}
}
