package guard

import (
	"context"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentturn"
	or "github.com/ChristopherDavenport/openresponses"
)

// lookalikes are texts that look like a key to a careless eye and are none:
// no default kind may find one.
var lookalikes = []string{
	"a risk-management-framework-for-everyone",
	"state-of-the-art, well-known and read-only",
	"123e4567-e89b-12d3-a456-426614174000",
	"sha256:" + fill(hexLower, 64),
	"commit " + fill(hexLower, 40),
	"md5 " + fill(hexLower, 32),
	"sk-ant-" + strings.Repeat("x", 40),
	"sk-ant-api03-" + strings.Repeat("x", 93) + "AA",
	"sk-" + strings.Repeat("x", 20) + "T3BlbkFJ" + strings.Repeat("x", 20),
	"ghp_" + strings.Repeat("x", 36),
	"AKIAXXXXXXXXXXXXXXXX",
	"sk_live_" + strings.Repeat("x", 24),
	"<YOUR_API_KEY>",
	"${GITHUB_TOKEN}",
	"export OPENAI_API_KEY=sk-...",
	"token := oauth2.StaticTokenSource(&oauth2.Token{AccessToken: tok})",
	"the key-value store keeps session keys",
	"https://github.com/ChristopherDavenport/agentpolicy/blob/main/README.md",
	"postgres://localhost:5432/app?sslmode=disable",
	"SKIP_THIS_TEST_WHEN_OFFLINE API-VERSION dapi-handler",
	"the eyJ prefix begins a JWT",
}

func TestDefaultSecretsAreTheKinds(t *testing.T) {
	if len(DefaultSecrets) < 50 || len(DefaultSecrets) != len(kinds) {
		t.Fatalf("%d default secrets from %d kinds, want the same and 50 or more", len(DefaultSecrets), len(kinds))
	}
	seen := map[string]bool{}
	for i, p := range DefaultSecrets {
		if p.Name != kinds[i].name || p.Regexp.String() != kinds[i].expr {
			t.Errorf("DefaultSecrets[%d] is %s %s, want the kind %s", i, p.Name, p.Regexp, kinds[i].name)
		}
		if seen[p.Name] {
			t.Errorf("%s is listed twice", p.Name)
		}
		seen[p.Name] = true
	}
	if len(kindCases) != len(kinds) {
		t.Fatalf("%d kinds have cases, want all %d", len(kindCases), len(kinds))
	}
	for i, tc := range kindCases {
		if tc.kind != kinds[i].name || len(tc.secrets) == 0 || len(tc.misses) == 0 {
			t.Errorf("cases %d are for %s with %d secrets and %d misses, want %s with some of each", i, tc.kind, len(tc.secrets), len(tc.misses), kinds[i].name)
		}
	}
}

// TestEveryDefaultKindHasALiteralPrefix keeps the fast path: a kind without
// a literal prefix would be run over every byte of every window.
func TestEveryDefaultKindHasALiteralPrefix(t *testing.T) {
	m := newMatcher(regexps(DefaultSecrets))
	for i, p := range DefaultSecrets {
		if !m.prefixed[i] {
			t.Errorf("%s (%s) has no literal prefix", p.Name, p.Regexp)
		}
	}
	if !m.local {
		t.Errorf("a default kind holds an assertion")
	}
}

func regexps(patterns []Pattern) []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(patterns))
	for i, p := range patterns {
		out[i] = p.Regexp
	}
	return out
}

// defaultMatcher finds the default kinds as the guards do, placeholders
// passed over.
var defaultMatcher = newSecretMatcher(nil)

// secretIn is the kind and the text of the first default secret in text.
func secretIn(text string) (kind, secret string, ok bool) {
	sp, ok := defaultMatcher.m.first(text)
	if !ok {
		return "", "", false
	}
	return defaultMatcher.patterns[sp.pattern].Name, text[sp.start:sp.end], true
}

// check runs g over text as a user message.
func check(t *testing.T, g Guard, text string) Verdict {
	t.Helper()
	v, err := g.Check(context.Background(), Input{Items: or.Items{or.UserText(text)}})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestSecretsDetectsEachDefaultKind(t *testing.T) {
	g := Secrets()
	for _, tc := range kindCases {
		for _, secret := range tc.secrets {
			t.Run(tc.kind+"/"+secret[:min(len(secret), 24)], func(t *testing.T) {
				v := check(t, g, "token: "+secret+" ok")
				if v.Action != agentturn.Block || v.Reason != "secret detected: "+tc.kind {
					t.Fatalf("verdict %+v, want a block naming %s", v, tc.kind)
				}
			})
		}
	}
}

func TestRedactReplacesEachDefaultKind(t *testing.T) {
	g := Redact()
	for _, tc := range kindCases {
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

// assertNoSecret checks that neither Secrets nor Redact finds anything in
// text.
func assertNoSecret(t *testing.T, text string) {
	t.Helper()
	for _, g := range []Guard{Secrets(), Redact()} {
		if v := check(t, g, "token: "+text+" ok"); v.Action != agentturn.Allow || v.Reason != "" || v.Items != nil {
			t.Fatalf("%s: verdict %+v over %q, want a pass", g.Name(), v, text)
		}
	}
}

func TestNearMissesAreNoSecret(t *testing.T) {
	for _, tc := range kindCases {
		for _, miss := range tc.misses {
			t.Run(tc.kind+"/"+miss[:min(len(miss), 24)], func(t *testing.T) { assertNoSecret(t, miss) })
		}
	}
}

func TestLookalikesAreNoSecret(t *testing.T) {
	for _, text := range lookalikes {
		t.Run(text[:min(len(text), 24)], func(t *testing.T) { assertNoSecret(t, text) })
	}
}

// placeholder is secret with every letter and digit after its kind's
// literal prefix written as x: the token a README shows.
func placeholder(t *testing.T, kind, secret string) string {
	t.Helper()
	prefix := ""
	for _, p := range readSyntax(DefaultSecrets[kindIndex(kind)].Regexp.String()).prefixes {
		if strings.HasPrefix(secret, p) && len(p) > len(prefix) {
			prefix = p
		}
	}
	if prefix == "" {
		t.Fatalf("%s %.20q begins with no prefix of its kind", kind, secret)
	}
	rest := []byte(secret[len(prefix):])
	for i, c := range rest {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			rest[i] = 'x'
		}
	}
	return prefix + string(rest)
}

func TestPlaceholdersAreNoSecret(t *testing.T) {
	for _, tc := range kindCases {
		switch tc.kind {
		case "gcp_service_account", "database_url_password", "sidekiq_credentials":
			continue // the prefix is the whole secret, or the text around it is not
		}
		text := placeholder(t, tc.kind, tc.secrets[0])
		t.Run(tc.kind, func(t *testing.T) { assertNoSecret(t, text) })
	}
}

// TestTheEarlierKindWins checks the documented order where two kinds
// match at the same byte.
func TestTheEarlierKindWins(t *testing.T) {
	for _, tc := range []struct{ text, kind string }{
		{"sk-ant-api03-" + fill(urlSafe, 93) + "AA", "anthropic_api_key"},
		{"eyJrIjoi" + fill(alnum, 80) + "." + fill(alnum, 20) + "." + fill(alnum, 20), "grafana_api_key"},
	} {
		if v := check(t, Secrets(), tc.text); v.Reason != "secret detected: "+tc.kind {
			t.Errorf("%.20q: %q, want %s", tc.text, v.Reason, tc.kind)
		}
	}
}

// kindRow is a kind's row in the README's kinds table.
func kindRow(k kind) string {
	return "| `" + k.name + "` | " + strings.ReplaceAll(k.shape, "|", `\|`) + " |"
}

// TestTheREADMEListsEveryKind keeps the README's kinds table the list of
// DefaultSecrets, in order, each with its shape.
func TestTheREADMEListsEveryKind(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(readme), "| kind | example shape |\n| --- | --- |\n")
	if !ok {
		t.Fatal("the README has no kinds table")
	}
	table, _, _ = strings.Cut(table, "\n\n")
	rows := strings.Split(table, "\n")
	var want []string
	for _, k := range kinds {
		want = append(want, kindRow(k))
	}
	if !slices.Equal(rows, want) {
		t.Errorf("the README's kinds table is\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}

// TestATelegramTokenKeepsItsBotID: a bot token is the bot's ID, which is
// public, a colon and the secret; the kind redacts from the colon on.
func TestATelegramTokenKeepsItsBotID(t *testing.T) {
	token := "110201543:AAH" + fill(urlSafe, 32)
	v, err := Redact().Check(context.Background(), Input{Instructions: "TELEGRAM_TOKEN=" + token})
	if err != nil {
		t.Fatal(err)
	}
	want := "TELEGRAM_TOKEN=110201543[REDACTED telegram_bot_token]"
	if v.Instructions == nil || *v.Instructions != want {
		t.Fatalf("verdict %+v (instructions %v), want %q", v, v.Instructions, want)
	}
}
