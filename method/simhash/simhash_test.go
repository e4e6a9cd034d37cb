package simhash

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/similarity"
)

func FuzzDecode(f *testing.F) { enginetest.FuzzCodec(f, Spec) }

// fingerprintOf returns the fingerprint the default options give text.
func fingerprintOf(t *testing.T, text string) uint64 {
	t.Helper()
	s, skip := newMethod(Defaults()).NewSketcher().Sketch(&core.Document{ID: "x", Text: text})
	if skip != core.SkipNone {
		t.Fatalf("skipped: %s", skip)
	}
	return s.FP
}

func TestFingerprint(t *testing.T) {
	g := enginetest.NewTextGen(21)
	story := g.Sentences(30)
	orig := fingerprintOf(t, strings.Join(story, " "))
	if again := fingerprintOf(t, strings.Join(story, " ")); again != orig {
		t.Fatalf("the same text: %016x then %016x", orig, again)
	}
	// Near texts: a changed sentence, a typo, a headline added.
	edited := slices.Clone(story)
	edited[17] = g.Sentence()
	typo := strings.Replace(strings.Join(story, " "), "e", "a", 1)
	for name, text := range map[string]string{
		"a sentence of 30 replaced": strings.Join(edited, " "),
		"one typo":                  typo,
		"a headline added":          "Breaking news. " + strings.Join(story, " "),
		"spacing and case":          strings.ToUpper(strings.Join(story, "\n\n")),
	} {
		if d := distance(orig, fingerprintOf(t, text)); d > Defaults().Distance {
			t.Errorf("%s: distance %d, want at most %d", name, d, Defaults().Distance)
		}
	}
	// Unrelated texts are far apart. (Those of the generator share one
	// small vocabulary of common words and syllables, so they lie nearer
	// than the 32 bits of random fingerprints; unrelated news articles lie
	// about 30 bits apart, docs/methods.md.)
	total := 0
	for i := range 50 {
		d := distance(orig, fingerprintOf(t, strings.Join(g.Sentences(30), " ")))
		if d <= 2*Defaults().Distance {
			t.Errorf("unrelated text %d: distance %d", i, d)
		}
		total += d
	}
	if mean := float64(total) / 50; mean < 14 || mean > 44 {
		t.Errorf("unrelated texts: mean distance %.1f", mean)
	}
}

func TestWeighting(t *testing.T) {
	// A shingle repeated many times pulls the tf fingerprint toward its
	// own hash; the binary one counts it once.
	var shingles []uint64
	r := rand.New(rand.NewPCG(3, 4))
	for range 40 {
		shingles = append(shingles, r.Uint64())
	}
	heavy := r.Uint64()
	for range 100 {
		shingles = append(shingles, heavy)
	}
	tf := fingerprinter{weighting: TF}
	bin := fingerprinter{weighting: Binary}
	logtf := fingerprinter{weighting: LogTF}
	if fp := tf.fingerprint(shingles); fp != mix(heavy) {
		t.Errorf("tf: %016x, want the heavy shingle's own hash %016x", fp, mix(heavy))
	}
	if d := distance(bin.fingerprint(shingles), mix(heavy)); d < 10 {
		t.Errorf("binary: %d bits from the heavy shingle, want it to count once", d)
	}
	if lt, b := distance(logtf.fingerprint(shingles), mix(heavy)), distance(bin.fingerprint(shingles), mix(heavy)); lt > b {
		t.Errorf("logtf is %d bits from the heavy shingle, binary %d: want logtf nearer", lt, b)
	}
	if fp := tf.fingerprint(nil); fp != 0 {
		t.Errorf("no shingles: %016x", fp)
	}
}

func TestTablesFindEveryPairWithinK(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct{ k, b int }{{0, 1}, {1, 2}, {3, 4}, {3, 5}, {3, 6}, {4, 6}, {5, 8}, {6, 9}} {
		tb := newTables(tc.k, tc.b)
		if want := tableCount(tc.b, tc.k); len(tb.masks) != want {
			t.Fatalf("k %d, b %d: %d tables, want %d", tc.k, tc.b, len(tb.masks), want)
		}
		// Random fingerprints and near copies of some, at every distance
		// up to k+2.
		var fps []uint64
		for i := range 300 {
			fp := r.Uint64()
			fps = append(fps, fp)
			if i%3 == 0 {
				fps = append(fps, flip(r, fp, r.IntN(tc.k+3)))
			}
		}
		o := withTables(tc.k, tc.b)
		o.BucketLimit = 0 // no cap: every member of a bucket
		m := newMethod(o)
		found := map[[2]int32]bool{}
		for i, fp := range fps {
			ord := int32(i)
			s := &Sketch{FP: fp, Set: []uint32{1}} // a sample, so that it searches
			m.Add(ord, s)
			for _, c := range m.Candidates(nil, s) {
				if m.tables.within(fps[c], fp) {
					found[[2]int32{c, ord}] = true
				}
			}
			m.Index(ord, s)
		}
		want := 0
		for i := range fps {
			for j := i + 1; j < len(fps); j++ {
				if distance(fps[i], fps[j]) <= tc.k {
					want++
					if !found[[2]int32{int32(i), int32(j)}] {
						t.Errorf("k %d, b %d: %016x and %016x at distance %d not found", tc.k, tc.b, fps[i], fps[j], distance(fps[i], fps[j]))
					}
				}
			}
		}
		if len(found) != want || want < 20 {
			t.Errorf("k %d, b %d: found %d pairs, brute force %d", tc.k, tc.b, len(found), want)
		}
	}
}

// flip returns fp with n distinct bits flipped.
func flip(r *rand.Rand, fp uint64, n int) uint64 {
	for _, b := range r.Perm(64)[:n] {
		fp ^= 1 << b
	}
	return fp
}

func withTables(k, b int) Options {
	o := Defaults()
	o.Distance, o.Blocks = k, b
	return o
}

func TestBlocks(t *testing.T) {
	for _, tc := range []struct{ k, blocks, tables int }{{0, 1, 1}, {3, 5, 10}, {4, 6, 15}, {5, 8, 56}} {
		o := withTables(tc.k, 0)
		if err := o.Check(); err != nil {
			t.Fatal(err)
		}
		if b := o.blocks(); b != tc.blocks || tableCount(b, tc.k) != tc.tables {
			t.Errorf("distance %d: %d blocks, %d tables; want %d, %d", tc.k, b, tableCount(b, tc.k), tc.blocks, tc.tables)
		}
	}
	for _, o := range []Options{withTables(8, 0), withTables(4, 4), withTables(10, 30), withTables(40, 0)} {
		if o.Check() == nil {
			t.Errorf("distance %d, blocks %d: no error", o.Distance, o.Blocks)
		}
	}
}

// TestTooManyTables: options that need more tables than maxTables are
// refused with the count they need and the blocks that fit, and those
// blocks are taken. Regression: the count was capped at maxTables+1 and
// printed as the need (distance 7 in 11 blocks "needs 129 tables", really
// 330), and no blocks were named.
func TestTooManyTables(t *testing.T) {
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{withTables(7, 0), "simhash: distance 7 in 11 blocks (the fewest giving keys of 20 bits) needs 330 tables, more than 128; " +
			"--blocks 8 to 10 fit; 10 gives the longest keys, 18 bits, in 120 tables"},
		{withTables(4, 30), "simhash: distance 4 in 30 blocks needs 27405 tables, more than 128; " +
			"--blocks 5 to 9 fit; 9 gives the longest keys, 35 bits, in 126 tables"},
		{withTables(32, 64), "simhash: distance 32 in 64 blocks needs 1832624140942590534 tables, more than 128; " +
			"only --blocks 33 fits: 1-bit keys in 33 tables"},
	} {
		if err := tc.o.Check(); err == nil || err.Error() != tc.want {
			t.Errorf("distance %d, blocks %d:\n got %v\nwant %s", tc.o.Distance, tc.o.Blocks, err, tc.want)
		}
	}
	fit := regexp.MustCompile(`--blocks (\d+) (?:to (\d+) )?fit`)
	for k := 0; k <= 32; k++ {
		for b := k + 1; b <= 64; b++ {
			err := withTables(k, b).Check()
			if (err != nil) != (tableCount(b, k) > maxTables) {
				t.Fatalf("distance %d, blocks %d, %d tables: %v", k, b, tableCount(b, k), err)
			}
			if err == nil {
				continue
			}
			m := fit.FindStringSubmatch(err.Error())
			if m == nil {
				t.Fatalf("distance %d, blocks %d: no blocks named: %v", k, b, err)
			}
			lo, _ := strconv.Atoi(m[1])
			hi, _ := strconv.Atoi(cmp.Or(m[2], m[1]))
			if withTables(k, lo).Check() != nil || withTables(k, hi).Check() != nil || lo != k+1 ||
				hi < 64 && withTables(k, hi+1).Check() == nil {
				t.Fatalf("distance %d: %v: blocks %d to %d are not the ones that fit", k, err, lo, hi)
			}
		}
	}
}

func TestSketchRoundTrip(t *testing.T) {
	m := newMethod(Defaults())
	g := enginetest.NewTextGen(22)
	for _, n := range []int{1, 3, 60} {
		s, _ := m.NewSketcher().Sketch(&core.Document{ID: "x", Text: strings.Join(g.Sentences(n), " ")})
		got, err := m.DecodeSketch(m.AppendIndex(nil, s), m.AppendDetail(nil, s))
		if err != nil {
			t.Fatal(err)
		}
		if got.FP != s.FP || got.Cut != s.Cut || !slices.Equal(got.Set, s.Set) || !slices.Equal(got.Nums, s.Nums) || !slices.Equal(got.Slots, s.Slots) {
			t.Errorf("%d sentences: decoded %+v, want %+v", n, got, s)
		}
		idx, err := m.DecodeIndex(m.AppendIndex(nil, s))
		if err != nil || idx.FP != s.FP || idx.Set != nil {
			t.Errorf("index part: %+v, %v", idx, err)
		}
	}
	for _, bad := range [][]byte{nil, {Format + 1, 0, 0, 0, 0, 0, 0, 0, 0}, {Format, 0, 0}, {Format, 0, 0, 0, 0, 0, 0, 0, 0, 9}} {
		if _, err := m.DecodeIndex(bad); err == nil {
			t.Errorf("index part %v decoded", bad)
		}
	}
}

func TestLabels(t *testing.T) {
	g := enginetest.NewTextGen(23)
	story := strings.Join(g.Sentences(25), " ")
	report := func(a, b, c string) string {
		return "Acme Corp said quarterly net profit rose to " + a + " mln dlrs from " + b +
			" mln dlrs on revenue of " + c + " mln dlrs. The company said it expected growth to continue " +
			"in the coming quarter as demand stayed firm and costs fell. The board will meet next month " +
			"to discuss the dividend, which analysts expect to stay unchanged, and the chairman said the " +
			"group had no plans for acquisitions this year. Shares of the company closed higher on the " +
			"exchange after the results were published, with volume above the recent average."
	}
	far := withTables(12, 13) // every pair of these short texts a candidate
	noNumbers := far
	noNumbers.NumberAgreement = -1
	noFigures := noNumbers
	noFigures.Template = false
	for _, tc := range []struct {
		name string
		o    Options
		a, b string
		want core.Label
	}{
		{"a copy with a typo is a duplicate", Defaults(), story, strings.Replace(story, "e", "a", 1), core.Duplicate},
		{"templated reports with other figures are not duplicates", far, report("12.5", "10.1", "140"), report("3.2", "4.8", "61"), core.Similar},
		{"the places of the figures alone tell them apart", noNumbers, report("12.5", "10.1", "140"), report("3.2", "4.8", "61"), core.Similar},
		{"without the figures checks they are duplicates", noFigures, report("12.5", "10.1", "140"), report("3.2", "4.8", "61"), core.Duplicate},
		{"the same figures written otherwise are the same report", far, report("1,250", "10.1", "140"), report("1250", "10.1", "140"), core.Duplicate},
	} {
		got := enginetest.Batch(t, Spec, tc.o, []core.Document{{ID: "a", Text: tc.a}, {ID: "b", Text: tc.b}})
		p := got["a~b"]
		if p.Label != tc.want {
			t.Errorf("%s: label %q, want %q (evidence %+v)", tc.name, p.Label, tc.want, p.Evidence)
		}
		if ev, ok := p.Evidence.(Evidence); !ok || ev.Distance > tc.o.Distance {
			t.Errorf("%s: evidence %+v", tc.name, p.Evidence)
		}
	}
}

func TestBitCounterIsTheSignOfTheVotes(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 1, 2, 3, 64, 1000, 4097} {
		var c bitCounter
		var sums [64]int
		for range n {
			x := r.Uint64() & r.Uint64() // skewed: fewer set bits
			if r.IntN(2) == 0 {
				x = r.Uint64()
			}
			c.add(x)
			for b := range 64 {
				sums[b] += int(x>>b&1)*2 - 1
			}
		}
		var want uint64
		for b, s := range sums {
			if s > 0 {
				want |= 1 << b
			}
		}
		if got := c.majority(); got != want {
			t.Errorf("%d words: %016x, want %016x", n, got, want)
		}
	}
}

func BenchmarkSketch(b *testing.B) {
	text := strings.Join(enginetest.NewTextGen(30).Sentences(40), " ")
	for _, w := range []string{TF, Binary, LogTF} {
		b.Run(w, func(b *testing.B) {
			o := Defaults()
			o.Weighting = w
			sk := newMethod(o).NewSketcher()
			doc := &core.Document{ID: "x", Text: text}
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				sk.Sketch(doc)
			}
		})
	}
}

// BenchmarkSketchLongText sketches one text of 4 MiB with a new sketcher
// each time, as the first long text of a run is met: the cost of sizing
// its scratch space besides the sketching itself, MB/s of text (B/op is
// what one long text allocates).
func BenchmarkSketchLongText(b *testing.B) {
	doc := &core.Document{ID: "long", Title: "A long text", Text: enginetest.NewTextGen(7).Text(4 << 20)}
	m := newMethod(Defaults())
	b.SetBytes(int64(len(doc.Text)))
	for b.Loop() {
		if _, skip := m.NewSketcher().Sketch(doc); skip != core.SkipNone {
			b.Fatal(skip)
		}
	}
}

// TestFloor checks that verification's floor drops only pairs Label cannot
// report (enginetest.CheckSetFloor).
func TestFloor(t *testing.T) {
	noSimilar, noContainment := Defaults(), Defaults()
	noSimilar.Similar, noContainment.Containment = 0, 2
	for _, o := range []Options{Defaults(), noSimilar, noContainment} {
		m := &method{o: o}
		enginetest.CheckSetFloor(t, fmt.Sprintf("%+v", o), o.bounds().Floor, func(sc similarity.SetScores) bool {
			ev := Evidence{SetScores: sc}
			_, ok := m.Label(ev.Jaccard, ev)
			return ok
		})
	}
}

// TestParallelMatchIsSerial pins that the Batch's matchers over the index
// IndexAll builds find exactly what matching and indexing one document
// after another finds, in any order of documents, with tables crowded past
// the bucket limit (many copies of one story), and settle as many
// candidates.
func TestParallelMatchIsSerial(t *testing.T) {
	docs := enginetest.Crowded()
	sketch := func(o Options) []*Sketch {
		sk := newMethod(o).NewSketcher()
		var out []*Sketch
		for i := range docs {
			s, _ := sk.Sketch(&docs[i])
			out = append(out, s)
		}
		return out
	}
	for _, limit := range []int{2, 3, 32} {
		o := Defaults()
		o.BucketLimit = limit
		ms, mp := newMethod(o), newMethod(o)
		if n := enginetest.ParallelIsSerial(t, ms.stages(), mp.stages(), sketch(o), sketch(o), uint64(limit)); n < 50 {
			t.Errorf("bucket limit %d: %d candidates found, too few to test", limit, n)
		}
		var st, pt engine.Stats
		ms.Report(&st)
		mp.Report(&pt)
		if st.Candidates != pt.Candidates {
			t.Errorf("bucket limit %d: %d candidates settled serially, %d in parallel", limit, st.Candidates, pt.Candidates)
		}
	}
}
