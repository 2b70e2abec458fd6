package guard

import (
	"context"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy/internal/secret"
	"github.com/ChristopherDavenport/agentpolicy/internal/secret/secrettest"
	"github.com/ChristopherDavenport/agentturn"
	or "github.com/ChristopherDavenport/openresponses"
)

// The default kinds' test tokens and their alphabets.
var (
	kindCases = secrettest.Cases
	fill      = secrettest.Fill
)

const alnum = secrettest.Alnum

// check runs g over text as a user message.
func check(t *testing.T, g Guard, text string) Verdict {
	t.Helper()
	v, err := g.Check(context.Background(), Input{Items: or.Items{or.UserText(text)}})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// secretIn is the kind of the first default secret in text, "" when none.
func secretIn(text string) string {
	return secret.Default().First(text)
}

func TestDefaultSecretsAreTheKinds(t *testing.T) {
	kinds := secret.DefaultPatterns()
	if len(DefaultSecrets) < 50 || len(DefaultSecrets) != len(kinds) {
		t.Fatalf("%d default secrets from %d kinds, want the same and 50 or more", len(DefaultSecrets), len(kinds))
	}
	for i, p := range DefaultSecrets {
		k := kinds[i]
		if p.Name != k.Name || p.Regexp.String() != k.Regexp.String() || p.MinEntropy != k.MinEntropy || p.MinEntropy <= 0 {
			t.Errorf("DefaultSecrets[%d] is %s %s %v, want the kind %s %s %v", i, p.Name, p.Regexp, p.MinEntropy, k.Name, k.Regexp, k.MinEntropy)
		}
	}
}

func TestSecretsDetectsEachDefaultKind(t *testing.T) {
	g := Secrets()
	for _, tc := range kindCases {
		for _, secret := range tc.Secrets {
			t.Run(tc.Kind+"/"+secret[:min(len(secret), 24)], func(t *testing.T) {
				v := check(t, g, "token: "+secret+" ok")
				if v.Action != agentturn.Block || v.Reason != "secret detected: "+tc.Kind {
					t.Fatalf("verdict %+v, want a block naming %s", v, tc.Kind)
				}
			})
		}
	}
}

func TestRedactReplacesEachDefaultKind(t *testing.T) {
	g := Redact()
	for _, tc := range kindCases {
		for _, secret := range tc.Secrets {
			t.Run(tc.Kind+"/"+secret[:min(len(secret), 24)], func(t *testing.T) {
				v, err := g.Check(context.Background(), Input{Instructions: "token: " + secret + " ok"})
				if err != nil {
					t.Fatal(err)
				}
				want := "token: [REDACTED " + tc.Kind + "] ok"
				if v.Instructions == nil || *v.Instructions != want || v.Reason != "redacted 1 secret: "+tc.Kind {
					t.Fatalf("verdict %+v (instructions %v), want %q", v, v.Instructions, want)
				}
			})
		}
	}
}

func TestGuardsPassNearMisses(t *testing.T) {
	for _, tc := range kindCases {
		for _, miss := range tc.Misses {
			for _, g := range []Guard{Secrets(), Redact()} {
				if v := check(t, g, "token: "+miss+" ok"); v.Action != agentturn.Allow || v.Reason != "" || v.Items != nil {
					t.Fatalf("%s: verdict %+v over %q, want a pass", g.Name(), v, miss)
				}
			}
		}
	}
}
