package secret

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// withScanners returns a matcher of res per scanner, by name, so a test
// runs both whatever the processor: pairStarts runs on pairMasksPortable
// where there are no vector instructions.
func withScanners(res []*regexp.Regexp) map[string]*matcher {
	byBytes, byPairs := newMatcherFor(compiledExprs(res), false, nil), newMatcherFor(compiledExprs(res), true, nil)
	return map[string]*matcher{"byteStarts": byBytes, "pairStarts": byPairs}
}

// randomTables are the tables of n random bytes, each with a random set of
// bytes before it, every byte for about one in four.
func randomTables(r *rand.Rand, n int) (*pairTables, []byte) {
	var before [256]byteSet
	var bytes []byte
	for _, b := range r.Perm(256)[:n] {
		bytes = append(bytes, byte(b))
		if r.IntN(4) == 0 {
			before[b] = byteSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
			continue
		}
		for range 1 + r.IntN(6) {
			before[b].add(byte(r.IntN(256)))
		}
	}
	return newPairTables(bytes, &before), bytes
}

// TestPairMasksAgree runs pairMasks, on vector instructions where the
// processor has them, beside pairMasksPortable over texts cut from a larger
// buffer at every alignment, over sets of 1 to 40 bytes, and over texts
// made of the set's own bytes (a candidate in most lanes) and of bytes
// outside it (none), with candidates placed at each edge of a vector of 16
// or 32 bytes.
func TestPairMasksAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	buf := make([]byte, 256)
	for round := range 1500 {
		tables, set := randomTables(r, 1+round%40)
		var fill func() byte
		switch round % 3 {
		case 0: // any byte
			fill = func() byte { return byte(r.IntN(256)) }
		case 1: // mostly the set's bytes
			fill = func() byte {
				if r.IntN(3) == 0 {
					return byte(r.IntN(256))
				}
				return set[r.IntN(len(set))]
			}
		default: // no candidate but where one is planted
			fill = func() byte {
				for {
					if b := byte(r.IntN(256)); !slices.Contains(set, b) {
						return b
					}
				}
			}
		}
		for i := range buf {
			buf[i] = fill()
		}
		if round%3 == 2 {
			for _, at := range []int{1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 95, 96, 97} {
				if r.IntN(2) == 0 {
					buf[at] = set[r.IntN(len(set))]
					buf[at-1] = byte(r.IntN(256))
				}
			}
		}
		for start := range 64 {
			for n := range 4 {
				s := string(buf[start : start+1+32*n])
				got, want := make([]uint32, n), make([]uint32, n)
				pairMasks(s, tables, got)
				pairMasksPortable(s, tables, want)
				if !slices.Equal(got, want) {
					t.Fatalf("over %q with the bytes %q: pairMasks set %x, pairMasksPortable %x", s, set, got, want)
				}
			}
		}
	}
}

// TestPairMasksEveryByte looks for each byte alone, after any byte, in a
// text holding every byte value, so each of the 256 is a candidate once.
func TestPairMasksEveryByte(t *testing.T) {
	var text strings.Builder
	for b := range 256 + 1 {
		text.WriteByte(byte(b))
	}
	s := text.String()
	for b := range 256 {
		var before [256]byteSet
		before[b] = byteSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
		tables := newPairTables([]byte{byte(b)}, &before)
		masks := make([]uint32, 8)
		pairMasks(s, tables, masks)
		want := make([]uint32, 8)
		at := (b + 255) % 256 // the pair whose second byte is s[at+1], b
		want[at/32] = 1 << (at % 32)
		if !slices.Equal(masks, want) {
			t.Errorf("looking for %#x set %x, want %x", b, masks, want)
		}
	}
}

// TestScannersAgree runs the matcher's two scanners over texts of up to 300
// bytes holding the default kinds' literals, whole and cut, at random
// places, among random bytes, each text also from a random offset on, and
// requires the same literal starts.
func TestScannersAgree(t *testing.T) {
	var res []*regexp.Regexp
	var literals []string
	for _, p := range DefaultPatterns() {
		res = append(res, p.Regexp)
		literals = append(literals, readSyntax(p.Regexp.String()).prefixes...)
	}
	ms := withScanners(res)
	r := rand.New(rand.NewPCG(13, 17))
	for range 2000 {
		var b strings.Builder
		for b.Len() < r.IntN(300) {
			p := literals[r.IntN(len(literals))]
			switch r.IntN(4) {
			case 0:
				b.WriteString(p[:r.IntN(len(p)+1)])
			case 1:
				b.WriteString(p[r.IntN(len(p)):])
			case 2:
				b.WriteByte(byte(r.IntN(256)))
			default:
				b.WriteString(p)
			}
		}
		whole := b.String()
		// Cut at a random place, so the text starts at any alignment.
		for _, text := range []string{whole, whole[r.IntN(len(whole)+1):]} {
			got, want := ms["pairStarts"].literalStarts(text), ms["byteStarts"].literalStarts(text)
			if !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("over %q: pairStarts found %v, byteStarts %v", text, got, want)
			}
		}
	}
}

// TestScannersAgreeAcrossBlocks places a literal across each offset of the
// boundary between two of byteStarts' blocks and at the text's ends.
func TestScannersAgreeAcrossBlocks(t *testing.T) {
	var res []*regexp.Regexp
	for _, p := range DefaultPatterns() {
		res = append(res, p.Regexp)
	}
	ms := withScanners(res)
	const literal = "-----BEGIN"
	for _, n := range []int{scanBlock, 2 * scanBlock} {
		for cut := 0; cut <= len(literal)+1; cut++ {
			text := strings.Repeat("x", n-cut) + literal + strings.Repeat("y", cut)
			for _, s := range []string{text, text[:n], text[n-cut:]} {
				got, want := ms["pairStarts"].literalStarts(s), ms["byteStarts"].literalStarts(s)
				if !slices.EqualFunc(got, want, slices.Equal) || !strings.HasSuffix(s, "y") && strings.Contains(s, literal) && want == nil {
					t.Fatalf("a literal %d bytes before the end of %d: pairStarts found %v, byteStarts %v", cut, len(s), got, want)
				}
			}
		}
	}
}

func TestRarestPair(t *testing.T) {
	tests := []struct {
		literal string
		chosen  string
		want    int
	}{
		// "K-" is rarer than "sK": 's' is common, '-' less so.
		{"sK-", "K-", 2},
		// The first byte alone is chosen: the second ends the pair.
		{"Kab", "K", 1},
		// A byte twice over is as common as the byte: "//" loses to "e/",
		// though 'e' is the most common letter and chance has "//" rarer.
		{"e//", "/", 1},
		{"K", "K", 0},
	}
	for _, tc := range tests {
		var chosen byteSet
		for i := 0; i < len(tc.chosen); i++ {
			chosen.add(tc.chosen[i])
		}
		if got := rarestPair(tc.literal, &chosen); got != tc.want {
			t.Errorf("rarestPair(%q, %q) = %d, want %d", tc.literal, tc.chosen, got, tc.want)
		}
	}
}

// TestPairScannerNeverLooksForAFirstByte checks that under pairStarts no
// default literal longer than a byte is looked for by its first byte,
// which any byte may precede, so that every pair let through is one a
// literal holds, and that the tables are exact for every byte looked for
// and a byte before it that a literal holds there.
func TestPairScannerNeverLooksForAFirstByte(t *testing.T) {
	m := newMatcherFor(compiledExprs(regexps(DefaultPatterns())), true, nil)
	for _, b := range m.bytes {
		for _, g := range m.triggers[b] {
			for _, tr := range g.triggers {
				if g.offset == 0 && len(tr.prefix) > 1 {
					t.Errorf("literal %q is looked for by its first byte", tr.prefix)
				}
				if g.offset > 0 && !m.pairs.tables.candidate(tr.prefix[g.offset-1], b) {
					t.Errorf("the tables miss the pair %q of literal %q", tr.prefix[g.offset-1:g.offset+1], tr.prefix)
				}
			}
		}
	}
}

// FuzzScannersAgree runs the matcher's two scanners over the default kinds
// on any text and requires the same literal starts, and the same matches.
func FuzzScannersAgree(f *testing.F) {
	for _, seed := range []string{"", "AKIA", "x-----BEGIN y", "README EAAA sk-ant-api03-", strings.Repeat("pat.", 20)} {
		f.Add(seed)
	}
	ms := withScanners(regexps(DefaultPatterns()))
	f.Fuzz(func(t *testing.T, text string) {
		got, want := ms["pairStarts"].literalStarts(text), ms["byteStarts"].literalStarts(text)
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("over %q: pairStarts found %v, byteStarts %v", text, got, want)
		}
		if got, want := collect(ms["pairStarts"], text), collect(ms["byteStarts"], text); !slices.Equal(got, want) {
			t.Fatalf("over %q: pairStarts matched %v, byteStarts %v", text, got, want)
		}
	})
}
