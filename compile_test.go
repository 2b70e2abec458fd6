package agentpolicy

import "testing"

// TestCompileRuleTexts checks the texts a compiled rule is cited by: its
// reason, with the note of a trusted or unnamed source, and its token, the
// rule alone, which compileRule reads out of the reason.
func TestCompileRuleTexts(t *testing.T) {
	e := mustBuild(t, Policy{Default: Deny()}, map[string]ToolMatcher{"bash": {Match: GlobMatcher("command")}})
	trusted := Source{Name: "team", Trusted: true}
	tests := []struct {
		l             list
		r             Rule
		token, reason string
	}{
		{denyList, Rule{Tool: "bash", Spec: "git push:*", Note: "pushes need review", Source: trusted},
			"bash(git push:*)", "denied by bash(git push:*): pushes need review"},
		{askList, Rule{Tool: "bash", Spec: "git push:*", Note: "pushes need review", Source: Source{Name: "repo"}},
			"bash(git push:*)", "approval required by bash(git push:*)"},
		{allowList, Rule{Tool: "bash", Note: "the session's own"}, "bash", "allowed by bash: the session's own"},
		{allowList, Rule{Tool: "read"}, "read", "allowed by read"},
		{denyList, Rule{Tool: "bash", Spec: "x: y", Note: "x: y"}, "bash(x: y)", "denied by bash(x: y): x: y"},
	}
	for _, tt := range tests {
		var c compiled
		e.compileRule(&c, tt.l, tt.r, e.matcherOf(tt.r.Tool))
		if c.token != tt.token || c.reason != tt.reason {
			t.Errorf("compileRule(%#v) cited as %q, %q; want %q, %q", tt.r, c.token, c.reason, tt.token, tt.reason)
		}
	}
}

// TestTokenLen checks that tokenLen is the length of the rule's text.
func TestTokenLen(t *testing.T) {
	for _, r := range []Rule{{Tool: "read"}, {Tool: "bash", Spec: "git status:*"}, {Tool: "r", Spec: "!x"}, {}} {
		if got, want := r.tokenLen(), len(r.String()); got != want {
			t.Errorf("%#v.tokenLen() = %d, want %d", r, got, want)
		}
	}
}
