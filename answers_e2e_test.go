package agentpolicy

// End-to-end tests of Engine.Answers: a reviewer answering the engine's
// asks in a real agentturn.Agent (the stand-in loop), over scripted
// models.

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ChristopherDavenport/agentpolicy/internal/scripted"
	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

func TestEndToEndReviewerAnswersTheBatch(t *testing.T) {
	for _, tc := range []struct {
		name    string
		review  Review
		ran     []string
		outputs map[string]string
	}{
		{"an approval runs all three in order", Review{Outcome: Approved},
			[]string{"bash git add -A", "bash git commit -m wip", "bash git push --force"},
			map[string]string{"call_add": "ok", "call_commit": "ok", "call_push": "ok"}},
		{"a refusal runs none of them", Review{Reason: "no force pushes."},
			nil,
			map[string]string{
				"call_add":    heldRefusedText,
				"call_commit": heldRefusedText,
				"call_push":   "Denied by reviewer: no force pushes." + doNotPursue,
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := &ranLog{}
			rec := &recorder{}
			e := mustBuild(t, gitPolicy(t), shellMatchers(), WithObserver(rec.observe))
			agent := gitAgent(e, log)
			ctx := context.Background()
			end, err := agent.Prompt(ctx, openresponses.UserText("commit and push"))
			if err != nil || end.Reason != agentturn.ReasonInputRequired {
				t.Fatalf("the run ended %v, %v; want input_required", end.Reason, err)
			}
			rec.take()
			var reviewed []string
			reviewer := ReviewerFunc(func(_ context.Context, info agentturn.ToolCallInfo, _ Verdict) (Review, error) {
				reviewed = append(reviewed, info.Call.CallID)
				return tc.review, nil
			})
			answers, err := e.Answers(ctx, reviewer, end)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(reviewed, []string{"call_push"}) {
				t.Errorf("the reviewer was asked about %v, want [call_push]", reviewed)
			}
			if vs := rec.take(); len(vs) != 3 {
				t.Errorf("the observer saw %d verdicts, want one per call", len(vs))
			}
			end, err = agent.Resume(ctx, answers...)
			if err != nil {
				t.Fatal(err)
			}
			if end.Reason != agentturn.ReasonDone {
				t.Errorf("the resumed run ended %s, want done", end.Reason)
			}
			if ran := log.list(); !reflect.DeepEqual(ran, tc.ran) {
				t.Errorf("ran %q, want %q", ran, tc.ran)
			}
			if got := outputs(end.Items); !reflect.DeepEqual(got, tc.outputs) {
				t.Errorf("outputs = %q, want %q", got, tc.outputs)
			}
		})
	}
}

func TestEndToEndDenialBoundEndsTheRun(t *testing.T) {
	log := &ranLog{}
	var turns [][]*openresponses.FunctionCall
	for _, id := range []string{"call_1", "call_2", "call_3", "call_4", "call_5"} {
		turns = append(turns, []*openresponses.FunctionCall{bashCall(id, "git push --force")})
	}
	model := &scripted.Model{Turns: turns}
	e := mustBuild(t, gitPolicy(t), shellMatchers())
	agent := agentturn.New(agentturn.Config{Model: model, Tools: []agenttool.Tool{log.tool("bash", "command")},
		BeforeToolCall: e.BeforeToolCall(), MaxTurns: 10})
	reviewer := ReviewerFunc(func(context.Context, agentturn.ToolCallInfo, Verdict) (Review, error) {
		return Review{Reason: "no force pushes"}, nil
	})
	ctx := context.Background()
	end, err := agent.Prompt(ctx, openresponses.UserText("push"))
	if err != nil {
		t.Fatal(err)
	}
	reviews := 0
	for end.Reason == agentturn.ReasonInputRequired {
		answers, err := e.Answers(ctx, reviewer, end)
		reviews++
		if err != nil && !errors.Is(err, ErrDenialBound) {
			t.Fatal(err)
		}
		bound := errors.Is(err, ErrDenialBound)
		if bound != (reviews == 3) {
			t.Fatalf("Answers %d returned %v", reviews, err)
		}
		if end, err = agent.Resume(ctx, answers...); err != nil {
			t.Fatal(err)
		}
		if bound {
			break
		}
	}
	if end.Reason != agentturn.ReasonStopped || end.Cause != agentturn.StopRefused {
		t.Errorf("the run ended %s/%s, want stopped/refused", end.Reason, end.Cause)
	}
	if n := len(model.Requests()); n != 3 {
		t.Errorf("the model was called %d times, want 3: none after the third refusal", n)
	}
	if got := outputs(end.Items)["call_3"]; got != "Denied by reviewer: no force pushes."+doNotPursue {
		t.Errorf("the third call's output = %q", got)
	}
	if ran := log.list(); len(ran) != 0 {
		t.Errorf("ran %q", ran)
	}
}

func TestEndToEndAbortedRunResumedFromItsTranscript(t *testing.T) {
	log := &ranLog{}
	ctx, abort := context.WithCancel(context.Background())
	defer abort()
	var fetches atomic.Int32
	fetch := agenttool.NewFunc("fetch", "", json.RawMessage(`{"type":"object","properties":{"url":{"type":"string"}}}`),
		func(ctx context.Context, c agenttool.Call) (agenttool.Result, error) {
			log.add("fetch " + string(c.Args))
			if fetches.Add(1) == 1 {
				abort()
				return agenttool.Result{}, ctx.Err()
			}
			return agenttool.Text("page"), nil
		},
		agenttool.WithReplay(func(context.Context, json.RawMessage) agenttool.Replay { return agenttool.ReplaySafe }))
	tools := agenttool.Set{fetch, log.tool("bash", "command")}
	p := Policy{Allow: parseOrFail(t, "fetch bash(ls:*)"), Default: Ask()}
	e := mustBuild(t, p, shellMatchers(), WithTools(tools.Lookup))
	turn := []*openresponses.FunctionCall{
		{CallID: "call_fetch", Name: "fetch", Arguments: `{"url":"https://example.test"}`},
		bashCall("call_ls", "ls"),
	}
	cfg := agentturn.Config{Model: &scripted.Model{Turns: [][]*openresponses.FunctionCall{turn}}, Tools: tools,
		BeforeToolCall: e.BeforeToolCall(), MaxTurns: 4, ToolExecution: agentturn.ExecSequential}
	end, err := agentturn.New(cfg).Prompt(ctx, openresponses.UserText("fetch and list"))
	if err != nil {
		t.Fatal(err)
	}
	if end.Reason != agentturn.ReasonAborted || len(end.Pending) != 2 || end.Pending[0].Reason != agentturn.PendingAborted {
		t.Fatalf("the run ended %s with %+v pending, want aborted with the fetch cut off", end.Reason, end.Pending)
	}

	// A new process resumes the session from its transcript: the loop
	// knows nothing of the two calls but that they have no output.
	cfg.Model = &scripted.Model{}
	resumed := agentturn.New(cfg, agentturn.WithTranscript(append(openresponses.Items{openresponses.UserText("fetch and list")}, turn[0], turn[1])))
	seeded := &agentturn.RunEnd{RunID: end.RunID, Pending: resumed.State().Pending}
	reviewer := ReviewerFunc(func(context.Context, agentturn.ToolCallInfo, Verdict) (Review, error) {
		t.Error("the reviewer was asked about a call an abort cut off")
		return Review{Outcome: Approved}, nil
	})
	answers, err := e.Answers(context.Background(), reviewer, seeded)
	if err != nil {
		t.Fatal(err)
	}
	checkAnswers(t, answers, []agentturn.Answer{
		agentturn.Approve("call_fetch").WithBy(ByPolicy).WithReason("run again: replay safe; allowed by fetch"),
		refusal("call_ls", cutOffText7, ByPolicy, "not reviewed: unknown"),
	})
	end, err = resumed.Resume(context.Background(), answers...)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`fetch {"url":"https://example.test"}`, `fetch {"url":"https://example.test"}`}
	if ran := log.list(); !reflect.DeepEqual(ran, want) {
		t.Errorf("ran %q, want the fetch twice and the listing never", ran)
	}
	if got := outputs(end.Items); got["call_fetch"] != "page" || got["call_ls"] != cutOffText7 {
		t.Errorf("outputs = %q", got)
	}
}

func TestEndToEndReviewerPastItsDeadline(t *testing.T) {
	log := &ranLog{}
	e := mustBuild(t, gitPolicy(t), shellMatchers())
	agent := agentturn.New(agentturn.Config{
		Model: &scripted.Model{Turns: [][]*openresponses.FunctionCall{{bashCall("call_push", "git push")}}},
		Tools: []agenttool.Tool{log.tool("bash", "command")}, BeforeToolCall: e.BeforeToolCall(), MaxTurns: 4})
	ctx := context.Background()
	end, err := agent.Prompt(ctx, openresponses.UserText("push"))
	if err != nil {
		t.Fatal(err)
	}
	sleeper := ReviewerFunc(func(ctx context.Context, _ agentturn.ToolCallInfo, _ Verdict) (Review, error) {
		ctx, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
		defer cancel()
		select {
		case <-time.After(time.Minute):
			return Review{Outcome: Approved}, nil
		case <-ctx.Done():
			return Review{}, ctx.Err()
		}
	})
	answers, err := e.Answers(ctx, sleeper, end)
	if err != nil {
		t.Fatal(err)
	}
	if end, err = agent.Resume(ctx, answers...); err != nil {
		t.Fatal(err)
	}
	if got := outputs(end.Items)["call_push"]; got != "The reviewer did not answer in time; the call did not run." {
		t.Errorf("the call's output = %q", got)
	}
	if ran := log.list(); len(ran) != 0 {
		t.Errorf("ran %q", ran)
	}
}
