package shell

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// TestSubjectsErrors checks every way a split fails closed, each with an
// error that says why.
func TestSubjectsErrors(t *testing.T) {
	deep := strings.Repeat("$(", maxNesting) + "ls" + strings.Repeat(")", maxNesting)
	wrapped := strings.Repeat("nice ", maxDepth+2) + "ls"
	strings17 := strings.Repeat("eval ", maxDepth+2) + "ls"
	for _, c := range []struct {
		name, args, want string
	}{
		{"no field", `{"cmd": "ls"}`, `agentpolicy/shell: the arguments have no "command"`},
		{"a repeated field", `{"command": "ls", "command": "rm -rf /"}`, "agentpolicy: ambiguous arguments"},
		{"a field in another case", `{"command": "ls", "Command": "rm -rf /"}`, "agentpolicy: ambiguous arguments"},
		{"not a string", `{"command": ["rm"]}`, "agentpolicy: ambiguous arguments"},
		{"not JSON", `rm -rf /`, "agentpolicy: ambiguous arguments"},
		{"an empty command", `{"command": ""}`, "agentpolicy/shell: the command runs nothing"},
		{"only comments", `{"command": "# rm -rf /"}`, "agentpolicy/shell: the command runs nothing"},
		{"a NUL byte", `{"command": "r\u0000m -rf /"}`, "agentpolicy/shell: the command has a NUL byte"},
		{"nested too deep", mustArgs(deep), errDeep.Error()},
		{"wrapped too deep", mustArgs(wrapped), errDeep.Error()},
		{"strings too deep", mustArgs(strings17), errDeep.Error()},
	} {
		t.Run(c.name, func(t *testing.T) {
			subjects, err := Subjects()(json.RawMessage(c.args))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, %v; want an error containing %q", subjects, err, c.want)
			}
		})
	}
	if _, err := Subjects()(json.RawMessage(`{"command": "ls", "command": "x"}`)); !errors.Is(err, agentpolicy.ErrAmbiguousArgs) {
		t.Errorf("a repeated field: %v does not wrap ErrAmbiguousArgs", err)
	}
}

// TestWithField checks that the command is read from the named member and
// that the subjects carry it under the same name.
func TestWithField(t *testing.T) {
	subjects, err := Subjects(WithField("cmd"))(json.RawMessage(`{"cmd": "ls && rm x", "command": "true"}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(subjects) != 2 || string(subjects[0].Args) != `{"cmd":"ls"}` || string(subjects[1].Args) != `{"cmd":"rm x"}` {
		t.Errorf("subjects %v", subjects)
	}
}

// TestRedirectsWithoutTools checks that without WithWriteTool and
// WithReadTool a redirect is not a subject.
func TestRedirectsWithoutTools(t *testing.T) {
	subjects, err := Subjects()(commandArgs("sort < in > out"))
	if err != nil {
		t.Fatal(err)
	}
	if len(subjects) != 1 || subjects[0].Text != "sort" {
		t.Errorf("subjects %v", subjects)
	}
}

// TestJSONArgs checks that a subject's arguments are JSON a decoder reads
// back as the normalised command, characters JSON escapes included.
func TestJSONArgs(t *testing.T) {
	subjects, err := Subjects()(commandArgs("echo \"a<b>&c\\\"d\" $'\\t\\x01'"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := json.Unmarshal(subjects[0].Args, &m); err != nil {
		t.Fatal(err)
	}
	if want := "echo a<b>&c\"d \t\x01"; m["command"] != want {
		t.Errorf("got %q, want %q", m["command"], want)
	}
}

func mustArgs(command string) string { return string(commandArgs(command)) }
