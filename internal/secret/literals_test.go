package secret

import (
	"slices"
	"testing"
	"unicode/utf8"
)

func TestLiteralPrefixes(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{`abc`, []string{"abc"}},
		{`(?:AKIA|ASIA)[A-Z0-9]{16}`, []string{"AKIA", "ASIA"}},
		{`gh[pousr]_[A-Za-z0-9]{36,}`, []string{"gho_", "ghp_", "ghr_", "ghs_", "ghu_"}},
		{`(foo)bar+`, []string{"fooba"}},
		{`(?i)ab`, []string{"AB", "Ab", "aB", "ab"}},
		{`x|yz`, []string{"x", "yz"}},
		{`\bfoo`, nil},
		{`^foo`, nil},
		{`.*foo`, nil},
		{`a*b`, nil},
		{`[a-z]+`, nil},
		{`foo|`, nil},
		{`[0-9][0-9][0-9]`, []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}},
	}
	for _, tc := range tests {
		got := readSyntax(tc.src).prefixes
		slices.Sort(got)
		if tc.want == nil && got != nil || !slices.Equal(got, tc.want) {
			t.Errorf("the prefixes of %q are %q, want %q", tc.src, got, tc.want)
		}
	}
}

func TestWindow(t *testing.T) {
	tests := []struct {
		src  string
		want int
	}{
		// A class of ASCII characters, or an ASCII literal, matches a byte
		// each; anything else, a rune of up to utf8.UTFMax.
		{`AKIA[A-Z0-9]{16}`, 20 + utf8.UTFMax},
		{`(?:pat|sat)\.[a-z]{2,5}`, 9 + utf8.UTFMax},
		{`a?b`, 2 + utf8.UTFMax},
		{`é[a-z]`, 3 + utf8.UTFMax},
		{`x[^a]`, 1 + utf8.UTFMax + utf8.UTFMax},
		{`x.`, 1 + utf8.UTFMax + utf8.UTFMax},
		{`x[a-zé]`, 1 + utf8.UTFMax + utf8.UTFMax},
		// Under case folding k is also the Kelvin sign, three bytes.
		{`(?i)k`, 3 + utf8.UTFMax},
		{`x[a-z]{250}`, 251 + utf8.UTFMax},
		{`ghp_[A-Za-z0-9]{36,}`, 0},
		{`a+`, 0},
		{`a*b`, 0},
		{`x[a-z]{300}`, 0},
		{`AKIA[A-Z0-9]{16}\b`, 0},
		{`^AKIA`, 0},
	}
	for _, tc := range tests {
		if got := readSyntax(tc.src).window; got != tc.want {
			t.Errorf("the window of %q is %d, want %d", tc.src, got, tc.want)
		}
	}
}
