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
