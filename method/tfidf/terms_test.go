package tfidf

import (
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
)

// TestTMTerms pins tm's default terms on texts written for the purpose, as
// R tm 0.7-11 makes them of a SimpleCorpus (checked there by hand):
// lower-cased, split at ASCII white space only, pieces of three bytes or
// more kept, nothing stemmed or dropped as a stop word.
func TestTMTerms(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"lower-cased, short pieces dropped", "The Cat sat on a MAT", []string{"the", "cat", "sat", "mat"}},
		{"punctuation stays with its word", "Don't well-known, (O'Brien) said. said", []string{"don't", "well-known,", "(o'brien)", "said.", "said"}},
		{"numbers whole", "$1.13bn rose 76% to 1,000,000", []string{"$1.13bn", "rose", "76%", "1,000,000"}},
		{"pieces of punctuation are terms", "a -- b ... c !!", []string{"..."}},
		{"length in bytes", "£5 ok é1 éé é €", []string{"£5", "é1", "éé", "€"}},
		{"non-ASCII upper case lowered", "ÉCOLE Über ΣΟΦΙΑ", []string{"école", "über", "σοφια"}},
		{"ASCII white space splits", "tab\there\nnew\vver\fff\rret  two", []string{"tab", "here", "new", "ver", "ret", "two"}},
		{"other spaces do not", "non\u00a0breaking em\u2003space", []string{"non\u00a0breaking", "em\u2003space"}},
		{"empty", "", nil},
		{"white space only", " \t\n ", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want []uint64
			for _, w := range tc.want {
				want = append(want, analysis.HashWordString(w))
			}
			var tt tmTerms
			got := tt.appendHashes(nil, tc.text)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("terms of %q (-want +got)\n%s", tc.text, diff)
			}
		})
	}
}

// TestTMWeightsByHand checks the default weighting on three documents
// whose weights are worked out by hand: a term weighs its count over the
// document's length times log2(N/df), N counting the document with an
// empty title among the titles, and a term in every document weighs 0.
func TestTMWeightsByHand(t *testing.T) {
	docs := []core.Document{
		{ID: "0", Title: "Apple news", Text: "apple apple banana the"},
		{ID: "1", Title: "", Text: "Apple cherry the ok"},
		{ID: "2", Title: "APPLE", Text: "cherry date date date the"},
	}
	m := sealed(t, Defaults(), docs)
	l3, l32 := math.Log2(3), math.Log2(1.5)
	for _, tc := range []struct {
		field int
		doc   int32
		want  []float64 // unnormalised, in any order
	}{
		// apple 2 of 4 terms in 2 of 3 documents, banana 1 of 4 in 1, the
		// in all 3: 0.
		{body, 0, []float64{2.0 / 4 * l32, 1.0 / 4 * l3}},
		{body, 1, []float64{1.0 / 3 * l32, 1.0 / 3 * l32}},
		{body, 2, []float64{1.0 / 5 * l32, 3.0 / 5 * l3}},
		// Titles: N is 3 with the empty one, so apple (in 2) is
		// log2(3/2), not 0.
		{title, 0, []float64{1.0 / 2 * l32, 1.0 / 2 * l3}},
		{title, 1, nil},
		{title, 2, []float64{1.0 / 1 * l32}},
	} {
		var norm float64
		for _, w := range tc.want {
			norm += w * w
		}
		var want, got []float64
		for _, w := range tc.want {
			want = append(want, w/math.Sqrt(norm))
		}
		for _, w := range m.fields[tc.field].Vector(tc.doc).Weights {
			got = append(got, float64(w))
		}
		slices.Sort(want)
		slices.Sort(got)
		if !cmp.Equal(want, got, cmp.Comparer(func(x, y float64) bool { return math.Abs(x-y) < 1e-6 })) {
			t.Errorf("%s of document %d: weights %v, want %v", fields[tc.field], tc.doc, got, want)
		}
	}
}
