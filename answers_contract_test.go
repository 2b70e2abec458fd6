package agentpolicy

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// TestAnswersContract runs every row of contract section 7 over one
// pending call, with its answer, its verdict and its decider.
func TestAnswersContract(t *testing.T) {
	safe := replayBash(agenttool.ReplaySafe, "")
	keyed := replayBash(agenttool.ReplayKeyed, "")
	keyedSafeLs := replayBash(agenttool.ReplayKeyed, "ls -la")
	unknown := replayBash(agenttool.ReplayUnknown, "")
	asked := func(t *testing.T, e *Engine) *agentturn.RunEnd { return askedEnd(t, e, "git push") }
	withPending := func(p agentturn.PendingCall) func(*testing.T, *Engine) *agentturn.RunEnd {
		return func(*testing.T, *Engine) *agentturn.RunEnd {
			p.Call = bashCall("call_1", "git push")
			return &agentturn.RunEnd{RunID: "run_1", Pending: []agentturn.PendingCall{p}}
		}
	}
	cut := func(cmd string, tool agenttool.Tool) func(*testing.T, *Engine) *agentturn.RunEnd {
		return func(*testing.T, *Engine) *agentturn.RunEnd { return cutEnd(cmd, tool) }
	}
	ran := &openresponses.FunctionCallOutput{ID: "fco_other", CallID: "call_1", Status: openresponses.StatusCompleted,
		Output: openresponses.FunctionCallOutputData{Text: "pushed"}}
	hookRewrite := func(_ context.Context, info agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
		return &agentturn.ToolDecision{Args: shellArgs("git add src")}, nil
	}
	for _, tc := range []struct {
		name    string
		opts    []Option
		end     func(*testing.T, *Engine) *agentturn.RunEnd
		rev     Review
		err     error
		want    agentturn.Answer
		verdict *answerVerdict
		reviews int
	}{
		{name: "approved", end: asked, rev: Review{Outcome: Approved},
			want:    agentturn.Approve("call_1").WithBy(ByAgent),
			verdict: &answerVerdict{"call_1", agentturn.Allow, "approved by reviewer", ByAgent, false}, reviews: 1},
		{name: "approved with a reason, a note and arguments, by a human", end: asked,
			rev:     Review{Outcome: Approved, Reason: " fine. ", Note: "push once", Args: shellArgs("git push origin main"), By: ByHuman},
			want:    agentturn.ApproveWith("call_1", shellArgs("git push origin main")).WithNote("push once").WithBy(ByHuman),
			verdict: &answerVerdict{"call_1", agentturn.Allow, "approved by reviewer:  fine. ", ByHuman, false}, reviews: 1},
		{name: "approved with a reason of spaces and a full stop", end: asked, rev: Review{Outcome: Approved, Reason: " . "},
			want:    agentturn.Approve("call_1").WithBy(ByAgent),
			verdict: &answerVerdict{"call_1", agentturn.Allow, "approved by reviewer", ByAgent, false}, reviews: 1},
		{name: "approved with arguments the policy denies", end: asked,
			rev:     Review{Outcome: Approved, Args: shellArgs("rm -rf /")},
			want:    refusal("call_1", "Denied by policy: denied by bash(rm:*)."+doNotPursue, ByPolicy, "denied by bash(rm:*)"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "denied by bash(rm:*)", ByPolicy, false}, reviews: 1},
		{name: "refused", end: asked, rev: Review{Outcome: Refused, Reason: "not a read.", Note: "try git status"},
			want:    refusal("call_1", "Denied by reviewer: not a read."+doNotPursue, ByAgent, "denied by reviewer: not a read.").WithNote("try git status"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "denied by reviewer: not a read.", ByAgent, false}, reviews: 1},
		{name: "refused without a reason", end: asked, rev: Review{By: ByHuman},
			want:    refusal("call_1", "Denied by reviewer."+doNotPursue, ByHuman, "denied by reviewer"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "denied by reviewer", ByHuman, false}, reviews: 1},
		{name: "refused by a reviewer that is policy", end: asked, rev: Review{Reason: "no pushes on Friday", By: ByPolicy},
			want:    refusal("call_1", "Denied by policy: no pushes on Friday."+doNotPursue, ByPolicy, "denied by reviewer: no pushes on Friday"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "denied by reviewer: no pushes on Friday", ByPolicy, false}, reviews: 1},
		{name: "an outcome the engine does not know refuses", end: asked, rev: Review{Outcome: Outcome(9), Reason: "maybe"},
			want:    refusal("call_1", "Denied by reviewer: maybe."+doNotPursue, ByAgent, "denied by reviewer: maybe"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "denied by reviewer: maybe", ByAgent, false}, reviews: 1},
		{name: "timed out", end: asked, rev: Review{Outcome: TimedOut, Reason: "no answer within 20s", By: ByAgent},
			want:    refusal("call_1", "The reviewer did not answer in time; the call did not run.", ByPolicy, "reviewer timed out"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "reviewer timed out", ByPolicy, false}, reviews: 1},
		{name: "the reviewer's deadline passed", end: asked, err: context.DeadlineExceeded,
			want:    refusal("call_1", "The reviewer did not answer in time; the call did not run.", ByPolicy, "reviewer timed out"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "reviewer timed out", ByPolicy, false}, reviews: 1},
		{name: "review error", end: asked, rev: Review{Outcome: Approved}, err: errors.New("model: connection refused"),
			want:    refusal("call_1", "The reviewer could not evaluate the call; the call did not run.", ByPolicy, "reviewer failed: model: connection refused"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "reviewer failed: model: connection refused", ByPolicy, false}, reviews: 1},
		{name: "undispatched", end: withPending(agentturn.PendingCall{Reason: agentturn.PendingUndispatched}),
			want: agentturn.Approve("call_1").WithBy(ByPolicy).WithReason("not started: decided on resume")},
		{name: "ran elsewhere", end: withPending(agentturn.PendingCall{Reason: agentturn.PendingUnknown, Ran: ran, RanWhere: "ran on branch main"}),
			want: agentturn.Output(&openresponses.FunctionCallOutput{CallID: "call_1", Status: openresponses.StatusCompleted,
				Output: openresponses.FunctionCallOutputData{Text: "pushed"}}).WithBy(ByPolicy).WithReason("ran on branch main"),
			verdict: &answerVerdict{"call_1", agentturn.Allow, "ran on branch main", ByPolicy, false}},
		{name: "ran elsewhere, the record silent on where", end: withPending(agentturn.PendingCall{Reason: agentturn.PendingAborted, Ran: ran}),
			want: agentturn.Output(&openresponses.FunctionCallOutput{CallID: "call_1", Status: openresponses.StatusCompleted,
				Output: openresponses.FunctionCallOutputData{Text: "pushed"}}).WithBy(ByPolicy).WithReason("ran elsewhere"),
			verdict: &answerVerdict{"call_1", agentturn.Allow, "ran elsewhere", ByPolicy, false}},
		{name: "never started",
			opts:    []Option{WithNeverStarted(func(_ context.Context, run, call string) bool { return run == "run_1" && call == "call_1" })},
			end:     withPending(agentturn.PendingCall{Reason: agentturn.PendingUnknown, Tool: safe}),
			want:    refusal("call_1", "The call was cut off before it started; it did not run.", ByPolicy, "not run: the call never started"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "not run: the call never started", ByPolicy, false}},
		{name: "rejected", end: withPending(agentturn.PendingCall{Reason: agentturn.PendingRejected}),
			want:    refusal("call_1", "The call was refused before it ran; it did not run.", ByPolicy, "not run: the call was refused before it ran"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "not run: the call was refused before it ran", ByPolicy, false}},
		{name: "rejected with the record's reason", end: withPending(agentturn.PendingCall{Reason: agentturn.PendingRejected, Refused: "denied by bash(git push:*)."}),
			want: refusal("call_1", "The call was refused before it ran; it did not run: denied by bash(git push:*).", ByPolicy,
				"not run: the call was refused before it ran: denied by bash(git push:*)"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "not run: the call was refused before it ran: denied by bash(git push:*)", ByPolicy, false}},
		{name: "replay allowed by the policy", end: cut("git add -A", safe),
			want:    agentturn.Approve("call_1").WithBy(ByPolicy).WithReason("run again: replay safe; allowed by bash(git add:*)"),
			verdict: &answerVerdict{"call_1", agentturn.Allow, "run again: replay safe; allowed by bash(git add:*)", ByPolicy, false}},
		{name: "keyed replay allowed by the policy", end: cut("git add -A", keyed),
			want:    agentturn.Approve("call_1").WithBy(ByPolicy).WithReason("run again: replay keyed; allowed by bash(git add:*)"),
			verdict: &answerVerdict{"call_1", agentturn.Allow, "run again: replay keyed; allowed by bash(git add:*)", ByPolicy, false}},
		{name: "replay denied by the policy", end: cut("rm -rf /tmp/x", safe),
			want:    refusal("call_1", cutOffText7+" Denied by policy: denied by bash(rm:*)."+doNotPursue, ByPolicy, "denied by bash(rm:*)"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "denied by bash(rm:*)", ByPolicy, false}},
		{name: "replay asked by the policy, approved by the reviewer", end: cut("git push", keyed), rev: Review{Outcome: Approved},
			want:    agentturn.Approve("call_1").WithBy(ByAgent),
			verdict: &answerVerdict{"call_1", agentturn.Allow, "approved by reviewer", ByAgent, false}, reviews: 1},
		{name: "replay asked by the policy, refused by the reviewer", end: cut("git push", keyed), rev: Review{Reason: "not now"},
			want:    refusal("call_1", cutOffText7+" Denied by reviewer: not now."+doNotPursue, ByAgent, "denied by reviewer: not now"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "denied by reviewer: not now", ByAgent, false}, reviews: 1},
		{name: "replay asked by the policy, the reviewer timed out", end: cut("git push", keyed), rev: Review{Outcome: TimedOut},
			want:    refusal("call_1", cutOffText7+" The reviewer did not answer in time.", ByPolicy, "reviewer timed out"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "reviewer timed out", ByPolicy, false}, reviews: 1},
		{name: "replay asked by the policy, the review failed", end: cut("git push", keyed), err: errors.New("unreadable"),
			want:    refusal("call_1", cutOffText7+" The reviewer could not evaluate the call.", ByPolicy, "reviewer failed: unreadable"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "reviewer failed: unreadable", ByPolicy, false}, reviews: 1},
		{name: "a hook rewrote a replay's args", opts: []Option{WithHooks(hookRewrite)}, end: cut("git add -A", keyed),
			want: refusal("call_1", cutOffText7, ByPolicy, "not run again: a hook rewrote the arguments, and replay is keyed for the rewrite"),
			verdict: &answerVerdict{"call_1", agentturn.Block,
				"not run again: a hook rewrote the arguments, and replay is keyed for the rewrite", ByPolicy, false}},
		{name: "a hook rewrote a replay's args to ones safe to run again",
			opts: []Option{WithHooks(func(context.Context, agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
				return &agentturn.ToolDecision{Args: shellArgs("ls -la"), Note: "listed instead"}, nil
			})},
			end: cut("ls", keyedSafeLs),
			want: agentturn.ApproveWith("call_1", shellArgs("ls -la")).WithNote("listed instead").
				WithBy(ByPolicy).WithReason("run again: replay keyed; allowed by bash(ls:*)"),
			verdict: &answerVerdict{"call_1", agentturn.Allow, "run again: replay keyed; allowed by bash(ls:*)", ByPolicy, false}},
		{name: "the reviewer rewrote a replay's args", end: cut("git push", keyed),
			rev:  Review{Outcome: Approved, Args: shellArgs("git push origin main")},
			want: refusal("call_1", cutOffText7, ByPolicy, "not run again: the reviewer rewrote the arguments, and replay is keyed for the rewrite"),
			verdict: &answerVerdict{"call_1", agentturn.Block,
				"not run again: the reviewer rewrote the arguments, and replay is keyed for the rewrite", ByPolicy, false}, reviews: 1},
		{name: "the reviewer rewrote a replay's args to ones safe to run again", end: cut("git push", keyedSafeLs),
			rev:     Review{Outcome: Approved, Args: shellArgs("ls -la")},
			want:    agentturn.ApproveWith("call_1", shellArgs("ls -la")).WithBy(ByAgent),
			verdict: &answerVerdict{"call_1", agentturn.Allow, "approved by reviewer", ByAgent, false}, reviews: 1},
		{name: "a hook fails for a replay", opts: []Option{WithHooks(failingHook("git add -A"))}, end: cut("git add -A", safe),
			want: refusal("call_1", cutOffText7+" Denied by policy: bash call could not be evaluated: hook down."+doNotPursue, ByPolicy,
				"bash call could not be evaluated: hook down"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "bash call could not be evaluated: hook down", ByPolicy, false}},
		{name: "a hook fails for the reviewer's rewrite", opts: []Option{WithHooks(failingHook("git push --boom"))}, end: asked,
			rev: Review{Outcome: Approved, Args: shellArgs("git push --boom")},
			want: refusal("call_1", "Denied by policy: bash call could not be evaluated: hook down."+doNotPursue, ByPolicy,
				"bash call could not be evaluated: hook down"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "bash call could not be evaluated: hook down", ByPolicy, false}, reviews: 1},
		{name: "a hook hands a keyed replay its own arguments back, spaced differently",
			opts: []Option{WithHooks(func(context.Context, agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
				return &agentturn.ToolDecision{Args: json.RawMessage(`{"command":"git add -A"}`)}, nil
			})},
			end: withPending(agentturn.PendingCall{Reason: agentturn.PendingAborted, IdempotencyKey: "k1", Tool: keyed,
				Args: json.RawMessage(`{ "command": "git add -A" }`)}),
			want: agentturn.ApproveWith("call_1", json.RawMessage(`{ "command": "git add -A" }`)).
				WithBy(ByPolicy).WithReason("run again: replay keyed; allowed by bash(git add:*)"),
			verdict: &answerVerdict{"call_1", agentturn.Allow, "run again: replay keyed; allowed by bash(git add:*)", ByPolicy, false}},
		{name: "ran elsewhere under no call ID", end: withPending(agentturn.PendingCall{Reason: agentturn.PendingUnknown,
			Ran: &openresponses.FunctionCallOutput{Output: openresponses.FunctionCallOutputData{Text: "pushed"}}}),
			want: agentturn.Output(&openresponses.FunctionCallOutput{CallID: "call_1",
				Output: openresponses.FunctionCallOutputData{Text: "pushed"}}).WithBy(ByPolicy).WithReason("ran elsewhere"),
			verdict: &answerVerdict{"call_1", agentturn.Allow, "ran elsewhere", ByPolicy, false}},
		{name: "may have run, no replay claim", end: cut("git add -A", unknown),
			want:    refusal("call_1", cutOffText7, ByPolicy, "not reviewed: aborted"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "not reviewed: aborted", ByPolicy, false}},
		{name: "may have run, keyed without a key", end: withPending(agentturn.PendingCall{Reason: agentturn.PendingUnknown, Tool: keyed}),
			want:    refusal("call_1", cutOffText7, ByPolicy, "not reviewed: unknown"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "not reviewed: unknown", ByPolicy, false}},
		{name: "may have run, no tool", end: withPending(agentturn.PendingCall{Reason: agentturn.PendingUnknown}),
			want:    refusal("call_1", cutOffText7, ByPolicy, "not reviewed: unknown"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "not reviewed: unknown", ByPolicy, false}},
		{name: "held after its dispatch, may run again, refused by the reviewer",
			end: func(t *testing.T, e *Engine) *agentturn.RunEnd {
				end := askedEnd(t, e, "git push")
				end.Pending[0].Dispatched, end.Pending[0].IdempotencyKey, end.Pending[0].Tool = true, "k1", keyed
				return end
			},
			rev:     Review{Reason: "not again"},
			want:    refusal("call_1", cutOffText7+" Denied by reviewer: not again."+doNotPursue, ByAgent, "denied by reviewer: not again"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "denied by reviewer: not again", ByAgent, false}, reviews: 1},
		{name: "held after its dispatch, may run again, approved by the reviewer",
			end: func(t *testing.T, e *Engine) *agentturn.RunEnd {
				end := askedEnd(t, e, "git push")
				end.Pending[0].Dispatched, end.Pending[0].IdempotencyKey, end.Pending[0].Tool = true, "k1", keyed
				return end
			},
			rev:     Review{Outcome: Approved},
			want:    agentturn.Approve("call_1").WithBy(ByAgent),
			verdict: &answerVerdict{"call_1", agentturn.Allow, "approved by reviewer", ByAgent, false}, reviews: 1},
		{name: "held after its dispatch, may not run again",
			end:     withPending(agentturn.PendingCall{Reason: agentturn.PendingDeferred, Dispatched: true, IdempotencyKey: "k1", Tool: unknown}),
			want:    refusal("call_1", cutOffText7, ByPolicy, "not reviewed: deferred"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "not reviewed: deferred", ByPolicy, false}},
		{name: "answered", end: withPending(agentturn.PendingCall{Reason: agentturn.PendingAnswered, Tool: safe}),
			want:    refusal("call_1", cutOffText7, ByPolicy, "not reviewed: answered"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "not reviewed: answered", ByPolicy, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{}
			e := mustBuild(t, gitPolicy(t), shellMatchers(), append(tc.opts, WithObserver(rec.observe))...)
			end := tc.end(t, e)
			rec.take()
			r := &fixedReview{rev: tc.rev, err: tc.err}
			got, err := e.Answers(context.Background(), r, end)
			if err != nil {
				t.Fatalf("Answers: %v", err)
			}
			checkAnswers(t, got, []agentturn.Answer{tc.want})
			var want []answerVerdict
			if tc.verdict != nil {
				want = append(want, *tc.verdict)
			}
			vs := rec.take()
			checkAnswerVerdicts(t, vs, want)
			for _, v := range vs {
				// A reviewer's approval keeps its reason on the verdict; the
				// answer carries none, as in the published module.
				reason := v.Reason
				if v.Action == agentturn.Allow && v.By != ByPolicy {
					reason = ""
				}
				if v.By != got[0].By || reason != got[0].Reason {
					t.Errorf("the verdict names %q for %q, the answer %q for %q", v.By, v.Reason, got[0].By, got[0].Reason)
				}
			}
			if len(r.asked) != tc.reviews {
				t.Errorf("the reviewer was asked %d times, want %d", len(r.asked), tc.reviews)
			}
			if runs := e.Runs(); len(runs) != 0 {
				t.Errorf("Runs() = %v after Answers, want none", runs)
			}
		})
	}
}

// failingHook is a hook that fails for the bash command cmd and has
// nothing to say about any other call.
func failingHook(cmd string) hook {
	return func(_ context.Context, info agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
		if string(info.Args) == string(shellArgs(cmd)) {
			return nil, errors.New("hook down")
		}
		return nil, nil
	}
}
