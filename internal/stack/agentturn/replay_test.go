package agentturn_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// claiming is a tool named "t" that claims replay r and notes each run's
// arguments and key in j.
func claiming(r agenttool.Replay, j *journal) agenttool.Tool {
	return agenttool.NewFunc("t", "claims a replay", objectSchema, func(_ context.Context, c agenttool.Call) (agenttool.Result, error) {
		j.add("run %s %s", c.Args, c.IdempotencyKey)
		return agenttool.Text("ok"), nil
	}, agenttool.WithReplay(func(context.Context, json.RawMessage) agenttool.Replay { return r }))
}

// seededCall is an agent whose transcript leaves call c1 of "t" with
// {"n":1} pending as p says, offering tool.
func seededCall(model agentturn.Model, tool agenttool.Tool, p agentturn.PendingCall) *agentturn.Agent {
	c1 := &openresponses.FunctionCall{CallID: "c1", Name: "t", Arguments: `{"n":1}`}
	p.Call = &openresponses.FunctionCall{CallID: "c1", Name: "t", Arguments: `{"n":1}`}
	cfg := agentturn.Config{Model: model}
	if tool != nil {
		cfg.Tools = []agenttool.Tool{tool}
	}
	return agentturn.New(cfg,
		agentturn.WithTranscript(agentturn.Transcript{openresponses.UserText("go"), c1}),
		agentturn.WithPending([]agentturn.PendingCall{p}))
}

// Checklist item 15: approving a call that may have run passes only as the
// replay rule allows; otherwise Resume fails with ErrAmbiguousCall (or
// ErrCallAnswered for a call owed its output) and nothing changes.
func TestResumeReplayRule(t *testing.T) {
	other := json.RawMessage(`{"n":2}`)
	aborted := func(key string) agentturn.PendingCall {
		return agentturn.PendingCall{Reason: agentturn.PendingAborted, IdempotencyKey: key}
	}
	cases := []struct {
		name    string
		replay  agenttool.Replay
		noTool  bool
		pending agentturn.PendingCall
		answer  agentturn.Answer
		wantErr error
		wantRun string // "args key" the tool ran with ("*" ends a prefix); "" when it must not run
	}{
		{"safe", agenttool.ReplaySafe, false, aborted("k1"), agentturn.Approve("c1"), nil, `{"n":1} k1`},
		{"unknown", agenttool.ReplayUnknown, false, aborted("k1"), agentturn.Approve("c1"), agentturn.ErrAmbiguousCall, ""},
		{"unknown run again", agenttool.ReplayUnknown, false, aborted("k1"), agentturn.Approve("c1").WithRunAgain(), nil, `{"n":1} k1`},
		{"keyed same args same key", agenttool.ReplayKeyed, false, aborted("k1"), agentturn.Approve("c1"), nil, `{"n":1} k1`},
		{"keyed new args same key", agenttool.ReplayKeyed, false, aborted("k1"), agentturn.ApproveWith("c1", other), agentturn.ErrAmbiguousCall, ""},
		{"keyed new args new key", agenttool.ReplayKeyed, false, aborted("k1"), agentturn.ApproveWith("c1", other).WithIdempotencyKey("k2"), nil, `{"n":2} k2`},
		{"keyed same args new key", agenttool.ReplayKeyed, false, aborted("k1"), agentturn.Approve("c1").WithIdempotencyKey("k2"), agentturn.ErrAmbiguousCall, ""},
		{"keyed without a key", agenttool.ReplayKeyed, false, agentturn.PendingCall{Reason: agentturn.PendingUnknown}, agentturn.Approve("c1"), agentturn.ErrAmbiguousCall, ""},
		{"keyed with held args", agenttool.ReplayKeyed, false,
			agentturn.PendingCall{Reason: agentturn.PendingAborted, IdempotencyKey: "k1", Args: other}, agentturn.Approve("c1"), nil, `{"n":2} k1`},
		{"no tool of the name", 0, true, aborted("k1"), agentturn.Approve("c1"), nil, ""},
		{"deferred not dispatched", agenttool.ReplayUnknown, false,
			agentturn.PendingCall{Reason: agentturn.PendingDeferred}, agentturn.Approve("c1"), nil, `{"n":1} key_*`},
		{"deferred and dispatched", agenttool.ReplayUnknown, false,
			agentturn.PendingCall{Reason: agentturn.PendingDeferred, Dispatched: true, IdempotencyKey: "k1"}, agentturn.Approve("c1"), agentturn.ErrAmbiguousCall, ""},
		{"answered", agenttool.ReplaySafe, false, agentturn.PendingCall{Reason: agentturn.PendingAnswered}, agentturn.Approve("c1"), agentturn.ErrCallAnswered, ""},
		{"rejected", agenttool.ReplaySafe, false, agentturn.PendingCall{Reason: agentturn.PendingRejected}, agentturn.Approve("c1"), agentturn.ErrCallAnswered, ""},
		{"rejected answered with its output", agenttool.ReplayUnknown, false, agentturn.PendingCall{Reason: agentturn.PendingRejected},
			agentturn.Output(openresponses.NewFunctionCallOutput("c1", "Error: refused")), nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var j journal
			model := &script{}
			var tool agenttool.Tool
			if !c.noTool {
				tool = claiming(c.replay, &j)
			}
			a := seededCall(model, tool, c.pending)
			before := a.State()
			end, err := a.Resume(context.Background(), c.answer)
			if c.wantErr != nil {
				if !errors.Is(err, c.wantErr) || end != nil {
					t.Fatalf("Resume = (%v, %v), want %v", end, err, c.wantErr)
				}
				if !reflect.DeepEqual(a.State(), before) || model.calls() != 0 || len(j.list()) != 0 {
					t.Fatalf("a failed Resume changed the agent, called the model or ran the tool")
				}
				return
			}
			if err != nil {
				t.Fatalf("Resume: %v", err)
			}
			runs := j.list()
			switch {
			case c.wantRun == "":
				equalStrings(t, "runs", runs, nil)
			case strings.HasSuffix(c.wantRun, "*"):
				if len(runs) != 1 || !strings.HasPrefix(runs[0], "run "+strings.TrimSuffix(c.wantRun, "*")) {
					t.Errorf("runs %q, want one matching %q", runs, c.wantRun)
				}
			default:
				equalStrings(t, "runs", runs, []string{"run " + c.wantRun})
			}
			if end.Reason != agentturn.ReasonDone || len(a.State().Pending) != 0 {
				t.Errorf("end %s, pending %v", end.Reason, pendingIDs(a.State().Pending))
			}
		})
	}
}

// The error names the call and the tool's claim.
func TestAmbiguousCallError(t *testing.T) {
	var j journal
	a := seededCall(&script{}, claiming(agenttool.ReplayKeyed, &j),
		agentturn.PendingCall{Reason: agentturn.PendingAborted, IdempotencyKey: "k1"})
	_, err := a.Resume(context.Background(), agentturn.ApproveWith("c1", json.RawMessage(`{"n":2}`)))
	want := fmt.Sprintf("%v: c1 (replay keyed)", agentturn.ErrAmbiguousCall)
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
}
