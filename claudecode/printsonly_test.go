package claudecode

import "testing"

// TestPrintsHowANameRuns: command -v, command -V and type print how a
// name would run and run nothing, so they run with no rule as Claude
// Code's read-only commands do; command -p runs the name and is decided
// as it.
func TestPrintsHowANameRuns(t *testing.T) {
	none := lists{}
	checkObserved(t, []observedRow{
		{none, "Bash", cmd("command -v git"), "allow"},
		{none, "Bash", cmd("command -V git"), "allow"},
		{none, "Bash", cmd("type -t git"), "allow"},
		{none, "Bash", cmd("command -p rm x"), "ask"},
		{none, "Bash", cmd("command -v git && rm x"), "ask"},
		{lists{Deny: []string{"Bash(rm:*)"}}, "Bash", cmd("command -p rm x"), "deny"},
		{lists{Deny: []string{"Bash(rm:*)"}}, "Bash", cmd("command -v rm"), "allow"},
	})
}
