package agentpolicy

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
)

// fuzzGrantSet reads a grant set from data, two bytes a rule: the list and
// the tool, then the specifier. Its rules are bent as fuzzPolicy bends a
// policy's, and carve-outs, which a set may not hold, lose their "!".
func fuzzGrantSet(data []byte, src Source) RuleSet {
	set := RuleSet{Source: src}
	for i := 0; i+1 < len(data) && i < 2*6; i += 2 {
		r := Rule{Tool: fuzzRuleTools[int(data[i]/3)%len(fuzzRuleTools)], Spec: fuzzSpecs[int(data[i+1])%len(fuzzSpecs)]}
		if pattern, ok := r.CarveOut(); ok {
			r.Spec = pattern
		}
		fileFuzzRule(r, list(data[i]%3), &set.Deny, &set.Ask, &set.Allow)
	}
	return set
}

// fuzzSource is the source a byte names: a rank, and whether it is
// trusted, untrusted, or shares its name with a source of the policy.
func fuzzSource(b byte, name string) Source {
	rank := int(b % 3)
	switch (b / 3) % 3 {
	case 0:
		return Source{Name: name, Trusted: true, Rank: rank}
	case 1:
		return Source{Name: name, Rank: rank}
	default:
		return Source{Name: fmt.Sprintf("trusted%d", rank), Trusted: true, Rank: rank}
	}
}

// naiveGrantSubject decides one subject of a call the way section 14.3
// reads: the grant sets' rules after the policy's in every list, the
// policy's carve-outs reaching them, and an ask rule passed over when an
// allow rule of a trusted set of another source, of a rank at or above
// its own, fires for the subject. sets are read as given: the rules a set
// holds and trusts.
func naiveGrantSubject(p Policy, sets []RuleSet, matchers map[string]ToolMatcher, tool string, args json.RawMessage, confined bool) naiveOutcome {
	var shadows []Rule
	for _, set := range sets {
		p.Deny = append(p.Deny, stamped(set.Deny, set.Source)...)
		p.Ask = append(p.Ask, stamped(set.Ask, set.Source)...)
		if set.Source.Trusted {
			p.Allow = append(p.Allow, stamped(set.Allow, set.Source)...)
			shadows = append(shadows, stamped(set.Allow, set.Source)...)
		}
	}
	fires := func(rules []Rule, r Rule) bool { return naiveFires(rules, r, matchers, tool, args) }
	for _, r := range p.Deny {
		if fires(p.Deny, r) {
			return naiveOutcome{action: agentturn.Block, rule: r.String(), reason: "denied by " + naiveCite(r)}
		}
	}
	skipped, shadow := "", ""
	for _, r := range p.Ask {
		if !fires(p.Ask, r) {
			continue
		}
		if confined && r.Spec == "" {
			skipped = cmpOr(skipped, r.String())
			continue
		}
		i := slices.IndexFunc(shadows, func(a Rule) bool {
			return a.Source.Name != r.Source.Name && a.Source.Rank >= r.Source.Rank && fires(p.Allow, a)
		})
		if i < 0 {
			return naiveOutcome{action: agentturn.Defer, rule: r.String(), reason: "approval required by " + naiveCite(r)}
		}
		shadow = cmpOr(shadow, shadows[i].String())
	}
	switch {
	case skipped != "":
		return naiveOutcome{action: agentturn.Allow, rule: skipped, reason: "confined by box, so " + skipped + " does not ask"}
	case shadow != "":
		return naiveOutcome{action: agentturn.Allow, rule: shadow, reason: "allowed by " + shadow}
	}
	for _, r := range p.Allow {
		if fires(p.Allow, r) {
			return naiveOutcome{action: agentturn.Allow, rule: r.String(), reason: "allowed by " + naiveCite(r)}
		}
	}
	switch p.Default.String() {
	case "deny":
		return naiveOutcome{action: agentturn.Block, reason: fmt.Sprintf("no rule allows %s: denied by default", tool)}
	case "ask":
		return naiveOutcome{action: agentturn.Defer, reason: fmt.Sprintf("no rule allows %s: approval required by default", tool)}
	}
	return naiveOutcome{action: agentturn.Allow, reason: "allowed by default"}
}

// cmpOr returns a unless it is empty, else b.
func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// FuzzDecideGrants decides a call under a policy with an unscoped grant
// set and a scoped one, under the set's scope or another, against the
// oracle of section 14.3, and checks that a tool the offer under the
// call's scope removes is one whose call is blocked.
func FuzzDecideGrants(f *testing.F) {
	f.Add([]byte{4, 0, 0}, []byte{2, 1}, byte(0), []byte{}, byte(0), uint8(0), "a", uint8(2), false, true)
	f.Add([]byte{4, 0, 3}, []byte{2, 1, 0, 0}, byte(2), []byte{2, 0}, byte(4), uint8(0), "ab", uint8(1), true, false)
	f.Add([]byte{1, 0, 0, 16, 0, 0}, []byte{5, 3}, byte(7), []byte{3, 0}, byte(1), uint8(3), "b", uint8(2), false, true)
	f.Fuzz(func(t *testing.T, policy, unscoped []byte, unscopedSrc byte, scoped []byte, scopedSrc byte, toolIdx uint8, cmd string, dflt uint8, confined, inScope bool) {
		p := fuzzPolicy(policy, dflt)
		matchers := map[string]ToolMatcher{}
		for tool := range fuzzMatched {
			matchers[tool] = ToolMatcher{Match: PrefixMatcher("command")}
		}
		e, err := Build(p, matchers)
		if err != nil {
			t.Fatalf("Build(%+v): %v", p, err)
		}
		given := []RuleSet{fuzzGrantSet(unscoped, fuzzSource(unscopedSrc, "skill:a"))}
		e.GrantSet(context.Background(), given[0])
		scope := ContextWithGrantScope(context.Background(), "conv")
		e.GrantSet(scope, fuzzGrantSet(scoped, fuzzSource(scopedSrc, "skill:b")))
		ctx := ContextWithGrantScope(context.Background(), "other")
		if inScope {
			ctx = scope
			given = append(given, fuzzGrantSet(scoped, fuzzSource(scopedSrc, "skill:b")))
		}
		sets := e.GrantsFor(ctx)

		tool := fuzzCallTools[int(toolIdx)%len(fuzzCallTools)]
		info := callInfo(tool, shellArgs(cmd))
		if confined {
			info.Tool = confinedTool(tool, "box")
		}
		v, err := e.Would(ctx, info)
		if err != nil {
			t.Fatal(err)
		}
		want := naiveGrantSubject(p, sets, matchers, tool, info.Args, confined)
		rule := ""
		if v.Rule != nil {
			rule = v.Rule.String()
		}
		if v.Action != want.action || rule != want.rule || v.Reason != want.reason {
			t.Fatalf("policy %+v\nsets %+v\ncall %s %s confined %v\nengine {%s %q %q}\noracle {%s %q %q}",
				p, sets, tool, info.Args, confined, actionWord(v.Action), rule, v.Reason,
				actionWord(want.action), want.rule, want.reason)
		}
		// A refusal reports what the decision would do anyway: with every
		// rule of the sets as given, an unconfined call is decided the
		// same.
		if all := naiveGrantSubject(p, given, matchers, tool, info.Args, false); !confined && all.action != v.Action {
			t.Fatalf("policy %+v\nsets %+v\ngranted %+v\ncall %s %s: decided %s, with every rule of the sets %s",
				p, given, sets, tool, info.Args, actionWord(v.Action), actionWord(all.action))
		}
		if removed, ok := e.snapshotFor(ctx).removes(tool); ok && v.Action != agentturn.Block {
			t.Fatalf("%s is removed by %s, but a call of it is decided %+v", tool, removed, v)
		}
	})
}
