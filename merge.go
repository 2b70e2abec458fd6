package agentpolicy

import (
	"cmp"
	"slices"

	"github.com/ChristopherDavenport/agentturn"
)

// Default is what applies to a subject no rule matches. The zero value is
// unset, and [Build] refuses a policy whose default is unset. So a deny
// list written on its own never allows everything else by accident. Build one
// with [Allow], [Deny] or [Ask].
type Default struct {
	action agentturn.ToolAction
	set    bool
}

// Allow is the default that runs a call no rule mentions.
func Allow() Default { return Default{action: agentturn.Allow, set: true} }

// Deny is the default that blocks a call no rule mentions.
func Deny() Default { return Default{action: agentturn.Block, set: true} }

// Ask is the default that defers a call no rule mentions to the caller.
func Ask() Default { return Default{action: agentturn.Defer, set: true} }

// Action returns the action and whether the default was set.
func (d Default) Action() (agentturn.ToolAction, bool) { return d.action, d.set }

// String returns "allow", "deny", "ask" or "unset".
func (d Default) String() string {
	switch {
	case !d.set:
		return "unset"
	case d.action == agentturn.Block:
		return "deny"
	case d.action == agentturn.Defer:
		return "ask"
	default:
		return "allow"
	}
}

// Policy is the rule set: what is allowed, what is denied, what needs
// approval, and what happens otherwise. Precedence between the lists is
// fixed: deny, then ask, then allow, then Default. [Merge] builds one from
// several sources; [Build] turns one into an [Engine].
type Policy struct {
	Allow []Rule
	Deny  []Rule
	Ask   []Rule
	// Default applies to a subject no rule matches. It must be set.
	Default Default
	// Sources lists where the rules came from, as [Merge] fills it, so
	// the session can name the policy in force. A policy built by hand
	// may leave it nil.
	Sources []Source
	// Withheld are the allow rules of the untrusted sources, stamped
	// with their source, in the order [Merge] saw them. They are not
	// evaluated: nothing in the engine reads this list, and a rebuild of
	// the policy with the source trusted is what applies them. A front
	// reads them to tell the user what trusting a folder would allow.
	Withheld []Rule
}

// WithDefault returns p with its default replaced. A preset's default is
// Ask, so a tool it has never heard of does not run unseen. A host whose
// tools are discovered at run time, from an MCP server or a plugin, says
// here what such a tool gets. [Allow] runs every tool the policy does not
// name, those added later included. A host that would rather keep the
// guard names the discovered tools in its [Tools]. It then replaces the
// policy with [Engine.SetPolicy] when its tool list changes.
func (p Policy) WithDefault(d Default) Policy {
	p.Default = d
	return p
}

// clone returns a copy of p that shares no slice with it, so neither the
// caller nor the engine sees the other's later changes.
func (p Policy) clone() Policy {
	p.Allow = slices.Clone(p.Allow)
	p.Deny = slices.Clone(p.Deny)
	p.Ask = slices.Clone(p.Ask)
	p.Sources = slices.Clone(p.Sources)
	p.Withheld = slices.Clone(p.Withheld)
	return p
}

// RuleSet is the lists of one source, the input to [Merge].
type RuleSet struct {
	Source Source
	Allow  []Rule
	Deny   []Rule
	Ask    []Rule
}

// Merge unions the lists of several sources into one [Policy], as the
// settings files of an organisation, a repository and a user combine.
//   - The sets are ordered by Rank, highest first, equal ranks in the order
//     given, so the most authoritative rule is the one a verdict names.
//   - Every rule is stamped with its set's [Source], which scopes a
//     carve-out.
//   - An untrusted source's allow rules are withheld to [Policy.Withheld],
//     since they grant; its deny and ask rules apply, since they restrict.
//   - Precedence between the lists does not depend on the source.
//   - Default is left unset for the product to choose; every source is
//     listed on [Policy.Sources] in the merged order.
//
// Each source must be named, and no two may share a name. The name is:
//   - how a record names the source;
//   - what scopes a grant;
//   - the file a product persists its rules into.
//
// A skill's rules more often belong in [Engine.GrantSet], which takes them
// back at the turn's end, than in the policy every run is built from.
// RFC 0001 §5 is the full contract.
func Merge(sets ...RuleSet) (Policy, error) {
	seen := make(map[string]bool, len(sets))
	for _, set := range sets {
		name := set.Source.Name
		if name == "" {
			return Policy{}, errMergeUnnamed
		}
		if seen[name] {
			return Policy{}, errMergeDuplicate(name)
		}
		seen[name] = true
	}
	ordered := slices.Clone(sets)
	slices.SortStableFunc(ordered, func(a, b RuleSet) int {
		return cmp.Compare(b.Source.Rank, a.Source.Rank)
	})
	// Each list is sized before it is filled: a policy of thousands of
	// rules is copied once, not again at each doubling.
	var p Policy
	var deny, ask, allow, withheld int
	for _, set := range ordered {
		deny, ask = deny+len(set.Deny), ask+len(set.Ask)
		if set.Source.Trusted {
			allow += len(set.Allow)
		} else {
			withheld += len(set.Allow)
		}
	}
	p.Deny, p.Ask, p.Allow, p.Withheld = sized(deny), sized(ask), sized(allow), sized(withheld)
	for _, set := range ordered {
		p.Sources = append(p.Sources, set.Source)
		p.Deny = appendStamped(p.Deny, set.Deny, set.Source)
		p.Ask = appendStamped(p.Ask, set.Ask, set.Source)
		if set.Source.Trusted {
			p.Allow = appendStamped(p.Allow, set.Allow, set.Source)
		} else {
			p.Withheld = appendStamped(p.Withheld, set.Allow, set.Source)
		}
	}
	return p, nil
}

// sized is an empty list with room for n rules, nil for none, as a list
// nothing was appended to is.
func sized(n int) []Rule {
	if n == 0 {
		return nil
	}
	return make([]Rule, 0, n)
}

// appendStamped appends rules to dst, each carrying src as its source.
func appendStamped(dst, rules []Rule, src Source) []Rule {
	for _, r := range rules {
		r.Source = src
		dst = append(dst, r)
	}
	return dst
}
