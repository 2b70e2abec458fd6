package agentpolicy_test

// The conformance corpus, testdata/policy, run by internal/corpus as the
// RFC's corpus section describes, with the checks that keep the corpus
// itself complete: enough cases in each file, a case of every grammar
// error and of every matcher, and no two decision cases of one name.

import (
	"testing"

	"github.com/ChristopherDavenport/agentpolicy/internal/corpus"
)

func TestCorpus(t *testing.T) {
	cases, err := corpus.Load("testdata/policy")
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	covered := map[string]bool{}
	names := map[string]bool{}
	for _, c := range cases {
		count[c.File]++
		covered[c.File+" "+c.Covers] = true
		if c.File == "decisions.json" {
			if names[c.Name] {
				t.Errorf("two decision cases are named %q", c.Name)
			}
			names[c.Name] = true
		}
		t.Run(c.File+"/"+c.Name, func(t *testing.T) { c.Run(t) })
	}
	for file, least := range map[string]int{"grammar.json": 30, "matchers.json": 40, "decisions.json": 40} {
		if count[file] < least {
			t.Errorf("%s has %d cases, want at least %d", file, count[file], least)
		}
	}
	for _, kind := range corpus.GrammarErrorKinds() {
		if !covered["grammar.json "+kind] {
			t.Errorf("grammar.json has no case of the error %s", kind)
		}
	}
	for _, name := range corpus.MatcherNames() {
		if !covered["matchers.json "+name] {
			t.Errorf("matchers.json has no case for the %s matcher", name)
		}
	}
}
