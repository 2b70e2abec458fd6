package secret

import (
	"math"
	"strings"
)

// realSecret is the placeholder test for the expression e: it keeps a
// match whose secret, e's first group when it has one, else the whole
// match, holds at least min bits of Shannon entropy per byte and no
// placeholder word.
func realSecret(e expr, min float64) func(match string) bool {
	return func(match string) bool {
		re := e.compiled()
		secret := match
		if re.NumSubexp() > 0 {
			if loc := re.FindStringSubmatchIndex(match); loc != nil && loc[2] >= 0 {
				secret = match[loc[2]:loc[3]]
			}
		}
		return entropy(secret) >= min && !holdsPlaceholderWord(secret)
	}
}

// placeholderWords are what a token written to be read holds where the key
// would be, in a README, a test or a template ("sk_test_placeholder",
// "AKIAIOSFODNN7EXAMPLE", "sk-proj-your_key_here"), in lower case. Each
// is six characters or more, so a key drawn at random holds one rarely: one
// of 40 URL-safe characters about once in 27 million, by count, "sample"
// by far the likeliest.
var placeholderWords = []string{
	"placeholder", "example", "sample", "changeme", "redacted",
	"yourkey", "your_key", "your-key", "yourapi", "your_api", "your-api",
	"yourtoken", "your_token", "your-token", "yoursecret", "your_secret", "your-secret",
}

// holdsPlaceholderWord reports whether s holds a placeholder word in any
// case, or a run of six x's in one case, "xxxxxx" or "XXXXXX". A shorter
// run, or one in mixed case, is left to the entropy test: a key of 40
// URL-safe characters holds four x's of one case about once in 230,000.
func holdsPlaceholderWord(s string) bool {
	if strings.Contains(s, "xxxxxx") || strings.Contains(s, "XXXXXX") {
		return true
	}
	lower := strings.ToLower(s)
	for _, w := range placeholderWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// entropy is the Shannon entropy of s in bits per byte: 0 for a run of one
// byte, 8 at most.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	n := float64(len(s))
	var h float64
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}
