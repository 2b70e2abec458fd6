package agentturn

import (
	"encoding/json"

	"github.com/ChristopherDavenport/openresponses"
)

// Reasons an approval of a call that may have run carries on its decision,
// and the reason of an [OutcomeUnknown] answer.
const (
	// RunAgainReason: the caller asked for the call to run again
	// ([Answer.WithRunAgain]).
	RunAgainReason = "run again: accepted by the caller"
	// RunAgainSafeReason: the tool says a second run has no further effect.
	RunAgainSafeReason = "run again: safe"
	// RunAgainKeyedReason: the tool says a second run is safe under the
	// key it runs with.
	RunAgainKeyedReason = "run again: keyed"
	// OutcomeUnknownReason: the call is answered with an output saying its
	// outcome is unknown rather than run again.
	OutcomeUnknownReason = "not run again: outcome unknown"
)

// Answer is the caller's answer to one pending call, given to
// [Agent.Resume]. With Output set it answers the call with that output;
// without, it approves the call to run. Answers are plain values: build
// them with [Output], [Refuse], [Approve], [ApproveWith] or
// [OutcomeUnknown] and the With builders.
type Answer struct {
	// CallID names the pending call answered.
	CallID string
	// Output, when set, answers the call with this output; the call does
	// not run.
	Output *openresponses.FunctionCallOutput
	// Args, for an approval, replaces the arguments the call runs with.
	Args json.RawMessage
	// Note is appended after the outputs as a user message.
	Note string
	// Terminate ends the resumed run [StopRefused] once the answers are in,
	// without calling the model.
	Terminate bool
	// By names the decider, for the record.
	By string
	// Reason says why, for the record.
	Reason string
	// Origin says where a replayed output came from.
	Origin string
	// IdempotencyKey, for an approval, is the key the call runs under.
	IdempotencyKey string
	// RunAgain, for an approval, bypasses the replay rule.
	RunAgain bool
}

// Output answers the call out answers with that output; nil gives the zero
// Answer.
func Output(out *openresponses.FunctionCallOutput) Answer {
	if out == nil {
		return Answer{}
	}
	return Answer{CallID: out.CallID, Output: out}
}

// Refuse answers a call with out, as [Output] does, and ends the resumed
// run [StopRefused] without calling the model.
func Refuse(out *openresponses.FunctionCallOutput) Answer {
	a := Output(out)
	a.Terminate = true
	return a
}

// Approve lets the pending call callID run with the arguments it was held
// with.
func Approve(callID string) Answer { return Answer{CallID: callID} }

// ApproveWith lets the pending call callID run with args instead.
func ApproveWith(callID string, args json.RawMessage) Answer {
	return Answer{CallID: callID, Args: args}
}

// OutcomeUnknown answers a call that may have run, and is not to run again,
// with an output saying so.
func OutcomeUnknown(callID string) Answer {
	return Answer{
		CallID: callID,
		Output: openresponses.NewFunctionCallOutput(callID, "Error: "+OutcomeUnknownReason),
		Reason: OutcomeUnknownReason,
	}
}

// WithNote returns a copy of a that appends note as a user message.
func (a Answer) WithNote(note string) Answer { a.Note = note; return a }

// WithBy returns a copy of a naming its decider.
func (a Answer) WithBy(by string) Answer { a.By = by; return a }

// WithReason returns a copy of a carrying reason.
func (a Answer) WithReason(reason string) Answer { a.Reason = reason; return a }

// WithOrigin returns a copy of a naming where its output came from.
func (a Answer) WithOrigin(origin string) Answer { a.Origin = origin; return a }

// WithIdempotencyKey returns a copy of a whose approved call runs under key.
func (a Answer) WithIdempotencyKey(key string) Answer { a.IdempotencyKey = key; return a }

// WithRunAgain returns a copy of a whose approval bypasses the replay rule.
func (a Answer) WithRunAgain() Answer { a.RunAgain = true; return a }
