package agentpolicy

import (
	"context"
	"slices"

	"github.com/ChristopherDavenport/agentturn"
)

// Always allow: Grant and GrantOver answer an approval prompt for good by
// changing the policy itself, so [Engine.Policy] and [Engine.PolicyOf] hold
// what a product persists. The rule sets that last as long as their source
// are grantset.go's.

// Grant adds an allow rule to the policy for the rest of the process, as
// "always allow" does in a prompt the default raised. RFC 0001 §14.1 is
// the full contract.
//
//   - The rule goes where [Merge] would put a rule of its source. So the
//     verdict cites the rule an engine built from the saved files cites.
//   - An alias is expanded as [Build] expands one; a rule the policy holds
//     already is not added twice.
//   - Each rule added is a [Verdict] to the [WithJournal] journal and the
//     observers: Allow, "granted G", G the rule as given.
//   - A grant never beats a deny rule or an ask rule, which precedence
//     reads first; [Engine.GrantOver] answers a prompt an ask rule raised.
//
// A rule that could never fire is refused with the error [Build] gives
// ([ErrNoMatcher], [ErrToolGlob]), or one of its own for a carve-out. A
// grant the journal could not record is not made, and the error wraps
// [ErrUnrecorded]. A refusal changes nothing and reaches no observer. A
// product persists a grant by saving the rules [Engine.PolicyOf] reports.
func (e *Engine) Grant(ctx context.Context, r Rule) error {
	e.mu.Lock()
	s := e.snap.Load()
	rules, err := e.grantable(r)
	granted := make([]Verdict, len(rules))
	for i, x := range rules {
		granted[i] = grantVerdict(x, agentturn.Allow, grantedReason(r))
	}
	if err == nil {
		if err = e.journalAll(ctx, granted); err == nil {
			p := s.policy
			p.Allow = withGranted(slices.Clone(p.Allow), rules...)
			e.install(e.reindex(s, p, toolsOf(rules)), s.grants.sets, nil, "")
		}
	}
	e.mu.Unlock()
	if err != nil {
		return err
	}
	for _, v := range granted {
		e.notify(ctx, v)
	}
	return nil
}

// GrantOver answers the prompt behind v with "always allow". It adds r as
// an allow rule, as [Engine.Grant] does. It also keeps the ask rule that
// produced v from asking again for the calls r matches:
//   - a grant with a specifier writes the carve-out "<tool>(!<spec>)"
//     beside the ask rule, under r's source;
//   - a bare grant removes the ask rule.
//
// [Engine.PolicyOf] is what a product persists. RFC 0001 §14.1 is the full
// contract.
//
// GrantOver refuses, with a stable reason a front shows as it offers a
// one-time approval instead, when:
//   - r could never fire (the error [Build] gives, or a carve-out's);
//   - a deny rule produced v: a grant never beats a deny;
//   - v did not defer the call, or held it for another call's approval;
//   - r names no tool the ask rule governs;
//   - the ask rule's source outranks r's, or the rule is gone from the
//     policy's ask list;
//   - a [WithJournal] journal could not record the grant.
//
// The reason on success is "granted G", or "granted G over R", G the rule
// as given and R the ask rule. A deferral a hook made names no rule, and
// is answered with a plain allow rule. v may be read back with
// [ParseRecord]: the ask rule is found by its token and source.
func (e *Engine) GrantOver(ctx context.Context, v Verdict, r Rule) (granted bool, reason string) {
	e.mu.Lock()
	s := e.snap.Load()
	p, rules, reason, ok := e.grantOver(s.policy, v, r)
	verdicts := make([]Verdict, len(rules))
	for i, x := range rules {
		verdicts[i] = v.naming(grantVerdict(x, agentturn.Allow, reason))
	}
	if ok {
		if ok = e.journalAll(ctx, verdicts) == nil; ok {
			// The ask rule a grant answers governs a tool the grant names.
			e.install(e.reindex(s, p, toolsOf(rules)), s.grants.sets, nil, "")
		} else {
			reason = refusedUnrecorded
		}
	}
	e.mu.Unlock()
	if !ok {
		return false, reason
	}
	for _, g := range verdicts {
		e.notify(ctx, g)
	}
	return true, reason
}

// grantOver returns p with the grant g over the prompt behind v applied,
// the allow rules it added, and the reason; ok is false, with the reason,
// for a grant it refuses. The lists it changes are copies, so p's own are
// left as the snapshot holds them.
func (e *Engine) grantOver(p Policy, v Verdict, g Rule) (_ Policy, added []Rule, reason string, ok bool) {
	rules, err := e.grantable(g)
	switch {
	case err != nil:
		return p, nil, err.Error(), false
	case v.Action == agentturn.Block && v.Rule != nil:
		return p, nil, refusedOverDeny(*v.Rule), false
	case v.Action != agentturn.Defer:
		return p, nil, refusedNotDeferred, false
	case v.Held:
		return p, nil, refusedHeld, false
	case v.Rule == nil:
		p.Allow = withGranted(slices.Clone(p.Allow), rules...)
		return p, rules, grantedReason(g), true
	}
	ask := *v.Rule
	var named []Rule
	for _, x := range rules {
		if ask.MatchesTool(x.Tool) {
			named = append(named, x)
		}
	}
	at := slices.IndexFunc(p.Ask, func(x Rule) bool { return sameRecorded(x, ask) })
	if at >= 0 {
		ask = p.Ask[at]
	}
	switch {
	case len(named) == 0, ask.Glob() && g.Bare():
		return p, nil, refusedOtherTool(g, ask), false
	case ask.Source.Rank > g.Source.Rank:
		return p, nil, refusedOutranked(ask), false
	case at < 0:
		return p, nil, refusedGone(ask), false
	}
	p.Ask = slices.Clone(p.Ask)
	if g.Bare() {
		p.Ask = slices.DeleteFunc(p.Ask, func(x Rule) bool { return sameRule(x, ask) })
	} else {
		var carve []Rule
		for _, x := range named {
			c := Rule{Tool: x.Tool, Spec: "!" + x.Spec, Source: g.Source}
			if !slices.ContainsFunc(p.Ask, func(y Rule) bool { return sameRule(y, c) }) {
				carve = append(carve, c)
			}
		}
		p.Ask = slices.Insert(p.Ask, at+1, carve...)
	}
	p.Allow = withGranted(slices.Clone(p.Allow), rules...)
	return p, rules, grantedOverReason(g, ask), true
}

// grantable validates a granted allow rule as [Build] validates one, and
// refuses a carve-out, and returns it expanded through the aliases.
func (e *Engine) grantable(r Rule) ([]Rule, error) {
	if _, ok := r.CarveOut(); ok {
		return nil, errGrantCarveOut(r)
	}
	return e.expand(allowList, []Rule{r})
}

// toolsOf returns the tools the rules name.
func toolsOf(rules []Rule) []string {
	names := make([]string, len(rules))
	for i, r := range rules {
		names[i] = r.Tool
	}
	return names
}

// sameRule reports whether two rules are the same rule to a grant: the
// same token from the same source, whatever their notes say.
func sameRule(a, b Rule) bool {
	return a.Tool == b.Tool && a.Spec == b.Spec && a.Source == b.Source
}

// sameRecorded reports whether two rules are the same rule as a record
// names one: the same token from a source of the same name and hash. See
// [ParseRecord].
func sameRecorded(a, b Rule) bool {
	return a.Tool == b.Tool && a.Spec == b.Spec && a.Source.Name == b.Source.Name && a.Source.Hash == b.Source.Hash
}

// withGranted returns list with each rule it does not hold already put
// where [Merge] would put its source's: after the last rule of the same
// source, else before the first rule of a lower rank, so the most
// authoritative rule is still the one a verdict cites, and a policy merged
// again from the persisted files cites the rules this one does.
func withGranted(list []Rule, rules ...Rule) []Rule {
	for _, r := range rules {
		if slices.ContainsFunc(list, func(x Rule) bool { return sameRule(x, r) }) {
			continue
		}
		at := len(list)
		if i := lastIndexFunc(list, func(x Rule) bool { return x.Source.Name == r.Source.Name }); i >= 0 {
			at = i + 1
		} else if i := slices.IndexFunc(list, func(x Rule) bool { return x.Source.Rank < r.Source.Rank }); i >= 0 {
			at = i
		}
		list = slices.Insert(list, at, r)
	}
	return list
}

// lastIndexFunc returns the index of the last element f reports, or -1.
func lastIndexFunc(list []Rule, f func(Rule) bool) int {
	for i := len(list) - 1; i >= 0; i-- {
		if f(list[i]) {
			return i
		}
	}
	return -1
}

// PolicyOf returns the rules of one source, as a [RuleSet] carrying that
// source. That is what a product writes back into the source's settings
// file. The whole policy is not: it holds the rules of every merged file.
// A product that persisted it would copy the managed and project files
// into its own local settings, freezing a snapshot of somebody else's.
//
// The rules are the ones in force, as evaluated, aliases expanded:
//   - a grant this source made is here, carve-out and all;
//   - a rule another source contributed is not;
//   - the allow rules the merge withheld from an untrusted source are on
//     [Engine.Withheld] instead;
//   - the scoped sets [Engine.GrantSet] activated are not here: they are
//     not a product's to persist.
//
// The Source is the one [Engine.Sources] lists under the name, else the
// one its rules carry, else one with the name alone.
func (e *Engine) PolicyOf(source string) RuleSet {
	p := e.snap.Load().policy
	of := func(list []Rule) []Rule {
		var out []Rule
		for _, r := range list {
			if r.Source.Name == source {
				out = append(out, r)
			}
		}
		return out
	}
	set := RuleSet{Source: Source{Name: source}, Allow: of(p.Allow), Deny: of(p.Deny), Ask: of(p.Ask)}
	if i := slices.IndexFunc(p.Sources, func(s Source) bool { return s.Name == source }); i >= 0 {
		set.Source = p.Sources[i]
	} else if rules := slices.Concat(set.Deny, set.Ask, set.Allow); len(rules) > 0 {
		set.Source = rules[0].Source
	}
	return set
}

// grantVerdict is the verdict that records a grant of r, or its refusal.
func grantVerdict(r Rule, action agentturn.ToolAction, reason string) Verdict {
	return Verdict{Tool: r.Tool, Action: action, Rule: &r, Reason: reason, By: ByPolicy}
}

// naming returns the grant verdict g naming the run, turn and call of the
// verdict v a grant answered.
func (v Verdict) naming(g Verdict) Verdict {
	g.RunID, g.Turn, g.CallID = v.RunID, v.Turn, v.CallID
	return g
}
