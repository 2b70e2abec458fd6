package agentpolicy_test

import (
	"context"
	"fmt"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// bashCall is the hook's view of one bash call.
func bashCall(cmd string) agentturn.ToolCallInfo {
	args := fmt.Sprintf(`{"command":%q}`, cmd)
	call := &openresponses.FunctionCall{CallID: "call_1", Name: "bash", Arguments: args}
	return agentturn.ToolCallInfo{RunID: "run_1", Turn: 1, Call: call, Args: []byte(args),
		Batch: []*openresponses.FunctionCall{call}}
}

// A front answers the prompt about a push with "always allow", and writes
// the local file's rules back.
func ExampleEngine_GrantOver() {
	project := agentpolicy.Source{Name: "project", Trusted: true, Rank: 1}
	local := agentpolicy.Source{Name: "local", Trusted: true, Rank: 1}
	ask, _ := agentpolicy.ParseRules("bash(git push:*)")
	policy, _ := agentpolicy.Merge(agentpolicy.RuleSet{Source: project, Ask: ask}, agentpolicy.RuleSet{Source: local})
	eng, _ := agentpolicy.Build(policy.WithDefault(agentpolicy.Ask()), map[string]agentpolicy.ToolMatcher{
		"bash": {Match: agentpolicy.PrefixMatcher("command")},
	})
	ctx := context.Background()

	v, _ := eng.Would(ctx, bashCall("git push origin main"))
	fmt.Println(v.Reason)
	granted, reason := eng.GrantOver(ctx, v, agentpolicy.Rule{Tool: "bash", Spec: "git push origin:*", Source: local})
	fmt.Println(granted, reason)
	v, _ = eng.Would(ctx, bashCall("git push origin main"))
	fmt.Println(v.Reason, "from", v.Rule.Source.Name)
	set := eng.PolicyOf("local")
	fmt.Println("local allow:", set.Allow, "ask:", set.Ask)
	// Output:
	// approval required by bash(git push:*)
	// true granted bash(git push origin:*) over bash(git push:*)
	// allowed by bash(git push origin:*) from local
	// local allow: [bash(git push origin:*)] ask: [bash(!git push origin:*)]
}

// A skill's allowed-tools decide the calls of the conversation that opened
// it, until the turn ends.
func ExampleEngine_GrantSet() {
	project := agentpolicy.Source{Name: "project", Trusted: true, Rank: 1}
	skill := agentpolicy.Source{Name: "skill:commit", Trusted: true, Rank: 1}
	ask, _ := agentpolicy.ParseRules("bash")
	deny, _ := agentpolicy.ParseRules("fetch")
	policy, _ := agentpolicy.Merge(agentpolicy.RuleSet{Source: project, Ask: ask, Deny: deny})
	eng, _ := agentpolicy.Build(policy.WithDefault(agentpolicy.Ask()), map[string]agentpolicy.ToolMatcher{
		"bash": {Match: agentpolicy.PrefixMatcher("command")},
	})
	conversation := agentpolicy.ContextWithGrantScope(context.Background(), "session-1")
	other := agentpolicy.ContextWithGrantScope(context.Background(), "session-2")

	allowed, _ := agentpolicy.ParseRules("bash(git add:*) bash(git commit:*) fetch")
	granted, refused := eng.GrantSet(conversation, agentpolicy.RuleSet{Source: skill, Allow: allowed})
	fmt.Println("granted:", granted)
	for _, r := range refused {
		fmt.Println("refused:", r.Rule, "-", r.Reason)
	}
	v, _ := eng.Would(conversation, bashCall("git commit -m wip"))
	fmt.Println("this conversation:", v.Reason)
	v, _ = eng.Would(other, bashCall("git commit -m wip"))
	fmt.Println("another:", v.Reason)
	fmt.Println("revoked", eng.Revoke(conversation, skill.Name))
	// Output:
	// granted: [bash(git add:*) bash(git commit:*)]
	// refused: fetch - denied by fetch: a grant never beats a deny
	// this conversation: allowed by bash(git commit:*)
	// another: approval required by bash
	// revoked 2
}
