package agentturn

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/openresponses"
)

// approval is a pending call an [Answer] lets run, with the arguments and
// key it runs under.
type approval struct {
	pending PendingCall
	answer  Answer
	args    json.RawMessage
	key     string
}

// Resume answers every pending call and runs on. Answers with an Output are
// appended in answer order, then their notes as user messages; the approved
// calls then run as one batch (turn 0), their outputs appended in order,
// then the approvals' notes as user messages. Only calls pending as
// [PendingUndispatched] are put to [Config.BeforeToolCall]. If an answer
// carries Terminate the run then ends [StopRefused] without a model call;
// otherwise it goes on as [Agent.Prompt] does.
//
// Every pending call needs exactly one answer and no answer may name
// another call ([ErrNotPending]); an approval of a call owed only its output
// fails with [ErrCallAnswered], and one of a call that may have run (see
// [PendingCall.MayHaveRun]) whose tool does not make a second run safe fails
// with [ErrAmbiguousCall] unless it carries RunAgain. Those errors leave
// the agent as it was.
func (a *Agent) Resume(ctx context.Context, answers ...Answer) (*RunEnd, error) {
	if a.cfg.Model == nil {
		return nil, ErrNoModel
	}
	if err := a.claim(); err != nil {
		return nil, err
	}
	approvals, err := a.checkAnswers(ctx, answers)
	if err != nil {
		a.release()
		return nil, err
	}
	r := a.begin(ctx)
	return a.finish(r, r.resume(answers, approvals))
}

// checkAnswers validates answers against the pending calls and returns the
// approvals among them, in answer order.
func (a *Agent) checkAnswers(ctx context.Context, answers []Answer) ([]approval, error) {
	if len(a.pending) == 0 {
		return nil, fmt.Errorf("%w: no call is pending", ErrNotPending)
	}
	owed := make(map[string]PendingCall, len(a.pending))
	for _, p := range a.pending {
		if p.Call != nil {
			owed[p.Call.CallID] = p
		}
	}
	var approvals []approval
	for _, ans := range answers {
		p, ok := owed[ans.CallID]
		if !ok {
			return nil, fmt.Errorf("%w: %q is not pending or is answered twice", ErrNotPending, ans.CallID)
		}
		delete(owed, ans.CallID)
		if ans.Output != nil {
			continue
		}
		if p.Reason == PendingAnswered || p.Reason == PendingRejected {
			return nil, fmt.Errorf("%w: %s (%s)", ErrCallAnswered, ans.CallID, p.Reason)
		}
		ap := approval{pending: p, answer: ans, args: approvedArgs(p, ans), key: ans.IdempotencyKey}
		if ap.key == "" {
			ap.key = p.IdempotencyKey
		}
		if p.MayHaveRun() && !ans.RunAgain {
			if err := a.checkReplay(ctx, ap); err != nil {
				return nil, err
			}
		}
		approvals = append(approvals, ap)
	}
	for _, p := range a.pending {
		if p.Call == nil {
			continue
		}
		if _, unanswered := owed[p.Call.CallID]; unanswered {
			return nil, fmt.Errorf("%w: pending call %q has no answer", ErrNotPending, p.Call.CallID)
		}
	}
	return approvals, nil
}

// approvedArgs returns the arguments an approved call runs with: the
// answer's, else those it was held with, else the model's.
func approvedArgs(p PendingCall, ans Answer) json.RawMessage {
	switch {
	case ans.Args != nil:
		return ans.Args
	case p.Args != nil:
		return p.Args
	}
	return callArgs(p.Call)
}

// checkReplay applies the replay rule to the approval of a call that may
// have run: the tool must say a second run is safe, or that it is keyed and
// the approval runs either the same arguments under the key of the first
// run, or new arguments under a new key. The tool is the one of that name
// the agent now offers, else the one the run resolved; a call no tool has
// the name of is not checked.
func (a *Agent) checkReplay(ctx context.Context, ap approval) error {
	p := ap.pending
	tool := lookup(a.toolsFor(ctx), p.Call.Name)
	if tool == nil {
		tool = p.Tool
	}
	if tool == nil {
		return nil
	}
	replay := agenttool.ReplayOf(ctx, tool, ap.args)
	switch replay {
	case agenttool.ReplaySafe:
		return nil
	case agenttool.ReplayKeyed:
		dispatched := p.Args
		if dispatched == nil {
			dispatched = callArgs(p.Call)
		}
		same := sameJSON(ap.args, dispatched)
		sameKey := ap.key == p.IdempotencyKey
		if ap.key != "" && same == sameKey {
			return nil
		}
	}
	return fmt.Errorf("%w: %s (replay %s)", ErrAmbiguousCall, p.Call.CallID, replay)
}

// resume appends the answers' outputs and notes, runs the approved calls,
// and either ends the run or goes on with the model.
func (r *run) resume(answers []Answer, approvals []approval) *RunEnd {
	refused := false
	var notes openresponses.Items
	for _, ans := range answers {
		refused = refused || ans.Terminate
		if ans.Output == nil {
			continue
		}
		r.append(ans.Output)
		r.settle(ans)
		if ans.Note != "" {
			notes = append(notes, openresponses.UserText(ans.Note))
		}
	}
	r.append(notes...)

	out, end := r.runApproved(approvals)
	if end != nil {
		return end
	}
	notes = nil
	for _, ap := range approvals {
		if ap.answer.Note != "" {
			notes = append(notes, openresponses.UserText(ap.answer.Note))
		}
	}
	r.append(notes...)
	if end := r.afterBatch(out); end != nil {
		return end
	}
	if refused {
		return stopped(StopRefused)
	}
	if end := out.terminated(); end != nil {
		return end
	}
	return r.turns()
}

// settle records a call answered by an output carrying another call ID, so
// the call is not pending any more.
func (r *run) settle(ans Answer) {
	if ans.Output.CallID == ans.CallID {
		return
	}
	r.a.mu.Lock()
	defer r.a.mu.Unlock()
	if r.a.settled == nil {
		r.a.settled = map[string]bool{}
	}
	r.a.settled[ans.CallID] = true
}

// runApproved runs the approved calls as one batch of turn 0, putting the
// undispatched ones to [Config.BeforeToolCall] first. Each call runs the
// tool of its name the agent now offers, else the one its run resolved.
func (r *run) runApproved(approvals []approval) (batchOutcome, *RunEnd) {
	if len(approvals) == 0 {
		return batchOutcome{}, nil
	}
	r.tools = r.a.toolsFor(r.ctx)
	calls := make([]*openresponses.FunctionCall, len(approvals))
	keys := make([]string, len(approvals))
	for i, ap := range approvals {
		calls[i], keys[i] = ap.pending.Call, ap.key
	}
	batch := r.plan(calls, keys)
	for i, ap := range approvals {
		batch[i].args = ap.args
		if batch[i].tool == nil {
			batch[i].tool = ap.pending.Tool
		}
	}
	undispatched := func(i int) bool { return approvals[i].pending.Reason == PendingUndispatched }
	if err := r.decide(batch, undispatched); err != nil {
		return batchOutcome{}, failed("before-tool-call", err)
	}
	return r.execute(batch), nil
}
