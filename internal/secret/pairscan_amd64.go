//go:build amd64 && !purego

package secret

import "sync"

// haveVectors reports whether the processor and the operating system
// support AVX2, whose shuffles of 32 bytes pairMasks runs on; the purego
// build tag turns them off. It asks the processor on its first call, not
// when the package loads: under a hypervisor each CPUID traps, and a
// process that builds no finder (a hook call of most events) should not
// pay for them.
func haveVectors() bool {
	vectors.once.Do(func() { vectors.ok = hasAVX2() })
	return vectors.ok
}

// vectors holds what haveVectors found.
var vectors struct {
	once sync.Once
	ok   bool
}

// pairMasks sets masks[c], bit i, where the tables let s[32c+i+1] after
// s[32c+i] through. len(s) is 1+32*len(masks). It reads 32 pairs at a time
// with AVX2 where the processor has it.
func pairMasks(s string, t *pairTables, masks []uint32) {
	if !haveVectors() {
		pairMasksPortable(s, t, masks)
		return
	}
	pairMasksAVX2(s, t, masks)
}

// pairMasksAVX2 is pairMasks on AVX2.
//
//go:noescape
func pairMasksAVX2(s string, t *pairTables, masks []uint32)

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
