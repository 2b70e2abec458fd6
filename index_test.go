package agentpolicy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
)

// dirMatcher is a host's matcher of directory specifiers over the "path"
// member: "src" matches "src" and everything under it, and the index
// files each under its text. It counts the calls the engine makes.
type dirMatcher struct{ calls int }

func (d *dirMatcher) match(spec string, args json.RawMessage) bool {
	d.calls++
	path, ok, err := Field(args, "path")
	return ok && err == nil && (path == spec || strings.HasPrefix(path, spec+"/"))
}

func (d *dirMatcher) index() Index {
	return Index{
		Key: func(args json.RawMessage) (string, bool) {
			path, ok, err := Field(args, "path")
			return path, ok && err == nil
		},
		Literal: func(spec string) string {
			if spec == "tmp" {
				return "" // a rule the index chooses to try always
			}
			return spec
		},
	}
}

// dirPolicy has 30 rules per list for the "read" tool, so each list is
// long enough to file.
func dirPolicy() Policy {
	p := Policy{Default: Ask()}
	for i := range 30 {
		p.Deny = append(p.Deny, Rule{Tool: "read", Spec: fmt.Sprintf("secret%02d", i)})
		p.Ask = append(p.Ask, Rule{Tool: "read", Spec: fmt.Sprintf("private%02d", i)})
		p.Allow = append(p.Allow, Rule{Tool: "read", Spec: fmt.Sprintf("src%02d", i)})
	}
	p.Deny = append(p.Deny, Rule{Tool: "read", Spec: "tmp"})
	p.Allow = append(p.Allow, Rule{Tool: "read", Spec: "src29/gen"})
	return p
}

// TestIndexedMatcherDecidesAsCalled decides the same calls with a host's
// matcher indexed and with it called for every rule: the verdicts are the
// same, and the indexed engine calls the matcher only for the rules whose
// literal the path begins with, and those filed under "".
func TestIndexedMatcherDecidesAsCalled(t *testing.T) {
	plain, indexed := &dirMatcher{}, &dirMatcher{}
	p := dirPolicy()
	slow := mustBuild(t, p, map[string]ToolMatcher{"read": {Match: plain.match}})
	m := indexed.match
	fast := mustBuild(t, p, map[string]ToolMatcher{"read": {Match: m}}, WithIndex(m, indexed.index()))
	for _, tc := range []struct {
		path, reason string
		calls        int
	}{
		{"src29/gen/x.go", "allowed by read(src29)", 2}, // tmp, then src29, first of src29 and src29/gen
		{"src07/a.go", "allowed by read(src07)", 2},
		{"secret03/key", "denied by read(secret03)", 1},
		{"tmp/x", "denied by read(tmp)", 1},
		{"private11", "approval required by read(private11)", 2},
		{"src070", "no rule allows read: approval required by default", 2}, // src07 is its literal, not its directory
		{"elsewhere", "no rule allows read: approval required by default", 1},
	} {
		info := callInfo("read", json.RawMessage(`{"path":"`+tc.path+`"}`))
		want, err := slow.Would(context.Background(), info)
		if err != nil {
			t.Fatal(err)
		}
		indexed.calls = 0
		got, err := fast.Would(context.Background(), info)
		if err != nil {
			t.Fatal(err)
		}
		if got.Reason != want.Reason || got.Reason != tc.reason {
			t.Errorf("%s: indexed %q, called %q, want %q", tc.path, got.Reason, want.Reason, tc.reason)
		}
		if indexed.calls != tc.calls {
			t.Errorf("%s: the indexed matcher was called %d times, want %d", tc.path, indexed.calls, tc.calls)
		}
	}
	// A subject without the key reaches only the rules tried always.
	indexed.calls = 0
	if v, _ := fast.Would(context.Background(), callInfo("read", json.RawMessage(`{"file":"x"}`))); v.Reason != "no rule allows read: approval required by default" || indexed.calls != 1 {
		t.Errorf("no key: %q after %d calls", v.Reason, indexed.calls)
	}
}

// TestIndexFollowsItsMatcher gives the index to the one matcher it
// describes: a tool with another func made the same way is not indexed,
// and a carve-out of an indexed rule still takes the path back.
func TestIndexFollowsItsMatcher(t *testing.T) {
	d := &dirMatcher{}
	m := d.match
	p := dirPolicy()
	p.Deny = append(p.Deny, Rule{Tool: "read", Spec: "!secret05/public"})
	e := mustBuild(t, p, map[string]ToolMatcher{"read": {Match: m}, "view": {Match: d.match}}, WithIndex(m, d.index()))
	s := e.snap.Load()
	if ix := s.rulesFor("read").index[denyList]; ix == nil || ix.of.index == nil {
		t.Fatal("the deny list of the indexed tool is not filed by its index")
	}
	if got := s.rulesFor("read").lists[denyList][5].literal; got != "secret05" {
		t.Errorf("literal of read(secret05) = %q", got)
	}
	// A later index for the matcher replaces an earlier one.
	again := d.index()
	again.Literal = func(spec string) string { return "x" + spec }
	e2 := mustBuild(t, p, map[string]ToolMatcher{"read": {Match: m}}, WithIndex(m, d.index()), WithIndex(m, again))
	if got := e2.snap.Load().rulesFor("read").lists[denyList][5].literal; got != "xsecret05" {
		t.Errorf("literal under the later index = %q, want xsecret05", got)
	}
	checkDecision(t, e, callInfo("read", json.RawMessage(`{"path":"secret05/public/a"}`)), agentturn.Defer, "no rule allows read: approval required by default")
	checkDecision(t, e, callInfo("read", json.RawMessage(`{"path":"secret05/key"}`)), agentturn.Block, "denied by read(secret05)")
}

func TestWithIndexRefuses(t *testing.T) {
	d := &dirMatcher{}
	m := d.match
	p := Policy{Default: Ask()}
	matchers := map[string]ToolMatcher{"read": {Match: m}, "bash": {Match: PrefixMatcher("command")}}
	for _, tc := range []struct {
		name string
		opt  Option
		want error
	}{
		{"no key", WithIndex(m, Index{Literal: d.index().Literal}), errIndexIncomplete},
		{"no literal", WithIndex(m, Index{Key: d.index().Key}), errIndexIncomplete},
		{"no matcher", WithIndex(nil, d.index()), errIndexIncomplete},
		{"a built-in matcher", WithIndex(PrefixMatcher("command"), d.index()), errIndexBuiltin},
		{"a matcher no tool has", WithIndex((&dirMatcher{}).match, d.index()), errIndexUnused},
	} {
		if _, err := Build(p, matchers, tc.opt); !errors.Is(err, tc.want) {
			t.Errorf("%s: Build = %v, want %v", tc.name, err, tc.want)
		}
	}
}

// BenchmarkDecideIndexed decides a call of a tool whose host matcher is
// indexed, against 92 rules, with and without the index.
func BenchmarkDecideIndexed(b *testing.B) {
	for _, indexed := range []bool{false, true} {
		d := &dirMatcher{}
		m := d.match
		var opts []Option
		if indexed {
			opts = append(opts, WithIndex(m, d.index()))
		}
		e, err := Build(dirPolicy(), map[string]ToolMatcher{"read": {Match: m}}, opts...)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("indexed=%v", indexed), func(b *testing.B) {
			info := callInfo("read", json.RawMessage(`{"path":"src29/gen/x.go"}`))
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Decide(ctx, info); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestBuiltinIndex(t *testing.T) {
	ix, ok := BuiltinIndex(GlobMatcher("command"))
	if !ok {
		t.Fatal("BuiltinIndex(GlobMatcher) reports none")
	}
	for args, want := range map[string]string{
		`{"command":"git log"}`:      "git log",
		`{"Command":"git log"}`:      "git log", // read as the matcher reads it
		`{"command":"git\u0020log"}`: "git log",
	} {
		if key, ok := ix.Key(json.RawMessage(args)); !ok || key != want {
			t.Errorf("Key(%s) = %q, %v; want %q", args, key, ok, want)
		}
	}
	if key, ok := ix.Key(json.RawMessage(`{"command":1}`)); ok {
		t.Errorf("Key of a number = %q, want none", key)
	}
	if got := ix.Literal("git * main:*"); got != "git " {
		t.Errorf("Literal = %q, want the glob's literal prefix", got)
	}
	if _, ok := BuiltinIndex(opaque(GlobMatcher("command"))); ok {
		t.Error("BuiltinIndex of a host's matcher reports one")
	}
}
