package agentpolicy

import (
	"context"
	"encoding/json"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// hook is a product's before-tool-call hook, the loop's own type.
type hook = func(context.Context, agentturn.ToolCallInfo) (*agentturn.ToolDecision, error)

// WithHooks folds a product's own before-tool-call hooks into the engine's
// decision, ahead of the batch hold, so a hook that asks holds the rest of
// the batch exactly as an ask rule does, and a hook that blocks a call
// leaves nothing held waiting for it. That is why they belong here and not
// chained after [Engine.Decide] with agentturn.ChainBeforeToolCall: a hook
// chained there is outside the hold, so a call it defers lets its
// siblings run before anyone answers, and a call it blocks strands the
// siblings the engine held for it.
//
// The fold is agentturn.ChainBeforeToolCall's, with the engine's decision
// as the first in the chain. The strictest action wins, Block over Defer
// over Allow, and a Block ends the fold, so no hook is asked about a call
// the policy denies. A hook that makes the action stricter brings its
// reason and its decider, By ([ByPolicy] when it names none), and the
// verdict then carries no Rule and no Subject, since no rule decided it.
// The first note stands, Terminate is set when any hook sets it, and
// arguments a hook rewrites are handed to the hooks after it and are what
// the call runs with, a held call's too when [Engine.Release] releases it.
//
// Rewritten arguments are decided again, with their confinement read from
// them, because they are what runs: the stricter of the two actions
// stands, a verdict the policy still owns takes the rule and reason of the
// rewrite when the rewrite's action stands, and [Verdict.Confined] is the
// rewrite's, so a hook that takes a call out of its sandbox is asked about
// and the verdict does not say the call ran confined. A hook's error fails
// the call's decision, and with it the turn; it is returned as the hook
// gave it.
//
// The engine reads the other calls of a batch to decide whether to hold a
// call, so a hook is also called for a sibling of the call being decided,
// before the loop hands it that sibling's own call, with the sibling's
// batch position and the tool [WithTools] names for it. A hook must
// therefore decide a call the same way however often it is asked; one that
// fails for a sibling reads as asking, so the call being decided is held.
// [Engine.Would] calls the hooks too.
//
// Each WithHooks adds its hooks after those already given; a nil hook adds
// nothing.
func WithHooks(fns ...func(context.Context, agentturn.ToolCallInfo) (*agentturn.ToolDecision, error)) Option {
	return func(e *Engine) {
		for _, fn := range fns {
			if fn != nil {
				e.hooks = append(e.hooks, fn)
			}
		}
	}
}

// WithTools names the tools the engine reads a sibling's confinement
// from: whether a call is held depends on whether another call of its
// batch asks, which depends on whether that call runs confined, and the
// hook is handed its own call's tool, not its siblings'. agenttool.Set's
// Lookup is the usual value, and the lookup must resolve a name to the
// tool the loop runs for it.
//
// Without it the engine knows a sibling's tool only once the loop hands it
// that sibling's own call, which it does in the model's order: a sibling
// decided earlier in the batch is read as it was decided, and one later in
// the batch reads as unconfined. A call before a confined command that a
// bare ask rule names is then held for it, and [Engine.Release] with no
// answers releases it once the command's own decision has allowed it.
//
// [Engine.Answers] reads it too, for the tool of a cut-off call from a
// seeded transcript, which the loop does not name, to ask whether the call
// may run again.
//
// The lookup is given the tool's name alone, so an engine shared by runs
// whose tool lists differ reads one list for all of them; [WithToolsFor]
// gives it the decision's context too. Of WithTools and WithToolsFor, the
// last given is the one read.
func WithTools(lookup func(name string) (agenttool.Tool, bool)) Option {
	if lookup == nil {
		return WithToolsFor(nil)
	}
	return WithToolsFor(func(_ context.Context, name string) (agenttool.Tool, bool) { return lookup(name) })
}

// WithToolsFor is [WithTools] with the context of the decision, so the
// lookup answers for the run whose batch is being decided: the context is
// the hook's, which carries the run's ID (agentturn.RunIDFromContext; the
// engine puts the run's ID there when the caller's context has none), or
// [Engine.Answers]' for a cut-off call, carrying the ended run's ID. An
// engine shared by concurrent runs whose tool lists differ answers per run
// through it.
func WithToolsFor(lookup func(ctx context.Context, name string) (agenttool.Tool, bool)) Option {
	return func(e *Engine) { e.tools = lookup }
}

// judgement is a call's verdict before the batch hold, with what the
// hooks add to the decision besides the verdict.
type judgement struct {
	// v is the verdict, its rule the engine's own: it is copied
	// ([Verdict.clone]) wherever it leaves the engine.
	v Verdict
	// args are the arguments a hook rewrote the call to, nil when none
	// did.
	args      json.RawMessage
	note      string
	terminate bool
	// unevaluated marks a call the engine could not evaluate: a splitter
	// that failed or split nothing, or a context already done. As a
	// sibling it reads as asking.
	unevaluated bool
	// allow is the reason the policy allowed a call the hold deferred.
	allow string
}

// asks reports whether the call, as a sibling, holds the calls of its
// batch the policy allows: it is deferred, or it could not be evaluated.
// A call a rule blocks holds nothing.
func (j *judgement) asks() bool {
	return j.v.Action == agentturn.Defer || j.unevaluated
}

// fill sets d to what the loop reads for the judgement.
func (j *judgement) fill(d *agentturn.ToolDecision) {
	*d = agentturn.ToolDecision{
		Action:    j.v.Action,
		Reason:    j.v.Reason,
		By:        j.v.By,
		Held:      j.v.Held,
		Subject:   j.v.Subject,
		Args:      j.args,
		Note:      j.note,
		Terminate: j.terminate,
	}
}

// judge evaluates the call under s into j, which is zero, and folds the
// hooks' decisions into the policy's, see [WithHooks]. A hook's error is
// returned as it is, and j is then not to be read.
func (e *Engine) judge(ctx context.Context, s *snapshot, info agentturn.ToolCallInfo, j *judgement) error {
	j.unevaluated = !e.evaluate(ctx, s, info, &j.v)
	owned := true
	for _, fn := range e.hooks {
		if j.v.Action == agentturn.Block {
			break
		}
		d, err := fn(ctx, info)
		if err != nil {
			return err
		}
		if d == nil {
			continue
		}
		if d.Args != nil {
			info.Args, j.args = d.Args, d.Args
		}
		if strictness(d.Action) > strictness(j.v.Action) {
			j.v.Action, j.v.Reason, j.v.By = d.Action, d.Reason, d.By
			if j.v.By == "" {
				j.v.By = ByPolicy
			}
			j.v.Rule, j.v.Subject = nil, ""
			owned = false
		}
		if j.note == "" {
			j.note = d.Note
		}
		j.terminate = j.terminate || d.Terminate
	}
	if j.args != nil {
		e.rejudge(ctx, s, info, j, owned)
	}
	return nil
}

// rejudge decides the rewritten arguments info carries, confinement read
// from them, and keeps the stricter of the two actions. The rewrite's
// verdict replaces the fold's when its action is stricter, or when the
// policy still owns the fold's verdict and the two actions are the same,
// since the rewrite is what runs; either way the call's confinement is the
// rewrite's.
func (e *Engine) rejudge(ctx context.Context, s *snapshot, info agentturn.ToolCallInfo, j *judgement, owned bool) {
	var r Verdict
	ok := e.evaluate(ctx, s, info, &r)
	j.unevaluated = j.unevaluated || !ok
	switch {
	case strictness(r.Action) > strictness(j.v.Action), owned && r.Action == j.v.Action:
		j.v = r
	default:
		j.v.Confined = r.Confined
	}
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
