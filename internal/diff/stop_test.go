package diff

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// repeated returns n words drawn from five, as a text that repeats a few
// words, the costliest to align.
func repeated(n int, seed uint32) string {
	vocab := [...]string{"alpha", "beta", "gamma", "delta", "eps"}
	var sb strings.Builder
	for i := 0; i < n; i++ {
		seed = seed*1664525 + 1013904223
		sb.WriteString(vocab[seed>>16%5])
		sb.WriteByte(' ')
	}
	return sb.String()
}

// TestCompareStopsWhenItsContextEnds: a comparison whose context ends
// while it runs looks at it no more once it has seen it end, and returns
// the context's error; one whose context never ends gives the Diff
// Compare gives.
func TestCompareStopsWhenItsContextEnds(t *testing.T) {
	a, b := repeated(20000, 1), repeated(20000, 2)
	for _, cancelAt := range []int{1, 2, 5} {
		t.Run(fmt.Sprintf("cancelled at look %d", cancelAt), func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			looks := 0
			checked = func() {
				looks++
				if looks == cancelAt {
					cancel()
				}
			}
			defer func() { checked = nil }()
			d, err := CompareContext(ctx, a, b, Options{})
			if !errors.Is(err, context.Canceled) || d != nil {
				t.Fatalf("CompareContext = %v, %v; want nil, context.Canceled", d, err)
			}
			if looks != cancelAt {
				t.Errorf("looked at the context %d times, want %d: the comparison went on after it ended", looks, cancelAt)
			}
		})
	}
	looks := 0
	checked = func() { looks++ }
	defer func() { checked = nil }()
	d, err := CompareContext(t.Context(), a, b, Options{})
	if err != nil || looks < 5 {
		t.Fatalf("CompareContext: %v after %d looks at its context", err, looks)
	}
	if want := Compare(a, b, Options{}); d.A.Shared != want.A.Shared || len(d.Ops) != len(want.Ops) {
		t.Errorf("CompareContext shares %d words in %d ops, Compare %d in %d", d.A.Shared, len(d.Ops), want.A.Shared, len(want.Ops))
	}
}

// TestCompareMaxWords: a text of more than MaxWords words is compared by
// its first MaxWords words, and says so; one of MaxWords words or fewer
// whole. The diff is the diff of the texts so cut, either way round.
func TestCompareMaxWords(t *testing.T) {
	long := "The bank raised rates. " + strings.Repeat("Markets fell again today, traders said. ", 400)
	short := "The bank raised rates sharply."
	for _, by := range []By{ByWord, BySentence, ByLine} {
		t.Run(by.String(), func(t *testing.T) {
			d := Compare(long, short, Options{By: by, MaxWords: 100})
			if !d.A.Cut || d.B.Cut || d.A.Words != 100 || d.B.Words != 5 {
				t.Fatalf("cut %v %v, words %d %d; want the long text cut to 100 words, the short one whole", d.A.Cut, d.B.Cut, d.A.Words, d.B.Words)
			}
			if want := Compare(d.A.Text, short, Options{By: by}); d.A.Shared != want.A.Shared || len(d.Ops) != len(want.Ops) {
				t.Errorf("the cut text shares %d words in %d ops; compared by itself, %d in %d", d.A.Shared, len(d.Ops), want.A.Shared, len(want.Ops))
			}
			if !strings.HasPrefix(long, d.A.Text) || !strings.HasSuffix(d.A.Text, "said. ") {
				t.Errorf("the text compared ends %q, want the 100th word and what follows it up to the next", d.A.Text[len(d.A.Text)-20:])
			}
			r := Compare(short, long, Options{By: by, MaxWords: 100})
			if r.A.Cut || !r.B.Cut || r.B.Words != 100 || r.B.Shared != d.A.Shared {
				t.Errorf("swapped: cut %v %v, words %d, shared %d", r.A.Cut, r.B.Cut, r.B.Words, r.B.Shared)
			}
			if w := Compare(long, short, Options{By: by, MaxWords: 10000}); w.A.Cut || w.A.Words != 4+400*6 {
				t.Errorf("under the bound: cut %v, %d words", w.A.Cut, w.A.Words)
			}
		})
	}
	var sb strings.Builder
	if err := WriteJSON(&sb, Compare(long, short, Options{MaxWords: 100})); err != nil || !strings.Contains(sb.String(), `"cut": true`) {
		t.Errorf("the JSON of a cut text does not say so: %v\n%.400s", err, sb.String())
	}
	if s := Compare(long, short, Options{MaxWords: 100}).A.stat(&Side{}); !strings.HasPrefix(s, "the first 100 words (the rest not compared), ") {
		t.Errorf("stat of a cut text: %q", s)
	}
}

// TestCompareMaxWordsGluedWord pins a cut inside a word the tokeniser
// splits only when it sees part of it: "Foo.Bar.Bazzzzzz.com" is one word
// (a domain name), the prefix "Foo.Bar.Ba" three, so the text compared
// ended "Foo." inside the word. The cut falls after the whole word.
func TestCompareMaxWordsGluedWord(t *testing.T) {
	filler := strings.Repeat("abcdefghijklmno ", 9) // 9 words, 144 bytes
	for _, word := range []string{"Foo.Bar.Bazzzzzz.com", "Foo.Bar.Bazzzzzzzz.com", "Foo.Bar.Bazzzzzzzzzzzzzzzz.com"} {
		t.Run(word, func(t *testing.T) {
			text := filler + word + " and more words here after it"
			d := Compare(text, "x", Options{MaxWords: 10})
			if !d.A.Cut || d.A.Words != 10 || d.A.Text != filler+word+" " {
				t.Errorf("cut %v, %d words, the text compared ends %q; want 10 words ending %q", d.A.Cut, d.A.Words, d.A.Text[len(filler):], word+" ")
			}
		})
	}
}

// TestCompareMaxWordsOtherSide: the text not cut says that its words were
// sought in the other's first MaxWords words alone: its overlap, 0.014 of
// the last 50,000 words of a text of 150,000 words, said nothing of it.
func TestCompareMaxWordsOtherSide(t *testing.T) {
	long := "The bank raised rates. " + strings.Repeat("Markets fell again today, traders said. ", 400)
	short := "Markets fell again today, traders said."
	d := Compare(long, short, Options{MaxWords: 100})
	var sb strings.Builder
	if err := WriteJSON(&sb, d); err != nil {
		t.Fatal(err)
	}
	var got struct{ A, B map[string]any }
	if err := json.Unmarshal([]byte(sb.String()), &got); err != nil {
		t.Fatal(err)
	}
	if got.A["other_cut"] != nil || got.B["other_cut"] != true || got.B["cut"] != nil {
		t.Errorf("a %v, b %v; want other_cut on b alone", got.A, got.B)
	}
	for _, c := range []struct {
		name      string
		write     func(io.Writer, *Diff) error
		want, not string
	}{
		{"text", func(w io.Writer, d *Diff) error { return WriteText(w, d, TextOptions{}) }, "6 words, 100.0% shared with the other's first 100 words", "100 words (the rest not compared), 6.0% shared with"},
		{"HTML", WriteHTML, "6 words, 100.0% shared with the other's first 100 words", "100 words (the rest not compared), 6.0% shared with"},
	} {
		sb.Reset()
		if err := c.write(&sb, d); err != nil || !strings.Contains(sb.String(), c.want) || strings.Contains(sb.String(), c.not) {
			t.Errorf("%s: %v; want %q, not %q:\n%.600s", c.name, err, c.want, c.not, sb.String())
		}
	}
}
