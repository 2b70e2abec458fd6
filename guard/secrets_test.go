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

func TestDefaultSecretsNamesAndOrder(t *testing.T) {
	var names []string
	for _, p := range DefaultSecrets {
		names = append(names, p.Name)
	}
	want := []string{"aws_access_key", "github_token", "github_pat", "slack_token", "google_api_key", "openai_key", "private_key", "jwt"}
	if !slices.Equal(names, want) {
		t.Fatalf("names %v, want %v", names, want)
	}
}

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

const pemBody = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\nVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n"

// secretCases are, per default kind, texts that are a secret of it and
// near misses that are none: one character short, the prefix in the
// wrong case.
var secretCases = []struct {
	kind    string
	secrets []string
	misses  []string
}{
	{
		kind:    "aws_access_key",
		secrets: []string{"AKIAIOSFODNN7EXAMPLE", "ASIAY34FZKBOKMUTVV7A"},
		misses:  []string{"AKIAIOSFODNN7EXAMPL", "akiaIOSFODNN7EXAMPLE", "AkIAIOSFODNN7EXAMPLE", "AKIAiosfodnn7example", "ASIA"},
	},
	{
		kind: "github_token",
		secrets: []string{
			"ghp_" + strings.Repeat("a1B2", 9), "gho_" + strings.Repeat("a1B2", 9), "ghu_" + strings.Repeat("a1B2", 9),
			"ghs_" + strings.Repeat("a1B2", 9), "ghr_" + strings.Repeat("a1B2", 9), "ghp_" + strings.Repeat("a1B2", 20),
		},
		misses: []string{"ghp_" + strings.Repeat("a1B2", 9)[1:], "GHP_" + strings.Repeat("a1B2", 9), "ghx_" + strings.Repeat("a1B2", 9)},
	},
	{
		kind:    "github_pat",
		secrets: []string{"github_pat_" + strings.Repeat("A_1", 8)[:22], "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz"},
		misses:  []string{"github_pat_" + strings.Repeat("A_1", 8)[:21], "GITHUB_PAT_" + strings.Repeat("A_1", 8)[:22]},
	},
	{
		kind:    "slack_token",
		secrets: []string{"xoxb-1234567890", "xoxa-2-abcdefgh", "xoxp-123-456-789-abc", "xoxr-abcdefghij", "xoxs-0123456789"},
		misses:  []string{"xoxb-123456789", "XOXB-1234567890", "xoxc-1234567890", "xoxb_1234567890"},
	},
	{
		kind:    "google_api_key",
		secrets: []string{"AIzaSyA-1234567890abcdefghijklmnopqrstu"},
		misses:  []string{"AIzaSyA-1234567890abcdefghijklmnopqrst", "aizaSyA-1234567890abcdefghijklmnopqrstu", "AIZASyA-1234567890abcdefghijklmnopqrstu"},
	},
	{
		kind:    "openai_key",
		secrets: []string{"sk-" + strings.Repeat("Ab3", 7)[:20], "sk-proj-" + strings.Repeat("Xy9_", 10) + "-tail", "sk-svcacct-" + strings.Repeat("k", 48)},
		misses:  []string{"sk-" + strings.Repeat("Ab3", 7)[:19], "SK-" + strings.Repeat("Ab3", 7)[:20], "a risk-management-framework-for-everyone", "sk " + strings.Repeat("Ab3", 7)},
	},
	{
		kind: "private_key",
		secrets: []string{
			"-----BEGIN RSA PRIVATE KEY-----\n" + pemBody + "-----END RSA PRIVATE KEY-----",
			"-----BEGIN PRIVATE KEY-----\n" + pemBody + "-----END PRIVATE KEY-----",
			"-----BEGIN OPENSSH PRIVATE KEY-----",
		},
		misses: []string{"-----BEGIN PUBLIC KEY-----\n" + pemBody + "-----END PUBLIC KEY-----", "-----begin private key-----", "----BEGIN PRIVATE KEY-----"},
	},
	{
		kind:    "jwt",
		secrets: []string{"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c", "eyJ0123456.abcdefghij.ABCDEFGHIJ"},
		misses:  []string{"eyJ0123456.abcdefghij.ABCDEFGHI", "eyJ012345.abcdefghij.ABCDEFGHIJ", "EYJ0123456.abcdefghij.ABCDEFGHIJ", "eyJ0123456.abcdefghij"},
	},
}

func TestSecretsDetectsEachDefaultKind(t *testing.T) {
	g := Secrets()
	for _, tc := range secretCases {
		for _, secret := range tc.secrets {
			t.Run(tc.kind+"/"+secret[:min(len(secret), 24)], func(t *testing.T) {
				v, err := g.Check(context.Background(), Input{Items: or.Items{or.UserText("token: " + secret + " ok")}})
				if err != nil {
					t.Fatal(err)
				}
				if v.Action != agentturn.Block || v.Reason != "secret detected: "+tc.kind {
					t.Fatalf("verdict %+v, want a block naming %s", v, tc.kind)
				}
			})
		}
	}
}

func TestRedactReplacesEachDefaultKind(t *testing.T) {
	g := Redact()
	for _, tc := range secretCases {
		for _, secret := range tc.secrets {
			t.Run(tc.kind+"/"+secret[:min(len(secret), 24)], func(t *testing.T) {
				v, err := g.Check(context.Background(), Input{Instructions: "token: " + secret + " ok"})
				if err != nil {
					t.Fatal(err)
				}
				want := "token: [REDACTED " + tc.kind + "] ok"
				if v.Instructions == nil || *v.Instructions != want || v.Reason != "redacted 1 secret: "+tc.kind {
					t.Fatalf("verdict %+v (instructions %v), want %q", v, v.Instructions, want)
				}
			})
		}
	}
}

func TestNearMissesAreNoSecret(t *testing.T) {
	for _, tc := range secretCases {
		for _, miss := range tc.misses {
			t.Run(tc.kind+"/"+miss[:min(len(miss), 24)], func(t *testing.T) {
				subject := Input{Items: or.Items{or.UserText("token: " + miss + " ok")}}
				for _, g := range []Guard{Secrets(), Redact()} {
					v, err := g.Check(context.Background(), subject)
					if err != nil {
						t.Fatal(err)
					}
					if v.Action != agentturn.Allow || v.Reason != "" || v.Items != nil {
						t.Fatalf("%s: verdict %+v, want a pass", g.Name(), v)
					}
				}
			})
		}
	}
}

func TestRedactCountsSecretsAndNamesKindsInOrderFirstSeen(t *testing.T) {
	gh := "ghp_" + strings.Repeat("a1B2", 9)
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
