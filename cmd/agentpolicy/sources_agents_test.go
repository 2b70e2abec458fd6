package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// agentFlags read the agents fixture: Codex CLI's home and a project
// with Codex rules of its own, Gemini CLI's home, and no settings of the
// machine the test runs on.
var agentFlags = []string{"--project", "testdata/agents/project", "--user-dir", "testdata/nowhere", "--managed-dir", "testdata/nowhere",
	"--codex-home", "testdata/agents/codex", "--gemini-home", "testdata/agents/gemini"}

// explainText runs explain and returns the decision and the rule it
// prints, the rule as its file writes it.
func explainText(t *testing.T, args ...string) (decision, rule string) {
	t.Helper()
	out, errOut, code := cli(t, append(append([]string{"explain"}, agentFlags...), args...)...)
	if code != 0 {
		t.Fatalf("explain %v: %d %s", args, code, errOut)
	}
	for _, line := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(line, "decision:"); ok {
			decision = strings.TrimSpace(v)
		}
		if v, ok := strings.CutPrefix(line, "rule:"); ok {
			rule = strings.TrimSpace(v)
		}
	}
	return decision, rule
}

// TestExplainAgents: Codex's and Gemini CLI's rules decide beside Claude
// Code's, each named as its file writes it.
func TestExplainAgents(t *testing.T) {
	for _, c := range []struct {
		command        []string
		decision, rule string
	}{
		// Codex forbids rm in a compound line, with its own words.
		{[]string{"git", "status", "&&", "rm", "-rf", "x"}, "deny", `prefix_rule(pattern = ["rm"], decision = "forbidden", justification = "use the trash")`},
		// The untrusted project's Codex prompt rule applies; Gemini's
		// deny of the shell is stricter still.
		{[]string{"curl", "https://example.com"}, "deny", `toolName = "run_shell_command", decision = "deny", priority = 1`},
		// Gemini's allow at 100 over its deny of the shell at 1.
		{[]string{"npm", "test"}, "allow", `toolName = "run_shell_command", commandPrefix = ["git status", "npm test"], decision = "allow", priority = 100`},
		// Gemini's deny of the shell at 1 decides what nothing above allows.
		{[]string{"ls"}, "deny", `toolName = "run_shell_command", decision = "deny", priority = 1`},
	} {
		decision, rule := explainText(t, append([]string{"Bash", "--"}, c.command...)...)
		if decision != c.decision || (c.rule != "" && rule != c.rule) {
			t.Errorf("%v: got %s by %q, want %s by %q", c.command, decision, rule, c.decision, c.rule)
		}
	}
}

// TestCodexProjectRules: a project's Codex rules are found without a flag;
// its prompt rule asks though the project is not trusted, and its allow
// rule is withheld until config.toml trusts it.
func TestCodexProjectRules(t *testing.T) {
	flags := []string{"explain", "--project", "testdata/agents/project", "--user-dir", "testdata/nowhere", "--managed-dir", "testdata/nowhere"}
	out, _, code := cli(t, append(flags, "Bash", "--", "curl", "https://example.com")...)
	if code != 0 || !strings.Contains(out, "decision:  ask") || !strings.Contains(out, `prefix_rule(pattern = ["curl"], decision = "prompt", justification = "the team reviews downloads")`) {
		t.Errorf("curl: %d %s", code, out)
	}
	out, _, _ = cli(t, append(flags, "Bash", "--", "npm", "publish")...)
	if !strings.Contains(out, "decision:  ask") || !strings.Contains(out, `withheld until the project is trusted`) || !strings.Contains(out, `allow prefix_rule(pattern = ["npm", "publish"])`) {
		t.Errorf("npm publish: want an ask naming the withheld rule: %s", out)
	}
}

// TestGeminiAllowDoesNotLiftAnotherDeny: a Gemini rule of the highest
// priority cancels only Gemini's own lower rules, never a Claude Code
// deny; the same command without the Claude Code rule is allowed.
func TestGeminiAllowDoesNotLiftAnotherDeny(t *testing.T) {
	if decision, rule := explainText(t, "--settings", `{"permissions":{"deny":["Bash(git push:*)"]}}`, "Bash", "--", "git", "push"); decision != "deny" || rule != "Bash(git push:*)" {
		t.Errorf("with a Claude Code deny: got %s by %s", decision, rule)
	}
	if decision, _ := explainText(t, "Bash", "--", "git", "push"); decision != "allow" {
		t.Errorf("without it: got %s, want Gemini's allow at 999", decision)
	}
}

// TestLintAgents: lint reports a Codex prefix the splitter never lets
// allow, a Codex rule it cannot write and a Gemini expression searched
// rather than matched; their twins draw nothing.
func TestLintAgents(t *testing.T) {
	out, _, code := cli(t, append([]string{"lint", "--json"}, agentFlags...)...)
	if code != exitFailed {
		t.Fatalf("lint exited %d, want %d: %s", code, exitFailed, out)
	}
	var report struct {
		Files    []fileRead `json:"files"`
		Findings []finding  `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(report.Files) == 0 {
		t.Errorf("lint --json lists no file read: %s", out)
	}
	findings := report.Findings
	byRule := map[string][]string{}
	for _, f := range findings {
		byRule[f.Rule] = append(byRule[f.Rule], f.Kind)
	}
	for rule, want := range map[string]string{
		`prefix_rule(pattern = ["timeout", "5", "make"])`:                                          "wrapper_prefix",
		`prefix_rule(pattern = ["echo", "a b"])`:                                                   "untranslatable",
		`toolName = "run_shell_command", commandRegex = "npm", decision = "allow", priority = 100`: "broad_regex",
	} {
		if !slices.Contains(byRule[rule], want) {
			t.Errorf("%s: got %v, want %s", rule, byRule[rule], want)
		}
	}
	for _, twin := range []string{
		`prefix_rule(pattern = ["make", "test"])`,
		`prefix_rule(pattern = ["git", ["status", "log"]])`,
		`toolName = "run_shell_command", commandRegex = "make (?:build|test)(?:\\s|\"|$)", decision = "allow", priority = 100`,
	} {
		if kinds := byRule[twin]; len(kinds) > 0 {
			t.Errorf("%s: got %v, want nothing", twin, kinds)
		}
	}
}

// TestPolicyTestAgents: test checks the other agents' rules, naming them
// as their files write them; a wrong expectation fails.
func TestPolicyTestAgents(t *testing.T) {
	out, errOut, code := cli(t, append(append([]string{"test"}, agentFlags...), "testdata/agents/policy_test.json")...)
	if code != 0 {
		t.Fatalf("test exited %d: %s %s", code, out, errOut)
	}
	wrong := filepath.Join(t.TempDir(), "wrong.json")
	if err := os.WriteFile(wrong, []byte(`{"tests": [{"name": "ls", "tool": "Bash", "command": "ls", "want": "allow"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, _, code := cli(t, append(append([]string{"test"}, agentFlags...), wrong)...); code != exitFailed || !strings.Contains(out, `toolName = "run_shell_command", decision = "deny", priority = 1`) {
		t.Errorf("a wrong expectation: exit %d: %s", code, out)
	}
}

// TestGeminiToolsExact: a Gemini CLI rule for read_file governs Read
// alone and one for replace Edit alone, though Claude Code's Read reaches
// Grep and its Edit reaches Write.
func TestGeminiToolsExact(t *testing.T) {
	policy := filepath.Join(t.TempDir(), "p.toml")
	if err := os.WriteFile(policy, []byte(`[[rule]]
toolName = "read_file"
decision = "allow"
priority = 10

[[rule]]
toolName = "replace"
decision = "allow"
priority = 10
`), 0o600); err != nil {
		t.Fatal(err)
	}
	flags := []string{"explain", "--project", "testdata/agents/project", "--user-dir", "testdata/nowhere", "--managed-dir", "testdata/nowhere", "--gemini-policy", policy}
	for _, c := range []struct{ tool, args, decision, rule string }{
		{"Read", `{"file_path": "/etc/hostname"}`, "allow", `toolName = "read_file", decision = "allow", priority = 10`},
		{"Grep", `{"pattern": "x", "path": "/etc"}`, "ask", ""},
		{"Edit", `{"file_path": "/etc/hostname", "old_string": "a", "new_string": "b"}`, "allow", `toolName = "replace", decision = "allow", priority = 10`},
		{"Write", `{"file_path": "/etc/hostname", "content": "x"}`, "ask", ""},
	} {
		out, errOut, code := cli(t, append(flags, c.tool, c.args)...)
		if code != 0 || !strings.Contains(out, "decision:  "+c.decision) || (c.rule != "" && !strings.Contains(out, "rule:      "+c.rule)) {
			t.Errorf("%s: %d %s%s", c.tool, code, out, errOut)
		}
	}
}

// TestCodexWordsInTheMergedEngine: beside Claude Code's rules, a Codex
// allow rule matches the words a program is given, as Codex does, not
// the normalised command; its twin with the same words as written runs.
func TestCodexWordsInTheMergedEngine(t *testing.T) {
	flags := []string{"explain", "--project", "testdata/agents/project", "--user-dir", "testdata/nowhere", "--managed-dir", "testdata/nowhere", "--codex-home", "testdata/agents/codex"}
	for _, c := range []struct{ command, decision string }{
		{`make test`, "allow"},
		{`make test -j4 && make "test"`, "allow"},
		{`make 'test -j4'`, "ask"},
		{`'make test'`, "ask"},
		{`make test 'a b'`, "allow"},
	} {
		out, errOut, code := cli(t, append(flags, "Bash", `{"command": `+strconvQuote(c.command)+`}`)...)
		if code != 0 || !strings.Contains(out, "decision:  "+c.decision) {
			t.Errorf("%s: %d %s%s", c.command, code, out, errOut)
		}
	}
}

// strconvQuote is a JSON string of s.
func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
