package agentturn

import "github.com/ChristopherDavenport/openresponses"

// Reason says why a run ended.
type Reason string

const (
	// ReasonDone: the model answered without calling tools.
	ReasonDone Reason = "done"
	// ReasonStopped: something stopped the run; [RunEnd.Cause] says what.
	ReasonStopped Reason = "stopped"
	// ReasonInputRequired: calls were deferred to the caller; answer them
	// with [Agent.Resume].
	ReasonInputRequired Reason = "input_required"
	// ReasonAborted: the run's context ended; [RunEnd.Err] holds its cause.
	ReasonAborted Reason = "aborted"
	// ReasonError: the model or a hook failed; [RunEnd.Err] holds the error.
	ReasonError Reason = "error"
)

// StopCause says what stopped a run that ended [ReasonStopped].
type StopCause string

const (
	// StopMaxTurns: the run reached [Config.MaxTurns] on a turn that called
	// tools.
	StopMaxTurns StopCause = "max_turns"
	// StopHook: [Config.ShouldStopAfterTurn] returned true.
	StopHook StopCause = "hook"
	// StopGuard: a hook returned an error wrapping [ErrGuard].
	StopGuard StopCause = "guard"
	// StopTerminate: every result of the last batch asked to terminate.
	StopTerminate StopCause = "terminate"
	// StopPartialTerminate: some results of the last batch asked to
	// terminate.
	StopPartialTerminate StopCause = "partial_terminate"
	// StopRefused: an [Answer] given to [Agent.Resume] carried Terminate
	// (see [Refuse]).
	StopRefused StopCause = "refused"
)

// RunEnd describes how a run ended and what it appended.
type RunEnd struct {
	// RunID identifies the run; hooks saw it on their context
	// ([RunIDFromContext]).
	RunID string
	// Items are the items this run appended to the transcript.
	Items Transcript
	// Reason says why the run ended.
	Reason Reason
	// Cause says what stopped the run; set only with [ReasonStopped].
	Cause StopCause
	// Err is the error of a [ReasonError] run, the context's cause of an
	// aborted one, and the guard's error of a [StopGuard] one.
	Err error
	// Pending lists the calls without an output, in transcript order.
	Pending []PendingCall
	// Withheld reports that [Config.OutputGuard] withheld a message.
	Withheld bool
}

// Answer returns the text of the assistant message the run ended with, and
// false when the last item the run appended is not one.
func (e *RunEnd) Answer() (string, bool) {
	if len(e.Items) == 0 {
		return "", false
	}
	m, ok := e.Items[len(e.Items)-1].(*openresponses.Message)
	if !ok || m.Role != openresponses.RoleAssistant {
		return "", false
	}
	return m.Text(), true
}

// EventType names a RunEnd among the loop's events: "run_end".
func (e *RunEnd) EventType() string { return "run_end" }
