package agentturn

import (
	"encoding/json"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/openresponses"
)

// PendingReason says why a call is pending and so what answering it means.
type PendingReason string

const (
	// PendingDeferred: a hook handed the call to the caller; its tool did
	// not run.
	PendingDeferred PendingReason = "deferred"
	// PendingAborted: the call had been handed to its tool when the run was
	// cut off, so it may have run; approving it is subject to the replay
	// rule of [Agent.Resume].
	PendingAborted PendingReason = "aborted"
	// PendingUndispatched: the call was never handed to its tool and nothing
	// decided it; approving it puts it to [Config.BeforeToolCall].
	PendingUndispatched PendingReason = "undispatched"
	// PendingUnknown: the call was found unanswered in a seeded transcript
	// ([WithTranscript]).
	PendingUnknown PendingReason = "unknown"
	// PendingAnswered: a record says the call was answered but its output
	// was not written; it is owed only that output.
	PendingAnswered PendingReason = "answered"
	// PendingRejected: a record says a decision refused the call before it
	// ran; it is owed only the refusal.
	PendingRejected PendingReason = "rejected"
)

// PendingCall is a function call of the transcript that has no output yet,
// with what is known about it.
type PendingCall struct {
	// Call is the function_call item in the transcript.
	Call *openresponses.FunctionCall
	// Reason says why the call is pending.
	Reason PendingReason
	// Tool is the tool the run resolved; nil for seeded or unknown calls.
	Tool agenttool.Tool
	// Dispatched marks a deferred call that a record shows was handed to
	// its tool first.
	Dispatched bool
	// IdempotencyKey is the key of the last hand-over, for calls that may
	// have run.
	IdempotencyKey string
	// Args are the arguments the hand-over or the holding decision used,
	// when they are not the model's.
	Args json.RawMessage
	// Ran is the output the call returned where it ran off the loop's path.
	Ran *openresponses.FunctionCallOutput
	// RanWhere says in words where the call ran.
	RanWhere string
	// Refused is the reason of the recorded refusal ([PendingRejected]).
	Refused string
	// Decision is the decision that deferred the call.
	Decision *ToolDecision
}

// MayHaveRun reports whether the call may already have run: it was cut off
// after dispatch ([PendingAborted]), its fate is unknown
// ([PendingUnknown]), or it was deferred after a hand-over
// ([PendingDeferred] with Dispatched).
func (p PendingCall) MayHaveRun() bool {
	switch p.Reason {
	case PendingAborted, PendingUnknown:
		return true
	case PendingDeferred:
		return p.Dispatched
	}
	return false
}

// PendingCalls returns the function calls of pending, skipping nil ones.
func PendingCalls(pending []PendingCall) []*openresponses.FunctionCall {
	calls := make([]*openresponses.FunctionCall, 0, len(pending))
	for _, p := range pending {
		if p.Call != nil {
			calls = append(calls, p.Call)
		}
	}
	return calls
}

// unanswered lists the function calls of the transcript without an output,
// in transcript order. Each takes what the current run held about it, else
// what was known before (if the known call names the same tool with the same
// arguments), else it is [PendingUnknown].
func (a *Agent) unanswered(held, known map[string]PendingCall) []PendingCall {
	answered := make(map[string]bool)
	for _, item := range a.transcript {
		if out, ok := item.(*openresponses.FunctionCallOutput); ok {
			answered[out.CallID] = true
		}
	}
	var pending []PendingCall
	for _, item := range a.transcript {
		c, ok := item.(*openresponses.FunctionCall)
		if !ok || answered[c.CallID] || a.settled[c.CallID] {
			continue
		}
		p, ok := held[c.CallID]
		if !ok {
			p, ok = known[c.CallID]
			ok = ok && p.Call.Name == c.Name && sameJSON(callArgs(p.Call), callArgs(c))
		}
		if !ok {
			p = PendingCall{Reason: PendingUnknown}
		}
		p.Call = c
		pending = append(pending, p)
	}
	return pending
}
