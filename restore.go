package agentpolicy

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// Restore rebuilds what the engine remembers of runs from their recorded
// verdicts, so that [Engine.Deferred], [Engine.Release] and
// [Engine.Answers] work for a run that ended waiting for an answer in
// another process: one that restarted, or another replica. The verdicts
// are a [WithJournal] journal's, or a session's entries under
// [VerdictNS], read back with [ParseRecord] (journal.Verdicts reads a
// journal file), in the order they were recorded.
//
// A call whose last verdict defers it is remembered as [Engine.Decide]
// remembered it: asked, for a reviewer to see as the hook saw it, its
// arguments and its tool, the one [WithTools] names; or held, for Release
// to approve with the arguments and the note its hooks gave it. A call
// with a later verdict that does not defer it is not: an answer from
// Answers or Release, a grant over it, or a decision that allowed or
// blocked it settled it. A caller's own answer to an asked call, given to
// Release, is the session's decision entry and no verdict, so a product
// restores the runs it is about to answer, or calls [Engine.Forget] for
// the runs that finished. Verdicts of content, and those with no run or
// call, are read past.
//
// A remembered call replaces what the engine remembers of the same call,
// so restoring the same verdicts again changes nothing. A verdict that
// defers a call and does not carry the call's tool and arguments cannot be
// answered, and is an error naming the call; nothing is restored then.
//
// Restoring trusts the verdicts as the engine's own memory: a held call
// is released with the arguments its record names. A product keeps its
// journal where the agent's tools cannot write, outside the working tree
// the agent edits, as it keeps any audit trail.
//
// A restored deferral answers only the call it recorded: one whose tool
// or arguments are not the pending call's is not released, and Answers
// refuses it, since the policy never decided the call that would run.
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
