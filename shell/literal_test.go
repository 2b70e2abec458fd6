package shell

import (
	"fmt"
	"testing"

	"github.com/ChristopherDavenport/agentturn"

	"github.com/ChristopherDavenport/agentpolicy"
)

// commitForm is the command Claude Code writes to commit with a message.
const commitForm = "git commit -m \"$(cat <<'EOF'\nfix: read $(rm -rf x) as text\n\nCo-Authored-By: a <b@c>\nEOF\n)\""

// literalCases are substitutions that print a literal here-document,
// read as their text, beside look-alikes that run something and are read
// as commands.
var literalCases = []struct {
	command string
	want    []want
}{
	{commitForm, []want{run("git commit -m fix: read $(rm -rf x) as text\n\nCo-Authored-By: a <b@c>", commitForm)}},
	{"git commit -m \"$(cat <<\"EOF\"\nx\nEOF\n)\"", []want{run("git commit -m x", "git commit -m \"$(cat <<\"EOF\"\nx\nEOF\n)\"")}},
	{"git commit -m \"$(cat <<\\EOF\nx\nEOF\n)\"", []want{run("git commit -m x", "git commit -m \"$(cat <<\\EOF\nx\nEOF\n)\"")}},
	{"echo \"$(cat <<'EOF'\nEOF\n)\"", []want{run("echo ''", "echo \"$(cat <<'EOF'\nEOF\n)\"")}},
	// An unquoted delimiter: the body is expanded, and its substitution runs.
	{"git commit -m \"$(cat <<EOF\n$(rm -rf x)\nEOF\n)\"", []want{
		run("git commit -m $(cat <<EOF\n$(rm -rf x)\nEOF\n)", "git commit -m \"$(cat <<EOF\n$(rm -rf x)\nEOF\n)\""), same("cat"), same("rm -rf x"), write("x")}},
	// More than the here-document: a file, another command, a redirect.
	{"git commit -m \"$(cat .env <<'EOF'\nx\nEOF\n)\"", []want{
		run("git commit -m $(cat .env <<'EOF'\nx\nEOF\n)", "git commit -m \"$(cat .env <<'EOF'\nx\nEOF\n)\""), same("cat .env")}},
	{"git commit -m \"$(cat <<'EOF'\nx\nEOF\nrm -rf y\n)\"", []want{
		run("git commit -m $(cat <<'EOF'\nx\nEOF\nrm -rf y\n)", "git commit -m \"$(cat <<'EOF'\nx\nEOF\nrm -rf y\n)\""), same("cat"), same("rm -rf y"), write("y")}},
	{"git commit -m \"$(cat <<'EOF' > f\nx\nEOF\n)\"", []want{
		run("git commit -m $(cat <<'EOF' > f\nx\nEOF\n)", "git commit -m \"$(cat <<'EOF' > f\nx\nEOF\n)\""), same("cat"), write("f")}},
	{"git commit -m \"$(rm <<'EOF'\nx\nEOF\n)\"", []want{
		run("git commit -m $(rm <<'EOF'\nx\nEOF\n)", "git commit -m \"$(rm <<'EOF'\nx\nEOF\n)\""), same("rm")}},
}

func TestLiteralText(t *testing.T) {
	split := Subjects(WithWriteTool("write", "path"))
	for _, c := range literalCases {
		t.Run(c.command, func(t *testing.T) {
			subjects, err := split(commandArgs(c.command))
			if err != nil {
				t.Fatal(err)
			}
			got := make([]want, len(subjects))
			for i, s := range subjects {
				got[i] = subjectWant(t, s)
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("subjects:\n got %s\nwant %s", show(got), show(c.want))
			}
		})
	}
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
