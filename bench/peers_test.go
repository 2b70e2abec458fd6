package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy"
	"github.com/ChristopherDavenport/agentpolicy/guard"
	"github.com/ChristopherDavenport/agentturn"
	"github.com/ChristopherDavenport/openresponses"
	"github.com/zricethezav/gitleaks/v8/report"
)

// sizes are the policy sizes measured, in rules.
var sizes = []int{100, 1000}

// textSize is the prose a secrets benchmark reads per operation, and
// planted the secrets in it.
const (
	textSize = 1 << 20
	planted  = 100
)

// engines builds the engine and its Cedar translation over the policy of
// the given size.
func engines(t testing.TB, rules int) (*agentpolicy.Engine, *Cedar) {
	t.Helper()
	p, matchers := Policy(rules)
	e, err := agentpolicy.Build(p, matchers, agentpolicy.WithObserver(func(context.Context, agentpolicy.Verdict) {}))
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCedar(p)
	if err != nil {
		t.Fatal(err)
	}
	return e, c
}

// info is the hook's view of the call, alone in its batch.
func info(c Call) agentturn.ToolCallInfo {
	call := &openresponses.FunctionCall{CallID: "call_1", Name: c.Tool, Arguments: c.Args}
	return agentturn.ToolCallInfo{RunID: "run_1", Turn: 1, Call: call, Args: json.RawMessage(c.Args),
		Batch: []*openresponses.FunctionCall{call}}
}

// decide is the engine's answer to the call.
func decide(t testing.TB, e *agentpolicy.Engine, c Call) Answer {
	t.Helper()
	v, err := e.Would(context.Background(), info(c))
	if err != nil {
		t.Fatal(err)
	}
	a := Answer{Action: v.Action}
	if v.Rule != nil {
		a.Rule = v.Rule.String()
	}
	return a
}

// Both engines give the same answer, action and rule, on every benchmarked
// call and on calls that probe the translation: the word boundary of
// "x:*", a command no rule names, another tool's rules, arguments without
// the member the rules read.
func TestCedarAndTheEngineAnswerAlike(t *testing.T) {
	probes := []Call{
		{"exact prefix", "bash", `{"command":"ls"}`, Answer{agentturn.Allow, "bash(ls:*)"}},
		{"no word boundary", "bash", `{"command":"lsof -i"}`, Answer{agentturn.Defer, ""}},
		{"prefix with spaces", "bash", `{"command":"git push origin main"}`, Answer{agentturn.Defer, "bash(git push:*)"}},
		{"a tab is no boundary", "bash", `{"command":"rm\t-rf"}`, Answer{agentturn.Defer, ""}},
		{"another tool", "tool0007", `{"command":"curl example.com"}`, Answer{agentturn.Block, "tool0007(curl:*)"}},
		{"a tool no rule names", "fetch", `{"command":"rm -rf /"}`, Answer{agentturn.Defer, ""}},
		{"other members", "bash", `{"command":"make","verbose":true,"n":3}`, Answer{agentturn.Allow, "bash(make:*)"}},
	}
	for _, rules := range sizes {
		e, c := engines(t, rules)
		for _, call := range slices.Concat(Calls, probes) {
			t.Run(fmt.Sprintf("rules=%d/%s", rules, call.Name), func(t *testing.T) {
				ours := decide(t, e, call)
				theirs, err := c.Decide(call.Tool, json.RawMessage(call.Args))
				if err != nil {
					t.Fatal(err)
				}
				if ours != call.Want || theirs != call.Want {
					t.Errorf("agentpolicy %+v, cedar %+v, want %+v", ours, theirs, call.Want)
				}
			})
		}
	}
}

func TestCedarRefusesWhatItCannotTranslate(t *testing.T) {
	for _, rule := range []string{"bash(git * main)", "mcp__*", "bash(!ls:*)", "bash(*:*)"} {
		rules, err := agentpolicy.ParseRules(rule)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := NewCedar(agentpolicy.Policy{Deny: rules, Default: agentpolicy.Ask()}); err == nil {
			t.Errorf("NewCedar translated %s", rule)
		}
	}
	if _, err := NewCedar(agentpolicy.Policy{}); err == nil {
		t.Errorf("NewCedar translated a policy with no default")
	}
}

func TestCedarTextQuotesTheRules(t *testing.T) {
	rules, err := agentpolicy.ParseRules(`bash(echo "a\b":*) read`)
	if err != nil {
		t.Fatal(err)
	}
	text, err := CedarText(agentpolicy.Policy{Ask: rules[:1], Allow: rules[1:], Default: agentpolicy.Ask()})
	if err != nil {
		t.Fatal(err)
	}
	want := `@rule("bash(echo \"a\\b\":*)")
@ask("")
forbid (principal, action == Action::"bash", resource) when { context.command == "echo \"a\\b\"" || context.command like "echo \"a\\b\" *" };
@rule("read")
permit (principal, action == Action::"read", resource);
`
	if text != want {
		t.Errorf("CedarText =\n%s\nwant\n%s", text, want)
	}
}

// redacted is what guard.Redact makes of text: the text it leaves and its
// reason.
func redacted(t testing.TB, g guard.Guard, text string) (string, string) {
	t.Helper()
	v, err := g.Check(context.Background(), guard.Input{Instructions: text})
	if err != nil {
		t.Fatal(err)
	}
	if v.Instructions == nil {
		return text, v.Reason
	}
	return *v.Instructions, v.Reason
}

func TestBothFindThePlantedSecrets(t *testing.T) {
	text, secrets := PlantSecrets(Prose(textSize), planted)
	if len(text) != textSize {
		t.Fatalf("the text is %d bytes, want %d", len(text), textSize)
	}
	out, reason := redacted(t, guard.Redact(), text)
	if !strings.HasPrefix(reason, fmt.Sprintf("redacted %d secrets: ", planted)) {
		t.Errorf("guard.Redact: %q, want %d secrets redacted", reason, planted)
	}
	for _, s := range secrets {
		if strings.Contains(out, s) {
			t.Errorf("guard.Redact left %.30q in the text", s)
		}
	}
	same := Gitleaks(guard.DefaultSecrets)
	defaults, err := GitleaksDefault()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		found []string
	}{
		{"gitleaks with the same kinds", secretsOf(same.DetectString(text))},
		{"gitleaks with its default rules", secretsOf(defaults.DetectString(text))},
	} {
		for _, s := range secrets {
			if !slices.Contains(tc.found, s) {
				t.Errorf("%s did not find %.30q", tc.name, s)
			}
		}
		if len(tc.found) != planted {
			t.Errorf("%s found %d secrets, want the %d planted", tc.name, len(tc.found), planted)
		}
	}
}

func TestNeitherFindsASecretInTheCleanProse(t *testing.T) {
	text := Prose(textSize)
	if _, reason := redacted(t, guard.Redact(), text); reason != "" {
		t.Errorf("guard.Redact: %q in clean prose", reason)
	}
	defaults, err := GitleaksDefault()
	if err != nil {
		t.Fatal(err)
	}
	if found := Gitleaks(guard.DefaultSecrets).DetectString(text); len(found) != 0 {
		t.Errorf("gitleaks with the same kinds found %d secrets in clean prose", len(found))
	}
	if found := defaults.DetectString(text); len(found) != 0 {
		t.Errorf("gitleaks with its default rules found %d secrets in clean prose, the first %+v", len(found), found[0])
	}
}

// secretsOf lists the secrets gitleaks found.
func secretsOf(findings []report.Finding) []string {
	secrets := make([]string, len(findings))
	for i, f := range findings {
		secrets[i] = f.Secret
	}
	return secrets
}

// BenchmarkRecall runs guard.Secrets and gitleaks' default rules over the
// samples of gitleaks' rules with a fixed prefix, and reports the share of
// them each finds and, in the log, what guard.Secrets missed.
func BenchmarkRecall(b *testing.B) {
	rules := prefixedRules(b)
	b.Run("guard", func(b *testing.B) {
		g := guard.Secrets()
		var found, total int
		var misses []Miss
		for b.Loop() {
			found, total, misses = Recall(g, rules)
		}
		b.ReportMetric(100*float64(found)/float64(total), "%found")
		b.ReportMetric(float64(total), "samples")
		b.Logf("guard.Secrets found %d of %d samples of %d gitleaks rules; missed: %s", found, total, len(rules), missesByRule(misses))
	})
	b.Run("gitleaks-default", func(b *testing.B) {
		d, err := GitleaksDefault()
		if err != nil {
			b.Fatal(err)
		}
		var found, total int
		for b.Loop() {
			found, total = 0, 0
			for _, r := range rules {
				for _, s := range r.Samples {
					total++
					if len(d.DetectString(s)) > 0 {
						found++
					}
				}
			}
		}
		b.ReportMetric(100*float64(found)/float64(total), "%found")
		b.ReportMetric(float64(total), "samples")
	})
}

// benchCorpus is the clean corpus BenchmarkCorpus reads.
const benchCorpus = 200 << 20

// corpus is the clean corpus of benchCorpus bytes.
func corpus(b *testing.B) ([]string, int) {
	b.Helper()
	files, size, err := Corpus(benchCorpus)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("corpus: %d files, %d bytes of non-test Go sources", len(files), size)
	return files, size
}

// benchFindings times g, a guard.Redact, over files and reports its
// findings.
func benchFindings(b *testing.B, g guard.Guard, files []string, size int) {
	b.Helper()
	var n int
	var err error
	b.SetBytes(int64(size))
	for b.Loop() {
		if n, err = Findings(g, files); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n), "findings")
}

// BenchmarkCorpus reads 200 MiB of non-test Go sources from the module
// cache with guard.Redact and with gitleaks' default rules, and reports the
// findings of each: false positives, since the code holds no secret.
func BenchmarkCorpus(b *testing.B) {
	files, size := corpus(b)
	b.Run("guard", func(b *testing.B) { benchFindings(b, guard.Redact(), files, size) })
	b.Run("gitleaks-default", func(b *testing.B) {
		d, err := GitleaksDefault()
		if err != nil {
			b.Fatal(err)
		}
		var n int
		b.SetBytes(int64(size))
		for b.Loop() {
			n = 0
			for _, f := range files {
				n += len(d.DetectString(f))
			}
		}
		b.ReportMetric(float64(n), "findings")
	})
}

// BenchmarkCorpusGeneric reads the same corpus with guard.Redact over the
// default kinds and GenericSecrets: the false positives of the opt-in list.
func BenchmarkCorpusGeneric(b *testing.B) {
	files, size := corpus(b)
	b.Run("guard-generic", func(b *testing.B) {
		benchFindings(b, guard.Redact(append(guard.DefaultSecrets, guard.GenericSecrets...)...), files, size)
	})
}
