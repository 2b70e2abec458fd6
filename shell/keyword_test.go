package shell

import (
	"strings"
	"testing"
)

// TestKeywordOptions holds which words of set and shopt turn keyword
// mode on, and which leave it off at the end, to bash's reading of
// them: an option made when it runs may be either.
func TestKeywordOptions(t *testing.T) {
	cases := []struct {
		base, args string
		on, off    bool
	}{
		{"set", "-k", true, false},
		{"set", "-euk", true, false},
		{"set", "-o keyword", true, false},
		{"set", "-eo keyword", true, false},
		{"set", "-o errexit -o keyword", true, false},
		{"set", "-ko pipefail", true, false},
		{"set", "-e", false, false},
		{"set", "-o pipefail", false, false},
		{"set", "+k", false, true},
		{"set", "+o keyword", false, true},
		{"set", "+ek", false, true},
		{"set", "+k -k", true, false},
		{"set", "-- -k", false, false},
		{"set", "x -k", false, false},
		{"shopt", "-s -o keyword", true, false},
		{"shopt", "-os keyword", true, false},
		{"shopt", "-o keyword", false, false},
		{"shopt", "-s nullglob", false, false},
	}
	for _, c := range cases {
		args := literalWords(strings.Fields(c.args))
		if got := keywordOn(c.base, args); got != c.on {
			t.Errorf("%s %s: keywordOn = %v, want %v", c.base, c.args, got, c.on)
		}
		if c.base == "set" {
			if got := keywordOff(args); got != c.off {
				t.Errorf("set %s: keywordOff = %v, want %v", c.args, got, c.off)
			}
		}
	}
	if !keywordOn("set", []word{{value: "-$x"}}) {
		t.Error("set -$x: an option made when it runs may turn keyword mode on")
	}
}

// literalWords are values as literal words.
func literalWords(values []string) []word {
	out := make([]word, len(values))
	for i, v := range values {
		out[i] = word{value: v, literal: true}
	}
	return out
}
