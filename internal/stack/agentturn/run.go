package agentturn

import (
	"context"
	"errors"
	"fmt"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/openresponses"
)

// run is the state of one run of an [Agent]: what it appended, the turn it
// is on, and the calls it left without an output.
type run struct {
	a     *Agent
	ctx   context.Context // carries the run ID
	id    string
	start int // transcript length when the run started
	turn  int
	// tools is the tool list of the current turn (or of a resume batch).
	tools []agenttool.Tool
	// held holds the calls this run left without an output, by call ID.
	held map[string]PendingCall
	// known holds what was pending before the run, by call ID.
	known map[string]PendingCall
}

// Prompt appends items to the transcript and runs turns until the model
// answers, something stops the run, or calls are deferred to the caller.
//
// When calls are pending, items must open with one function_call_output
// per pending call ([ErrInputRequired] otherwise, [ErrNotPending] for an
// output naming a call that is not pending). Those errors, [ErrNoPrompt],
// [ErrNoModel] and [ErrRunning] come back before a run starts, with a nil
// [RunEnd]. Once a run started Prompt returns its [RunEnd], and an error
// only for [ReasonError] (the same as [RunEnd.Err]).
func (a *Agent) Prompt(ctx context.Context, items ...openresponses.Item) (*RunEnd, error) {
	if len(items) == 0 {
		return nil, ErrNoPrompt
	}
	if a.cfg.Model == nil {
		return nil, ErrNoModel
	}
	if err := a.claim(); err != nil {
		return nil, err
	}
	if err := a.checkLeadingOutputs(items); err != nil {
		a.release()
		return nil, err
	}
	r := a.begin(ctx)
	r.append(items...)
	return a.finish(r, r.turns())
}

// claim marks the agent running, or fails with [ErrRunning].
func (a *Agent) claim() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.running {
		return ErrRunning
	}
	a.running = true
	return nil
}

// release undoes a claim that did not lead to a run.
func (a *Agent) release() {
	a.mu.Lock()
	a.running = false
	a.mu.Unlock()
}

// checkLeadingOutputs checks that a prompt answers every pending call with
// one of the function_call_output items it opens with, and nothing else.
func (a *Agent) checkLeadingOutputs(items []openresponses.Item) error {
	owed := make(map[string]bool, len(a.pending))
	for _, p := range a.pending {
		if p.Call != nil {
			owed[p.Call.CallID] = true
		}
	}
	for _, item := range items {
		out, ok := item.(*openresponses.FunctionCallOutput)
		if !ok {
			break
		}
		if !owed[out.CallID] {
			return fmt.Errorf("%w: %s", ErrNotPending, out.CallID)
		}
		delete(owed, out.CallID)
	}
	if len(owed) > 0 {
		return fmt.Errorf("%w: %d pending call(s) have no output", ErrInputRequired, len(owed))
	}
	return nil
}

// begin starts a run on a claimed agent: a new run ID and turn 0.
func (a *Agent) begin(ctx context.Context) *run {
	id := openresponses.NewID("run")
	known := make(map[string]PendingCall, len(a.pending))
	for _, p := range a.pending {
		if p.Call != nil {
			known[p.Call.CallID] = p
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.runID, a.turn = id, 0
	return &run{
		a:     a,
		ctx:   ContextWithRunID(ctx, id),
		id:    id,
		start: len(a.transcript),
		held:  map[string]PendingCall{},
		known: known,
	}
}

// finish completes end with what the run appended and left pending, makes
// that pending list the agent's, and ends the run.
func (a *Agent) finish(r *run, end *RunEnd) (*RunEnd, error) {
	pending := a.unanswered(r.held, r.known)
	a.mu.Lock()
	end.RunID = r.id
	end.Items = append(Transcript(nil), a.transcript[r.start:]...)
	end.Pending = pending
	a.pending = pending
	a.running = false
	a.mu.Unlock()
	if end.Reason == ReasonError {
		return end, end.Err
	}
	return end, nil
}

// append adds items to the agent's transcript.
func (r *run) append(items ...openresponses.Item) {
	if len(items) == 0 {
		return
	}
	r.a.mu.Lock()
	r.a.transcript = append(r.a.transcript, items...)
	r.a.mu.Unlock()
}

// setTurn records the turn the run is on.
func (r *run) setTurn(turn int) {
	r.turn = turn
	r.a.mu.Lock()
	r.a.turn = turn
	r.a.mu.Unlock()
}

// turns runs turns from 1 until one of them ends the run.
func (r *run) turns() *RunEnd {
	cfg := &r.a.cfg
	for turn := 1; ; turn++ {
		r.setTurn(turn)
		if r.ctx.Err() != nil {
			return r.aborted()
		}
		r.tools = r.a.toolsFor(r.ctx)
		if end := r.beforeTurn(); end != nil {
			return end
		}
		req := r.request()
		if cfg.BeforeModelCall != nil {
			if err := cfg.BeforeModelCall(r.ctx, &req); err != nil {
				return r.hookFailed("before-model-call", err)
			}
		}
		resp, end := r.respond(req)
		if end != nil {
			return end
		}
		calls := functionCalls(resp.Output)
		batch := r.plan(calls, nil)
		if err := r.decide(batch, func(int) bool { return true }); err != nil {
			return failed("before-tool-call", err)
		}
		out := r.execute(batch)
		if end := r.afterBatch(out); end != nil {
			return end
		}
		if cfg.ShouldStopAfterTurn != nil {
			stop, err := cfg.ShouldStopAfterTurn(r.ctx, TurnInfo{
				RunID:       r.id,
				Turn:        turn,
				Response:    resp,
				ToolResults: out.results,
				Final:       len(calls) == 0,
				Transcript:  r.a.transcript,
			})
			if err != nil {
				return r.hookFailed("should-stop-after-turn", err)
			}
			if stop {
				return stopped(StopHook)
			}
		}
		if end := out.terminated(); end != nil {
			return end
		}
		if len(calls) == 0 {
			return &RunEnd{Reason: ReasonDone}
		}
		if cfg.MaxTurns > 0 && turn >= cfg.MaxTurns {
			return stopped(StopMaxTurns)
		}
	}
}

// beforeTurn calls [Config.BeforeTurn] and appends what it returns; a
// non-nil result ends the run.
func (r *run) beforeTurn() *RunEnd {
	if r.a.cfg.BeforeTurn == nil {
		return nil
	}
	items, err := r.a.cfg.BeforeTurn(r.ctx, TurnStartInfo{RunID: r.id, Turn: r.turn, Transcript: r.a.transcript})
	if err != nil {
		return r.hookFailed("before-turn", err)
	}
	r.append(items...)
	return nil
}

// request builds the turn's request from the working transcript. Input is
// a deep copy, so BeforeModelCall changes only what this call sends.
func (r *run) request() openresponses.Request {
	req := openresponses.Request{
		Model:        r.a.cfg.ModelName,
		Instructions: r.a.cfg.Instructions,
		Input:        r.a.transcript.Clone(),
	}
	if len(r.tools) > 0 {
		req.Tools = agenttool.Set(r.tools).Definitions()
	}
	return req
}

// toolsFor returns the tool list of a turn: the provider's, else the
// configured one.
func (a *Agent) toolsFor(ctx context.Context) []agenttool.Tool {
	if a.cfg.ToolProvider != nil {
		return a.cfg.ToolProvider(ctx)
	}
	return a.cfg.Tools
}

// afterBatch ends the run when the batch was cut off or deferred calls to
// the caller.
func (r *run) afterBatch(out batchOutcome) *RunEnd {
	if r.ctx.Err() != nil {
		return r.aborted()
	}
	if out.deferred {
		return &RunEnd{Reason: ReasonInputRequired}
	}
	return nil
}

// hookFailed ends the run for an error a hook returned: a guard stop when
// it wraps [ErrGuard], a failure otherwise.
func (r *run) hookFailed(hook string, err error) *RunEnd {
	if errors.Is(err, ErrGuard) {
		return &RunEnd{Reason: ReasonStopped, Cause: StopGuard, Err: err}
	}
	return failed(hook, err)
}

// failed ends the run [ReasonError] for an error hook returned.
func failed(hook string, err error) *RunEnd {
	return &RunEnd{Reason: ReasonError, Err: fmt.Errorf("agentturn: %s hook: %w", hook, err)}
}

// aborted ends the run because its context ended.
func (r *run) aborted() *RunEnd {
	return &RunEnd{Reason: ReasonAborted, Err: context.Cause(r.ctx)}
}

// stopped ends a run [ReasonStopped] for cause.
func stopped(cause StopCause) *RunEnd {
	return &RunEnd{Reason: ReasonStopped, Cause: cause}
}

// functionCalls returns the function calls among items, in order.
func functionCalls(items openresponses.Items) []*openresponses.FunctionCall {
	var calls []*openresponses.FunctionCall
	for _, item := range items {
		if c, ok := item.(*openresponses.FunctionCall); ok {
			calls = append(calls, c)
		}
	}
	return calls
}
