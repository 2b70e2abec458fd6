//go:build amd64 && !purego

package guard

// haveVectors reports whether the processor and the operating system
// support AVX2, whose shuffles of 32 bytes pairIndex runs on; the purego
// build tag turns them off.
var haveVectors = hasAVX2()

// pairIndex is the smallest i from 1 on such that the tables let s[i] after
// s[i-1] through, or len(s) when there is none. It reads 32 pairs at a time
// with AVX2 where it can, and a text too short for that (32 pairs need 33
// bytes) one pair at a time.
func pairIndex(s string, t *pairTables) int {
	if !haveVectors || len(s) < 33 {
		return pairIndexPortable(s, t)
	}
	return pairIndexAVX2(s, t)
}

// pairIndexAVX2 is pairIndex for a text of at least 33 bytes, on AVX2.
//
//go:noescape
func pairIndexAVX2(s string, t *pairTables) int

// cpuid runs the CPUID instruction for leaf and subleaf sub and returns
// the registers EAX, EBX, ECX and EDX it sets.
func cpuid(leaf, sub uint32) (a, b, c, d uint32)

// xgetbv returns the low and the high half of the register XCR0, the kinds
// of register state the operating system saves across a context switch.
func xgetbv() (lo, hi uint32)

// hasAVX2 reports whether AVX2 can be used: the processor has it (CPUID
// leaf 7, EBX bit 5) and AVX (leaf 1, ECX bit 28), and the operating system
// saves the YMM registers (leaf 1, ECX bit 27, OSXSAVE, says XGETBV may be
// asked; XCR0 bits 1 and 2 say the XMM and the YMM state are saved).
func hasAVX2() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	const osxsave, avx = 1 << 27, 1 << 28
	if _, _, c, _ := cpuid(1, 0); c&osxsave == 0 || c&avx == 0 {
		return false
	}
	if lo, _ := xgetbv(); lo&0b110 != 0b110 {
		return false
	}
	const avx2 = 1 << 5
	_, b, _, _ := cpuid(7, 0)
	return b&avx2 != 0
}
