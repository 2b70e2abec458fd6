package agentturn_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// Checklist item 13: Resume appends the outputs (answer order), then their
// notes as user messages, then the approved batch's outputs, then the
// approvals' notes as user messages; deferred calls are not put to
// BeforeToolCall again. Refuse stops the run refused without a model call,
// nothing pending, and the transcript can continue.
func TestResumeOrder(t *testing.T) {
	out := openresponses.NewFunctionCallOutput
	cases := []struct {
		name       string
		answers    []agentturn.Answer
		wantItems  []string
		wantReason agentturn.Reason
		wantCause  agentturn.StopCause
		modelCalls int // model calls by the resume
	}{
		{
			name: "outputs, notes, approvals",
			answers: []agentturn.Answer{
				agentturn.Approve("c1").WithNote("approved"),
				agentturn.Output(out("c3", "no thanks")).WithNote("answered"),
			},
			wantItems:  []string{"output c3 no thanks", "user: answered", "output c1 ran a {}", "user: approved", "assistant: done"},
			wantReason: agentturn.ReasonDone,
			modelCalls: 1,
		},
		{
			name: "two outputs keep answer order",
			answers: []agentturn.Answer{
				agentturn.Output(out("c3", "three")).WithNote("n3"),
				agentturn.Output(out("c1", "one")).WithNote("n1"),
			},
			wantItems:  []string{"output c3 three", "output c1 one", "user: n3", "user: n1", "assistant: done"},
			wantReason: agentturn.ReasonDone,
			modelCalls: 1,
		},
		{
			name:       "refuse",
			answers:    []agentturn.Answer{agentturn.Refuse(out("c1", "Error: refused")), agentturn.Output(out("c3", "skipped"))},
			wantItems:  []string{"output c1 Error: refused", "output c3 skipped"},
			wantReason: agentturn.ReasonStopped,
			wantCause:  agentturn.StopRefused,
		},
		{
			name:       "refuse beside an approval",
			answers:    []agentturn.Answer{agentturn.Approve("c3").WithNote("go on"), agentturn.Refuse(out("c1", "Error: refused"))},
			wantItems:  []string{"output c1 Error: refused", "output c3 ran a {}", "user: go on"},
			wantReason: agentturn.ReasonStopped,
			wantCause:  agentturn.StopRefused,
		},
		{
			name:       "output under another call ID",
			answers:    []agentturn.Answer{{CallID: "c1", Output: out("elsewhere", "moved")}, agentturn.Output(out("c3", "x"))},
			wantItems:  []string{"output elsewhere moved", "output c3 x", "assistant: done"},
			wantReason: agentturn.ReasonDone,
			modelCalls: 1,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var j journal
			model := &script{}
			a := pendingAgent(t, &j, model)
			first := a.State().RunID
			decided := len(j.list())
			end, err := a.Resume(context.Background(), c.answers...)
			if err != nil {
				t.Fatalf("Resume: %v", err)
			}
			equalStrings(t, "items", describe(end.Items), c.wantItems)
			if end.Reason != c.wantReason || end.Cause != c.wantCause {
				t.Errorf("end %s/%s, want %s/%s", end.Reason, end.Cause, c.wantReason, c.wantCause)
			}
			if got := model.calls() - 1; got != c.modelCalls {
				t.Errorf("resume called the model %d times, want %d", got, c.modelCalls)
			}
			for _, e := range j.list()[decided:] {
				if strings.HasPrefix(e, "decide") {
					t.Errorf("deferred call put to BeforeToolCall again: %s", e)
				}
			}
			if end.RunID == "" || end.RunID == first {
				t.Errorf("resume run ID %q, first run %q", end.RunID, first)
			}
			st := a.State()
			refused := c.wantCause == agentturn.StopRefused
			if len(st.Pending) != 0 || len(end.Pending) != 0 || agentturn.CanContinue(st.Transcript) != refused {
				t.Errorf("after resume: pending %v, can continue %v", pendingIDs(st.Pending), agentturn.CanContinue(st.Transcript))
			}
		})
	}
}

// Checklist item 14: an undispatched call's approval is decided by
// BeforeToolCall (turn 0, Batch = the approved calls, the resume's run ID);
// a Defer there ends the resume input_required with the call deferred.
func TestResumeUndispatched(t *testing.T) {
	var j journal
	failing := true
	var infos []agentturn.ToolCallInfo
	model := &script{turns: [][]step{{call("c1", "a", ""), call("c2", "b", `{"v":1}`)}}}
	a := agentturn.New(agentturn.Config{
		Model: model,
		Tools: []agenttool.Tool{recorder("a", &j), recorder("b", &j)},
		BeforeToolCall: func(ctx context.Context, info agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
			if failing {
				return nil, errors.New("policy offline")
			}
			infos = append(infos, info)
			if info.Call.Name == "a" {
				return &agentturn.ToolDecision{Action: agentturn.Defer, Reason: "still asking"}, nil
			}
			return nil, nil
		},
	})
	end, err := a.Prompt(context.Background(), openresponses.UserText("go"))
	if end == nil || end.Reason != agentturn.ReasonError || err == nil ||
		err.Error() != "agentturn: before-tool-call hook: policy offline" {
		t.Fatalf("Prompt = (%+v, %v)", end, err)
	}
	equalStrings(t, "pending after the failure", pendingIDs(end.Pending), []string{"c1 undispatched", "c2 undispatched"})
	if len(j.list()) != 0 {
		t.Fatalf("calls ran after the hook failed: %v", j.list())
	}

	failing = false
	end, err = a.Resume(context.Background(), agentturn.Approve("c2"), agentturn.ApproveWith("c1", json.RawMessage(`{"w":2}`)))
	if err != nil {
		t.Fatal(err)
	}
	if end.Reason != agentturn.ReasonInputRequired {
		t.Fatalf("resume ended %s", end.Reason)
	}
	equalStrings(t, "pending", pendingIDs(end.Pending), []string{"c1 deferred"})
	if p := end.Pending[0]; string(p.Args) != `{"w":2}` || p.Decision == nil || p.Decision.Reason != "still asking" {
		t.Errorf("pending %+v", p)
	}
	equalStrings(t, "items", describe(end.Items), []string{`output c2 ran b {"v":1}`})
	if len(infos) != 2 {
		t.Fatalf("hook saw %d calls, want 2", len(infos))
	}
	transcript := a.State().Transcript
	for i, info := range infos {
		if info.Turn != 0 || info.RunID != end.RunID || info.Index != i || len(info.Batch) != 2 || info.Batch[i] != info.Call {
			t.Errorf("info %d = %+v", i, info)
		}
		if info.Batch[0] != transcript[2] || info.Batch[1] != transcript[1] {
			t.Errorf("info %d Batch is not the approved calls in answer order", i)
		}
	}
	if string(infos[1].Args) != `{"w":2}` {
		t.Errorf("hook saw args %s, want the approved ones", infos[1].Args)
	}
	if model.calls() != 1 {
		t.Errorf("model called %d times, want 1", model.calls())
	}
}

// Resume fails, leaving the agent as it was, when nothing is pending or the
// answers do not match the pending calls one to one.
func TestResumeValidation(t *testing.T) {
	out := openresponses.NewFunctionCallOutput("c1", "x")
	cases := []struct {
		name    string
		answers []agentturn.Answer
	}{
		{"missing answer", []agentturn.Answer{agentturn.Approve("c1")}},
		{"unknown call", []agentturn.Answer{agentturn.Approve("c1"), agentturn.Approve("c3"), agentturn.Approve("c2")}},
		{"answered twice", []agentturn.Answer{agentturn.Approve("c1"), agentturn.Output(out), agentturn.Approve("c3")}},
		{"no answers", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var j journal
			model := &script{}
			a := pendingAgent(t, &j, model)
			before := a.State()
			end, err := a.Resume(context.Background(), c.answers...)
			if !errors.Is(err, agentturn.ErrNotPending) || end != nil {
				t.Fatalf("Resume = (%v, %v), want ErrNotPending", end, err)
			}
			if !reflect.DeepEqual(a.State(), before) || model.calls() != 1 {
				t.Fatalf("state changed or model called")
			}
		})
	}
	a := agentturn.New(agentturn.Config{Model: &script{}})
	if _, err := a.Resume(context.Background(), agentturn.Approve("c1")); !errors.Is(err, agentturn.ErrNotPending) {
		t.Errorf("resume with nothing pending: %v", err)
	}
}

// Resume's errors before a run: no model, and a resume from inside a run.
func TestResumeErrors(t *testing.T) {
	if _, err := agentturn.New(agentturn.Config{}).Resume(context.Background(), agentturn.Approve("c1")); !errors.Is(err, agentturn.ErrNoModel) {
		t.Errorf("no model: %v", err)
	}
	var a *agentturn.Agent
	var inner error
	reenter := agenttool.NewFunc("reenter", "resumes its own agent", objectSchema, func(ctx context.Context, _ agenttool.Call) (agenttool.Result, error) {
		_, inner = a.Resume(ctx, agentturn.Approve("c1"))
		return agenttool.Text("ok"), nil
	})
	a = agentturn.New(agentturn.Config{Model: &script{turns: [][]step{{call("c1", "reenter", "")}}}, Tools: []agenttool.Tool{reenter}})
	mustPrompt(t, a, "go")
	if !errors.Is(inner, agentturn.ErrRunning) {
		t.Errorf("resume inside a run: %v", inner)
	}
}

// An approved batch whose results ask to terminate stops the resumed run
// without a model call.
func TestResumeBatchTerminates(t *testing.T) {
	var j journal
	model := &script{}
	a := pendingAgent(t, &j, model)
	stop := agenttool.NewFunc("a", "ends the run", objectSchema, func(context.Context, agenttool.Call) (agenttool.Result, error) {
		r := agenttool.Text("stopping")
		r.Terminate = true
		return r, nil
	})
	b := agentturn.New(agentturn.Config{Model: model, Tools: []agenttool.Tool{stop}},
		agentturn.WithTranscript(a.State().Transcript), agentturn.WithPending(a.State().Pending))
	end, err := b.Resume(context.Background(), agentturn.Approve("c1"), agentturn.Output(openresponses.NewFunctionCallOutput("c3", "x")))
	if err != nil {
		t.Fatal(err)
	}
	if end.Reason != agentturn.ReasonStopped || end.Cause != agentturn.StopTerminate || model.calls() != 1 {
		t.Errorf("end %s/%s, model calls %d", end.Reason, end.Cause, model.calls())
	}
}
