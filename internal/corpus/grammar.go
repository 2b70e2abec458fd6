package corpus

// This file runs grammar.json. The expected error texts are built here from
// the contract's table, not taken from the implementation, so the runner
// checks the words a host sees.

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy"
)

// grammarCase is one case of grammar.json: an input and either the rules
// it parses to or the error it fails with.
type grammarCase struct {
	Name  string `json:"name"`
	Input string `json:"input"`
	Rules []struct {
		Tool string `json:"tool"`
		Spec string `json:"spec"`
	} `json:"rules"`
	Error *struct {
		Kind  string `json:"kind"`
		Token string `json:"token"`
	} `json:"error"`
}

// GrammarErrorKinds are the grammar's error kinds, in the contract's
// table, for a check that a corpus has a case of each.
func GrammarErrorKinds() []string {
	return slices.Sorted(maps.Keys(grammarErrorTexts))
}

// grammarErrorTexts is the contract's table of grammar errors: the words
// after `agentpolicy: rule "<token>": ` for each kind.
var grammarErrorTexts = map[string]string{
	"unbalanced_parentheses": "unbalanced parentheses",
	"missing_tool_name":      "missing tool name",
	"empty_specifier":        "empty specifier",
	"empty_carve_out":        "empty carve-out",
	"text_after_specifier":   "text after the specifier",
}

// grammarCases are the cases of grammar.json.
func grammarCases(dir string) ([]Case, error) {
	var file struct {
		Cases []grammarCase `json:"cases"`
	}
	if err := load(dir, "grammar.json", &file); err != nil {
		return nil, err
	}
	cases := make([]Case, len(file.Cases))
	for i, c := range file.Cases {
		covers := ""
		if c.Error != nil {
			covers = c.Error.Kind
		}
		cases[i] = Case{File: "grammar.json", Name: c.Name, Covers: covers, run: func(t T) { runGrammarCase(t, c) }}
	}
	return cases, nil
}

// runGrammarCase parses the input and compares the rules, or the error,
// with the case's.
func runGrammarCase(t T, c grammarCase) {
	rules, err := agentpolicy.ParseRules(c.Input)
	if c.Error != nil {
		runGrammarError(t, c, rules, err)
		return
	}
	if err != nil {
		t.Fatalf("ParseRules(%q): %v", c.Input, err)
	}
	if len(rules) != len(c.Rules) {
		t.Fatalf("ParseRules(%q) gave %d rules, want %d: %v", c.Input, len(rules), len(c.Rules), rules)
	}
	rest := c.Input
	for i, want := range c.Rules {
		got := rules[i]
		if got.Tool != want.Tool || got.Spec != want.Spec || got.Source != (agentpolicy.Source{}) || got.Note != "" {
			t.Errorf("rule %d = %#v, want tool %q, spec %q, no source, no note", i, got, want.Tool, want.Spec)
		}
		// The rule renders as its token, which stands in the
		// input after the token before it.
		token := want.Tool
		if want.Spec != "" {
			token += "(" + want.Spec + ")"
		}
		if got.String() != token {
			t.Errorf("rule %d renders as %q, want %q", i, got.String(), token)
		}
		at := strings.Index(rest, token)
		if at < 0 {
			t.Fatalf("token %q is not in the input after the previous one", token)
		}
		rest = rest[at+len(token):]
	}
}

// runGrammarError checks that a case failed with the exact text the
// contract gives its kind.
func runGrammarError(t T, c grammarCase, rules []agentpolicy.Rule, err error) {
	t.Helper()
	text, ok := grammarErrorTexts[c.Error.Kind]
	if !ok {
		t.Fatalf("the case names an unknown error kind %q", c.Error.Kind)
	}
	want := fmt.Sprintf("agentpolicy: rule %q: %s", c.Error.Token, text)
	if err == nil {
		t.Fatalf("ParseRules(%q) = %v, want the error %s", c.Input, rules, want)
	}
	if err.Error() != want {
		t.Errorf("ParseRules(%q) error = %s, want %s", c.Input, err, want)
	}
	if len(rules) != 0 {
		t.Errorf("ParseRules(%q) returned rules beside its error: %v", c.Input, rules)
	}
}
