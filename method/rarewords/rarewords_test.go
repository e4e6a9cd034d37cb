package rarewords

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/enginetest"
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
func words(k, n int) []string { return enginetest.Words(k, n) }

// filler returns n documents of source src of words of their own: with 40
// of them a word in two documents is rare to the source (2 <= 5 % of 40).
func filler(src string, n, from int) []core.Document { return enginetest.Filler(src, n, from) }

func text(ws ...[]string) string { return enginetest.Join(ws...) }

// rareEvidence returns the evidence of the pairs a batch reports, by "a~b".
func rareEvidence(t *testing.T, o Options, docs []core.Document) map[string]Evidence {
	t.Helper()
	out := map[string]Evidence{}
	for k, p := range enginetest.Batch(t, Spec, o, docs) {
		out[k] = p.Evidence.(Evidence)
	}
	return out
}

// short are the options of tests whose documents are short.
func short() Options {
	o := Defaults()
	o.MinWords = 10
	return o
}

// TestContainmentBothWays: a short piece wholly inside a long one is found
// whichever comes first, with each share on its side.
func TestContainmentBothWays(t *testing.T) {
	short1 := core.Document{ID: "short", Source: "agency", Text: text(words(0, 40))}
	long := core.Document{ID: "long", Source: "site", Text: text(words(100, 60), words(0, 40), words(200, 60))}
	for _, tc := range []struct {
		name string
		docs []core.Document
		want map[string]Evidence
	}{
		{"short first", []core.Document{short1, long}, map[string]Evidence{"short~long": {
			SourceA: "agency", SourceB: "site", Shared: 40, RareA: 40, RareB: 160, AInB: 1, BInA: 0.25, BestFor: "both"}}},
		{"long first", []core.Document{long, short1}, map[string]Evidence{"long~short": {
			SourceA: "site", SourceB: "agency", Shared: 40, RareA: 160, RareB: 40, AInB: 0.25, BInA: 1, BestFor: "both"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, rareEvidence(t, short(), tc.docs)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestCommonPerSource: a word in more than 5 % of its source's documents is
// dropped for that source only.
func TestCommonPerSource(t *testing.T) {
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
	want := map[string]Evidence{"w0~s0": {
		SourceA: "wire", SourceB: "site", Shared: 30, RareA: 30, RareB: 31, AInB: 1, BInA: 0.9677, BestFor: "both"}}
	if diff := cmp.Diff(want, rareEvidence(t, short(), docs)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestSourcesCompared(t *testing.T) {
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
			o := short()
			o.SameSource = tc.same
			var got []string
			for k := range rareEvidence(t, o, docs) {
				got = append(got, k)
			}
			if diff := cmp.Diff(tc.want, got, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestBestMatchPerSource: a pair is reported when it is the best match of
// one of its documents in the other's source; BestFor says whose.
func TestBestMatchPerSource(t *testing.T) {
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
	for k, e := range rareEvidence(t, short(), docs) {
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

// TestSkipsShortDocuments: the recipe keeps articles of more than 200
// words.
func TestSkipsShortDocuments(t *testing.T) {
	m, err := newMethod(Defaults())
	if err != nil {
		t.Fatal(err)
	}
	sk := m.NewSketcher()
	for _, tc := range []struct {
		words int
		want  core.SkipReason
	}{{200, core.SkipTooShort}, {201, core.SkipNone}} {
		doc := core.Document{ID: fmt.Sprint(tc.words), Text: text(words(0, tc.words))}
		if _, skip := sk.Sketch(&doc); skip != tc.want {
			t.Errorf("%d words: skip %q, want %q", tc.words, skip, tc.want)
		}
	}
}

// TestRemoveUndoesAdd: documents added and removed (indexed, or only
// matched, as a query is) leave their sources' statistics as if they were
// never added: the documents added next get the rare words and pairs they
// get in a method that never saw them. Copies of the removed documents
// find nothing.
func TestRemoveUndoesAdd(t *testing.T) {
	var keep, gone []core.Document
	for i, src := range []string{"s1", "s2", "s3"} {
		keep = append(keep, filler(src, 30, 1000+300*i)...)
		gone = append(gone, filler(src, 30, 2000+300*i)...)
	}
	for i := range gone {
		gone[i].ID += "-gone"
	}
	base := words(0, 100)
	later := []core.Document{
		{ID: "a", Source: "s1", Text: text(base[:70], words(2000, 30))}, // words of removed documents of s1
		{ID: "b", Source: "s2", Text: text(base[:90], words(2300, 10))},
		{ID: "c", Source: "s3", Text: text(base[:50], words(2600, 50))},
		{ID: "d", Source: "s3", Text: text(base)},
		{ID: "e", Source: "s2", Text: text(words(2000, 40))}, // copies removed documents of s1
	}
	wantR, wantP := addRemove(t, keep, nil, later)
	gotR, gotP := addRemove(t, keep, gone, later)
	if len(wantP) < 3 {
		t.Errorf("the later documents found %d pairs", len(wantP))
	}
	if diff := cmp.Diff(wantP, gotP); diff != "" {
		t.Errorf("pairs (-never added +removed)\n%s", diff)
	}
	if diff := cmp.Diff(wantR, gotR); diff != "" {
		t.Errorf("rare words (-never added +removed)\n%s", diff)
	}
}

// addRemove adds keep, then adds and removes gone, then adds later, as an
// Index does, and returns how many rare words each of later has and their
// pairs.
func addRemove(t *testing.T, keep, gone, later []core.Document) (rare []int, pairs []string) {
	m, err := newMethod(short())
	if err != nil {
		t.Fatal(err)
	}
	o := m.o
	o.MinWords = 0
	m.o = o
	enginetest.AddRemove(t, m, keep, gone, later, func(i int, ord int32, ids []string, fs []engine.Found[Evidence]) {
		for _, f := range m.Select(fs, true) {
			pairs = append(pairs, fmt.Sprintf("%s~%s %.4f %+v", ids[f.A], ids[f.B], f.Score, f.Ev))
		}
		rare = append(rare, len(m.rare[ord]))
	})
	return rare, pairs
}

// BenchmarkBatch measures a whole Batch over 5,334 generated articles of 16
// sources, a quarter of them edited copies.
func BenchmarkBatch(b *testing.B) {
	docs := enginetest.Copies(enginetest.NewTextGen(31), 4000, 12)
	for i := range docs {
		docs[i].Source = fmt.Sprint("site", i%16)
	}
	o := Defaults()
	o.MinWords = 20
	for b.Loop() {
		enginetest.Batch(b, Spec, o, docs)
	}
	b.ReportMetric(float64(len(docs)*b.N)/b.Elapsed().Seconds(), "docs/s")
}

func FuzzDecode(f *testing.F) { enginetest.FuzzCodec(f, Spec) }

// TestParallelMatchIsSerial: the matchers of a Batch (IndexAll, then each
// document against those before it, in any order) emit, of the pairs
// matching one document after another emits, in the same order, those
// Select keeps, and Select keeps and marks the same; under a news window
// they emit them all. They count as many candidates. Two corpora: edited
// copies, with exact copies in three sources, and documents drawing their
// words from one small pool with every word rare, where nearly every pair
// reaches the threshold and shares tie everywhere. Blocks and chunks of a
// few documents, and one and three goroutines, are tried as well as the
// defaults.
func TestParallelMatchIsSerial(t *testing.T) {
	g := enginetest.NewTextGen(9)
	copies := enginetest.Copies(g, 300, 6)
	for i := range copies {
		copies[i].Source = fmt.Sprint("s", i%4)
	}
	for i := 0; i < 60; i += 5 {
		for _, src := range []string{"s1", "s2", "s3"} {
			d := copies[i]
			d.ID, d.Source = fmt.Sprint(d.ID, "-copy-", src), src
			copies = append(copies, d)
		}
	}
	copies = append(copies, core.Document{ID: "tiny", Source: "s1", Text: "two words"})
	r := rand.New(rand.NewPCG(3, 4))
	pool := words(0, 120)
	var drawn []core.Document
	for i := range 240 {
		w := slices.Clone(pool)
		r.Shuffle(len(w), func(i, j int) { w[i], w[j] = w[j], w[i] })
		drawn = append(drawn, core.Document{ID: fmt.Sprint("p", i), Source: fmt.Sprint("s", r.IntN(5)),
			Text: text(w[:10+r.IntN(5)*r.IntN(15)])})
	}
	allRare := short()
	allRare.CommonDF = 1
	mutual := allRare
	mutual.Ties = TiesMutual
	for _, c := range []struct {
		name string
		docs []core.Document
		o    Options
	}{{"copies", copies, short()}, {"one pool", drawn, allRare}, {"one pool, mutual ties", drawn, mutual}} {
		t.Run(c.name, func(t *testing.T) { parallelMatchIsSerial(t, c.docs, c.o) })
	}
}

func parallelMatchIsSerial(t *testing.T, docs []core.Document, o Options) {
	sketch := func() (*method, []*Sketch) {
		m, err := newMethod(o)
		if err != nil {
			t.Fatal(err)
		}
		sk := m.NewSketcher()
		var ss []*Sketch
		for i := range docs {
			s, _ := sk.Sketch(&docs[i])
			ss = append(ss, s)
			m.Add(int32(i), s)
		}
		m.Seal()
		return m, ss
	}
	type found = engine.Found[Evidence]
	ms, serial := sketch()
	var want []found
	for ord, s := range serial {
		if s == nil {
			continue
		}
		if err := ms.Match(int32(ord), s, nil, func(c int32, score float64, ev Evidence) {
			l, _ := ms.Label(score, ev)
			want = append(want, found{A: c, B: int32(ord), Score: score, Label: l, Ev: ev})
		}); err != nil {
			t.Fatal(err)
		}
		ms.Index(int32(ord), s)
	}
	wantKept := ms.Select(slices.Clone(want), false)
	var stS engine.Stats
	ms.Report(&stS)
	t.Logf("%d pairs, %d kept", len(want), len(wantKept))
	if len(wantKept) < 100 || len(wantKept) == len(want) {
		t.Fatalf("%d pairs, %d kept: too few to test", len(want), len(wantKept))
	}
	for _, tc := range []struct{ workers, block, chunk int }{
		{1, 1, 1}, {3, 7, 5}, {2, countBlock, countChunk},
	} {
		for _, windowed := range []bool{false, true} {
			mp, parallel := sketch()
			var reported []int
			mp.indexAll(t.Context(), parallel, tc.workers, tc.block, tc.chunk, func(done int) { reported = append(reported, done) })
			if !slices.IsSorted(reported) || len(reported) > 0 && reported[len(reported)-1] > len(parallel) {
				t.Errorf("%+v: progress %v is not increasing up to %d documents", tc, reported, len(parallel))
			}
			got := make([][]found, len(parallel))
			mt := mp.NewMatcher()
			var src engine.Source[Sketch]
			if windowed {
				src = openWindow{}
			}
			for _, ord := range rand.New(rand.NewPCG(1, 2)).Perm(len(parallel)) {
				if s := parallel[ord]; s != nil {
					if err := mt.Match(int32(ord), s, src, func(c int32, score float64, ev Evidence) {
						l, _ := mp.Label(score, ev)
						got[ord] = append(got[ord], found{A: c, B: int32(ord), Score: score, Label: l, Ev: ev})
					}); err != nil {
						t.Fatal(err)
					}
				}
			}
			all := slices.Concat(got...)
			if windowed {
				if diff := cmp.Diff(want, all); diff != "" {
					t.Errorf("%+v, under a window: parallel matching differs from serial (-serial +parallel):\n%s", tc, diff)
				}
			} else {
				rest := want
				for _, f := range all {
					i := slices.IndexFunc(rest, func(w found) bool { return w.A == f.A && w.B == f.B })
					if i < 0 || !cmp.Equal(rest[i], f) {
						t.Fatalf("%+v: parallel matching emits %+v, not among serial's pairs after the previous one", tc, f)
					}
					rest = rest[i+1:]
				}
				if diff := cmp.Diff(wantKept, mp.Select(all, false)); diff != "" {
					t.Errorf("%+v: Select keeps other pairs (-serial +parallel):\n%s", tc, diff)
				}
			}
			var stP engine.Stats
			mp.Report(&stP)
			if stS.Candidates != stP.Candidates {
				t.Errorf("%+v: candidates counted: serial %d, parallel %d", tc, stS.Candidates, stP.Candidates)
			}
		}
	}
}

// openWindow is the Source of a match under a news window that rules out
// no candidate.
type openWindow struct{}

func (openWindow) Sketch(int32) (*Sketch, error) { return nil, errors.New("no sketches") }
func (openWindow) Outside(int32) bool            { return false }

func TestNeedTable(t *testing.T) {
	for _, th := range []float64{0, 0.1, 0.3, 1.0 / 3, 0.5, 0.7, 0.999} {
		need := needTable(3000, th)
		for n := int32(1); n <= 3000; n++ {
			for _, c := range []int32{need[n] - 1, need[n]} {
				if c >= 0 && (float64(c)/float64(n) > th) != (c >= need[n]) {
					t.Fatalf("threshold %v, %d of %d: the table says %v", th, c, n, c >= need[n])
				}
			}
		}
	}
}

// TestTokens: the default words are the pieces between white space,
// lower-cased, punctuation kept, as the recipe splits them; the project's
// words drop the punctuation.
func TestTokens(t *testing.T) {
	doc := core.Document{ID: "d", Text: "Said, said\tSAID. «said»\u00a0said\u2003said\x1fsaid"}
	for _, tc := range []struct {
		tokens string
		want   []string
	}{
		{TokensWhitespace, []string{"said,", "said", "said.", "«said»", "said"}},
		{TokensWords, []string{"said"}},
	} {
		t.Run(tc.tokens, func(t *testing.T) {
			s := sketchTokens(t, tc.tokens, &doc)
			var want []uint64
			for _, w := range tc.want {
				want = append(want, analysis.HashWordString(w))
			}
			slices.Sort(want)
			want = slices.Compact(want)
			if diff := cmp.Diff(want, s.Words); diff != "" {
				t.Errorf("words (-want +got)\n%s", diff)
			}
		})
	}
	o := Defaults()
	long := core.Document{ID: "l", Text: text(words(0, 100), words(0, 101))} // 201 pieces, 101 distinct
	m, _ := newMethod(o)
	if _, skip := m.NewSketcher().Sketch(&long); skip != core.SkipNone {
		t.Errorf("201 pieces, repeats among them: skip %q; the recipe counts every piece", skip)
	}
}

// TestTokensCapitalSigma pins a departure from the recipe, kept so that
// stored sketches keep their words: the whitespace pieces lower-case a
// Greek capital sigma to "σ" everywhere (as tm's tolower does), where
// Python's lower() writes "ς" at a word's end, so "ΑΑΟΣ" and "ααος" are
// two words ("ααοσ", "ααος"); the Unicode words of --tokens words fold
// both to one. docs/methods.md lists it among the departures.
func TestTokensCapitalSigma(t *testing.T) {
	doc := core.Document{ID: "d", Text: "ΑΑΟΣ ααος ΣΟΣ"}
	for _, tc := range []struct {
		tokens string
		want   int
	}{
		{TokensWhitespace, 3}, // ααοσ, ααος, σοσ
		{TokensWords, 2},      // ααος, σος folded alike
	} {
		t.Run(tc.tokens, func(t *testing.T) {
			s := sketchTokens(t, tc.tokens, &doc)
			if len(s.Words) != tc.want {
				t.Errorf("%d distinct words, want %d", len(s.Words), tc.want)
			}
			if tc.tokens == TokensWhitespace && !slices.Contains(s.Words, analysis.HashWordString("ααοσ")) {
				t.Errorf("no word ααοσ: the capital sigma at the end of ΑΑΟΣ is no longer lower-cased to σ; " +
					"a change of the stored words needs a new Format and a fixture (docs/upgrades.md)")
			}
		})
	}
}

// TestUnspacedWords: a text in a script written without spaces has words
// to compare, its letters' pairs, and enough of them to be counted long
// (a Chinese story of 250 characters); whitespace alone made it one or two
// pieces, every such story too short.
func TestUnspacedWords(t *testing.T) {
	o := Defaults()
	m, err := newMethod(o)
	if err != nil {
		t.Fatal(err)
	}
	sk := m.NewSketcher()
	doc := core.Document{ID: "zh", Text: "市政府宣布新线路 Metro 2 开通，全长28公里。"}
	m.o.MinWords = 0
	s, skip := sk.Sketch(&doc)
	if skip != core.SkipNone {
		t.Fatalf("skipped: %s", skip)
	}
	var want []uint64
	for _, w := range []string{"市政", "政府", "府宣", "宣布", "布新", "新线", "线路", "metro", "2", "开通", "全长", "28", "公里"} {
		want = append(want, analysis.HashWordString(w))
	}
	slices.Sort(want)
	if diff := cmp.Diff(want, s.Words); diff != "" {
		t.Errorf("words (-want +got)\n%s", diff)
	}
	m.o.MinWords = o.MinWords
	long := core.Document{ID: "long", Text: strings.Repeat("市民对新线路普遍表示欢迎认为它将大大缩短前往机场的时间", 10)}
	if _, skip := sk.Sketch(&long); skip != core.SkipNone {
		t.Errorf("a story of 260 characters: skip %q", skip)
	}

	// An index of sketch format 2 goes on keeping such pieces whole, and
	// writes and reads its own format; format 1 is not made any more.
	c, ok := older(2, o)
	if !ok {
		t.Fatal("format 2 not made")
	}
	m2, err := newMethod(c.(Options))
	if err != nil {
		t.Fatal(err)
	}
	m2.o.MinWords = 0
	s2, _ := m2.NewSketcher().Sketch(&doc)
	var whole []uint64
	for _, w := range []string{"市政府宣布新线路", "metro", "2", "开通，全长28公里。"} {
		whole = append(whole, analysis.HashWordString(w))
	}
	slices.Sort(whole)
	if diff := cmp.Diff(whole, s2.Words); diff != "" {
		t.Errorf("format 2's words (-want +got)\n%s", diff)
	}
	enc := m2.AppendIndex(nil, s2)
	if enc[0] != 2 {
		t.Errorf("format 2's sketch written as format %d", enc[0])
	}
	if _, err := m2.DecodeIndex(enc); err != nil {
		t.Errorf("format 2's sketch read back: %v", err)
	}
	if _, err := m.DecodeIndex(enc); err == nil {
		t.Error("a format 3 method read a format 2 sketch")
	}
	if _, ok := older(1, o); ok {
		t.Error("format 1 made")
	}

	// With --tokens words, the letters of such a script, one token each,
	// are paired too (format 3); format 2 kept them one by one.
	for _, tc := range []struct {
		format int
		want   []string
	}{
		{3, []string{"中国", "国经", "经济", "metro"}},
		{2, []string{"中", "国", "经", "济", "metro"}},
	} {
		w := o
		w.Tokens, w.MinWords = TokensWords, 0
		if tc.format == 2 {
			c, _ := older(2, w)
			w = c.(Options)
		}
		mw, err := newMethod(w)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := mw.NewSketcher().Sketch(&core.Document{ID: "w", Text: "中国经济 Metro"})
		var want []uint64
		for _, x := range tc.want {
			want = append(want, analysis.HashWordString(x))
		}
		slices.Sort(want)
		if diff := cmp.Diff(want, s.Words); diff != "" {
			t.Errorf("format %d, --tokens words (-want +got)\n%s", tc.format, diff)
		}
	}
}

// TestThresholdIsStrict: a best match is reported when it holds more than
// the threshold's share of the document's rare words, not as much.
func TestThresholdIsStrict(t *testing.T) {
	x := words(0, 100)
	for _, tc := range []struct {
		shared int
		want   []string
	}{{10, nil}, {11, []string{"x~y"}}} {
		t.Run(fmt.Sprint(tc.shared, " shared"), func(t *testing.T) {
			docs := []core.Document{
				{ID: "x", Source: "s1", Text: text(x)},
				{ID: "y", Source: "s2", Text: text(x[:tc.shared], words(300, 100-tc.shared))},
			}
			docs = append(docs, filler("s1", 40, 1000)...)
			docs = append(docs, filler("s2", 40, 2000)...)
			var got []string
			for k := range rareEvidence(t, short(), docs) {
				got = append(got, k)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestTies: of two partners sharing as many of a document's rare words,
// TiesFirst takes the earlier, TiesMutual the one with fewer rare words.
func TestTies(t *testing.T) {
	x := words(0, 100)
	docs := []core.Document{
		{ID: "x", Source: "s1", Text: text(x)},
		{ID: "y1", Source: "s2", Text: text(x[:20], words(300, 80))}, // 20 of 100: x's share 0.2, its own 0.2
		{ID: "y2", Source: "s2", Text: text(x[:20], words(500, 20))}, // 20 of 40: x's share 0.2, its own 0.5
	}
	docs = append(docs, filler("s1", 40, 1000)...)
	docs = append(docs, filler("s2", 40, 2000)...)
	for _, tc := range []struct {
		ties string
		want map[string]string
	}{
		{TiesFirst, map[string]string{"x~y1": "both", "x~y2": "b"}},
		{TiesMutual, map[string]string{"x~y1": "b", "x~y2": "both"}},
	} {
		t.Run(tc.ties, func(t *testing.T) {
			o := short()
			o.Ties = tc.ties
			got := map[string]string{}
			for k, e := range rareEvidence(t, o, docs) {
				got[k] = e.BestFor
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestScoreShowsItsSide is the regression test of shares rounded onto a
// bound of the rule: documents sharing 2333 of their 3333 rare words
// (0.69997 each way), similar under "min>=0.7", were written with a score,
// a_in_b and b_in_a of 0.7. The shares and the score keep the digits that
// show the side of the bound the exact ones are on, below "min>=0.7" and
// above "min>0.7" (7001 of 10001: 0.70003), above --threshold 0.5 (5001 of
// 10001: 0.50005, not 0.5, which is not reported), and four where those tell
// it.
func TestScoreShowsItsSide(t *testing.T) {
	ws := func(prefix string, from, to int) []string {
		var w []string
		for i := from; i < to; i++ {
			w = append(w, fmt.Sprintf("%s%dx", prefix, i))
		}
		return w
	}
	pair := func(shared, each int) []core.Document {
		docs := append(filler("A", 25, 0), filler("B", 25, 500)...)
		return append(docs, core.Document{ID: "a", Source: "A", Text: text(ws("r", 0, each))},
			core.Document{ID: "b", Source: "B", Text: text(ws("r", 0, shared), ws("s", shared, each))})
	}
	for _, tc := range []struct {
		name         string
		rule         string
		threshold    float64 // 0: the default
		shared, each int
		label        core.Label
		share        float64
	}{
		{"below min>=0.7", "min>=0.7", 0, 2333, 3333, core.Similar, 0.69997},
		{"above min>0.7", "min>0.7", 0, 7001, 10001, core.Duplicate, 0.70003},
		{"above threshold 0.5", "min>=0.7", 0.5, 5001, 10001, core.Similar, 0.50005},
		{"four decimals", "min>=0.7", 0, 2334, 3333, core.Duplicate, 0.7003},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := short()
			o.Rule = tc.rule
			if tc.threshold != 0 {
				o.Threshold = tc.threshold
			}
			p, ok := enginetest.Batch(t, Spec, o, pair(tc.shared, tc.each))["a~b"]
			if !ok {
				t.Fatal("a~b not reported")
			}
			ev := p.Evidence.(Evidence)
			if p.Label != tc.label || p.Score != tc.share || ev.AInB != tc.share || ev.BInA != tc.share {
				t.Errorf("a~b: %s of score %v, a_in_b %v, b_in_a %v; want %s of %v", p.Label, p.Score, ev.AInB, ev.BInA, tc.label, tc.share)
			}
		})
	}
}

// sketchTokens sketches doc with the default options but tokens, and no
// least number of words; a skip fails the test.
func sketchTokens(t *testing.T, tokens string, doc *core.Document) *Sketch {
	t.Helper()
	o := Defaults()
	o.Tokens, o.MinWords = tokens, 0
	m, err := newMethod(o)
	if err != nil {
		t.Fatal(err)
	}
	s, skip := m.NewSketcher().Sketch(doc)
	if skip != core.SkipNone {
		t.Fatalf("skipped: %s", skip)
	}
	return s
}
