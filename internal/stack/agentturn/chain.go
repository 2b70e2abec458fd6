package agentturn

import "context"

// ChainBeforeToolCall folds several [Config.BeforeToolCall] hooks into one.
// Nil functions are skipped; with none left the result is nil. The hooks run
// in order and the first error fails the call. Nil decisions are ignored
// (all nil gives nil). The strictest action wins (Block over Defer over
// Allow) and the first Block ends the chain; a decision stricter than the
// fold so far brings its reason, By, Held and Subject with it, otherwise the
// first non-empty ones stand. The first non-empty Note stands, Terminate is
// or-ed, and a non-nil Args replaces the fold's and is what later hooks see
// as [ToolCallInfo.Args].
func ChainBeforeToolCall(fns ...func(context.Context, ToolCallInfo) (*ToolDecision, error)) func(context.Context, ToolCallInfo) (*ToolDecision, error) {
	var hooks []func(context.Context, ToolCallInfo) (*ToolDecision, error)
	for _, fn := range fns {
		if fn != nil {
			hooks = append(hooks, fn)
		}
	}
	if len(hooks) == 0 {
		return nil
	}
	return func(ctx context.Context, info ToolCallInfo) (*ToolDecision, error) {
		var fold *ToolDecision
		for _, hook := range hooks {
			d, err := hook(ctx, info)
			if err != nil {
				return nil, err
			}
			if d == nil {
				continue
			}
			if d.Args != nil {
				info.Args = d.Args
			}
			if fold == nil {
				first := *d
				fold = &first
			} else {
				fold.merge(d)
			}
			if fold.Action == Block {
				break
			}
		}
		return fold, nil
	}
}

// strictness ranks actions for the fold: Allow < Defer < Block.
func strictness(a ToolAction) int {
	switch a {
	case Block:
		return 2
	case Defer:
		return 1
	}
	return 0
}

// merge folds a later hook's decision d into the fold so far.
func (fold *ToolDecision) merge(d *ToolDecision) {
	if strictness(d.Action) > strictness(fold.Action) {
		fold.Action, fold.Reason, fold.By = d.Action, d.Reason, d.By
		fold.Held, fold.Subject = d.Held, d.Subject
	} else {
		if fold.Reason == "" {
			fold.Reason = d.Reason
		}
		if fold.By == "" {
			fold.By = d.By
		}
		if fold.Subject == "" {
			fold.Subject = d.Subject
		}
	}
	if fold.Note == "" {
		fold.Note = d.Note
	}
	fold.Terminate = fold.Terminate || d.Terminate
	if d.Args != nil {
		fold.Args = d.Args
	}
}
