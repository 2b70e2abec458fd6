package agentpolicy

import (
	"context"
	"slices"

	"github.com/ChristopherDavenport/agentturn"
)

// Grant sets: a rule set activated beside the policy, a skill's
// allowed-tools, keyed by its grant scope and its source, until Revoke or
// RevokeScope takes it back. Its allow rules shadow the ask rules of the
// sources they do not rank below; its deny and ask rules apply at once.
//
// The sets of every scope, the compiled rules of each scope and one
// snapshot per scope with sets are part of the engine's snapshot: every
// grant, revocation and policy change compiles a new one under the
// engine's writer lock and swaps it in, so a decision reads one grant state
// from start to end.

// grantScopeKey is the context key of a grant scope.
type grantScopeKey struct{}

// ContextWithGrantScope returns ctx carrying a grant scope: the key of the
// conversation, agent or run whose calls a grant set decides, a session ID
// say. One engine serves every agent, so without a scope a skill the main
// agent opened would grant its tools to every other run.
//
//   - [Engine.GrantSet] activates a set under ctx's scope, and
//     [Engine.Revoke] or [Engine.RevokeScope] takes it back.
//   - [Engine.Decide] consults the sets of ctx's scope beside the unscoped
//     ones; the scope "", or none, is the unscoped one.
//   - A context derived from a scoped one carries the scope, so a
//     sub-agent inherits its parent's grants unless given its own scope.
//
// A host puts the scope on the context it runs each conversation under
// and on the one it activates the skill's set with. RFC 0001 §14.3 is the
// full contract.
func ContextWithGrantScope(ctx context.Context, scope string) context.Context {
	return context.WithValue(ctx, grantScopeKey{}, scope)
}

// GrantScopeFromContext returns the grant scope ctx carries, or "" for the
// unscoped one.
func GrantScopeFromContext(ctx context.Context) string {
	scope, _ := ctx.Value(grantScopeKey{}).(string)
	return scope
}

// grantSet is one rule set [Engine.GrantSet] activated, as it keeps it.
type grantSet struct {
	scope string
	// set holds the rules activated: expanded, stamped with the set's
	// source, the allow rules only when the source is trusted.
	set RuleSet
	// withheld are the allow rules of an untrusted source, as given.
	withheld []Rule
}

// size is how many rules the set holds, withheld ones included.
func (g *grantSet) size() int {
	return len(g.set.Allow) + len(g.set.Deny) + len(g.set.Ask) + len(g.withheld)
}

// grantState is the grant sets in force under every scope, with what a
// decision reads of them compiled. It is part of a snapshot and, like it,
// never changed once built.
type grantState struct {
	// sets are in activation order, every scope's.
	sets []*grantSet
	// layers are the compiled rules of each scope's sets, "" the
	// unscoped ones.
	layers map[string]*ruleIndex
	// scoped is the snapshot a decision under each scope with sets reads.
	scoped map[string]*snapshot
}

// install compiles the grant sets over base, the policy in force, and
// swaps the result in; it is called with e.mu held. A scope's compiled
// rules are taken from reuse unless its sets changed, which only the sets
// of scope changed can have; a nil reuse compiles every scope, as a
// change of the policy needs, since the policy's carve-outs reach the
// sets' rules.
func (e *Engine) install(base *snapshot, sets []*grantSet, reuse *grantState, changed string) {
	e.snap.Store(e.withSets(base, sets, reuse, changed))
}

// withSets is the snapshot install swaps in, see [Engine.install].
func (e *Engine) withSets(base *snapshot, sets []*grantSet, reuse *grantState, changed string) *snapshot {
	byScope := make(map[string][]*grantSet)
	for _, g := range sets {
		byScope[g.scope] = append(byScope[g.scope], g)
	}
	g := &grantState{sets: sets, layers: make(map[string]*ruleIndex, len(byScope))}
	for scope, scopeSets := range byScope {
		if layer, ok := reuse.layer(scope); ok && scope != changed {
			g.layers[scope] = layer
			continue
		}
		g.layers[scope] = e.compileSets(base.policy, scopeSets)
	}
	root := *base
	root.grants, root.sets = g, [2]*ruleIndex{g.layers[""]}
	g.scoped = make(map[string]*snapshot, len(g.layers))
	for scope, layer := range g.layers {
		if scope != "" {
			s := root
			s.sets[1] = layer
			g.scoped[scope] = &s
		}
	}
	return &root
}

// layer returns the compiled rules of the scope's sets in g, if any.
func (g *grantState) layer(scope string) (*ruleIndex, bool) {
	if g == nil {
		return nil, false
	}
	layer, ok := g.layers[scope]
	return layer, ok
}

// compileSets indexes the rules of one scope's sets, in activation order,
// with the policy's carve-outs beside them, so a carve-out reaches a set's
// rule of a source it does not rank below as it reaches the policy's.
func (e *Engine) compileSets(p Policy, sets []*grantSet) *ruleIndex {
	lists := [3][]Rule{denyList: carveOuts(p.Deny), askList: carveOuts(p.Ask), allowList: carveOuts(p.Allow)}
	for _, g := range sets {
		lists[denyList] = append(lists[denyList], g.set.Deny...)
		lists[askList] = append(lists[askList], g.set.Ask...)
		lists[allowList] = append(lists[allowList], g.set.Allow...)
	}
	ix := e.indexRules(lists, nil, true)
	return &ix
}

// carveOuts returns the carve-outs of a list.
func carveOuts(list []Rule) []Rule {
	var out []Rule
	for _, r := range list {
		if _, ok := r.CarveOut(); ok {
			out = append(out, r)
		}
	}
	return out
}

// Refusal is one rule a grant could not activate, with the stable text
// that says why. A front shows the user what a skill asked for and did not
// get.
type Refusal struct {
	Rule   Rule
	Reason string
}

// GrantSet activates a rule set under its source, as a skill's
// allowed-tools grants the tools the skill runs, until [Engine.Revoke].
// RFC 0001 §14.2 and §14.3 are the full contract.
//
// While the set is active, its allow rules shadow the ask rules of sources
// ranked at or below it, for the subjects they allow. Its deny and ask
// rules apply at once, trusted or not: a grant never beats a deny. An
// untrusted named source's allow rules are withheld, as [Merge] withholds
// them. Rules are stamped with the set's source and their aliases expanded.
//
// A rule is refused, and not activated, when:
//   - it could never fire: no matcher, a carve-out, or a tool-name glob in
//     the allow list or with a specifier;
//   - it is an allow rule of an untrusted source;
//   - it is an allow rule whose tool a bare deny rule names, or a bare ask
//     rule from a source that outranks the set;
//   - a [WithJournal] journal could not record the set's grants; then the
//     whole set is refused, "the grant could not be recorded".
//
// granted lists the allow rules activated; refused lists the allow list's
// refusals, then the deny list's, then the ask list's. Each grant and
// refusal reaches the observers. A set is keyed by ctx's grant scope
// ([ContextWithGrantScope]) and its source name: a second set under both
// replaces the first.
func (e *Engine) GrantSet(ctx context.Context, set RuleSet) (granted []Rule, refused []Refusal) {
	scope := GrantScopeFromContext(ctx)
	var allow, restrict activation
	e.mu.Lock()
	s := e.snap.Load()
	g := &grantSet{scope: scope, set: RuleSet{Source: set.Source}}
	g.set.Deny = restrict.restrictions(e, denyList, set.Deny, set.Source)
	g.set.Ask = restrict.restrictions(e, askList, set.Ask, set.Source)
	view := e.withSets(s, withSet(s.grants.sets, g), s.grants, scope).scope(scope)
	g.set.Allow, g.withheld = allow.allowances(e, view, set.Allow, set.Source)
	var unrecorded activation
	// Only the allow rules are grants: the deny and ask rules restrict,
	// so neither the journal nor the observers read them as granted.
	if e.journalAll(ctx, allow.granted) == nil {
		e.install(s, withSet(s.grants.sets, g), s.grants, scope)
		granted = slices.Clone(g.set.Allow)
	} else {
		unrecorded.unrecorded(allow, restrict)
		allow.granted = nil
	}
	e.mu.Unlock()

	for _, v := range allow.granted {
		e.notify(ctx, v)
	}
	for _, v := range slices.Concat(allow.refused, restrict.refused, unrecorded.refused) {
		e.refused(ctx, v)
	}
	return granted, slices.Concat(allow.refusals, restrict.refusals, unrecorded.refusals)
}

// activation is what GrantSet made of one list or several: the refusals,
// and the verdicts on what it activated and refused, with the rule as
// given behind each activation. Only the allow list's activations are
// grants, journaled and observed.
type activation struct {
	refusals []Refusal
	granted  []Verdict
	given    []Rule
	refused  []Verdict
}

// grant notes the rules x activated for the rule r as given.
func (a *activation) grant(r Rule, x ...Rule) {
	for _, x := range x {
		a.granted = append(a.granted, grantVerdict(x, agentturn.Allow, grantedByReason(r, r.Source.Name)))
		a.given = append(a.given, r)
	}
}

// unrecorded refuses every rule the activations granted, since the
// journal could not record the grants and the set is not activated.
func (a *activation) unrecorded(activations ...activation) {
	for _, act := range activations {
		for i, v := range act.granted {
			a.refuse(act.given[i], *v.Rule, refusedUnrecorded)
		}
	}
}

// refuse notes the refusal of x, for the rule r as given.
func (a *activation) refuse(r, x Rule, reason string) {
	a.refusals = append(a.refusals, Refusal{Rule: x, Reason: reason})
	a.refused = append(a.refused, grantVerdict(x, agentturn.Block, notGrantedReason(r, reason)))
}

// restrictions activates the deny or ask rules of a set from src: each
// stamped, validated as [Build] validates one and expanded, or refused.
func (a *activation) restrictions(e *Engine, l list, given []Rule, src Source) []Rule {
	var out []Rule
	for _, r := range stamped(given, src) {
		rules, err := e.activatable(l, r)
		if err != nil {
			a.refuse(r, r, err.Error())
			continue
		}
		a.grant(r, rules...)
		out = append(out, rules...)
	}
	return out
}

// allowances activates the allow rules of a set from src under view, the
// snapshot a decision under the set's scope reads with the set's deny and
// ask rules in force, and returns them with those it withheld. A rule is
// refused when it could never fire; withheld, and refused, when src is
// named and untrusted; and refused for a tool its alias names when a bare
// deny, or a bare ask of a source that outranks the set, names the tool, so
// the rule is still activated for the others.
func (a *activation) allowances(e *Engine, view *snapshot, given []Rule, src Source) (allow, withheld []Rule) {
	for _, r := range stamped(given, src) {
		rules, err := e.activatable(allowList, r)
		switch {
		case err != nil:
			a.refuse(r, r, err.Error())
			continue
		case src.Name != "" && !src.Trusted:
			withheld = append(withheld, r)
			a.refuse(r, r, refusedUntrusted(src.Name))
			continue
		}
		for _, x := range rules {
			if d, ok := view.removes(x.Tool); ok {
				a.refuse(r, x, refusedDenied(d))
			} else if ask, ok := view.outranking(x.Tool, src.Rank); ok {
				a.refuse(r, x, refusedOutranked(ask))
			} else {
				a.grant(r, x)
				allow = append(allow, x)
			}
		}
	}
	return allow, withheld
}

// activatable validates a rule of a set's list as [Build] does, and
// refuses a carve-out, and returns it expanded through the aliases.
func (e *Engine) activatable(l list, r Rule) ([]Rule, error) {
	if _, ok := r.CarveOut(); ok {
		return nil, errGrantCarveOut(r)
	}
	return e.expand(l, []Rule{r})
}

// stamped returns the rules each carrying src as its source.
func stamped(rules []Rule, src Source) []Rule {
	return appendStamped(nil, rules, src)
}

// withSet returns sets with g in place of the set of its scope and source,
// listed last, or without that set when g holds nothing.
func withSet(sets []*grantSet, g *grantSet) []*grantSet {
	out := slices.DeleteFunc(slices.Clone(sets), func(x *grantSet) bool {
		return x.scope == g.scope && x.set.Source.Name == g.set.Source.Name
	})
	if g.size() > 0 {
		out = append(out, g)
	}
	return out
}

// outranking returns the first ask rule with no specifier naming the tool,
// that no carve-out reaches, from a source that ranks above rank.
func (s *snapshot) outranking(tool string, rank int) (Rule, bool) {
	for _, tr := range s.withGrants(s.rulesFor(tool), tool) {
		if tr == nil {
			continue
		}
		for _, en := range tr.lists[askList] {
			if en.match == nil && len(en.carve) == 0 && en.rule.Source.Rank > rank &&
				(!en.anyTool || en.rule.MatchesTool(tool)) {
				return en.rule, true
			}
		}
	}
	return Rule{}, false
}

// Revoke removes the rule set a source activated under ctx's grant scope,
// with the allow rules withheld from it. It returns how many rules it
// removed. A product calls it at the turn's end for a grant of one turn,
// as a skill's allowed-tools "clears when you send your next message".
//
//   - It touches neither the policy [Build] was given nor the rules
//     [Engine.Grant] and [Engine.GrantOver] added, which outlive a turn.
//   - It touches no other scope's set: an unscoped Revoke never removes a
//     scoped set, nor a scoped one the unscoped set.
//   - When it removed a rule, it is journaled as a [Verdict], Block with
//     "revoked the rules granted by N". It is made whether or not the
//     [WithJournal] journal takes it: a failing journal keeps no grant.
func (e *Engine) Revoke(ctx context.Context, source string) int {
	scope := GrantScopeFromContext(ctx)
	return e.revoke(ctx, scope, revokedByReason(source), func(g *grantSet) bool {
		return g.scope == scope && g.set.Source.Name == source
	})
}

// RevokeScope removes every rule set activated under the grant scope of
// ctx, with the allow rules withheld from its untrusted ones. It returns
// how many rules it removed. Under a context with no scope it removes every
// unscoped set, and no scoped one.
//
// A host calls it when a conversation ends, as it calls [Engine.Forget]
// for a run that ended another way. So nothing a conversation opened
// outlives it. When it removed a rule, it is journaled as Revoke is, Block
// with one of these reasons:
//   - "revoked the rules granted under S";
//   - "revoked the rules granted without a scope".
func (e *Engine) RevokeScope(ctx context.Context) int {
	scope := GrantScopeFromContext(ctx)
	return e.revoke(ctx, scope, revokedScopeReason(scope), func(g *grantSet) bool {
		return g.scope == scope
	})
}

// revoke removes the sets of scope that gone selects and journals the
// revocation with reason when it removed a rule.
func (e *Engine) revoke(ctx context.Context, scope, reason string, gone func(*grantSet) bool) int {
	e.mu.Lock()
	s := e.snap.Load()
	n := 0
	for _, g := range s.grants.sets {
		if gone(g) {
			n += g.size()
		}
	}
	v := Verdict{Action: agentturn.Block, Reason: reason, By: ByPolicy}
	if n > 0 {
		// A revocation is made whether or not the journal records it,
		// as a block is: a failing journal must not keep a grant alive.
		_ = e.journalAll(ctx, []Verdict{v})
		e.install(s, slices.DeleteFunc(slices.Clone(s.grants.sets), gone), s.grants, scope)
	}
	e.mu.Unlock()
	if n > 0 {
		e.notify(ctx, v)
	}
	return n
}

// Grants returns the rule sets in force beside the policy under every
// grant scope, as [Engine.GrantSet] kept them. The unscoped sets come
// first, then the scoped ones, each in the order they were activated. The
// rules it refused are not here. An untrusted source's allow rules are on
// [Engine.Withheld] instead. A set's scope is not on the [RuleSet];
// [Engine.GrantsFor] returns the sets one decision consults.
func (e *Engine) Grants() []RuleSet {
	return e.snap.Load().grants.list(func(g *grantSet) bool { return true })
}

// GrantsFor returns the rule sets a decision under ctx consults, in the
// order they are consulted. The unscoped sets come first, then the sets of
// the grant scope ctx carries, each in activation order. Under a context with no
// scope they are the unscoped sets alone.
func (e *Engine) GrantsFor(ctx context.Context) []RuleSet {
	scope := GrantScopeFromContext(ctx)
	return e.snap.Load().grants.list(func(g *grantSet) bool { return g.scope == "" || g.scope == scope })
}

// list returns copies of the sets keep selects, the unscoped ones first,
// each in activation order.
func (g *grantState) list(keep func(*grantSet) bool) []RuleSet {
	var out []RuleSet
	for _, gs := range g.ordered() {
		if keep(gs) {
			out = append(out, RuleSet{Source: gs.set.Source, Allow: slices.Clone(gs.set.Allow),
				Deny: slices.Clone(gs.set.Deny), Ask: slices.Clone(gs.set.Ask)})
		}
	}
	return out
}

// ordered returns the sets as Grants lists them: the unscoped ones first,
// then the scoped ones, each in activation order.
func (g *grantState) ordered() []*grantSet {
	sets := make([]*grantSet, 0, len(g.sets))
	for _, unscoped := range []bool{true, false} {
		for _, gs := range g.sets {
			if (gs.scope == "") == unscoped {
				sets = append(sets, gs)
			}
		}
	}
	return sets
}
