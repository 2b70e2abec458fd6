package secret

import "math"

// entropyAtLeast is a matcher test for the expression e that keeps a match
// whose secret, e's first group when it has one, else the whole match,
// holds at least min bits of Shannon entropy per byte.
func entropyAtLeast(e expr, min float64) func(match string) bool {
	return func(match string) bool {
		re := e.compiled()
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
