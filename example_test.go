package agentpolicy_test

import (
	"context"
	"fmt"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
)

// gitEngine is an engine that allows git add and git commit, asks about
// git push and denies rm, over a bash tool whose command a prefix matches.
func gitEngine(opts ...agentpolicy.Option) *agentpolicy.Engine {
	allow, _ := agentpolicy.ParseRules("bash(git add:*) bash(git commit:*)")
	ask, _ := agentpolicy.ParseRules("bash(git push:*)")
	deny, _ := agentpolicy.ParseRules("bash(rm:*)")
	policy := agentpolicy.Policy{Allow: allow, Ask: ask, Deny: deny, Default: agentpolicy.Ask()}
	eng, err := agentpolicy.Build(policy, map[string]agentpolicy.ToolMatcher{
		"bash": {Match: agentpolicy.PrefixMatcher("command")},
	}, opts...)
	if err != nil {
		panic(err)
	}
	return eng
}

// turn decides a batch of bash commands as the loop does, every call
// before any runs, and returns the run's end: the calls deferred.
func turn(eng *agentpolicy.Engine, cmds ...string) *agentturn.RunEnd {
	var batch []*openresponses.FunctionCall
	for i, cmd := range cmds {
		args := fmt.Sprintf(`{"command":%q}`, cmd)
		batch = append(batch, &openresponses.FunctionCall{CallID: fmt.Sprintf("call_%d", i+1), Name: "bash", Arguments: args})
	}
	end := &agentturn.RunEnd{RunID: "run_1", Reason: agentturn.ReasonInputRequired}
	for i, call := range batch {
		d, _ := eng.Decide(context.Background(), agentturn.ToolCallInfo{
			RunID: "run_1", Turn: 1, Call: call, Args: []byte(call.Arguments), Batch: batch, Index: i,
		})
		fmt.Printf("%s %-20s %-5s held=%-5v %s\n", call.CallID, cmds[i], action(d.Action), d.Held, d.Reason)
		if d.Action == agentturn.Defer {
			end.Pending = append(end.Pending, agentturn.PendingCall{Call: call, Reason: agentturn.PendingDeferred, Decision: d})
		}
	}
	return end
}

func action(a agentturn.ToolAction) string {
	return map[agentturn.ToolAction]string{agentturn.Allow: "allow", agentturn.Block: "block", agentturn.Defer: "defer"}[a]
}

// A model asks for three commands in one turn. The policy asks about the
// push, so the two calls it allows are held until the user answers: nothing
// of the turn runs before then. The user approves the push, and Release
// answers the held calls.
func ExampleEngine_Decide() {
	eng := gitEngine()
	end := turn(eng, "git add -A", "git commit -m wip", "git push")

	for _, p := range end.Pending {
		if v, _ := eng.Deferred(end.RunID, p.Call.CallID); !v.Held {
			fmt.Println("ask the user about", p.Call.CallID)
		}
	}
	answers, _ := eng.Release(context.Background(), end, agentturn.Approve("call_3").WithBy(agentpolicy.ByHuman))
	for _, a := range answers {
		fmt.Println(a.CallID, "approved by", a.By)
	}
	// Output:
	// call_1 git add -A           defer held=true  held for approval: allowed by bash(git add:*)
	// call_2 git commit -m wip    defer held=true  held for approval: allowed by bash(git commit:*)
	// call_3 git push             defer held=false approval required by bash(git push:*)
	// ask the user about call_3
	// call_1 approved by policy
	// call_2 approved by policy
	// call_3 approved by human
}

// An unattended run has no user to ask: a reviewer answers the calls the
// policy asked about, here a rule of thumb that approves a push of a
// feature branch. The observer reads each answer as a verdict.
func ExampleEngine_Answers() {
	eng := gitEngine(agentpolicy.WithObserver(func(_ context.Context, v agentpolicy.Verdict) {
		if v.CallID == "call_2" && v.Action != agentturn.Defer {
			fmt.Println("verdict:", action(v.Action), "by", v.By, "-", v.Reason)
		}
	}))
	end := turn(eng, "git commit -m wip", "git push origin feature")

	reviewer := agentpolicy.ReviewerFunc(func(_ context.Context, info agentturn.ToolCallInfo, v agentpolicy.Verdict) (agentpolicy.Review, error) {
		return agentpolicy.Review{Outcome: agentpolicy.Approved, Reason: "a feature branch"}, nil
	})
	answers, err := eng.Answers(context.Background(), reviewer, end)
	if err != nil {
		panic(err)
	}
	for _, a := range answers {
		fmt.Println(a.CallID, "approved by", a.By)
	}
	// Output:
	// call_1 git commit -m wip    defer held=true  held for approval: allowed by bash(git commit:*)
	// call_2 git push origin feature defer held=false approval required by bash(git push:*)
	// verdict: allow by agent - approved by reviewer: a feature branch
	// call_1 approved by policy
	// call_2 approved by agent
}

// Merge combines the rule files of several sources into one policy, each
// rule stamped with its source. A source that is not trusted, a repository
// just cloned say, has its allow rules withheld: its deny and ask rules
// only restrict, and apply.
func ExampleMerge() {
	project := agentpolicy.Source{Name: "project", Trusted: true, Rank: 1}
	cloned := agentpolicy.Source{Name: "cloned-repo", Rank: 2}
	projectAllow, _ := agentpolicy.ParseRules("bash(go test:*)")
	projectDeny, _ := agentpolicy.ParseRules("bash(git push --force:*)")
	clonedAllow, _ := agentpolicy.ParseRules("bash(curl:*)")
	clonedAsk, _ := agentpolicy.ParseRules("bash(go test:*)")

	policy, err := agentpolicy.Merge(
		agentpolicy.RuleSet{Source: project, Allow: projectAllow, Deny: projectDeny},
		agentpolicy.RuleSet{Source: cloned, Allow: clonedAllow, Ask: clonedAsk},
	)
	if err != nil {
		panic(err)
	}
	fmt.Println("allow:", policy.Allow)
	fmt.Println("ask:", policy.Ask, "from", policy.Ask[0].Source.Name)
	fmt.Println("deny:", policy.Deny)
	fmt.Println("withheld:", policy.Withheld)
	// Output:
	// allow: [bash(go test:*)]
	// ask: [bash(go test:*)] from cloned-repo
	// deny: [bash(git push --force:*)]
	// withheld: [bash(curl:*)]
}
