package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy/guard"
	"github.com/ChristopherDavenport/agentpolicy/internal/secret/secrettest"
	"github.com/ChristopherDavenport/agentpolicy/journal"
	"github.com/ChristopherDavenport/openresponses"
)

// hookWorld is a scratch project, trusted in a scratch home's
// .claude.json as Claude Code records it, with no managed settings: what
// a hook reads, and nothing of the machine the test runs on.
type hookWorld struct {
	t       *testing.T
	project string
	home    string
	managed string
}

func newHookWorld(t *testing.T, projectSettings string) *hookWorld {
	t.Helper()
	root := t.TempDir()
	w := &hookWorld{t: t, project: filepath.Join(root, "project"), home: filepath.Join(root, "home"), managed: filepath.Join(root, "managed")}
	for _, d := range []string{filepath.Join(w.project, ".claude"), w.home, w.managed} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", w.home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	w.write(filepath.Join(w.project, ".claude", "settings.json"), projectSettings)
	w.trust(true)
	return w
}

func (w *hookWorld) write(path, content string) string {
	w.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
	return path
}

// trust records the user's answer to the trust dialog for the project.
func (w *hookWorld) trust(accepted bool) {
	state, _ := json.Marshal(map[string]any{"projects": map[string]any{w.project: map[string]bool{"hasTrustDialogAccepted": accepted}}})
	w.write(filepath.Join(w.home, ".claude.json"), string(state))
}

// event is a PreToolUse event in the shape Claude Code 2.1.328 sends,
// recorded in testdata/hook/pretooluse.json, for a call in the project.
func (w *hookWorld) event(tool string, input any) string {
	return w.eventIn("default", tool, input)
}

func (w *hookWorld) eventIn(mode, tool string, input any) string {
	w.t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "hook", "pretooluse.json"))
	if err != nil {
		w.t.Fatal(err)
	}
	var ev map[string]any
	if err := json.Unmarshal(data, &ev); err != nil {
		w.t.Fatal(err)
	}
	ev["cwd"], ev["permission_mode"], ev["tool_name"], ev["tool_input"] = w.project, mode, tool, input
	out, _ := json.Marshal(ev)
	return string(out)
}

// hook runs agentpolicy hook with the event on standard input.
func (w *hookWorld) hook(event string, flags ...string) (stdout, stderr string, code int) {
	w.t.Helper()
	var out, errb bytes.Buffer
	args := append([]string{"hook", "--managed-dir", w.managed}, flags...)
	code = run(context.Background(), args, strings.NewReader(event), &out, &errb)
	return out.String(), errb.String(), code
}

// hookOutput is what the hook printed, read as Claude Code reads it.
type hookOutput struct {
	HookSpecificOutput struct {
		HookEventName            string `json:"hookEventName"`
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
	} `json:"hookSpecificOutput"`
}

// decision runs the hook and returns its decision and reason: "" for no
// decision, which must print nothing. The hook must exit 0 and say
// nothing on standard error.
func (w *hookWorld) decision(event string, flags ...string) (decision, reason string) {
	w.t.Helper()
	stdout, stderr, code := w.hook(event, flags...)
	if code != 0 || stderr != "" {
		w.t.Fatalf("hook exited %d, stderr %q; want 0 and nothing", code, stderr)
	}
	if stdout == "" {
		return "", ""
	}
	var out hookOutput
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil || strings.Count(stdout, "\n") != 1 {
		w.t.Fatalf("hook printed %q: not one line of hookSpecificOutput (%v)", stdout, err)
	}
	if out.HookSpecificOutput.HookEventName != "PreToolUse" {
		w.t.Fatalf("hook answered for %q", out.HookSpecificOutput.HookEventName)
	}
	return out.HookSpecificOutput.PermissionDecision, out.HookSpecificOutput.PermissionDecisionReason
}

const teamPolicy = `{
  "permissions": {
    "deny": [
      "Bash(git push *)"
    ]
  }
}
`

func TestHookDecides(t *testing.T) {
	w := newHookWorld(t, `{"permissions": {"allow": ["Bash(git *)", "Bash(echo *)"], "ask": ["Bash(git tag *)"]}}`)
	policy := w.write(filepath.Join(t.TempDir(), "team.json"), teamPolicy)
	cases := []struct {
		name, command string
		flags         []string
		want          string
		reason        []string // what the reason must say
	}{
		{"allowed: left to Claude Code", "git status", nil, "", nil},
		{"allowed, under --allow", "git status", []string{"--allow"}, "allow", []string{"allowed by Bash(git *) [project settings, "}},
		{"denied by a policy rule", "git push origin main", []string{"--policy", policy}, "deny", []string{"denied by Bash(git push *) [policy settings, " + policy + "]"}},
		{"the same call without the policy", "git push origin main", nil, "", nil},
		{"denied in a compound command", "git status && git push origin main", []string{"--policy", policy}, "deny", []string{`on "git push origin main"; nothing in this command ran`}},
		{"asked by an ask rule", "git tag v1", nil, "ask", []string{"approval required by Bash(git tag *) [project settings, "}},
		{"asked by default", "make", []string{"--allow"}, "ask", []string{"no rule allows Bash: approval required by default"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, reason := w.decision(w.event("Bash", map[string]string{"command": c.command}), c.flags...)
			if got != c.want {
				t.Fatalf("%s: decision %q (%s), want %q", c.command, got, reason, c.want)
			}
			for _, want := range c.reason {
				if !strings.HasPrefix(reason, "agentpolicy: ") || !strings.Contains(reason, want) {
					t.Errorf("%s: reason %q, want it to say %q", c.command, reason, want)
				}
			}
		})
	}
}

// The project's allow rules count once Claude Code records the project as
// trusted, as they do for Claude Code.
func TestHookTrust(t *testing.T) {
	w := newHookWorld(t, `{"permissions": {"allow": ["Bash(touch *)"]}}`)
	ev := w.event("Bash", map[string]string{"command": "touch notes.txt"})
	if got, reason := w.decision(ev, "--allow"); got != "allow" {
		t.Fatalf("trusted: %q (%s), want allow", got, reason)
	}
	w.trust(false)
	if got, reason := w.decision(ev, "--allow"); got != "ask" {
		t.Errorf("untrusted: %q (%s), want ask: an untrusted project's allow rules wait", got, reason)
	}
}

// The session's mode, from the event, is the mode decided in.
func TestHookMode(t *testing.T) {
	w := newHookWorld(t, `{}`)
	for mode, want := range map[string]string{"default": "ask", "dontAsk": "deny", "bypassPermissions": "", "acceptEdits": "ask"} {
		if got, reason := w.decision(w.eventIn(mode, "Bash", map[string]string{"command": "make"})); got != want {
			t.Errorf("%s: %q (%s), want %q", mode, got, reason, want)
		}
	}
	edit := map[string]string{"file_path": filepath.Join(w.project, "a.txt"), "old_string": "a", "new_string": "b"}
	if got, reason := w.decision(w.eventIn("acceptEdits", "Edit", edit)); got != "" {
		t.Errorf("acceptEdits: an edit in the project is %q (%s), want it left to Claude Code", got, reason)
	}
}

// A secret in the tool's input is denied with its kind named, found as the
// tool reads the input (a JSON escape hides nothing), and it appears
// neither in the reason nor in the journal. Its harmless twin runs.
func TestHookSecrets(t *testing.T) {
	w := newHookWorld(t, `{"permissions": {"allow": ["Bash(echo *)", "Edit(**)"]}}`)
	jnl := filepath.Join(t.TempDir(), "journal.jsonl")
	key := "AKIA" + "IOSFODNN7Q3RZKXW" // AWS's example key is a placeholder, by its word
	cases := []struct {
		name, event string
	}{
		{"in a command", w.event("Bash", map[string]string{"command": "echo " + key + " > creds.txt"})},
		{"behind a JSON escape", strings.Replace(w.event("Bash", map[string]string{"command": "echo " + key + " > creds.txt"}), "AKIA", `\u0041KIA`, 1)},
		{"in a file's content", w.event("Write", map[string]string{"file_path": filepath.Join(w.project, "creds.txt"), "content": "aws_access_key_id = " + key + "\n"})},
	}
	for _, c := range cases {
		got, reason := w.decision(c.event, "--journal", jnl)
		if got != "deny" || !strings.Contains(reason, "secret detected: aws_access_key") {
			t.Errorf("%s: %q (%s), want deny naming aws_access_key", c.name, got, reason)
		}
		if strings.Contains(reason, key) {
			t.Errorf("%s: the reason quotes the key: %s", c.name, reason)
		}
	}
	twin := w.event("Bash", map[string]string{"command": "echo AKIA-is-how-keys-begin > notes.txt"})
	if got, reason := w.decision(twin, "--allow", "--journal", jnl); got != "allow" {
		t.Errorf("harmless twin: %q (%s), want allow", got, reason)
	}
	data, err := os.ReadFile(jnl)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(key)) || bytes.Contains(data, []byte("IOSFODNN7EXAMPLE")) {
		t.Errorf("the journal holds the key:\n%s", data)
	}
	if n := bytes.Count(data, []byte("[REDACTED aws_access_key]")); n != 3 {
		t.Errorf("the journal holds %d redacted keys, want 3:\n%s", n, data)
	}
}

// Every decision is journaled with the session, the call and the input
// before the answer; a journal that cannot be written denies every call,
// the ones the policy allows above all.
func TestHookJournal(t *testing.T) {
	w := newHookWorld(t, `{"permissions": {"allow": ["Bash(echo *)"], "deny": ["Bash(rm *)"]}}`)
	jnl := filepath.Join(t.TempDir(), "journal.jsonl")
	for _, command := range []string{"echo one", "rm -f two", "make three"} {
		w.decision(w.event("Bash", map[string]string{"command": command}), "--journal", jnl)
	}
	vs, err := journal.Verdicts(jnl)
	if err != nil {
		t.Fatal(err)
	}
	var recorded map[string]any
	if err := json.Unmarshal([]byte(w.event("Bash", nil)), &recorded); err != nil {
		t.Fatal(err)
	}
	want := []struct{ action, command string }{{"allow", "echo one"}, {"block", "rm -f two"}, {"defer", "make three"}}
	if len(vs) != len(want) {
		t.Fatalf("the journal holds %d verdicts, want %d", len(vs), len(want))
	}
	for i, v := range vs {
		_, rec := v.Record()
		if v.RunID != recorded["session_id"] || v.CallID != recorded["tool_use_id"] || v.Tool != "Bash" ||
			!strings.Contains(string(rec), `"action":"`+want[i].action+`"`) || !strings.Contains(v.Args, want[i].command) {
			t.Errorf("verdict %d = %s, want %s of %q in the session and call of the event", i, rec, want[i].action, want[i].command)
		}
	}
	// A journal that cannot be opened: its path is a directory.
	broken := t.TempDir()
	got, reason := w.decision(w.event("Bash", map[string]string{"command": "echo one"}), "--allow", "--journal", broken)
	if got != "deny" || !strings.Contains(reason, "could not be recorded") || !strings.Contains(reason, broken) {
		t.Errorf("unwritable journal: %q (%s), want deny saying the decision could not be recorded in %s", got, reason, broken)
	}
}

// Whatever keeps the hook from reading the policy meant denies every
// call, with a reason that names the file and the line.
func TestHookFailsClosed(t *testing.T) {
	w := newHookWorld(t, `{"permissions": {"allow": ["Bash(echo *)"]}}`)
	ev := w.event("Bash", map[string]string{"command": "echo hi"})
	dir := t.TempDir()
	badRule := w.write(filepath.Join(dir, "bad-rule.json"), "{\n  \"permissions\": {\n    \"deny\": [\n      \"Bash(git push *)\",\n      \"Bash(\"\n    ]\n  }\n}\n")
	notJSON := w.write(filepath.Join(dir, "not-json.json"), "{\n  \"permissions\": {\n    \"deny\": [\"Bash(rm *)\",]\n  }\n}\n")
	cases := []struct {
		name  string
		flags []string
		says  string
	}{
		{"a policy rule that does not parse", []string{"--policy", badRule}, badRule + ":5:"},
		{"a policy file that is not JSON", []string{"--policy", notJSON}, notJSON + ":3:"},
		{"a policy file that is missing", []string{"--policy", filepath.Join(dir, "missing.json")}, filepath.Join(dir, "missing.json")},
		{"a journal that cannot be opened", []string{"--journal", filepath.Join(dir, "no", "such", "dir", "j.jsonl")}, filepath.Join(dir, "no", "such", "dir", "j.jsonl")},
		{"a queue that cannot be opened", []string{"--unattended", dir}, dir},
	}
	for _, c := range cases {
		event := ev
		if c.name == "a queue that cannot be opened" {
			event = w.event("Bash", map[string]string{"command": "make"})
		}
		got, reason := w.decision(event, append([]string{"--allow"}, c.flags...)...)
		if got != "deny" || !strings.Contains(reason, c.says) {
			t.Errorf("%s: %q (%s), want deny naming %s", c.name, got, reason, c.says)
		}
	}
	// A settings file of Claude Code's own that is not JSON.
	w.write(filepath.Join(w.project, ".claude", "settings.local.json"), "{\n  \"permissions\": {\n    \"allow\": [\"Bash(echo *)\"\n}\n")
	got, reason := w.decision(ev, "--allow")
	if local := filepath.Join(w.project, ".claude", "settings.local.json") + ":4:"; got != "deny" || !strings.Contains(reason, local) {
		t.Errorf("a local settings file that is not JSON: %q (%s), want deny naming %s", got, reason, local)
	}
}

// Input that is not one PreToolUse event exits 2 with one line on
// standard error and nothing on standard output, which Claude Code reads
// as a block with that line.
func TestHookBadInput(t *testing.T) {
	w := newHookWorld(t, `{}`)
	good := w.event("Bash", map[string]string{"command": "make"})
	cases := map[string]string{
		"nothing":            "",
		"white space":        " \n",
		"not JSON":           "Bash echo hi",
		"two objects":        good + good,
		"an array":           "[" + good + "]",
		"null":               "null",
		"a string":           `"PreToolUse"`,
		"cut short":          good[:len(good)-1],
		"another event":      strings.Replace(good, `"PreToolUse"`, `"PostToolUse"`, 1),
		"no tool":            strings.Replace(good, `"tool_name":"Bash"`, `"tool_name":""`, 1),
		"no cwd":             strings.Replace(good, `"cwd":"`+w.project+`"`, `"cwd":""`, 1),
		"input not object":   strings.Replace(good, `"tool_input":{"command":"make"}`, `"tool_input":"make"`, 1),
		"input missing":      strings.Replace(good, `"tool_input":{"command":"make"},`, ``, 1),
		"a member mistyped":  strings.Replace(good, `"tool_name":"Bash"`, `"tool_name":7`, 1),
		"trailing garbage":   good + " x",
		"a line of each":     good + "\n" + good + "\n",
		"input is an array":  strings.Replace(good, `"tool_input":{"command":"make"}`, `"tool_input":[]`, 1),
		"input is null":      strings.Replace(good, `"tool_input":{"command":"make"}`, `"tool_input":null`, 1),
		"event name missing": strings.Replace(good, `"hook_event_name":"PreToolUse",`, ``, 1),
	}
	for name, input := range cases {
		if name != "nothing" && name != "white space" && name != "not JSON" && name != "a string" && name != "null" && input == good {
			t.Fatalf("%s: the case did not change the event", name)
		}
		stdout, stderr, code := w.hook(input)
		if code != exitInput || stdout != "" || !strings.HasPrefix(stderr, "agentpolicy: hook: ") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and one line on stderr", name, code, stdout, stderr)
		}
	}
	// Members Claude Code adds later are read past.
	extra := strings.Replace(good, `{`, `{"a_member_of_2027":{"x":[1]},`, 1)
	if got, reason := w.decision(extra, "--allow"); got != "ask" {
		t.Errorf("an event with an unknown member: %q (%s), want the call decided", got, reason)
	}
}

// Under --unattended an asked call is denied with the queued text and
// queued; once a person approves it with agentpolicy queue approve, the
// same call passes. A denied call is never queued.
func TestHookUnattended(t *testing.T) {
	w := newHookWorld(t, `{"permissions": {"deny": ["Bash(rm *)"]}}`)
	queue := filepath.Join(t.TempDir(), "queue.jsonl")
	touch := w.event("Bash", map[string]string{"command": "touch made-by-the-agent.txt"})
	got, reason := w.decision(touch, "--unattended", queue)
	if got != "deny" || !strings.Contains(reason, "queued for a person to review; it did not run") || !strings.Contains(reason, queue) {
		t.Fatalf("unattended ask: %q (%s), want deny saying it was queued in %s", got, reason, queue)
	}
	if got, _ := w.decision(w.event("Bash", map[string]string{"command": "rm -f x"}), "--unattended", queue); got != "deny" {
		t.Fatalf("a denied call: %q, want deny", got)
	}
	stdout, _, code := cli(t, "queue", "list", queue)
	if code != 0 || strings.Count(stdout, "waiting") != 1 || !strings.Contains(stdout, "touch made-by-the-agent.txt") {
		t.Fatalf("queue list: exit %d\n%s\nwant the touch call alone, waiting", code, stdout)
	}
	if stdout, stderr, code := cli(t, "queue", "approve", "--project", w.project, "--managed-dir", w.managed, "--trust", queue, "1"); code != 0 {
		t.Fatalf("queue approve: exit %d, %s%s", code, stdout, stderr)
	}
	if got, reason := w.decision(touch, "--unattended", queue, "--allow"); got != "allow" {
		t.Errorf("after the approval: %q (%s), want allow", got, reason)
	}
}

// A tool Claude Code runs without asking is not asked about by the
// hook's default, only by a rule; a tool that does prompt still is.
func TestHookUnprompted(t *testing.T) {
	w := newHookWorld(t, `{"permissions": {"ask": ["AskUserQuestion"]}}`)
	todo := map[string]any{"todos": []map[string]string{{"content": "write the hook", "status": "pending", "activeForm": "Writing the hook"}}}
	for _, c := range []struct {
		tool  string
		input any
		want  string
	}{
		{"TodoWrite", todo, ""},
		{"Agent", map[string]string{"description": "look", "prompt": "list the files", "subagent_type": "general-purpose"}, ""},
		{"AskUserQuestion", map[string]any{"questions": []any{}}, "ask"},
		{"WebSearch", map[string]string{"query": "agentpolicy"}, "ask"},
		{"ExitPlanMode", map[string]string{"plan": "p"}, "ask"},
	} {
		if got, reason := w.decision(w.event(c.tool, c.input)); got != c.want {
			t.Errorf("%s: %q (%s), want %q", c.tool, got, reason, c.want)
		}
	}
}

// The hook finds and redacts secrets without package guard, whose
// DefaultSecrets would be compiled at every start, and must read a tool's
// input as guard.Secrets and guard.Redact do: the same kind named, the
// same input written to the journal. Each default kind's tokens and near
// misses are tried as they are, behind a JSON escape, nested in a value
// that is JSON itself, and in input that is not JSON. The guards are given
// guard.DefaultSecrets, compiled, so that they do not share the finder the
// hook reads with, which compiles each kind from its source.
func TestHookReadsSecretsAsTheGuardsDo(t *testing.T) {
	ctx := context.Background()
	secrets, redact := guard.Secrets(guard.DefaultSecrets...), guard.Redact(guard.DefaultSecrets...)
	forms := map[string]func(token string) string{
		"value": func(s string) string { return `{"command":"echo ` + jsonContent(s) + ` > out"}` },
		"escaped": func(s string) string {
			return `{"content":"` + `\u00` + strconv.FormatInt(int64(s[0]), 16) + jsonContent(s[1:]) + `"}`
		},
		"nested": func(s string) string { return `{"arguments":` + jsonString(`{"k":`+jsonString(s)+`}`) + `}` },
		"raw":    func(s string) string { return "not json " + s },
	}
	var tokens []string
	for _, tc := range secrettest.Cases {
		tokens = append(tokens, tc.Secrets...)
		tokens = append(tokens, tc.Misses...)
		tokens = append(tokens, placeholder(tc.Secrets[0]))
	}
	found := 0
	for _, token := range tokens {
		for name, form := range forms {
			input := json.RawMessage(form(token))
			items := openresponses.Items{&openresponses.FunctionCall{Arguments: string(input)}}
			v, err := secrets.Check(ctx, guard.Input{Items: items})
			if err != nil {
				t.Fatal(err)
			}
			if got := secretIn(input); got != v.Reason {
				t.Errorf("%s %.30q: the hook reads %q, guard.Secrets %q", name, token, got, v.Reason)
			}
			if v.Reason == "" {
				continue
			}
			found++
			v, err = redact.Check(ctx, guard.Input{Items: items})
			if err != nil {
				t.Fatal(err)
			}
			if want := v.Items[0].(*openresponses.FunctionCall).Arguments; redacted(input) != want {
				t.Errorf("%s %.30q: the hook redacts to %s, guard.Redact to %s", name, token, redacted(input), want)
			}
		}
	}
	if found < len(secrettest.Cases)*len(forms) {
		t.Errorf("the guards found %d secrets, want one per kind and form at least", found)
	}
}

// placeholder is token with its letters and digits after the fourth byte
// written as x, the token a README shows, which the default kinds pass
// over by its entropy.
func placeholder(token string) string {
	b := []byte(token)
	for i := 4; i < len(b); i++ {
		if c := b[i]; 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			b[i] = 'x'
		}
	}
	return string(b)
}

// jsonString is s as a JSON string.
func jsonString(s string) string {
	data, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(data)
}

// jsonContent is s as the content of a JSON string, without its quotes.
func jsonContent(s string) string {
	q := jsonString(s)
	return q[1 : len(q)-1]
}
