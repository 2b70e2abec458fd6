package agentpolicy

import (
	"context"

	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// Release answers the calls end left pending that the engine held for an
// ask, given the caller's answers to the calls it asked about. It returns
// one answer per pending call for agentturn's Resume, in the order of
// end.Pending, then the answers for calls that are not pending. RFC 0001
// §9.3 is the full contract.
//
//   - A held call is approved, with the arguments and the note the
//     [WithHooks] hooks gave it: the policy allowed it.
//   - When an answer ends the turn (agentturn.Refuse), the held calls are
//     refused instead, with an output saying they did not run. A plain
//     refusal ends nothing, and the held calls run.
//   - The caller's answers are returned as given. The engine's own name
//     the policy through agentturn.Answer.By, and a refusal carries its
//     reason through agentturn.Answer.Reason.
//
// Every release is a [Verdict] with [Verdict.Held] set. It is recorded in
// the [WithJournal] journal first, then observed. A release the journal
// could not record is answered as a blocked call. The answered calls are
// forgotten, so a shared engine does not grow with the runs it finishes.
//
// A pending call nobody answers makes [ErrUnanswered], naming every such
// call, with the answers as a preview. Nothing is forgotten or observed,
// so the front answers the rest and releases again. A nil end returns the
// answers as given; nothing pending and no answers returns nil.
func (e *Engine) Release(ctx context.Context, end *agentturn.RunEnd, answers ...agentturn.Answer) ([]agentturn.Answer, error) {
	if end == nil {
		return answers, nil
	}
	fate := heldRun
	for _, a := range answers {
		if a.Terminate {
			fate = heldStopped
		}
	}
	return e.complete(ctx, end, answers, nil, nil, fate)
}

// heldFate is what a release makes of the calls held for an ask.
type heldFate int

const (
	// heldRun releases them: the policy allowed them.
	heldRun heldFate = iota
	// heldStopped refuses them, and ends the turn with them: an answer
	// ended the turn, or the reviewer's denial bound was reached.
	heldStopped
	// heldRefused refuses them: a reviewer did not approve a call of the
	// run, and an unattended run does not carry out the rest of a plan
	// whose asked part was refused.
	heldRefused
)

// complete answers end's pending calls from the given answers and the
// calls held in the run, as fate says, and records and tells the
// observers the verdicts of the given answers, verdicts[k] recording
// given[of[k]], then those of the releases. It is the one path by which
// [Engine.Release] and [Engine.Answers] finish: a pending call nobody
// answered makes [ErrUnanswered], with the answers as a preview, nothing
// forgotten, recorded or observed.
//
// An approval the journal could not record is answered instead as a
// blocked call is, and the calls held in the run are then refused rather
// than released, as they are for any call a reviewer did not approve.
func (e *Engine) complete(ctx context.Context, end *agentturn.RunEnd, given []agentturn.Answer, verdicts []Verdict, of []int, fate heldFate) ([]agentturn.Answer, error) {
	r := e.deferred.release(end, given, fate)
	if len(r.answers) == 0 {
		// Nothing answered is no answers, nil, as the published module
		// returns them.
		r.answers = nil
	}
	if len(r.missing) > 0 {
		return r.answers, errUnanswered(r.missing)
	}
	for k, v := range verdicts {
		recorded := v
		_ = e.journal(ctx, &recorded)
		if recorded.Action != v.Action {
			a := &r.answers[r.placed[of[k]]]
			*a = unrecordedAnswer(a.CallID, recorded)
			if fate == heldRun {
				fate = heldRefused
				r.refuseHeld(fate)
			}
		}
		e.notify(ctx, recorded)
	}
	for k, v := range r.verdicts {
		recorded := v
		_ = e.journal(ctx, &recorded)
		if recorded.Action != v.Action {
			a := &r.answers[r.built[k]]
			*a = unrecordedAnswer(a.CallID, recorded)
		}
		e.notify(ctx, recorded)
	}
	return r.answers, nil
}

// released is what a release makes of a run's pending calls.
type released struct {
	// answers are one per answered pending call, in the pending order,
	// then the caller's answers for calls that are not pending.
	answers []agentturn.Answer
	// verdicts are the engine's, one per held call it answered, and
	// built the index in answers of the answer each one records.
	verdicts []Verdict
	built    []int
	// placed is the index in answers of each of the caller's answers.
	placed []int
	// answered are the IDs of the pending calls answered.
	answered []string
	// missing names the pending calls nobody answered, "call_1 (bash)".
	missing []string
}

// release answers end's pending calls from the caller's answers and the
// calls held in the run, each call once however often end lists it, and
// forgets the answered calls when every pending call has an answer. It
// holds d.mu throughout, so two releases of one run cannot both answer a
// held call.
func (d *deferrals) release(end *agentturn.RunEnd, given []agentturn.Answer, fate heldFate) released {
	d.mu.Lock()
	defer d.mu.Unlock()
	held := d.runs[end.RunID]
	first := make(map[string]int, len(given))
	for i, a := range given {
		if _, ok := first[a.CallID]; !ok {
			first[a.CallID] = i
		}
	}
	used := make([]bool, len(given))
	seen := make(map[string]bool, len(end.Pending))
	r := released{
		answers:  make([]agentturn.Answer, 0, len(end.Pending)+len(given)),
		verdicts: make([]Verdict, 0, len(end.Pending)),
		answered: make([]string, 0, len(end.Pending)),
		placed:   make([]int, len(given)),
	}
	for _, p := range end.Pending {
		if p.Call == nil {
			continue
		}
		id := p.Call.CallID
		if seen[id] {
			continue
		}
		seen[id] = true
		if i, ok := first[id]; ok && !used[i] {
			used[i] = true
			r.placed[i] = len(r.answers)
			r.answers = append(r.answers, given[i])
			r.answered = append(r.answered, id)
			continue
		}
		def, ok := held[id]
		if !ok || !def.v.Held || !def.describes(p.Call) {
			r.missing = append(r.missing, unansweredCall(id, p.Call.Name))
			continue
		}
		a, v := def.release(id, fate)
		r.built = append(r.built, len(r.answers))
		r.answers = append(r.answers, a)
		r.verdicts = append(r.verdicts, v)
		r.answered = append(r.answered, id)
	}
	for i, a := range given {
		if !used[i] {
			r.placed[i] = len(r.answers)
			r.answers = append(r.answers, a)
		}
	}
	if len(r.missing) == 0 {
		for _, id := range r.answered {
			d.drop(end.RunID, id)
		}
	}
	return r
}

// refuseHeld answers the held calls of the release again with the
// refusal fate says.
func (r *released) refuseHeld(fate heldFate) {
	for k, v := range r.verdicts {
		at := r.built[k]
		r.answers[at], r.verdicts[k] = heldRefusal(r.answers[at].CallID, v, fate)
	}
}

// heldRefusal is the answer to a held call fate refuses, heldStopped or
// heldRefused, and the verdict that records it, from v, the verdict of
// the held call's deferral or release. The answer is a plain output
// either way: when the turn was stopped, the answer that stopped it is
// the one that ends it.
func heldRefusal(callID string, v Verdict, fate heldFate) (agentturn.Answer, Verdict) {
	reason, text := reasonHeldRefused, textHeldRefused
	if fate == heldStopped {
		reason, text = reasonNotReleased, textNotReleased
	}
	v.Action, v.Rule, v.Reason = agentturn.Block, nil, reason
	out := openresponses.NewFunctionCallOutput(callID, text)
	return agentturn.Output(out).WithBy(ByPolicy).WithReason(reason), v
}

// release is the answer to a held call and the verdict that records it:
// an approval, with the arguments and the note the hooks gave the call,
// or, when fate refuses it, an output saying it did not run, which ends
// the turn when the turn was stopped.
func (def deferral) release(callID string, fate heldFate) (agentturn.Answer, Verdict) {
	v := def.v.clone()
	v.Held, v.By = true, ByPolicy
	if fate != heldRun {
		return heldRefusal(callID, v, fate)
	}
	v.Action, v.Reason = agentturn.Allow, releasedReason(def.allow)
	a := agentturn.Approve(callID)
	if def.args != nil {
		a = agentturn.ApproveWith(callID, def.args)
	}
	if def.note != "" {
		a = a.WithNote(def.note)
	}
	return a.WithBy(ByPolicy), v
}
