package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/classify"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// The program's run, offline: the policy allows the status, asks about the
// pushes, and the reviewer approves the feature branch and refuses main.
func TestRunOffline(t *testing.T) {
	var out strings.Builder
	if err := run(context.Background(), &out, keywordJudge{}, "judge"); err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"allow  by policy  allowed by bash(git status:*)",
		"ask    by policy  approval required by bash(git push:*)",
		"allow  by agent   approved by reviewer: a push of a feature branch",
		"ask    by policy  approval required by bash(git push:*)",
		"block  by agent   denied by reviewer: a force push to main rewrites shared history",
		"the run ended done: Pushed the feature branch; main was left alone.",
	}, "\n") + "\n"
	if out.String() != want {
		t.Fatalf("the program wrote\n%s\nwant\n%s", out.String(), want)
	}
}

// The server adapter sends the reviewer's request as JSON, with the key,
// and reads the answer from the server's response.
func TestServerAnswersAReview(t *testing.T) {
	var got map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/responses" || r.Method != http.MethodPost || r.Header.Get("Authorization") != "Bearer key-1" {
			http.Error(w, "wrong request: "+r.Method+" "+r.URL.Path, http.StatusBadRequest)
			return
		}
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &got); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		_, _ = io.WriteString(w, `{"id": "resp_1", "object": "response", "status": "completed", "model": "gpt-test",
			"tool_choice": "auto", "tools": [], "text": {"format": {"type": "json_schema", "name": "verdict"}},
			"output": [{"type": "message", "role": "assistant", "status": "completed",
				"content": [{"type": "output_text", "text": "{\"allow\": true, \"reason\": \"a feature branch\"}", "annotations": []}]}]}`)
	}))
	defer srv.Close()

	reviewer := classify.NewReviewer(server{url: srv.URL + "/v1/", apiKey: "key-1", client: srv.Client()}, "gpt-test", rubric)
	call := &openresponses.FunctionCall{CallID: "call_1", Name: "bash", Arguments: `{"command":"git push origin feature"}`}
	review, err := reviewer.Review(context.Background(), agentturn.ToolCallInfo{Call: call, Args: json.RawMessage(call.Arguments)}, agentpolicy.Verdict{})
	if err != nil {
		t.Fatal(err)
	}
	if review.Outcome != agentpolicy.Approved || review.Reason != "a feature branch" {
		t.Fatalf("Review = %+v", review)
	}
	if got["model"] != "gpt-test" || got["store"] != false || got["stream"] != nil {
		t.Fatalf("the server received %v", got)
	}
	if format := got["text"].(map[string]any)["format"].(map[string]any); format["name"] != "verdict" || format["type"] != "json_schema" {
		t.Fatalf("the server received the format %v", format)
	}
}

func TestServerErrors(t *testing.T) {
	cases := []struct {
		name   string
		status int
		body   string
		want   string
	}{
		{"an HTTP error", http.StatusServiceUnavailable, "overloaded\n", "503 Service Unavailable: overloaded"},
		{"an error payload", http.StatusOK, `{"id": "resp_1", "status": "failed", "output": [], "error": {"code": "server_error", "message": "the model crashed"}}`, "openresponses: server_error: the model crashed"},
		{"not JSON", http.StatusOK, "<html>", "the server's response: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(c.status)
				_, _ = io.WriteString(w, c.body)
			}))
			defer srv.Close()
			err := server{url: srv.URL, client: srv.Client()}.CreateStream(context.Background(), openresponses.Request{}, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want it to say %q", err, c.want)
			}
		})
	}
}
