//go:build amd64 && !purego

#include "textflag.h"

// PAIRS classifies 32 pairs of bytes: cur holds 32 bytes of the text and
// prev the 32 bytes one to the left, so lane i holds a pair. It looks up
// the nibbles of both in the tables (Y8 to Y11, see pairIndexAVX2), ANDs
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

// func pairIndexAVX2(s string, t *pairTables) int
//
// It returns the smallest i from 1 on such that the tables let s[i] after
// s[i-1] through, or len(s) if none does. len(s) must be at least 33, so
// that the last 32 pairs can be read at once without reading outside s.
TEXT ·pairIndexAVX2(SB), NOSPLIT, $0-32
	MOVQ s_base+0(FP), SI  // SI: the address of the text
	MOVQ s_len+8(FP), DX   // DX: its length, n
	MOVQ t+16(FP), AX      // AX: the address of the tables

	// Load each table of 16 bytes into both 128-bit halves of a register:
	// VPSHUFB looks up within each half, so each half needs the table.
	VBROADCASTI128 0(AX), Y8  // Y8: curLo
	VBROADCASTI128 16(AX), Y9 // Y9: curHi
	VBROADCASTI128 32(AX), Y10 // Y10: prevLo
	VBROADCASTI128 48(AX), Y11 // Y11: prevHi

	MOVQ         $0x0f0f0f0f0f0f0f0f, AX // eight bytes of 0x0F, the low-nibble mask
	MOVQ         AX, X12                 // into the low 64 bits of X12
	VPBROADCASTQ X12, Y12                // Y12: 0x0F in all 32 bytes
	VPXOR        Y13, Y13, Y13           // Y13: all zero, to compare against

	MOVQ $1, DI   // DI: the first position not yet looked at; 0 has no byte before it
	MOVQ DX, R8   // R8: n
	SUBQ $32, R8  // less 32: the last position where 32 pairs still lie within s

loop:
	CMPQ DI, R8  // do 32 pairs from DI on lie within s?
	JA   tail    // no: look at the last 32 pairs instead

	VMOVDQU (SI)(DI*1), Y0   // Y0: the 32 bytes from DI on
	VMOVDQU -1(SI)(DI*1), Y1 // Y1: the 32 bytes from DI-1 on, each the byte before Y0's
	PAIRS(Y0, Y1, Y2, AX)    // AX: a bit per candidate among them
	TESTL   AX, AX           // any candidate?
	JNZ     found            // yes: return the first
	ADDQ    $32, DI          // no: move on by 32
	JMP     loop

tail:
	CMPQ DI, DX  // is every position looked at?
	JAE  none    // yes: there is no candidate

	// Fewer than 32 positions are left: read the last 32 pairs, from R8
	// on, which overlap positions already looked at, and drop those.
	VMOVDQU (SI)(R8*1), Y0   // Y0: the last 32 bytes
	VMOVDQU -1(SI)(R8*1), Y1 // Y1: the bytes before them
	PAIRS(Y0, Y1, Y2, AX)    // AX: a bit per candidate, lane 0 at R8
	MOVQ    DI, CX           // CX: DI
	SUBQ    R8, CX           // less R8: the lanes already looked at, 1 to 31
	SHRL    CX, AX           // drop them: lane 0 is now at DI
	TESTL   AX, AX           // any candidate left?
	JZ      none             // no

found:
	BSFL AX, AX            // the lowest set bit: the first candidate, counted from DI
	ADDQ DI, AX            // its position in s
	MOVQ AX, ret+24(FP)    // return it
	VZEROUPPER             // clear the upper halves of the YMM registers, as code after AVX must
	RET

none:
	MOVQ DX, ret+24(FP)    // return n: no candidate
	VZEROUPPER
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
