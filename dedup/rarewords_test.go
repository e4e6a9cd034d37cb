package dedup

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/neardup/neardup/core"
)

func TestSourceOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  core.Document
		want string
	}{
		{"source field", core.Document{Source: " Daily Ledger ", URL: "https://ledger.example/a"}, "Daily Ledger"},
		{"url host", core.Document{URL: "https://www.Ledger.example:8080/2024/a?x=1"}, "ledger.example"},
		{"url without www", core.Document{URL: "http://news.ledger.example/a"}, "news.ledger.example"},
		{"nothing", core.Document{}, ""},
		{"not a url", core.Document{URL: "::"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := SourceOf(&tc.doc); got != tc.want {
				t.Errorf("SourceOf = %q, want %q", got, tc.want)
			}
		})
	}
}

// words returns n distinct made-up words starting at the k-th.
func words(k, n int) []string {
	w := make([]string, n)
	for i := range w {
		w[i] = names[(k+i)%len(names)]
	}
	return w
}

// filler returns n documents of source src, each of 10 words of its own
// from the from-th on: with them a source has enough documents for a word
// in two of them to be rare (2 <= 5 % of 40).
func filler(src string, n, from int) []core.Document {
	docs := make([]core.Document, n)
	for i := range docs {
		docs[i] = core.Document{ID: fmt.Sprintf("%s-filler%d", src, i), Source: src, Text: text(words(from+10*i, 10))}
	}
	return docs
}

func text(ws ...[]string) string {
	var all []string
	for _, w := range ws {
		all = append(all, w...)
	}
	return strings.Join(all, " ")
}

var ignoreUnexported = cmpopts.IgnoreUnexported(RareWordsEvidence{})

// rareEvidence returns the evidence of the reported pairs by "a~b".
func rareEvidence(t *testing.T, opts Options, docs []core.Document) map[string]RareWordsEvidence {
	t.Helper()
	opts.Method = MethodRareWords
	_, pairs := runBatchOf(t, opts, docs)
	out := map[string]RareWordsEvidence{}
	for _, p := range pairs {
		out[p.A+"~"+p.B] = *p.Evidence.(*RareWordsEvidence)
	}
	return out
}

// TestRareWordsContainmentBothWays: a short piece wholly inside a long one
// is found whichever comes first, with each share on its side.
func TestRareWordsContainmentBothWays(t *testing.T) {
	short := core.Document{ID: "short", Source: "agency", Text: text(words(0, 40))}
	long := core.Document{ID: "long", Source: "site", Text: text(words(100, 60), words(0, 40), words(200, 60))}
	for _, tc := range []struct {
		name string
		docs []core.Document
		want map[string]RareWordsEvidence
	}{
		{"short first", []core.Document{short, long}, map[string]RareWordsEvidence{"short~long": {
			SourceA: "agency", SourceB: "site", Shared: 40, RareA: 40, RareB: 160, AInB: 1, BInA: 0.25, BestFor: "both"}}},
		{"long first", []core.Document{long, short}, map[string]RareWordsEvidence{"long~short": {
			SourceA: "site", SourceB: "agency", Shared: 40, RareA: 160, RareB: 40, AInB: 0.25, BInA: 1, BestFor: "both"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := rareEvidence(t, Options{MinWords: 10}, tc.docs)
			if diff := cmp.Diff(tc.want, got, ignoreUnexported); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestRareWordsCommonPerSource: a word in more than 5 % of its source's
// documents is dropped for that source only.
func TestRareWordsCommonPerSource(t *testing.T) {
	var docs []core.Document
	// Source "wire": 40 documents, each with "common" plus 30 words of its own.
	for i := range 40 {
		docs = append(docs, core.Document{ID: fmt.Sprint("w", i), Source: "wire", Text: text([]string{"common"}, words(1000+30*i, 30))})
	}
	// Source "site": 40 documents; only s0 holds "common". s0 copies w0.
	docs = append(docs, core.Document{ID: "s0", Source: "site", Text: docs[0].Text})
	for i := 1; i < 40; i++ {
		docs = append(docs, core.Document{ID: fmt.Sprint("s", i), Source: "site", Text: text(words(3000+30*i, 30))})
	}
	got := rareEvidence(t, Options{MinWords: 10}, docs)
	want := map[string]RareWordsEvidence{"w0~s0": {
		SourceA: "wire", SourceB: "site", Shared: 30, RareA: 30, RareB: 31, AInB: 1, BInA: 0.9677, BestFor: "both"}}
	if diff := cmp.Diff(want, got, ignoreUnexported); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestRareWordsSourcesCompared(t *testing.T) {
	docs := []core.Document{
		{ID: "a", Source: "wire", Text: text(words(0, 50))},
		{ID: "b", Source: "wire", Text: text(words(0, 50))},
		{ID: "c", URL: "https://www.site.example/c", Text: text(words(0, 25), words(500, 25))},
	}
	docs = append(docs, filler("wire", 40, 1000)...)
	docs = append(docs, filler("site.example", 40, 1500)...)
	for _, tc := range []struct {
		name string
		same bool
		want []string
	}{
		{"across sources only", false, []string{"a~c", "b~c"}},
		{"same source too", true, []string{"a~b", "a~c", "b~c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for k := range rareEvidence(t, Options{MinWords: 10, SameSource: tc.same}, docs) {
				got = append(got, k)
			}
			if diff := cmp.Diff(tc.want, got, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestRareWordsBestMatchPerSource: a pair is reported when it is the best
// match of one of its documents in the other's source; BestFor says whose.
func TestRareWordsBestMatchPerSource(t *testing.T) {
	x := words(0, 100)
	docs := []core.Document{
		{ID: "x", Source: "s1", Text: text(x)},
		{ID: "b1", Source: "s2", Text: text(x[:80], words(300, 20))}, // 80 % of x
		{ID: "b2", Source: "s2", Text: text(x[:60], words(400, 40))}, // 60 % of x
		{ID: "x2", Source: "s1", Text: text(x[:60], words(400, 40))}, // b2's copy
		{ID: "c1", Source: "s3", Text: text(x[:50], words(500, 50))}, // 50 % of x, x2, b1 and b2
		{ID: "c2", Source: "s3", Text: text(words(600, 100))},        // shares nothing
	}
	for i, src := range []string{"s1", "s2", "s3"} {
		docs = append(docs, filler(src, 40, 1000+400*i)...)
	}
	got := map[string]string{}
	for k, e := range rareEvidence(t, Options{MinWords: 10}, docs) {
		got[k] = e.BestFor
	}
	want := map[string]string{
		"x~b1":  "both", // x's best in s2; b1's best in s1 (x2 holds only 60 %)
		"x~c1":  "both", // x's best in s3; c1's best in s1 (a tie with x2: the earlier pair)
		"b1~c1": "both", // b1's best in s3; c1's best in s2 (a tie with b2)
		"b2~x2": "both", // copies
		"b2~c1": "a",
		"x2~c1": "a",
	} // not x~b2: b2 is not x's best in s2, nor x b2's best in s1
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestRareWordsSkipsShortDocuments(t *testing.T) {
	x, err := NewIndex(Options{Method: MethodRareWords})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		words int
		want  core.SkipReason
	}{{199, core.SkipTooShort}, {200, core.SkipNone}} {
		_, skip, err := x.Add(core.Document{ID: fmt.Sprint(tc.words), Text: text(words(0, tc.words))})
		if err != nil || skip != tc.want {
			t.Errorf("%d words: skip %q, %v; want %q", tc.words, skip, err, tc.want)
		}
	}
}

// TestRareWordsIndexReportsNewestBest: an Index reports the new document's
// best match per source among those before it.
func TestRareWordsIndexReportsNewestBest(t *testing.T) {
	x, err := NewIndex(Options{Method: MethodRareWords, MinWords: 10})
	if err != nil {
		t.Fatal(err)
	}
	base := words(0, 100)
	var docs []core.Document
	for i, src := range []string{"s1", "s2", "s3"} {
		docs = append(docs, filler(src, 40, 1000+400*i)...)
	}
	for _, d := range append(docs, []core.Document{
		{ID: "a", Source: "s1", Text: text(base[:70], words(200, 30))},
		{ID: "b", Source: "s1", Text: text(base[:90], words(300, 10))},
		{ID: "c", Source: "s2", Text: text(base[:50], words(400, 50))},
	}...) {
		if _, _, err := x.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	pairs, _, err := x.Add(core.Document{ID: "new", Source: "s3", Text: text(base)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pairs {
		e := p.Evidence.(*RareWordsEvidence)
		got = append(got, fmt.Sprintf("%s~%s %v %s", p.A, p.B, e.BInA, e.BestFor))
	}
	want := []string{"b~new 0.9 b", "c~new 0.5 b"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}
