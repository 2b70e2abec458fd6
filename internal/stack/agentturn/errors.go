package agentturn

import "errors"

// Errors the loop returns; match them with [errors.Is]. Their texts are part
// of the contract.
var (
	// ErrGuard is what a guard hook wraps to stop a run rather than fail it:
	// the run ends [ReasonStopped] with [StopGuard] and the hook's error on
	// [RunEnd.Err].
	ErrGuard = errors.New("agentturn: guard stopped the run")
	// ErrInputRequired: calls are pending and the prompt does not open with
	// one function_call_output per pending call.
	ErrInputRequired = errors.New("agentturn: pending tool calls must be resumed before continuing")
	// ErrNotPending: an output or [Answer] names a call that is not pending,
	// a pending call is left unanswered, or nothing is pending.
	ErrNotPending = errors.New("agentturn: output does not answer a pending call")
	// ErrAmbiguousCall: an approval would run again a call that may already
	// have run, and the tool's replay claim does not make that safe.
	ErrAmbiguousCall = errors.New("agentturn: a call that may have run cannot run again")
	// ErrCallAnswered: an approval names a call that is owed only its
	// output ([PendingAnswered], [PendingRejected]).
	ErrCallAnswered = errors.New("agentturn: an answered call is owed its output and nothing else")
	// ErrRunning: the agent is in the middle of a run.
	ErrRunning = errors.New("agentturn: agent is already running")
	// ErrNoModel: the [Config] has no Model.
	ErrNoModel = errors.New("agentturn: config has no model")
	// ErrNoPrompt: [Agent.Prompt] was called without items.
	ErrNoPrompt = errors.New("agentturn: no prompt items")
	// ErrCannotContinue: the transcript does not end where a model call can
	// pick up (see [CanContinue]).
	ErrCannotContinue = errors.New("agentturn: transcript must end with a user message or a function call output to continue")
	// ErrNoInvoker: [Invoke] was called with a context no loop made.
	ErrNoInvoker = errors.New("agentturn: no loop on the context to invoke a tool through")
)
