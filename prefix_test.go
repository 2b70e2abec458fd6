package agentpolicy

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// opaque hides a matcher behind a func of its own, so the engine calls it
// rule by rule as it calls a host's.
func opaque(m Matcher) Matcher {
	return func(spec string, args json.RawMessage) bool { return m(spec, args) }
}

func TestBuiltinMatchersAreRecognised(t *testing.T) {
	if got, ok := builtinOf(PrefixMatcher("command")); !ok || got != (builtin{"command", prefixLanguage}) {
		t.Errorf("builtinOf(PrefixMatcher) = %+v, %v", got, ok)
	}
	if got, ok := builtinOf(GlobMatcher("path")); !ok || got != (builtin{"path", globLanguage}) {
		t.Errorf("builtinOf(GlobMatcher) = %+v, %v", got, ok)
	}
	first, again := PrefixMatcher("command"), PrefixMatcher("command")
	if closure(first) != closure(again) {
		t.Error("two PrefixMatcher(\"command\") are different matchers")
	}
	if closure(PrefixMatcher("command")) == closure(GlobMatcher("command")) {
		t.Error("the prefix and the glob matcher of one field are the same matcher")
	}
	for _, m := range []Matcher{nil, opaque(PrefixMatcher("command")), func(string, json.RawMessage) bool { return true }} {
		if got, ok := builtinOf(m); ok {
			t.Errorf("builtinOf(a host's matcher) = %+v, want none", got)
		}
	}
}

func TestLiteralPrefix(t *testing.T) {
	for _, tc := range []struct {
		lang       language
		spec, want string
	}{
		{prefixLanguage, "git status:*", "git status"},
		{prefixLanguage, "git status", "git status"},
		{prefixLanguage, "a*b:*", "a*b"}, // a literal star
		{prefixLanguage, ":*", ""},
		{globLanguage, "git status:*", "git status"},
		{globLanguage, "git * main:*", "git "},
		{globLanguage, "* --version", ""},
		{globLanguage, ":*", ""},
		{globLanguage, "*", ""},
		{globLanguage, "ls*", "ls"},
		{globLanguage, "ls", "ls"},
	} {
		b := builtin{field: "command", lang: tc.lang}
		if got := b.literal(tc.spec); got != tc.want {
			t.Errorf("literal(%d, %q) = %q, want %q", tc.lang, tc.spec, got, tc.want)
		}
		// Whatever the literal, a value that does not begin with it
		// must not match: the index would never try the rule.
		for _, value := range []string{"", "g", "git", "git statu", "x git status", "ls", "l", "node --version", "git log main"} {
			if !strings.HasPrefix(value, tc.want) && b.matches(tc.spec, value) {
				t.Errorf("%q matches %q, which does not begin with its literal %q", tc.spec, value, tc.want)
			}
		}
	}
}

func TestPrefixIndexFindsRulesInListOrder(t *testing.T) {
	m := PrefixMatcher("command")
	p := Policy{Default: Ask()}
	// Literals nested in each other and out of list order, with a bare
	// rule and a rule with an empty literal tried always between them.
	for _, spec := range []string{"git status:*", "git:*", "", "gi:*", ":*", "git status --short", "g:*", "git statu:*", "h:*", "i:*"} {
		p.Allow = append(p.Allow, Rule{Tool: "bash", Spec: spec})
	}
	e := mustBuild(t, p, map[string]ToolMatcher{"bash": {Match: m}})
	tr := e.snap.Load().rulesFor("bash")
	ix := tr.index[allowList]
	if ix == nil {
		t.Fatal("the allow list has no index")
	}
	if want := []int32{2, 4}; !slices.Equal(ix.always, want) {
		t.Errorf("always = %v, want %v", ix.always, want)
	}
	for _, tc := range []struct {
		value string
		want  []int32
	}{
		{"git status --short", []int32{0, 1, 3, 5, 6, 7}},
		{"git status", []int32{0, 1, 3, 6, 7}},
		{"git log", []int32{1, 3, 6}},
		{"h", []int32{8}},
		{"i x", []int32{9}},
		{"", nil},
		{"xyz", nil},
	} {
		var buf [2]int32 // smaller than the hits, so the walk outgrows it
		if got := ix.hits(tc.value, buf[:0]); !slices.Equal(got, tc.want) {
			t.Errorf("hits(%q) = %v, want %v", tc.value, got, tc.want)
		}
		sub := &reading{tool: "bash", args: commandArgs(tc.value)}
		c := tr.cursor(allowList, sub, nil)
		var walked []int32
		for en := c.next(); en != nil; en = c.next() {
			for i := range tr.lists[allowList] {
				if &tr.lists[allowList][i] == en {
					walked = append(walked, int32(i))
				}
			}
		}
		want := slices.Sorted(slices.Values(append(slices.Clone(tc.want), ix.always...)))
		if !slices.Equal(walked, want) {
			t.Errorf("cursor(%q) walked %v, want %v", tc.value, walked, want)
		}
	}
	// A subject without the member reaches only the rules tried always.
	c := tr.cursor(allowList, &reading{tool: "bash", args: json.RawMessage(`{"path":"git"}`)}, nil)
	var n int
	for en := c.next(); en != nil; en = c.next() {
		n++
	}
	if n != len(ix.always) {
		t.Errorf("a subject without the member walked %d rules, want %d", n, len(ix.always))
	}
}

func TestListsWithFewFiledRulesHaveNoIndex(t *testing.T) {
	p := Policy{Default: Ask()}
	for i := range 3 * indexFrom {
		p.Deny = append(p.Deny, Rule{Tool: "bash"}, Rule{Tool: "mcp__*"})
		p.Ask = append(p.Ask, Rule{Tool: "bash", Spec: fmt.Sprintf("rm%d:*", i)})
	}
	for i := range indexFrom - 1 {
		p.Allow = append(p.Allow, Rule{Tool: "bash", Spec: fmt.Sprintf("ls%d:*", i)}, Rule{Tool: "bash", Spec: ":*"})
	}
	for _, m := range []Matcher{opaque(PrefixMatcher("command")), PrefixMatcher("command")} {
		e := mustBuild(t, p, map[string]ToolMatcher{"bash": {Match: m}})
		s := e.snap.Load()
		for _, tool := range []string{"bash", "other"} {
			for l, ix := range s.rulesFor(tool).index {
				// Only the built-in matcher's ask list has rules
				// enough to file; bare rules, globs, a host's
				// matcher and empty literals file nothing.
				if want := tool == "bash" && list(l) == askList && closure(m) == closure(PrefixMatcher("command")); (ix != nil) != want {
					t.Errorf("%s list %d has an index: %v, want %v", tool, l, ix != nil, want)
				}
			}
		}
	}
}

// TestBuiltinArgumentsDecodedOnce decides a call whose command carries an
// escape, which the reading must decode into a new string, against a
// policy whose every rule is tried and only the last allow rule matches:
// the decision allocates as much at 60 rules of the tool as at 3,000, so
// the member is decoded once, not once per rule tried.
func TestBuiltinArgumentsDecodedOnce(t *testing.T) {
	args := json.RawMessage(`{"command":"make\u0020test"}`)
	allocs := func(n int, m Matcher) float64 {
		p := Policy{Default: Ask()}
		for i := range n {
			p.Deny = append(p.Deny, Rule{Tool: "bash", Spec: fmt.Sprintf("make*x%d", i)})
			p.Ask = append(p.Ask, Rule{Tool: "bash", Spec: fmt.Sprintf("make*y%d", i)})
			p.Allow = append(p.Allow, Rule{Tool: "bash", Spec: fmt.Sprintf("make*z%d", i)})
		}
		p.Allow = append(p.Allow, Rule{Tool: "bash", Spec: "make*:*"})
		e := mustBuild(t, p, map[string]ToolMatcher{"bash": {Match: m}})
		info := callInfo("bash", args)
		if v, _ := e.Would(context.Background(), info); v.Reason != "allowed by bash(make*:*)" {
			t.Fatalf("reason = %q", v.Reason)
		}
		return testing.AllocsPerRun(20, func() { _, _ = e.Would(context.Background(), info) })
	}
	m := GlobMatcher("command")
	if few, many := allocs(20, m), allocs(1000, m); many != few {
		t.Errorf("a decision allocates %v times at 60 rules and %v at 3,000: the member is decoded per rule", few, many)
	}
	// The check can fail: a host's matcher decodes per rule tried.
	if few, many := allocs(20, opaque(m)), allocs(1000, opaque(m)); many < few+1000 {
		t.Errorf("a host's matcher allocates %v times at 60 rules and %v at 3,000", few, many)
	}
}

// The vocabulary FuzzBuiltinMatchersAsCalled builds policies and commands
// from: specifiers whose literal prefixes nest and share bytes, in both
// languages, with wildcards and carve-outs.
var (
	indexSpecs = []string{"", "a", "a:*", "ab:*", "ab", "a b:*", "a*", "a*b", "*b", ":*", "*", "b:*", "ab*:*",
		"!a:*", "!ab", "!a b:*", "!*b", "a\u00e9:*", "A:*"}
	indexArgs = []string{`{"command":%s}`, `{"Command":%s}`, `{"command":%s,"x":1}`, `{"path":%s}`, `{"command":1}`, `[%s]`,
		`{"command":%s,"COMMAND":%[1]s}`}
)

// FuzzBuiltinMatchersAsCalled decides one call three times over one policy
// and one grant set: with the built-in matchers, read once per subject and
// found through the prefix index; with the same matchers hidden from the
// engine, called rule by rule as a host's are; and hidden but described by
// their [BuiltinIndex], found as a host's indexed matcher's rules are
// ([WithIndex]). The verdicts must be the same.
func FuzzBuiltinMatchersAsCalled(f *testing.F) {
	f.Add([]byte{0, 2, 0, 1, 3, 1, 2, 6, 2}, "ab c", uint8(0), false, uint8(0))
	f.Add([]byte{2, 9, 0, 2, 2, 1, 1, 13, 0}, "a b", uint8(2), true, uint8(1))
	f.Add([]byte{0, 17, 0, 2, 8, 2, 2, 12, 0}, `a\u00e9 x`, uint8(1), true, uint8(6))
	f.Add([]byte{1, 2, 0, 2, 3, 0x41, 2, 6, 0x42}, "ab c", uint8(2), false, uint8(0))
	// Lists long enough to be indexed, of every specifier.
	var long []byte
	for i := range 3 * len(indexSpecs) {
		long = append(long, byte(i%3), byte(i/3), byte(i%3)|byte(i%5/4)<<6)
	}
	f.Add(long, "ab c", uint8(2), false, uint8(0))
	f.Add(long, "a b", uint8(0), true, uint8(1))
	f.Add(long, "ab", uint8(1), true, uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, cmd string, dflt uint8, glob bool, shape uint8) {
		p := Policy{Default: []Default{Allow(), Deny(), Ask()}[dflt%3]}
		set := RuleSet{Source: Source{Name: "skill:x", Trusted: true, Rank: 1}}
		for i := 0; i+2 < len(data) && i < 3*64; i += 3 {
			r := Rule{Tool: "bash", Spec: indexSpecs[int(data[i+1])%len(indexSpecs)], Source: Source{Rank: int(data[i+2] % 3)}}
			if data[i+2]&0x80 != 0 {
				r.Tool = "b*"
				r.Spec = ""
			}
			switch l := data[i] % 3; {
			case data[i+2]&0x40 != 0 && !r.Glob():
				// An allow rule of a grant set, which may shadow
				// the policy's ask rules.
				set.Allow = append(set.Allow, r)
			case l == 0:
				p.Deny = append(p.Deny, r)
			case l == 1 || r.Glob():
				p.Ask = append(p.Ask, r)
			default:
				p.Allow = append(p.Allow, r)
			}
		}
		m := PrefixMatcher("command")
		if glob {
			m = GlobMatcher("command")
		}
		quoted, _ := json.Marshal(cmd)
		args := json.RawMessage(fmt.Sprintf(indexArgs[int(shape)%len(indexArgs)], quoted))
		built := mustBuild(t, p, map[string]ToolMatcher{"bash": {Match: m}})
		called := mustBuild(t, p, map[string]ToolMatcher{"bash": {Match: opaque(m)}})
		wrapped := opaque(m)
		ix, _ := BuiltinIndex(m)
		indexed := mustBuild(t, p, map[string]ToolMatcher{"bash": {Match: wrapped}}, WithIndex(wrapped, ix))
		if len(set.Allow) > 0 {
			granted, _ := built.GrantSet(context.Background(), set)
			for _, e := range []*Engine{called, indexed} {
				if again, _ := e.GrantSet(context.Background(), set); !reflect.DeepEqual(granted, again) {
					t.Fatalf("GrantSet granted %v and %v", granted, again)
				}
			}
		}
		info := callInfo("bash", args)
		want, err := called.Would(context.Background(), info)
		if err != nil {
			t.Fatal(err)
		}
		for name, e := range map[string]*Engine{"built-in": built, "indexed": indexed} {
			got, err := e.Would(context.Background(), info)
			if err != nil {
				t.Fatal(err)
			}
			if got.Action != want.Action || got.Reason != want.Reason || !reflect.DeepEqual(got.Rule, want.Rule) {
				t.Fatalf("policy %+v\nargs %s\n%s {%s %q %v}\ncalled {%s %q %v}", p, args, name,
					actionWord(got.Action), got.Reason, got.Rule, actionWord(want.Action), want.Reason, want.Rule)
			}
		}
	})
}

// TestBuiltinMatchersConcurrently makes and recognises matchers from many
// goroutines at once, as hosts building engines in parallel do; the race
// detector reads it.
func TestBuiltinMatchersConcurrently(t *testing.T) {
	done := make(chan Matcher)
	for i := range 8 {
		go func() {
			field := fmt.Sprintf("field%d", i%2)
			m := PrefixMatcher(field)
			if b, ok := builtinOf(m); !ok || b.field != field {
				t.Errorf("builtinOf(PrefixMatcher(%q)) = %+v, %v", field, b, ok)
			}
			done <- m
		}()
	}
	for range 8 {
		<-done
	}
}
