// Command agentpolicy explains, lints and tests the permission rules of
// Claude Code settings files with the agentpolicy engine: what would happen
// to a call and which rule decides it, which rules do nothing, and whether a
// repository's expectations of its policy still hold. As Claude Code's
// PreToolUse hook (agentpolicy hook) it decides each of a session's tool
// calls before Claude Code does, and can only make Claude Code stricter.
//
//	agentpolicy explain --project . Bash -- git push --force
//	agentpolicy lint --project .
//	agentpolicy test --project . policy_test.json
//	agentpolicy corpus testdata/policy
//	agentpolicy explain --policy team-policy.json Bash -- git push --force
//	agentpolicy hook install --policy team-policy.json
//
// The settings are read as Claude Code reads them: the managed file and its
// drop-in directory, the user's, the project's and the project's local file,
// and any --settings files, merged by scope; the project's allow rules wait
// for --trust. The command never runs a tool or calls a model.
//
// Exit status: 0 when everything holds, 1 when lint finds an error or a
// policy test fails, 2 for bad input (an unknown tool, arguments that are
// not a JSON object, a missing or invalid file), with one line on standard
// error naming what is wrong.
package main

import (
	"context"
	"os"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
