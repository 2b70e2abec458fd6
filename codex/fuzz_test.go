package codex

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzPrefixMatch holds an allow rule to Codex's own argv-prefix match
// ([matchesPrefix], the reading TestDifferentialCodex holds to the real
// Codex) on any words over a small alphabet that holds blanks: a command
// is allowed exactly when its words begin with the rule's. The programs
// are names the splitter's tables do not know, so no table asks.
func FuzzPrefixMatch(f *testing.F) {
	f.Add("foo bar", "foo|bar")
	f.Add("foo bar", "foo|bar baz")
	f.Add("foo bar", "foo bar")
	f.Add("foo", "foo|")
	f.Add("foo -a", "foo|-a|b")
	f.Fuzz(func(t *testing.T, rule, command string) {
		pattern := fuzzWords(strings.Fields(rule), 3)
		argv := fuzzWords(strings.Split(command, "|"), 5)
		if len(pattern) == 0 || len(argv) == 0 || argv[0] == "" || strings.ContainsAny(argv[0], " -") {
			return
		}
		for _, w := range pattern {
			if w == "" || strings.ContainsAny(w, " ") {
				return
			}
		}
		quoted := make([]string, len(pattern))
		for i, w := range pattern {
			quoted[i] = fmt.Sprintf("%q", w)
		}
		eng := engineOf(t, map[string]string{"f.rules": "prefix_rule(pattern = [" + strings.Join(quoted, ", ") + "])"})
		want := ListAsk
		if matchesPrefix(wordsOf(pattern), argv) {
			want = ListAllow
		}
		line := make([]string, len(argv))
		for i, w := range argv {
			line[i] = "'" + w + "'"
		}
		if got := word(decide(t, eng, strings.Join(line, " "))); got != want {
			t.Errorf("rule %q, words %q: got %s, want %s", pattern, argv, got, want)
		}
	})
}

// fuzzWords keeps at most n words, each over the alphabet "fobarz -".
func fuzzWords(words []string, n int) []string {
	if len(words) > n {
		words = words[:n]
	}
	out := make([]string, 0, len(words))
	for _, w := range words {
		if strings.Trim(w, "fobarz -") != "" || len(w) > 8 {
			return nil
		}
		out = append(out, w)
	}
	return out
}

// wordsOf is a pattern of one alternative per word.
func wordsOf(words []string) [][]string {
	out := make([][]string, len(words))
	for i, w := range words {
		out[i] = []string{w}
	}
	return out
}

// FuzzParse: any source either is refused with a *FileError or gives
// entries each of whose rules the engine's grammar reads back.
func FuzzParse(f *testing.F) {
	f.Add(`prefix_rule(pattern = ["git", ["status", "log"]], match = ["git status"])`)
	f.Add(`for p in ["a", "b"]:
    prefix_rule(pattern = [p, "(x"], decision = "forbidden")`)
	f.Add(`network_rule(host = "x.example", protocol = "https", decision = "prompt")`)
	f.Add(`host_executable(name = "git", paths = ["/usr/bin/git"])
prefix_rule(pattern = ["git", "*"])`)
	f.Fuzz(func(t *testing.T, src string) {
		file, err := Parse("f.rules", "codex:f", []byte(src), rankFile, true)
		if err != nil {
			return
		}
		New(file)
		for _, e := range file.Entries {
			for _, r := range e.Rules {
				if err := checkGrammar(r); err != nil {
					t.Errorf("%s: %v", e.Text, err)
				}
			}
		}
	})
}
