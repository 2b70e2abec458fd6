package secret

import (
	"math"
	"math/bits"
	"slices"
)

// pairStarts is literalStarts' scanner on vector instructions. It reads
// the text once, as pairs of adjacent bytes: pairMasks marks, in a mask of
// 32 bits per 32 pairs, the pairs the tables let through (a superset of the
// pairs the literals are looked for by), a stretch of text at a time; each
// marked pair reaches the trigger groups of the literals that hold it
// (groupsByPrev), and where the byte after it is one those literals may
// hold there, addStarts checks them. The byte at 0, which has no byte
// before it, is checked on its own, and so are the last pairs, too few to
// fill a mask. The offsets it returns are not sorted.
func (m *matcher) pairStarts(text string) [][]int {
	var starts [][]int
	check := func(at int) {
		index := m.pairs.after[text[at]]
		if index == nil {
			return
		}
		if slot := index.slot[text[at-1]]; slot != 0 && (at+1 == len(text) || index.nexts[slot-1].has(text[at+1])) {
			starts = m.addStarts(starts, text, at, index.groups[slot-1])
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

// pairStretch is the pairs pairStarts has pairMasks mark at a time: their
// masks, 512 bytes, sit in the function's frame.
const pairStretch = 4 << 10

// pairScanner is what pairStarts looks for the literals with: the tables
// the pairs are marked by, and per byte looked for its trigger groups by
// the byte before it.
type pairScanner struct {
	tables *pairTables
	after  [256]*groupsByPrev
}

// groupsByPrev holds the trigger groups of a byte looked for by the byte
// before it: slot holds, per byte before, 1 plus the index in groups of the
// groups holding a literal with that pair, 0 when there is none. A group
// whose literals hold the byte first holds a literal with every pair. Bytes
// before with the same groups share them. nexts holds, per entry of groups,
// the bytes their literals hold just after the byte looked for, every byte
// when one of them ends with it: where another follows, none begins there.
type groupsByPrev struct {
	slot   [256]uint16
	groups [][]triggerGroup
	nexts  []byteSet
}

// newPairScanner builds m's pairScanner from its triggers, with tables,
// when not nil, as the tables newPairTables would build for them.
func newPairScanner(m *matcher, tables *pairTables) *pairScanner {
	if tables == nil {
		tables = newPairTables(m.bytes, &m.before)
	}
	p := &pairScanner{tables: tables}
	for _, b := range m.bytes {
		index := new(groupsByPrev)
		seen := map[string]uint16{}
		// slotOf is the slot of the groups holding a literal with x
		// before b, filed in index the first time they are met.
		var keyBuf [64]byte
		slotOf := func(x byte) uint16 {
			key := keyBuf[:0] // the indexes of the groups, two bytes each
			for gi, g := range m.triggers[b] {
				if g.offset == 0 || g.befores.has(x) {
					key = append(key, byte(gi>>8), byte(gi))
				}
			}
			if len(key) == 0 {
				return 0
			}
			if slot, ok := seen[string(key)]; ok {
				return slot
			}
			// The groups are gathered only for a set of them not met before.
			groups := make([]triggerGroup, 0, len(key)/2)
			for i := 0; i < len(key); i += 2 {
				groups = append(groups, m.triggers[b][int(key[i])<<8|int(key[i+1])])
			}
			index.groups = append(index.groups, groups)
			index.nexts = append(index.nexts, nextBytes(groups))
			seen[string(key)] = uint16(len(index.groups))
			return uint16(len(index.groups))
		}
		// Every byte that no literal holds before b reaches the same
		// groups, those at offset 0.
		var held byteSet
		for _, g := range m.triggers[b] {
			for i := range held {
				held[i] |= g.befores[i]
			}
		}
		other := uint16(0)
		for x := range 256 {
			if !held.has(byte(x)) {
				other = slotOf(byte(x))
				break
			}
		}
		for x := range 256 {
			index.slot[x] = other
			if held.has(byte(x)) {
				index.slot[x] = slotOf(byte(x))
			}
		}
		p.after[b] = index
	}
	return p
}

// nextBytes is the set of the bytes the literals of groups hold just after
// the byte looked for, every byte when one of them ends with it.
func nextBytes(groups []triggerGroup) byteSet {
	var nexts byteSet
	for _, g := range groups {
		for _, t := range g.triggers {
			if g.offset+1 == len(t.prefix) {
				return allBytes
			}
			nexts.add(t.prefix[g.offset+1])
		}
	}
	return nexts
}

// rarestPair is the offset in literal of the byte pairStarts looks for it
// by: of the bytes past the first that are chosen, the one that with the
// byte before it makes the literal's rarest pair, as the cost model takes
// it (pairShare); the first of equals. Where no byte past the first is
// chosen it is the second, and for a literal of one byte it is 0. It is
// never the first byte of a longer literal: that byte may follow any byte,
// and every place it is in the text would be a candidate.
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
// the cost model takes it: the product of their shares (byteShare), as if
// bytes followed one another by chance; but a byte twice over is taken to
// be as common as the byte itself, since a byte repeats in runs (a rule of
// dashes, a comment's slashes) far more often than chance has it.
func pairShare(a, b byte) float64 {
	if a == b {
		return byteShare(a)
	}
	return byteShare(a) * byteShare(b)
}

// pairTables let through the pairs of adjacent bytes the literals are
// looked for by, and some more. A set of four tables of sixteen entries,
// indexed by a nibble, gives the buckets (one bit each, eight to a set)
// that hold a pair: the low and the high nibble of the byte looked for
// (cur), the low and the high nibble of the byte before (prev). A pair is
// let through when a bucket holds all four nibbles, that is when the AND of
// the four entries of a set is not zero. There are two sets, for sixteen
// buckets.
//
// A vector instruction (PSHUFB) looks up 32 nibbles in a table at once, so
// the test costs a few instructions per 32 pairs of text, however many
// literals there are. A bucket lets through every byte whose low nibble is
// one of its bytes' and high nibble one of its bytes', which may be more
// than its bytes; pairStarts checks each pair let through exactly.
type pairTables [2]nibbleTables

// nibbleTables are a set of the four tables, for eight buckets. The layout,
// four tables of 16 bytes in this order, is what pairMasksAVX2 loads.
type nibbleTables struct {
	curLo, curHi, prevLo, prevHi [16]byte
}

// newPairTables builds the tables for the bytes looked for and, indexed by
// byte, the bytes their literals hold before them. It starts from exact
// buckets, one per byte looked for and high nibble of the bytes before it,
// and, while there are more than sixteen, merges the two whose merge lets
// through the fewest pairs neither let through before, as the cost model
// takes it (pairBucket.share).
func newPairTables(bytes []byte, before *[256]byteSet) *pairTables {
	var buckets []pairBucket
	for _, b := range bytes {
		// A bucket per high nibble of the bytes before b holds them
		// exactly; every byte before is one bucket.
		var byHigh [16]nibbleSet
		for x := range 256 {
			if before[b].has(byte(x)) {
				byHigh[x>>4].add(byte(x))
			}
		}
		if before[b] == allBytes {
			byHigh = [16]nibbleSet{{0xffff, 0xffff}}
		}
		var cur nibbleSet
		cur.add(b)
		for _, prev := range byHigh {
			if prev.lo != 0 {
				buckets = append(buckets, newPairBucket(cur, prev))
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

// pairBucket is a bucket of the tables: the bytes looked for it holds, the
// bytes before them, and the share of a text's pairs it lets through as the
// cost model takes it, each byte taken to follow any other by chance.
type pairBucket struct {
	cur, prev nibbleSet
	share     float64
}

func newPairBucket(cur, prev nibbleSet) pairBucket {
	return pairBucket{cur: cur, prev: prev, share: cur.share() * prev.share()}
}

// nibbleSet is a set of bytes as the tables hold it: every byte whose low
// nibble is in lo and high nibble in hi.
type nibbleSet struct {
	lo, hi uint16
}

func (s *nibbleSet) add(b byte) { s.lo |= 1 << (b & 15); s.hi |= 1 << (b >> 4) }

// share is the share of a text's bytes in s, as the cost model takes it.
// It visits only the nibbles in s, the high ones then the low ones
// ascending, and so adds the same shares in the same order as a walk over
// all 256 bytes would: newPairTables, which calls it for every pair of
// buckets, spends most of a finder's building here.
func (s nibbleSet) share() float64 {
	of := shares()
	sum := 0.0
	for his := s.hi; his != 0; his &= his - 1 {
		row := bits.TrailingZeros16(his) << 4
		for los := s.lo; los != 0; los &= los - 1 {
			sum += of[row|bits.TrailingZeros16(los)]
		}
	}
	return sum
}

// merge is the bucket that lets through what k and o do.
func (k pairBucket) merge(o pairBucket) pairBucket {
	return newPairBucket(nibbleSet{k.cur.lo | o.cur.lo, k.cur.hi | o.cur.hi}, nibbleSet{k.prev.lo | o.prev.lo, k.prev.hi | o.prev.hi})
}

// mergeAdds is the share of a text's pairs that merging k and o lets
// through and neither did alone.
func (k pairBucket) mergeAdds(o pairBucket) float64 {
	return k.merge(o).share - k.share - o.share
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
