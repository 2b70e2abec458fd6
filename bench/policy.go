package bench

import (
	"fmt"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentturn"
)

// Policy returns a policy of rules rules, ten for each of rules/10 tools:
// three deny, three ask and four allow rules, each a prefix "x:*" over the
// tool's command, and an [agentpolicy.Ask] default. The first tool is bash;
// the others are tool0001, tool0002, …, so a call to bash is decided among
// its own ten rules however large the policy, and cedar evaluates them
// all. The matchers are [agentpolicy.GlobMatcher] over "command", whose
// "x:*" is the word-boundary prefix [Cedar] translates.
func Policy(rules int) (agentpolicy.Policy, map[string]agentpolicy.ToolMatcher) {
	p := agentpolicy.Policy{Default: agentpolicy.Ask()}
	matchers := map[string]agentpolicy.ToolMatcher{}
	for i := range max(rules/10, 1) {
		tool := "bash"
		if i > 0 {
			tool = fmt.Sprintf("tool%04d", i)
		}
		matchers[tool] = agentpolicy.ToolMatcher{Match: agentpolicy.GlobMatcher("command")}
		for _, spec := range []string{"rm:*", "curl:*", "dd:*"} {
			p.Deny = append(p.Deny, agentpolicy.Rule{Tool: tool, Spec: spec})
		}
		for _, spec := range []string{"git push:*", "npm publish:*", "docker:*"} {
			p.Ask = append(p.Ask, agentpolicy.Rule{Tool: tool, Spec: spec})
		}
		for _, spec := range []string{"git status:*", "git log:*", "ls:*", "make:*"} {
			p.Allow = append(p.Allow, agentpolicy.Rule{Tool: tool, Spec: spec})
		}
	}
	return p, matchers
}

// Call is one tool call the benchmarks decide, with the answer both engines
// must give.
type Call struct {
	Name string
	Tool string
	Args string
	// Want is the action and the rule that decides the call.
	Want Answer
}

// Calls are the three calls decided: one allowed by the last allow rule of
// its tool, so every rule of the tool is tried, one asked and one denied.
var Calls = []Call{
	{"allowed", "bash", `{"command":"make test"}`, Answer{agentturn.Allow, "bash(make:*)"}},
	{"asked", "bash", `{"command":"docker run alpine"}`, Answer{agentturn.Defer, "bash(docker:*)"}},
	{"denied", "bash", `{"command":"rm -rf /"}`, Answer{agentturn.Block, "bash(rm:*)"}},
}

// Answer is an engine's answer to a call: the action and the rule that
// decided it, empty when the default did.
type Answer struct {
	Action agentturn.ToolAction
	Rule   string
}
