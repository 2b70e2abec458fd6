package guard

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
	or "github.com/ChristopherDavenport/openresponses"
)

// keepDefaultSecrets restores DefaultSecrets, and its elements, when t ends.
func keepDefaultSecrets(t *testing.T) {
	saved := slices.Clone(DefaultSecrets)
	list := DefaultSecrets
	t.Cleanup(func() {
		copy(list, saved)
		DefaultSecrets = saved
	})
}

func TestDefaultSecretsIsReadWhenAGuardIsBuilt(t *testing.T) {
	keepDefaultSecrets(t)
	ticket := Pattern{Name: "ticket", Regexp: regexp.MustCompile(`TICKET-[0-9]+`)}
	before := []Guard{Secrets(), Redact()}

	DefaultSecrets = append(DefaultSecrets, ticket)
	DefaultSecrets[0] = Pattern{Name: "nothing", Regexp: regexp.MustCompile(`nothing`)}
	after := []Guard{Secrets(), Redact()}

	check := func(g Guard, text string) string {
		t.Helper()
		v, err := g.Check(context.Background(), Input{Instructions: text})
		if err != nil {
			t.Fatal(err)
		}
		return v.Reason
	}
	for _, g := range before {
		if got := check(g, "TICKET-42"); got != "" {
			t.Errorf("%s built before the append: %q, want a pass", g.Name(), got)
		}
		if got := check(g, awsKey); !strings.HasSuffix(got, ": aws_access_key") {
			t.Errorf("%s built before the change: %q, want the aws key found", g.Name(), got)
		}
	}
	for _, g := range after {
		if got := check(g, "TICKET-42"); !strings.HasSuffix(got, ": ticket") {
			t.Errorf("%s built after the append: %q, want the ticket found", g.Name(), got)
		}
		if got := check(g, awsKey); got != "" {
			t.Errorf("%s built after the change: %q, want a pass", g.Name(), got)
		}
	}
}

func TestGivenPatternsAreCopied(t *testing.T) {
	mine := []Pattern{{Name: "ticket", Regexp: regexp.MustCompile(`TICKET-[0-9]+`)}}
	g := Secrets(mine...)
	mine[0] = Pattern{Name: "nothing", Regexp: regexp.MustCompile(`nothing`)}
	v, err := g.Check(context.Background(), Input{Instructions: "TICKET-42"})
	if err != nil || v.Reason != "secret detected: ticket" {
		t.Fatalf("verdict %+v, error %v after changing the caller's slice", v, err)
	}
}

func TestRedactCountsSecretsAndNamesKindsInOrderFirstSeen(t *testing.T) {
	gh := "ghp_" + fill(alnum, 36)
	v, err := Redact().Check(context.Background(), Input{
		Instructions: "first " + gh,
		Items: or.Items{
			or.UserText(awsKey + " and " + gh),
			&or.FunctionCall{CallID: "call_1", Name: "x", Arguments: `{"k":"xoxb-1234567890"}`},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "redacted 4 secrets: github_token, aws_access_key, slack_token"; v.Reason != want {
		t.Fatalf("reason %q, want %q", v.Reason, want)
	}
}

func TestRedactMessageKeepsItsIdentity(t *testing.T) {
	msg := &or.Message{ID: "msg_7", Status: or.StatusCompleted, Role: or.RoleAssistant, Phase: or.PhaseCommentary,
		Content: or.Contents{&or.OutputText{Text: "use " + awsKey}}}
	v, err := Redact().Check(context.Background(), Message{Message: msg})
	if err != nil {
		t.Fatal(err)
	}
	got, ok := oneMessage(v.Items)
	if !ok {
		t.Fatalf("rewrite %v is not one message", v.Items)
	}
	if got == msg || got.ID != "msg_7" || got.Status != or.StatusCompleted || got.Phase != or.PhaseCommentary || got.Text() != "use [REDACTED aws_access_key]" {
		t.Fatalf("rewrite %+v (%q), want a copy with the key redacted", got, got.Text())
	}
	if msg.Text() != "use "+awsKey {
		t.Fatalf("the original message changed to %q", msg.Text())
	}
}

func TestPatternsReplaceTheDefaults(t *testing.T) {
	ticket := Pattern{Name: "ticket", Regexp: regexp.MustCompile(`TICKET-[0-9]+`)}
	card := Pattern{Name: "card", Regexp: regexp.MustCompile(`\b[0-9]{4}(?: ?[0-9]{4}){3}\b`)}
	tests := []struct {
		name     string
		patterns []Pattern
		text     string
		want     string
	}{
		{"literal pattern", []Pattern{ticket}, "see TICKET-42 and " + awsKey, "see [REDACTED ticket] and " + awsKey},
		{"pattern without a literal prefix", []Pattern{card}, "pay 4111 1111 1111 1111 now, not 12345678901234567", "pay [REDACTED card] now, not 12345678901234567"},
		{"both kinds", []Pattern{card, ticket}, "TICKET-1 4111111111111111 TICKET-2", "[REDACTED ticket] [REDACTED card] [REDACTED ticket]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Redact(tc.patterns...).Check(context.Background(), Input{Instructions: tc.text})
			if err != nil {
				t.Fatal(err)
			}
			if v.Instructions == nil || *v.Instructions != tc.want {
				t.Fatalf("instructions %v, want %q", v.Instructions, tc.want)
			}
			s, err := Secrets(tc.patterns...).Check(context.Background(), Input{Instructions: awsKey})
			if err != nil {
				t.Fatal(err)
			}
			if s.Action != agentturn.Allow {
				t.Fatalf("Secrets with its own patterns still found a default kind: %+v", s)
			}
		})
	}
}

// TestDefaultGuardsShareTheirMatcher keeps a guard of the default kinds
// cheap to build, as a hook that builds one per call needs: while
// DefaultSecrets is as the package sets it, every such guard shares one
// matcher.
func TestDefaultGuardsShareTheirMatcher(t *testing.T) {
	Secrets()
	if n := testing.AllocsPerRun(20, func() { Secrets(); Redact() }); n > 8 {
		t.Errorf("building two guards of the default kinds makes %v allocations, want a few", n)
	}
	keepDefaultSecrets(t)
	DefaultSecrets = DefaultSecrets[:1]
	if first, second := newSecretMatcher(nil), newSecretMatcher(nil); first == second {
		t.Errorf("a changed DefaultSecrets still shares the package's matcher")
	}
}
