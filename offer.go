package agentpolicy

import (
	"context"

	"github.com/ChristopherDavenport/agenttool"
)

// Removes reports the deny rule that takes the tool out of the request, and
// whether one does. A deny rule with no specifier names the tool itself,
// by its name or by a tool-name glob, and so denies every call of it, which
// both references answer by never offering the tool: the model does not see
// it, plans nothing around it and spends no tokens being refused. A deny
// rule with a specifier denies some calls and leaves the tool offered, and
// so does a bare one that a carve-out of the deny list reaches, since the
// carve-out lets some calls through. The rule is the first of the deny list
// that removes the tool, with its source and note, for a front that shows
// what a policy withheld.
//
// It reads the deny rules a decision under no grant scope reads: the
// policy's, and those of every rule set [Engine.GrantSet] activated under
// no scope, so a grant set's bare deny, a skill's disallowed-tools, removes
// the tool as the policy's does for as long as the set is active, and
// [Engine.Revoke] gives it back. It takes no context, so a set activated
// under a scope, see [ContextWithGrantScope], is not read here;
// [Engine.ToolProvider] reads the scope of the context the loop consults it
// with. The list a front shows and the list the model is offered cannot
// disagree with what is decided.
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
// base's tools with the ones the policy removes taken out, see
// [Engine.Filter]. The loop consults it once per turn, before the model
// call, and it consults base once each time, so a deny added by
// [Engine.SetPolicy] or [Engine.GrantSet] takes the tool away on the next
// turn, [Engine.Revoke] gives it back on the next turn, and a tool a
// server announces mid-session is filtered as it appears.
//
// The deny rules read are those a decision under the context the loop
// consults it with reads: the policy's, the unscoped grant sets', and
// those of the sets activated under the grant scope that context carries,
// see [ContextWithGrantScope], so a scoped set's bare deny takes the tool
// out of the offer for the runs under its scope and no other.
//
// base is a provider rather than a list because the list is what changes;
// a product whose list is fixed passes one that returns it, or filters it
// once with Engine.Filter and sets Config.Tools. A nil base offers no
// tools.
func (e *Engine) ToolProvider(base func(context.Context) []agenttool.Tool) func(context.Context) []agenttool.Tool {
	if base == nil {
		return func(context.Context) []agenttool.Tool { return []agenttool.Tool{} }
	}
	return func(ctx context.Context) []agenttool.Tool {
		return e.snapshotFor(ctx).filter(base(ctx))
	}
}
