package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpus decides every case of testdata/corpus: each NAME.rules file
// alone, its NAME.cases the decisions it gives.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/corpus/*.rules")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			eng := engineOf(t, map[string]string{path: string(src)})
			cases := readCases(t, strings.TrimSuffix(path, ".rules")+".cases")
			if len(cases) == 0 {
				t.Fatal("no cases")
			}
			for _, c := range cases {
				if got := word(decide(t, eng, c.command)); got != c.want {
					t.Errorf("line %d: %s: got %s, want %s", c.line, c.command, got, c.want)
				}
			}
		})
	}
}
