//go:build amd64 && !purego

#include "textflag.h"

// func pairMasksAVX2(s string, t *pairTables, masks []uint32)
//
// It sets masks[c], bit i, where the tables let s[32c+i+1] after s[32c+i]
// through. len(s) is 1+32*len(masks), so every load lies within s.
//
// Each step reads 32 pairs: the 32 bytes looked for, and the 32 bytes one
// to the left, each the byte before. It splits both into their low and
// high nibbles and looks each nibble up in its table of each set (VPSHUFB
// looks up 32 nibbles at once), ANDs the four bucket sets each pair gets
// from a set, ORs the two sets' results, and gathers into a mask a bit per
// pair where a bucket is left.
TEXT ·pairMasksAVX2(SB), NOSPLIT, $0-48
	MOVQ s_base+0(FP), SI      // SI: the address of the text
	MOVQ t+16(FP), AX          // AX: the address of the tables
	MOVQ masks_base+24(FP), DI // DI: the address of the masks
	MOVQ masks_len+32(FP), CX  // CX: how many masks to set

	// Load each table of 16 bytes into both 128-bit halves of a register:
	// VPSHUFB looks up within each half, so each half needs the table.
	VBROADCASTI128 0(AX), Y6    // Y6: curLo of the first set
	VBROADCASTI128 16(AX), Y7   // Y7: its curHi
	VBROADCASTI128 32(AX), Y8   // Y8: its prevLo
	VBROADCASTI128 48(AX), Y9   // Y9: its prevHi
	VBROADCASTI128 64(AX), Y10  // Y10: curLo of the second set
	VBROADCASTI128 80(AX), Y11  // Y11: its curHi
	VBROADCASTI128 96(AX), Y12  // Y12: its prevLo
	VBROADCASTI128 112(AX), Y13 // Y13: its prevHi

	MOVQ         $0x0f0f0f0f0f0f0f0f, AX // eight bytes of 0x0F, the low-nibble mask
	MOVQ         AX, X14                 // into the low 64 bits of X14
	VPBROADCASTQ X14, Y14                // Y14: 0x0F in all 32 bytes
	VPXOR        Y15, Y15, Y15           // Y15: all zero, to compare against

	TESTQ CX, CX // no mask to set?
	JZ    done

loop:
	VMOVDQU 1(SI), Y0 // Y0: the next 32 bytes, each the second of a pair
	VMOVDQU (SI), Y1  // Y1: the 32 bytes one to the left, each the first

	VPSRLW $4, Y0, Y2  // shift each 16-bit word right by 4: a byte's high nibble moves to its low half
	VPAND  Y14, Y2, Y2 // Y2: the high nibble of each second byte, 0 to 15
	VPAND  Y14, Y0, Y0 // Y0: the low nibble of each second byte
	VPSRLW $4, Y1, Y3  // the same for the first bytes
	VPAND  Y14, Y3, Y3 // Y3: the high nibble of each first byte
	VPAND  Y14, Y1, Y1 // Y1: the low nibble of each first byte

	// VPSHUFB Y0, Y6, Y4 sets each byte of Y4 to the byte of Y6 that the
	// same byte of Y0 indexes, within its 128-bit half: a table lookup of
	// 32 nibbles at once.
	VPSHUFB Y0, Y6, Y4 // the first set's buckets holding a second byte of that low nibble
	VPSHUFB Y2, Y7, Y5 // and of that high nibble
	VPAND   Y5, Y4, Y4 // both
	VPSHUFB Y1, Y8, Y5 // the buckets holding a first byte of that low nibble
	VPAND   Y5, Y4, Y4 // all three
	VPSHUFB Y3, Y9, Y5 // and of that high nibble
	VPAND   Y5, Y4, Y4 // Y4: the first set's buckets holding the pair

	VPSHUFB Y0, Y10, Y0 // the same with the second set: low nibble of the second byte
	VPSHUFB Y2, Y11, Y2 // its high nibble
	VPAND   Y2, Y0, Y0  // both
	VPSHUFB Y1, Y12, Y1 // the low nibble of the first byte
	VPAND   Y1, Y0, Y0  // all three
	VPSHUFB Y3, Y13, Y3 // its high nibble
	VPAND   Y3, Y0, Y0  // Y0: the second set's buckets holding the pair

	VPOR      Y4, Y0, Y0  // Y0: not zero where a bucket of either set holds the pair
	VPCMPEQB  Y15, Y0, Y0 // each byte 0xFF where no bucket does, 0 where one does
	VPMOVMSKB Y0, AX      // gather the top bit of each byte into a 32-bit mask
	NOTL      AX          // flip it: a bit set per candidate pair
	MOVL      AX, (DI)    // store it as this mask

	ADDQ $32, SI // on to the next 32 pairs
	ADDQ $4, DI  // and the next mask
	DECQ CX      // one mask fewer to set
	JNZ  loop    // until none is left

done:
	VZEROUPPER // clear the upper halves of the YMM registers, as code leaving AVX must
	RET

// func cpuid(leaf, sub uint32) (a, b, c, d uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX  // EAX: the leaf asked for
	MOVL sub+4(FP), CX   // ECX: the subleaf
	CPUID                // the processor answers in EAX, EBX, ECX and EDX
	MOVL AX, a+8(FP)     // return EAX
	MOVL BX, b+12(FP)    // EBX
	MOVL CX, c+16(FP)    // ECX
	MOVL DX, d+20(FP)    // and EDX
	RET

// func xgetbv() (lo, hi uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL   $0, CX      // ECX: 0, the register XCR0
	XGETBV             // read it into EDX:EAX
	MOVL   AX, lo+0(FP) // return the low half
	MOVL   DX, hi+4(FP) // and the high half
	RET
