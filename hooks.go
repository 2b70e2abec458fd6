package agentpolicy

import (
	"context"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
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
