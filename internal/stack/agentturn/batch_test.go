package agentturn_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
)

// Checklist item 12: ExecSequential runs the calls of a batch one after
// another in model order, in a prompt's batch and in a resume's batch of
// approved calls; outputs follow model order.
func TestSequentialExecution(t *testing.T) {
	var j journal
	model := &script{turns: [][]step{{call("c1", "a", `{"n":1}`), call("c2", "b", `{"n":2}`), call("c3", "a", `{"n":3}`)}}}
	tools := []agenttool.Tool{recorder("a", &j), recorder("b", &j)}
	a := agentturn.New(agentturn.Config{Model: model, Tools: tools, ToolExecution: agentturn.ExecSequential})
	end := mustPrompt(t, a, "go")
	equalStrings(t, "runs", j.list(), []string{`run a {"n":1}`, `run b {"n":2}`, `run a {"n":3}`})
	equalStrings(t, "outputs", describe(end.Items[4:7]), []string{`output c1 ran a {"n":1}`, `output c2 ran b {"n":2}`, `output c3 ran a {"n":3}`})

	var k journal
	model = &script{}
	b := pendingAgent(t, &k, model)
	b2 := agentturn.New(agentturn.Config{Model: model, Tools: tools, ToolExecution: agentturn.ExecSequential}, agentturn.WithTranscript(b.State().Transcript), agentturn.WithPending(b.State().Pending))
	j.entries = nil
	end, err := b2.Resume(context.Background(),
		agentturn.ApproveWith("c3", json.RawMessage(`{"n":3}`)), agentturn.ApproveWith("c1", json.RawMessage(`{"n":1}`)))
	if err != nil {
		t.Fatal(err)
	}
	equalStrings(t, "resume runs", j.list(), []string{`run a {"n":3}`, `run a {"n":1}`})
	equalStrings(t, "resume outputs", describe(end.Items[:2]), []string{`output c3 ran a {"n":3}`, `output c1 ran a {"n":1}`})
}

// A batch whose results all ask to terminate stops terminate; when only
// some do, partial_terminate. A blocked call's decision counts too.
func TestTerminate(t *testing.T) {
	stop := agenttool.NewFunc("stop", "ends the run", objectSchema, func(context.Context, agenttool.Call) (agenttool.Result, error) {
		r := agenttool.Text("stopping")
		r.Terminate = true
		return r, nil
	})
	cases := []struct {
		name      string
		calls     []step
		decisions map[string]*agentturn.ToolDecision
		want      agentturn.StopCause
	}{
		{"all results", []step{call("c1", "stop", ""), call("c2", "stop", "")}, nil, agentturn.StopTerminate},
		{"some results", []step{call("c1", "stop", ""), call("c2", "b", "")}, nil, agentturn.StopPartialTerminate},
		{"decision on a blocked call", []step{call("c1", "stop", ""), call("c2", "b", "")},
			map[string]*agentturn.ToolDecision{"b": {Action: agentturn.Block, Terminate: true}}, agentturn.StopTerminate},
		{"decision on an allowed call", []step{call("c1", "b", "")},
			map[string]*agentturn.ToolDecision{"b": {Terminate: true}}, agentturn.StopTerminate},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var j journal
			model := &script{turns: [][]step{c.calls}}
			a := agentturn.New(agentturn.Config{
				Model:          model,
				Tools:          []agenttool.Tool{stop, recorder("b", &j)},
				BeforeToolCall: decideBy(&j, c.decisions),
			})
			end := mustPrompt(t, a, "go")
			if end.Reason != agentturn.ReasonStopped || end.Cause != c.want {
				t.Errorf("end %s/%s, want stopped/%s", end.Reason, end.Cause, c.want)
			}
			if model.calls() != 1 {
				t.Errorf("model called %d times, want 1", model.calls())
			}
		})
	}
}
