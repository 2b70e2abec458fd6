package agentpolicy

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ChristopherDavenport/agenttool"
)

// benchPolicy returns a policy of about n rules: ten for each of n/10
// tools, "bash" the first of them, and globs tool-name globs over servers
// no tool of the policy belongs to, split between the deny and ask lists.
func benchPolicy(n, globs int) (Policy, map[string]ToolMatcher) {
	p := Policy{Default: Ask()}
	matchers := map[string]ToolMatcher{}
	for i := range max(n/10, 1) {
		tool := "bash"
		if i > 0 {
			tool = fmt.Sprintf("tool%04d", i)
		}
		matchers[tool] = ToolMatcher{Match: PrefixMatcher("command")}
		for _, spec := range []string{"rm:*", "curl:*", "dd:*"} {
			p.Deny = append(p.Deny, Rule{Tool: tool, Spec: spec})
		}
		for _, spec := range []string{"git push:*", "npm publish:*", "docker:*"} {
			p.Ask = append(p.Ask, Rule{Tool: tool, Spec: spec})
		}
		for _, spec := range []string{"git status:*", "git log:*", "ls:*", "make:*"} {
			p.Allow = append(p.Allow, Rule{Tool: tool, Spec: spec})
		}
	}
	for i := range globs {
		rule := Rule{Tool: fmt.Sprintf("mcp__srv%02d__*", i)}
		if i%2 == 0 {
			p.Deny = append(p.Deny, rule)
		} else {
			p.Ask = append(p.Ask, rule)
		}
	}
	return p, matchers
}

// BenchmarkDecide decides one single-subject call against policies of 10,
// 100 and 10,000 rules, with an observer installed. The allowed call is
// the last rule of its tool's lists to match, so every rule of the tool is
// tried.
func BenchmarkDecide(b *testing.B) {
	bash := agenttool.NewFunc("bash", "", json.RawMessage(`{"type":"object"}`), nil)
	for _, size := range []struct {
		rules, globs int
	}{{10, 0}, {100, 0}, {10000, 20}} {
		p, matchers := benchPolicy(size.rules, size.globs)
		seen := 0
		e, err := Build(p, matchers, WithObserver(func(context.Context, Verdict) { seen++ }))
		if err != nil {
			b.Fatal(err)
		}
		for _, call := range []struct{ name, cmd, reason string }{
			{"allowed", "make test", "allowed by bash(make:*)"},
			{"asked", "docker run alpine", "approval required by bash(docker:*)"},
			{"denied", "rm -rf /", "denied by bash(rm:*)"},
		} {
			b.Run(fmt.Sprintf("rules=%d/%s", len(p.Allow)+len(p.Deny)+len(p.Ask), call.name), func(b *testing.B) {
				info := callInfo("bash", shellArgs(call.cmd))
				info.Tool = bash
				ctx := context.Background()
				if d, _ := e.Decide(ctx, info); d.Reason != call.reason {
					b.Fatalf("reason = %q, want %q", d.Reason, call.reason)
				}
				b.ReportAllocs()
				before := seen
				reportCPU(b, func() {
					if _, err := e.Decide(ctx, info); err != nil {
						b.Fatal(err)
					}
				})
				if seen == before {
					b.Fatal("the observer saw no verdict")
				}
			})
		}
	}
}

// BenchmarkDecideSplit decides at 100 rules a call of a tool whose
// splitter returns three subjects, all allowed, so every rule of the tool
// is tried for each; BenchmarkDecide's allowed call is the same work for
// one subject. The splitter hands back subjects it made once, so what is
// measured is the engine's part, not the host's parser.
func BenchmarkDecideSplit(b *testing.B) {
	p, matchers := benchPolicy(100, 0)
	subjects := []Subject{
		{Args: shellArgs("git status"), Text: "git status"},
		{Args: shellArgs("make test"), Text: "make test"},
		{Args: shellArgs("ls -la"), Text: "ls -la"},
	}
	matchers["bash"] = ToolMatcher{
		Match:    matchers["bash"].Match,
		Subjects: func(json.RawMessage) ([]Subject, error) { return subjects, nil },
	}
	e, err := Build(p, matchers, WithObserver(func(context.Context, Verdict) {}))
	if err != nil {
		b.Fatal(err)
	}
	info := callInfo("bash", shellArgs("git status && make test && ls -la"))
	ctx := context.Background()
	if d, _ := e.Decide(ctx, info); d.Reason != "allowed by bash(git status:*)" {
		b.Fatalf("reason = %q", d.Reason)
	}
	b.ReportAllocs()
	reportCPU(b, func() {
		if _, err := e.Decide(ctx, info); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkDecideOneTool decides calls of one tool whose policy holds n
// prefix rules of its own, with a matcher of each built-in language: the
// allowed call matches the last allow rule, so a decision that tried each
// rule in turn would grow with n.
func BenchmarkDecideOneTool(b *testing.B) {
	for _, lang := range []struct {
		name  string
		match Matcher
	}{{"prefix", PrefixMatcher("command")}, {"glob", GlobMatcher("command")}} {
		for _, n := range []int{10, 1000} {
			p := Policy{Default: Ask()}
			for i := range n {
				p.Deny = append(p.Deny, Rule{Tool: "bash", Spec: fmt.Sprintf("rm%04d:*", i)})
				p.Ask = append(p.Ask, Rule{Tool: "bash", Spec: fmt.Sprintf("docker%04d:*", i)})
				p.Allow = append(p.Allow, Rule{Tool: "bash", Spec: fmt.Sprintf("make%04d:*", i)})
			}
			e, err := Build(p, map[string]ToolMatcher{"bash": {Match: lang.match}}, WithObserver(func(context.Context, Verdict) {}))
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/rules=%d", lang.name, 3*n), func(b *testing.B) {
				info := callInfo("bash", shellArgs(fmt.Sprintf("make%04d test", n-1)))
				ctx := context.Background()
				if d, _ := e.Decide(ctx, info); d.Reason != fmt.Sprintf("allowed by bash(make%04d:*)", n-1) {
					b.Fatalf("reason = %q", d.Reason)
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
