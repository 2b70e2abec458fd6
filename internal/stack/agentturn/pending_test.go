package agentturn_test

import (
	"testing"

	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// Checklist item 3: MayHaveRun is true for Aborted, Unknown, and Deferred
// with Dispatched; false otherwise.
func TestMayHaveRun(t *testing.T) {
	cases := []struct {
		reason     agentturn.PendingReason
		dispatched bool
		want       bool
	}{
		{agentturn.PendingDeferred, false, false},
		{agentturn.PendingDeferred, true, true},
		{agentturn.PendingAborted, false, true},
		{agentturn.PendingAborted, true, true},
		{agentturn.PendingUndispatched, false, false},
		{agentturn.PendingUndispatched, true, false},
		{agentturn.PendingUnknown, false, true},
		{agentturn.PendingAnswered, false, false},
		{agentturn.PendingAnswered, true, false},
		{agentturn.PendingRejected, false, false},
		{agentturn.PendingRejected, true, false},
	}
	for _, c := range cases {
		p := agentturn.PendingCall{Reason: c.reason, Dispatched: c.dispatched}
		if got := p.MayHaveRun(); got != c.want {
			t.Errorf("MayHaveRun(%s, dispatched=%v) = %v, want %v", c.reason, c.dispatched, got, c.want)
		}
	}
}

// PendingCalls returns the calls in order and skips nil ones.
func TestPendingCalls(t *testing.T) {
	a := &openresponses.FunctionCall{CallID: "a"}
	b := &openresponses.FunctionCall{CallID: "b"}
	got := agentturn.PendingCalls([]agentturn.PendingCall{{Call: a}, {}, {Call: b}})
	if len(got) != 2 || got[0] != a || got[1] != b {
		t.Fatalf("PendingCalls = %v", got)
	}
}

// The reason, cause and pending words are part of the contract.
func TestStableWords(t *testing.T) {
	cases := []struct{ got, want string }{
		{string(agentturn.PendingDeferred), "deferred"},
		{string(agentturn.PendingAborted), "aborted"},
		{string(agentturn.PendingUndispatched), "undispatched"},
		{string(agentturn.PendingUnknown), "unknown"},
		{string(agentturn.PendingAnswered), "answered"},
		{string(agentturn.PendingRejected), "rejected"},
		{string(agentturn.ReasonDone), "done"},
		{string(agentturn.ReasonStopped), "stopped"},
		{string(agentturn.ReasonInputRequired), "input_required"},
		{string(agentturn.ReasonAborted), "aborted"},
		{string(agentturn.ReasonError), "error"},
		{string(agentturn.StopMaxTurns), "max_turns"},
		{string(agentturn.StopHook), "hook"},
		{string(agentturn.StopGuard), "guard"},
		{string(agentturn.StopTerminate), "terminate"},
		{string(agentturn.StopPartialTerminate), "partial_terminate"},
		{string(agentturn.StopRefused), "refused"},
		{agentturn.RunAgainReason, "run again: accepted by the caller"},
		{agentturn.RunAgainSafeReason, "run again: safe"},
		{agentturn.RunAgainKeyedReason, "run again: keyed"},
		{agentturn.OutcomeUnknownReason, "not run again: outcome unknown"},
		{(&agentturn.RunEnd{}).EventType(), "run_end"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
