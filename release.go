package agentpolicy

import (
	"context"

	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// Release answers the calls end left pending that the engine held for an
// ask, given the caller's answers to the calls it asked about, and returns
// every answer for agentturn's Resume in the order of end.Pending, the
// model's order, which is the order a sequential batch runs in.
//
// The policy allowed a held call, so it is approved and runs with the
// batch, with the arguments and the note the hooks given to [WithHooks]
// gave it. When an answer ends the turn, one built with agentturn.Refuse,
// the held calls are answered instead with an output that tells the model
// they were held and did not run, since nothing will run them; a plain
// refusal ends nothing, and the held calls run, since the policy allowed
// them and the model reads the one refusal. A pending call the caller
// answered keeps its answer, held or not, and an answer for a call that is
// not pending is returned after the rest. The caller's answers are
// returned as given; every answer the engine builds names the policy as
// its decider through agentturn.Answer.By, and a refusal carries its
// reason through agentturn.Answer.Reason, so the session's decision entry
// says who answered and why.
//
// Every release is a [Verdict] through the observers with [Verdict.Held]
// set: Allow, with the rule that allowed the call, for a call released, or
// Block for one the stopped turn left unreleased. Each is written to the
// [WithJournal] journal first, and a release the journal could not record
// is answered instead with an output the model reads as a blocked call's,
// "Error: " and the refusal's reason, so the call does not run. The calls Release
// answers are forgotten, see [Engine.Deferred], and a run's entry is
// dropped with its last deferred call, so an engine shared by many agents
// does not grow with the runs they finish.
//
// A pending call that neither the caller nor the engine answers makes the
// error [ErrUnanswered], which names every such call, since Resume would
// fail anyway and say less: it is what a front sees when it answers the
// wrong run, when another hook deferred a call the engine never saw, or
// when it releases before answering every asked call. The answers returned
// with it are a preview: nothing is forgotten and nothing reaches the
// observers, so the front answers the missing calls and releases again.
// A nil end leaves nothing pending, and the answers are returned as given.
func (e *Engine) Release(ctx context.Context, end *agentturn.RunEnd, answers ...agentturn.Answer) ([]agentturn.Answer, error) {
	if end == nil {
		return answers, nil
	}
	r := e.deferred.release(end, answers)
	if len(r.missing) > 0 {
		return r.answers, errUnanswered(r.missing)
	}
	for k, v := range r.verdicts {
		recorded, _ := e.journal(ctx, v)
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
	// verdicts are the engine's, one per call it answered, and built
	// the index in answers of the answer each one records.
	verdicts []Verdict
	built    []int
	// answered are the IDs of the pending calls answered.
	answered []string
	// missing names the pending calls nobody answered, "call_1 (bash)".
	missing []string
}

// release answers end's pending calls from the caller's answers and the
// calls held in the run, and forgets the answered calls when every
// pending call has an answer. It holds d.mu throughout, so two releases of
// one run cannot both answer a held call.
func (d *deferrals) release(end *agentturn.RunEnd, given []agentturn.Answer) released {
	d.mu.Lock()
	defer d.mu.Unlock()
	held := d.runs[end.RunID]
	first := make(map[string]int, len(given))
	stopped := false
	for i, a := range given {
		if _, ok := first[a.CallID]; !ok {
			first[a.CallID] = i
		}
		stopped = stopped || a.Terminate
	}
	used := make([]bool, len(given))
	r := released{
		answers:  make([]agentturn.Answer, 0, len(end.Pending)+len(given)),
		verdicts: make([]Verdict, 0, len(end.Pending)),
		answered: make([]string, 0, len(end.Pending)),
	}
	for _, p := range end.Pending {
		if p.Call == nil {
			continue
		}
		id := p.Call.CallID
		if i, ok := first[id]; ok && !used[i] {
			used[i] = true
			r.answers = append(r.answers, given[i])
			r.answered = append(r.answered, id)
			continue
		}
		def, ok := held[id]
		if !ok || !def.v.Held {
			r.missing = append(r.missing, unansweredCall(id, p.Call.Name))
			continue
		}
		a, v := def.release(id, stopped)
		r.built = append(r.built, len(r.answers))
		r.answers = append(r.answers, a)
		r.verdicts = append(r.verdicts, v)
		r.answered = append(r.answered, id)
	}
	for i, a := range given {
		if !used[i] {
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

// release is the answer to a held call and the verdict that records it:
// an approval, with the arguments and the note the hooks gave the call,
// or, when an answer stopped the turn, an output saying it did not run.
func (def deferral) release(callID string, stopped bool) (agentturn.Answer, Verdict) {
	v := def.v.clone()
	v.Held, v.By = true, ByPolicy
	if stopped {
		v.Action, v.Rule, v.Reason = agentturn.Block, nil, reasonNotReleased
		out := openresponses.NewFunctionCallOutput(callID, textNotReleased)
		return agentturn.Output(out).WithBy(ByPolicy).WithReason(reasonNotReleased), v
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
