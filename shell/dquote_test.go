package shell

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// quoteCases are expansions inside double quotes or here-documents with
// single quotes in their word, and extended globs with an expansion in
// their pattern, each attack beside a harmless twin: bash
// runs touch in an attack, which must be unseen, and nothing in a twin,
// which must not be.
var quoteCases = []struct {
	command string
	unseen  bool
}{
	{`echo "${x:-'$(touch pwned)'}"`, true}, {`echo "${x:-'text'}"`, false},
	{"echo \"${x:='`touch pwned`'}\"", true}, {"echo ${x:='`touch pwned`'}", false},
	{`echo "${x-'$(touch pwned)'}"`, true}, {`echo "${x#'$(touch pwned)'}"`, false},
	{`x=1; echo "${x:+'$(touch pwned)'}"`, true}, {`x=1; echo "${x/'$(touch pwned)'/y}"`, false},
	{`echo "${x:-$'$(touch pwned)'}"`, true}, {`echo ${x:-$'$(touch pwned)'}`, false},
	{`echo "${x:-${y:-'$(touch pwned)'}}"`, true}, {`echo "${x:-${y:-'pwned'}}"`, false},
	{"cat <<EOF\n${x:-'$(touch pwned)'}\nEOF", true}, {"cat <<'EOF'\n${x:-'$(touch pwned)'}\nEOF", false},
	// An extended glob's pattern is text to the parser; bash expands it.
	{"shopt -s extglob\necho @(x|$(touch pwned))", true}, {"shopt -s extglob\necho @(x|y)", false},
	{"[[ x == +(a|`touch pwned`) ]]", true}, {"[[ x == +(a|b) ]]", false},
}

func TestQuotesInDoubleQuotes(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("this test runs bash: %v", err)
	}
	split := Subjects()
	for _, c := range quoteCases {
		t.Run(c.command, func(t *testing.T) {
			subjects, err := split(commandArgs(c.command))
			if err != nil {
				t.Fatal(err)
			}
			unseen := ""
			for _, s := range subjects {
				unseen = firstOf(unseen, s.Unseen)
			}
			if (unseen != "") != c.unseen {
				t.Errorf("unseen %q, want unseen %v", unseen, c.unseen)
			}
			dir := t.TempDir()
			cmd := exec.Command(bash, "-c", c.command)
			cmd.Dir = dir
			out, _ := cmd.CombinedOutput()
			_, err = os.Stat(filepath.Join(dir, "pwned"))
			if ran := err == nil; ran != c.unseen {
				t.Errorf("bash created pwned: %v, want %v (%s)", ran, c.unseen, out)
			}
		})
	}
}
