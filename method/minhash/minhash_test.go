package minhash

import (
	"fmt"
	"strings"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/similarity"
)

// damage replaces or drops every n-th letter of s, as a character
// recogniser misreads a page.
func damage(s string, n int) string {
	var b strings.Builder
	letters := 0
	for _, r := range s {
		if r >= 'a' && r <= 'z' {
			if letters++; letters%n == 0 {
				if letters%(2*n) == 0 {
					continue // dropped
				}
				if sub, ok := map[rune]rune{'l': '1', 'o': '0', 'e': 'c', 'i': 'l'}[r]; ok {
					r = sub
				} else {
					r = 'x'
				}
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

// splitAndGlue joins every other pair of sentences without a space and
// splits the longest word of each other sentence in two.
func splitAndGlue(sents []string) string {
	var b strings.Builder
	for i, s := range sents {
		if i%2 == 1 {
			b.WriteString(s)
			continue
		}
		words := strings.Fields(s)
		long := 0
		for j, w := range words {
			if len(w) > len(words[long]) {
				long = j
			}
		}
		if w := words[long]; len(w) > 3 {
			words[long] = w[:2] + " " + w[2:]
		}
		b.WriteString(strings.Join(words, " ") + " ")
	}
	return b.String()
}

// bond is a templated eurobond announcement whose only figures are its
// coupon and price (the year is not a figure).
func bond(coupon, price string) string {
	return "LONDON - The company is issuing a eurobond due in 1992 paying " + coupon +
		" pct and priced at " + price + " pct, the lead manager said. The non-callable bond is " +
		"available in the usual denominations and will be listed in Luxembourg. " +
		"The selling concession and the combined management and underwriting fee are the usual ones."
}

func TestLabels(t *testing.T) {
	g := enginetest.NewTextGen(11)
	story := g.Sentences(30)
	report := func(company string, figures ...string) string {
		return company + " said quarterly net profit rose to " + figures[0] + " mln dlrs from " + figures[1] +
			" mln dlrs, on revenue of " + figures[2] + " mln dlrs against " + figures[3] + " mln dlrs a year earlier. " +
			"The company said it expected growth to continue in the coming quarter as demand stayed firm. " +
			"Shares of the company closed at " + figures[4] + " dlrs on the exchange."
	}
	with := func(f func(o *Options)) Options {
		o := Defaults()
		f(&o)
		return o
	}
	none := func(*Options) {}
	for _, tc := range []struct {
		name string
		opts Options
		a, b string
		want core.Label // "" means no pair reported
	}{
		{"truncated reprint is inside the original", with(none),
			strings.Join(story, " "), strings.Join(story[:10], " "), core.Duplicate},
		{"containment off leaves it similar at most", with(func(o *Options) { o.Containment = 2 }),
			strings.Join(story, " "), strings.Join(story[:10], " "), core.Similar},
		{"templated reports with other figures are not duplicates", with(none),
			report("Acme Corp", "12.5", "10.1", "140", "128", "31"), report("Acme Corp", "3.2", "4.8", "61", "77", "9"), core.Similar},
		{"same figures, other spelling of numbers, are duplicates", with(none),
			report("Acme Corp", "1,250", "1,010", "140", "128", "31"), report("Acme Corp", "1250", "1010", "140", "128", "31"), core.Duplicate},
		{"the places of the figures alone tell the templated reports apart", with(func(o *Options) { o.NumberAgreement = -1 }),
			report("Acme Corp", "12.5", "10.1", "140", "128", "31"), report("Acme Corp", "3.2", "4.8", "61", "77", "9"), core.Similar},
		{"number and template checks off mark templated reports duplicate", with(func(o *Options) { o.NumberAgreement, o.Template = -1, false }),
			report("Acme Corp", "12.5", "10.1", "140", "128", "31"), report("Acme Corp", "3.2", "4.8", "61", "77", "9"), core.Duplicate},
		{"a reprint with a damaged letter in every 20 is a duplicate", with(none),
			strings.Join(story, " "), damage(strings.Join(story, " "), 20), core.Duplicate},
		{"word shingles lose the damaged reprint", with(func(o *Options) { o.ShingleUnit = Words }),
			strings.Join(story, " "), damage(strings.Join(story, " "), 20), ""},
		{"split and glued words are the same characters", with(none),
			strings.Join(story, " "), splitAndGlue(story), core.Duplicate},
		{"fractions are whole figures: other prices are another report", with(none),
			bond("13-3/8", "101-7/8"), bond("8-1/2", "101-3/8"), core.Similar},
		{"the same prices are the same report", with(none),
			bond("13-3/8", "101-7/8"), "Update: " + bond("13-3/8", "101-7/8"), core.Duplicate},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := enginetest.Batch(t, Spec, tc.opts, []core.Document{{ID: "a", Text: tc.a}, {ID: "b", Text: tc.b}})
			if p := got["a~b"]; p.Label != tc.want {
				t.Errorf("label %q, want %q (evidence %+v)", p.Label, tc.want, p.Evidence)
			}
		})
	}
}

func FuzzDecode(f *testing.F) { enginetest.FuzzCodec(f, Spec) }

// TestParallelMatchIsSerial pins that the Batch's matchers over the index
// IndexAll builds find exactly what matching and indexing one document
// after another finds, in any order of documents, with buckets crowded
// past the bucket limit (many copies of one story).
func TestParallelMatchIsSerial(t *testing.T) {
	docs := enginetest.Crowded()
	for _, limit := range []int{2, 3, 32} {
		o := Defaults()
		o.BucketLimit = limit
		n := enginetest.ParallelIsSerial(t, mustMethod(t, o).stages(), mustMethod(t, o).stages(), sketchAll(t, o, docs), sketchAll(t, o, docs), uint64(limit))
		if n < 100 {
			t.Errorf("bucket limit %d: %d candidates found, too few to test", limit, n)
		}
	}
}

func mustMethod(t *testing.T, o Options) *method {
	m, err := newMethod(o)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func sketchAll(t *testing.T, o Options, docs []core.Document) []*Sketch {
	sk := mustMethod(t, o).NewSketcher()
	var out []*Sketch
	for i := range docs {
		s, _ := sk.Sketch(&docs[i])
		out = append(out, s)
	}
	return out
}

// TestFloor checks that verification's floor drops only pairs Label cannot
// report (enginetest.CheckSetFloor), for two documents of one hour, which
// the rewrite bound (Options.Rewrite) reports too.
func TestFloor(t *testing.T) {
	for _, o := range []Options{
		Defaults(),
		func() Options { o := Defaults(); o.Similar = 0; return o }(),
		func() Options { o := Defaults(); o.Containment = 2; return o }(),
		func() Options { o := Defaults(); o.Similar, o.Rewrite = 0, 0; return o }(),
		func() Options { o := Defaults(); o.Threshold, o.Similar, o.Containment = 0.5, 0.5, 0.5; return o }(),
		func() Options { o := Defaults(); o.Similar, o.Rewrite = 0, 0; o.NumberAgreement = -1; return o }(),
	} {
		m := &method{o: o}
		// With the figures check on, the floor is that of a pair whose
		// figures agree, a duplicate short of the bars (byFigures): which
		// pairs' figures agree is known only once they are compared.
		var overlap *float64
		if o.NumberAgreement >= 0 {
			overlap = new(1.0)
		}
		enginetest.CheckSetFloor(t, fmt.Sprintf("%+v", o), o.bounds().Floor, func(sc similarity.SetScores) bool {
			hour := 0.0
			ev := Evidence{SetScores: sc}
			ev.HoursApart, ev.NumberOverlap = &hour, overlap
			_, ok := m.Label(m.scored(&ev), ev)
			return ok
		})
	}
}

// BenchmarkSketchLongText sketches one text of 4 MiB with a new sketcher
// each time, as the first long text of a run is met: the cost of sizing
// its scratch space (the shingles, their fingerprints, the words and the
// sample) besides the sketching itself, MB/s of text.
func BenchmarkSketchLongText(b *testing.B) {
	doc := &core.Document{ID: "long", Title: "A long text", Text: enginetest.NewTextGen(7).Text(4 << 20)}
	m, err := newMethod(Defaults())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(doc.Text)))
	for b.Loop() {
		if _, skip := m.NewSketcher().Sketch(doc); skip != core.SkipNone {
			b.Fatal(skip)
		}
	}
}
