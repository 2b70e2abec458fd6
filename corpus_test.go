package agentpolicy

// This file runs the grammar and matcher files of the conformance corpus,
// testdata/policy, and is meant to be read as an example of how any
// implementation consumes them. Each file is {"cases": [...]}, decoded with
// unknown members refused, so a case cannot say something a runner
// silently ignores, and a member a case leaves out is its zero value. The
// expected error texts are built here from the contract's table, not taken
// from the implementation, so the runner checks the words a host sees.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// loadCorpus decodes testdata/policy/<name> into v, refusing unknown members
// and anything after the one JSON document.
func loadCorpus(t testing.TB, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "policy", name))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Fatalf("%s: text after the document", name)
	}
}

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

// grammarErrorTexts is the contract's table of grammar errors: the words
// after `agentpolicy: rule "<token>": ` for each kind.
var grammarErrorTexts = map[string]string{
	"unbalanced_parentheses": "unbalanced parentheses",
	"missing_tool_name":      "missing tool name",
	"empty_specifier":        "empty specifier",
	"empty_carve_out":        "empty carve-out",
	"text_after_specifier":   "text after the specifier",
}

func TestCorpusGrammar(t *testing.T) {
	var corpus struct {
		Cases []grammarCase `json:"cases"`
	}
	loadCorpus(t, "grammar.json", &corpus)
	if n := len(corpus.Cases); n < 30 {
		t.Errorf("grammar.json has %d cases, want at least 30", n)
	}
	kinds := map[string]bool{}
	for _, c := range corpus.Cases {
		t.Run(c.Name, func(t *testing.T) {
			rules, err := ParseRules(c.Input)
			if c.Error != nil {
				kinds[c.Error.Kind] = true
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
				if got.Tool != want.Tool || got.Spec != want.Spec || got.Source != (Source{}) || got.Note != "" {
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
		})
	}
	for kind := range grammarErrorTexts {
		if !kinds[kind] {
			t.Errorf("grammar.json has no case of the error %s", kind)
		}
	}
}

// runGrammarError checks that a case failed with the exact text the
// contract gives its kind.
func runGrammarError(t *testing.T, c grammarCase, rules []Rule, err error) {
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

// matcherCase is one case of matchers.json: a matcher over the field
// "command", a specifier, the arguments as JSON or as raw text that is not
// JSON, and whether the specifier matches.
type matcherCase struct {
	Matcher string          `json:"matcher"`
	Spec    string          `json:"spec"`
	Args    json.RawMessage `json:"args"`
	Raw     string          `json:"raw"`
	Match   bool            `json:"match"`
}

func TestCorpusMatchers(t *testing.T) {
	var corpus struct {
		Cases []matcherCase `json:"cases"`
	}
	loadCorpus(t, "matchers.json", &corpus)
	if n := len(corpus.Cases); n < 40 {
		t.Errorf("matchers.json has %d cases, want at least 40", n)
	}
	matchers := map[string]Matcher{
		"glob":   GlobMatcher("command"),
		"prefix": PrefixMatcher("command"),
	}
	seen := map[string]int{}
	for i, c := range corpus.Cases {
		args := c.Args
		if args == nil {
			args = json.RawMessage(c.Raw)
		} else if c.Raw != "" {
			t.Fatalf("case %d has both args and raw", i)
		}
		t.Run(fmt.Sprintf("%d %s %q on %s", i, c.Matcher, c.Spec, args), func(t *testing.T) {
			m, ok := matchers[c.Matcher]
			if !ok {
				t.Fatalf("unknown matcher %q", c.Matcher)
			}
			seen[c.Matcher]++
			if got := m(c.Spec, args); got != c.Match {
				t.Errorf("match = %v, want %v", got, c.Match)
			}
		})
	}
	for name := range matchers {
		if seen[name] == 0 {
			t.Errorf("matchers.json has no case for the %s matcher", name)
		}
	}
}
