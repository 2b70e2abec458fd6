package agentturn

import (
	"sync"

	"github.com/ChristopherDavenport/openresponses"
)

// Agent runs a [Config] over a transcript it keeps between runs. Runs are
// started with [Agent.Prompt] and, when calls were deferred to the caller,
// [Agent.Resume]. One run at a time; [Agent.State] may be read from any
// goroutine.
type Agent struct {
	cfg Config

	mu         sync.Mutex
	transcript Transcript
	pending    []PendingCall
	running    bool
	runID      string
	turn       int
	// seeded holds the pending calls given to WithPending until New has
	// read the transcript.
	seeded []PendingCall
	// settled holds call IDs answered by an output that carries another
	// call ID, so they are not counted as pending again.
	settled map[string]bool
}

// Option configures an [Agent] in [New].
type Option func(*Agent)

// New returns an agent that runs cfg, starting from an empty transcript
// unless [WithTranscript] seeds one.
func New(cfg Config, opts ...Option) *Agent {
	a := &Agent{cfg: cfg}
	for _, opt := range opts {
		opt(a)
	}
	a.pending = a.unanswered(nil, a.seededByCallID())
	a.seeded = nil
	return a
}

// WithTranscript seeds the agent's transcript with t. Function calls of t
// without an output become pending as [PendingUnknown], unless
// [WithPending] says more about them.
func WithTranscript(t Transcript) Option {
	return func(a *Agent) { a.transcript = append(Transcript(nil), t...) }
}

// WithPending refines what is known about pending calls of the seeded
// transcript: a given call replaces the seeded one of the same call ID
// when it names the same tool with the same arguments. Calls the transcript
// does not leave pending are ignored.
func WithPending(pending []PendingCall) Option {
	return func(a *Agent) { a.seeded = append(a.seeded, pending...) }
}

// seededByCallID indexes the calls given to WithPending by call ID.
func (a *Agent) seededByCallID() map[string]PendingCall {
	known := make(map[string]PendingCall, len(a.seeded))
	for _, p := range a.seeded {
		if p.Call != nil {
			known[p.Call.CallID] = p
		}
	}
	return known
}

// State is a snapshot of an [Agent].
type State struct {
	// Transcript is a copy of the working transcript.
	Transcript Transcript
	// Running reports a run in progress.
	Running bool
	// RunID identifies the current or last run.
	RunID string
	// Turn is the current or last turn number of that run.
	Turn int
	// Steering and FollowUps count queued steering and follow-up messages;
	// this loop has none.
	Steering, FollowUps int
	// Steered and Queued hold those messages; this loop has none.
	Steered, Queued openresponses.Items
	// Pending lists the calls awaiting an answer (see [Agent.Resume]).
	Pending []PendingCall
}

// State returns a snapshot of the agent.
func (a *Agent) State() State {
	a.mu.Lock()
	defer a.mu.Unlock()
	return State{
		Transcript: append(Transcript(nil), a.transcript...),
		Running:    a.running,
		RunID:      a.runID,
		Turn:       a.turn,
		Pending:    append([]PendingCall(nil), a.pending...),
	}
}
