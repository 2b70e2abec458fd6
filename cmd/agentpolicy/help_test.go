package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestHelpCitesTheRepository: a help text points at documents a user has,
// the repository's RFC, and never at the contract the project was written
// from, which ships with nothing.
func TestHelpCitesTheRepository(t *testing.T) {
	for _, cmd := range []string{"explain", "lint", "test", "corpus", "queue", "version"} {
		out, _, _ := cli(t, cmd, "--help")
		if strings.Contains(out, "contract §") {
			t.Errorf("%s --help cites the contract:\n%s", cmd, out)
		}
	}
	out, _, _ := cli(t, "explain", "--help")
	if !strings.Contains(out, "RFC 0001 §8") {
		t.Errorf("explain --help does not say where the record is described:\n%s", out)
	}
}

// --trust is a flag that takes no value, and every command's help says so
// and lists the loading flags, --policy among them.
func TestHelpLoadingFlags(t *testing.T) {
	for _, cmd := range []string{"explain", "lint", "test", "hook"} {
		out, _, _ := cli(t, cmd, "--help")
		for _, want := range []string{"--trust ", "a flag, no value", "--policy stringArray", "--settings stringArray", "--verbose"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s --help lacks %q:\n%s", cmd, want, out)
			}
		}
	}
	if _, stderr, code := cli(t, "lint", "--trust=yes"); code != exitInput || !strings.Contains(stderr, "--trust") {
		t.Errorf("--trust=yes: exit %d, %q; want it refused", code, stderr)
	}
}

// TestOneCommandTree: a command line that begins with a command's name
// builds only that command (see newRoot), and what it prints is what the
// whole tree prints: its help, read through help NAME, which builds every
// command, and its errors, held to the whole tree's.
func TestOneCommandTree(t *testing.T) {
	whole := newRoot(nil)
	names := 0
	for _, c := range whole.Commands() {
		name := c.Name()
		if name == "completion" || name == "help" {
			continue
		}
		names++
		if got := newRoot([]string{name}).Commands(); len(got) != 1 || got[0].Name() != name {
			t.Errorf("%s: built %d commands, want only %s", name, len(got), name)
		}
		lines := [][]string{{name, "--help"}, {name, "--no-such-flag"}}
		for _, sub := range c.Commands() {
			lines = append(lines, []string{name, sub.Name(), "--help"})
		}
		for _, args := range lines {
			out, stderr, code := cli(t, args...)
			wout, wstderr, wcode := wholeTree(args)
			if out != wout || stderr != wstderr || code != wcode {
				t.Errorf("%q: one command printed %q, %q, exit %d; the whole tree %q, %q, exit %d",
					args, out, stderr, code, wout, wstderr, wcode)
			}
		}
		if help, _, _ := cli(t, "help", name); help != mustCLI(t, name, "--help") {
			t.Errorf("help %s differs from %s --help", name, name)
		}
	}
	if names < 8 {
		t.Errorf("the whole tree has %d commands, want every one of agentpolicy's 8", names)
	}
}

// wholeTree runs the command line on the tree of every command, as run
// would were the line not to begin with a command's name.
func wholeTree(args []string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = execute(context.Background(), newRoot(nil), args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// mustCLI is the standard output of a command line that exits 0.
func mustCLI(t *testing.T, args ...string) string {
	t.Helper()
	out, stderr, code := cli(t, args...)
	if code != exitOK {
		t.Fatalf("%q: exit %d, %s", args, code, stderr)
	}
	return out
}
