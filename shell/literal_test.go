package shell

import (
	"testing"

	"github.com/ChristopherDavenport/agentturn"

	"github.com/ChristopherDavenport/agentpolicy"
)

// commitForm is the command Claude Code writes to commit with a message.
const commitForm = "git commit -m \"$(cat <<'EOF'\nfix: read $(rm -rf x) as text\n\nCo-Authored-By: a <b@c>\nEOF\n)\""

// literalCases are substitutions that print a literal here-document,
// read as their text, beside look-alikes that run something and are read
// as commands.
var literalCases = []splitCase{
	{"literal", commitForm, []want{run("git commit -m fix: read $(rm -rf x) as text\n\nCo-Authored-By: a <b@c>", commitForm)}},
	{"literal", "git commit -m \"$(cat <<\"EOF\"\nx\nEOF\n)\"", []want{run("git commit -m x", "git commit -m \"$(cat <<\"EOF\"\nx\nEOF\n)\"")}},
	{"literal", "git commit -m \"$(cat <<\\EOF\nx\nEOF\n)\"", []want{run("git commit -m x", "git commit -m \"$(cat <<\\EOF\nx\nEOF\n)\"")}},
	{"literal", "echo \"$(cat <<'EOF'\nEOF\n)\"", []want{run("echo ''", "echo \"$(cat <<'EOF'\nEOF\n)\"")}},
	// An unquoted delimiter: the body is expanded, and its substitution runs.
	{"literal", "git commit -m \"$(cat <<EOF\n$(rm -rf x)\nEOF\n)\"", []want{
		run("git commit -m $(cat <<EOF\n$(rm -rf x)\nEOF\n)", "git commit -m \"$(cat <<EOF\n$(rm -rf x)\nEOF\n)\""), same("cat"), same("rm -rf x"), write("x")}},
	// More than the here-document: a file, another command, a redirect.
	{"literal", "git commit -m \"$(cat .env <<'EOF'\nx\nEOF\n)\"", []want{
		run("git commit -m $(cat .env <<'EOF'\nx\nEOF\n)", "git commit -m \"$(cat .env <<'EOF'\nx\nEOF\n)\""), same("cat .env"), read(".env")}},
	{"literal", "git commit -m \"$(cat <<'EOF'\nx\nEOF\nrm -rf y\n)\"", []want{
		run("git commit -m $(cat <<'EOF'\nx\nEOF\nrm -rf y\n)", "git commit -m \"$(cat <<'EOF'\nx\nEOF\nrm -rf y\n)\""), same("cat"), same("rm -rf y"), write("y")}},
	{"literal", "git commit -m \"$(cat <<'EOF' > f\nx\nEOF\n)\"", []want{
		run("git commit -m $(cat <<'EOF' > f\nx\nEOF\n)", "git commit -m \"$(cat <<'EOF' > f\nx\nEOF\n)\""), same("cat"), write("f")}},
	{"literal", "git commit -m \"$(rm <<'EOF'\nx\nEOF\n)\"", []want{
		run("git commit -m $(rm <<'EOF'\nx\nEOF\n)", "git commit -m \"$(rm <<'EOF'\nx\nEOF\n)\""), same("rm")}},
}

func TestLiteralText(t *testing.T) {
	checkCases(t, literalCases)
}

// TestEndToEndCommitForm checks that Claude Code's commit form is allowed
// by a rule for git commit alone, and a look-alike that runs a command
// is not.
func TestEndToEndCommitForm(t *testing.T) {
	e := build(t, agentpolicy.Policy{Allow: rules(t, "bash(git commit:*)"), Default: agentpolicy.Ask()})
	if v := decide(t, e, commitForm, false); v.Action != agentturn.Allow {
		t.Errorf("the commit form: %v %q, want allowed", v.Action, v.Reason)
	}
	if v := decide(t, e, "git commit -m \"$(cat <<EOF\n$(rm -rf x)\nEOF\n)\"", false); v.Action == agentturn.Allow {
		t.Errorf("an unquoted delimiter: %v %q, want asked", v.Action, v.Reason)
	}
}
