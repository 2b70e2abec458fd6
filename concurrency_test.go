package agentpolicy

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
)

// TestConcurrentDecideAndSetPolicy decides calls from many goroutines
// while others replace the policy; run it under -race. The two policies
// each deny one half of the command "a && b" and allow the other, so a
// decision that read half its subjects under one policy and half under the
// other could allow the call; one that reads one snapshot blocks it, on
// "a" or on "b". Every decision must reach the observer exactly once.
func TestConcurrentDecideAndSetPolicy(t *testing.T) {
	first := Policy{Deny: parseOrFail(t, "bash(a:*)"), Allow: parseOrFail(t, "bash(b:*)"), Default: Ask()}
	second := Policy{Deny: parseOrFail(t, "bash(b:*)"), Allow: parseOrFail(t, "bash(a:*)"), Default: Ask()}
	var observed atomic.Int64
	e := mustBuild(t, first, map[string]ToolMatcher{"bash": {Match: PrefixMatcher("command"), Subjects: andSplit}},
		WithObserver(func(context.Context, Verdict) { observed.Add(1) }))
	valid := map[string]bool{
		`denied by bash(a:*) on "a"; nothing in this command ran, including "b"`: true,
		`denied by bash(b:*) on "b"; nothing in this command ran, including "a"`: true,
	}

	const deciders, writers, rounds = 8, 2, 500
	var decided atomic.Int64
	var wg sync.WaitGroup
	ctx := context.Background()
	for range writers {
		wg.Go(func() {
			for i := range rounds {
				p := first
				if i%2 == 0 {
					p = second
				}
				if err := e.SetPolicy(p); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	for range deciders {
		wg.Go(func() {
			for range rounds {
				d, err := e.Decide(ctx, callInfo("bash", shellArgs("a && b")))
				decided.Add(1)
				if err != nil || d.Action != agentturn.Block || !valid[d.Reason] {
					t.Errorf("decision %+v, %v: not one policy's answer", d, err)
					return
				}
			}
		})
	}
	wg.Wait()
	if observed.Load() != decided.Load() {
		t.Errorf("observer saw %d verdicts for %d decisions", observed.Load(), decided.Load())
	}
}

// TestConcurrentGrants grants, revokes, replaces the policy and decides
// from eight goroutines at once; run it under -race. The skill's set comes
// in two versions, each allowing one half of "a && b" and denying the
// other, so a decision that read one subject under one version and the
// other under the other could allow the call; one that reads one snapshot
// blocks it, or asks while the set is revoked. A second scope's set, which
// allows both halves, must never decide a call of the first.
func TestConcurrentGrants(t *testing.T) {
	p := Policy{Ask: parseOrFail(t, "bash"), Default: Ask()}
	var observed atomic.Int64
	e := mustBuild(t, p, map[string]ToolMatcher{"bash": {Match: PrefixMatcher("command"), Subjects: andSplit}},
		WithObserver(func(_ context.Context, v Verdict) {
			if v.CallID != "" {
				observed.Add(1)
			}
		}))
	skill := Source{Name: "skill", Trusted: true}
	versions := []RuleSet{
		{Source: skill, Allow: parseOrFail(t, "bash(a:*)"), Deny: parseOrFail(t, "bash(b:*)")},
		{Source: skill, Allow: parseOrFail(t, "bash(b:*)"), Deny: parseOrFail(t, "bash(a:*)")},
	}
	valid := map[string]bool{
		`denied by bash(a:*) on "a"; nothing in this command ran, including "b"`: true,
		`denied by bash(b:*) on "b"; nothing in this command ran, including "a"`: true,
		`approval required by bash`: true,
	}
	conv := ContextWithGrantScope(context.Background(), "conv")
	other := ContextWithGrantScope(context.Background(), "other")

	const rounds = 300
	var decided atomic.Int64
	var wg sync.WaitGroup
	wg.Go(func() { // replaces the set, version after version
		for i := range rounds {
			e.GrantSet(conv, versions[i%2])
		}
	})
	wg.Go(func() { // revokes it now and then, and the scope
		for i := range rounds {
			if i%3 == 0 {
				e.Revoke(conv, "skill")
			} else if i%7 == 0 {
				e.RevokeScope(conv)
			}
		}
	})
	wg.Go(func() { // the other conversation's set allows everything
		for range rounds {
			e.GrantSet(other, RuleSet{Source: skill, Allow: parseOrFail(t, "bash(a:*) bash(b:*)")})
			e.RevokeScope(other)
		}
	})
	wg.Go(func() { // the policy is replaced and granted over
		for i := range rounds {
			if err := e.SetPolicy(p); err != nil {
				t.Error(err)
				return
			}
			if i%5 == 0 {
				e.Grant(context.Background(), Rule{Tool: "bash", Spec: "c:*"})
			}
		}
	})
	for range 4 {
		wg.Go(func() {
			for range rounds {
				d, err := e.Decide(conv, callInfo("bash", shellArgs("a && b")))
				decided.Add(1)
				if err != nil || d.Action == agentturn.Allow || !valid[d.Reason] {
					t.Errorf("decision %+v, %v: not one grant state's answer", d, err)
					return
				}
				_ = e.GrantsFor(conv)
				_ = e.Withheld()
			}
		})
	}
	wg.Wait()
	if observed.Load() != decided.Load() {
		t.Errorf("observer saw %d verdicts on calls for %d decisions", observed.Load(), decided.Load())
	}
}
