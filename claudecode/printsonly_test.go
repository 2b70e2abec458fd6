package claudecode

import "testing"

// TestPrintsHowANameRuns: type and command -v print how a name would run
// and run nothing, so they run with no rule (Claude Code 2.1.328 runs
// "type ls" and asks for "command -v git": divergences.json lists it);
// command -p runs the name and is decided as it.
func TestPrintsHowANameRuns(t *testing.T) {
	none := lists{}
	denyRm := lists{Deny: []string{"Bash(rm:*)"}}
	checkObserved(t, []observedRow{
		{none, "Bash", cmd("type ls"), "allow"},
		{none, "Bash", cmd("type -t git"), "allow"},
		{none, "Bash", cmd("type ls && rm x"), "ask"},
		{none, "Bash", cmd("command -v git"), "allow"},
		{none, "Bash", cmd("command -V git"), "allow"},
		{none, "Bash", cmd("command -v $(touch x)"), "ask"},
		{none, "Bash", cmd("command -v *"), "ask"},
		{denyRm, "Bash", cmd("command -v rm"), "allow"},
		{denyRm, "Bash", cmd("command -v rm && rm x"), "deny"},
		{denyRm, "Bash", cmd("command -p rm x"), "deny"},
		{denyRm, "Bash", cmd("type rm"), "allow"},
	})
}
