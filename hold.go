package agentpolicy

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sync"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// The batch hold: a call the policy allows waits while another call of its
// batch asks, so nothing the model asked for in a turn runs while the user
// reads a question about another call of it. The loop hands the engine the
// calls of a batch one at a time, in the model's order, before any runs, so
// deciding whether to hold a call means reading its siblings; a memo of
// recent batches makes that a scan of each sibling once per batch rather
// than once per pair. What is deferred is remembered per run until
// [Engine.Release] or [Engine.Answers] answers it or [Engine.Forget]
// drops it.

// hold defers the call the judgement allows when a sibling in its batch
// asks, see [Engine.Decide], and records the call's own judgement for the
// siblings decided after it. A nested call is a batch of one and holds
// nothing. A verdict that defers the call leaves with what answering it
// needs, see [judgement.carry].
func (e *Engine) hold(ctx context.Context, s *snapshot, info agentturn.ToolCallInfo, j *judgement) {
	if at, ok := batchIndex(info); ok && info.Parent == "" && e.batches.siblingAsks(ctx, e, s, info, at, j) {
		allow := j.v.Reason
		j.v.Action, j.v.Held, j.v.Reason = agentturn.Defer, true, heldReason(allow)
		j.allow = allow
	}
	j.carry(info)
}

// carry sets a verdict of j that defers the call to carry the call's
// arguments and what the hooks gave it, so that its record is enough to
// answer the call in another process, see [Engine.Restore].
func (j *judgement) carry(info agentturn.ToolCallInfo) {
	if j.v.Action == agentturn.Defer {
		j.v.Args, j.v.RunArgs, j.v.RunNote = argsText(info), string(j.args), j.note
	}
}

// argsText is the text of the call's arguments as the hook saw them. The
// loop reads them from the call's own text, which is then the text, with
// no copy made; arguments a hook chained before the engine rewrote are
// copied.
func argsText(info agentturn.ToolCallInfo) string {
	if info.Call != nil && info.Call.Arguments == string(info.Args) {
		return info.Call.Arguments
	}
	return string(info.Args)
}

// batchIndex is the call's position in its batch: Index when it points at
// the call, else where the call's pointer sits. A call alone in its batch,
// or one the batch does not hold, has no siblings.
func batchIndex(info agentturn.ToolCallInfo) (int, bool) {
	if len(info.Batch) < 2 || info.Call == nil {
		return 0, false
	}
	if info.Index >= 0 && info.Index < len(info.Batch) && info.Batch[info.Index] == info.Call {
		return info.Index, true
	}
	at := slices.Index(info.Batch, info.Call)
	return at, at >= 0
}

// batchCapacity is how many recent batches the memo keeps. A batch evicted
// while still being decided costs a rescan of its siblings and nothing
// else, so the memo stays small however many runs share the engine.
const batchCapacity = 128

// batchKey identifies a batch: its run and its first call, the loop's own
// pointer.
type batchKey struct {
	run   string
	first *openresponses.FunctionCall
}

// sibling is what the memo knows of one call of a batch.
type sibling struct {
	// read is the snapshot the call was last read under, by its own
	// decision or by a scan, and asks what that reading said. A reading
	// under another snapshot is out of date, since the rules changed,
	// and read is nil when there is none, or when the last reading
	// failed: a hook that erred and a context that was done say nothing
	// about the call once it can be read.
	read *snapshot
	asks bool
	// tool is the tool the loop handed the call's own decision, which a
	// later scan reads its confinement from; nil until it is decided.
	tool agenttool.Tool
}

// batch is the memo of one batch.
type batch struct {
	calls    []*openresponses.FunctionCall
	siblings []sibling
}

// batches is the memo of the batches decided recently, bounded by
// batchCapacity and evicting the oldest.
type batches struct {
	mu    sync.Mutex
	byKey map[batchKey]*batch
	order []batchKey // insertion order, oldest first
}

// siblingAsks records the call at index at with its own judgement and
// reports whether a sibling asks, when the judgement allows the call. A
// sibling read under s already, by its own decision or a scan, is read as
// it was; any other is scanned under s, with the tool its own decision was
// handed or else the one the engine's lookup names, so a change of the
// rules while the batch is decided makes the calls decided after it read
// the batch again. A reading that failed is not kept. The scans call the
// splitters and the hooks, so they run with no lock held.
func (m *batches) siblingAsks(ctx context.Context, e *Engine, s *snapshot, info agentturn.ToolCallInfo, at int, j *judgement) bool {
	m.mu.Lock()
	b := m.batchOf(info)
	b.siblings[at] = sibling{read: s, asks: j.asks(), tool: info.Tool}
	if j.unevaluated {
		b.siblings[at].read = nil
	}
	if j.v.Action != agentturn.Allow {
		m.mu.Unlock()
		return false
	}
	var scan []int
	var tools []agenttool.Tool
	for k, sib := range b.siblings {
		switch {
		case k == at || b.calls[k] == nil:
		case sib.read == s:
			if sib.asks {
				m.mu.Unlock()
				return true
			}
		default:
			scan, tools = append(scan, k), append(tools, sib.tool)
		}
	}
	m.mu.Unlock()
	if len(scan) == 0 {
		return false
	}
	if agentturn.RunIDFromContext(ctx) == "" {
		ctx = agentturn.ContextWithRunID(ctx, info.RunID)
	}
	for i, k := range scan {
		var sj judgement
		err := e.judge(ctx, s, e.siblingInfo(ctx, info, k, tools[i]), &sj)
		asks := err != nil || sj.asks()
		if err == nil && !sj.unevaluated {
			m.mu.Lock()
			if sib := &b.siblings[k]; sib.read != s {
				sib.read, sib.asks = s, asks
			}
			m.mu.Unlock()
		}
		if asks {
			return true
		}
	}
	return false
}

// batchOf returns the memo of info's batch, making one when the batch is
// new or its key now names other calls, a batch of approved calls on a
// resume say. It is called with m.mu held.
func (m *batches) batchOf(info agentturn.ToolCallInfo) *batch {
	key := batchKey{run: info.RunID, first: info.Batch[0]}
	if b, ok := m.byKey[key]; ok && slices.Equal(b.calls, info.Batch) {
		return b
	}
	if m.byKey == nil {
		m.byKey = make(map[batchKey]*batch, batchCapacity)
	}
	if _, ok := m.byKey[key]; !ok {
		if len(m.order) == batchCapacity {
			delete(m.byKey, m.order[0])
			m.order = append(m.order[:0], m.order[1:]...)
		}
		m.order = append(m.order, key)
	}
	b := &batch{calls: slices.Clone(info.Batch), siblings: make([]sibling, len(info.Batch))}
	m.byKey[key] = b
	return b
}

// deferral is a call the engine deferred, remembered until it is answered.
type deferral struct {
	// info is the call as the hook saw it, for a reviewer.
	info agentturn.ToolCallInfo
	// v is the verdict that deferred the call, its rule the engine's
	// own, copied wherever it is handed out.
	v Verdict
	// allow is the reason the policy allowed a held call with.
	allow string
	// args and note are what the hooks gave the call, for its release.
	args json.RawMessage
	note string
	// restored marks a deferral [Engine.Restore] rebuilt from a record,
	// which answers only a call with the arguments it recorded.
	restored bool
}

// deferrals are the calls deferred and not yet answered, per run. Only a
// deferral writes them, so the many decisions that allow a call never
// touch the lock.
type deferrals struct {
	mu   sync.Mutex
	runs map[string]map[string]deferral
}

// remember keeps a deferred call of a run until [Engine.Release],
// [Engine.Answers] or [Engine.Forget] drops it. Deciding the call again
// replaces the deferral when the call is deferred again and leaves it
// otherwise: a run that ended on an ask is answered under the rules that
// deferred it, whatever a later [Engine.SetPolicy] would make of the call.
// A nested call is settled inline by the loop and never pending, so
// nothing is remembered for it. The deferral keeps rule, the engine's own
// rule of the verdict, rather than the copy j's verdict hands out.
func (e *Engine) remember(info agentturn.ToolCallInfo, j *judgement, rule *Rule) {
	if j.v.Action != agentturn.Defer || info.Parent != "" || info.Call == nil {
		return
	}
	d := &e.deferred
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.runs == nil {
		d.runs = make(map[string]map[string]deferral)
	}
	calls := d.runs[info.RunID]
	if calls == nil {
		calls = make(map[string]deferral)
		d.runs[info.RunID] = calls
	}
	def := deferral{info: info, v: j.v, allow: j.allow, args: j.args, note: j.note}
	def.v.Rule = rule
	calls[info.Call.CallID] = def
}

// get returns the deferral of a call of a run.
func (d *deferrals) get(run, callID string) (deferral, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	def, ok := d.runs[run][callID]
	return def, ok
}

// drop forgets a call of a run, and the run once its last call is gone.
// It is called with d.mu held.
func (d *deferrals) drop(run, callID string) {
	calls, ok := d.runs[run]
	if !ok {
		return
	}
	delete(calls, callID)
	if len(calls) == 0 {
		delete(d.runs, run)
	}
}

// Deferred returns the verdict that deferred the call in the run, asked or
// held. A front shows it to say why a call waits, and puts the asked calls
// to the user; [Engine.Release] answers the held ones ([Verdict.Held]).
//
// It reports false for a call the engine did not defer, one of another
// run, a nested call, and one already answered: Release and
// [Engine.Answers] forget a call as they answer it. A later decision of
// the same call that does not defer it leaves the deferral in place.
func (e *Engine) Deferred(runID, callID string) (Verdict, bool) {
	def, ok := e.deferred.get(runID, callID)
	if !ok {
		return Verdict{}, false
	}
	return def.v.clone(), true
}

// Forget drops what the engine remembers of a run: the calls it deferred
// there and nobody answered. A front calls it when a run ends with its
// pending calls unanswered: an abandoned conversation, a cancelled
// sub-agent. So one engine serving many runs does not keep them for the
// life of the process. A run answered through [Engine.Release] or
// [Engine.Answers] needs no Forget: they forget the calls they answer.
func (e *Engine) Forget(runID string) {
	d := &e.deferred
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.runs, runID)
}

// Runs returns, sorted, the runs the engine holds deferred calls for, so a
// product can see what it has left unanswered.
func (e *Engine) Runs() []string {
	d := &e.deferred
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Sorted(maps.Keys(d.runs))
}

// clone returns v with its own copy of the rule, so what the engine keeps
// cannot be changed through a verdict it hands out.
func (v Verdict) clone() Verdict {
	if v.Rule != nil {
		r := *v.Rule
		v.Rule = &r
	}
	return v
}

// siblingInfo is the hook's view of call k of the batch info is a call of,
// as the loop would build it: the call's own arguments and its tool, the
// one the loop handed the call's own decision when it was decided, else
// the one the engine's lookup names, nil without either.
func (e *Engine) siblingInfo(ctx context.Context, info agentturn.ToolCallInfo, k int, decided agenttool.Tool) agentturn.ToolCallInfo {
	call := info.Batch[k]
	sib := agentturn.ToolCallInfo{
		RunID:  info.RunID,
		Turn:   info.Turn,
		Call:   call,
		Args:   callArgs(call),
		Batch:  info.Batch,
		Index:  k,
		Parent: info.Parent,
	}
	switch {
	case decided != nil:
		sib.Tool = decided
	case e.tools != nil:
		if tool, ok := e.tools(ctx, call.Name); ok {
			sib.Tool = tool
		}
	}
	return sib
}

// callArgs is the arguments the model sent with the call, "{}" when it sent
// none, as the loop hands them to the hook.
func callArgs(call *openresponses.FunctionCall) json.RawMessage {
	if call.Arguments == "" {
		return json.RawMessage("{}")
	}
	return json.RawMessage(call.Arguments)
}
