package secret

import (
	"math"
	"testing"
)

func TestEntropy(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want float64
	}{
		{"", 0},
		{"aaaa", 0},
		{"abab", 1},
		{"abcd", 2},
		{fill(hexLower, 16), 4},
	} {
		if got := entropy(tc.s); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("entropy(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}
