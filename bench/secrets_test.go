package bench

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy/guard"
)

// minRecall is the share of gitleaks' samples guard.Secrets must find.
const minRecall = 0.95

// prefixedRules are gitleaks' rules with a fixed prefix and their samples.
func prefixedRules(t testing.TB) []Rule {
	t.Helper()
	dir, err := RuleSources()
	if err != nil {
		t.Fatal(err)
	}
	rules, err := PrefixedRules(dir)
	if err != nil {
		t.Fatal(err)
	}
	return rules
}

// missesByRule lists the misses as "rule (N)", by rule in order.
func missesByRule(misses []Miss) string {
	var out []string
	for i := 0; i < len(misses); {
		j := i
		for j < len(misses) && misses[j].Rule == misses[i].Rule {
			j++
		}
		out = append(out, fmt.Sprintf("%s (%d)", misses[i].Rule, j-i))
		i = j
	}
	return strings.Join(out, ", ")
}

// TestSecretsFindGitleaksSamples reads the samples gitleaks' own rules are
// tested with, for the rules of a provider token with a fixed prefix, and
// checks that guard.Secrets finds at least minRecall of them.
func TestSecretsFindGitleaksSamples(t *testing.T) {
	rules := prefixedRules(t)
	found, total, misses := Recall(guard.Secrets(), rules)
	if len(rules) < 80 || total < 1000 {
		t.Fatalf("read %d rules and %d samples from gitleaks' sources, want 80 and 1000 or more", len(rules), total)
	}
	share := float64(found) / float64(total)
	t.Logf("guard.Secrets found %d of %d samples of %d gitleaks rules (%.1f%%); missed: %s", found, total, len(rules), 100*share, missesByRule(misses))
	if share < minRecall {
		t.Errorf("found %.1f%% of gitleaks' samples, want %.0f%% or more", 100*share, 100*minRecall)
	}
}

func TestPrefixedRulesReadTheSources(t *testing.T) {
	rules := prefixedRules(t)
	byID := map[string]Rule{}
	for _, r := range rules {
		byID[r.ID] = r
	}
	anthropic, ok := byID["anthropic-api-key"]
	if !ok || !slices.Equal(anthropic.Prefixes, []string{"sk-ant-api03-"}) || len(anthropic.Samples) != 2 {
		t.Errorf("anthropic-api-key read as %+v", anthropic)
	}
	for _, id := range []string{"curl-auth-user", "generic-api-key", "twilio-api-key"} {
		if _, ok := byID[id]; ok {
			t.Errorf("%s is taken as a rule with a fixed prefix", id)
		}
	}
	for _, r := range rules {
		for _, s := range r.Samples {
			if !slices.ContainsFunc(r.Prefixes, func(p string) bool { return strings.Contains(strings.ToLower(s), strings.ToLower(p)) }) {
				t.Errorf("%s: sample %.40q holds none of the prefixes %q", r.ID, s, r.Prefixes)
			}
		}
	}
}

// checkCorpus is the corpus TestNoMoreFalsePositivesThanGitleaks reads:
// enough to hold a false positive if the kinds raise them, small enough
// for make check. make bench reads 200 MiB.
const checkCorpus = 4 << 20

func TestNoMoreFalsePositivesThanGitleaks(t *testing.T) {
	files, size, err := Corpus(checkCorpus)
	if err != nil {
		t.Fatal(err)
	}
	if size < checkCorpus/2 {
		t.Fatalf("the corpus is %d bytes, want %d", size, checkCorpus)
	}
	ours, err := Findings(guard.Redact(), files)
	if err != nil {
		t.Fatal(err)
	}
	defaults, err := GitleaksDefault()
	if err != nil {
		t.Fatal(err)
	}
	theirs := 0
	for _, f := range files {
		theirs += len(defaults.DetectString(f))
	}
	t.Logf("over %d bytes of Go sources: guard.Redact %d findings, gitleaks %d", size, ours, theirs)
	if ours > theirs {
		t.Errorf("guard.Redact raised %d findings in clean code, gitleaks %d", ours, theirs)
	}
}

func TestRedactedCount(t *testing.T) {
	for reason, want := range map[string]int{"": 0, "redacted 1 secret: jwt": 1, "redacted 12 secrets: jwt, aws_access_key": 12, "secret detected: jwt": 0} {
		if got := redactedCount(reason); got != want {
			t.Errorf("redactedCount(%q) = %d, want %d", reason, got, want)
		}
	}
}
