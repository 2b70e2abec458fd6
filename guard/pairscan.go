package guard

// pairTables classify a pair of adjacent bytes, the byte looked for and the
// one before it, by four tables of sixteen entries indexed by a nibble: the
// low and the high half of the byte (cur), the low and the high half of the
// byte before (prev). Each entry is a set of up to eight buckets, one bit
// each. A bucket holds some of the bytes looked for and every byte their
// literals hold just before them (matcher.before), and a pair is a
// candidate when one bucket holds the byte through both its nibbles and the
// byte before through both of its: the AND of the four entries is not zero.
//
// A vector instruction (PSHUFB) looks up sixteen or thirty-two nibbles in a
// table at once, so the test costs a few instructions per thirty-two bytes
// of text, however many bytes are looked for. It is a superset of the
// matcher's own test: a bucket matches every byte whose low nibble is one
// of its bytes' and high nibble one of its bytes', which is more than its
// bytes. Each bucket holds the bytes looked for that share a high nibble,
// which makes the byte's half exact, and pairStarts checks each candidate
// as byteStarts does.
type pairTables struct {
	curLo, curHi, prevLo, prevHi [16]byte
}

// newPairTables builds the tables for the bytes looked for and, indexed by
// byte, the bytes their literals hold before them.
func newPairTables(bytes []byte, before *[256]byteSet) *pairTables {
	t := new(pairTables)
	var bucketOf [16]int // per high nibble, its bucket plus one
	buckets := 0
	for _, b := range bytes {
		hi := b >> 4
		if bucketOf[hi] == 0 {
			bucketOf[hi] = buckets%8 + 1
			buckets++
		}
		bit := byte(1) << (bucketOf[hi] - 1)
		t.curLo[b&15] |= bit
		t.curHi[hi] |= bit
		for x := range 256 {
			if before[b].has(byte(x)) {
				t.prevLo[x&15] |= bit
				t.prevHi[x>>4] |= bit
			}
		}
	}
	return t
}

// candidate reports whether the tables let cur, after prev, through.
func (t *pairTables) candidate(prev, cur byte) bool {
	return t.curLo[cur&15]&t.curHi[cur>>4]&t.prevLo[prev&15]&t.prevHi[prev>>4] != 0
}

// pairIndexPortable is the smallest i from 1 on such that the tables let
// s[i] after s[i-1] through, or len(s) when there is none: pairIndex one
// pair at a time.
func pairIndexPortable(s string, t *pairTables) int {
	for i := 1; i < len(s); i++ {
		if t.candidate(s[i-1], s[i]) {
			return i
		}
	}
	return len(s)
}

// pairStarts is literalStarts' scanner over the pairs of the text, in one
// pass: the byte at 0, which has no byte before it, is checked on its own;
// every other candidate pairIndex finds is checked as byteStarts checks a
// byte it finds.
func (m *matcher) pairStarts(text string) [][]int {
	var starts [][]int
	if text != "" && m.triggers[text[0]] != nil {
		starts = m.addStarts(starts, text, 0, m.triggers[text[0]])
	}
	for at := 1; at < len(text); at++ {
		at += pairIndex(text[at-1:], m.pairs) - 1
		if at == len(text) {
			break
		}
		if b := text[at]; m.triggers[b] != nil && m.before[b].has(text[at-1]) {
			starts = m.addStarts(starts, text, at, m.triggers[b])
		}
	}
	return starts
}
