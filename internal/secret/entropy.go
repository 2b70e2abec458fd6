package secret

import (
	"math"
	"regexp"
)

// entropyAtLeast is a matcher test that keeps a match whose secret, the
// first group of the expression that found it when it has one, else the
// whole match, holds at least min bits of Shannon entropy per byte.
func entropyAtLeast(min float64) func(re *regexp.Regexp, match string) bool {
	return func(re *regexp.Regexp, match string) bool {
		secret := match
		if re.NumSubexp() > 0 {
			if loc := re.FindStringSubmatchIndex(match); loc != nil && loc[2] >= 0 {
				secret = match[loc[2]:loc[3]]
			}
		}
		return entropy(secret) >= min
	}
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
