package shell

import (
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentturn"
)

// interpreterCases are the interpreters read against their tables by
// the one option reader, under a policy that allows every command and
// denies Bash(rm:*): each attack asks or is denied, never allowed, and
// its harmless twin is decided as the case says.
var interpreterCases = []struct {
	attack string
	want   agentturn.ToolAction
	twin   string
	twinIs agentturn.ToolAction
}{
	// gdb --args debugs the command after it: decided as that command.
	{"gdb --args rm x", agentturn.Block, "gdb --args ls", agentturn.Defer},
	{"gdb -args rm -rf x", agentturn.Block, "gdb -q -args ls -la", agentturn.Defer},
	{"gdb -batch -ex run --args rm x", agentturn.Block, "gdb -batch -ex run --args ls", agentturn.Defer},
	// gdb's shell and ! commands, dc's !, expect's spawn and Tcl's exec
	// run what a deny rule names; their twins are opaque code that asks.
	{"gdb -ex 'shell rm x'", agentturn.Block, "gdb -ex 'info functions' ./a.out", agentturn.Defer},
	{"gdb -batch -eval-command='!rm x'", agentturn.Block, "gdb -batch -eval-command='!ls'", agentturn.Defer},
	{"expect -c 'spawn rm x; expect eof'", agentturn.Block, "expect -c 'spawn ls; expect eof'", agentturn.Defer},
	{"expect -c 'set r [exec rm x]'", agentturn.Block, "expect -c 'set r [exec ls]'", agentturn.Defer},
	{"expect -c 'system rm x'", agentturn.Block, "expect -c 'system ls'", agentturn.Defer},
	{"dc -e '!rm x'", agentturn.Block, "dc -e '2 3 + p'", agentturn.Defer},
	// A shell of another language given its program after a letter of
	// its own.
	{"fish -ic 'rm x'", agentturn.Block, "fish -ic 'ls'", agentturn.Defer},
	// Any option that puts code on the command line, or loads code, asks,
	// whatever its letter; an option the table does not know asks too.
	{"python3 -X importtime -m json.tool f", agentturn.Defer, "python3 -I -m json.tool f", agentturn.Allow},
	{"python3 -W 'ignore::x.Y' -m json.tool f", agentturn.Defer, "python3 -W ignore -m json.tool f", agentturn.Allow},
	{"python3 -Z -m json.tool f", agentturn.Defer, "python3 -B -m json.tool --sort-keys f", agentturn.Allow},
	{"python3 -mpdb x.py", agentturn.Defer, "python3 -mjson.tool f", agentturn.Allow},
	{"ipython -m json.tool f", agentturn.Defer, "ipython --version", agentturn.Allow},
	{"perl -Mstrict x.pl", agentturn.Defer, "perl -v", agentturn.Allow},
	{"node --imp=./x.mjs app.js", agentturn.Defer, "node --version", agentturn.Allow},
	{"php -z x.so app.php", agentturn.Defer, "php -v", agentturn.Allow},
	{"bun --preload ./x.ts run build", agentturn.Defer, "bun run build", agentturn.Allow},
	// bun run's options come from its own table (issue 29): a value
	// taken in the next word is no script's name, and code an option
	// gives or loads asks, where the old scan stepped over every dash
	// word and read the next as a package's script.
	{"bun run --preload x build", agentturn.Defer, "bun run --silent build", agentturn.Allow},
	{"bun run -r x build", agentturn.Defer, "bun run -F pkg build", agentturn.Allow},
	{"bun run --config .env build", agentturn.Defer, "bun run --cwd packages/a build", agentturn.Allow},
	{"bun run --env-file x build", agentturn.Defer, "bun run --shell bun build", agentturn.Allow},
	{"bun run -e 'require(\"child_process\")' build", agentturn.Defer, "bun run --if-present build", agentturn.Allow},
	{"bun run --frobnicate build", agentturn.Defer, "bun run --watch build", agentturn.Allow},
	{"bun run --inspect x.js", agentturn.Defer, "bun run --inspect=9229 build", agentturn.Allow},
	{"pwsh -COMMAND 'x'", agentturn.Defer, "pwsh --version", agentturn.Allow},
}

func TestInterpreters(t *testing.T) {
	e := build(t, agentpolicy.Policy{Deny: rules(t, "bash(rm:*)"), Default: agentpolicy.Allow()})
	for _, c := range interpreterCases {
		if v := decide(t, e, c.attack, false); v.Action != c.want {
			t.Errorf("%q: %v %q, want %v", c.attack, v.Action, v.Reason, c.want)
		}
		if v := decide(t, e, c.twin, false); v.Action != c.twinIs {
			t.Errorf("twin %q: %v %q, want %v", c.twin, v.Action, v.Reason, c.twinIs)
		}
	}
}

// runSubjectCases hold what bun run's words name: the package's script
// NAME is read too, for bun runs the file NAME when the package has no
// such script (bun 1.4.4 runs "bun run .env" as JavaScript).
var runSubjectCases = []splitCase{
	{"bun run", "bun run key", []want{same("bun run key"), read("key")}},
	{"bun run", "bun run --redirect-warnings=w.log build", []want{same("bun run --redirect-warnings=w.log build"), read("build"), {tool: "write", value: "w.log", text: "--redirect-warnings=w.log"}}},
}

func TestRunSubjects(t *testing.T) {
	checkCases(t, runSubjectCases)
}
