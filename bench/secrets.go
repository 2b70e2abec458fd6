package bench

import (
	"math/rand/v2"
	"strings"

	"github.com/ChristopherDavenport/agentpolicy/guard"
	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
)

// words is the vocabulary of [Prose]: ordinary English with a few tokens
// of the kind a coding agent's window holds, none of which begins a secret
// of either tool's rules.
var words = strings.Fields(`the of and to in is that for it as with was on be by at this
	from are or an have not which but all were when we there can more if one
	will their has been would about into than other some what time only its
	also them these could may first then do any like my now over such our
	build test review change file line value error before after while again
	System Module Package Function Report Table Monday 2026 42 3.14
	main.go go.mod config.yaml README.md make`)

// Prose is n bytes of clean text in lines of about 80 bytes, the same for
// the same n.
func Prose(n int) string {
	r := rand.New(rand.NewPCG(17, 29))
	var b strings.Builder
	b.Grow(n + 16)
	line := 0
	for b.Len() < n {
		w := words[r.IntN(len(words))]
		b.WriteString(w)
		line += len(w) + 1
		if line >= 80 {
			b.WriteString(".\n")
			line = 0
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()[:n]
}

// Kinds are eight kinds of guard.DefaultSecrets, by name, each with a
// generator of a secret of the kind that both guard's expression and
// gitleaks' default rule for the kind find: random, so gitleaks' entropy
// thresholds pass, and of the lengths its rules require. [PlantSecrets]
// plants them.
var Kinds = []struct {
	Name string
	New  func(r *rand.Rand) string
}{
	{"aws_access_key", func(r *rand.Rand) string {
		return "AKIA" + random(r, upperBase32, 16)
	}},
	{"github_token", func(r *rand.Rand) string {
		return "ghp_" + random(r, alnum, 36)
	}},
	{"github_pat", func(r *rand.Rand) string {
		return "github_pat_" + random(r, alnum+"_", 82)
	}},
	{"slack_token", func(r *rand.Rand) string {
		return "xoxb-" + random(r, digits, 12) + "-" + random(r, digits, 13) + "-" + random(r, alnum, 24)
	}},
	{"google_api_key", func(r *rand.Rand) string {
		return "AIza" + random(r, alnum+"_-", 35)
	}},
	{"openai_key", func(r *rand.Rand) string {
		return "sk-" + random(r, alnum, 20) + "T3BlbkFJ" + random(r, alnum, 20)
	}},
	{"private_key", func(r *rand.Rand) string {
		var b strings.Builder
		b.WriteString("-----BEGIN RSA PRIVATE KEY-----\n")
		for range 6 {
			b.WriteString(random(r, alnum+"+/", 64) + "\n")
		}
		b.WriteString("-----END RSA PRIVATE KEY-----")
		return b.String()
	}},
	{"jwt", func(r *rand.Rand) string {
		return "eyJ" + random(r, alnum, 32) + ".eyJ" + random(r, alnum, 40) + "." + random(r, alnum+"_-", 43)
	}},
}

const (
	digits      = "0123456789"
	upperBase32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	alnum       = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
)

func random(r *rand.Rand, alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

// PlantSecrets returns text, of the same length, with count secrets spread
// evenly through it, each on a line of its own, going through the kinds in
// turn, and the secrets in the order planted. The same text and count give
// the same secrets.
func PlantSecrets(text string, count int) (string, []string) {
	r := rand.New(rand.NewPCG(uint64(count), 7))
	var b strings.Builder
	b.Grow(len(text))
	secrets := make([]string, count)
	step := len(text) / count
	for i := range count {
		secrets[i] = Kinds[i%len(Kinds)].New(r)
		chunk := text[i*step : (i+1)*step]
		if i == count-1 {
			chunk = text[i*step:]
		}
		b.WriteString(chunk[:len(chunk)-len(secrets[i])-2])
		b.WriteString("\n" + secrets[i] + "\n")
	}
	return b.String(), secrets
}

// Gitleaks is gitleaks' detector configured with the same kinds of secret
// as patterns, one rule per pattern with the pattern's own expression and,
// as keywords, the literals that begin its matches (lower case, as gitleaks
// compares them), its entropy threshold and no allowlist, so it looks for
// what guard.Redact looks for, the way gitleaks looks. A pattern without
// such literals gets no keywords, and gitleaks then runs its expression
// over every text.
func Gitleaks(patterns []guard.Pattern) *detect.Detector {
	cfg := config.Config{Rules: map[string]config.Rule{}, Keywords: map[string]struct{}{}}
	for _, p := range patterns {
		rule := config.Rule{RuleID: p.Name, Regex: p.Regexp, Entropy: p.MinEntropy}
		for _, prefix := range literalPrefixes(p.Regexp.String(), 1) {
			kw := strings.ToLower(prefix)
			rule.Keywords = append(rule.Keywords, kw)
			cfg.Keywords[kw] = struct{}{}
		}
		cfg.Rules[p.Name] = rule
		cfg.OrderedRules = append(cfg.OrderedRules, p.Name)
	}
	return detect.NewDetector(cfg)
}

// GitleaksDefault is gitleaks' detector with its own default rules, over two
// hundred kinds of secret.
func GitleaksDefault() (*detect.Detector, error) {
	return detect.NewDetectorDefaultConfig()
}
