#include "textflag.h"

// func span(p unsafe.Pointer, n int)
//
// PREFETCHT0 of each 64-byte step from p while at or before p+n-1, then of
// p+n-1 itself (the last line when p is not at a line's start). n > 0.
TEXT ·span(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), BX
	LEAQ -1(AX)(BX*1), CX
loop:
	PREFETCHT0 (AX)
	ADDQ $64, AX
	CMPQ AX, CX
	JLS  loop
	PREFETCHT0 (CX)
	RET
