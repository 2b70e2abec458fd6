package agentpolicy

import (
	"context"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
)

// hook is a product's before-tool-call hook, the loop's own type.
type hook = func(context.Context, agentturn.ToolCallInfo) (*agentturn.ToolDecision, error)

// WithHooks folds a product's own before-tool-call hooks into the engine's
// decision, ahead of the batch hold. A hook that asks then holds the rest
// of the batch, as an ask rule does. A call a hook blocks leaves nothing
// held waiting for it. A hook chained after [Engine.Decide] with
// agentturn.ChainBeforeToolCall is outside the hold instead. RFC 0001 §10
// is the full contract.
//
// The fold is agentturn.ChainBeforeToolCall's, the engine's decision first:
//   - the strictest action wins, Block over Defer over Allow;
//   - a Block ends the fold, so no hook is asked about a call the policy
//     denies;
//   - a hook that makes the action stricter brings its reason and its
//     decider, [ByPolicy] when it names none. The verdict then has no Rule
//     and no Subject;
//   - the first note stands, and Terminate is set when any hook sets it;
//   - rewritten arguments reach the hooks after, and are what the call
//     runs with, a held call's too when [Engine.Release] releases it;
//   - a hook's error fails the call's decision, and the turn; it is
//     returned as the hook gave it.
//
// Rewritten arguments are decided again, their confinement read from them,
// because they are what runs. The stricter action stands, and
// [Verdict.Confined] is the rewrite's. So a hook that takes a call out of
// its sandbox is asked about, and the verdict does not say it ran confined.
//
// A hook is also called for the siblings of a call, to decide the hold,
// and by [Engine.Would]. So it must decide a call the same way however
// often it is asked; one that fails for a sibling reads as asking.
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

// WithTools names the tools the engine reads a sibling's confinement from.
// A call is held when a sibling asks, which depends on whether the sibling
// runs confined. The hook is handed its own call's tool alone.
// agenttool.Set's Lookup is the usual value; it must name the tool the
// loop runs.
//
// Without it, a sibling later in the batch reads as unconfined. So a call
// before a confined command that a bare ask rule names is held for it;
// [Engine.Release] with no answers then releases it. [Engine.Answers]
// reads the lookup too, for the tool of a cut-off call from a seeded
// transcript. [WithToolsFor] gives the lookup the decision's context; of
// the two, the last given is the one read.
func WithTools(lookup func(name string) (agenttool.Tool, bool)) Option {
	if lookup == nil {
		return WithToolsFor(nil)
	}
	return WithToolsFor(func(_ context.Context, name string) (agenttool.Tool, bool) { return lookup(name) })
}

// WithToolsFor is [WithTools] with the context of the decision, so the
// lookup answers for the run whose batch is being decided. An engine
// shared by runs whose tool lists differ answers per run through it.
//   - The context carries the run's ID (agentturn.RunIDFromContext).
//   - The engine puts the ID there when the caller's context has none.
//   - For a cut-off call it is [Engine.Answers]' context, carrying the
//     ended run's ID.
func WithToolsFor(lookup func(ctx context.Context, name string) (agenttool.Tool, bool)) Option {
	return func(e *Engine) { e.tools = lookup }
}
