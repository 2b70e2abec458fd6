package guard

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// withScanners returns a matcher of res per scanner, by name, so a test
// runs both whatever the processor: pairStarts runs on pairIndexPortable
// where there are no vector instructions.
func withScanners(res []*regexp.Regexp) map[string]*matcher {
	byBytes, byPairs := newMatcher(res), newMatcher(res)
	byBytes.pairs = nil
	if byPairs.bytes != nil {
		byPairs.pairs = newPairTables(byPairs.bytes, &byPairs.before)
	}
	return map[string]*matcher{"byteStarts": byBytes, "pairStarts": byPairs}
}

// candidates are the offsets index finds in s, one call after another as
// pairStarts makes them.
func candidates(s string, t *pairTables, index func(string, *pairTables) int) []int {
	var out []int
	for at := 1; at < len(s); at++ {
		at += index(s[at-1:], t) - 1
		if at == len(s) {
			break
		}
		out = append(out, at)
	}
	return out
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

// TestPairIndexAgrees runs pairIndex, on vector instructions where the
// processor has them, beside pairIndexPortable over texts of every length
// up to 100 cut from a larger buffer at every alignment, over sets of 1 to
// 40 bytes, and over texts made of the set's own bytes (a candidate in
// every lane) and of bytes outside it (none), with candidates placed at
// each offset a vector of 16 or 32 bytes begins or ends at.
func TestPairIndexAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	buf := make([]byte, 256)
	for round := range 3000 {
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
		start := r.IntN(64)
		for n := range 101 {
			s := string(buf[start : start+n])
			if got, want := candidates(s, tables, pairIndex), candidates(s, tables, pairIndexPortable); !slices.Equal(got, want) {
				t.Fatalf("over %q with the bytes %q: pairIndex found %v, pairIndexPortable %v", s, set, got, want)
			}
		}
	}
}

// TestPairIndexEveryByte looks for each byte alone, after any byte, in a
// text holding every byte value, so each of the 256 is a candidate once.
func TestPairIndexEveryByte(t *testing.T) {
	var text strings.Builder
	for b := range 256 {
		text.WriteByte(byte(b))
	}
	s := text.String()
	for b := range 256 {
		var before [256]byteSet
		before[b] = byteSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
		tables := newPairTables([]byte{byte(b)}, &before)
		want := []int{b}
		if b == 0 {
			want = nil // the byte at 0 has no byte before it
		}
		if got := candidates(s, tables, pairIndex); !slices.Equal(got, want) {
			t.Errorf("looking for %#x found %v, want %v", b, got, want)
		}
	}
}

// TestScannersAgree runs the matcher's two scanners over texts holding the
// default kinds' literals, whole and cut, at random places, among bytes
// that begin and end them, and requires the same literal starts.
func TestScannersAgree(t *testing.T) {
	var res []*regexp.Regexp
	var literals []string
	for _, p := range DefaultSecrets {
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
		text := b.String()
		got, want := ms["pairStarts"].literalStarts(text), ms["byteStarts"].literalStarts(text)
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("over %q: pairStarts found %v, byteStarts %v", text, got, want)
		}
	}
}

// TestScannersAgreeAcrossBlocks places a literal across each offset of the
// boundary between two of byteStarts' blocks and at the text's ends.
func TestScannersAgreeAcrossBlocks(t *testing.T) {
	var res []*regexp.Regexp
	for _, p := range DefaultSecrets {
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
