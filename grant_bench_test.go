package agentpolicy

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ChristopherDavenport/agenttool"
)

// grantBenchEngine is the engine of BenchmarkDecide at 100 rules, with
// grant sets active when sets is set: five unscoped, five under the call's
// scope and one under each of ninety other scopes, each allowing two
// commands of the tool of its own, one of them, for bash, under the
// policy's ask rule bash(docker:*). It returns the engine and the call's
// context.
func grantBenchEngine(b *testing.B, sets bool, tool string) (*Engine, context.Context) {
	p, matchers := benchPolicy(100, 0)
	e, err := Build(p, matchers, WithObserver(func(context.Context, Verdict) {}))
	if err != nil {
		b.Fatal(err)
	}
	ctx := ContextWithGrantScope(context.Background(), "conv_call")
	if !sets {
		return e, ctx
	}
	activate := func(ctx context.Context, i int) {
		src := Source{Name: fmt.Sprintf("skill:%d", i), Trusted: true}
		allow := []Rule{{Tool: tool, Spec: fmt.Sprintf("skill%d build:*", i)}, {Tool: tool, Spec: fmt.Sprintf("docker skill%d:*", i)}}
		if _, refused := e.GrantSet(ctx, RuleSet{Source: src, Allow: allow}); len(refused) > 0 {
			b.Fatal(refused)
		}
	}
	for i := range 5 {
		activate(context.Background(), i)
		activate(ctx, 5+i)
	}
	for i := range 90 {
		activate(ContextWithGrantScope(context.Background(), fmt.Sprintf("conv_%d", i)), 10+i)
	}
	return e, ctx
}

// BenchmarkDecideGrants decides one call at 100 rules with no grant set
// and with ten in force for the call (five unscoped, five of its scope)
// among a hundred: a call the policy allows, one it denies, one a set's rule
// allows by shadowing the ask rule, and one that asks after every set's
// allow rule for the tool was tried against it for a shadow; and the call
// that asks with the sets' rules all for another tool.
func BenchmarkDecideGrants(b *testing.B) {
	bash := agenttool.NewFunc("bash", "", json.RawMessage(`{"type":"object"}`), nil)
	for _, call := range []struct{ name, cmd, none, sets, setTool string }{
		{"allowed", "make test", "allowed by bash(make:*)", "allowed by bash(make:*)", "bash"},
		{"denied", "rm -rf /", "denied by bash(rm:*)", "denied by bash(rm:*)", "bash"},
		{"shadowed", "docker skill7 up", "approval required by bash(docker:*)", "allowed by bash(docker skill7:*)", "bash"},
		{"asked", "docker run alpine", "approval required by bash(docker:*)", "approval required by bash(docker:*)", "bash"},
		{"asked-other-tool-sets", "docker run alpine", "approval required by bash(docker:*)", "approval required by bash(docker:*)", "tool0001"},
	} {
		for _, sets := range []bool{false, true} {
			e, ctx := grantBenchEngine(b, sets, call.setTool)
			want, name := call.none, "sets=0"
			if sets {
				want, name = call.sets, "sets=10of100"
			}
			b.Run(call.name+"/"+name, func(b *testing.B) {
				info := callInfo("bash", shellArgs(call.cmd))
				info.Tool = bash
				if d, _ := e.Decide(ctx, info); d.Reason != want {
					b.Fatalf("reason = %q, want %q", d.Reason, want)
				}
				b.ReportAllocs()
				reportCPU(b, func() {
					if _, err := e.Decide(ctx, info); err != nil {
						b.Fatal(err)
					}
				})
			})
		}
	}
}

// BenchmarkGrantOver answers an ask at 100 rules with "always allow": the
// carve-out beside the ask rule and the allow rule, validated, placed and
// compiled. The same grant again places nothing twice, so every iteration
// does the whole work on a policy of the same size.
func BenchmarkGrantOver(b *testing.B) {
	p, matchers := benchPolicy(100, 0)
	e, err := Build(p, matchers, WithObserver(func(context.Context, Verdict) {}))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	v, err := e.Would(ctx, callInfo("bash", shellArgs("git push origin main")))
	if err != nil || v.Rule == nil {
		b.Fatalf("Would = %+v, %v; want an ask rule", v, err)
	}
	grant := Rule{Tool: "bash", Spec: "git push origin:*"}
	b.ReportAllocs()
	reportCPU(b, func() {
		if ok, reason := e.GrantOver(ctx, v, grant); !ok {
			b.Fatal(reason)
		}
	})
}

// TestGrantScopesLeaveNoHeap activates a set under 100,000 distinct scopes
// and revokes each scope, as a product does for every conversation that
// ends: nothing of a revoked scope may stay behind.
func TestGrantScopesLeaveNoHeap(t *testing.T) {
	e := mustBuild(t, teamPolicy(t), shellMatchers())
	set := RuleSet{Source: skillSrc, Allow: parseOrFail(t, "bash(git add:*) bash(git commit:*)"), Deny: parseOrFail(t, "bash(git push --force:*)")}
	cycle := func(i int) {
		ctx := ContextWithGrantScope(context.Background(), fmt.Sprintf("conv_%d", i))
		if granted, _ := e.GrantSet(ctx, set); len(granted) != 2 {
			t.Fatalf("GrantSet granted %v", granted)
		}
		if n := e.RevokeScope(ctx); n != 3 {
			t.Fatalf("RevokeScope = %d", n)
		}
	}
	cycle(-1) // the engine's own first allocations are not the cycles'
	before := heapInUse()
	for i := range 100_000 {
		cycle(i)
	}
	grown := int64(heapInUse()) - int64(before)
	t.Logf("the heap grew %d bytes over 100,000 scopes", grown)
	if grown > 64<<10 {
		t.Errorf("100,000 scopes left the heap %d bytes larger, want at most 64 KiB", grown)
	}
	if got := e.Grants(); len(got) != 0 {
		t.Errorf("Grants() = %v", got)
	}
}
