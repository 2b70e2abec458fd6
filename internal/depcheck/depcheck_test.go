package depcheck

import "testing"

func TestAllowed(t *testing.T) {
	cases := []struct {
		path string
		want bool
	}{
		{"github.com/ChristopherDavenport/agentpolicy", true},
		{"github.com/ChristopherDavenport/agentpolicy/guard", true},
		{"github.com/ChristopherDavenport/openresponses/echo", true},
		{"github.com/ChristopherDavenport/agentturn", true},
		{"github.com/ChristopherDavenport/agentpolicyx", false},
		{"github.com/ChristopherDavenport/agentturnkit", false},
		{"golang.org/x/sync/errgroup", false},
		{"mvdan.cc/sh/v3/syntax", false},
	}
	for _, c := range cases {
		if got := allowed(c.path); got != c.want {
			t.Errorf("allowed(%q) = %v, want %v", c.path, got, c.want)
		}
	}
}

// The boundary holds for this package too: it is linked into every
// package's tests.
func TestOutsideOwnPackage(t *testing.T) {
	outside, err := Outside(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(outside) != 0 {
		t.Fatalf("depcheck imports %v", outside)
	}
}
