package guard

import (
	"math"
	"math/bits"
	"slices"
)

// pairTables classify a pair of adjacent bytes, the byte looked for and the
// one before it, by four tables of sixteen entries indexed by a nibble: the
// low and the high half of the byte (cur), the low and the high half of the
// byte before (prev). Each entry is a set of buckets, one bit each, and
// there are two sets of tables, for sixteen buckets. A bucket holds some of
// the bytes looked for and some of the bytes their literals hold just
// before them (matcher.before), and a pair is a candidate when one bucket
// holds the byte through both its nibbles and the byte before through both
// of its: the AND of the four entries of a set is not zero.
//
// A vector instruction (PSHUFB) looks up sixteen or thirty-two nibbles in a
// table at once, so the test costs a few instructions per thirty-two bytes
// of text, however many bytes are looked for. It is a superset of the
// matcher's own test: a bucket holds every byte whose low nibble is one of
// its bytes' and high nibble one of its bytes', which may be more than its
// bytes; pairStarts checks each candidate exactly.
type pairTables [2]nibbleTables

// nibbleTables are a set of the four tables, for eight buckets.
type nibbleTables struct {
	curLo, curHi, prevLo, prevHi [16]byte
}

// newPairTables builds the tables for the bytes looked for and, indexed by
// byte, the bytes their literals hold before them. It starts from a bucket
// per byte and, while there are more than eight, merges the two whose
// merged bucket lets through the least more pairs than the two did, as the
// cost model takes it (pairBucket.share).
func newPairTables(bytes []byte, before *[256]byteSet) *pairTables {
	var buckets []pairBucket
	for _, b := range bytes {
		// A bucket per high nibble of the bytes before b holds them
		// exactly; every byte before is one bucket.
		var byHigh [16]pairBucket
		for x := range 256 {
			if before[b].has(byte(x)) {
				byHigh[x>>4].prev.add(byte(x))
			}
		}
		if before[b] == allBytes {
			byHigh = [16]pairBucket{{prev: nibbleSet{0xffff, 0xffff}}}
		}
		for _, k := range byHigh {
			if k.prev.lo != 0 {
				k.cur.add(b)
				buckets = append(buckets, k)
			}
		}
	}
	// added[i][j], for i < j, is what merging buckets i and j adds.
	added := make([][]float64, len(buckets))
	for i := range buckets {
		added[i] = make([]float64, len(buckets))
		for j := i + 1; j < len(buckets); j++ {
			added[i][j] = buckets[i].mergeAdds(buckets[j])
		}
	}
	for len(buckets) > 16 {
		bi, bj, least := 0, 1, math.Inf(1)
		for i := range buckets {
			for j := i + 1; j < len(buckets); j++ {
				if added[i][j] < least {
					bi, bj, least = i, j, added[i][j]
				}
			}
		}
		buckets[bi] = buckets[bi].merge(buckets[bj])
		buckets = slices.Delete(buckets, bj, bj+1)
		added = slices.Delete(added, bj, bj+1)
		for i := range added {
			added[i] = slices.Delete(added[i], bj, bj+1)
		}
		for j := range buckets {
			if j < bi {
				added[j][bi] = buckets[j].mergeAdds(buckets[bi])
			} else if j > bi {
				added[bi][j] = buckets[bi].mergeAdds(buckets[j])
			}
		}
	}
	t := new(pairTables)
	for i, k := range buckets {
		t := &t[i/8]
		bit := byte(1) << (i % 8)
		for n := range 16 {
			if k.cur.lo&(1<<n) != 0 {
				t.curLo[n] |= bit
			}
			if k.cur.hi&(1<<n) != 0 {
				t.curHi[n] |= bit
			}
			if k.prev.lo&(1<<n) != 0 {
				t.prevLo[n] |= bit
			}
			if k.prev.hi&(1<<n) != 0 {
				t.prevHi[n] |= bit
			}
		}
	}
	return t
}

// pairBucket is a bucket of the tables: the bytes it lets through, each
// the set of bytes whose low nibble is in lo and high nibble in hi.
type pairBucket struct {
	cur, prev nibbleSet
}

// nibbleSet is a set of bytes made of sets of low and high nibbles: it
// holds every byte of a low nibble in lo and a high nibble in hi.
type nibbleSet struct {
	lo, hi uint16
}

func (s *nibbleSet) add(b byte) { s.lo |= 1 << (b & 15); s.hi |= 1 << (b >> 4) }

// share is the share of a text's bytes in s, as the cost model takes it.
func (s nibbleSet) share() float64 {
	sum := 0.0
	for hi := range 16 {
		if s.hi&(1<<hi) == 0 {
			continue
		}
		for lo := range 16 {
			if s.lo&(1<<lo) != 0 {
				sum += byteShare(byte(hi<<4 | lo))
			}
		}
	}
	return sum
}

// merge is the bucket that lets through what k and o do.
func (k pairBucket) merge(o pairBucket) pairBucket {
	return pairBucket{cur: nibbleSet{k.cur.lo | o.cur.lo, k.cur.hi | o.cur.hi}, prev: nibbleSet{k.prev.lo | o.prev.lo, k.prev.hi | o.prev.hi}}
}

// share is the share of a text's pairs k lets through, as the cost model
// takes it: each byte taken to follow any other by chance.
func (k pairBucket) share() float64 { return k.cur.share() * k.prev.share() }

// mergeAdds is the share of a text's pairs that merging k and o lets
// through and neither did alone.
func (k pairBucket) mergeAdds(o pairBucket) float64 {
	return k.merge(o).share() - k.share() - o.share()
}

// candidate reports whether the tables let cur, after prev, through.
func (t *pairTables) candidate(prev, cur byte) bool {
	return t[0].candidate(prev, cur) || t[1].candidate(prev, cur)
}

// candidate reports whether one of the eight buckets of t holds cur after
// prev.
func (t *nibbleTables) candidate(prev, cur byte) bool {
	return t.curLo[cur&15]&t.curHi[cur>>4]&t.prevLo[prev&15]&t.prevHi[prev>>4] != 0
}

// pairMasksPortable sets masks[c], bit i, where the tables let
// s[32c+i+1] after s[32c+i] through: pairMasks one pair at a time. len(s)
// is 1+32*len(masks).
func pairMasksPortable(s string, t *pairTables, masks []uint32) {
	for c := range masks {
		var mask uint32
		for i := range 32 {
			if at := 32*c + i + 1; t.candidate(s[at-1], s[at]) {
				mask |= 1 << i
			}
		}
		masks[c] = mask
	}
}

// pairScanner is what pairStarts looks for the literals with: the tables,
// and per byte looked for the trigger groups it may begin by the byte
// before it, so a candidate reaches only the groups of literals that hold
// that pair.
type pairScanner struct {
	tables *pairTables
	after  [256]*groupsByPrev
}

// groupsByPrev holds, per byte before, 1 plus the index in groups of the
// trigger groups a pair ending in the byte looked for may begin, 0 for
// none. Bytes before with the same groups share them.
type groupsByPrev struct {
	slot   [256]uint16
	groups [][]triggerGroup
}

// newPairScanner builds m's pairScanner.
func newPairScanner(m *matcher) *pairScanner {
	p := &pairScanner{tables: newPairTables(m.bytes, &m.before)}
	for _, b := range m.bytes {
		index := new(groupsByPrev)
		seen := map[string]uint16{}
		for x := range 256 {
			var groups []triggerGroup
			var key []byte // the indexes of the groups, two bytes each
			for gi, g := range m.triggers[b] {
				if g.offset > 0 && !g.befores.has(byte(x)) {
					continue
				}
				groups = append(groups, g)
				key = append(key, byte(gi>>8), byte(gi))
			}
			if groups == nil {
				continue
			}
			if _, ok := seen[string(key)]; !ok {
				index.groups = append(index.groups, groups)
				seen[string(key)] = uint16(len(index.groups))
			}
			index.slot[x] = seen[string(key)]
		}
		p.after[b] = index
	}
	return p
}

// pairStarts is literalStarts' scanner over the pairs of the text, in one
// pass: pairMasks marks the candidates of a stretch of text at a time, 32
// pairs to a mask, and each is checked as byteStarts checks a byte it
// finds. The byte at 0, which has no byte before it, is checked on its
// own, and so are the last pairs, too few to fill a mask.
func (m *matcher) pairStarts(text string) [][]int {
	var starts [][]int
	check := func(at int) {
		if index := m.pairs.after[text[at]]; index != nil {
			if slot := index.slot[text[at-1]]; slot != 0 {
				starts = m.addStarts(starts, text, at, index.groups[slot-1])
			}
		}
	}
	if text != "" && m.triggers[text[0]] != nil {
		starts = m.addStarts(starts, text, 0, m.triggers[text[0]])
	}
	var masks [pairStretch / 32]uint32
	at := 1
	for at+32 <= len(text) {
		n := min(len(masks), (len(text)-at)/32)
		pairMasks(text[at-1:at+32*n], m.pairs.tables, masks[:n])
		for c, mask := range masks[:n] {
			for ; mask != 0; mask &= mask - 1 {
				check(at + 32*c + bits.TrailingZeros32(mask))
			}
		}
		at += 32 * n
	}
	for ; at < len(text); at++ {
		if m.pairs.tables.candidate(text[at-1], text[at]) {
			check(at)
		}
	}
	return starts
}

// pairStretch is the pairs pairStarts has pairMasks mark at a time.
const pairStretch = 4 << 10

// rarestPair is the offset in literal of the byte to look for so that it
// and the byte before it are the literal's rarest pair, as the cost model
// takes it (pairShare); 0 for a literal of one byte, which has no pair.
// The first of equals.
func rarestPair(literal string, chosen *byteSet) int {
	if len(literal) == 1 {
		return 0
	}
	best, bestShare := 1, math.Inf(1)
	for i := 1; i < len(literal); i++ {
		if s := pairShare(literal[i-1], literal[i]); chosen.has(literal[i]) && s < bestShare {
			best, bestShare = i, s
		}
	}
	return best
}

// pairShare is the share of a text's pairs of bytes that are a then b, as
// the cost model takes it: the product of their shares (byteShare), but a
// byte twice over as common as the byte itself is, since a byte repeats in
// runs (a rule of dashes, a comment's slashes, indentation) far more often
// than chance has it.
func pairShare(a, b byte) float64 {
	if a == b {
		return byteShare(a)
	}
	return byteShare(a) * byteShare(b)
}
