package agentpolicy

import (
	"context"

	"github.com/ChristopherDavenport/agenttool"
)

// Removes reports the first deny rule that takes the tool out of the
// request, and whether one does. The model is never offered a tool every
// call of which is denied. RFC 0001 §7 is the full contract.
//
//   - A bare deny rule, naming the tool or a glob matching it, removes it.
//   - A deny rule with a specifier leaves the tool offered, and so does a
//     bare one a carve-out reaches.
//   - It reads the policy and the unscoped grant sets. A scoped set is not
//     read, since Removes takes no context; [Engine.ToolProvider] reads the
//     scope of its context.
func (e *Engine) Removes(tool string) (Rule, bool) {
	return e.snap.Load().removes(tool)
}

// removes is Removes under one snapshot, the grant sets it consults
// included.
func (s *snapshot) removes(tool string) (Rule, bool) {
	for _, tr := range s.withGrants(s.rulesFor(tool), tool) {
		if tr == nil {
			continue
		}
		for _, en := range tr.lists[denyList] {
			if en.match != nil || len(en.carve) > 0 {
				continue
			}
			if en.anyTool && !en.rule.MatchesTool(tool) {
				continue
			}
			return en.rule, true
		}
	}
	return Rule{}, false
}

// Filter returns the tools of the list the policy does not remove, see
// [Engine.Removes], in their order. The rules are read once for the list,
// as Removes reads them: the policy's and the unscoped grant sets', since
// it takes no context; [Engine.ToolProvider] reads a scope's sets too.
//
// The filtering is not journalled: it answers what the model is offered,
// once per turn, not what was decided about a call.
func (e *Engine) Filter(tools []agenttool.Tool) []agenttool.Tool {
	return e.snap.Load().filter(tools)
}

// filter is Filter under one snapshot.
func (s *snapshot) filter(tools []agenttool.Tool) []agenttool.Tool {
	kept := make([]agenttool.Tool, 0, len(tools))
	for _, t := range tools {
		if _, removed := s.removes(t.Name()); !removed {
			kept = append(kept, t)
		}
	}
	return kept
}

// ToolProvider returns the hook value for agentturn.Config.ToolProvider:
// base's tools without the ones the policy removes ([Engine.Filter]). The
// loop consults it before each model call, and it consults base each time.
// So a deny from [Engine.SetPolicy] or [Engine.GrantSet] takes a tool away
// on the next turn. A tool a server announces mid-session is filtered as
// it appears. It reads the deny rules a decision under its context
// reads, grant scope included. A nil base offers no tools.
func (e *Engine) ToolProvider(base func(context.Context) []agenttool.Tool) func(context.Context) []agenttool.Tool {
	if base == nil {
		return func(context.Context) []agenttool.Tool { return []agenttool.Tool{} }
	}
	return func(ctx context.Context) []agenttool.Tool {
		return e.snapshotFor(ctx).filter(base(ctx))
	}
}
