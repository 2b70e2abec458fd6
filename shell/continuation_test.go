package shell

import (
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// continuationCases are commands with line continuations, each attack
// beside a harmless twin. An attack is one the parser alone reads
// otherwise than bash: it must ask. A twin must be read as written.
var continuationCases = []struct {
	command string
	unseen  string
}{
	// "$(" split by a continuation: text to the parser, a substitution to bash.
	{"echo \"$\\\n(touch pwned)\"", whyContinued},
	{"echo \"$(touch pwned)\"", ""},
	{"echo $\\\n(touch pwned)", "the command does not parse: 2:1: a command can only contain words and redirects; encountered `(`"},
	{"echo $(touch pwned)", ""},
	{"x=$\\\n(touch pwned)", "the command does not parse: 2:1: a command can only contain words and redirects; encountered `(`"},
	{"x=$(touch pwned)", ""},
	// An ANSI-C string split from its "$".
	{"touch $\\\n'\\x41'", whyContinued},
	{"touch $'\\x41'", ""},
	// An operator split by a continuation.
	{"echo a &\\\n& touch pwned", "the command does not parse: 2:1: `&` can only immediately follow a statement"},
	{"echo a \\\n&& touch pwned", ""},
	// A comment ending in a backslash: bash ends the comment at the
	// newline, but the joined reading cannot tell, so it asks.
	{"echo a # b \\\ntouch pwned", whyContinued},
	{"echo a # b\ntouch pwned", ""},
	// Continuations bash keeps: in single quotes, ANSI-C strings and a
	// here-document with a quoted delimiter.
	{"echo 'x\\\n$(touch no)'", ""},
	{"echo $'x\\\n$(touch no)'", ""},
	{"cat <<'EOF'\n$\\\n(touch no)\nEOF", ""},
	{"cat <<EOF\n$\\\n(touch pwned)\nEOF", whyContinued},
	// A delimiter split by a continuation: both read it joined.
	{"cat <<EO\\\nF\n$(touch pwned)\nEOF\ntouch after", ""},
	// Continuations in words and between them, and escaped backslashes.
	{"touch a \\\n  b", ""},
	{"tou\\\nch c", ""},
	{"touch \"d\\\ne\"", ""},
	{"touch f\\\\\ntouch g", ""},
	{"touch h\\\\\\\ni", ""},
	{"touch \\\n  l \\\n  m", ""},
}

func TestContinuations(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("this test runs bash: %v", err)
	}
	split := Subjects(WithWriteTool("write", "path"))
	for _, c := range continuationCases {
		t.Run(c.command, func(t *testing.T) {
			subjects, err := split(commandArgs(c.command))
			if err != nil {
				t.Fatal(err)
			}
			if subjects[0].Unseen != c.unseen {
				t.Fatalf("unseen %q, want %q", subjects[0].Unseen, c.unseen)
			}
			created := bashCreates(t, bash, c.command)
			if c.unseen != "" {
				// An attack: the parser alone misses what bash creates.
				if asWritten := touched(t, parserReading(t, c.command)); slices.Equal(asWritten, created) {
					t.Errorf("bash creates %q, as the parser reads it: not an attack", created)
				}
				return
			}
			for _, s := range subjects {
				if s.Unseen != "" || s.Constrain {
					t.Errorf("subject %+v of a harmless command", s)
				}
			}
			if got := touched(t, subjects); !slices.Equal(got, created) {
				t.Errorf("the split touches %q, bash creates %q", got, created)
			}
		})
	}
}

// parserReading is the split of command as the parser reads it alone, or
// nothing when it does not parse.
func parserReading(t *testing.T, command string) []agentpolicy.Subject {
	t.Helper()
	f, err := parse(command)
	if err != nil {
		return nil
	}
	s := splitter{config: &config{field: "command"}}
	if err := s.walk(f, command, 0); err != nil {
		t.Fatal(err)
	}
	return s.subjects
}

// touched are the files the "touch" subjects name, sorted.
func touched(t *testing.T, subjects []agentpolicy.Subject) []string {
	t.Helper()
	var files []string
	for _, s := range subjects {
		var m map[string]string
		if err := json.Unmarshal(s.Args, &m); err != nil {
			t.Fatal(err)
		}
		if rest, ok := strings.CutPrefix(m["command"], "touch "); ok {
			files = append(files, strings.Fields(rest)...)
		}
	}
	slices.Sort(files)
	return files
}

// bashCreates runs command in bash in an empty directory and returns the
// names of the files it created there, sorted.
func bashCreates(t *testing.T, bash, command string) []string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(bash, "-c", command)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Logf("bash: %v: %s", err, out)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
