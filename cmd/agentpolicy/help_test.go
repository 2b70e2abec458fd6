package main

import (
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
