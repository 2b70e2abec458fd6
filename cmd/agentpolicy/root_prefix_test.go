package main

import "testing"

// An error keeps the command's one prefix: the packages' own, at the front
// of the error or of an error wrapped in it, go; the same words inside a
// message stay.
func TestOneLineDropsOnlyPackagePrefixes(t *testing.T) {
	for in, want := range map[string]string{
		"agentpolicy: agentpolicy/claudecode: a.json: bad":                       "a.json: bad",
		"hook: agentpolicy/pgjournal: postgres://h/db: agentpolicy/pgjournal: x": "hook: postgres://h/db: x",
		"schema is newer than this agentpolicy: upgrade agentpolicy":             "schema is newer than this agentpolicy: upgrade agentpolicy",
		"agentpolicy/: not a prefix":                                             "agentpolicy/: not a prefix",
		"a\n  b":                                                                 "a b",
	} {
		if got := oneLine(in); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", in, got, want)
		}
	}
}
