package main

import (
	"strings"
	"testing"
	"unicode"
)

// The floor hashes exactly the peer's shingles: one per run of five of its
// words, which are runs of letters and digits, lower-cased.
func TestShingleHashesArePeers(t *testing.T) {
	for _, text := range []string{
		"",
		"one two three four",
		"one two three four five",
		"Łódź: the port's 2,500 workers — on strike again, said Ørsted's union on Tuesday.",
		"  leading and trailing spaces, punctuation!!! and\nnew lines\tand tabs  ",
	} {
		words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r)
		})
		n, _ := shingleHashes(text)
		if want := max(len(words)-peerShingle+1, 0); n != int64(want) {
			t.Errorf("%q: %d shingles, the peer's words make %d", text, n, want)
		}
	}
	_, a := shingleHashes("alpha beta gamma delta epsilon")
	_, b := shingleHashes("ALPHA, beta; Gamma delta epsilon.")
	_, c := shingleHashes("beta alpha gamma delta epsilon")
	if a != b || a == c {
		t.Errorf("hashes %x, %x, %x: want case and punctuation ignored, word order kept", a, b, c)
	}
}
