package gen

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/google/go-cmp/cmp"
)

// generate runs Generate on the test bases and returns both outputs.
func generate(t testing.TB, opts Options) (docs, truth []byte, st Stats) {
	t.Helper()
	var d, tr bytes.Buffer
	st, err := Generate(testBases(), opts, &d, &tr)
	if err != nil {
		t.Fatal(err)
	}
	return d.Bytes(), tr.Bytes(), st
}

func decodeLines[T any](t *testing.T, data []byte) []T {
	t.Helper()
	var out []T
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var v T
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("line %d: %v: %s", len(out)+1, err, sc.Bytes())
		}
		out = append(out, v)
	}
	return out
}

func TestGenerateDeterministic(t *testing.T) {
	d1, t1, _ := generate(t, Options{N: 3000, Seed: 7, Workers: 1})
	d2, t2, _ := generate(t, Options{N: 3000, Seed: 7, Workers: 4})
	if !bytes.Equal(d1, d2) || !bytes.Equal(t1, t2) {
		t.Error("same seed, different workers: outputs differ")
	}
	d3, _, _ := generate(t, Options{N: 3000, Seed: 8})
	if bytes.Equal(d1, d3) {
		t.Error("different seeds gave the same documents")
	}
}

func TestGenerateTruthMatchesDocs(t *testing.T) {
	dBytes, tBytes, st := generate(t, Options{N: 2000, Seed: 1})
	docs := decodeLines[DocRecord](t, dBytes)
	truth := decodeLines[TruthRecord](t, tBytes)
	if len(docs) != 2000 || len(truth) != 2000 {
		t.Fatalf("%d documents and %d truth lines, want 2000", len(docs), len(truth))
	}
	byID := map[string]TruthRecord{}
	for i, tr := range truth {
		if tr.ID != docs[i].ID {
			t.Fatalf("line %d: truth id %s, document id %s", i+1, tr.ID, docs[i].ID)
		}
		byID[tr.ID] = tr
	}
	if len(byID) != len(truth) {
		t.Fatal("repeated ids")
	}
	counts := map[string]int{}
	ops := map[Op]int{}
	for i, tr := range truth {
		d := docs[i]
		checkDocFields(t, d)
		orig, ok := byID[tr.Cluster]
		switch {
		case !ok:
			t.Errorf("%s: cluster %s is no document", tr.ID, tr.Cluster)
		case orig.Cluster != orig.ID || len(orig.Ops) != 0 && tr.Cluster != tr.ID:
			t.Errorf("%s: cluster %s is not an original", tr.ID, tr.Cluster)
		case tr.Cluster == tr.ID && len(tr.Ops) == 0:
			counts["original"]++
		case tr.Cluster == tr.ID:
			counts["negative"]++
		default:
			counts["copy"]++
			if len(tr.Ops) < 1 || len(tr.Ops) > 3 || tr.Base != orig.Base {
				t.Errorf("%s: copy of %s with ops %v, base %s vs %s", tr.ID, tr.Cluster, tr.Ops, tr.Base, orig.Base)
			}
			for _, op := range tr.Ops {
				ops[op]++
			}
		}
	}
	want := map[string]int{"original": st.Originals, "copy": st.Copies, "negative": st.TemplateNegatives}
	if diff := cmp.Diff(want, counts); diff != "" {
		t.Errorf("kinds of documents vs stats (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(st.Ops, ops); diff != "" {
		t.Errorf("op counts vs stats (-want +got):\n%s", diff)
	}
	if st.Copies != 600 || st.TemplateNegatives != 40 || st.Synthesised != st.Originals-len(testBases()) {
		t.Errorf("stats %+v, want 600 copies, 40 negatives, all but the bases synthesised", st)
	}
	for _, op := range AllOps() {
		if ops[op] == 0 {
			t.Errorf("op %s never used", op)
		}
	}
}

var idRE = regexp.MustCompile(`^d\d{4}$`)

func checkDocFields(t *testing.T, d DocRecord) {
	t.Helper()
	if !idRE.MatchString(d.ID) || d.Title == "" || d.Text == "" || d.Source == "" ||
		!strings.HasPrefix(d.URL, "https://") || !strings.HasSuffix(d.URL, d.ID) {
		t.Errorf("bad document fields: %+v", d)
	}
	if _, err := time.Parse(time.RFC3339, d.Date); err != nil {
		t.Errorf("%s: date %q: %v", d.ID, d.Date, err)
	}
}

func TestGenerateCopiesResembleOriginals(t *testing.T) {
	dBytes, tBytes, _ := generate(t, Options{N: 1000, Seed: 2, Ops: []Op{Boilerplate}})
	docs := decodeLines[DocRecord](t, dBytes)
	text := map[string]string{}
	for _, d := range docs {
		text[d.ID] = d.Text
	}
	for _, tr := range decodeLines[TruthRecord](t, tBytes) {
		if len(tr.Ops) == 1 && tr.Ops[0] == Boilerplate && !strings.Contains(text[tr.ID], text[tr.Cluster]) {
			t.Errorf("%s: boilerplate copy does not contain its original %s", tr.ID, tr.Cluster)
		}
	}
}

func TestGenerateHardNegatives(t *testing.T) {
	dBytes, tBytes, st := generate(t, Options{N: 1000, Seed: 3, TemplateRate: 0.1})
	if st.TemplateNegatives != 100 {
		t.Fatalf("%d templated negatives, want 100", st.TemplateNegatives)
	}
	docs := map[string]DocRecord{}
	for _, d := range decodeLines[DocRecord](t, dBytes) {
		docs[d.ID] = d
	}
	truth := decodeLines[TruthRecord](t, tBytes)
	clusterOf := map[string]string{}
	for _, tr := range truth {
		clusterOf[tr.ID] = tr.Cluster
	}
	for _, tr := range truth {
		if tr.NegativeOf == "" {
			continue
		}
		if tr.Cluster != tr.ID || clusterOf[tr.NegativeOf] == tr.Cluster {
			t.Errorf("%s: negative of %s shares its cluster", tr.ID, tr.NegativeOf)
		}
		if diff := cmp.Diff([]Op{TemplateNegative}, tr.Ops); diff != "" {
			t.Errorf("%s ops (-want +got):\n%s", tr.ID, diff)
		}
		neg, src := docs[tr.ID], docs[tr.NegativeOf]
		if !strings.HasPrefix(tr.Base, "t:acme") && !strings.HasPrefix(tr.Base, "t:borealis") {
			t.Errorf("%s: negative of non-templated base %s", tr.ID, tr.Base)
		}
		if neg.Title == src.Title || figures(neg.Text) == figures(src.Text) {
			t.Errorf("%s: company or figures kept:\n%s\n%s", tr.ID, neg.Title, src.Title)
		}
		if j := jaccard(letterWords(body0(neg.Text)), letterWords(body0(src.Text))); j < 0.6 {
			t.Errorf("%s: word Jaccard %.2f with its template, want most words shared", tr.ID, j)
		}
	}
}

// body0 drops the dateline.
func body0(text string) string {
	_, rest, _ := strings.Cut(text, " - ")
	return rest
}

func figures(s string) string {
	return strings.Join(regexp.MustCompile(`\d+`).FindAllString(s, -1), " ")
}

func letterWords(s string) []string {
	var out []string
	for _, w := range words(s) {
		if isAlpha(w) {
			out = append(out, w)
		}
	}
	return out
}

func setOf[T comparable](xs []T) map[T]bool {
	s := make(map[T]bool, len(xs))
	for _, x := range xs {
		s[x] = true
	}
	return s
}

func jaccard[T comparable](a, b []T) float64 { return jaccardSets(setOf(a), setOf(b)) }

func jaccardSets[T comparable](sa, sb map[T]bool) float64 {
	inter := 0
	for x := range sa {
		if sb[x] {
			inter++
		}
	}
	if u := len(sa) + len(sb) - inter; u > 0 {
		return float64(inter) / float64(u)
	}
	return 1
}

func trigrams(text string) [][3]string {
	ws := words(text)
	var out [][3]string
	for i := 0; i+3 <= len(ws); i++ {
		out = append(out, [3]string{ws[i], ws[i+1], ws[i+2]})
	}
	return out
}

// TestSynthesisedSiblingsAreDistinct pins the resampling contract: originals
// synthesised from the same real story share under 0.2 word-3-gram Jaccard
// with each other and with the story, and no sentence with a letter in it.
func TestSynthesisedSiblingsAreDistinct(t *testing.T) {
	dBytes, tBytes, st := generate(t, Options{N: 400, Seed: 4, DupRate: -1, TemplateRate: -1})
	if st.Synthesised != 400-len(testBases()) {
		t.Fatalf("%d synthesised, want %d", st.Synthesised, 400-len(testBases()))
	}
	docs := decodeLines[DocRecord](t, dBytes)
	byBase := map[string][]int{}
	for i, tr := range decodeLines[TruthRecord](t, tBytes) {
		real, _, _ := strings.Cut(tr.Base, "~")
		byBase[real] = append(byBase[real], i)
	}
	grams := make([]map[[3]string]bool, len(docs))
	for i, d := range docs {
		grams[i] = setOf(trigrams(d.Text))
	}
	pairs, sum := 0, 0.0
	for base, idx := range byBase {
		for i, x := range idx {
			for _, y := range idx[i+1:] {
				j := jaccardSets(grams[x], grams[y])
				if j >= 0.2 {
					t.Errorf("%s: siblings %s and %s share %.2f of their 3-grams", base, docs[x].ID, docs[y].ID, j)
				}
				if s := sharedSentence(docs[x].Text, docs[y].Text); s != "" {
					t.Errorf("%s: siblings %s and %s share the sentence %q", base, docs[x].ID, docs[y].ID, s)
				}
				pairs++
				sum += j
			}
		}
	}
	if mean := sum / float64(pairs); mean > 0.05 {
		t.Errorf("mean sibling 3-gram Jaccard %.3f over %d pairs, want well under 0.2", mean, pairs)
	}
}

func sharedSentence(a, b string) string {
	set := map[string]bool{}
	for _, p := range splitParagraphs(a) {
		for _, s := range splitSentences(body0Maybe(p)) {
			set[s] = true
		}
	}
	for _, p := range splitParagraphs(b) {
		for _, s := range splitSentences(body0Maybe(p)) {
			if set[s] && strings.IndexFunc(s, unicode.IsLetter) >= 0 {
				return s
			}
		}
	}
	return ""
}

// body0Maybe drops a dateline prefix from a first paragraph.
func body0Maybe(p string) string {
	if datelinePrefix.MatchString(p) {
		return datelinePrefix.ReplaceAllString(p, "")
	}
	return p
}

var datelinePrefix = regexp.MustCompile(`^[A-Z][A-Z .]+, [A-Z][a-z]+ \d+ (\([^)]*\) )?- `)

func TestGenerateDropsNaturalDuplicates(t *testing.T) {
	bases := testBases()
	repeat := bases[0]
	repeat.ID = "t:harbor-repeat"
	correction := bases[1]
	correction.ID = "t:grain-correction"
	correction.Text += "\n\nThis corrects the crop figure in the second paragraph."
	// A flash followed by the full story: the later base holds most of the
	// earlier one, which is not the other way round.
	flash := Base{ID: "t:oil-flash", Title: "OIL FALLS", Text: strings.SplitN(bases[7].Text, "\n\n", 2)[0]}
	full := bases[7]
	full.ID = "t:oil-full"
	full.Text += "\n\nAnalysts said the market had expected the output figures to show restraint. " +
		"Several producers denied that they were pumping above their quotas and blamed the reports on rivals. " +
		"Refiners said stocks of heating oil were ample after a mild winter across most of the country."
	bases = append(bases[:7:7], bases[8:]...)
	bases = append(bases, repeat, correction, Base{ID: "t:short", Text: "Too short."}, flash, full)
	var d, tr bytes.Buffer
	st, err := Generate(bases, Options{Seed: 1}, &d, &tr)
	if err != nil {
		t.Fatal(err)
	}
	if st.DroppedExact != 1 || st.DroppedNear != 2 || st.DroppedShort != 1 {
		t.Errorf("dropped exact %d, near %d, short %d; want 1, 2, 1", st.DroppedExact, st.DroppedNear, st.DroppedShort)
	}
	if strings.Contains(tr.String(), "t:oil-full") || !strings.Contains(tr.String(), "t:oil-flash") {
		t.Error("the full story that contains an earlier flash was kept, or the flash was dropped")
	}
	st, err = Generate(bases, Options{Seed: 1, KeepNaturalDuplicates: true}, io.Discard, io.Discard)
	if err != nil || st.DroppedNear != 0 {
		t.Errorf("KeepNaturalDuplicates: dropped near %d, err %v", st.DroppedNear, err)
	}
}

func TestGenerateErrors(t *testing.T) {
	if _, err := Generate(nil, Options{}, io.Discard, io.Discard); err != ErrNoBases {
		t.Errorf("no bases: got %v, want ErrNoBases", err)
	}
	if _, err := Generate(testBases(), Options{N: 10, DupRate: 0.95, TemplateRate: 0.1}, io.Discard, io.Discard); err == nil {
		t.Error("no room for originals: want an error")
	}
	_, err := Generate(testBases(), Options{N: 5000}, io.Discard, failWriter{})
	if err == nil || !strings.Contains(err.Error(), "writing truth") {
		t.Errorf("failing writer: got %v", err)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, fmt.Errorf("disk full") }

func TestGenerateZeroN(t *testing.T) {
	_, _, st := generate(t, Options{Seed: 1})
	if st.Synthesised != 0 || st.Originals != len(testBases()) {
		t.Errorf("N=0: %+v, want one original per base and none synthesised", st)
	}
}

func TestOpsOption(t *testing.T) {
	_, tBytes, _ := generate(t, Options{N: 500, Seed: 5, Ops: []Op{Truncate, Glue}, MaxOps: 1})
	for _, tr := range decodeLines[TruthRecord](t, tBytes) {
		for _, op := range tr.Ops {
			if !slices.Contains([]Op{Truncate, Glue, TemplateNegative}, op) {
				t.Fatalf("%s: op %s not asked for", tr.ID, op)
			}
		}
		if len(tr.Ops) > 1 {
			t.Fatalf("%s: %d ops, want at most 1", tr.ID, len(tr.Ops))
		}
	}
}

func BenchmarkGenerate(b *testing.B) {
	bases := testBases()
	for b.Loop() {
		if _, err := Generate(bases, Options{N: 20000, Seed: 1}, io.Discard, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(20000*b.N)/b.Elapsed().Seconds(), "docs/s")
}

func BenchmarkSynthesise(b *testing.B) {
	opts := Options{N: 100}
	opts.setDefaults()
	g, err := newGenerator(testBases(), &opts)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var sents []string
	words := 0
	for i := 0; b.Loop(); i++ {
		a := g.synthesise(i%len(g.bases), 1+i%50, rng, sents)
		for _, p := range a.paras {
			for _, s := range p {
				words += strings.Count(s, " ") + 1
			}
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(words), "ns/word")
}

// TestCopiesDifferFromOriginals pins copies of an op set that does not fit
// every original (--ops spelling, --ops truncate): such copies were written
// identical to their originals, "ops": []. A copy is drawn from other
// originals, and left out and counted when no op changes any of them.
func TestCopiesDifferFromOriginals(t *testing.T) {
	oneParagraph := []Base{
		{ID: "p:1", Title: "TEXTILE MAKERS AGREE TO MERGE", Text: "Two textile makers said they agreed to merge in a stock swap. The companies said the combined concern would be based in Charlotte."},
		{ID: "p:2", Title: "ROADS CLOSED BY SNOW", Text: "Heavy snow closed most roads in the north on Monday. Police asked drivers to stay at home until the ploughs had passed."},
		{ID: "p:3", Title: "MUSEUM TO REOPEN IN MAY", Text: "The city museum will reopen in May after two years of repairs. Its director said the collection would be shown in new rooms."},
		{ID: "p:4", Title: "FERRY STRIKE ENDS", Text: "Ferry crews ended their strike on Tuesday after the owners offered a new contract. Sailings will resume on Wednesday morning."},
	}
	for _, tc := range []struct {
		name       string
		bases      []Base
		opts       Options
		allLeftOut bool
	}{
		{"spelling", testBases(), Options{N: 2000, Seed: 3, Ops: []Op{Spelling}}, false},
		{"number-format", testBases(), Options{N: 2000, Seed: 3, Ops: []Op{NumberFormat}, MaxOps: 1}, false},
		{"truncate of one paragraph", oneParagraph, Options{N: 6, Seed: 1, Ops: []Op{Truncate}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d, tr bytes.Buffer
			st, err := Generate(tc.bases, tc.opts, &d, &tr)
			if err != nil {
				t.Fatal(err)
			}
			docs := decodeLines[DocRecord](t, d.Bytes())
			truth := decodeLines[TruthRecord](t, tr.Bytes())
			byID := map[string]DocRecord{}
			for _, doc := range docs {
				byID[doc.ID] = doc
			}
			copies := 0
			for i, r := range truth {
				if r.Cluster == r.ID {
					continue
				}
				copies++
				orig := byID[r.Cluster]
				if len(r.Ops) == 0 || docs[i].Title == orig.Title && docs[i].Text == orig.Text {
					t.Errorf("%s: ops %v, title and text those of its original %s", r.ID, r.Ops, r.Cluster)
				}
			}
			want := int(math.Round(float64(tc.opts.N) * 0.3))
			if copies != st.Copies || st.Copies+st.CopiesLeftOut != want || len(docs) != st.Documents {
				t.Errorf("%d copies written of %d documents; stats: %d copies, %d left out, %d documents; want %d copies and left out",
					copies, len(docs), st.Copies, st.CopiesLeftOut, st.Documents, want)
			}
			if tc.allLeftOut != (st.Copies == 0) {
				t.Errorf("%d copies, want none: %v", st.Copies, tc.allLeftOut)
			}
		})
	}
}
