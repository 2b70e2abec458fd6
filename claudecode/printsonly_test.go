package claudecode

import "testing"

// TestPrintsHowANameRuns: type prints how a name would run and runs
// nothing, so it runs with no rule, as Claude Code 2.1.328 runs "type
// ls"; Claude Code asks for command -v (recorded: "command -v touch"),
// and so does agentpolicy; command -p runs the name and is decided as it.
func TestPrintsHowANameRuns(t *testing.T) {
	none := lists{}
	denyRm := lists{Deny: []string{"Bash(rm:*)"}}
	checkObserved(t, []observedRow{
		{none, "Bash", cmd("type ls"), "allow"},
		{none, "Bash", cmd("type -t git"), "allow"},
		{none, "Bash", cmd("type ls && rm x"), "ask"},
		{none, "Bash", cmd("command -v git"), "ask"},
		{denyRm, "Bash", cmd("command -p rm x"), "deny"},
		{denyRm, "Bash", cmd("type rm"), "allow"},
	})
}
