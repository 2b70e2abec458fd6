package agentturn_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses/echo"
)

// Checklist item 8: BeforeToolCall sees every call of the batch, in model
// order, before any executes, with RunID, Turn, Tool, Args, Batch and Index;
// the run ID is on the context of hooks, the provider, the model and tools.
func TestPromptDecidesWholeBatchFirst(t *testing.T) {
	var j journal
	model := &script{turns: [][]step{{call("c1", "a", `{"x":1}`), call("c2", "b", ""), call("c3", "missing", "{}")}}}
	var infos []agentturn.ToolCallInfo
	var ctxRunIDs []string
	tools := []agenttool.Tool{recorder("a", &j), recorder("b", &j)}
	providerCalls := 0
	a := agentturn.New(agentturn.Config{
		Model: model,
		ToolProvider: func(ctx context.Context) []agenttool.Tool {
			providerCalls++
			ctxRunIDs = append(ctxRunIDs, agentturn.RunIDFromContext(ctx))
			return tools
		},
		BeforeToolCall: func(ctx context.Context, info agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
			j.add("decide %s", info.Call.CallID)
			infos = append(infos, info)
			ctxRunIDs = append(ctxRunIDs, agentturn.RunIDFromContext(ctx))
			return nil, nil
		},
	})
	end := mustPrompt(t, a, "go")

	equalStrings(t, "order", j.list(), []string{
		"decide c1", "decide c2", "decide c3", `run a {"x":1}`, "run b {}",
	})
	if end.Reason != agentturn.ReasonDone || end.RunID == "" {
		t.Fatalf("end %+v", end)
	}
	wantTools := []string{"a", "b", ""}
	wantArgs := []string{`{"x":1}`, "{}", "{}"}
	for i, info := range infos {
		name := ""
		if info.Tool != nil {
			name = info.Tool.Name()
		}
		if info.RunID != end.RunID || info.Turn != 1 || info.Index != i || len(info.Batch) != 3 ||
			info.Batch[info.Index] != info.Call || name != wantTools[i] || string(info.Args) != wantArgs[i] || info.Parent != "" {
			t.Errorf("info %d = %+v (tool %q)", i, info, name)
		}
		if info.Call != end.Items[1+i] {
			t.Errorf("info %d Call is not the transcript's item", i)
		}
		if i > 0 && &info.Batch[0] != &infos[0].Batch[0] {
			t.Errorf("info %d has another Batch slice", i)
		}
	}
	if providerCalls != 2 {
		t.Errorf("ToolProvider called %d times over 2 turns, want 2", providerCalls)
	}
	for _, id := range ctxRunIDs {
		if id != end.RunID {
			t.Errorf("context run ID %q, want %q", id, end.RunID)
		}
	}
	equalStrings(t, "items", describe(end.Items), []string{
		"user: go",
		`call c1 a {"x":1}`,
		"call c2 b ",
		"call c3 missing {}",
		`output c1 ran a {"x":1}`,
		"output c2 ran b {}",
		`output c3 Error: tool "missing" not found`,
		"assistant: done",
	})
	// The second request carries the whole transcript and the tools.
	req := model.requests[1]
	equalStrings(t, "second request input", describe(req.Input), describe(end.Items[:7]))
	if len(req.Tools) != 2 {
		t.Errorf("request offers %d tools, want 2", len(req.Tools))
	}
}

// Checklist item 9: a Block's output is "Error: " + reason ("call blocked"
// when empty); a Defer appends nothing, the rest of the batch runs, and the
// run ends input_required listing the deferred calls in model order.
func TestBlockAndDefer(t *testing.T) {
	rewritten := json.RawMessage(`{"safe":true}`)
	cases := []struct {
		name        string
		decisions   map[string]*agentturn.ToolDecision
		wantItems   []string
		wantReason  agentturn.Reason
		wantPending []string
	}{
		{
			name:       "block with reason",
			decisions:  map[string]*agentturn.ToolDecision{"a": {Action: agentturn.Block, Reason: "denied by bash(rm:*)"}},
			wantItems:  []string{"output c1 Error: denied by bash(rm:*)", "output c2 ran b {}", "output c3 Error: denied by bash(rm:*)", "assistant: done"},
			wantReason: agentturn.ReasonDone,
		},
		{
			name:       "block without reason",
			decisions:  map[string]*agentturn.ToolDecision{"b": {Action: agentturn.Block}},
			wantItems:  []string{"output c1 ran a {}", "output c2 Error: call blocked", "output c3 ran a {}", "assistant: done"},
			wantReason: agentturn.ReasonDone,
		},
		{
			name:        "defer",
			decisions:   map[string]*agentturn.ToolDecision{"a": {Action: agentturn.Defer, Reason: "ask", Args: rewritten}},
			wantItems:   []string{"output c2 ran b {}"},
			wantReason:  agentturn.ReasonInputRequired,
			wantPending: []string{"c1 deferred", "c3 deferred"},
		},
		{
			name:       "note of an allowed call",
			decisions:  map[string]*agentturn.ToolDecision{"b": {Note: "be careful"}},
			wantItems:  []string{"output c1 ran a {}", "output c2 ran b {}", "output c3 ran a {}", "developer: be careful", "assistant: done"},
			wantReason: agentturn.ReasonDone,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var j journal
			model := &script{turns: [][]step{{call("c1", "a", ""), call("c2", "b", ""), call("c3", "a", "")}}}
			a := agentturn.New(agentturn.Config{
				Model:          model,
				Tools:          []agenttool.Tool{recorder("a", &j), recorder("b", &j)},
				BeforeToolCall: decideBy(&j, c.decisions),
			})
			end := mustPrompt(t, a, "go")
			equalStrings(t, "items", describe(end.Items[4:]), c.wantItems)
			if end.Reason != c.wantReason {
				t.Errorf("reason %s, want %s", end.Reason, c.wantReason)
			}
			equalStrings(t, "pending", pendingIDs(end.Pending), c.wantPending)
			equalStrings(t, "state pending", pendingIDs(a.State().Pending), c.wantPending)
			for _, p := range end.Pending {
				d := c.decisions["a"]
				if p.Decision == nil || p.Decision == d || !reflect.DeepEqual(*p.Decision, *d) {
					t.Errorf("pending %s decision %+v, want a copy of %+v", p.Call.CallID, p.Decision, d)
				}
				if string(p.Args) != string(rewritten) || p.Tool == nil || p.Tool.Name() != "a" {
					t.Errorf("pending %s args %s tool %v", p.Call.CallID, p.Args, p.Tool)
				}
			}
			if c.wantReason == agentturn.ReasonInputRequired && model.calls() != 1 {
				t.Errorf("model called %d times, want 1", model.calls())
			}
		})
	}
}

// Checklist item 10: with echo, a call turn then a final turn ends done
// under MaxTurns 2; MaxTurns 1 stops after the call turn.
func TestMaxTurns(t *testing.T) {
	type bashArgs struct {
		Command string `json:"command"`
	}
	bash := agenttool.New("bash", "runs a command", func(_ context.Context, a bashArgs) (string, error) {
		return "ran " + a.Command, nil
	})
	cases := []struct {
		max       int
		reason    agentturn.Reason
		cause     agentturn.StopCause
		wantItems []string
	}{
		{2, agentturn.ReasonDone, "", []string{"user: git push origin main", `call bash {"command":"git push origin main"}`, "output ran git push origin main", "assistant: Tool result: ran git push origin main"}},
		{1, agentturn.ReasonStopped, agentturn.StopMaxTurns, []string{"user: git push origin main", `call bash {"command":"git push origin main"}`, "output ran git push origin main"}},
	}
	for _, c := range cases {
		a := agentturn.New(agentturn.Config{Model: &echo.Adapter{}, Tools: []agenttool.Tool{bash}, MaxTurns: c.max})
		end := mustPrompt(t, a, "git push origin main")
		if end.Reason != c.reason || end.Cause != c.cause {
			t.Errorf("MaxTurns %d: end %s/%s, want %s/%s", c.max, end.Reason, end.Cause, c.reason, c.cause)
		}
		got := anonymous(end.Items)
		equalStrings(t, "items", got, c.wantItems)
	}
}
