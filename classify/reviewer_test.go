package classify

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	or "github.com/ChristopherDavenport/openresponses"
)

// callInfo is a call of the tool name with args as the hook sees it; tool
// is the resolved tool, nil for an unknown one.
func callInfo(name, args string, tool agenttool.Tool) agentturn.ToolCallInfo {
	call := &or.FunctionCall{CallID: "call_1", Name: name, Arguments: args}
	return agentturn.ToolCallInfo{RunID: "run_1", Turn: 1, Call: call, Tool: tool, Args: json.RawMessage(args), Batch: []*or.FunctionCall{call}}
}

// verdict is the verdict that deferred a call, with reason.
func verdict(reason string) agentpolicy.Verdict {
	return agentpolicy.Verdict{RunID: "run_1", Turn: 1, CallID: "call_1", Tool: "bash", Action: agentturn.Defer, Reason: reason, By: agentpolicy.ByPolicy}
}

func bashTool(description string) agenttool.Tool {
	return agenttool.NewFunc("bash", description, json.RawMessage(`{"type":"object"}`),
		func(context.Context, agenttool.Call) (agenttool.Result, error) { return agenttool.Text("ran"), nil })
}

func TestReviewerRendersTheCall(t *testing.T) {
	cases := []struct {
		name string
		info agentturn.ToolCallInfo
		v    agentpolicy.Verdict
		want string
	}{
		{
			name: "tool, description, arguments and the policy's reason",
			info: callInfo("bash", `{"command":"git push origin main"}`, bashTool("Run a shell command.")),
			v:    verdict("approval required by bash(git push:*)"),
			want: "tool: bash\ndescription: Run a shell command.\narguments: {\"command\":\"git push origin main\"}\npolicy: approval required by bash(git push:*)\n",
		},
		{
			name: "a tool without a description",
			info: callInfo("bash", `{"command":"ls"}`, bashTool("")),
			v:    verdict("no rule allows bash: approval required by default"),
			want: "tool: bash\narguments: {\"command\":\"ls\"}\npolicy: no rule allows bash: approval required by default\n",
		},
		{
			name: "an unknown tool and a verdict without a reason",
			info: callInfo("fetch", `{"url":"https://example.com"}`, nil),
			v:    agentpolicy.Verdict{Action: agentturn.Defer},
			want: "tool: fetch\narguments: {\"url\":\"https://example.com\"}\n",
		},
		{
			name: "the arguments the call runs with, not the model's",
			info: func() agentturn.ToolCallInfo {
				info := callInfo("bash", `{"command":"ls"}`, nil)
				info.Args = json.RawMessage(`{"command":"ls -la"}`)
				return info
			}(),
			v:    verdict(""),
			want: "tool: bash\narguments: {\"command\":\"ls -la\"}\n",
		},
		{
			name: "the call's arguments when the info carries none",
			info: func() agentturn.ToolCallInfo {
				info := callInfo("bash", `{"command":"ls"}`, nil)
				info.Args = nil
				return info
			}(),
			v:    verdict(""),
			want: "tool: bash\narguments: {\"command\":\"ls\"}\n",
		},
		{
			name: "the tool's name when the call is missing",
			info: agentturn.ToolCallInfo{Tool: bashTool("Run a shell command."), Args: json.RawMessage(`{}`)},
			v:    verdict(""),
			want: "tool: bash\ndescription: Run a shell command.\narguments: {}\n",
		},
		{
			name: "neither a call nor a tool",
			info: agentturn.ToolCallInfo{},
			v:    verdict(""),
			want: "tool: \narguments: \n",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := says(`{"allow": true, "reason": "fine"}`)
			if _, err := NewReviewer(m, "judge", "rubric").Review(context.Background(), c.info, c.v); err != nil {
				t.Fatal(err)
			}
			if got := m.asked(t); got != c.want {
				t.Fatalf("the model read\n%q\nwant\n%q", got, c.want)
			}
		})
	}
}

func TestReviewerAnswers(t *testing.T) {
	cases := []struct {
		name   string
		answer string
		want   agentpolicy.Review
	}{
		{"approved", `{"allow": true, "reason": "a push to a feature branch"}`,
			agentpolicy.Review{Outcome: agentpolicy.Approved, Reason: "a push to a feature branch", By: agentpolicy.ByAgent}},
		{"refused", "```json\n{\"allow\": false, \"reason\": \"a force push to main\"}\n```",
			agentpolicy.Review{Outcome: agentpolicy.Refused, Reason: "a force push to main", By: agentpolicy.ByAgent}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := NewReviewer(says(c.answer), "judge", "rubric")
			got, err := r.Review(context.Background(), callInfo("bash", `{"command":"git push"}`, nil), verdict("approval required by bash(git push:*)"))
			if err != nil {
				t.Fatal(err)
			}
			if got.Outcome != c.want.Outcome || got.Reason != c.want.Reason || got.By != c.want.By || got.Args != nil || got.Note != "" {
				t.Fatalf("Review = %+v, want %+v", got, c.want)
			}
		})
	}
}

// The reviewer's own timeout, with the caller's context still live, is a
// TimedOut answer by the agent rather than an error.
func TestReviewerTimesOut(t *testing.T) {
	for _, deaf := range []bool{false, true} {
		r := NewReviewer(hang(t, deaf), "judge", "rubric", WithTimeout(30*time.Millisecond))
		got, err := r.Review(context.Background(), callInfo("bash", `{}`, nil), verdict(""))
		if err != nil {
			t.Fatalf("deaf %v: err %v, want a TimedOut review", deaf, err)
		}
		want := agentpolicy.Review{Outcome: agentpolicy.TimedOut, Reason: "no answer within 30ms", By: agentpolicy.ByAgent}
		if got.Outcome != want.Outcome || got.Reason != want.Reason || got.By != want.By {
			t.Fatalf("deaf %v: Review = %+v, want %+v", deaf, got, want)
		}
	}
}

// A caller's context that ends is the caller's error, not the reviewer's
// timeout: a deadline of the caller's passing first, or a cancellation.
func TestReviewerCallerContextIsAnError(t *testing.T) {
	t.Run("the caller's deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		r := NewReviewer(hang(t, false), "judge", "rubric", WithTimeout(time.Hour))
		got, err := r.Review(ctx, callInfo("bash", `{}`, nil), verdict(""))
		if !errors.Is(err, context.DeadlineExceeded) || got.Outcome == agentpolicy.Approved {
			t.Fatalf("Review = %+v, %v; want the caller's deadline as an error", got, err)
		}
	})
	t.Run("cancelled before", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		m := says(`{"allow": true, "reason": "fine"}`)
		got, err := NewReviewer(m, "judge", "rubric", WithTimeout(time.Second)).Review(ctx, callInfo("bash", `{}`, nil), verdict(""))
		if !errors.Is(err, context.Canceled) || got.Outcome == agentpolicy.Approved {
			t.Fatalf("Review = %+v, %v; want context.Canceled", got, err)
		}
		if err.Error() != "agentpolicy/classify: model: context canceled" {
			t.Fatalf("err %q", err)
		}
		if m.calls() != 0 {
			t.Fatalf("the model was called %d times under a cancelled context", m.calls())
		}
	})
}

func TestReviewerFailsClosed(t *testing.T) {
	cases := []struct {
		name  string
		model *model
		want  string
	}{
		{"model error", fails(errors.New("connection refused")), "agentpolicy/classify: model: openresponses: stream: connection refused"},
		{"unreadable answer", says("Sure, go ahead."), `agentpolicy/classify: unreadable answer: "Sure, go ahead."`},
		{"allow that is not a boolean", says(`{"allow": "yes"}`), `agentpolicy/classify: unreadable answer: "{\"allow\": \"yes\"}"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := NewReviewer(c.model, "judge", "rubric").Review(context.Background(), callInfo("bash", `{}`, nil), verdict(""))
			if err == nil || err.Error() != c.want {
				t.Fatalf("err %v, want %q", err, c.want)
			}
			if !reflect.DeepEqual(got, agentpolicy.Review{}) {
				t.Fatalf("Review = %+v beside the error, want the zero review", got)
			}
		})
	}
}
