package agentpolicy

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// notReleased is the engine's answer to a held call the turn's end left
// unreleased: an output saying it did not run, which leaves ending the
// turn to the answer that stopped it.
func notReleased(callID string) agentturn.Answer {
	out := openresponses.NewFunctionCallOutput(callID, "The call was held for an approval and the turn was stopped; the call did not run.")
	return agentturn.Output(out).WithBy(ByPolicy).WithReason("not released: the turn was stopped")
}

// released is what a test expects of a release verdict.
type releaseVerdict struct {
	call   string
	action agentturn.ToolAction
	rule   string
	reason string
}

func checkReleaseVerdicts(t *testing.T, vs []Verdict, want []releaseVerdict) {
	t.Helper()
	if len(vs) != len(want) {
		t.Fatalf("the observer saw %d verdicts, want %d: %+v", len(vs), len(want), vs)
	}
	for i, v := range vs {
		rule := ""
		if v.Rule != nil {
			rule = v.Rule.String()
		}
		got := releaseVerdict{v.CallID, v.Action, rule, v.Reason}
		if got != want[i] || !v.Held || v.By != ByPolicy || v.RunID != "run_1" || v.Tool != "bash" {
			t.Errorf("release verdict %d = %+v (held %v by %q run %q), want %+v, held, by policy, in run_1",
				i, got, v.Held, v.By, v.RunID, want[i])
		}
	}
}

func TestRelease(t *testing.T) {
	refusal := openresponses.NewFunctionCallOutput("call_3", "Error: the user said no")
	releasedAdd := releaseVerdict{"call_1", agentturn.Allow, "bash(git add:*)", "released: allowed by bash(git add:*)"}
	releasedCommit := releaseVerdict{"call_2", agentturn.Allow, "bash(git commit:*)", "released: allowed by bash(git commit:*)"}
	for _, tc := range []struct {
		name     string
		answers  []agentturn.Answer
		want     []agentturn.Answer
		verdicts []releaseVerdict
	}{
		{"an approval releases the held calls in the model's order",
			[]agentturn.Answer{agentturn.Approve("call_3").WithNote("last time")},
			[]agentturn.Answer{
				agentturn.Approve("call_1").WithBy(ByPolicy),
				agentturn.Approve("call_2").WithBy(ByPolicy),
				agentturn.Approve("call_3").WithNote("last time"),
			},
			[]releaseVerdict{releasedAdd, releasedCommit}},
		{"a plain refusal lets the held calls run",
			[]agentturn.Answer{agentturn.Output(refusal)},
			[]agentturn.Answer{
				agentturn.Approve("call_1").WithBy(ByPolicy),
				agentturn.Approve("call_2").WithBy(ByPolicy),
				agentturn.Output(refusal),
			},
			[]releaseVerdict{releasedAdd, releasedCommit}},
		{"a refusal that ends the turn refuses the held calls",
			[]agentturn.Answer{agentturn.Refuse(refusal)},
			[]agentturn.Answer{notReleased("call_1"), notReleased("call_2"), agentturn.Refuse(refusal)},
			[]releaseVerdict{
				{"call_1", agentturn.Block, "", "not released: the turn was stopped"},
				{"call_2", agentturn.Block, "", "not released: the turn was stopped"},
			}},
		{"the caller's answer to a held call is kept as given",
			[]agentturn.Answer{agentturn.Approve("call_3"), agentturn.Output(openresponses.NewFunctionCallOutput("call_2", "skipped"))},
			[]agentturn.Answer{
				agentturn.Approve("call_1").WithBy(ByPolicy),
				agentturn.Output(openresponses.NewFunctionCallOutput("call_2", "skipped")),
				agentturn.Approve("call_3"),
			},
			[]releaseVerdict{releasedAdd}},
		{"an answer for a call that is not pending comes last",
			[]agentturn.Answer{agentturn.Approve("call_9"), agentturn.Approve("call_3")},
			[]agentturn.Answer{
				agentturn.Approve("call_1").WithBy(ByPolicy),
				agentturn.Approve("call_2").WithBy(ByPolicy),
				agentturn.Approve("call_3"),
				agentturn.Approve("call_9"),
			},
			[]releaseVerdict{releasedAdd, releasedCommit}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{}
			e := mustBuild(t, gitPolicy(t), splitMatchers(), WithObserver(rec.observe))
			calls := bashBatch("git add -A", "git commit -m wip", "git push --force")
			end := pendingEnd("run_1", calls, decideAll(t, e, "run_1", calls, nil))
			rec.take()
			got, err := e.Release(context.Background(), end, tc.answers...)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				gotJSON, _ := json.Marshal(got)
				wantJSON, _ := json.Marshal(tc.want)
				t.Errorf("answers = %s\n   want %s", gotJSON, wantJSON)
			}
			checkReleaseVerdicts(t, rec.take(), tc.verdicts)
			for _, c := range calls {
				if v, ok := e.Deferred("run_1", c.CallID); ok {
					t.Errorf("Deferred(run_1, %s) = %+v after the release", c.CallID, v)
				}
			}
			if runs := e.Runs(); len(runs) != 0 {
				t.Errorf("Runs() = %v after the release, want none", runs)
			}
		})
	}
}

func TestReleaseUnanswered(t *testing.T) {
	rec := &recorder{}
	e := mustBuild(t, gitPolicy(t), splitMatchers(), WithObserver(rec.observe))
	calls := []*openresponses.FunctionCall{
		{CallID: "call_a", Name: "bash", Arguments: string(shellArgs("git push"))},
		{CallID: "call_h", Name: "bash", Arguments: string(shellArgs("git add -A"))},
		{CallID: "call_b", Name: "bash", Arguments: string(shellArgs("git push --tags"))},
	}
	end := pendingEnd("run_1", calls, decideAll(t, e, "run_1", calls, nil))
	rec.take()

	preview, err := e.Release(context.Background(), end)
	if !errors.Is(err, ErrUnanswered) {
		t.Fatalf("Release with the asked calls unanswered: %v, want ErrUnanswered", err)
	}
	if want := "agentpolicy: pending call has no answer: call_a (bash), call_b (bash)"; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
	if want := []agentturn.Answer{agentturn.Approve("call_h").WithBy(ByPolicy)}; !reflect.DeepEqual(preview, want) {
		t.Errorf("preview = %+v, want %+v", preview, want)
	}
	if vs := rec.take(); len(vs) != 0 {
		t.Errorf("the observer saw %+v for a preview", vs)
	}
	for _, c := range calls {
		if _, ok := e.Deferred("run_1", c.CallID); !ok {
			t.Errorf("the preview forgot %s", c.CallID)
		}
	}

	answers, err := e.Release(context.Background(), end, agentturn.Approve("call_b"), agentturn.Approve("call_a"))
	if err != nil {
		t.Fatalf("Release with every asked call answered: %v", err)
	}
	want := []agentturn.Answer{agentturn.Approve("call_a"), agentturn.Approve("call_h").WithBy(ByPolicy), agentturn.Approve("call_b")}
	if !reflect.DeepEqual(answers, want) {
		t.Errorf("answers = %+v, want %+v", answers, want)
	}
	if vs := rec.take(); len(vs) != 1 || vs[0].CallID != "call_h" {
		t.Errorf("the observer saw %+v, want the one release", vs)
	}
}

func TestReleaseAnswersOnlyItsOwnRun(t *testing.T) {
	e := mustBuild(t, gitPolicy(t), splitMatchers())
	calls := bashBatch("git add -A", "git push")
	end := pendingEnd("run_1", calls, decideAll(t, e, "run_1", calls, nil))
	end.RunID = "run_other"
	_, err := e.Release(context.Background(), end, agentturn.Approve("call_2"))
	if want := "agentpolicy: pending call has no answer: call_1 (bash)"; err == nil || err.Error() != want {
		t.Errorf("Release for another run: %v, want %q", err, want)
	}
	if _, ok := e.Deferred("run_1", "call_1"); !ok {
		t.Error("a release of another run forgot run_1's held call")
	}
}

func TestReleaseCarriesWhatTheHooksGave(t *testing.T) {
	narrow := shellArgs("git add src")
	hookFn := func(_ context.Context, info agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
		if string(info.Args) == string(shellArgs("git add -A")) {
			return &agentturn.ToolDecision{Args: narrow, Note: "staged src only"}, nil
		}
		return nil, nil
	}
	rec := &recorder{}
	e := mustBuild(t, gitPolicy(t), splitMatchers(), WithHooks(hookFn), WithObserver(rec.observe))
	calls := bashBatch("git add -A", "git push")
	ds := decideAll(t, e, "run_1", calls, nil)
	if string(ds[0].Args) != string(narrow) || ds[0].Note != "staged src only" || !ds[0].Held {
		t.Fatalf("held decision = %+v, want the hook's arguments and note, held", ds[0])
	}
	rec.take()
	answers, err := e.Release(context.Background(), pendingEnd("run_1", calls, ds), agentturn.Approve("call_2"))
	if err != nil {
		t.Fatal(err)
	}
	want := []agentturn.Answer{
		agentturn.ApproveWith("call_1", narrow).WithNote("staged src only").WithBy(ByPolicy),
		agentturn.Approve("call_2"),
	}
	if !reflect.DeepEqual(answers, want) {
		t.Errorf("answers = %+v, want %+v", answers, want)
	}
	checkReleaseVerdicts(t, rec.take(), []releaseVerdict{
		{"call_1", agentturn.Allow, "bash(git add:*)", "released: allowed by bash(git add:*)"},
	})
}

// TestReleaseOfNothingIsNil: with nothing pending and no answers given,
// Release returns nil, as the published module does, so a host that
// checks for nil sees no answers.
func TestReleaseOfNothingIsNil(t *testing.T) {
	e := mustBuild(t, gitPolicy(t), splitMatchers())
	for name, end := range map[string]*agentturn.RunEnd{
		"no run end":            nil,
		"no pending call":       {RunID: "run_1"},
		"an entry with no call": {RunID: "run_1", Pending: []agentturn.PendingCall{{Reason: agentturn.PendingUnknown}}},
	} {
		if answers, err := e.Release(context.Background(), end); err != nil || answers != nil {
			t.Errorf("%s: Release = %#v, %v; want nil, nil", name, answers, err)
		}
	}
}

func TestReleaseSkipsWhatIsNotACall(t *testing.T) {
	e := mustBuild(t, gitPolicy(t), splitMatchers())
	end := &agentturn.RunEnd{RunID: "run_1", Pending: []agentturn.PendingCall{{Reason: agentturn.PendingUnknown}}}
	answers, err := e.Release(context.Background(), end)
	if err != nil || len(answers) != 0 {
		t.Errorf("Release of a pending entry with no call = %+v, %v; want nothing", answers, err)
	}
	given := []agentturn.Answer{agentturn.Approve("call_1")}
	if answers, err := e.Release(context.Background(), nil, given...); err != nil || !reflect.DeepEqual(answers, given) {
		t.Errorf("Release of no run end = %+v, %v; want the answers as given", answers, err)
	}
}

// TestReleaseAnswersADuplicateOnce lists each pending call twice, as a
// front that merged two views of a run might, and checks each is answered
// and reported once.
func TestReleaseAnswersADuplicateOnce(t *testing.T) {
	rec := &recorder{}
	e := mustBuild(t, gitPolicy(t), splitMatchers(), WithObserver(rec.observe))
	calls := bashBatch("git add -A", "git push")
	end := pendingEnd("run_1", calls, decideAll(t, e, "run_1", calls, nil))
	end.Pending = append(end.Pending, end.Pending...)
	rec.take()

	answers, err := e.Release(context.Background(), end, agentturn.Approve("call_2"))
	if err != nil {
		t.Fatal(err)
	}
	want := []agentturn.Answer{agentturn.Approve("call_1").WithBy(ByPolicy), agentturn.Approve("call_2")}
	if !reflect.DeepEqual(answers, want) {
		t.Errorf("answers = %+v, want %+v", answers, want)
	}
	checkReleaseVerdicts(t, rec.take(), []releaseVerdict{
		{"call_1", agentturn.Allow, "bash(git add:*)", "released: allowed by bash(git add:*)"},
	})
}

// TestHeldCallsDoNotEndTheTurn answers the held calls of a stopped turn
// with plain outputs: the asked call's own answer is the one that ends the
// turn, whether the front refused it with agentturn.Refuse or the
// reviewer's denial bound was reached.
func TestHeldCallsDoNotEndTheTurn(t *testing.T) {
	check := func(t *testing.T, answers []agentturn.Answer) {
		t.Helper()
		if len(answers) != 3 {
			t.Fatalf("answers = %+v, want three", answers)
		}
		for _, a := range answers[:2] {
			if a.Terminate || a.Output == nil {
				t.Errorf("held call %s: answer %+v, want an output that does not end the turn", a.CallID, a)
			}
		}
		if !answers[2].Terminate {
			t.Errorf("asked call: answer %+v, want the one that ends the turn", answers[2])
		}
	}
	t.Run("Release with a Refuse answer", func(t *testing.T) {
		e := mustBuild(t, gitPolicy(t), splitMatchers())
		end := askedEnd(t, e, "git add -A", "git commit -m wip", "git push --force")
		stop := agentturn.Refuse(openresponses.NewFunctionCallOutput("call_3", "no"))
		answers, err := e.Release(context.Background(), end, stop)
		if err != nil {
			t.Fatal(err)
		}
		check(t, answers)
	})
	t.Run("Answers at the denial bound", func(t *testing.T) {
		e := mustBuild(t, gitPolicy(t), splitMatchers(), WithDenialBound(DenialBound{Consecutive: 1}))
		end := askedEnd(t, e, "git add -A", "git commit -m wip", "git push --force")
		answers, err := e.Answers(context.Background(), &fixedReview{}, end)
		if !errors.Is(err, ErrDenialBound) {
			t.Fatalf("Answers: %v, want ErrDenialBound", err)
		}
		check(t, answers)
	})
}
