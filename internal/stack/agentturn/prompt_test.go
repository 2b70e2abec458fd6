package agentturn_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// deferA defers every call named "a".
var deferA = map[string]*agentturn.ToolDecision{"a": {Action: agentturn.Defer, Reason: "ask"}}

// pendingAgent returns an agent whose first run left c1 and c3 deferred.
func pendingAgent(t *testing.T, j *journal, model *script) *agentturn.Agent {
	t.Helper()
	model.turns = append([][]step{{call("c1", "a", ""), call("c2", "b", ""), call("c3", "a", "")}}, model.turns...)
	a := agentturn.New(agentturn.Config{
		Model:          model,
		Tools:          []agenttool.Tool{recorder("a", j), recorder("b", j)},
		BeforeToolCall: decideBy(j, deferA),
	})
	if end := mustPrompt(t, a, "go"); end.Reason != agentturn.ReasonInputRequired {
		t.Fatalf("first run ended %s", end.Reason)
	}
	return a
}

// Checklist item 11: while calls are pending, a prompt must open with one
// output per pending call; otherwise it fails before a run, leaving the
// agent as it was.
func TestPromptWhilePending(t *testing.T) {
	out := openresponses.NewFunctionCallOutput
	cases := []struct {
		name    string
		items   []openresponses.Item
		wantErr error
	}{
		{"no outputs", []openresponses.Item{openresponses.UserText("hi")}, agentturn.ErrInputRequired},
		{"one of two outputs", []openresponses.Item{out("c1", "x"), openresponses.UserText("hi")}, agentturn.ErrInputRequired},
		{"output after the text", []openresponses.Item{openresponses.UserText("hi"), out("c1", "x"), out("c3", "y")}, agentturn.ErrInputRequired},
		{"output of a call not pending", []openresponses.Item{out("c2", "x"), out("c1", "x"), out("c3", "y")}, agentturn.ErrNotPending},
		{"all outputs", []openresponses.Item{out("c3", "y"), out("c1", "x"), openresponses.UserText("hi")}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var j journal
			model := &script{}
			a := pendingAgent(t, &j, model)
			before := a.State()
			end, err := a.Prompt(context.Background(), c.items...)
			if c.wantErr != nil {
				if !errors.Is(err, c.wantErr) || end != nil {
					t.Fatalf("Prompt = (%v, %v), want %v", end, err, c.wantErr)
				}
				if after := a.State(); !reflect.DeepEqual(after, before) {
					t.Fatalf("state changed by a refused prompt:\n%+v\n%+v", after, before)
				}
				return
			}
			if err != nil || end.Reason != agentturn.ReasonDone || len(end.Pending) != 0 {
				t.Fatalf("Prompt = (%+v, %v), want done", end, err)
			}
			equalStrings(t, "items", describe(end.Items), []string{"output c3 y", "output c1 x", "user: hi", "assistant: done"})
		})
	}
}

// Prompt's errors before a run: no items, no model, and a prompt from
// inside a run.
func TestPromptErrors(t *testing.T) {
	if _, err := agentturn.New(agentturn.Config{Model: &script{}}).Prompt(context.Background()); !errors.Is(err, agentturn.ErrNoPrompt) {
		t.Errorf("no items: %v", err)
	}
	if _, err := agentturn.New(agentturn.Config{}).Prompt(context.Background(), openresponses.UserText("x")); !errors.Is(err, agentturn.ErrNoModel) {
		t.Errorf("no model: %v", err)
	}
	var a *agentturn.Agent
	var inner error
	reenter := agenttool.NewFunc("reenter", "prompts its own agent", objectSchema, func(ctx context.Context, _ agenttool.Call) (agenttool.Result, error) {
		if !a.State().Running {
			t.Error("State().Running is false inside a run")
		}
		_, inner = a.Prompt(ctx, openresponses.UserText("again"))
		return agenttool.Text("ok"), nil
	})
	a = agentturn.New(agentturn.Config{Model: &script{turns: [][]step{{call("c1", "reenter", "")}}}, Tools: []agenttool.Tool{reenter}})
	end := mustPrompt(t, a, "go")
	if !errors.Is(inner, agentturn.ErrRunning) {
		t.Errorf("prompt inside a run: %v", inner)
	}
	if end.Reason != agentturn.ReasonDone || a.State().Running {
		t.Errorf("run ended %s, running %v", end.Reason, a.State().Running)
	}
}

// A model failure ends the run with ReasonError, and Prompt returns the
// same error as RunEnd.Err.
func TestPromptModelError(t *testing.T) {
	boom := errors.New("connection refused")
	a := agentturn.New(agentturn.Config{Model: failing{boom}})
	end, err := a.Prompt(context.Background(), openresponses.UserText("x"))
	if end == nil || end.Reason != agentturn.ReasonError || !errors.Is(err, boom) || err != end.Err {
		t.Fatalf("Prompt = (%+v, %v)", end, err)
	}
	equalStrings(t, "items", describe(end.Items), []string{"user: x"})
}

type failing struct{ err error }

func (f failing) CreateStream(context.Context, openresponses.Request, openresponses.EventSink) error {
	return f.err
}

// A run whose context ends stops aborted with the context's cause, and a
// call cut off after dispatch is pending as aborted with its key.
func TestPromptAborted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var key string
	slow := agenttool.NewFunc("slow", "is cut off", objectSchema, func(ctx context.Context, c agenttool.Call) (agenttool.Result, error) {
		key = c.IdempotencyKey
		cancel()
		return agenttool.Result{}, ctx.Err()
	})
	var j journal
	model := &script{turns: [][]step{{call("c1", "slow", ""), call("c2", "b", "")}}}
	a := agentturn.New(agentturn.Config{Model: model, Tools: []agenttool.Tool{slow, recorder("b", &j)}})
	end, err := a.Prompt(ctx, openresponses.UserText("x"))
	if err != nil || end.Reason != agentturn.ReasonAborted || !errors.Is(end.Err, context.Canceled) {
		t.Fatalf("Prompt = (%+v, %v)", end, err)
	}
	equalStrings(t, "pending", pendingIDs(end.Pending), []string{"c1 aborted", "c2 undispatched"})
	if key == "" || end.Pending[0].IdempotencyKey != key || end.Pending[1].IdempotencyKey != "" {
		t.Errorf("keys %q %q, tool ran under %q", end.Pending[0].IdempotencyKey, end.Pending[1].IdempotencyKey, key)
	}
	if len(j.list()) != 0 || model.calls() != 1 {
		t.Errorf("ran %v after the abort, model called %d times", j.list(), model.calls())
	}
}
