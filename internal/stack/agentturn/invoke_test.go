package agentturn_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
)

// §3.10: a tool runs another tool through the loop with Invoke; the nested
// call is decided by BeforeToolCall with Parent set and a one-call Batch,
// is never pending, and appends nothing.
func TestInvoke(t *testing.T) {
	cases := []struct {
		name     string
		decision *agentturn.ToolDecision
		wantOut  string // outer call's output
		wantRuns []string
	}{
		{"allow", nil, "inner: ran inner {\"q\":1}", []string{`run inner {"q":1}`}},
		{"rewrite", &agentturn.ToolDecision{Args: json.RawMessage(`{"q":2}`)}, "inner: ran inner {\"q\":2}", []string{`run inner {"q":2}`}},
		{"block", &agentturn.ToolDecision{Action: agentturn.Block, Reason: "no"}, "failed: no / Error: no", nil},
		{"block without reason", &agentturn.ToolDecision{Action: agentturn.Block}, "failed: call blocked / Error: call blocked", nil},
		{"defer", &agentturn.ToolDecision{Action: agentturn.Defer, Reason: "ask"},
			"failed: a nested call cannot be deferred to the caller: ask / Error: a nested call cannot be deferred to the caller: ask", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var j journal
			var infos []agentturn.ToolCallInfo
			outer := agenttool.NewFunc("outer", "invokes inner", objectSchema, func(ctx context.Context, call agenttool.Call) (agenttool.Result, error) {
				res, err := agentturn.Invoke(ctx, "inner", json.RawMessage(`{"q":1}`))
				if err != nil {
					return agenttool.Text("failed: " + err.Error() + " / " + res.Output.String()), nil
				}
				return agenttool.Text("inner: " + res.Output.String()), nil
			})
			a := agentturn.New(agentturn.Config{
				Model: &script{turns: [][]step{{call("c1", "outer", "{}")}}},
				Tools: []agenttool.Tool{outer, recorder("inner", &j)},
				BeforeToolCall: func(_ context.Context, info agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
					infos = append(infos, info)
					if info.Parent != "" {
						return c.decision, nil
					}
					return nil, nil
				},
			})
			end := mustPrompt(t, a, "go")
			equalStrings(t, "items", describe(end.Items), []string{"user: go", "call c1 outer {}", "output c1 " + c.wantOut, "assistant: done"})
			equalStrings(t, "runs", j.list(), c.wantRuns)
			if end.Reason != agentturn.ReasonDone || len(end.Pending) != 0 {
				t.Errorf("end %s, pending %v", end.Reason, pendingIDs(end.Pending))
			}
			if len(infos) != 2 {
				t.Fatalf("hook saw %d calls, want 2", len(infos))
			}
			nested := infos[1]
			if nested.Parent != "c1" || len(nested.Batch) != 1 || nested.Batch[0] != nested.Call || nested.Index != 0 ||
				nested.Turn != 1 || nested.RunID != end.RunID || nested.Tool == nil || nested.Tool.Name() != "inner" ||
				nested.Call.CallID == "" || nested.Call.CallID == "c1" || string(nested.Args) != `{"q":1}` {
				t.Errorf("nested info %+v", nested)
			}
		})
	}
}

// Invoke needs a context the loop gave a tool.
func TestInvokeWithoutLoop(t *testing.T) {
	if _, err := agentturn.Invoke(context.Background(), "x", nil); !errors.Is(err, agentturn.ErrNoInvoker) {
		t.Fatalf("Invoke = %v, want ErrNoInvoker", err)
	}
}
