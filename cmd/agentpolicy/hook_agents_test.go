package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// agentEventJSON is an event of the agent, in the shape Codex CLI 0.171.0
// and Gemini CLI 0.61.0 send it (spec/agents.md), for a call in cwd.
func agentEventJSON(agent, cwd, tool string, input any, extra map[string]any) string {
	ev := map[string]any{"session_id": "session-1", "transcript_path": "/dev/null", "cwd": cwd, "tool_name": tool, "tool_input": input}
	if agent == agentCodex {
		ev["hook_event_name"], ev["turn_id"], ev["model"], ev["permission_mode"], ev["tool_use_id"] =
			"PreToolUse", "turn-1", codexModel, "bypassPermissions", "call_1"
	} else {
		ev["hook_event_name"], ev["timestamp"] = "BeforeTool", "2026-12-04T19:17:11.465Z"
	}
	for k, v := range extra {
		ev[k] = v
	}
	data, _ := json.Marshal(ev)
	return string(data)
}

// agentDecision runs the hook on the event and reads its answer as the
// agent reads it: "deny" with the reason, or "" for no answer. Whatever
// the input, the hook must exit 0, print nothing on standard error, and
// print nothing or one line of the agent's JSON.
func (w *hookWorld) agentDecision(agent, event string, flags ...string) (decision, reason string) {
	w.t.Helper()
	stdout, stderr, code := w.hook(event, append([]string{"--agent", agent}, flags...)...)
	if code != 0 || stderr != "" {
		w.t.Fatalf("hook exited %d, stderr %q; want 0 and nothing", code, stderr)
	}
	if stdout == "" {
		return "", ""
	}
	if strings.Count(stdout, "\n") != 1 {
		w.t.Fatalf("hook printed %q: not one line", stdout)
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if agent == agentGemini {
		var out struct{ Decision, Reason string }
		if err := dec.Decode(&out); err != nil {
			w.t.Fatalf("hook printed %q: not Gemini CLI's answer (%v)", stdout, err)
		}
		return out.Decision, out.Reason
	}
	var out hookOutput
	if err := dec.Decode(&out); err != nil || out.HookSpecificOutput.HookEventName != "PreToolUse" {
		w.t.Fatalf("hook printed %q: not Codex CLI's answer (%v)", stdout, err)
	}
	return out.HookSpecificOutput.PermissionDecision, out.HookSpecificOutput.PermissionDecisionReason
}

const agentPolicy = `{
  "permissions": {
    "allow": ["Bash(git status)", "Read(./**)", "Edit(./**)", "Glob", "Grep", "WebFetch(domain:example.com)", "mcp__files__read"],
    "deny": ["Bash(rm *)", "Read(./secret/**)", "Edit(./secret/**)", "WebFetch(domain:evil.example)"]
  }
}
`

// Every broken input and every failure on the way to a decision is a
// deny in the agent's format, exit 0: both agents run the call on any
// other way out. Each sits beside the well-formed event, which is
// allowed.
func TestAgentHookFailsClosed(t *testing.T) {
	for _, agent := range []string{agentCodex, agentGemini} {
		t.Run(agent, func(t *testing.T) {
			w := newHookWorld(t, `{}`)
			t.Chdir(w.project)
			policy := w.write(filepath.Join(t.TempDir(), "policy.json"), agentPolicy)
			good := agentEventJSON(agent, w.project, map[string]string{agentCodex: "Bash", agentGemini: "run_shell_command"}[agent],
				map[string]string{"command": "git status"}, nil)
			if d, r := w.agentDecision(agent, good, "--policy", policy); d != "" {
				t.Fatalf("the well-formed event: %s %q, want no answer", d, r)
			}
			var ev map[string]any
			_ = json.Unmarshal([]byte(good), &ev)
			with := func(key string, value any) string {
				c := map[string]any{}
				for k, v := range ev {
					c[k] = v
				}
				if value == nil {
					delete(c, key)
				} else {
					c[key] = value
				}
				data, _ := json.Marshal(c)
				return string(data)
			}
			unwritable := t.TempDir() // a directory: no journal can be appended to it
			for _, c := range []struct {
				name, event string
				flags       []string
				says        string
			}{
				{"no input", "", nil, "not one JSON object"},
				{"not JSON", "garbage", nil, "not one JSON object"},
				{"an array", "[1]", nil, "not one JSON object"},
				{"cut short", good[:len(good)/2], nil, "not one JSON object"},
				{"another event", with("hook_event_name", "PostToolUse"), nil, "not"},
				{"no tool", with("tool_name", nil), nil, "names no tool_name"},
				{"no cwd", with("cwd", nil), nil, "not an absolute path"},
				{"a relative cwd", with("cwd", "project"), nil, "not an absolute path"},
				{"input not an object", with("tool_input", "git status"), nil, "not a JSON object"},
				{"no input object", with("tool_input", nil), nil, "not a JSON object"},
				{"no command", with("tool_input", map[string]any{"cmd": "git status"}), nil, `no string "command"`},
				{"a broken policy", good, []string{"--policy", w.write(filepath.Join(t.TempDir(), "broken.json"), `{"permissions": {`)}, "cannot be read"},
				{"a policy that is a directory", good, []string{"--policy", t.TempDir()}, "cannot be read"},
				{"a missing policy", good, []string{"--policy", filepath.Join(t.TempDir(), "none.json")}, "cannot be read"},
				{"an unwritable journal", good, []string{"--policy", policy, "--journal", unwritable}, "could not be recorded"},
				{"an unwritable queue", agentEventJSON(agent, w.project, ev["tool_name"].(string), map[string]string{"command": "touch x"}, nil),
					[]string{"--policy", policy, "--unattended", unwritable}, "could not be queued"},
				{"a journal database URL that cannot be read", good, []string{"--policy", policy, "--journal", "postgres://%zz@/x"}, "cannot be opened"},
			} {
				d, reason := w.agentDecision(agent, c.event, c.flags...)
				if d != "deny" || !strings.HasPrefix(reason, "agentpolicy: ") || !strings.Contains(reason, c.says) {
					t.Errorf("%s: %s %q, want deny saying %q", c.name, d, reason, c.says)
				}
			}
		})
	}
}

// A panic on the way to the decision is a deny too.
func TestAgentHookPanicDenies(t *testing.T) {
	w := newHookWorld(t, `{}`)
	saved := decideAgent
	t.Cleanup(func() { decideAgent = saved })
	decideAgent = func(*hookFlags, context.Context, settingsFlags, string, agentEvent) hookAnswer { panic("boom") }
	for _, agent := range []string{agentCodex, agentGemini} {
		d, reason := w.agentDecision(agent, agentEventJSON(agent, w.project, "read_file", map[string]string{"file_path": "a"}, nil))
		if d != "deny" || !strings.Contains(reason, "the hook failed") || !strings.Contains(reason, "boom") {
			t.Errorf("%s: %s %q, want a deny naming the panic", agent, d, reason)
		}
	}
}

// Each agent's tools are decided as the policy's tools that do the same,
// on the paths, commands and URLs they act on: every call the policy
// denies or asks about beside its harmless twin, which it allows.
func TestAgentHookMapsTools(t *testing.T) {
	w := newHookWorld(t, agentPolicy)
	t.Chdir(w.project)
	if err := os.Mkdir(filepath.Join(w.project, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	// linked is the project itself, through a symbolic link.
	if err := os.Symlink(".", filepath.Join(w.project, "linked")); err != nil {
		t.Fatal(err)
	}
	patch := func(lines ...string) map[string]string {
		return map[string]string{"command": "*** Begin Patch\n" + strings.Join(lines, "\n") + "\n*** End Patch\n"}
	}
	mcp := func(server string) map[string]any {
		return map[string]any{"mcp_context": map[string]string{"server_name": server, "tool_name": "read"}}
	}
	for _, c := range []struct {
		agent, tool string
		input       any
		extra       map[string]any
		want        string // "deny", or "" for no answer
		says        string
	}{
		{agentCodex, "Bash", map[string]string{"command": "git status && rm -rf x"}, nil, "deny", "denied by Bash(rm *)"},
		{agentCodex, "Bash", map[string]string{"command": "git status"}, nil, "", ""},
		{agentCodex, "Bash", map[string]string{"command": "git status"}, map[string]any{"cwd": filepath.Join(w.project, "sub")}, "deny", "cannot ask through a hook"},
		{agentCodex, "apply_patch", patch("*** Add File: notes.txt", "+hi", "*** Update File: secret/key.txt", "@@", "-a", "+b"), nil, "deny", "(./secret/**)"},
		{agentCodex, "apply_patch", patch("*** Update File: notes.txt", "*** Move to: secret/notes.txt", "@@", "-a", "+b"), nil, "deny", "(./secret/**)"},
		{agentCodex, "apply_patch", patch("*** Delete File: ../outside.txt"), nil, "deny", "cannot ask through a hook"},
		{agentCodex, "apply_patch", patch("*** Add File: notes.txt", "+hi", "*** Update File: docs/a.md", "@@", "-a", "+b"), nil, "", ""},
		{agentCodex, "apply_patch", patch("*** Frobnicate File: secret/key.txt"), nil, "deny", "cannot read"},
		{agentCodex, "apply_patch", map[string]string{"command": "*** Add File: secret/key.txt\n+hi\n"}, nil, "deny", "Begin Patch"},
		{agentCodex, "view_image", map[string]string{"path": "secret/a.png"}, nil, "deny", "denied by Read(./secret/**)"},
		{agentCodex, "view_image", map[string]string{"path": "a.png"}, nil, "", ""},
		{agentCodex, "get_goal", map[string]string{}, nil, "", ""},
		{agentCodex, "spawn_agent", map[string]string{"message": "go"}, nil, "deny", "cannot ask through a hook"},
		{agentGemini, "write_todos", map[string]any{"todos": []any{}}, nil, "", ""},
		{agentGemini, "invoke_agent", map[string]string{"prompt": "go"}, nil, "deny", "cannot ask through a hook"},
		{agentCodex, "mcp__files__read", map[string]string{"path": "a"}, nil, "", ""},
		{agentCodex, "mcp__other__read", map[string]string{"path": "a"}, nil, "deny", "cannot ask through a hook"},
		{agentGemini, "run_shell_command", map[string]string{"command": "git status && rm -rf x"}, nil, "deny", "denied by Bash(rm *)"},
		{agentGemini, "run_shell_command", map[string]string{"command": "git status"}, nil, "", ""},
		{agentGemini, "run_shell_command", map[string]string{"command": "git status", "dir_path": "."}, nil, "", ""},
		{agentGemini, "run_shell_command", map[string]string{"command": "git status", "dir_path": "sub"}, nil, "deny", "cannot ask through a hook"},
		{agentGemini, "run_shell_command", map[string]string{"command": "git status", "dir_path": "linked"}, nil, "", ""},
		{agentGemini, "read_file", map[string]string{"file_path": "secret/key.txt"}, nil, "deny", "denied by Read(./secret/**)"},
		{agentGemini, "read_file", map[string]string{"file_path": filepath.Join(w.project, "notes.txt")}, nil, "", ""},
		{agentGemini, "write_file", map[string]string{"file_path": "secret/key.txt", "content": "x"}, nil, "deny", "(./secret/**)"},
		{agentGemini, "write_file", map[string]string{"file_path": "notes.txt", "content": "x"}, nil, "", ""},
		{agentGemini, "replace", map[string]string{"file_path": "secret/key.txt", "instruction": "i", "old_string": "a", "new_string": "b"}, nil, "deny", "(./secret/**)"},
		{agentGemini, "replace", map[string]string{"file_path": "notes.txt", "instruction": "i", "old_string": "a", "new_string": "b"}, nil, "", ""},
		{agentGemini, "glob", map[string]string{"pattern": "*.go"}, nil, "", ""},
		{agentGemini, "glob", map[string]string{"pattern": "*", "dir_path": "secret"}, nil, "deny", "denied by Read(./secret/**)"},
		{agentGemini, "grep_search", map[string]string{"pattern": "key", "dir_path": "secret"}, nil, "deny", "denied by Read(./secret/**)"},
		{agentGemini, "list_directory", map[string]string{"dir_path": "secret"}, nil, "deny", "denied by Read(./secret/**)"},
		{agentGemini, "list_directory", map[string]string{"dir_path": "sub"}, nil, "", ""},
		{agentGemini, "grep_search", map[string]string{"pattern": "TODO"}, nil, "", ""},
		{agentGemini, "web_fetch", map[string]string{"prompt": "compare https://example.com/a with\thttps://evil.example/b please"}, nil, "deny", "denied by WebFetch(domain:evil.example)"},
		{agentGemini, "web_fetch", map[string]string{"prompt": "summarize https://example.com/a"}, nil, "", ""},
		{agentGemini, "web_fetch", map[string]string{"prompt": "summarize example.com"}, nil, "deny", "names no http or https URL"},
		{agentGemini, "read", map[string]string{"path": "a"}, mcp("files"), "", ""},
		{agentGemini, "read", map[string]string{"path": "a"}, mcp("other"), "deny", "cannot ask through a hook"},
		{agentGemini, "read", map[string]string{"path": "a"}, map[string]any{"mcp_context": map[string]string{"server": "files"}}, "deny", "names no server and tool"},
	} {
		d, reason := w.agentDecision(c.agent, agentEventJSON(c.agent, w.project, c.tool, c.input, c.extra))
		if d != c.want || !strings.Contains(reason, c.says) {
			t.Errorf("%s %s %v %v: %s %q, want %q saying %q", c.agent, c.tool, c.input, c.extra, d, reason, c.want, c.says)
		}
	}
}

// The event tells whose it is; --agent overrides it.
func TestDetectAgent(t *testing.T) {
	for _, c := range []struct{ event, want string }{
		{`{"hook_event_name":"BeforeTool","tool_name":"read_file"}`, agentGemini},
		{`{"hook_event_name":"PreToolUse","turn_id":"t","tool_name":"Bash"}`, agentCodex},
		{`{"hook_event_name":"PreToolUse","tool_name":"Bash"}`, agentClaude},
		{`garbage`, agentClaude},
	} {
		if got := detectAgent([]byte(c.event)); got != c.want {
			t.Errorf("detectAgent(%s) = %s, want %s", c.event, got, c.want)
		}
	}
}

func TestPromptURLs(t *testing.T) {
	got := promptURLs("see HTTPS://a.example/x, and http://b.example\nthen https://a.example/x, not httpx://c or http:/d")
	want := []string{"HTTPS://a.example/x,", "http://b.example", "https://a.example/x,"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("promptURLs = %q, want %q", got, want)
	}
}
