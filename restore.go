package agentpolicy

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// Restore rebuilds what the engine remembers of runs from their recorded
// verdicts, in the order they were recorded. [Engine.Deferred],
// [Engine.Release] and [Engine.Answers] then work for a run that waits on
// an answer in another process. The verdicts are a [WithJournal]
// journal's, or a session's entries read back with [ParseRecord]. RFC 0001
// §17.3 is the full contract.
//
//   - A call whose last verdict defers it is remembered as [Engine.Decide]
//     remembered it, asked or held, with its tool and arguments.
//   - A call with a later verdict that does not defer it was settled, and
//     is not remembered. A caller's own answer is no verdict: restore only
//     the runs about to be answered, or [Engine.Forget] the others.
//   - Restoring the same verdicts again changes nothing.
//   - A deferring verdict without the call's tool and arguments is an
//     error naming the call, and nothing is restored.
//
// Restore trusts the verdicts as the engine's own memory, so a product
// keeps its journal where the agent's tools cannot write. A restored
// deferral answers only the call it recorded: a pending call with another
// tool or arguments is not released, and Answers refuses it.
func (e *Engine) Restore(ctx context.Context, verdicts ...Verdict) error {
	type callKey struct{ run, call string }
	last := make(map[callKey]int)
	var order []callKey
	for i, v := range verdicts {
		if v.Guard != "" || v.RunID == "" || v.CallID == "" {
			continue
		}
		k := callKey{v.RunID, v.CallID}
		if _, ok := last[k]; !ok {
			order = append(order, k)
		}
		last[k] = -1
		if v.Action == agentturn.Defer {
			last[k] = i
		}
	}
	var restored []deferral
	for _, k := range order {
		i := last[k]
		if i < 0 {
			continue
		}
		def, err := e.restored(ctx, verdicts[i])
		if err != nil {
			return err
		}
		restored = append(restored, def)
	}
	e.deferred.restore(restored)
	return nil
}

// restored is the deferral a recorded verdict that deferred a call
// stands for.
func (e *Engine) restored(ctx context.Context, v Verdict) (deferral, error) {
	if v.Tool == "" || v.Args == "" {
		return deferral{}, fmt.Errorf("agentpolicy: cannot restore call %s of run %s: its verdict does not carry the call's tool and arguments", v.CallID, v.RunID)
	}
	v = v.clone()
	call := &openresponses.FunctionCall{CallID: v.CallID, Name: v.Tool, Arguments: v.Args}
	info := agentturn.ToolCallInfo{RunID: v.RunID, Turn: v.Turn, Call: call, Args: json.RawMessage(v.Args), Index: -1}
	if e.tools != nil {
		info.Tool, _ = e.tools(agentturn.ContextWithRunID(ctx, v.RunID), v.Tool)
	}
	def := deferral{info: info, v: v, note: v.RunNote, restored: true}
	if v.RunArgs != "" {
		def.args = json.RawMessage(v.RunArgs)
	}
	if v.Held {
		def.allow = heldAllow(v.Reason)
	}
	return def, nil
}

// restore remembers the deferrals, each in place of what is remembered of
// its call.
func (d *deferrals) restore(defs []deferral) {
	if len(defs) == 0 {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.runs == nil {
		d.runs = make(map[string]map[string]deferral)
	}
	for _, def := range defs {
		calls := d.runs[def.v.RunID]
		if calls == nil {
			calls = make(map[string]deferral)
			d.runs[def.v.RunID] = calls
		}
		calls[def.v.CallID] = def
	}
}

// describes reports whether the deferral is of the call pending: always
// for one the engine made, and for a restored one when the call names the
// tool it recorded with the arguments it recorded.
func (def deferral) describes(call *openresponses.FunctionCall) bool {
	return !def.restored || call.Name == def.info.Call.Name && sameArgs(def.info.Args, callArgs(call))
}
