package shell

import (
	"testing"

	"github.com/ChristopherDavenport/agentturn"

	"github.com/ChristopherDavenport/agentpolicy"
)

// unreadCases are commands the parser cannot read as bash does: the
// command as written, unseen, then what can still be read of it, as
// constraints.
var unreadCases = []splitCase{
	{"unread", "npm test &&", []want{hidden("npm test &&", "npm test &&", "the command does not parse: 1:10: `&&` must be followed by a statement"), base("npm test", "npm test")}},
	{"unread", "rm -rf / ||", []want{hidden("rm -rf / ||", "rm -rf / ||", "the command does not parse: 1:10: `||` must be followed by a statement"), base("rm -rf /", "rm -rf /"), {tool: "write", value: "/", text: "/", constrain: true}}},
	{"unread", "npm test\r\n", []want{hidden("npm test\r\n", "npm test\r\n", "the command has a carriage return, which the parser and bash read differently"), base("npm test", "npm test")}},
	{"unread", "ls\r\nrm x\r\n", []want{hidden("ls\r\nrm x\r\n", "ls\r\nrm x\r\n", "the command has a carriage return, which the parser and bash read differently"), base("ls", "ls"), base("rm x", "rm x"), {tool: "write", value: "x", text: "x", constrain: true}}},
	{"unread", "ls;;", []want{hidden("ls;;", "ls;;", "the command does not parse: 1:3: `;;` can only be used in a case clause"), base("ls", "ls")}},
	{"unread", "echo 'x", []want{hidden("echo 'x", "echo 'x", "the command does not parse: 1:6: reached EOF without closing quote `'`")}},
	{"unread", "ls\nif", []want{hidden("ls\nif", "ls\nif", "the command does not parse: 2:1: `if` must be followed by a statement list")}},
	{"unread", "sh -c 'echo \"x' && ls", []want{
		base("sh -c echo \"x", "sh -c 'echo \"x'"),
		hidden("sh -c echo \"x", "sh -c 'echo \"x'", "sh runs a string the splitter cannot read: the command does not parse: 1:6: reached EOF without closing quote `\"`"),
		same("ls"),
	}},
	{"unread", "bash -c $'ls\\r' ", []want{
		base("bash -c ls\r", "bash -c $'ls\\r'"),
		hidden("bash -c ls\r", "bash -c $'ls\\r'", "bash runs a string the splitter cannot read: the command has a carriage return, which the parser and bash read differently"),
		base("ls", "ls"),
	}},
}

func TestUnread(t *testing.T) {
	checkCases(t, unreadCases)
}

// TestEndToEndUnread checks that a command the parser cannot read asks
// where a rule would allow what it reads, and is still blocked by a deny
// rule for a command in it.
func TestEndToEndUnread(t *testing.T) {
	e := build(t, agentpolicy.Policy{Allow: rules(t, "bash(npm test:*) bash(echo:*)"), Deny: rules(t, "bash(rm:*)"), Default: agentpolicy.Allow()})
	checkActions(t, e, []actionCase{
		{"npm test", agentturn.Allow},
		{"npm test &&", agentturn.Defer},
		{"npm test\r\n", agentturn.Defer},
		{"echo 'unterminated", agentturn.Defer},
		{"rm -rf / &&", agentturn.Block},
		{"npm test\r\nrm -rf x\r\n", agentturn.Block},
	})
}

// TestTrailingBackslash checks that a script ending in a backslash, which
// bash keeps ("eval 'tee' '\\'" runs tee with the argument \) and the
// parser drops, asks, and that an escaped one does not.
func TestTrailingBackslash(t *testing.T) {
	split := Subjects()
	for command, unseen := range map[string]bool{"eval 'tee' '\\'": true, "echo x\\": true, "echo x\\\\": false, "echo '\\'": false} {
		subjects, err := split(commandArgs(command))
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, s := range subjects {
			got = got || s.Unseen != ""
		}
		if got != unseen {
			t.Errorf("%q: unseen %v, want %v: %+v", command, got, unseen, subjects)
		}
	}
}
