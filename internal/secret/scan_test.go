package secret

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// reference is the matcher's contract spelled out slowly: from each byte
// on, the first expression with a non-empty match starting there.
func reference(res []*regexp.Regexp, text string) []span {
	anchored := make([]*regexp.Regexp, len(res))
	for i, re := range res {
		anchored[i] = regexp.MustCompile(`^(?:` + re.String() + `)`)
	}
	var out []span
	for pos := 0; pos < len(text); {
		found := false
		for q, re := range anchored {
			if loc := re.FindStringIndex(text[pos:]); loc != nil && loc[1] > 0 {
				out = append(out, span{start: pos, end: pos + loc[1], pattern: q})
				pos += loc[1]
				found = true
				break
			}
		}
		if !found {
			pos++
		}
	}
	return out
}

func collect(m *matcher, text string) []span {
	var out []span
	m.each(text, func(s span) bool {
		out = append(out, s)
		return true
	})
	return out
}

func TestMatcherTable(t *testing.T) {
	tests := []struct {
		name     string
		patterns []string
		text     string
		want     []span
	}{
		{"leftmost wins", []string{`bc`, `ab`}, "xabc", []span{{1, 3, 1}}},
		{"earlier pattern wins a tie", []string{`ab`, `abc`}, "abc", []span{{0, 2, 0}}},
		{"no overlap, next from the end", []string{`aa`}, "aaaaa", []span{{0, 2, 0}, {2, 4, 0}}},
		{"a match inside another is skipped", []string{`-----BEGIN.*END`, `AKIA`}, "-----BEGIN AKIA END AKIA", []span{{0, 19, 0}, {20, 24, 1}}},
		{"trigger late in the literal", []string{`xxxxxx_`, `x_`}, "xxxxxx_", []span{{0, 7, 0}}},
		{"loose and literal", []string{`[0-9]+`, `ab`}, "ab12ab3", []span{{0, 2, 1}, {2, 4, 0}, {4, 6, 1}, {6, 7, 0}}},
		{"loose after an overlap", []string{`abcd`, `c[0-9]*d`}, "abcdc1d", []span{{0, 4, 0}, {4, 7, 1}}},
		{"empty matches never reported", []string{`x*`}, "aaxa", []span{{2, 3, 0}}},
		{"no patterns", nil, "anything", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var res []*regexp.Regexp
			for _, p := range tc.patterns {
				res = append(res, regexp.MustCompile(p))
			}
			if got := collect(newMatcher(res), tc.text); !slices.Equal(got, tc.want) {
				t.Fatalf("matches %v, want %v", got, tc.want)
			}
		})
	}
}

func TestMatcherAgreesWithReference(t *testing.T) {
	sets := [][]string{
		{`ab+`, `b[ac]`, `(?i)ca`},
		{`a|ba`, `c.*?d`, `dd`},
		{`[0-9]+`, `a1`, `(?:ab|cd)e`},
		{`(?i)abc`, `bcd`, `x_?y`},
		// Tried only anchored, in a window: runes of two bytes, some cut.
		{`a.b`, `é.`, `[^a]x`},
	}
	r := rand.New(rand.NewPCG(7, 11))
	const alphabet = "abcdxy_1AB Cé"
	for round := range 2000 {
		n := r.IntN(40)
		buf := make([]byte, n)
		for i := range buf {
			buf[i] = alphabet[r.IntN(len(alphabet))]
		}
		text := string(buf)
		var res []*regexp.Regexp
		for _, p := range sets[round%len(sets)] {
			res = append(res, regexp.MustCompile(p))
		}
		want := reference(res, text)
		for name, m := range withScanners(res) {
			if got := collect(m, text); !slices.Equal(got, want) {
				t.Fatalf("patterns %v over %q with %s: matches %v, want %v", sets[round%len(sets)], text, name, got, want)
			}
		}
	}
}

func TestMatcherStopsWhenAsked(t *testing.T) {
	m := newMatcher([]*regexp.Regexp{regexp.MustCompile(`a`)})
	calls := 0
	m.each("aaaa", func(span) bool {
		calls++
		return calls < 2
	})
	if calls != 2 {
		t.Fatalf("fn called %d times after returning false on the second, want 2", calls)
	}
}

func TestTriggerBytes(t *testing.T) {
	tests := []struct {
		literals []string
		want     string
	}{
		// A rare byte the literals share beats the common one they share.
		{[]string{"a.K", "b.K"}, "K"},
		// 'q' is picked first, then '-' and ':', which leave it no literal
		// of its own, so it is dropped.
		{[]string{"aq-", "bq:", "c-", "d:"}, "-:"},
		{nil, ""},
	}
	for _, tc := range tests {
		chosen := triggerBytes(tc.literals)
		var want byteSet
		for i := 0; i < len(tc.want); i++ {
			want.add(tc.want[i])
		}
		if chosen != want {
			t.Errorf("triggerBytes(%q) = %v, want the bytes %q", tc.literals, chosen, tc.want)
		}
	}
}

func TestEveryDefaultLiteralHoldsATriggerByte(t *testing.T) {
	var literals []string
	for _, p := range DefaultPatterns() {
		literals = append(literals, readSyntax(p.Regexp.String()).prefixes...)
	}
	chosen := triggerBytes(literals)
	for _, p := range literals {
		if !holdsAny(p, &chosen) {
			t.Errorf("literal %q holds none of the bytes looked for", p)
		}
	}
	n := 0
	for b := range 256 {
		if chosen.has(byte(b)) {
			n++
			if i := strings.IndexByte(commonBytes, byte(b)); i >= 0 && i < 10 {
				t.Errorf("the matcher looks for %q, one of the ten most frequent bytes", b)
			}
		}
	}
	// Fourteen: the eleven the other kinds need, and M, N and O, which
	// begin a Discord bot token and no other kind's literal holds.
	if n > 14 {
		t.Errorf("the portable scanner makes %d passes over a text for the default kinds, want 14 or fewer", n)
	}
}
