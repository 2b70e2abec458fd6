package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// What decided each call is named in the user's words: a rule as its file
// writes it with the file, or a built-in check by its documented name,
// never the engine's own text for it.
func TestDecisionsNameWhatDecided(t *testing.T) {
	u := newUser(t)
	u.write(".claude/settings.json", `{"permissions": {"allow": ["Bash(cp *)"], "deny": ["Bash(rm *)", "Read(./.env)"]}}`)
	cases := []struct {
		command []string
		says    []string
	}{
		{[]string{"cat", "notes.txt"}, []string{"decision:  allow", "check:     read-only command (built in)", `allowed by the built-in check "read-only command"`}},
		{[]string{"cp", "a", "b"}, []string{"decision:  allow", "Edit: b", `the built-in check "working directories"`}},
		{[]string{"echo hi > .git/config"}, []string{"decision:  ask", "check:     protected path (built in)"}},
		{[]string{"make"}, []string{"decision:  ask", "check:     default (no rule names the call)"}},
		{[]string{"rm", "-rf", "/"}, []string{"decision:  deny", "rule:      Bash(rm *)", "from:      project settings, .claude/settings.json", `denied by Bash(rm *) on "rm -rf /"; nothing in this command ran` + "\n"}},
		{[]string{"cat", ".en?"}, []string{"decision:  deny", "rule:      Read(./.env)", `denied by Read(./.env) on ".en?"`}},
		{[]string{"git status && rm -rf /"}, []string{`nothing in this command ran, including "git status"` + "\n"}},
	}
	for _, c := range cases {
		stdout, stderr, code := u.run("", append([]string{"--trust", "explain", "Bash", "--"}, c.command...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d, %q", c.command, code, stderr)
		}
		for _, want := range c.says {
			if !strings.Contains(stdout, want) {
				t.Errorf("%s: output lacks %q:\n%s", c.command, want, stdout)
			}
		}
		for _, never := range []string{"read_only", "as_written", "claude-code:", "Edit.operand", "Read.glob", `including "/"`, "(none: the default applied)"} {
			if strings.Contains(stdout, never) {
				t.Errorf("%s: output says %q:\n%s", c.command, never, stdout)
			}
		}
	}
	_, stderr, _ := u.run("", "explain", "Frob", "{}")
	if strings.Contains(stderr, "Edit.operand") || !strings.Contains(stderr, "Read") {
		t.Errorf("the list of Claude Code's tools: %q", stderr)
	}
	_, stderr, code := u.run("", "explain", "Read")
	if code != exitInput || !strings.Contains(stderr, "explain: Read needs its arguments") || !strings.Contains(stderr, "file_path") {
		t.Errorf("explain Read with no arguments: exit %d, %q", code, stderr)
	}
	if stdout, _, code := u.run("", "explain", "TodoWrite"); code != 0 || !strings.Contains(stdout, "decision:  allow") {
		t.Errorf("explain of a tool that needs no arguments: exit %d\n%s", code, stdout)
	}
}

// --json keeps the engine's action word, as the journal records it, and
// adds the decision in the settings files' words and what decided it.
func TestExplainJSONDecision(t *testing.T) {
	u := newUser(t)
	u.write(".claude/settings.json", `{"permissions": {"deny": ["Read(./.env)"], "ask": ["Bash(git push *)"]}}`)
	cases := []struct {
		tool, args     string
		action, decide string
		by             decider
	}{
		{"Read", `{"file_path": ".env"}`, "block", "deny", decider{Rule: "Read(./.env)", Source: "project settings", File: ".claude/settings.json"}},
		{"Bash", `{"command": "git push origin main"}`, "defer", "ask", decider{Rule: "Bash(git push *)", Source: "project settings", File: ".claude/settings.json"}},
		{"Bash", `{"command": "ls"}`, "allow", "allow", decider{Check: checkReadOnly}},
	}
	for _, c := range cases {
		stdout, stderr, code := u.run("", "explain", "--json", c.tool, c.args)
		var out struct {
			Verdict struct {
				Action, Decision, Rule, Reason string
				DecidedBy                      decider `json:"decided_by"`
			}
		}
		if code != 0 || json.Unmarshal([]byte(stdout), &out) != nil {
			t.Fatalf("%s %s: exit %d, %q\n%s", c.tool, c.args, code, stderr, stdout)
		}
		v := out.Verdict
		if v.Action != c.action || v.Decision != c.decide || v.DecidedBy != c.by || v.Rule != c.by.Rule {
			t.Errorf("%s %s: action %q, decision %q, rule %q, decided by %+v; want %s, %s, %+v", c.tool, c.args, v.Action, v.Decision, v.Rule, v.DecidedBy, c.action, c.decide, c.by)
		}
	}
}

// A hook event cut short is reported with the parser's error and the
// offset it stopped at.
func TestHookTruncatedEvent(t *testing.T) {
	u := newUser(t)
	event := `{"hook_event_name":"PreToolUse","cwd":"/tmp","tool_name":"Bash","tool_input":{"command":"ls`
	_, stderr, code := u.run(event, "hook")
	want := fmt.Sprintf("unexpected end of JSON input at byte %d of %d", len(event), len(event))
	if code != exitInput || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, %q; want 2 and %q", code, stderr, want)
	}
}

// The hook's reasons use the same words: the built-in check by name, and
// a blocked compound command's list of what did not run holds commands,
// not the files they name.
func TestHookReasonsInTheUsersWords(t *testing.T) {
	w := newHookWorld(t, `{"permissions": {"deny": ["Bash(rm *)"]}}`)
	got, reason := w.decision(w.event("Bash", map[string]string{"command": "git status && rm -rf /"}))
	if got != "deny" || !strings.HasSuffix(reason, `nothing in this command ran, including "git status"`) {
		t.Errorf("compound: %q %q", got, reason)
	}
	got, reason = w.decision(w.event("Bash", map[string]string{"command": "ls"}), "--allow")
	if got != "allow" || reason != `agentpolicy: allowed by the built-in check "read-only command"` {
		t.Errorf("read-only: %q %q", got, reason)
	}
}

// An untrusted project's allow rules over an MCP server or a glob of its
// tools are reported as withheld, as its other allow rules are.
func TestLintReportsWithheldMCPRules(t *testing.T) {
	u := newUser(t)
	u.write(".claude/settings.json", `{"permissions": {"allow": ["mcp__github", "mcp__jira__get_*", "Bash(make *)"]}}`)
	stdout, _, code := u.run("", "lint", "--json")
	var out struct{ Findings []finding }
	if code != 0 || json.Unmarshal([]byte(stdout), &out) != nil {
		t.Fatalf("exit %d\n%s", code, stdout)
	}
	var withheld []string
	for _, f := range out.Findings {
		if f.Kind == "withheld" {
			withheld = append(withheld, f.Rule)
		}
	}
	if strings.Join(withheld, " ") != "mcp__github mcp__jira__get_* Bash(make *)" {
		t.Errorf("withheld: %q", withheld)
	}
	if stdout, _, _ := u.run("", "--trust", "lint"); stdout != "0 errors, 0 warnings\n" {
		t.Errorf("trusted, the twin: %s", stdout)
	}
}
