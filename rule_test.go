package agentpolicy

import "testing"

func TestRuleString(t *testing.T) {
	tests := []struct {
		rule Rule
		want string
	}{
		{Rule{Tool: "read"}, "read"},
		{Rule{Tool: "bash", Spec: "git status:*"}, "bash(git status:*)"},
		{Rule{Tool: "edit", Spec: "./Finance (2024)/**"}, "edit(./Finance (2024)/**)"},
		{Rule{Tool: "read", Spec: "!.env.example"}, "read(!.env.example)"},
		{Rule{Tool: "mcp__*"}, "mcp__*"},
		{Rule{Spec: "x"}, "(x)"},
		{Rule{}, ""},
		{Rule{Tool: "bash", Spec: "curl:*", Note: "use fetch", Source: Source{Name: "user", Trusted: true}}, "bash(curl:*)"},
	}
	for _, tt := range tests {
		if got := tt.rule.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.rule, got, tt.want)
		}
	}
}

func TestRuleBare(t *testing.T) {
	tests := []struct {
		rule Rule
		want bool
	}{
		{Rule{Tool: "read"}, true},
		{Rule{Tool: "mcp__*"}, true},
		{Rule{Tool: "bash", Spec: "ls"}, false},
		{Rule{Tool: "read", Spec: "!x"}, false},
		{Rule{Tool: "bash", Spec: " "}, false},
	}
	for _, tt := range tests {
		if got := tt.rule.Bare(); got != tt.want {
			t.Errorf("%v.Bare() = %v, want %v", tt.rule, got, tt.want)
		}
	}
}

func TestRuleCarveOut(t *testing.T) {
	tests := []struct {
		rule    Rule
		pattern string
		ok      bool
	}{
		{Rule{Tool: "read", Spec: "!.env.example"}, ".env.example", true},
		{Rule{Tool: "bash", Spec: "!git push:*"}, "git push:*", true},
		{Rule{Tool: "bash", Spec: "!!x"}, "!x", true},
		{Rule{Tool: "read", Spec: "!"}, "", true},
		{Rule{Tool: "read", Spec: ".env"}, "", false},
		{Rule{Tool: "read", Spec: "a!b"}, "", false},
		{Rule{Tool: "read", Spec: " !x"}, "", false},
		{Rule{Tool: "read"}, "", false},
		{Rule{Tool: "!read"}, "", false},
	}
	for _, tt := range tests {
		pattern, ok := tt.rule.CarveOut()
		if ok != tt.ok || pattern != tt.pattern {
			t.Errorf("%v.CarveOut() = %q, %v, want %q, %v", tt.rule, pattern, ok, tt.pattern, tt.ok)
		}
	}
}

func TestRuleGlob(t *testing.T) {
	tests := []struct {
		rule Rule
		want bool
	}{
		{Rule{Tool: "mcp__*"}, true},
		{Rule{Tool: "*"}, true},
		{Rule{Tool: "*_write"}, true},
		{Rule{Tool: "bash"}, false},
		{Rule{Tool: "bash", Spec: "*"}, false},
		{Rule{Tool: "mcp__?"}, false},
	}
	for _, tt := range tests {
		if got := tt.rule.Glob(); got != tt.want {
			t.Errorf("%v.Glob() = %v, want %v", tt.rule, got, tt.want)
		}
	}
}

func TestRuleMatchesTool(t *testing.T) {
	tests := []struct {
		name, tool string
		want       bool
	}{
		{"bash", "bash", true},
		{"bash", "Bash", false},
		{"Bash", "bash", false},
		{"bash", "bash2", false},
		{"bash", "", false},
		{"mcp__*", "mcp__github__create_issue", true},
		{"mcp__*", "mcp__", true},
		{"mcp__*", "MCP__github", false},
		{"mcp__*", "xmcp__github", false},
		{"*", "anything", true},
		{"*", "", true},
		{"*_write", "file_write", true},
		{"*_write", "file_write_all", false},
		{"mcp__*__delete_*", "mcp__github__delete_repo", true},
		{"mcp__*__delete_*", "mcp__github__create_repo", false},
		{"a*a", "a", false},
		{"a*a", "aa", true},
		{"a**b", "ab", true},
		{"*a*b*c*", "xxaxxbxxcxx", true},
		{"*a*b*c*", "xxcxxbxxaxx", false},
		{"mcp__.*", "mcp__x", false},
		{"mcp__?", "mcp__x", false},
		{"mcp__?", "mcp__?", true},
	}
	for _, tt := range tests {
		if got := (Rule{Tool: tt.name}).MatchesTool(tt.tool); got != tt.want {
			t.Errorf("Rule{Tool: %q}.MatchesTool(%q) = %v, want %v", tt.name, tt.tool, got, tt.want)
		}
	}
}

func TestRuleMatchesToolIgnoresSpec(t *testing.T) {
	r := Rule{Tool: "bash", Spec: "rm:*"}
	if !r.MatchesTool("bash") {
		t.Error(`bash(rm:*) does not name the tool "bash"`)
	}
	if r.MatchesTool("rm") {
		t.Error(`bash(rm:*) names the tool "rm"`)
	}
}
