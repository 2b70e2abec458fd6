package depcheck

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

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
func TestBoundaryOfDepcheck(t *testing.T) {
	Check(t)
}

// A package that imports a module outside the boundary is named: the
// check is run over a throwaway module that imports one.
func TestOutsideNamesForeignImport(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/foreign\n\ngo 1.25\n",
		"a/a.go": "package a\n",
		"b/b.go": "package b\n\nimport _ \"example.com/foreign/a\"\n",
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(filepath.Join(dir, "b"))
	outside, err := Outside(".")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"example.com/foreign/a", "example.com/foreign/b"}
	if !slices.Equal(outside, want) {
		t.Fatalf("Outside = %v, want %v", outside, want)
	}
}
