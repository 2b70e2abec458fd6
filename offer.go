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
// It reads the deny rules a decision reads, so the list a front shows and
// the list the model is offered cannot disagree with what is decided.
func (e *Engine) Removes(tool string) (Rule, bool) {
	return e.snap.Load().removes(tool)
}

// removes is Removes under one snapshot.
func (s *snapshot) removes(tool string) (Rule, bool) {
	for _, en := range s.rulesFor(tool).lists[denyList] {
		if en.match != nil || len(en.carve) > 0 {
			continue
		}
		if en.anyTool && !en.rule.MatchesTool(tool) {
			continue
		}
		return en.rule, true
	}
	return Rule{}, false
}

// Filter returns the tools of the list the policy does not remove, see
// [Engine.Removes], in their order. The rules are read once for the list.
//
// The filtering is not journalled: it answers what the model is offered,
// once per turn, not what was decided about a call.
func (e *Engine) Filter(tools []agenttool.Tool) []agenttool.Tool {
	s := e.snap.Load()
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
// [Engine.SetPolicy] takes the tool away on the next turn, and a tool a
// server announces mid-session is filtered as it appears.
//
// base is a provider rather than a list because the list is what changes;
// a product whose list is fixed passes one that returns it, or filters it
// once with Engine.Filter and sets Config.Tools.
func (e *Engine) ToolProvider(base func(context.Context) []agenttool.Tool) func(context.Context) []agenttool.Tool {
	return func(ctx context.Context) []agenttool.Tool {
		return e.Filter(base(ctx))
	}
}
