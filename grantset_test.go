package agentpolicy

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ChristopherDavenport/agenttool"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// teamPolicy is the team of the seed: the project asks before every bash
// call, and the administrator denies rm and curl outright.
func teamPolicy(t testing.TB) Policy {
	t.Helper()
	p, err := Merge(
		RuleSet{Source: managedSrc, Deny: parseOrFail(t, "bash(rm:*) fetch"), Ask: parseOrFail(t, "bash(sudo:*)")},
		RuleSet{Source: projectSrc, Ask: parseOrFail(t, "bash"), Allow: parseOrFail(t, "read")},
		RuleSet{Source: userSrc, Ask: parseOrFail(t, "bash(git push:*)")},
	)
	if err != nil {
		t.Fatal(err)
	}
	return p.WithDefault(Ask())
}

func TestGrantSetShadowsTheAskRulesItCovers(t *testing.T) {
	var j observed
	e := mustBuild(t, teamPolicy(t), shellMatchers(), WithObserver(j.observe))
	ctx := context.Background()
	granted, refused := e.GrantSet(ctx, RuleSet{Source: skillSrc, Allow: parseOrFail(t, "bash(git commit:*) bash(git push:*) bash(rm -rf:*) bash(sudo:*)")})
	want := rulesOf(t, "bash(git commit:*) bash(git push:*) bash(rm -rf:*) bash(sudo:*)", skillSrc)
	if !reflect.DeepEqual(granted, want) || len(refused) != 0 {
		t.Fatalf("GrantSet = %v, %v", granted, refused)
	}
	for _, tc := range []struct {
		cmd  string
		want expect
	}{
		// The project's bare ask, of the set's rank, is shadowed.
		{"git commit -m wip", expect{agentturn.Allow, "bash(git commit:*)", "allowed by bash(git commit:*)", ""}},
		// So is the user's, of a lower rank.
		{"git push origin", expect{agentturn.Allow, "bash(git push:*)", "allowed by bash(git push:*)", ""}},
		// Nothing the set does not allow.
		{"git status", expect{agentturn.Defer, "bash", "approval required by bash", ""}},
		// A grant never beats a deny, and an ask rule with a specifier is
		// left to the decision, where the rank test is made.
		{"rm -rf /", expect{agentturn.Block, "bash(rm:*)", "denied by bash(rm:*)", ""}},
		{"sudo ls", expect{agentturn.Defer, "bash(sudo:*)", "approval required by bash(sudo:*)", ""}},
	} {
		v := would(t, e, ctx, tc.cmd)
		tc.want.check(t, v)
		if v.Action == agentturn.Allow && v.Rule.Source != skillSrc {
			t.Errorf("%s: the verdict names %+v, want the skill", tc.cmd, v.Rule.Source)
		}
	}
	if got := j.reasons(); !reflect.DeepEqual(got, []string{
		"allow granted bash(git commit:*) by skill:commit",
		"allow granted bash(git push:*) by skill:commit",
		"allow granted bash(rm -rf:*) by skill:commit",
		"allow granted bash(sudo:*) by skill:commit",
	}) {
		t.Errorf("observed %q", got)
	}
}

func TestGrantSetShadowsOnlyWhatItMayOutrank(t *testing.T) {
	ctx := context.Background()
	low := Source{Name: "skill:low", Trusted: true, Rank: 1}
	for _, tc := range []struct {
		name string
		set  RuleSet
		cmd  string
		want expect
	}{
		{"an ask rule with a specifier of a higher rank asks", RuleSet{Source: low, Allow: parseOrFail(t, "bash(git push:*)")},
			"git push", expect{agentturn.Defer, "bash", "approval required by bash", ""}},
		{"the set's own ask rule asks", RuleSet{Source: skillSrc, Allow: parseOrFail(t, "bash(npm:*)"), Ask: parseOrFail(t, "bash(npm publish:*)")},
			"npm publish", expect{agentturn.Defer, "bash(npm publish:*)", "approval required by bash(npm publish:*)", ""}},
		{"the set's own deny rule denies", RuleSet{Source: skillSrc, Allow: parseOrFail(t, "bash(npm:*)"), Deny: parseOrFail(t, "bash(npm publish:*)")},
			"npm publish", expect{agentturn.Block, "bash(npm publish:*)", "denied by bash(npm publish:*)", ""}},
		{"an untrusted set's ask rule applies", RuleSet{Source: Source{Name: "skill:repo", Rank: 5}, Ask: parseOrFail(t, "read(.env:*)")},
			"", expect{agentturn.Defer, "read(.env:*)", "approval required by read(.env:*)", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustBuild(t, teamPolicy(t), shellMatchers())
			e.GrantSet(ctx, tc.set)
			var v Verdict
			if tc.cmd == "" {
				v, _ = e.Would(ctx, callInfo("read", json.RawMessage(`{"path":".env"}`)))
			} else {
				v = would(t, e, ctx, tc.cmd)
			}
			tc.want.check(t, v)
		})
	}
}

func TestGrantSetRefuses(t *testing.T) {
	policy := teamPolicy(t)
	policy.Ask = append(policy.Ask, Rule{Tool: "edit", Source: Source{Name: "team", Rank: 5, Trusted: true}}, Rule{Tool: "mcp__*"})
	policy.Deny = append(policy.Deny, Rule{Tool: "grep"}, Rule{Tool: "grep", Spec: "!TODO", Source: userSrc})
	matchers := shellMatchers()
	matchers["grep"] = ToolMatcher{Match: PrefixMatcher("pattern")}
	matchers["edit"] = ToolMatcher{Match: PrefixMatcher("path")}
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		set    RuleSet
		rule   Rule
		reason string
	}{
		{"a rule with no matcher", RuleSet{Source: skillSrc, Allow: parseOrFail(t, "fetch(https:*)")},
			Rule{Tool: "fetch", Spec: "https:*", Source: skillSrc}, "agentpolicy: no matcher for the rule's tool: fetch(https:*)"},
		{"a carve-out", RuleSet{Source: skillSrc, Deny: parseOrFail(t, "bash(!ls)")},
			Rule{Tool: "bash", Spec: "!ls", Source: skillSrc}, "agentpolicy: cannot grant a carve-out: bash(!ls)"},
		{"a tool-name glob in the allow list", RuleSet{Source: skillSrc, Allow: parseOrFail(t, "mcp__*")},
			Rule{Tool: "mcp__*", Source: skillSrc}, "agentpolicy: tool-name glob: mcp__* is not honoured in the allow list"},
		{"a tool-name glob with a specifier", RuleSet{Source: skillSrc, Ask: parseOrFail(t, "mcp__*(x)")},
			Rule{Tool: "mcp__*", Spec: "x", Source: skillSrc}, "agentpolicy: tool-name glob: mcp__*(x) takes no specifier"},
		{"an untrusted source", RuleSet{Source: Source{Name: "skill:repo", Rank: 2}, Allow: parseOrFail(t, "bash(make:*)")},
			Rule{Tool: "bash", Spec: "make:*", Source: Source{Name: "skill:repo", Rank: 2}}, "withheld: the source skill:repo is not trusted"},
		{"a bare deny", RuleSet{Source: skillSrc, Allow: parseOrFail(t, "fetch")},
			Rule{Tool: "fetch", Source: skillSrc}, "denied by fetch: a grant never beats a deny"},
		{"a bare ask of a higher rank", RuleSet{Source: skillSrc, Allow: parseOrFail(t, "edit(src:*)")},
			Rule{Tool: "edit", Spec: "src:*", Source: skillSrc}, "edit from team outranks the grant"},
		{"an unnamed bare ask of a higher rank", RuleSet{Source: Source{Name: "skill:low", Rank: -1, Trusted: true}, Allow: parseOrFail(t, "mcp__db")},
			Rule{Tool: "mcp__db", Source: Source{Name: "skill:low", Rank: -1, Trusted: true}}, "mcp__* outranks the grant"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var j observed
			e := mustBuild(t, policy, matchers, WithObserver(j.observe))
			granted, refused := e.GrantSet(ctx, tc.set)
			if len(granted) != 0 || !reflect.DeepEqual(refused, []Refusal{{Rule: tc.rule, Reason: tc.reason}}) {
				t.Errorf("GrantSet = %v, %+v; want the refusal %q", granted, refused, tc.reason)
			}
			if got := j.reasons(); !reflect.DeepEqual(got, []string{"block not granted " + tc.rule.String() + ": " + tc.reason}) {
				t.Errorf("observed %q", got)
			}
		})
	}
	t.Run("a bare deny a carve-out reaches does not refuse", func(t *testing.T) {
		e := mustBuild(t, policy, matchers)
		if granted, refused := e.GrantSet(ctx, RuleSet{Source: skillSrc, Allow: parseOrFail(t, "grep(TODO)")}); len(granted) != 1 || len(refused) != 0 {
			t.Errorf("GrantSet = %v, %v", granted, refused)
		}
	})
	t.Run("an untrusted set's allow rules go to Withheld", func(t *testing.T) {
		e := mustBuild(t, policy, matchers)
		repo := Source{Name: "skill:repo", Rank: 2}
		e.GrantSet(ctx, RuleSet{Source: repo, Allow: parseOrFail(t, "bash(make:*)"), Deny: parseOrFail(t, "bash(make install:*)")})
		if got := e.Withheld(); !reflect.DeepEqual(got, rulesOf(t, "bash(make:*)", repo)) {
			t.Errorf("Withheld() = %v", got)
		}
		expect{agentturn.Defer, "bash", "approval required by bash", ""}.check(t, would(t, e, ctx, "make"))
		expect{agentturn.Block, "bash(make install:*)", "denied by bash(make install:*)", ""}.check(t, would(t, e, ctx, "make install"))
		if n := e.Revoke(ctx, "skill:repo"); n != 2 || len(e.Withheld()) != 0 {
			t.Errorf("Revoke = %d, Withheld() = %v", n, e.Withheld())
		}
	})
	t.Run("an alias is refused for the tool a deny names and granted for the others", func(t *testing.T) {
		e := mustBuild(t, policy, matchers, WithAliases(map[string][]string{"Search": {"grep", "glob"}}))
		e.SetPolicy(Policy{Deny: []Rule{{Tool: "grep"}}, Default: Ask()})
		granted, refused := e.GrantSet(ctx, RuleSet{Source: skillSrc, Allow: parseOrFail(t, "Search")})
		if !reflect.DeepEqual(granted, rulesOf(t, "glob", skillSrc)) ||
			!reflect.DeepEqual(refused, []Refusal{{Rule: Rule{Tool: "grep", Source: skillSrc}, Reason: "denied by grep: a grant never beats a deny"}}) {
			t.Errorf("GrantSet = %v, %+v", granted, refused)
		}
	})
}

func TestGrantSetUnderOneSourceReplacesTheFirst(t *testing.T) {
	e := mustBuild(t, teamPolicy(t), shellMatchers())
	ctx := context.Background()
	e.GrantSet(ctx, RuleSet{Source: skillSrc, Allow: parseOrFail(t, "bash(git commit:*)")})
	e.GrantSet(ctx, RuleSet{Source: Source{Name: "skill:test", Trusted: true, Rank: 2}, Allow: parseOrFail(t, "bash(go test:*)")})
	e.GrantSet(ctx, RuleSet{Source: skillSrc, Allow: parseOrFail(t, "bash(git add:*)")})
	expect{agentturn.Defer, "bash", "approval required by bash", ""}.check(t, would(t, e, ctx, "git commit"))
	expect{agentturn.Allow, "bash(git add:*)", "allowed by bash(git add:*)", ""}.check(t, would(t, e, ctx, "git add ."))
	var names []string
	for _, set := range e.Grants() {
		names = append(names, set.Source.Name)
	}
	if !reflect.DeepEqual(names, []string{"skill:test", "skill:commit"}) {
		t.Errorf("Grants() = %v, want the replacement listed last", names)
	}
	// A set whose every rule is refused replaces the first with nothing.
	e.GrantSet(ctx, RuleSet{Source: skillSrc, Allow: parseOrFail(t, "fetch")})
	if got := e.Grants(); len(got) != 1 || got[0].Source.Name != "skill:test" {
		t.Errorf("Grants() = %v", got)
	}
}

func TestGrantScopes(t *testing.T) {
	var j observed
	e := mustBuild(t, teamPolicy(t), shellMatchers(), WithObserver(j.observe))
	bg := context.Background()
	convA := ContextWithGrantScope(bg, "conv_a")
	convB := ContextWithGrantScope(bg, "conv_b")
	e.GrantSet(bg, RuleSet{Source: Source{Name: "skill:status", Trusted: true, Rank: 2}, Allow: parseOrFail(t, "bash(git status:*)")})
	e.GrantSet(convA, RuleSet{Source: skillSrc, Allow: parseOrFail(t, "bash(git commit:*)")})
	e.GrantSet(convB, RuleSet{Source: skillSrc, Allow: parseOrFail(t, "bash(git add:*)")})
	j.reasons()

	allowed := func(ctx context.Context, cmd string) bool { return would(t, e, ctx, cmd).Action == agentturn.Allow }
	derived, cancel := context.WithCancel(convA)
	defer cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		cmd  string
		want bool
	}{
		{"an unscoped set decides every call", convB, "git status", true},
		{"an unscoped set decides an unscoped call", bg, "git status", true},
		{"a scoped set decides its own scope's calls", convA, "git commit", true},
		{"a scoped set decides no other scope's", convB, "git commit", false},
		{"a scoped set decides no unscoped call", bg, "git commit", false},
		{"a derived context inherits the scope", derived, "git commit", true},
		{"a child given a scope of its own does not", ContextWithGrantScope(derived, "sub"), "git commit", false},
		{"a child given the unscoped one does not", ContextWithGrantScope(derived, ""), "git commit", false},
	} {
		if got := allowed(tc.ctx, tc.cmd); got != tc.want {
			t.Errorf("%s: allowed = %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := GrantScopeFromContext(derived); got != "conv_a" {
		t.Errorf("GrantScopeFromContext(derived) = %q", got)
	}
	sources := func(sets []RuleSet) (names []string) {
		for _, s := range sets {
			names = append(names, s.Source.Name+":"+s.Allow[0].Spec)
		}
		return names
	}
	if got := sources(e.Grants()); !reflect.DeepEqual(got, []string{"skill:status:git status:*", "skill:commit:git commit:*", "skill:commit:git add:*"}) {
		t.Errorf("Grants() = %v", got)
	}
	if got := sources(e.GrantsFor(convB)); !reflect.DeepEqual(got, []string{"skill:status:git status:*", "skill:commit:git add:*"}) {
		t.Errorf("GrantsFor(conv_b) = %v", got)
	}
	if got := sources(e.GrantsFor(bg)); !reflect.DeepEqual(got, []string{"skill:status:git status:*"}) {
		t.Errorf("GrantsFor(unscoped) = %v", got)
	}

	// Revoke removes the set of its context's scope and no other.
	if n := e.Revoke(bg, "skill:commit"); n != 0 {
		t.Errorf("an unscoped Revoke removed %d rules of scoped sets", n)
	}
	if n := e.Revoke(convA, "skill:commit"); n != 1 {
		t.Errorf("Revoke(conv_a) = %d, want 1", n)
	}
	if allowed(convA, "git commit") || !allowed(convB, "git add") {
		t.Error("Revoke under conv_a did not remove its set alone")
	}
	if n := e.Revoke(convB, "skill:status"); n != 0 {
		t.Errorf("a scoped Revoke removed %d rules of the unscoped set", n)
	}
	e.GrantSet(convB, RuleSet{Source: Source{Name: "skill:test", Trusted: true, Rank: 2}, Allow: parseOrFail(t, "bash(go test:*) bash(go vet:*)")})
	if n := e.RevokeScope(convB); n != 3 || allowed(convB, "git add") || !allowed(convB, "git status") {
		t.Errorf("RevokeScope(conv_b) = %d; want 3, and the unscoped set kept", n)
	}
	if n := e.RevokeScope(convB); n != 0 {
		t.Errorf("a second RevokeScope removed %d", n)
	}
	if n := e.RevokeScope(bg); n != 1 || allowed(bg, "git status") {
		t.Errorf("RevokeScope(unscoped) = %d", n)
	}
	if got := j.reasons(); !reflect.DeepEqual(got, []string{
		"block revoked the rules granted by skill:commit",
		"allow granted bash(go test:*) by skill:test",
		"allow granted bash(go vet:*) by skill:test",
		"block revoked the rules granted under conv_b",
		"block revoked the rules granted without a scope",
	}) {
		t.Errorf("observed %q", got)
	}
	if got := e.Grants(); len(got) != 0 {
		t.Errorf("Grants() = %v after every scope was revoked", got)
	}
}

func TestGrantSetJournalNamesTheProduct(t *testing.T) {
	var j observed
	e := mustBuild(t, pushPolicy(t), shellMatchers(), WithObserver(j.observe), WithAliases(map[string][]string{"Bash": {"bash"}}))
	ctx := context.Background()
	e.GrantSet(ctx, RuleSet{Allow: parseOrFail(t, "Bash(make:*)")})
	e.Revoke(ctx, "")
	if got := j.reasons(); !reflect.DeepEqual(got, []string{"allow granted Bash(make:*) by the product", "block revoked the rules granted by the product"}) {
		t.Errorf("observed %q", got)
	}
}

func TestGrantSetsInTheOffer(t *testing.T) {
	e := mustBuild(t, teamPolicy(t), shellMatchers())
	bg := context.Background()
	conv := ContextWithGrantScope(bg, "conv")
	base := func(context.Context) []agenttool.Tool { return namedTools("bash", "read", "edit") }
	offer := e.ToolProvider(base)
	e.GrantSet(bg, RuleSet{Source: skillSrc, Deny: parseOrFail(t, "edit")})
	e.GrantSet(conv, RuleSet{Source: skillSrc, Deny: parseOrFail(t, "read")})
	if rule, ok := e.Removes("edit"); !ok || rule.Source != skillSrc {
		t.Errorf("Removes(edit) = %v, %v; want the unscoped set's deny", rule, ok)
	}
	if _, ok := e.Removes("read"); ok {
		t.Error("Removes(read) reads a scoped set")
	}
	if got := toolNames(e.Filter(base(bg))); !reflect.DeepEqual(got, []string{"bash", "read"}) {
		t.Errorf("Filter = %v", got)
	}
	if got := toolNames(offer(conv)); !reflect.DeepEqual(got, []string{"bash"}) {
		t.Errorf("ToolProvider under the scope = %v", got)
	}
	if got := toolNames(offer(bg)); !reflect.DeepEqual(got, []string{"bash", "read"}) {
		t.Errorf("ToolProvider without the scope = %v", got)
	}
	e.Revoke(bg, "skill:commit")
	e.Revoke(conv, "skill:commit")
	if got := toolNames(offer(conv)); !reflect.DeepEqual(got, []string{"bash", "read", "edit"}) {
		t.Errorf("ToolProvider after Revoke = %v", got)
	}
}

// TestBatchHoldReadsTheGrants: a sibling the memo scanned as asking is
// read again once a grant allows it, and the call decided after the grant
// is not held for it.
func TestBatchHoldReadsTheGrants(t *testing.T) {
	e := mustBuild(t, teamPolicy(t), shellMatchers())
	ctx := ContextWithGrantScope(context.Background(), "conv")
	e.GrantSet(ctx, RuleSet{Source: skillSrc, Allow: parseOrFail(t, "bash(git add:*)")})
	calls := []*openresponses.FunctionCall{bashCall("call_1", "git add ."), bashCall("call_2", "git commit -m x")}
	info := func(i int) agentturn.ToolCallInfo {
		return agentturn.ToolCallInfo{RunID: "run_1", Turn: 1, Call: calls[i], Args: callArgs(calls[i]), Batch: calls, Index: i}
	}
	d, err := e.Decide(ctx, info(0))
	if err != nil || d.Action != agentturn.Defer || !d.Held {
		t.Fatalf("the first call = %+v, %v; want held for the commit", d, err)
	}
	e.GrantSet(ctx, RuleSet{Source: skillSrc, Allow: parseOrFail(t, "bash(git add:*) bash(git commit:*)")})
	if d, err = e.Decide(ctx, info(0)); err != nil || d.Action != agentturn.Allow {
		t.Errorf("decided again after the grant = %+v, %v; want allowed", d, err)
	}
	if d, _ = e.Decide(ContextWithGrantScope(context.Background(), "other"), info(0)); d.Action != agentturn.Defer {
		t.Errorf("under another scope = %+v; want the grant not to reach it", d)
	}
}

// TestGrantJournalReachesEveryObserverOnce: every grant, a grant set's
// refusal and every revocation is one verdict to each observer, in the
// order the observers were given, by the policy; a refused Grant or
// GrantOver is none.
func TestGrantJournalReachesEveryObserverOnce(t *testing.T) {
	var first, second observed
	var order []string
	e := mustBuild(t, pushPolicy(t), shellMatchers(),
		WithObserver(func(ctx context.Context, v Verdict) { first.observe(ctx, v); order = append(order, "first") }),
		WithObserver(func(ctx context.Context, v Verdict) { second.observe(ctx, v); order = append(order, "second") }))
	ctx := ContextWithGrantScope(context.Background(), "conv")
	e.Grant(ctx, Rule{Tool: "read", Source: localSrc})
	e.Grant(ctx, Rule{Tool: "fetch", Spec: "x"})
	v := would(t, e, ctx, "git push")
	e.GrantOver(ctx, v, Rule{Tool: "bash", Spec: "git push origin:*", Source: localSrc})
	e.GrantOver(ctx, v, Rule{Tool: "bash", Spec: "git push origin:*", Source: userSrc})
	e.GrantSet(ctx, RuleSet{Source: skillSrc, Allow: parseOrFail(t, "bash(make:*) bash(!x)")})
	e.Revoke(ctx, skillSrc.Name)
	e.Revoke(ctx, skillSrc.Name)
	e.GrantSet(ctx, RuleSet{Source: skillSrc, Deny: parseOrFail(t, "edit")})
	e.RevokeScope(ctx)
	want := []string{
		"allow granted read",
		"allow granted bash(git push origin:*) over bash(git push:*)",
		"allow granted bash(make:*) by skill:commit",
		"block not granted bash(!x): agentpolicy: cannot grant a carve-out: bash(!x)",
		"block revoked the rules granted by skill:commit",
		"block revoked the rules granted under conv",
	}
	for _, v := range first.verdicts {
		if v.By != ByPolicy {
			t.Errorf("%q is by %q, want the policy", v.Reason, v.By)
		}
	}
	if got := first.reasons(); !reflect.DeepEqual(got, want) {
		t.Errorf("the first observer saw %q", got)
	}
	if got := second.reasons(); !reflect.DeepEqual(got, want) {
		t.Errorf("the second observer saw %q", got)
	}
	for i := 0; i+1 < len(order); i += 2 {
		if order[i] != "first" || order[i+1] != "second" {
			t.Fatalf("observers called in the order %v", order)
		}
	}
	if len(order) != 2*len(want) {
		t.Errorf("observers called %d times for %d verdicts", len(order), len(want))
	}
}
