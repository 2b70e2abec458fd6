package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunPassesTheProjectsCorpus(t *testing.T) {
	results, err := Run("../../testdata/policy")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]int{}
	for _, r := range results {
		files[r.File]++
		if len(r.Failures) > 0 {
			t.Errorf("%s: %s: %v", r.File, r.Case, r.Failures)
		}
	}
	if len(files) != 3 || files["decisions.json"] == 0 {
		t.Errorf("ran %v, want cases of the three files", files)
	}
}

// A corpus of someone else's, with a case that fails, one that stops at
// its first fatal failure, and a file with a member the format does not
// have.
func TestRunReportsFailures(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("grammar.json", `{"cases": [
		{"name": "right", "input": "read", "rules": [{"tool": "read"}]},
		{"name": "wrong count", "input": "read edit", "rules": [{"tool": "read"}]}
	]}`)
	write("matchers.json", `{"cases": [
		{"matcher": "glob", "spec": "ls:*", "args": {"command": "lsof"}, "match": true},
		{"matcher": "regexp", "spec": "x", "args": {}, "match": true}
	]}`)
	write("decisions.json", `{"cases": [{"name": "no default", "build_error": "no_default"}]}`)
	results, err := Run(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range results {
		got[r.Case] = strings.Join(r.Failures, "|")
	}
	want := map[string]string{
		"right":                                "",
		"wrong count":                          `ParseRules("read edit") gave 2 rules, want 1: [read edit]`,
		`0 glob "ls:*" on {"command": "lsof"}`: "match = false, want true",
		`1 regexp "x" on {}`:                   `unknown matcher "regexp"`,
		"no default":                           "",
	}
	for name, w := range want {
		if g, ok := got[name]; !ok || g != w {
			t.Errorf("case %q reported %q (ran: %v), want %q", name, g, ok, w)
		}
	}

	write("decisions.json", `{"cases": [{"name": "x", "expect": "allow"}]}`)
	if _, err := Run(dir); err == nil || !strings.Contains(err.Error(), `unknown field "expect"`) {
		t.Errorf("Run with an unknown member: %v, want the decoder's error", err)
	}
}

// A case whose implementation panics fails with the panic, and the next
// case still runs; a Fatalf stops its case at once.
func TestCollectorStopsAtFatalAndReportsPanics(t *testing.T) {
	col := &collector{}
	col.run(Case{run: func(t T) { panic("boom") }})
	col.run(Case{run: func(t T) {
		t.Fatalf("first")
		t.Errorf("never")
	}})
	if got := strings.Join(col.failures, "|"); got != "panic: boom|first" {
		t.Errorf("failures %q, want the panic and the first fatal only", got)
	}
}
