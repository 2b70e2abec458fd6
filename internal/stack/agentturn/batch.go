package agentturn

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/openresponses"
)

// blockedReason is the error text of a blocked call whose decision gave no
// reason.
const blockedReason = "call blocked"

// planned is one call of a batch on its way to its tool.
type planned struct {
	call     *openresponses.FunctionCall
	tool     agenttool.Tool // nil when no tool of the turn has the name
	args     json.RawMessage
	key      string // idempotency key the call runs under
	decision *ToolDecision
}

// batchOutcome is what running a batch produced.
type batchOutcome struct {
	results     []agenttool.Result // one per output, model order
	terminating int                // results asking the run to stop
	deferred    bool               // a call was deferred to the caller
}

// plan resolves each call's tool in the turn's tool list and sets the
// arguments and key it runs with unless a decision changes them. keys, when
// given, holds the key of each call ("" for a new one).
func (r *run) plan(calls []*openresponses.FunctionCall, keys []string) []planned {
	batch := make([]planned, len(calls))
	for i, c := range calls {
		batch[i] = planned{call: c, tool: lookup(r.tools, c.Name), args: callArgs(c)}
		if keys != nil {
			batch[i].key = keys[i]
		}
		if batch[i].key == "" {
			batch[i].key = openresponses.NewID("key")
		}
	}
	return batch
}

// decide puts the calls of batch that ask selects to
// [Config.BeforeToolCall], one at a time in batch order, before any of them
// runs. On a hook error the asked calls are left pending as
// [PendingUndispatched].
func (r *run) decide(batch []planned, ask func(i int) bool) error {
	hook := r.a.cfg.BeforeToolCall
	if hook == nil {
		return nil
	}
	calls := make([]*openresponses.FunctionCall, len(batch))
	for i := range batch {
		calls[i] = batch[i].call
	}
	for i := range batch {
		if !ask(i) {
			continue
		}
		d, err := hook(r.ctx, ToolCallInfo{
			RunID: r.id,
			Turn:  r.turn,
			Call:  batch[i].call,
			Tool:  batch[i].tool,
			Args:  batch[i].args,
			Batch: calls,
			Index: i,
		})
		if err != nil {
			for j := range batch {
				if ask(j) {
					r.hold(batch[j], PendingUndispatched)
				}
			}
			return err
		}
		if d != nil && d.Args != nil {
			batch[i].args = d.Args
		}
		batch[i].decision = d
	}
	return nil
}

// execute runs the allowed calls of batch in order, appends one output per
// call that did not wait for the caller, in batch order, then the notes of
// the allowed calls as developer messages.
func (r *run) execute(batch []planned) batchOutcome {
	var out batchOutcome
	var outputs, notes openresponses.Items
	for _, p := range batch {
		d := p.decision
		var res agenttool.Result
		switch {
		case d != nil && d.Action == Defer:
			r.hold(p, PendingDeferred)
			out.deferred = true
			continue
		case d != nil && d.Action == Block:
			reason := d.Reason
			if reason == "" {
				reason = blockedReason
			}
			res = agenttool.ErrorResult(errors.New(reason))
		case p.tool == nil:
			res = agenttool.ErrorResult(fmt.Errorf("tool %q not found", p.call.Name))
		case r.ctx.Err() != nil:
			r.hold(p, PendingUndispatched)
			continue
		default:
			var cut bool
			if res, cut = r.dispatch(p); cut {
				r.hold(p, PendingAborted)
				continue
			}
		}
		if d != nil && d.Action == Allow && d.Note != "" {
			notes = append(notes, openresponses.DeveloperText(d.Note))
		}
		if d != nil && d.Terminate {
			res.Terminate = true
		}
		if res.Terminate {
			out.terminating++
		}
		out.results = append(out.results, res)
		outputs = append(outputs, outputItem(p.call.CallID, res))
	}
	r.append(outputs...)
	r.append(notes...)
	return out
}

// terminated ends the run when results of the batch asked to terminate.
func (out batchOutcome) terminated() *RunEnd {
	switch {
	case out.terminating == 0:
		return nil
	case out.terminating == len(out.results):
		return stopped(StopTerminate)
	}
	return stopped(StopPartialTerminate)
}

// dispatch hands p to its tool. A failure becomes the call's error output,
// unless the run's context ended meanwhile: then the call was cut off and
// cut is true.
func (r *run) dispatch(p planned) (res agenttool.Result, cut bool) {
	ctx := withInvoker(r.ctx, r, p.call.CallID)
	res, err := p.tool.Execute(ctx, agenttool.Call{ID: p.call.CallID, Args: p.args, IdempotencyKey: p.key})
	if err != nil {
		if r.ctx.Err() != nil {
			return agenttool.Result{}, true
		}
		return agenttool.ErrorResult(err), false
	}
	return res, false
}

// hold remembers that p is left without an output, and why.
func (r *run) hold(p planned, reason PendingReason) {
	pc := PendingCall{Call: p.call, Reason: reason, Tool: p.tool}
	if !sameJSON(p.args, callArgs(p.call)) {
		pc.Args = p.args
	}
	switch reason {
	case PendingDeferred:
		d := *p.decision
		pc.Decision = &d
	case PendingAborted:
		pc.IdempotencyKey = p.key
	}
	r.held[p.call.CallID] = pc
}

// outputItem renders a tool result as the call's output item.
func outputItem(callID string, res agenttool.Result) *openresponses.FunctionCallOutput {
	out := openresponses.NewFunctionCallOutput(callID, "")
	out.Output = res.Output
	return out
}

// lookup finds the tool named name in tools; nil when none has the name.
func lookup(tools []agenttool.Tool, name string) agenttool.Tool {
	t, _ := agenttool.Set(tools).Lookup(name)
	return t
}

// callArgs returns the arguments the model sent with c, "{}" when none.
func callArgs(c *openresponses.FunctionCall) json.RawMessage {
	if c.Arguments == "" {
		return json.RawMessage("{}")
	}
	return json.RawMessage(c.Arguments)
}

// sameJSON reports whether a and b are the same JSON text up to
// insignificant white space.
func sameJSON(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return false
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}
