package claude

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// post sends one Messages API request to the stand-in and returns the body.
func post(t *testing.T, s *standIn, path string, req map[string]any) string {
	t.Helper()
	body, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(s.url()+path, "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func userText(text string) map[string]any {
	return map[string]any{"role": "user", "content": text}
}

func toolResultMessage(id, text string, isError bool) map[string]any {
	return map[string]any{"role": "user", "content": []any{map[string]any{
		"type": "tool_result", "tool_use_id": id, "is_error": isError,
		"content": []any{map[string]any{"type": "text", "text": text}},
	}}}
}

func TestStandInScriptsTheSessionsConversation(t *testing.T) {
	calls := []ToolCall{
		{Name: "Bash", Input: map[string]any{"command": "echo hi"}},
		{Name: "Read", Input: map[string]any{"file_path": "/p/a.txt"}},
	}
	s, err := startStandIn(calls, prompt)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	tools := []any{map[string]any{"name": "Bash"}}

	first := post(t, s, "/v1/messages", map[string]any{"stream": true, "tools": tools, "messages": []any{userText(prompt)}})
	for _, want := range []string{
		"event: message_start", `"type":"tool_use"`, `"id":"toolu_agentpolicy_00"`, `"name":"Bash"`,
		`"partial_json":"{\"command\":\"echo hi\"}"`, `"stop_reason":"tool_use"`, "event: message_stop",
	} {
		if !strings.Contains(first, want) {
			t.Errorf("first answer lacks %s:\n%s", want, first)
		}
	}

	second := post(t, s, "/v1/messages", map[string]any{"stream": true, "tools": tools, "messages": []any{
		userText(prompt), map[string]any{"role": "assistant", "content": "…"}, toolResultMessage(callID(0), "hi", false),
	}})
	if !strings.Contains(second, `"name":"Read"`) || !strings.Contains(second, `"id":"toolu_agentpolicy_01"`) {
		t.Errorf("second answer is not the second call:\n%s", second)
	}

	last := post(t, s, "/v1/messages", map[string]any{"stream": false, "tools": tools, "messages": []any{
		userText(prompt), toolResultMessage(callID(0), "hi", false), toolResultMessage(callID(1), "denied", true),
	}})
	if !strings.Contains(last, `"stop_reason":"end_turn"`) || strings.Contains(last, "tool_use\"") {
		t.Errorf("after every call the answer is not final text:\n%s", last)
	}
	if r, ok := s.result(1); !ok || r.Text != "denied" || !r.IsError {
		t.Errorf("result(1) = %+v, %v; want the error result Claude Code sent", r, ok)
	}
}

func TestStandInAnswersOtherRequestsWithText(t *testing.T) {
	s, err := startStandIn([]ToolCall{{Name: "Bash", Input: map[string]any{"command": "echo hi"}}}, prompt)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	for name, req := range map[string]map[string]any{
		"a title request, without tools": {"stream": true, "messages": []any{userText(prompt)}},
		"a subagent's conversation":      {"stream": true, "tools": []any{map[string]any{"name": "Bash"}}, "messages": []any{userText("say ok")}},
	} {
		if got := post(t, s, "/v1/messages", req); strings.Contains(got, "tool_use") || !strings.Contains(got, `"text":"ok"`) {
			t.Errorf("%s: answered %s", name, got)
		}
	}
	if got := post(t, s, "/v1/messages/count_tokens", map[string]any{}); !strings.Contains(got, `"input_tokens":1`) {
		t.Errorf("count_tokens answered %s", got)
	}
	if _, ok := s.result(0); ok {
		t.Error("a result was kept though none was sent")
	}
}

func TestDecision(t *testing.T) {
	for _, c := range []struct {
		text    string
		refused bool
		isError bool
		want    string
	}{
		{"hi", false, false, Allow},
		{"exit code 1", false, true, Allow},
		{"Permission to use Bash with command touch x has been denied.", true, true, Deny},
		{"Permission to use Bash has been denied because Claude Code is running in don't ask mode.", true, true, Deny},
		{"<tool_use_error>File is in a directory that is denied by your permission settings.</tool_use_error>", true, true, Deny},
		{"Skill execution blocked by permission rules", true, true, Deny},
		{"A permission rule denies a command inside this shell -c script, so Claude Code could not check it for dangerous removals. Approving runs the whole script, including that command.", true, true, Ask},
		{"WebFetch denied access to domain:example.com.", true, true, Deny},
		{"PreToolUse:Bash hook error: blocked by policy", true, true, Deny},
		{"Agent type 'x' has been denied by permission rule 'Agent(x)' from projectSettings.", false, true, Deny},
		{"Claude requested permissions to use Bash, but you haven't granted it yet.", true, true, Ask},
		{"touch in '/p/x' needs approval.", true, true, Ask},
		{"Cannot write to /p/x while in plan mode.", true, true, Ask},
		{"<tool_use_error>Error: No such tool available: mcp__s__t</tool_use_error>", false, true, Unavailable},
	} {
		if got := decision(toolResult{Text: c.text, IsError: c.isError}, c.refused); got != c.want {
			t.Errorf("decision(%q, refused %v) = %s, want %s", c.text, c.refused, got, c.want)
		}
	}
}

func TestTrustProjectKeepsTheRestOfTheFile(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, ".claude.json")
	if err := os.WriteFile(path, []byte(`{"numStartups":3,"projects":{"/other":{"allowedTools":[]}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := TrustProject(home, "/p"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		NumStartups int                       `json:"numStartups"`
		Projects    map[string]map[string]any `json:"projects"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got.NumStartups != 3 || got.Projects["/other"] == nil || got.Projects["/p"]["hasTrustDialogAccepted"] != true {
		t.Errorf("after TrustProject the file is %s", data)
	}
}

func TestBinaryNamesTheInstallCommand(t *testing.T) {
	t.Setenv("AGENTPOLICY_CLAUDE", filepath.Join(t.TempDir(), "missing"))
	_, err := Binary()
	if !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), "npm ci") {
		t.Errorf("Binary() error = %v; want ErrNotInstalled naming npm ci", err)
	}
}
