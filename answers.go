package agentpolicy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// WithDenialBound replaces [DefaultDenialBound], the bound past which
// [Engine.Answers] ends the run instead of letting the model try again.
func WithDenialBound(b DenialBound) Option {
	return func(e *Engine) { e.reviews.bound = b }
}

// WithNeverStarted tells [Engine.Answers] which cut-off calls the
// session's record says never started: no dispatch and no output, in a
// record that writes dispatches. The loop lists such a call from a seeded
// transcript as unknown, and without this Answers tells the model it may
// have run. fn is called with the run and the call, for a call that may
// have run, and reports true only for one the record shows never started.
// Such a call is refused as one that did not run rather than approved for
// the loop to decide, as a call pending as agentturn.PendingUndispatched
// is: the loop lists it under another reason and would hold an approval of
// it to its replay rule, and refuse it.
func WithNeverStarted(fn func(ctx context.Context, runID, callID string) bool) Option {
	return func(e *Engine) { e.neverStarted = fn }
}

// ResetReviews forgets the reviews the [DenialBound] counts, as a new
// message from the user restarts the count. A front calls it before the
// prompt that starts a new turn.
func (e *Engine) ResetReviews() {
	e.reviews.reset()
}

// Answers answers the calls end left pending without a human, asking r
// about the calls the policy asked about, and returns one answer per
// pending call for agentturn's Resume, in the order of end.Pending. It is
// how an unattended run, a CI job or a sub-agent, goes on past an ask.
//
// The reviewer sees each call the engine asked about in the run as the
// hook saw it, with the verdict that deferred it; a call the engine does
// not remember, one of a forgotten run or one another hook deferred, is
// reviewed with the call alone and a verdict by the policy whose Action is
// Defer and whose Reason is empty. Either way the reviewer reads the
// arguments that will run: those a [WithHooks] hook rewrote the call to,
// else the pending call's Args, else the model's. An approval runs the
// call inside the loop with those arguments, or with [Review.Args] when
// the reviewer gave any, and carries them on the answer whenever they are
// not the model's, with [Review.Note] after the result; it releases the
// calls the engine held for it. A refusal, a
// timeout, a review that failed and a reviewer that panicked each answer
// the call with a refusal the model reads, so nothing runs that was not
// approved, and the held calls of the run are answered with text that
// says they did not run; a refusal tells the model not to pursue the
// same outcome by another route. An approval whose arguments the policy
// denies is refused by the policy, since no answer beats a deny rule.
//
// A call that may have run, one an abort cut off or one found unanswered
// in a seeded transcript, is not the reviewer's to approve. When its tool
// says a second run is safe, agenttool.ReplaySafe, or safe under its first
// run's key, agenttool.ReplayKeyed, and the pending call carries that key,
// it is decided under the policy of the moment, as [Engine.Decide] decides
// a call with its confinement and the [WithHooks] fold but no hold:
// allowed, it is approved to run again under that key, with the
// arguments it was dispatched with when they are not the model's; asked
// about, it
// goes to the reviewer with that verdict; denied, it is refused. A call
// from a seeded transcript may never have been decided, so a replay is
// never approved on the tool's word alone. Arguments a hook or the
// reviewer rewrote are refused unless the tool says the rewrite is
// agenttool.ReplaySafe, since Resume runs a keyed call again only with the
// arguments it was dispatched with. The tool is the pending call's, else
// the one [WithTools] names. Any other such call is refused with text that
// says it may have run, and so is a call pending as
// agentturn.PendingAnswered, which is owed its output and nothing else.
//
// The engine answers on its own, by policy: a call the record shows ran
// elsewhere, agentturn.PendingCall.Ran, with that output and
// PendingCall.RanWhere as the reason; a call never handed to its tool,
// agentturn.PendingUndispatched, with an approval for Resume to put to the
// policy, which is no verdict, since the decision on resume is; a call
// [WithNeverStarted] says never started, with a refusal saying it did not
// run; and a call pending as agentturn.PendingRejected with the refusal it
// is owed, giving PendingCall.Refused when the record has it.
//
// Every answer reaches the observers as a [Verdict], Allow for an
// approval and for a call answered with the output it returned elsewhere,
// Block otherwise, with [Verdict.By] naming who answered:
// [Review.By] for the reviewer's, [ByAgent] when it names nobody, and
// [ByPolicy] for the engine's own, a timeout and a failed review among
// them. A reviewer's approval has "approved by reviewer", and a refusal
// "denied by reviewer", each followed by ": " and [Review.Reason] as the
// reviewer wrote it when there is one; the model reads a refusal's reason
// trimmed of one trailing full stop. agentturn.Answer.By names the same
// decider, and agentturn.Answer.Reason carries the verdict's reason,
// except on a reviewer's approval, whose answer has none. The verdicts of
// the calls answered here come first, then those of the held calls. Each
// is written to the [WithJournal] journal before it takes effect, and an
// approval the journal could not record is answered instead as a blocked
// call is, "Error: " and the refusal's reason, and refuses the held calls
// of the run as a reviewer's refusal does.
//
// Every review that is not an approval counts toward the engine's
// [DenialBound], across calls to Answers until [Engine.ResetReviews]; the
// engine's own answers do not count. When the bound is reached, every
// refusal among the answers to the calls Answers answers is built with
// agentturn.Refuse, so Resume appends the outputs and ends the run
// StopRefused without calling the model, and the answers come with
// [ErrDenialBound]; the held calls are refused with outputs that say the
// turn was stopped, which leave ending it to those refusals.
//
// Answers completes through [Engine.Release] and forgets the calls it
// answers: a pending call it could not answer makes [ErrUnanswered], with
// the answers as a preview, joined with ErrDenialBound when both hold. A
// nil reviewer is an error. ctx is handed to the reviewer, carrying
// end.RunID when it carries no run. A run end with nothing pending is
// answered with nil. A ctx that is done before every
// review is made returns its error and no answers, so a cancelled caller
// never approves anything. A reviewer's own deadline passing while ctx is
// live is a timeout.
func (e *Engine) Answers(ctx context.Context, r Reviewer, end *agentturn.RunEnd) ([]agentturn.Answer, error) {
	if noReviewer(r) {
		return nil, errNoReviewer
	}
	if end == nil {
		return nil, nil
	}
	if agentturn.RunIDFromContext(ctx) == "" {
		ctx = agentturn.ContextWithRunID(ctx, end.RunID)
	}
	a := answering{e: e, r: r, s: e.snapshotFor(ctx), run: end.RunID}
	seen := make(map[string]bool, len(end.Pending))
	for _, p := range end.Pending {
		if p.Call == nil || seen[p.Call.CallID] {
			continue
		}
		seen[p.Call.CallID] = true
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := a.answer(ctx, p); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	fate := heldRun
	if a.declined {
		fate = heldRefused
	}
	bound := e.reviews.add(a.reviews)
	if bound {
		fate = heldStopped
		for _, i := range a.refusals {
			a.answers[i].Terminate = true
		}
	}
	answers, err := e.complete(ctx, end, a.answers, a.verdicts, a.of, fate)
	if len(answers) == 0 {
		answers = nil
	}
	switch {
	case bound && err != nil:
		err = errors.Join(err, ErrDenialBound)
	case bound:
		err = ErrDenialBound
	}
	return answers, err
}

// noReviewer reports a reviewer that cannot be called.
func noReviewer(r Reviewer) bool {
	f, ok := r.(ReviewerFunc)
	return r == nil || ok && f == nil
}

// answering is one call to Answers under way: the answers it built, in
// the pending order, and what they add to the denial bound.
type answering struct {
	e   *Engine
	r   Reviewer
	s   *snapshot
	run string

	answers  []agentturn.Answer
	verdicts []Verdict
	// of is the index in answers of the answer each verdict records.
	of []int
	// refusals index the answers that refuse a call, which the bound
	// turns into refusals that end the run.
	refusals []int
	// reviews are the reviewer's answers, true for an approval, in order.
	reviews []bool
	// declined is set when a reviewer did not approve a call.
	declined bool
}

// cutOff is what the answer to a call that may have run reads of it.
type cutOff struct {
	// on marks a call that may have run.
	on   bool
	tool agenttool.Tool
	// dispatched are the arguments the call was handed over with, and
	// replay what its tool says of running them again.
	dispatched json.RawMessage
	replay     agenttool.Replay
	key        string
}

// answer answers one pending call, or leaves it to the release when the
// engine held it. Its error is ctx's.
func (a *answering) answer(ctx context.Context, p agentturn.PendingCall) error {
	id := p.Call.CallID
	base := Verdict{RunID: a.run, CallID: id, Tool: p.Call.Name, Action: agentturn.Block, By: ByPolicy}
	switch {
	case p.Ran != nil:
		a.ranElsewhere(p, base)
		return nil
	case p.Reason == agentturn.PendingUndispatched:
		a.answers = append(a.answers, agentturn.Approve(id).WithBy(ByPolicy).WithReason(reasonUndispatched))
		return nil
	case p.Reason == agentturn.PendingRejected:
		refused := trimReason(p.Refused)
		base.Reason = withReason(reasonRejected, refused)
		a.refuse(base, rejectedText(refused), "")
		return nil
	case p.Reason == agentturn.PendingAnswered:
		base.Reason = notReviewedReason(p.Reason)
		a.refuse(base, textCutOff, "")
		return nil
	}
	c := cutOff{on: p.MayHaveRun(), key: p.IdempotencyKey, tool: p.Tool}
	if c.on {
		c.dispatched = dispatchedArgs(p)
		if a.e.neverStarted != nil && a.e.neverStarted(ctx, a.run, id) {
			base.Reason = reasonNeverStarted
			a.refuse(base, textNeverStarted, "")
			return nil
		}
		if c.tool == nil && a.e.tools != nil {
			c.tool, _ = a.e.tools(ctx, p.Call.Name)
		}
		c.replay = agenttool.ReplayOf(ctx, c.tool, c.dispatched)
		if c.replay != agenttool.ReplaySafe && (c.replay != agenttool.ReplayKeyed || c.key == "") {
			base.Reason = notReviewedReason(p.Reason)
			a.refuse(base, textCutOff, "")
			return nil
		}
	}
	if def, ok := a.e.deferred.get(a.run, id); ok {
		switch {
		case !def.describes(p.Call):
			base.Reason = reasonNotRecorded
			a.refuse(base, textNotRecorded, "")
			return nil
		case def.v.Held:
			return nil
		}
		info := def.info
		if def.args != nil {
			info.Args = def.args
		}
		return a.review(ctx, info, def.v, c, def.args)
	}
	if c.on {
		return a.replay(ctx, p, c, base)
	}
	info := agentturn.ToolCallInfo{RunID: a.run, Call: p.Call, Tool: p.Tool, Args: dispatchedArgs(p), Index: -1}
	return a.review(ctx, info, Verdict{RunID: a.run, CallID: id, Tool: p.Call.Name, Action: agentturn.Defer, By: ByPolicy}, c, p.Args)
}

// dispatchedArgs are the arguments a pending call was handed over or held
// with, the model's when the loop records none.
func dispatchedArgs(p agentturn.PendingCall) json.RawMessage {
	if p.Args != nil {
		return p.Args
	}
	return callArgs(p.Call)
}

// ranElsewhere answers a call with the output the record shows it
// returned off the loop's path. Only the output's status and text are
// copied: its item ID is the other path's, and its call ID may be too, so
// the answer names the pending call.
func (a *answering) ranElsewhere(p agentturn.PendingCall, v Verdict) {
	out := &openresponses.FunctionCallOutput{CallID: p.Call.CallID, Status: p.Ran.Status, Output: p.Ran.Output}
	v.Action, v.Reason = agentturn.Allow, p.RanWhere
	if v.Reason == "" {
		v.Reason = reasonRanElsewhere
	}
	ans := agentturn.Output(out).WithBy(ByPolicy).WithReason(v.Reason)
	ans.CallID = p.Call.CallID
	a.of = append(a.of, len(a.answers))
	a.answers = append(a.answers, ans)
	a.verdicts = append(a.verdicts, v.clone())
}

// replay decides a call that may run again under the policy of the
// moment, with its confinement and the hooks but no hold. A hook that
// fails blocks it, as a call that could not be evaluated is blocked.
func (a *answering) replay(ctx context.Context, p agentturn.PendingCall, c cutOff, base Verdict) error {
	info := agentturn.ToolCallInfo{RunID: a.run, Call: p.Call, Tool: c.tool, Args: c.dispatched, Index: -1}
	var j judgement
	if err := a.e.judge(ctx, a.s, info, &j); err != nil {
		j = judgement{v: base.unevaluable(err)}
	}
	switch {
	case j.v.Action == agentturn.Block:
		a.refuse(j.v, cutOffText(deniedText(ByPolicy, trimReason(j.v.Reason))), "")
		return nil
	case j.args != nil && !sameArgs(j.args, c.dispatched):
		if rewrite := agenttool.ReplayOf(ctx, c.tool, j.args); rewrite != agenttool.ReplaySafe {
			base.Reason = rewriteReason("a hook", rewrite)
			a.refuse(base, textCutOff, "")
			return nil
		}
		info.Args = j.args
	default:
		j.args = p.Args
	}
	if j.v.Action == agentturn.Defer {
		return a.review(ctx, info, j.v, c, j.args)
	}
	j.v.Reason = replayReason(c.replay, j.v.Reason)
	a.approve(j.v, j.args, j.note, j.v.Reason)
	return nil
}

// review asks the reviewer about a deferred call, info as the hook saw it
// and v the verdict that deferred it, and answers the call from the
// review. args are what an approval runs with when the reviewer gives
// none, nil for the pending call's own. Its error is ctx's: a caller that
// is gone approves nothing.
func (a *answering) review(ctx context.Context, info agentturn.ToolCallInfo, v Verdict, c cutOff, args json.RawMessage) error {
	rev, err := consult(ctx, a.r, info, v.clone())
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	approved := err == nil && rev.Outcome == Approved
	a.reviews = append(a.reviews, approved)
	v.Rule, v.Held, v.By, v.Action = nil, false, ByPolicy, agentturn.Block
	switch {
	case err == nil && rev.Outcome == TimedOut, errors.Is(err, context.DeadlineExceeded):
		v.Reason = reasonTimedOut
		a.refuse(v, pick(c.on, cutOffText(textTimedOutCutOff), textTimedOut), "")
	case err != nil:
		v.Reason = failedReason(err)
		a.refuse(v, pick(c.on, cutOffText(textFailedCutOff), textFailed), "")
	case approved:
		approved = a.approved(ctx, info, v, c, args, rev)
	default:
		v.By = reviewerBy(rev.By)
		why := trimReason(rev.Reason)
		v.Reason = reviewReason(reasonDenied, rev.Reason)
		text := deniedText(pick(v.By == ByPolicy, ByPolicy, "reviewer"), why)
		a.refuse(v, pick(c.on, cutOffText(text), text), rev.Note)
	}
	a.declined = a.declined || !approved
	return nil
}

// approved answers a call the reviewer approved and reports whether the
// answer runs it. Arguments the reviewer rewrote are decided again, since
// they are what runs and no answer beats a deny rule, and for a call that
// may have run they must be safe to run again; a refusal of either is the
// engine's, by policy.
func (a *answering) approved(ctx context.Context, info agentturn.ToolCallInfo, v Verdict, c cutOff, args json.RawMessage, rev Review) bool {
	if rev.Args != nil {
		args = rev.Args
		info.Args = rev.Args
		var j judgement
		if err := a.e.judge(ctx, a.s, info, &j); err != nil || j.v.Action == agentturn.Block {
			if err != nil {
				j = judgement{v: v.unevaluable(err)}
			}
			v.Reason = j.v.Reason
			text := deniedText(ByPolicy, trimReason(v.Reason))
			a.refuse(v, pick(c.on, cutOffText(text), text), "")
			return false
		}
		if c.on && !sameArgs(rev.Args, c.dispatched) {
			if rewrite := agenttool.ReplayOf(ctx, c.tool, rev.Args); rewrite != agenttool.ReplaySafe {
				v.Reason = rewriteReason("the reviewer", rewrite)
				a.refuse(v, textCutOff, "")
				return false
			}
		}
	}
	v.Action, v.By, v.Reason = agentturn.Allow, reviewerBy(rev.By), reviewReason(reasonApproved, rev.Reason)
	a.approve(v, args, rev.Note, "")
	return true
}

// approve answers a call with an approval that runs it, with args when
// set, v recording why and the answer carrying reason. The answer names no
// idempotency key: Resume runs a call that may have run under the key of
// its first run.
func (a *answering) approve(v Verdict, args json.RawMessage, note, reason string) {
	ans := agentturn.Approve(v.CallID)
	if args != nil {
		ans = agentturn.ApproveWith(v.CallID, args)
	}
	if note != "" {
		ans = ans.WithNote(note)
	}
	a.of = append(a.of, len(a.answers))
	a.answers = append(a.answers, ans.WithBy(v.By).WithReason(reason))
	a.verdicts = append(a.verdicts, v.clone())
}

// refuse answers a call with an output the model reads, text, and the
// note after it, v recording why.
func (a *answering) refuse(v Verdict, text, note string) {
	v.Action = agentturn.Block
	ans := agentturn.Output(openresponses.NewFunctionCallOutput(v.CallID, text)).WithBy(v.By).WithReason(v.Reason)
	if note != "" {
		ans = ans.WithNote(note)
	}
	a.refusals = append(a.refusals, len(a.answers))
	a.of = append(a.of, len(a.answers))
	a.answers = append(a.answers, ans)
	a.verdicts = append(a.verdicts, v.clone())
}

// consult asks the reviewer, reading a panic as a review that failed: a
// reviewer is the product's code, or a model's client, and its failure
// must refuse the call rather than take the host down.
func consult(ctx context.Context, r Reviewer, info agentturn.ToolCallInfo, v Verdict) (rev Review, err error) {
	defer func() {
		if p := recover(); p != nil {
			rev, err = Review{}, fmt.Errorf("panic: %v", p)
		}
	}()
	return r.Review(ctx, info, v)
}

// reviewerBy is the decider a review names, [ByAgent] when it names none.
func reviewerBy(by string) string {
	if by == "" {
		return ByAgent
	}
	return by
}

// pick is a when cond holds, else b.
func pick(cond bool, a, b string) string {
	if cond {
		return a
	}
	return b
}

// sameArgs reports whether two argument texts are the same JSON up to
// insignificant white space, as Resume compares them.
func sameArgs(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return false
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}
