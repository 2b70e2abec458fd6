package secret

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ChristopherDavenport/agentpolicy/internal/secret/secrettest"
	or "github.com/ChristopherDavenport/openresponses"
)

// The default kinds' test tokens and their alphabets.
var (
	kindCases = secrettest.Cases
	fill      = secrettest.Fill
)

const (
	alnum    = secrettest.Alnum
	urlSafe  = secrettest.URLSafe
	hexLower = secrettest.HexLower
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

func TestDefaultPatternsAreTheKinds(t *testing.T) {
	patterns := DefaultPatterns()
	if len(patterns) < 50 || len(patterns) != len(kinds) {
		t.Fatalf("%d default patterns from %d kinds, want the same and 50 or more", len(patterns), len(kinds))
	}
	seen := map[string]bool{}
	for i, p := range patterns {
		if p.Name != kinds[i].name || p.Regexp.String() != kinds[i].expr || p.MinEntropy != placeholderEntropy {
			t.Errorf("DefaultPatterns()[%d] is %s %s %v, want the kind %s", i, p.Name, p.Regexp, p.MinEntropy, kinds[i].name)
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
		if tc.Kind != kinds[i].name || len(tc.Secrets) == 0 || len(tc.Misses) == 0 {
			t.Errorf("cases %d are for %s with %d secrets and %d misses, want %s with some of each", i, tc.Kind, len(tc.Secrets), len(tc.Misses), kinds[i].name)
		}
	}
}

// TestEveryDefaultKindHasALiteralPrefix keeps the fast path: a kind without
// a literal prefix would be run over every byte of every window.
func TestEveryDefaultKindHasALiteralPrefix(t *testing.T) {
	m := newMatcher(regexps(DefaultPatterns()))
	for i, p := range DefaultPatterns() {
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

// defaultFinders are the two finders of the default kinds, which must
// find the same: Default, which compiles each kind from its source when a
// text first reaches it, and the finder of the kinds compiled.
func defaultFinders() map[string]*Finder {
	return map[string]*Finder{"Default": Default(), "compiled": New(DefaultPatterns())}
}

// secretIn is the kind and the text of the first default secret in text.
func secretIn(text string) (kind, secret string, ok bool) {
	f := Default()
	sp, ok := f.m.first(text)
	if !ok {
		return "", "", false
	}
	return f.names[sp.pattern], text[sp.start:sp.end], true
}

func TestFindersFindEachDefaultKind(t *testing.T) {
	for name, f := range defaultFinders() {
		for _, tc := range kindCases {
			for _, secret := range tc.Secrets {
				t.Run(name+"/"+tc.Kind+"/"+secret[:min(len(secret), 24)], func(t *testing.T) {
					if got := f.First("token: " + secret + " ok"); got != tc.Kind {
						t.Fatalf("First found %q, want %s", got, tc.Kind)
					}
				})
			}
		}
	}
}

func TestFindersRedactEachDefaultKind(t *testing.T) {
	for name, f := range defaultFinders() {
		for _, tc := range kindCases {
			for _, secret := range tc.Secrets {
				t.Run(name+"/"+tc.Kind+"/"+secret[:min(len(secret), 24)], func(t *testing.T) {
					var tally Tally
					got := f.Redact("token: "+secret+" ok", &tally)
					want := "token: [REDACTED " + tc.Kind + "] ok"
					if got != want || tally.Count != 1 || !slices.Equal(tally.Names, []string{tc.Kind}) {
						t.Fatalf("redacted to %q, tally %+v, want %q and one %s", got, tally, want, tc.Kind)
					}
				})
			}
		}
	}
}

// assertNoSecret checks that neither finder of the default kinds finds or
// redacts anything in text.
func assertNoSecret(t *testing.T, text string) {
	t.Helper()
	text = "token: " + text + " ok"
	for name, f := range defaultFinders() {
		if got := f.First(text); got != "" {
			t.Fatalf("%s: found %s in %q, want nothing", name, got, text)
		}
		var tally Tally
		if got := f.Redact(text, &tally); got != text || tally.Count != 0 {
			t.Fatalf("%s: redacted %q to %q, want it unchanged", name, text, got)
		}
	}
}

func TestNearMissesAreNoSecret(t *testing.T) {
	for _, tc := range kindCases {
		for _, miss := range tc.Misses {
			t.Run(tc.Kind+"/"+miss[:min(len(miss), 24)], func(t *testing.T) { assertNoSecret(t, miss) })
		}
	}
}

func TestLookalikesAreNoSecret(t *testing.T) {
	for _, text := range lookalikes {
		t.Run(text[:min(len(text), 24)], func(t *testing.T) { assertNoSecret(t, text) })
	}
}

// kindIndex is the index of the named default kind.
func kindIndex(name string) int {
	for i, k := range kinds {
		if k.name == name {
			return i
		}
	}
	panic("no default kind " + name)
}

// placeholder is secret with every letter and digit after its kind's
// literal prefix written as x: the token a README shows.
func placeholder(t *testing.T, kind, secret string) string {
	t.Helper()
	prefix := ""
	for _, p := range readSyntax(kinds[kindIndex(kind)].expr).prefixes {
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
		switch tc.Kind {
		case "gcp_service_account", "database_url_password", "sidekiq_credentials":
			continue // the prefix is the whole secret, or the text around it is not
		}
		text := placeholder(t, tc.Kind, tc.Secrets[0])
		t.Run(tc.Kind, func(t *testing.T) { assertNoSecret(t, text) })
	}
}

// TestDefaultCompilesNoKindOverCleanText keeps a hook's start cheap: the
// default kinds' finder compiles a kind's expression only when a text holds
// one of its literals, so over clean text it compiles none. (It may compile
// a kind whose literal a text holds, as "ghp_" in a placeholder, to read
// the match's group.)
func TestDefaultCompilesNoKindOverCleanText(t *testing.T) {
	f := kindsFinder(func(src string) expr {
		return expr{src: src, compiled: func() *regexp.Regexp {
			t.Errorf("%s was compiled", src)
			return regexp.MustCompile(src)
		}}
	})
	for _, text := range []string{
		`{"command":"git status --short && go test ./..."}`,
		`{"file_path":"/src/main.go","old_string":"token := oauth2.StaticTokenSource(&oauth2.Token{AccessToken: tok})"}`,
		"the key-value store keeps session keys, and the eyJ prefix begins a JWT",
	} {
		if kind := f.First(text); kind != "" {
			t.Errorf("found %s in %q", kind, text)
		}
		if kind := f.FirstInItems(or.Items{&or.FunctionCall{Arguments: text}}, nil); kind != "" {
			t.Errorf("found %s in the arguments %q", kind, text)
		}
	}
}

// TestTheEarlierKindWins checks the documented order where two kinds
// match at the same byte.
func TestTheEarlierKindWins(t *testing.T) {
	for _, tc := range []struct{ text, kind string }{
		{"sk-ant-api03-" + fill(urlSafe, 93) + "AA", "anthropic_api_key"},
		{"eyJrIjoi" + fill(alnum, 80) + "." + fill(alnum, 20) + "." + fill(alnum, 20), "grafana_api_key"},
	} {
		for name, f := range defaultFinders() {
			if got := f.First(tc.text); got != tc.kind {
				t.Errorf("%s: %.20q: %q, want %s", name, tc.text, got, tc.kind)
			}
		}
	}
}

// kindRow is a kind's row in the README's kinds table.
func kindRow(k kind) string {
	return "| `" + k.name + "` | " + strings.ReplaceAll(k.shape, "|", `\|`) + " |"
}

// TestTheREADMEListsEveryKind keeps the README's kinds table the list of
// default kinds, guard.DefaultSecrets, in order, each with its shape.
func TestTheREADMEListsEveryKind(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
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
	want := "TELEGRAM_TOKEN=110201543[REDACTED telegram_bot_token]"
	for name, f := range defaultFinders() {
		if got := f.Redact("TELEGRAM_TOKEN="+token, new(Tally)); got != want {
			t.Errorf("%s: redacted to %q, want %q", name, got, want)
		}
	}
}

// placeholderTexts are tokens written to be read, in a README, a test or a
// template: each has a default kind's shape, and a placeholder word where
// the key would be.
var placeholderTexts = []string{
	"sk_test_placeholder",
	"sk_live_EXAMPLEKEY0123456789abcd",
	"AKIAIOSFODNN7EXAMPLE",
	"ghp_" + "Example" + fill(alnum, 29),
	"sk-proj-" + "your_key_here_" + fill(urlSafe, 30),
	"sk-proj-" + fill(urlSafe, 20) + "YOUR-API-KEY" + fill(urlSafe, 10),
	"glpat-" + fill(urlSafe, 20) + "xxxxxxxx",
	"xoxb-" + fill(alnum, 12) + "-XXXXXXXXXX-" + fill(alnum, 20),
	"npm_" + "Placeholder" + fill(alnum, 25),
	"figd_" + "placeholder" + fill(urlSafe, 30),
	"CFPAT-" + "example_" + fill(urlSafe, 35),
	"aio_" + "YourKeyHere" + fill(alnum, 17),
	"postgres://app:changeme@db.internal:5432/app",
	"hf_" + "SampleToken" + fill(secrettest.Letters, 23),
}

// TestPlaceholderWordsAreNoSecret: a placeholder word in a token of any
// kind makes it a placeholder, whatever its entropy. Each text matches its
// kind's expression, so it is the word, and no shape, that passes it.
func TestPlaceholderWordsAreNoSecret(t *testing.T) {
	for _, text := range placeholderTexts {
		matched := false
		for _, p := range DefaultPatterns() {
			matched = matched || p.Regexp.MatchString(text)
		}
		if !matched {
			t.Errorf("%q matches no default kind's expression: the case tests nothing", text)
			continue
		}
		t.Run(text[:min(len(text), 24)], func(t *testing.T) { assertNoSecret(t, text) })
	}
}

// TestPlaceholderWordsKeepTheirTwins: a key that merely holds letters of a
// placeholder word, or the word in another case than a placeholder writes
// it, is still found.
func TestPlaceholderWordsKeepTheirTwins(t *testing.T) {
	for text, kind := range map[string]string{
		"sk_test_" + fill(alnum, 24):              "stripe_secret_key",
		"sk_live_" + "Exampl3" + fill(alnum, 20):  "stripe_secret_key",
		"ghp_" + "xXxX" + fill(alnum, 32):         "github_token",
		"AKIAIOSFODNN7EXAMPL3":                    "aws_access_key",
		"sk-proj-" + "yours" + fill(urlSafe, 30):  "openai_key",
		"figd_" + "placehold" + fill(urlSafe, 31): "figma_pat",
	} {
		for name, f := range defaultFinders() {
			if got := f.First("token: " + text + " ok"); got != kind {
				t.Errorf("%s: %q: found %q, want %s", name, text, got, kind)
			}
		}
	}
}
