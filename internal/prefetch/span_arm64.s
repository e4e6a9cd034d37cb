#include "textflag.h"

// func span(p unsafe.Pointer, n int)
//
// PRFM PLDL1KEEP of each 64-byte step from p while at or before p+n-1,
// then of p+n-1 itself (the last line when p is not at a line's start).
// n > 0.
TEXT ·span(SB), NOSPLIT, $0-16
	MOVD p+0(FP), R0
	MOVD n+8(FP), R1
	ADD  R0, R1, R2
	SUB  $1, R2
loop:
	PRFM (R0), PLDL1KEEP
	ADD  $64, R0
	CMP  R2, R0
	BLS  loop
	PRFM (R2), PLDL1KEEP
	RET
