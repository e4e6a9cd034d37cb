package analysis

import (
	"math/bits"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// toks builds tokens with the given hashes.
func toks(hashes ...uint64) []Token {
	out := make([]Token, len(hashes))
	for i, h := range hashes {
		out[i] = Token{Hash: h}
	}
	return out
}

func TestShingles(t *testing.T) {
	in := toks(11, 22, 33, 44, 55)
	tests := []struct {
		name   string
		tokens []Token
		n      int
		want   []uint64
	}{
		{"no tokens", nil, 3, nil},
		{"n=1 one per token", in[:3], 1, []uint64{HashTokens(in[0:1]), HashTokens(in[1:2]), HashTokens(in[2:3])}},
		{"n=2", in[:4], 2, []uint64{HashTokens(in[0:2]), HashTokens(in[1:3]), HashTokens(in[2:4])}},
		{"n=3", in, 3, []uint64{HashTokens(in[0:3]), HashTokens(in[1:4]), HashTokens(in[2:5])}},
		{"n=4", in, 4, []uint64{HashTokens(in[0:4]), HashTokens(in[1:5])}},
		{"n=5 exactly the input", in, 5, []uint64{HashTokens(in)}},
		{"short input one shingle", in[:2], 5, []uint64{HashTokens(in[:2])}},
		{"single token", in[:1], 3, []uint64{HashTokens(in[:1])}},
		{"n=0 treated as 1", in[:2], 0, []uint64{HashTokens(in[0:1]), HashTokens(in[1:2])}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Shingles(tc.tokens, tc.n, nil)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Shingles(n=%d) (-want +got):\n%s", tc.n, diff)
			}
		})
	}
}

func TestShinglesAppends(t *testing.T) {
	got := Shingles(toks(1, 2, 3), 2, []uint64{7})
	if len(got) != 3 || got[0] != 7 {
		t.Errorf("Shingles did not append to dst: %v", got)
	}
}

func TestShinglesProperties(t *testing.T) {
	for n := 1; n <= 5; n++ {
		// Repeated windows hash equal, windows of different order differ.
		seq := toks(1, 2, 3, 4, 5, 1, 2, 3, 4, 5)
		sh := Shingles(seq, n, nil)
		if len(sh) != len(seq)-n+1 {
			t.Fatalf("n=%d: %d shingles, want %d", n, len(sh), len(seq)-n+1)
		}
		if sh[0] != sh[5] {
			t.Errorf("n=%d: equal windows hash differently", n)
		}
		seen := map[uint64]bool{}
		for _, h := range sh[:5] {
			if seen[h] {
				t.Errorf("n=%d: distinct windows collide", n)
			}
			seen[h] = true
		}
	}
	if HashTokens(toks(1, 2)) == HashTokens(toks(2, 1)) {
		t.Error("HashTokens is not order-sensitive")
	}
	if HashTokens(toks(5)) == HashTokens(toks(5, 5)) || HashTokens(toks(0, 5)) == HashTokens(toks(5)) {
		t.Error("HashTokens ignores length")
	}
	if HashTokens(nil) != 0 || HashTokens(toks(0)) == 0 {
		t.Error("HashTokens: want 0 exactly for the empty sequence")
	}
}

// TestShinglesMixing checks that one flipped input bit flips about half of
// the output bits on average (avalanche).
func TestShinglesMixing(t *testing.T) {
	base := toks(0x1234, 0x5678, 0x9abc)
	h0 := HashTokens(base)
	total, trials := 0, 0
	for i := range base {
		for bit := 0; bit < 64; bit++ {
			mod := append([]Token(nil), base...)
			mod[i].Hash ^= 1 << bit
			total += bits.OnesCount64(h0 ^ HashTokens(mod))
			trials++
		}
	}
	if mean := float64(total) / float64(trials); mean < 28 || mean > 36 {
		t.Errorf("mean flipped bits %.1f, want about 32", mean)
	}
}
