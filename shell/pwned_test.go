package shell

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
)

// pwnedCase is a command and whether the splitter must find code in it
// that no rule reads; its harmful form creates a file named pwned when
// bash runs it, and its harmless twin creates none.
type pwnedCase struct {
	command string
	unseen  bool
}

// checkPwned holds each case to the splitter and to bash: a command the
// splitter reads as hiding code must be one that makes bash create pwned
// (run in a scratch directory; given env, with it and PATH alone), and one
// it reads in full must not.
func checkPwned(t *testing.T, cases []pwnedCase, env ...string) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("this test runs bash: %v", err)
	}
	split := Subjects()
	for _, c := range cases {
		t.Run(c.command, func(t *testing.T) {
			subjects, err := split(commandArgs(c.command))
			if err != nil {
				t.Fatal(err)
			}
			if unseen := firstUnseen(subjects); (unseen != "") != c.unseen {
				t.Errorf("unseen %q, want unseen %v", unseen, c.unseen)
			}
			dir := t.TempDir()
			cmd := exec.Command(bash, "-c", c.command)
			cmd.Dir = dir
			if env != nil {
				cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, env...)
			}
			out, _ := cmd.CombinedOutput()
			_, err = os.Stat(filepath.Join(dir, "pwned"))
			if ran := err == nil; ran != c.unseen {
				t.Errorf("bash created pwned: %v, want %v (%s)", ran, c.unseen, out)
			}
		})
	}
}

// firstUnseen is the first reason a subject hides code, "" for none.
func firstUnseen(subjects []agentpolicy.Subject) string {
	unseen := ""
	for _, s := range subjects {
		unseen = firstOf(unseen, s.Unseen)
	}
	return unseen
}
