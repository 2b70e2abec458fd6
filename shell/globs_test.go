package shell

import (
	"encoding/json"
	"testing"
)

// TestConfinedGlobs reads a glob operand confined to the directory a
// read-only command runs in as a known read, and keeps the command
// read-only; a glob that may leave it, become an option the command acts
// on, or be read otherwise than its other matches still asks.
func TestConfinedGlobs(t *testing.T) {
	split := Subjects(WithReadTool("Read", "p"), WithWriteTool("Edit", "p"), WithReadOnlyField("ro"), WithPatternTool("Read", "Read.glob"))
	rows := []struct {
		command  string
		readOnly bool
		seen     bool
	}{
		{"ls *.md", true, true},
		{"cat src/*.go", true, true},
		{"wc -l src/*.go", true, true},
		{"cd src && cat *.go", true, true},
		{"wc -l *.go", false, false},
		{"uniq *.txt", false, false},
		// A glob under a directory written literally cannot become an
		// option, so a command with options that write (sort -o) reads
		// it; one that may begin with a dash still asks.
		{"sort src/*.txt", true, true},
		{"sort *.txt", false, false},
		{"sort -o out src/*.txt", false, true},
		{"sort s*/x.txt", false, true},
		{"cat ../*", false, false},
		{"cat .*", false, false},
		{"cd .. && cat *.go", true, false},
		{"cd /tmp && cat *.go", true, false},
		{`cd "$d" && cat *.go`, true, false},
	}
	// Without a pattern tool no rule would see what a glob may match:
	// it asks, and the command is not read-only.
	plain := Subjects(WithReadTool("Read", "p"), WithReadOnlyField("ro"))
	subs, err := plain(json.RawMessage(`{"command":"ls *.md"}`))
	if err != nil || len(subs) != 2 || containsReadOnlyMember(subs[0].Args) || subs[1].Unseen == "" {
		t.Errorf("ls *.md without a pattern tool: %+v, %v", subs, err)
	}
	for _, r := range rows {
		subs, err := split(json.RawMessage(`{"command":` + quoteJSON(r.command) + `}`))
		if err != nil {
			t.Fatalf("%q: %v", r.command, err)
		}
		readOnly, seen := false, false
		for _, s := range subs {
			if s.Tool == "" && json.Valid(s.Args) && containsReadOnlyMember(s.Args) {
				readOnly = true
			}
			if s.Tool == "Read" && !s.Constrain {
				seen = s.Unseen == ""
			}
		}
		if readOnly != r.readOnly || seen != r.seen {
			t.Errorf("%q: read-only %v, read seen %v; want %v, %v", r.command, readOnly, seen, r.readOnly, r.seen)
		}
	}
}

// containsReadOnlyMember reports whether a command subject is marked
// read-only under the member "ro".
func containsReadOnlyMember(args []byte) bool {
	var m map[string]any
	return json.Unmarshal(args, &m) == nil && m["ro"] == true
}
