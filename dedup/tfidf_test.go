package dedup

import (
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/similarity"
)

// newsCorpus returns n generated articles with titles: originals, and
// copies of earlier ones with a few sentences replaced and the title kept,
// reworded or replaced, so that every clause of the tfidf rule and every
// side of its thresholds has pairs.
func newsCorpus(seed uint64, n int) []core.Document {
	g := newTextGen(seed)
	docs := make([]core.Document, 0, n)
	for i := range n {
		id := fmt.Sprint("n", i)
		if i < 10 || g.r.IntN(3) > 0 {
			title := headline(g)
			docs = append(docs, core.Document{ID: id, Title: title, Text: strings.Join(g.sentences(4+g.r.IntN(12)), " ")})
			continue
		}
		src := docs[g.r.IntN(len(docs))]
		sents := strings.SplitAfter(src.Text, ". ")
		for e := g.r.IntN(len(sents)/2 + 1); e > 0; e-- {
			sents[g.r.IntN(len(sents))] = g.sentence() + " "
		}
		title := src.Title
		switch g.r.IntN(3) {
		case 1:
			w := strings.Fields(title)
			w[g.r.IntN(len(w))] = names[g.r.IntN(len(names))]
			title = strings.Join(w, " ")
		case 2:
			title = headline(g)
		}
		docs = append(docs, core.Document{ID: id, Title: title, Text: strings.Join(sents, "")})
	}
	return docs
}

// headline returns six made-up names: like the proper nouns of a news
// headline, two titles rarely share one by chance.
func headline(g *textGen) string {
	w := make([]string, 6)
	for i := range w {
		w[i] = names[g.r.IntN(len(names))]
	}
	return strings.Join(w, " ")
}

// runBatchOf runs a Batch over docs and returns it finished with its pairs.
func runBatchOf(t testing.TB, opts Options, docs []core.Document) (*Batch, []core.Pair) {
	t.Helper()
	b, err := NewBatch(opts)
	if err != nil {
		t.Fatal(err)
	}
	sk := b.NewSketcher()
	for i := range docs {
		if err := b.Add(&docs[i], sk.Sketch(&docs[i])); err != nil {
			t.Fatal(err)
		}
	}
	res, err := b.Finish(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return b, res.Pairs
}

// tieredDirect is the default rule written out as code.
func tieredDirect(title, body float64) bool {
	return (title > 0.2 && body >= 0.2) || (title >= 0.1 && body >= 0.7) || body >= 0.85
}

type decided struct {
	A, B  string
	Score float64
	Label core.Label
}

// TestTFIDFEqualsBruteForce checks on 2,000 generated articles that tfidf
// reports exactly the pairs that comparing every pair of vectors reports,
// with the same scores, and that its labels are the three clauses of the
// default rule evaluated directly.
func TestTFIDFEqualsBruteForce(t *testing.T) {
	docs := newsCorpus(11, 2000)
	b, pairs := runBatchOf(t, Options{Method: MethodTFIDF, Similar: defaultSimilar}, docs)
	m := b.e.m.(*tfidf)
	var want []decided
	for j := range docs {
		for i := range j {
			title := m.fields[tfidfTitle].cosine(int32(i), int32(j))
			body := m.fields[tfidfBody].cosine(int32(i), int32(j))
			l := core.Label("")
			switch {
			case tieredDirect(title, body):
				l = core.Duplicate
			case body >= defaultSimilar:
				l = core.Similar
			default:
				continue
			}
			want = append(want, decided{docs[i].ID, docs[j].ID, round(body), l})
		}
	}
	var got []decided
	labels := map[core.Label]int{}
	for _, p := range pairs {
		got = append(got, decided{p.A, p.B, p.Score, p.Label})
		labels[p.Label]++
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-brute force +tfidf)\n%s", diff)
	}
	if labels[core.Duplicate] < 100 || labels[core.Similar] < 100 {
		t.Errorf("the corpus exercises too little: %v", labels)
	}
	if st := b.Stats(); st.Candidates >= len(docs)*len(docs)/2/4 {
		t.Errorf("verified %d candidates of %d pairs", st.Candidates, len(docs)*len(docs)/2)
	}
}

// TestTFIDFWeights checks the stored vectors against TF-IDF computed here
// from the words: count times 1 + ln((N+1)/(df+1)), stop words dropped,
// L2-normalised.
func TestTFIDFWeights(t *testing.T) {
	docs := newsCorpus(12, 300)
	b, _ := runBatchOf(t, Options{Method: MethodTFIDF}, docs)
	m := b.e.m.(*tfidf)
	var an analysis.Analyzer
	counts := make([]map[uint64]int, len(docs))
	df := map[uint64]int{}
	for i, d := range docs {
		counts[i] = map[uint64]int{}
		words := an.Words(d.Text)
		lang := analysis.DetectLangTokens(d.Text, words)
		for _, w := range words {
			if !analysis.IsStopToken(lang, w) {
				counts[i][w.Hash]++
			}
		}
		for h := range counts[i] {
			df[h]++
		}
	}
	for i := range docs {
		var want []float64
		var norm float64
		for h, tf := range counts[i] {
			w := float64(tf) * (1 + math.Log(float64(len(docs)+1)/float64(df[h]+1)))
			want, norm = append(want, w), norm+w*w
		}
		for k := range want {
			want[k] /= math.Sqrt(norm)
		}
		var got []float64
		for _, w := range m.fields[tfidfBody].vector(int32(i)).Weights {
			got = append(got, float64(w))
		}
		slices.Sort(want)
		slices.Sort(got)
		if !cmp.Equal(want, got, cmp.Comparer(func(x, y float64) bool { return math.Abs(x-y) < 1e-6 })) {
			t.Fatalf("document %d: weights\n%v\nwant\n%v", i, got, want)
		}
	}
}

func TestTFIDFRuleErrors(t *testing.T) {
	for _, tc := range []struct {
		name, rule string
		column     int
		token      string
	}{
		{"unknown field", "title>0.2 & bdy>=0.2", 13, "bdy"},
		{"bad operator", "body=>0.85", 5, "="},
		{"number out of range", "body>=85", 7, "85"},
		{"trailing or", "body>=0.85 |", 13, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewBatch(Options{Method: MethodTFIDF, Rule: tc.rule})
			var re *similarity.RuleError
			if !errors.As(err, &re) || re.Column != tc.column || re.Token != tc.token {
				t.Errorf("error %v, want one at column %d, token %q", err, tc.column, tc.token)
			}
		})
	}
	for _, rule := range []string{"title<0.5", "body>0.9 | title<=0.3 & body<0.2"} {
		if _, err := NewBatch(Options{Method: MethodTFIDF, Rule: rule}); err == nil || !strings.Contains(err.Error(), "no positive lower bound") {
			t.Errorf("%q: error %v, want a clause without lower bound refused", rule, err)
		}
	}
	if _, err := NewBatch(Options{Method: MethodTFIDF, Threshold: 0.5}); err == nil {
		t.Error("tfidf accepted a threshold")
	}
	if _, err := NewBatch(Options{Method: MethodMinHash, Rule: "body>0.5"}); err == nil {
		t.Error("minhash accepted a rule")
	}
}

func TestJoinThresholds(t *testing.T) {
	for _, tc := range []struct {
		name, rule string
		similar    float64
		want       []float64
	}{
		{"default rule", DefaultTFIDFRule, 0.3, []float64{0.2, 0.3}},
		{"default rule, duplicates only", DefaultTFIDFRule, -1, []float64{0.2, 0.7}},
		{"similar lowers the body join", "body>=0.85", 0.3, []float64{0, 0.3}},
		{"duplicates only", "title>=0.1 & body>=0.7", -1, []float64{0, 0.7}},
		{"title only clause", "title>=0.9 | body>=0.8", -1, []float64{0.9, 0.8}},
		{"higher bound wins", "title>=0.6 & body>=0.4", -1, []float64{0.6, 0}},
		{"covered by the body join", "title>=0.2 & body>=0.2 | body>=0.1", -1, []float64{0, 0.1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := similarity.ParseRule(tc.rule, tfidfFields...)
			if err != nil {
				t.Fatal(err)
			}
			got, err := joinThresholds(r, tc.similar, tfidfBody, tfidfTitle)
			if err != nil || !cmp.Equal(tc.want, got) {
				t.Errorf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

// TestTFIDFTitleJoin: a rule on titles alone is served by a join on the
// title vectors.
func TestTFIDFTitleJoin(t *testing.T) {
	g := newTextGen(13)
	docs := []core.Document{
		{ID: "a", Title: "Harbour bridge approved, council", Text: strings.Join(g.sentences(5), " ")},
		{ID: "b", Title: "HARBOUR BRIDGE APPROVED - COUNCIL", Text: strings.Join(g.sentences(5), " ")},
		{ID: "c", Title: "Storm closes the northern railway", Text: strings.Join(g.sentences(5), " ")},
	}
	docs = append(docs, background(g, 20)...)
	_, pairs := runBatchOf(t, Options{Method: MethodTFIDF, Rule: "title>=0.9", Similar: -1}, docs)
	if len(pairs) != 1 || pairs[0].A != "a" || pairs[0].B != "b" || pairs[0].Label != core.Duplicate {
		t.Errorf("pairs %+v, want a~b alone", pairs)
	}
}

func TestTFIDFTitlesCSV(t *testing.T) {
	g := newTextGen(14)
	body := strings.Join(g.sentences(8), " ")
	docs := []core.Document{
		{ID: "a", Title: `Bridge "approved", council says`, Text: body},
		{ID: "b", Title: "Council approves bridge", Text: body},
		{ID: "c", Title: "Unrelated", Text: strings.Join(g.sentences(8), " ")},
	}
	docs = append(docs, background(g, 20)...)
	path := filepath.Join(t.TempDir(), "titles.csv")
	runBatchOf(t, Options{Method: MethodTFIDF, TitlesCSV: path}, docs)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"title_a", "title_b"}, {`Bridge "approved", council says`, "Council approves bridge"}}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if _, err := NewBatch(Options{Method: MethodCosine, TitlesCSV: path}); err == nil {
		t.Error("cosine accepted a titles file")
	}
}
