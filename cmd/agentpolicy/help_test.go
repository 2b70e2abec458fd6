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
