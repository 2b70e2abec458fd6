package claudecode

import "testing"

// TestRunnerCommands: Claude Code does not strip a project or package
// runner (spec §4.4), so an allow rule approves the runner's line as
// written, "Bash(npx prettier:*)" approves "npx prettier --check .", and
// what the runner runs stays a constraint: a deny rule for it holds, an
// allow rule for it alone does not approve the runner. A wrapper Claude
// Code does not strip stays a subject in full, however the call is
// spelled around it.
func TestRunnerCommands(t *testing.T) {
	npx := lists{Allow: []string{"Bash(npx:*)"}}
	prettier := lists{Allow: []string{"Bash(npx prettier:*)"}}
	pytest := lists{Allow: []string{"Bash(uv run pytest:*)"}}
	bare := lists{Allow: []string{"Bash(prettier:*)"}}
	denyRm := lists{Allow: []string{"Bash(npx:*)", "Bash(uv run:*)"}, Deny: []string{"Bash(rm:*)"}}
	npmTest := lists{Allow: []string{"Bash(echo:*)", "Bash(npm test:*)"}}
	decideCommands(t, "Bash", []commandRow{
		{prettier, "npx prettier --check .", "allow"},
		{prettier, "npx prettier --write src", "allow"},
		{pytest, "uv run pytest -q", "allow"},
		{npx, "npx prettier --check .", "allow"},
		{npx, "npx npx prettier", "allow"},
		{npx, "npx rm -rf x", "allow"},
		{prettier, "npx rm -rf x", "ask"},
		{prettier, "npx --yes prettier --check .", "ask"},
		{bare, "npx prettier --check .", "ask"},
		{denyRm, "npx rm -rf x", "deny"},
		{denyRm, "uv run rm x", "deny"},
		{denyRm, "npx sudo rm x", "deny"},
		{npmTest, "npm test", "allow"},
		{npmTest, "sudo npm test", "ask"},
		{npmTest, "echo sudo npm test; sudo npm test", "ask"},
		{npmTest, "echo npx sudo npm test; sudo npm test", "ask"},
	})
}
