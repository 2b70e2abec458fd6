package agentpolicy

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// The texts of contract section 7, written out here rather than read from
// the package, so a test fails when the package changes one.
const (
	doNotPursue = " Do not pursue the same outcome through a workaround, indirect execution or policy circumvention."
	cutOffText7 = "The call was cut off before it finished and may have run; it was not run again."
)

// replayBash is a bash tool that claims replay r for every call, or for
// the calls whose command is safeCmd when one is given, ReplayUnknown for
// the rest.
func replayBash(r agenttool.Replay, safeCmd string) agenttool.Tool {
	return agenttool.NewFunc("bash", "", json.RawMessage(`{"type":"object"}`),
		func(context.Context, agenttool.Call) (agenttool.Result, error) { return agenttool.Text("ok"), nil },
		agenttool.WithReplay(func(_ context.Context, args json.RawMessage) agenttool.Replay {
			if safeCmd != "" {
				if string(args) == string(shellArgs(safeCmd)) {
					return agenttool.ReplaySafe
				}
				return r
			}
			return r
		}))
}

// fixedReview is a reviewer that gives rev and err to every call and
// counts the calls it was asked about.
type fixedReview struct {
	rev Review
	err error

	mu    sync.Mutex
	asked []agentturn.ToolCallInfo
	seen  []Verdict
}

func (f *fixedReview) Review(_ context.Context, info agentturn.ToolCallInfo, v Verdict) (Review, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, info)
	f.seen = append(f.seen, v)
	return f.rev, f.err
}

// askedEnd decides a batch of the commands in run_1 and returns the run
// end the loop reports.
func askedEnd(t *testing.T, e *Engine, cmds ...string) *agentturn.RunEnd {
	t.Helper()
	calls := bashBatch(cmds...)
	return pendingEnd("run_1", calls, decideAll(t, e, "run_1", calls, nil))
}

// cutEnd is a run end whose one call, call_1 running cmd, an abort cut off
// under key k1.
func cutEnd(cmd string, tool agenttool.Tool) *agentturn.RunEnd {
	return &agentturn.RunEnd{RunID: "run_1", Reason: agentturn.ReasonAborted, Pending: []agentturn.PendingCall{
		{Call: bashCall("call_1", cmd), Reason: agentturn.PendingAborted, IdempotencyKey: "k1", Tool: tool},
	}}
}

// refusal is an output answer by by, for reason, reading text.
func refusal(callID, text, by, reason string) agentturn.Answer {
	return agentturn.Output(openresponses.NewFunctionCallOutput(callID, text)).WithBy(by).WithReason(reason)
}

// answerVerdict is what a test expects of the verdict of an answer.
type answerVerdict struct {
	call   string
	action agentturn.ToolAction
	reason string
	by     string
	held   bool
}

func checkAnswerVerdicts(t *testing.T, vs []Verdict, want []answerVerdict) {
	t.Helper()
	got := make([]answerVerdict, len(vs))
	for i, v := range vs {
		got[i] = answerVerdict{v.CallID, v.Action, v.Reason, v.By, v.Held}
		if v.RunID != "run_1" || v.Tool != "bash" {
			t.Errorf("verdict %d names run %q tool %q, want run_1 and bash", i, v.RunID, v.Tool)
		}
	}
	if len(got) != len(want) || len(want) > 0 && !reflect.DeepEqual(got, want) {
		t.Errorf("verdicts =\n%+v\nwant\n%+v", got, want)
	}
}

func checkAnswers(t *testing.T, got, want []agentturn.Answer) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		gotJSON, _ := json.MarshalIndent(got, "", " ")
		wantJSON, _ := json.MarshalIndent(want, "", " ")
		t.Errorf("answers = %s\nwant %s", gotJSON, wantJSON)
	}
}

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
			want:    agentturn.Approve("call_1").WithBy(ByAgent).WithReason("approved by reviewer"),
			verdict: &answerVerdict{"call_1", agentturn.Allow, "approved by reviewer", ByAgent, false}, reviews: 1},
		{name: "approved with a reason, a note and arguments, by a human", end: asked,
			rev:     Review{Outcome: Approved, Reason: " fine. ", Note: "push once", Args: shellArgs("git push origin main"), By: ByHuman},
			want:    agentturn.ApproveWith("call_1", shellArgs("git push origin main")).WithNote("push once").WithBy(ByHuman).WithReason("approved by reviewer: fine"),
			verdict: &answerVerdict{"call_1", agentturn.Allow, "approved by reviewer: fine", ByHuman, false}, reviews: 1},
		{name: "approved with arguments the policy denies", end: asked,
			rev:     Review{Outcome: Approved, Args: shellArgs("rm -rf /")},
			want:    refusal("call_1", "Denied by policy: denied by bash(rm:*)."+doNotPursue, ByPolicy, "denied by bash(rm:*)"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "denied by bash(rm:*)", ByPolicy, false}, reviews: 1},
		{name: "refused", end: asked, rev: Review{Outcome: Refused, Reason: "not a read.", Note: "try git status"},
			want:    refusal("call_1", "Denied by reviewer: not a read."+doNotPursue, ByAgent, "denied by reviewer: not a read").WithNote("try git status"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "denied by reviewer: not a read", ByAgent, false}, reviews: 1},
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
			verdict: &answerVerdict{"call_1", agentturn.Block, "ran on branch main", ByPolicy, false}},
		{name: "ran elsewhere, the record silent on where", end: withPending(agentturn.PendingCall{Reason: agentturn.PendingAborted, Ran: ran}),
			want: agentturn.Output(&openresponses.FunctionCallOutput{CallID: "call_1", Status: openresponses.StatusCompleted,
				Output: openresponses.FunctionCallOutputData{Text: "pushed"}}).WithBy(ByPolicy).WithReason("ran elsewhere"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "ran elsewhere", ByPolicy, false}},
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
			want:    agentturn.Approve("call_1").WithIdempotencyKey("k1").WithBy(ByPolicy).WithReason("run again: replay safe; allowed by bash(git add:*)"),
			verdict: &answerVerdict{"call_1", agentturn.Allow, "run again: replay safe; allowed by bash(git add:*)", ByPolicy, false}},
		{name: "keyed replay allowed by the policy", end: cut("git add -A", keyed),
			want:    agentturn.Approve("call_1").WithIdempotencyKey("k1").WithBy(ByPolicy).WithReason("run again: replay keyed; allowed by bash(git add:*)"),
			verdict: &answerVerdict{"call_1", agentturn.Allow, "run again: replay keyed; allowed by bash(git add:*)", ByPolicy, false}},
		{name: "replay denied by the policy", end: cut("rm -rf /tmp/x", safe),
			want:    refusal("call_1", cutOffText7+" Denied by policy: denied by bash(rm:*)."+doNotPursue, ByPolicy, "denied by bash(rm:*)"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "denied by bash(rm:*)", ByPolicy, false}},
		{name: "replay asked by the policy, approved by the reviewer", end: cut("git push", keyed), rev: Review{Outcome: Approved},
			want:    agentturn.Approve("call_1").WithIdempotencyKey("k1").WithBy(ByAgent).WithReason("approved by reviewer"),
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
			want: agentturn.ApproveWith("call_1", shellArgs("ls -la")).WithIdempotencyKey("k1").WithNote("listed instead").
				WithBy(ByPolicy).WithReason("run again: replay keyed; allowed by bash(ls:*)"),
			verdict: &answerVerdict{"call_1", agentturn.Allow, "run again: replay keyed; allowed by bash(ls:*)", ByPolicy, false}},
		{name: "the reviewer rewrote a replay's args", end: cut("git push", keyed),
			rev:  Review{Outcome: Approved, Args: shellArgs("git push origin main")},
			want: refusal("call_1", cutOffText7, ByPolicy, "not run again: the reviewer rewrote the arguments, and replay is keyed for the rewrite"),
			verdict: &answerVerdict{"call_1", agentturn.Block,
				"not run again: the reviewer rewrote the arguments, and replay is keyed for the rewrite", ByPolicy, false}, reviews: 1},
		{name: "the reviewer rewrote a replay's args to ones safe to run again", end: cut("git push", keyedSafeLs),
			rev:     Review{Outcome: Approved, Args: shellArgs("ls -la")},
			want:    agentturn.ApproveWith("call_1", shellArgs("ls -la")).WithIdempotencyKey("k1").WithBy(ByAgent).WithReason("approved by reviewer"),
			verdict: &answerVerdict{"call_1", agentturn.Allow, "approved by reviewer", ByAgent, false}, reviews: 1},
		{name: "may have run, no replay claim", end: cut("git add -A", unknown),
			want:    refusal("call_1", cutOffText7, ByPolicy, "not reviewed: aborted"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "not reviewed: aborted", ByPolicy, false}},
		{name: "may have run, keyed without a key", end: withPending(agentturn.PendingCall{Reason: agentturn.PendingUnknown, Tool: keyed}),
			want:    refusal("call_1", cutOffText7, ByPolicy, "not reviewed: unknown"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "not reviewed: unknown", ByPolicy, false}},
		{name: "may have run, no tool", end: withPending(agentturn.PendingCall{Reason: agentturn.PendingUnknown}),
			want:    refusal("call_1", cutOffText7, ByPolicy, "not reviewed: unknown"),
			verdict: &answerVerdict{"call_1", agentturn.Block, "not reviewed: unknown", ByPolicy, false}},
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
				if v.By != got[0].By || v.Reason != got[0].Reason {
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

func TestAnswersReviewerSeesTheCallAsTheHookSawIt(t *testing.T) {
	e := mustBuild(t, gitPolicy(t), splitMatchers())
	end := askedEnd(t, e, "git add -A", "git push --force")
	r := &fixedReview{rev: Review{Outcome: Approved}}
	if _, err := e.Answers(context.Background(), r, end); err != nil {
		t.Fatal(err)
	}
	if len(r.asked) != 1 {
		t.Fatalf("the reviewer was asked %d times, want once, for the asked call", len(r.asked))
	}
	info, v := r.asked[0], r.seen[0]
	if info.RunID != "run_1" || info.Turn != 1 || info.Call.CallID != "call_2" || info.Index != 1 || len(info.Batch) != 2 ||
		string(info.Args) != string(shellArgs("git push --force")) {
		t.Errorf("the reviewer saw %+v, want call_2 as the hook saw it", info)
	}
	if v.Action != agentturn.Defer || v.Reason != "approval required by bash(git push:*)" || v.Rule == nil ||
		v.Rule.String() != "bash(git push:*)" || v.Subject != "git push --force" || v.By != ByPolicy {
		t.Errorf("the reviewer saw verdict %+v, want the one that deferred the call", v)
	}
}

func TestAnswersForgottenRun(t *testing.T) {
	e := mustBuild(t, gitPolicy(t), splitMatchers())
	end := askedEnd(t, e, "git add -A", "git push")
	e.Forget("run_1")
	r := &fixedReview{rev: Review{Outcome: Approved}}
	answers, err := e.Answers(context.Background(), r, end)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.asked) != 2 {
		t.Fatalf("the reviewer was asked %d times, want both calls, which the engine no longer remembers", len(r.asked))
	}
	for i, info := range r.asked {
		v := r.seen[i]
		want := Verdict{RunID: "run_1", CallID: end.Pending[i].Call.CallID, Tool: "bash", Action: agentturn.Defer}
		if !reflect.DeepEqual(v, want) {
			t.Errorf("the reviewer saw verdict %+v, want %+v", v, want)
		}
		if info.Call != end.Pending[i].Call || info.RunID != "run_1" || len(info.Batch) != 0 {
			t.Errorf("the reviewer saw %+v, want the call alone", info)
		}
	}
	checkAnswers(t, answers, []agentturn.Answer{
		agentturn.Approve("call_1").WithBy(ByAgent).WithReason("approved by reviewer"),
		agentturn.Approve("call_2").WithBy(ByAgent).WithReason("approved by reviewer"),
	})
}

func TestAnswersReleasesTheHeldCalls(t *testing.T) {
	for _, tc := range []struct {
		name     string
		rev      Review
		err      error
		want     []agentturn.Answer
		verdicts []answerVerdict
	}{
		{"an approval releases them", Review{Outcome: Approved, Note: "ok"}, nil,
			[]agentturn.Answer{
				agentturn.Approve("call_1").WithBy(ByPolicy),
				agentturn.Approve("call_2").WithBy(ByPolicy),
				agentturn.Approve("call_3").WithNote("ok").WithBy(ByAgent).WithReason("approved by reviewer"),
			},
			[]answerVerdict{
				{"call_3", agentturn.Allow, "approved by reviewer", ByAgent, false},
				{"call_1", agentturn.Allow, "released: allowed by bash(git add:*)", ByPolicy, true},
				{"call_2", agentturn.Allow, "released: allowed by bash(git commit:*)", ByPolicy, true},
			}},
		{"a refusal refuses them", Review{Reason: "no force pushes"}, nil,
			[]agentturn.Answer{
				refusal("call_1", heldRefusedText, ByPolicy, "not released: a call of its turn was not approved"),
				refusal("call_2", heldRefusedText, ByPolicy, "not released: a call of its turn was not approved"),
				refusal("call_3", "Denied by reviewer: no force pushes."+doNotPursue, ByAgent, "denied by reviewer: no force pushes"),
			},
			[]answerVerdict{
				{"call_3", agentturn.Block, "denied by reviewer: no force pushes", ByAgent, false},
				{"call_1", agentturn.Block, "not released: a call of its turn was not approved", ByPolicy, true},
				{"call_2", agentturn.Block, "not released: a call of its turn was not approved", ByPolicy, true},
			}},
		{"a failed review refuses them", Review{}, errors.New("boom"),
			[]agentturn.Answer{
				refusal("call_1", heldRefusedText, ByPolicy, "not released: a call of its turn was not approved"),
				refusal("call_2", heldRefusedText, ByPolicy, "not released: a call of its turn was not approved"),
				refusal("call_3", "The reviewer could not evaluate the call; the call did not run.", ByPolicy, "reviewer failed: boom"),
			},
			[]answerVerdict{
				{"call_3", agentturn.Block, "reviewer failed: boom", ByPolicy, false},
				{"call_1", agentturn.Block, "not released: a call of its turn was not approved", ByPolicy, true},
				{"call_2", agentturn.Block, "not released: a call of its turn was not approved", ByPolicy, true},
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{}
			e := mustBuild(t, gitPolicy(t), splitMatchers(), WithObserver(rec.observe))
			end := askedEnd(t, e, "git add -A", "git commit -m wip", "git push --force")
			end.Pending = append(end.Pending, end.Pending[0])
			rec.take()
			r := &fixedReview{rev: tc.rev, err: tc.err}
			answers, err := e.Answers(context.Background(), r, end)
			if err != nil {
				t.Fatal(err)
			}
			checkAnswers(t, answers, tc.want)
			checkAnswerVerdicts(t, rec.take(), tc.verdicts)
			if len(r.asked) != 1 {
				t.Errorf("the reviewer was asked %d times, want once: a held call is not reviewed", len(r.asked))
			}
			if runs := e.Runs(); len(runs) != 0 {
				t.Errorf("Runs() = %v after Answers, want none", runs)
			}
		})
	}
}

const heldRefusedText = "The call was held for the approval of another call of its turn, which was not approved; the call did not run."

func TestAnswersReviewerPanics(t *testing.T) {
	rec := &recorder{}
	e := mustBuild(t, gitPolicy(t), shellMatchers(), WithObserver(rec.observe))
	end := askedEnd(t, e, "git push")
	rec.take()
	r := ReviewerFunc(func(context.Context, agentturn.ToolCallInfo, Verdict) (Review, error) { panic("boom") })
	answers, err := e.Answers(context.Background(), r, end)
	if err != nil {
		t.Fatal(err)
	}
	checkAnswers(t, answers, []agentturn.Answer{
		refusal("call_1", "The reviewer could not evaluate the call; the call did not run.", ByPolicy, "reviewer failed: panic: boom"),
	})
	checkAnswerVerdicts(t, rec.take(), []answerVerdict{{"call_1", agentturn.Block, "reviewer failed: panic: boom", ByPolicy, false}})
}

func TestAnswersNoReviewer(t *testing.T) {
	e := mustBuild(t, gitPolicy(t), shellMatchers())
	end := askedEnd(t, e, "git push")
	for name, r := range map[string]Reviewer{"nil": nil, "a nil ReviewerFunc": ReviewerFunc(nil)} {
		answers, err := e.Answers(context.Background(), r, end)
		if err == nil || err.Error() != "agentpolicy: no reviewer" || answers != nil {
			t.Errorf("Answers with %s: %v, %v; want agentpolicy: no reviewer", name, answers, err)
		}
	}
	if _, ok := e.Deferred("run_1", "call_1"); !ok {
		t.Error("Answers without a reviewer forgot the asked call")
	}
}

func TestAnswersCancelledContextApprovesNothing(t *testing.T) {
	rec := &recorder{}
	e := mustBuild(t, gitPolicy(t), splitMatchers(), WithObserver(rec.observe))
	end := askedEnd(t, e, "git add -A", "git push", "git push --tags")
	rec.take()

	ctx, cancel := context.WithCancel(context.Background())
	r := ReviewerFunc(func(context.Context, agentturn.ToolCallInfo, Verdict) (Review, error) {
		cancel()
		return Review{Outcome: Approved}, nil
	})
	answers, err := e.Answers(ctx, r, end)
	if !errors.Is(err, context.Canceled) || answers != nil {
		t.Fatalf("Answers cancelled during a review = %+v, %v; want no answers and context.Canceled", answers, err)
	}
	answers, err = e.Answers(ctx, &fixedReview{rev: Review{Outcome: Approved}}, end)
	if !errors.Is(err, context.Canceled) || answers != nil {
		t.Fatalf("Answers under a cancelled context = %+v, %v; want no answers and context.Canceled", answers, err)
	}
	if vs := rec.take(); len(vs) != 0 {
		t.Errorf("the observer saw %+v", vs)
	}
	for _, id := range []string{"call_1", "call_2", "call_3"} {
		if _, ok := e.Deferred("run_1", id); !ok {
			t.Errorf("a cancelled Answers forgot %s", id)
		}
	}
}

func TestAnswersCarriesTheRunOnTheContext(t *testing.T) {
	var lookedUp, reviewed string
	tools := func(ctx context.Context, name string) (agenttool.Tool, bool) {
		lookedUp = agentturn.RunIDFromContext(ctx)
		return replayBash(agenttool.ReplaySafe, ""), true
	}
	e := mustBuild(t, gitPolicy(t), shellMatchers(), WithToolsFor(tools))
	end := &agentturn.RunEnd{RunID: "run_1", Pending: []agentturn.PendingCall{
		{Call: bashCall("call_1", "git push"), Reason: agentturn.PendingUnknown},
	}}
	r := ReviewerFunc(func(ctx context.Context, _ agentturn.ToolCallInfo, _ Verdict) (Review, error) {
		reviewed = agentturn.RunIDFromContext(ctx)
		return Review{Outcome: Approved}, nil
	})
	if _, err := e.Answers(context.Background(), r, end); err != nil {
		t.Fatal(err)
	}
	if lookedUp != "run_1" || reviewed != "run_1" {
		t.Errorf("the lookup saw run %q and the reviewer %q, want run_1 for both", lookedUp, reviewed)
	}
}

func TestAnswersDenialBound(t *testing.T) {
	refuse := &fixedReview{rev: Review{Reason: "no"}}
	e := mustBuild(t, gitPolicy(t), splitMatchers())
	for i := range 2 {
		answers, err := e.Answers(context.Background(), refuse, askedEnd(t, e, "git push"))
		if err != nil || answers[0].Terminate {
			t.Fatalf("refusal %d: %+v, %v; want a plain refusal", i+1, answers, err)
		}
	}
	end := askedEnd(t, e, "git add -A", "git push")
	answers, err := e.Answers(context.Background(), refuse, end)
	if err != ErrDenialBound {
		t.Fatalf("the third refusal in a row: %v, want ErrDenialBound", err)
	}
	stopped := notReleased("call_1")
	stopped.Reason = "not released: the turn was stopped"
	refused := refusal("call_2", "Denied by reviewer: no."+doNotPursue, ByAgent, "denied by reviewer: no")
	refused.Terminate = true
	checkAnswers(t, answers, []agentturn.Answer{stopped, refused})

	// The bound holds until the reviews are reset; the engine's own
	// answers do not count.
	undispatched := &agentturn.RunEnd{RunID: "run_1", Pending: []agentturn.PendingCall{
		{Call: bashCall("call_9", "ls"), Reason: agentturn.PendingUndispatched},
	}}
	if _, err := e.Answers(context.Background(), refuse, undispatched); err != ErrDenialBound {
		t.Errorf("Answers before a reset: %v, want ErrDenialBound", err)
	}
	e.ResetReviews()
	if _, err := e.Answers(context.Background(), refuse, undispatched); err != nil {
		t.Errorf("Answers after a reset: %v, want none", err)
	}
	for i := range 2 {
		if _, err := e.Answers(context.Background(), refuse, askedEnd(t, e, "git push")); err != nil {
			t.Fatalf("refusal %d after the reset: %v", i+1, err)
		}
		if _, err := e.Answers(context.Background(), refuse, undispatched); err != nil {
			t.Fatalf("an engine's answer after refusal %d: %v", i+1, err)
		}
	}
	approve := &fixedReview{rev: Review{Outcome: Approved}}
	if _, err := e.Answers(context.Background(), approve, askedEnd(t, e, "git push")); err != nil {
		t.Fatalf("an approval: %v", err)
	}
	if _, err := e.Answers(context.Background(), refuse, askedEnd(t, e, "git push")); err != nil {
		t.Errorf("a refusal after an approval: %v, want the count in a row restarted", err)
	}
}

func TestAnswersDenialBoundJoinsUnanswered(t *testing.T) {
	e := mustBuild(t, gitPolicy(t), splitMatchers(), WithDenialBound(DenialBound{Consecutive: 1}))
	end := askedEnd(t, e, "git add -A", "git push")
	// A front that forgets the run while its reviewer answers leaves the
	// held call to nobody.
	r := ReviewerFunc(func(context.Context, agentturn.ToolCallInfo, Verdict) (Review, error) {
		e.Forget("run_1")
		return Review{}, nil
	})
	answers, err := e.Answers(context.Background(), r, end)
	if !errors.Is(err, ErrDenialBound) || !errors.Is(err, ErrUnanswered) {
		t.Fatalf("err = %v, want ErrDenialBound joined with ErrUnanswered", err)
	}
	if want := "agentpolicy: pending call has no answer: call_1 (bash)\nagentpolicy: reviewer denial bound reached"; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
	if len(answers) != 1 || answers[0].CallID != "call_2" || !answers[0].Terminate {
		t.Errorf("answers = %+v, want the refusal of call_2, ending the run", answers)
	}
}

func TestDenialBoundWindow(t *testing.T) {
	l := reviewLog{bound: DenialBound{Total: 3, Window: 5}}
	steps := []struct {
		approvals []bool
		reached   bool
	}{
		{[]bool{false, true, false}, false},     // 2 refusals in 3
		{[]bool{true, true}, false},             // 2 in the last 5
		{[]bool{true}, false},                   // the first refusal leaves the window: 1 in 5
		{[]bool{false, false}, false},           // 2 in the last 5
		{[]bool{false}, true},                   // 3 in the last 5
		{[]bool{true, true, true, true}, false}, // 1 in 5
		{[]bool{true, true, true, true, true}, false},
	}
	for i, s := range steps {
		if got := l.add(s.approvals); got != s.reached {
			t.Errorf("step %d: reached = %v, want %v", i, got, s.reached)
		}
	}
	unbounded := reviewLog{bound: DenialBound{Total: 3}}
	if unbounded.add([]bool{false, true, true, true, false, true}) || !unbounded.add([]bool{false}) {
		t.Error("with no window, the third refusal since the reset should reach the bound, and not before")
	}
	unbounded.reset()
	if unbounded.add([]bool{false, false}) {
		t.Error("the reset did not clear the count")
	}
	none := reviewLog{}
	if none.add([]bool{false, false, false, false}) {
		t.Error("a zero bound was reached")
	}
}

func TestDefaultDenialBound(t *testing.T) {
	if DefaultDenialBound != (DenialBound{Consecutive: 3, Total: 10, Window: 50}) {
		t.Errorf("DefaultDenialBound = %+v", DefaultDenialBound)
	}
	if ErrDenialBound.Error() != "agentpolicy: reviewer denial bound reached" {
		t.Errorf("ErrDenialBound = %q", ErrDenialBound)
	}
	// Ten refusals among fifty reviews, never three in a row.
	l := reviewLog{bound: DefaultDenialBound}
	var reviews []bool
	for range 9 {
		reviews = append(reviews, false, true)
	}
	if l.add(reviews) {
		t.Fatal("nine refusals reached the default bound")
	}
	if !l.add([]bool{false}) {
		t.Error("ten refusals within fifty reviews did not reach the default bound")
	}
}

func TestAnswersConcurrent(t *testing.T) {
	e := mustBuild(t, gitPolicy(t), splitMatchers(), WithDenialBound(DenialBound{Total: 40}))
	refuse := &fixedReview{rev: Review{}}
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		run := "run_" + strings.Repeat("x", i+1)
		calls := bashBatch("git add -A", "git push")
		end := pendingEnd(run, calls, decideAll(t, e, run, calls, nil))
		wg.Go(func() {
			_, err := e.Answers(context.Background(), refuse, end)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	bound := 0
	for err := range errs {
		if errors.Is(err, ErrDenialBound) {
			bound++
		} else if err != nil {
			t.Error(err)
		}
	}
	if bound != 1 {
		t.Errorf("%d of 40 concurrent Answers saw the bound of 40 refusals, want exactly the last", bound)
	}
	if runs := e.Runs(); len(runs) != 0 {
		t.Errorf("Runs() = %v, want none", runs)
	}
}

func TestAnswersReviewerDeadline(t *testing.T) {
	e := mustBuild(t, gitPolicy(t), shellMatchers())
	r := ReviewerFunc(func(ctx context.Context, _ agentturn.ToolCallInfo, _ Verdict) (Review, error) {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Millisecond)
		defer cancel()
		<-ctx.Done()
		return Review{}, ctx.Err()
	})
	answers, err := e.Answers(context.Background(), r, askedEnd(t, e, "git push"))
	if err != nil {
		t.Fatal(err)
	}
	checkAnswers(t, answers, []agentturn.Answer{
		refusal("call_1", "The reviewer did not answer in time; the call did not run.", ByPolicy, "reviewer timed out"),
	})
}
