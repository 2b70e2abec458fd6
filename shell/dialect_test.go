package shell

import (
	"os/exec"
	"slices"
	"testing"
)

// dialectCases are strings run by dash, each attack beside a harmless
// twin: an attack is one dash reads otherwise than bash, and must be
// unseen; a twin is read alike, and must not be.
var dialectCases = []pwnedCase{
	{`dash -c "touch \$'pw'"`, true}, {`dash -c 'touch pw'`, false},
	{`dash -c 'touch $"pw"'`, true}, {`dash -c 'touch "pw"'`, false},
	{`dash -c 'touch {a,b}'`, true}, {`dash -c 'touch a b'`, false},
	{`dash -c 'touch a{b}'`, false}, {`dash -c 'cd . && touch c'`, false},
}

func TestDialects(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("this test runs bash: %v", err)
	}
	if _, err := exec.LookPath("dash"); err != nil {
		t.Fatalf("this test runs dash: %v", err)
	}
	split := Subjects()
	for _, c := range dialectCases {
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
				t.Fatalf("unseen %q, want unseen %v", unseen, c.unseen)
			}
			// The splitter's touches, as bash would read the string,
			// against what dash creates.
			asBash := touched(t, subjects)
			if created := bashCreates(t, bash, c.command); slices.Equal(asBash, created) == c.unseen {
				t.Errorf("dash creates %q, the string read as bash touches %q", created, asBash)
			}
		})
	}
}
