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
// have run. It reports true only for one the record shows never started.
//
// Such a call is refused as one that did not run, as a call pending as
// agentturn.PendingUndispatched is. It is not approved for the loop to
// decide. The loop lists it under another reason; it would hold an
// approval of it to its replay rule, and refuse it.
func WithNeverStarted(fn func(ctx context.Context, runID, callID string) bool) Option {
	return func(e *Engine) { e.neverStarted = fn }
}

// ResetReviews forgets the reviews the [DenialBound] counts, as a new
// message from the user restarts the count. A front calls it before the
// prompt that starts a new turn.
func (e *Engine) ResetReviews() {
	e.reviews.reset()
}

// Answers answers the calls end left pending without a human. It asks r
// about the calls the policy asked about and returns one answer per
// pending call, in the order of end.Pending, for agentturn's Resume. It is
// how an unattended run, a CI job or a sub-agent, goes on past an ask.
// RFC 0001 §15 is the full contract.
//
// Which call goes where (15.1):
//   - An asked call goes to r with the verdict that deferred it; a call the
//     engine does not remember goes with a bare Defer verdict.
//   - A held call is released with the asked ones, as [Engine.Release]
//     releases it.
//   - A call that may have run is refused as cut off. It is decided again
//     under the policy only when its tool says a replay is safe:
//     agenttool.ReplaySafe, or ReplayKeyed with its key.
//   - The engine answers the rest itself: a call that ran elsewhere, one
//     never dispatched, one [WithNeverStarted] names, one rejected.
//
// How a review is read (15.2, 15.3):
//   - The reviewer reads the arguments that will run. An approval runs
//     them, or [Review.Args], which are decided again: no answer beats a
//     deny rule.
//   - A refusal, a timeout, a failure or a panic refuses the call, and the
//     run's held calls with it.
//   - The verdict reads "approved by reviewer" or "denied by reviewer",
//     with [Review.Reason] after ": " when given; an approval's answer
//     carries no reason.
//
// Every answer is a [Verdict] to the observers and the [WithJournal]
// journal, recorded before it takes effect (15.5, 17). Each review that is not
// an approval counts toward the [DenialBound]; past it, the refusals end
// the run and Answers returns [ErrDenialBound] (15.4).
//
// A pending call nobody could answer makes [ErrUnanswered], as Release
// does. A nil reviewer is an error; nothing pending is nil. A ctx done
// before every review is made returns its error and no answers, so a
// cancelled caller approves nothing. ctx reaches the reviewer, carrying
// end.RunID when it carries no run.
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
