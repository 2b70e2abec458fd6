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

func TestAnswersNoRunEnd(t *testing.T) {
	e := mustBuild(t, gitPolicy(t), shellMatchers())
	if answers, err := e.Answers(context.Background(), &fixedReview{}, nil); answers != nil || err != nil {
		t.Errorf("Answers of no run end = %+v, %v; want nothing", answers, err)
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
		want := Verdict{RunID: "run_1", CallID: end.Pending[i].Call.CallID, Tool: "bash", Action: agentturn.Defer, By: ByPolicy}
		if !reflect.DeepEqual(v, want) {
			t.Errorf("the reviewer saw verdict %+v, want %+v", v, want)
		}
		if info.Call != end.Pending[i].Call || info.RunID != "run_1" || len(info.Batch) != 0 {
			t.Errorf("the reviewer saw %+v, want the call alone", info)
		}
	}
	checkAnswers(t, answers, []agentturn.Answer{
		agentturn.Approve("call_1").WithBy(ByAgent),
		agentturn.Approve("call_2").WithBy(ByAgent),
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
				agentturn.Approve("call_3").WithNote("ok").WithBy(ByAgent),
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

// TestAnswersNeverStartedReadsOnlyCallsThatMayHaveRun: a deferred call
// never started either, and is the reviewer's, whatever the record says.
func TestAnswersNeverStartedReadsOnlyCallsThatMayHaveRun(t *testing.T) {
	var asked []string
	never := WithNeverStarted(func(_ context.Context, _, call string) bool {
		asked = append(asked, call)
		return true
	})
	e := mustBuild(t, gitPolicy(t), shellMatchers(), never)
	end := askedEnd(t, e, "git push")
	end.Pending = append(end.Pending,
		agentturn.PendingCall{Call: bashCall("call_u", "ls"), Reason: agentturn.PendingUndispatched},
		agentturn.PendingCall{Call: bashCall("call_a", "ls"), Reason: agentturn.PendingAborted, IdempotencyKey: "k1"})
	answers, err := e.Answers(context.Background(), &fixedReview{rev: Review{Outcome: Approved}}, end)
	if err != nil {
		t.Fatal(err)
	}
	checkAnswers(t, answers, []agentturn.Answer{
		agentturn.Approve("call_1").WithBy(ByAgent),
		agentturn.Approve("call_u").WithBy(ByPolicy).WithReason("not started: decided on resume"),
		refusal("call_a", "The call was cut off before it started; it did not run.", ByPolicy, "not run: the call never started"),
	})
	if !reflect.DeepEqual(asked, []string{"call_a"}) {
		t.Errorf("WithNeverStarted was asked about %v, want only the cut-off call", asked)
	}
}

func TestSameArgs(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{`{"command":"ls"}`, `{"command":"ls"}`, true},
		{`{ "command" : "ls" }`, `{"command":"ls"}`, true},
		{`{"command":"ls"}`, `{"command":"ls -la"}`, false},
		{`{"command":"ls"`, `{"command":"ls"}`, false},
		{`{"command":"ls"}`, `not json`, false},
	} {
		if got := sameArgs(json.RawMessage(tc.a), json.RawMessage(tc.b)); got != tc.same {
			t.Errorf("sameArgs(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}

// A cut-off call is decided under the grant sets of the caller's scope, as
// Decide decides one: a scope's skill that allows the push runs it again,
// and outside the scope the push still goes to the reviewer.
func TestAnswersReplayReadsTheScopesGrantSets(t *testing.T) {
	e := mustBuild(t, gitPolicy(t), shellMatchers())
	scoped := ContextWithGrantScope(context.Background(), "conversation_a")
	skill := Source{Name: "skill:push", Trusted: true}
	if granted, refused := e.GrantSet(scoped, RuleSet{Source: skill, Allow: parseOrFail(t, "bash(git push:*)")}); len(granted) != 1 || len(refused) != 0 {
		t.Fatalf("GrantSet = %v, %v", granted, refused)
	}
	safe := replayBash(agenttool.ReplaySafe, "")

	r := &fixedReview{rev: Review{Outcome: Refused}}
	got, err := e.Answers(scoped, r, cutEnd("git push", safe))
	if err != nil {
		t.Fatal(err)
	}
	want := agentturn.Approve("call_1").WithBy(ByPolicy).WithReason("run again: replay safe; allowed by bash(git push:*)")
	checkAnswers(t, got, []agentturn.Answer{want})
	if len(r.asked) != 0 {
		t.Errorf("the reviewer was asked %d times under the scope whose skill allows the push", len(r.asked))
	}

	if _, err := e.Answers(context.Background(), r, cutEnd("git push", safe)); err != nil {
		t.Fatal(err)
	}
	if len(r.asked) != 1 {
		t.Errorf("the reviewer was asked %d times outside the scope, want 1", len(r.asked))
	}
}

// escapeHook is a product's hook that takes a shell call out of its
// sandbox's escape hatch: it rewrites a call that sets "escape" to the
// same command without it.
func escapeHook(_ context.Context, info agentturn.ToolCallInfo) (*agentturn.ToolDecision, error) {
	var args struct {
		Command string `json:"command"`
		Escape  bool   `json:"escape"`
	}
	if json.Unmarshal(info.Args, &args) != nil || !args.Escape {
		return nil, nil
	}
	return &agentturn.ToolDecision{Args: shellArgs(args.Command)}, nil
}

// TestAnswersRunTheHooksRewrite holds an approval to the arguments that
// will run: the reviewer is shown the arguments a [WithHooks] hook
// rewrote the call to, and the approval carries them, whether the engine
// remembers the call or only the loop's pending call carries the rewrite,
// and for a cut-off call the policy decides on its own too.
func TestAnswersRunTheHooksRewrite(t *testing.T) {
	escaped := `{"command":"git push","escape":true}`
	rewritten := string(shellArgs("git push"))
	asked := func(t *testing.T, e *Engine) *agentturn.RunEnd {
		calls := []*openresponses.FunctionCall{{CallID: "call_1", Name: "bash", Arguments: escaped}}
		return pendingEnd("run_1", calls, decideAll(t, e, "run_1", calls, nil))
	}
	for _, tc := range []struct {
		name   string
		end    func(*testing.T, *Engine) *agentturn.RunEnd
		forget bool
	}{
		{name: "the engine remembers the call", end: asked},
		{name: "only the pending call carries the rewrite", end: asked, forget: true},
		{name: "a cut-off call the policy asks about", end: func(*testing.T, *Engine) *agentturn.RunEnd {
			end := cutEnd("git push", replayBash(agenttool.ReplayKeyed, ""))
			end.Pending[0].Call.Arguments, end.Pending[0].Args = escaped, json.RawMessage(rewritten)
			return end
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustBuild(t, gitPolicy(t), splitMatchers(), WithHooks(escapeHook))
			end := tc.end(t, e)
			if tc.forget {
				e.Forget("run_1")
			}
			r := &fixedReview{rev: Review{Outcome: Approved}}
			answers, err := e.Answers(context.Background(), r, end)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.asked) != 1 || string(r.asked[0].Args) != rewritten {
				t.Errorf("the reviewer saw %d calls, the first with %s; want the one with the arguments that run, %s",
					len(r.asked), firstArgs(r.asked), rewritten)
			}
			// An approval names no key: Resume runs a call that may have
			// run under its pending key.
			if len(answers) != 1 || string(answers[0].Args) != rewritten || answers[0].Output != nil ||
				answers[0].IdempotencyKey != "" {
				t.Errorf("answers = %+v, want one approval with %s and no key", answers, rewritten)
			}
		})
	}
	t.Run("a cut-off call the policy allows", func(t *testing.T) {
		e := mustBuild(t, gitPolicy(t), splitMatchers(), WithHooks(escapeHook))
		end := cutEnd("git add -A", replayBash(agenttool.ReplayKeyed, ""))
		rewrittenAdd := shellArgs("git add -A")
		end.Pending[0].Call.Arguments, end.Pending[0].Args = `{"command":"git add -A","escape":true}`, rewrittenAdd
		answers, err := e.Answers(context.Background(), &fixedReview{}, end)
		if err != nil {
			t.Fatal(err)
		}
		checkAnswers(t, answers, []agentturn.Answer{agentturn.ApproveWith("call_1", rewrittenAdd).
			WithBy(ByPolicy).WithReason("run again: replay keyed; allowed by bash(git add:*)")})
	})
}

// firstArgs is the arguments of the first call a reviewer saw, for a
// failure's message.
func firstArgs(asked []agentturn.ToolCallInfo) string {
	if len(asked) == 0 {
		return "none"
	}
	return string(asked[0].Args)
}

// TestAnswersRanElsewhereNamesThePendingCall answers a call with the
// output its first run left elsewhere under the pending call's own ID,
// whatever call ID that output was recorded under.
func TestAnswersRanElsewhereNamesThePendingCall(t *testing.T) {
	e := mustBuild(t, gitPolicy(t), splitMatchers())
	ran := &openresponses.FunctionCallOutput{CallID: "call_9", Status: openresponses.StatusCompleted,
		Output: openresponses.FunctionCallOutputData{Text: "pushed"}}
	end := &agentturn.RunEnd{RunID: "run_1", Pending: []agentturn.PendingCall{
		{Call: bashCall("call_1", "git push"), Reason: agentturn.PendingAborted, Ran: ran}}}
	answers, err := e.Answers(context.Background(), &fixedReview{}, end)
	if err != nil {
		t.Fatal(err)
	}
	if len(answers) != 1 || answers[0].CallID != "call_1" || answers[0].Output == nil || answers[0].Output.CallID != "call_1" {
		t.Fatalf("answers = %+v, want one output naming call_1", answers)
	}
	if ran.CallID != "call_9" {
		t.Errorf("the pending call's output was changed to name %q", ran.CallID)
	}
}

// TestAnswersForgottenCallIsDeferredByPolicy shows the reviewer of a
// call the engine no longer remembers a verdict by the policy, the only
// decider that defers a call before a review.
func TestAnswersForgottenCallIsDeferredByPolicy(t *testing.T) {
	e := mustBuild(t, gitPolicy(t), splitMatchers())
	end := askedEnd(t, e, "git push")
	e.Forget("run_1")
	r := &fixedReview{rev: Review{Outcome: Approved}}
	if _, err := e.Answers(context.Background(), r, end); err != nil {
		t.Fatal(err)
	}
	if len(r.seen) != 1 || r.seen[0].By != ByPolicy || r.seen[0].Action != agentturn.Defer {
		t.Errorf("the reviewer saw %+v, want one Defer by policy", r.seen)
	}
}

// TestAnswersWithNothingPendingIsNil answers a run end that left nothing
// pending with no answers at all, nil, as it answers no run end.
func TestAnswersWithNothingPendingIsNil(t *testing.T) {
	e := mustBuild(t, gitPolicy(t), splitMatchers())
	answers, err := e.Answers(context.Background(), &fixedReview{}, &agentturn.RunEnd{RunID: "run_1"})
	if answers != nil || err != nil {
		t.Errorf("Answers of a run end with nothing pending = %#v, %v; want nil, nil", answers, err)
	}
}
