//go:build amd64 && !purego

#include "textflag.h"

// PAIRS classifies 32 pairs of bytes: cur holds 32 bytes of the text and
// prev the 32 bytes one to the left, so lane i holds a pair. It looks up
// the nibbles of both in the tables (Y8 to Y11, see pairMasksAVX2), ANDs
// the four bucket sets each lane gets, and leaves in mask a bit per lane,
// set where a bucket is left: where the pair is a candidate. t is scratch;
// cur and prev are overwritten.
#define PAIRS(cur, prev, t, mask) \
	VPSRLW    $4, cur, t;      /* shift each 16-bit word right by 4: a byte's high nibble moves to its low half */ \
	VPAND     Y12, t, t;       /* keep the low half of each byte: the high nibble of cur's byte, 0 to 15 */ \
	VPAND     Y12, cur, cur;   /* the low nibble of cur's byte, 0 to 15 */ \
	VPSHUFB   cur, Y8, cur;    /* look each low nibble up in curLo: the buckets holding a byte with that low nibble */ \
	VPSHUFB   t, Y9, t;        /* look each high nibble up in curHi: the buckets holding a byte with that high nibble */ \
	VPAND     t, cur, cur;     /* the buckets cur's byte is in, through both nibbles */ \
	VPSRLW    $4, prev, t;     /* the same for the byte before: its high nibble to the low half */ \
	VPAND     Y12, t, t;       /* the high nibble of the byte before */ \
	VPAND     Y12, prev, prev; /* the low nibble of the byte before */ \
	VPSHUFB   prev, Y10, prev; /* look it up in prevLo */ \
	VPSHUFB   t, Y11, t;       /* the high nibble looked up in prevHi */ \
	VPAND     t, prev, prev;   /* the buckets the byte before is in */ \
	VPAND     prev, cur, cur;  /* the buckets both are in: not zero where the pair is a candidate */ \
	VPCMPEQB  Y13, cur, cur;   /* each byte 0xFF where no bucket is left, 0 where one is */ \
	VPMOVMSKB cur, mask;       /* gather the top bit of each byte into a 32-bit mask */ \
	NOTL      mask             /* flip it: a bit set per candidate lane */

// func pairMasksAVX2(s string, t *pairTables, masks []uint32)
//
// It sets masks[c], bit i, where the tables let s[32c+i+1] after s[32c+i]
// through. len(s) is 1+32*len(masks), so every load lies within s.
TEXT ·pairMasksAVX2(SB), NOSPLIT, $0-48
	MOVQ s_base+0(FP), SI      // SI: the address of the text
	MOVQ t+16(FP), AX          // AX: the address of the tables
	MOVQ masks_base+24(FP), DI // DI: the address of the masks
	MOVQ masks_len+32(FP), CX  // CX: how many masks to set

	// Load each table of 16 bytes into both 128-bit halves of a register:
	// VPSHUFB looks up within each half, so each half needs the table.
	VBROADCASTI128 0(AX), Y8   // Y8: curLo
	VBROADCASTI128 16(AX), Y9  // Y9: curHi
	VBROADCASTI128 32(AX), Y10 // Y10: prevLo
	VBROADCASTI128 48(AX), Y11 // Y11: prevHi

	MOVQ         $0x0f0f0f0f0f0f0f0f, AX // eight bytes of 0x0F, the low-nibble mask
	MOVQ         AX, X12                 // into the low 64 bits of X12
	VPBROADCASTQ X12, Y12                // Y12: 0x0F in all 32 bytes
	VPXOR        Y13, Y13, Y13           // Y13: all zero, to compare against

	TESTQ CX, CX // no mask to set?
	JZ    done

loop:
	VMOVDQU 1(SI), Y0     // Y0: the next 32 bytes, each the second of a pair
	VMOVDQU (SI), Y1      // Y1: the 32 bytes one to the left, each the first
	PAIRS(Y0, Y1, Y2, AX) // AX: a bit per candidate pair
	MOVL    AX, (DI)      // store it as this mask
	ADDQ    $32, SI       // on to the next 32 pairs
	ADDQ    $4, DI        // and the next mask
	DECQ    CX            // one mask fewer to set
	JNZ     loop          // until none is left

done:
	VZEROUPPER // clear the upper halves of the YMM registers, as code leaving AVX must
	RET

// func cpuid(leaf, sub uint32) (a, b, c, d uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX  // EAX: the leaf asked for
	MOVL sub+4(FP), CX   // ECX: the subleaf
	CPUID                // the processor answers in EAX, EBX, ECX and EDX
	MOVL AX, a+8(FP)
	MOVL BX, b+12(FP)
	MOVL CX, c+16(FP)
	MOVL DX, d+20(FP)
	RET

// func xgetbv() (lo, hi uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL   $0, CX      // ECX: 0, the register XCR0
	XGETBV             // read it into EDX:EAX
	MOVL   AX, lo+0(FP)
	MOVL   DX, hi+4(FP)
	RET
