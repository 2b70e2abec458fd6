package shell

import (
	"testing"

	"github.com/ChristopherDavenport/agentturn"

	"github.com/ChristopherDavenport/agentpolicy"
)

// namedCases are commands named by a variable: one the script set to a
// single literal before is also read, as constraints, as the command it
// names; any other stays unseen alone.
var namedCases = []splitCase{
	{"named", "x=rm; $x -f f", []want{same("x=rm"), hidden("$x -f f", "$x -f f", "the command name $x is known only when it runs"), {value: "rm -f f", text: "$x -f f", constrain: true}, {tool: "write", value: "f", text: "f", constrain: true}}},
	{"named", "x=rm && \"${x}\" -f f", []want{same("x=rm"), hidden("${x} -f f", "\"${x}\" -f f", "the command name ${x} is known only when it runs"), {value: "rm -f f", text: "\"${x}\" -f f", constrain: true}, {tool: "write", value: "f", text: "f", constrain: true}}},
	{"named", "x='rm -r'; $x d", []want{run("x=rm -r", "x='rm -r'"), hidden("$x d", "$x d", "the command name $x is known only when it runs"), {value: "rm -r d", text: "$x d", constrain: true}, {tool: "write", value: "d", text: "d", constrain: true}}},
	{"named", "x=sudo; $x rm f", []want{same("x=sudo"), hidden("$x rm f", "$x rm f", "the command name $x is known only when it runs"),
		{value: "sudo rm f", text: "$x rm f", constrain: true}, {value: "rm f", text: "rm f", constrain: true}, {tool: "write", value: "f", text: "f", constrain: true}}},
	// Not one literal before the command: two values, a value read at
	// run time, the command before the assignment.
	{"named", "x=rm; x=ls; $x f", []want{same("x=rm"), same("x=ls"), hidden("$x f", "$x f", "the command name $x is known only when it runs")}},
	{"named", "x=rm; read x; $x f", []want{same("x=rm"), same("read x"), hidden("$x f", "$x f", "the command name $x is known only when it runs")}},
	{"named", "$x f; x=rm", []want{hidden("$x f", "$x f", "the command name $x is known only when it runs"), same("x=rm")}},
	{"named", "x=$(pwd); $x f", []want{same("x=$(pwd)"), same("pwd"), hidden("$x f", "$x f", "the command name $x is known only when it runs")}},
}

func TestNamedByVariable(t *testing.T) {
	checkCases(t, namedCases)
}

// TestEndToEndNamedByVariable checks that a deny rule holds for a command
// named by a variable set to it, and an allow rule does not allow one.
func TestEndToEndNamedByVariable(t *testing.T) {
	e := build(t, agentpolicy.Policy{Allow: rules(t, "bash(ls:*)"), Deny: rules(t, "bash(rm:*)"), Default: agentpolicy.Allow()})
	checkActions(t, e, []actionCase{
		{"x=rm; $x -f f", agentturn.Block},
		{"x=ls; $x -la", agentturn.Defer},
		{"ls -la", agentturn.Allow},
	})
}
