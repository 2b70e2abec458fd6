package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"text/tabwriter"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/spf13/cobra"
)

// policyFile is a policy test file: calls and what the policy must decide
// for each. A repository commits it beside its settings, and CI runs
// `agentpolicy test` over both, so a change to either that breaks an
// expectation fails the build.
//
//	{"tests": [
//	  {"name": "status runs", "tool": "Bash", "command": "git status", "want": "allow"},
//	  {"tool": "Read", "args": {"file_path": ".env"}, "want": "deny", "rule": "Read(./.env)"}
//	]}
type policyFile struct {
	Tests []policyTest `json:"tests"`
}

// policyTest is one call and its expectation. Want is "allow", "ask" or
// "deny" (the record's words "defer" and "block" are accepted too); Rule
// and Reason, when given, must equal the deciding rule's text and the
// verdict's reason exactly.
type policyTest struct {
	Name    string          `json:"name"`
	Tool    string          `json:"tool"`
	Args    json.RawMessage `json:"args"`
	Command *string         `json:"command"`
	Want    string          `json:"want"`
	Rule    string          `json:"rule"`
	Reason  string          `json:"reason"`
}

// wantActions maps the words a test may use to the action they name.
var wantActions = map[string]agentturn.ToolAction{
	"allow": agentturn.Allow,
	"ask":   agentturn.Defer,
	"defer": agentturn.Defer,
	"deny":  agentturn.Block,
	"block": agentturn.Block,
}

// failure is one test whose expectation did not hold.
type failure struct {
	file, name string
	want, got  string
	reason     string
}

func newTest(flags *settingsFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "test FILE...",
		Short: "Check a policy against the calls and decisions a repository expects",
		Long: `test decides every call of the policy test files with the loaded settings and
prints the tests whose decision differs, with the rule that decided. It exits
1 when any test fails, so a CI step keeps the settings and their expectations
true together.

A test file is JSON: {"tests": [{"name", "tool", "args" | "command", "want",
"rule"?, "reason"?}]}. "want" is allow, ask or deny; "command" is shorthand for
{"command": "..."} for a shell tool.`,
		Example: `  agentpolicy test --project . .claude/policy_test.json`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, files []string) error {
			p, err := flags.load()
			if err != nil {
				return err
			}
			flags.reportFiles(cmd.ErrOrStderr(), p)
			var failed []failure
			total := 0
			for _, file := range files {
				tests, err := readPolicyFile(file)
				if err != nil {
					return err
				}
				for i, tc := range tests {
					f, err := p.check(cmd.Context(), file, i, tc)
					if err != nil {
						return err
					}
					if f != nil {
						failed = append(failed, *f)
					}
				}
				total += len(tests)
			}
			return reportTests(cmd.OutOrStdout(), total, failed)
		},
	}
}

// readPolicyFile reads and validates one test file, refusing members it
// does not know so a test cannot say something that is silently ignored.
func readPolicyFile(path string) ([]policyTest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var pf policyFile
	if err := dec.Decode(&pf); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(pf.Tests) == 0 {
		return nil, fmt.Errorf("%s: no tests", path)
	}
	for i, tc := range pf.Tests {
		if tc.Tool == "" {
			return nil, fmt.Errorf("%s: test %d: no tool", path, i+1)
		}
		if _, ok := wantActions[tc.Want]; !ok {
			return nil, fmt.Errorf("%s: test %d: want is %q; use allow, ask or deny", path, i+1, tc.Want)
		}
	}
	return pf.Tests, nil
}

// check decides one test's call and returns its failure, or nil when the
// expectation holds. A rule is compared as its settings file writes it,
// "Bash(git push *)", or as the engine reads it, "Bash(git push:*)".
func (p *loadedPolicy) check(ctx context.Context, file string, i int, tc policyTest) (*failure, error) {
	name := tc.Name
	if name == "" {
		name = fmt.Sprintf("test %d", i+1)
	}
	if err := p.checkTool(tc.Tool); err != nil {
		return nil, fmt.Errorf("%s: %s: %v", file, name, err)
	}
	args, err := callArgs(tc.Tool, tc.Args, tc.Command)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %v", file, name, err)
	}
	v, err := p.engine.Would(ctx, callInfo(tc.Tool, args))
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %v", file, name, err)
	}
	rule := ""
	if v.Rule != nil {
		rule = p.ruleName(*v.Rule)
	}
	ok := v.Action == wantActions[tc.Want] &&
		(tc.Rule == "" || tc.Rule == rule || (v.Rule != nil && tc.Rule == v.Rule.String())) &&
		(tc.Reason == "" || tc.Reason == v.Reason)
	if ok {
		return nil, nil
	}
	reason := p.userReason(v)
	if w, ok := p.withheldFor(ctx, tc.Tool, args); ok && v.Action != agentturn.Allow {
		reason += "; the project's allow rule " + w + " is withheld until the project is trusted (--trust)"
	}
	return &failure{file: file, name: name, want: describeWant(tc), got: describeGot(v, rule, tc), reason: reason}, nil
}

// withheldFor is the allow rule, as written, an untrusted project
// withholds that would allow the call once the project is trusted: the
// policy rebuilt with the withheld rules applied decides the call by it.
func (p *loadedPolicy) withheldFor(ctx context.Context, tool string, args json.RawMessage) (string, bool) {
	if len(p.policy.Withheld) == 0 {
		return "", false
	}
	q := *p
	q.policy.Allow = slices.Concat(p.policy.Allow, p.policy.Withheld)
	q.policy.Withheld = nil
	eng, err := q.build(p.matchers)
	if err != nil {
		return "", false
	}
	v, err := eng.Would(ctx, callInfo(tool, args))
	if err != nil || v.Action != agentturn.Allow || v.Rule == nil {
		return "", false
	}
	r := *v.Rule
	if !slices.ContainsFunc(p.policy.Withheld, func(w agentpolicy.Rule) bool {
		return w.Tool == r.Tool && w.Spec == r.Spec && w.Source.Name == r.Source.Name
	}) {
		return "", false
	}
	return p.written(r), true
}

// describeWant renders what a test expected, as it was written.
func describeWant(tc policyTest) string {
	s := tc.Want
	if tc.Rule != "" {
		s += " by " + tc.Rule
	}
	if tc.Reason != "" {
		s += fmt.Sprintf(" (%q)", tc.Reason)
	}
	return s
}

// describeGot renders what was decided in the words the test used, the
// rule as its file writes it.
func describeGot(v agentpolicy.Verdict, rule string, tc policyTest) string {
	s := actionWord(v.Action)
	if rule != "" {
		s += " by " + rule
	}
	if tc.Reason != "" {
		s += fmt.Sprintf(" (%q)", v.Reason)
	}
	return s
}

// actionWord is the settings files' word for an action.
func actionWord(a agentturn.ToolAction) string {
	switch a {
	case agentturn.Block:
		return "deny"
	case agentturn.Defer:
		return "ask"
	default:
		return "allow"
	}
}

// reportTests prints the failures as a table and a summary line, and
// returns errFailed when any test failed.
func reportTests(w io.Writer, total int, failed []failure) error {
	if len(failed) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "FILE\tTEST\tWANT\tGOT\tREASON")
		for _, f := range failed {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", f.file, f.name, f.want, f.got, f.reason)
		}
		tw.Flush()
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", total-len(failed), len(failed))
	if len(failed) > 0 {
		return errFailed
	}
	return nil
}
