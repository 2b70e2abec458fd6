package agentpolicy

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func FuzzParseRules(f *testing.F) {
	for _, s := range []string{
		"", "read", "read bash(git status:*) bash(npm test:*)", "Edit(./Finance (2024)/**)",
		"read(!.env.example)", "Read(!)", "Bash()", "(x)", "Bash(a)(b)", "Bash git)", "Bash(git status",
		"a\u00a0b\u0085c", "a\tb\nc\vd\fe\rf", "mcp__* Bash(((a)))",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rules, err := ParseRules(s)
		if err != nil {
			var ge *grammarError
			if !errors.As(err, &ge) || grammarTexts[ge.kind] == "" || ge.kind == kindInvalidName {
				t.Fatalf("ParseRules(%q) failed with %v, not one of the grammar's errors", s, err)
			}
			if !strings.Contains(s, ge.token) {
				t.Fatalf("ParseRules(%q) quotes %q, which is not in the input", s, ge.token)
			}
			return
		}
		tokens := make([]string, len(rules))
		for i, r := range rules {
			if err := validateRule(r); err != nil {
				t.Fatalf("ParseRules(%q) gave %#v, which validateRule refuses: %v", s, r, err)
			}
			tokens[i] = r.String()
		}
		again, err := ParseRules(strings.Join(tokens, " "))
		if err != nil {
			t.Fatalf("rules of %q re-rendered as %q do not parse: %v", s, tokens, err)
		}
		if len(again) != len(rules) {
			t.Fatalf("rules of %q re-parse as %d rules, want %d", s, len(again), len(rules))
		}
		for i := range rules {
			if again[i] != rules[i] {
				t.Fatalf("rule %d of %q re-parses as %#v, want %#v", i, s, again[i], rules[i])
			}
		}
	})
}

func FuzzGlobMatcher(f *testing.F) {
	for _, c := range []struct{ spec, value, raw string }{
		{"git log * main", "git log --oneline main", `{"command":"git log main"}`},
		{"ls:*", "ls -la", `{"command":"ls\t-la"}`},
		{":*", "", `{"command":""}`},
		{"*a*a*a*b", "aaaaaaaaaaaaaaaaaaaa", `{"command":1,"command":"ab"}`},
		{"a*", "a", "command=ls"},
		{"*:*", "x y", `{"comm\u0061nd":"x y","z":[{"a":null},-1.5e3,true]}`},
	} {
		f.Add(c.spec, c.value, []byte(c.raw))
	}
	glob, prefix := GlobMatcher("command"), PrefixMatcher("command")
	f.Fuzz(func(t *testing.T, spec, value string, raw []byte) {
		args, err := json.Marshal(map[string]string{"command": value})
		if err != nil {
			t.Fatal(err)
		}
		// encoding/json replaces invalid UTF-8, and the matcher reads
		// what it decodes to.
		var decoded struct{ Command string }
		if err := json.Unmarshal(args, &decoded); err != nil {
			t.Fatal(err)
		}
		if got, want := glob(spec, args), refGlob(spec, decoded.Command); got != want {
			t.Fatalf("glob %q on %q = %v, reference %v", spec, decoded.Command, got, want)
		}
		if got, want := (Rule{Tool: spec}).MatchesTool(value), refStar(spec, value); got != want {
			t.Fatalf("Rule{Tool: %q}.MatchesTool(%q) = %v, reference %v", spec, value, got, want)
		}

		field, ok, unambiguous := refField(raw)
		if got, want := glob(spec, raw), ok && refGlob(spec, field); got != want && (unambiguous || got) {
			t.Fatalf("glob %q on %q = %v, reference %v", spec, raw, got, want)
		}
		if got, want := prefix(spec, raw), ok && refPrefix(spec, field); got != want && (unambiguous || got) {
			t.Fatalf("prefix %q on %q = %v, reference %v", spec, raw, got, want)
		}
	})
}

// refField is the "command" member of raw as encoding/json decodes it into
// a string field tagged "command", and whether raw is unambiguous as a
// whole. The built-in matchers read that member from arguments the engine
// finds unambiguous; from others, which the engine blocks before any
// matcher reads them, they read it or nothing.
func refField(raw []byte) (value string, ok, unambiguous bool) {
	var a struct {
		Command *string `json:"command"`
	}
	_, _, err := checkArgs(raw, "")
	if json.Unmarshal(raw, &a) != nil || a.Command == nil {
		return "", false, err == nil
	}
	return *a.Command, true, err == nil
}

// refGlob is GlobMatcher's language read straight from the contract: ":*"
// alone matches everything; a trailing ":*" matches when the rest of the
// pattern matches the whole value or the part before one of its spaces;
// anything else is a star pattern over the whole value.
func refGlob(spec, value string) bool {
	if spec == ":*" {
		return true
	}
	p, boundary := strings.CutSuffix(spec, ":*")
	if !boundary {
		return refStar(spec, value)
	}
	prefixes := refPrefixes(p, value)
	for j, ok := range prefixes {
		if ok && (j == len(value) || value[j] == ' ') {
			return true
		}
	}
	return false
}

// refPrefix is PrefixMatcher's language read straight from the contract.
func refPrefix(spec, value string) bool {
	if p, ok := strings.CutSuffix(spec, ":*"); ok {
		return strings.HasPrefix(value, p)
	}
	return spec == value
}

// refStar matches a pattern where "*" is any run of bytes against the
// whole value.
func refStar(pattern, value string) bool {
	return refPrefixes(pattern, value)[len(value)]
}

// refPrefixes reports, for every j, whether the pattern, where "*" is any
// run of bytes, matches value[:j], by dynamic programming over the
// pattern's bytes.
func refPrefixes(pattern, value string) []bool {
	can := make([]bool, len(value)+1)
	can[0] = true
	next := make([]bool, len(value)+1)
	for i := 0; i < len(pattern); i++ {
		for j := 0; j <= len(value); j++ {
			if pattern[i] == '*' {
				next[j] = can[j] || (j > 0 && next[j-1])
			} else {
				next[j] = j > 0 && can[j-1] && value[j-1] == pattern[i]
			}
		}
		can, next = next, can
	}
	return can
}

// FuzzReadsBack checks the shortcut validateRule takes for most rules: a
// rule readsBack reports is one whose token the grammar reads back as the
// rule, as checkToken finds writing the token.
func FuzzReadsBack(f *testing.F) {
	for _, r := range []Rule{
		{Tool: "read"}, {Tool: "bash", Spec: "git status:*"}, {Tool: "read", Spec: "!.env.example"},
		{Tool: "edit", Spec: "./Finance (2024)/**"}, {Tool: "read", Spec: "!"}, {Tool: "bash", Spec: "a)(b"},
		{Tool: "a(b)", Spec: "c"}, {Tool: "bash\t", Spec: "ls"}, {Tool: "bash", Spec: "a b"}, {Spec: "x"},
	} {
		f.Add(r.Tool, r.Spec)
	}
	f.Fuzz(func(t *testing.T, tool, spec string) {
		r := Rule{Tool: tool, Spec: spec}
		if readsBack(r) {
			if err := checkToken(r); err != nil {
				t.Fatalf("readsBack(%#v), but checkToken refuses it: %v", r, err)
			}
		}
	})
}
