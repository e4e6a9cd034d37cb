package dedup

import (
	"bufio"
	"cmp"
	"encoding/csv"
	"fmt"
	"slices"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/similarity"
)

// DefaultTFIDFRule is the tfidf method's decision rule: a pair is a
// duplicate when its title and body cosines satisfy it.
const DefaultTFIDFRule = "title>0.2 & body>=0.2 | title>=0.1 & body>=0.7 | body>=0.85"

// The score fields a tfidf rule may name, in the order its scores are kept.
const (
	tfidfTitle = iota
	tfidfBody
)

var tfidfFields = []string{"title", "body"}

// tfidf is the title-and-body TF-IDF method: the title and the body are
// separate L2-normalised TF-IDF vectors over words, with document
// frequencies from the corpus; a pair's scores are the two exact cosines,
// and a rule over them decides duplicates. Candidates come from exact
// all-pairs joins: one per field some clause of the rule (or the similar
// threshold) bounds from below, at the lowest such bound, so every pair
// the rule can accept is found and nothing is compared pairwise.
//
// A pair that is not a duplicate is similar when its body cosine reaches
// Options.Similar. The score of a pair is its body cosine.
type tfidf struct {
	opts    *Options
	rule    *similarity.Rule
	fields  [2]*field
	query   [2]similarity.Dense // the document being matched, per field
	scores  [2]float64
	clauses []string // the rule's clauses as text, for the evidence
	cands   []int32
	// titles are kept only to write Options.TitlesCSV.
	titles []string
}

// TFIDFEvidence is the evidence of a tfidf pair: both cosines and the
// clause of the rule that made it a duplicate, if any.
type TFIDFEvidence struct {
	Title  float64 `json:"title_cosine"`
	Body   float64 `json:"body_cosine"`
	Clause string  `json:"rule,omitempty"`
}

type tfidfSketch struct {
	fields [2]termCounts
	title  string
}

func newTFIDF(o *Options) (*tfidf, error) {
	rule, err := similarity.ParseRule(o.Rule, tfidfFields...)
	if err != nil {
		return nil, fmt.Errorf("dedup: %w", err)
	}
	at, err := joinThresholds(rule, o.Similar, tfidfBody, tfidfTitle)
	if err != nil {
		return nil, err
	}
	m := &tfidf{opts: o, rule: rule}
	for i := range rule.Clauses {
		m.clauses = append(m.clauses, rule.ClauseString(i))
	}
	for i := range m.fields {
		m.fields[i] = newField(WeightTFIDF, at[i])
	}
	return m, nil
}

// joinThresholds chooses, for each score field, the threshold of the join
// that finds candidates on it (0: no join), so that every pair a clause of
// the rule accepts, or with similar > 0 every pair whose similarField
// reaches it, is found. Clauses are taken from the most demanding; one that
// a join already serves (its threshold is at most the clause's bound on
// that field) adds nothing, any other lowers the join of its field with the
// highest bound, ties going to cheap (titles are short, so their join is
// cheap). Last, a join whose clauses the others serve is dropped. A clause
// that bounds no field from below would accept pairs that share nothing,
// which no join can find: that rule is an error.
func joinThresholds(rule *similarity.Rule, similar float64, similarField, cheap int) ([]float64, error) {
	best, bound, err := clauseFields(rule, cheap)
	if err != nil {
		return nil, err
	}
	at := make([]float64, len(rule.Fields))
	if similar > 0 {
		at[similarField] = similar
	}
	order := make([]int, len(rule.Clauses))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(bound[b], bound[a]) })
	owner := make([]int, len(rule.Clauses))
	for _, i := range order {
		if owner[i] = servedBy(rule.Clauses[i], at, -1); owner[i] < 0 {
			if owner[i] = best[i]; at[best[i]] == 0 || bound[i] < at[best[i]] {
				at[best[i]] = bound[i]
			}
		}
	}
	for f := range at {
		if at[f] > 0 && !(f == similarField && similar > 0) {
			dropIfServed(rule, at, owner, f)
		}
	}
	return at, nil
}

// dropIfServed drops the join of field f when the other joins serve every
// clause it serves (owner[i] is the field serving clause i).
func dropIfServed(rule *similarity.Rule, at []float64, owner []int, f int) {
	for i, c := range rule.Clauses {
		if owner[i] == f && servedBy(c, at, f) < 0 {
			return
		}
	}
	for i, c := range rule.Clauses {
		if owner[i] == f {
			owner[i] = servedBy(c, at, f)
		}
	}
	at[f] = 0
}

// clauseFields returns, for each clause of rule, its field with the highest
// positive lower bound (ties to cheap) and that bound.
func clauseFields(rule *similarity.Rule, cheap int) (best []int, bound []float64, err error) {
	best = make([]int, len(rule.Clauses))
	bound = make([]float64, len(rule.Clauses))
	for i, c := range rule.Clauses {
		best[i] = -1
		for f := range rule.Fields {
			if v, ok := c.LowerBound(f); ok && v > 0 && (best[i] < 0 || v > bound[i] || v == bound[i] && f == cheap) {
				best[i], bound[i] = f, v
			}
		}
		if best[i] < 0 {
			return nil, nil, fmt.Errorf("dedup: rule clause %q puts no positive lower bound on %v: it would accept pairs that share no word",
				rule.ClauseString(i), rule.Fields)
		}
	}
	return best, bound, nil
}

// servedBy returns a field other than skip whose join finds every pair
// that clause c accepts, or -1.
func servedBy(c similarity.Clause, at []float64, skip int) int {
	for f, t := range at {
		if v, ok := c.LowerBound(f); f != skip && ok && t > 0 && t <= v {
			return f
		}
	}
	return -1
}

func (m *tfidf) newSketcher() sketcher { return &tfidfSketcher{m: m} }

type tfidfSketcher struct {
	m      *tfidf
	terms  textTerms
	hashes []uint64
}

// sketch counts the content words (not stop words) of the title and the
// body.
func (s *tfidfSketcher) sketch(doc *core.Document) (any, core.SkipReason) {
	var sk tfidfSketch
	s.terms.analyze(doc)
	for i, words := range [2][]analysis.Token{s.terms.title, s.terms.body} {
		s.hashes = s.hashes[:0]
		for _, t := range words {
			s.hashes = append(s.hashes, t.Hash)
		}
		sk.fields[i] = countTerms(s.hashes)
	}
	if sk.fields[tfidfTitle].total+sk.fields[tfidfBody].total == 0 {
		return nil, core.SkipNoUnits
	}
	if s.m.opts.TitlesCSV != "" {
		sk.title = doc.Title
	}
	return &sk, core.SkipNone
}

func (m *tfidf) add(v any) {
	sk, _ := v.(*tfidfSketch)
	for i, f := range m.fields {
		if sk == nil {
			f.add(nil)
		} else {
			f.add(&sk.fields[i])
		}
	}
	if m.opts.TitlesCSV != "" {
		title := ""
		if sk != nil {
			title = sk.title
		}
		m.titles = append(m.titles, title)
	}
}

func (m *tfidf) seal() {
	for _, f := range m.fields {
		f.seal()
	}
}

func (m *tfidf) match(id int32, emit func(int32, float64, any)) {
	m.cands = m.cands[:0]
	for _, f := range m.fields {
		f.vectorise()
		f.candidates(id, func(other int32, _ float64) { m.cands = append(m.cands, other) })
	}
	slices.Sort(m.cands)
	m.cands = slices.Compact(m.cands)
	for i, f := range m.fields {
		m.query[i].Set(f.vector(id))
	}
	for _, c := range m.cands {
		if body, ev := m.evidence(c); ev != nil {
			emit(c, body, ev)
		}
	}
	for _, f := range m.fields {
		f.index(id)
	}
}

// evidence computes both cosines of document a with the one being
// matched, in m.query, and applies the rule; it returns the exact body
// cosine, the pair's score, and nil evidence for a pair neither duplicate
// nor similar.
func (m *tfidf) evidence(a int32) (float64, *TFIDFEvidence) {
	scores := &m.scores
	scores[tfidfTitle] = m.query[tfidfTitle].Dot(m.fields[tfidfTitle].vector(a))
	scores[tfidfBody] = m.query[tfidfBody].Dot(m.fields[tfidfBody].vector(a))
	c := m.rule.Eval(scores[:])
	if c < 0 && !(m.opts.Similar > 0 && scores[tfidfBody] >= m.opts.Similar) {
		return 0, nil
	}
	ev := &TFIDFEvidence{Title: round(scores[tfidfTitle]), Body: round(scores[tfidfBody])}
	if c >= 0 {
		ev.Clause = m.clauses[c]
	}
	return scores[tfidfBody], ev
}

// label makes a pair a duplicate by the rule and similar by its body
// cosine.
func (m *tfidf) label(score float64, ev any) (core.Label, bool) {
	switch e := ev.(*TFIDFEvidence); {
	case e.Clause != "":
		return core.Duplicate, true
	case m.opts.Similar > 0 && score >= m.opts.Similar:
		return core.Similar, true
	}
	return "", false
}

func (m *tfidf) similarity(a, b int32) float64 { return m.fields[tfidfBody].cosine(a, b) }

// report counts the candidates the joins verified, more than were emitted.
func (m *tfidf) report(st *Stats) {
	st.Candidates = m.fields[tfidfTitle].verified() + m.fields[tfidfBody].verified()
}

// export writes the titles of the duplicate pairs to Options.TitlesCSV.
func (m *tfidf) export(ms []match, ids []string) error {
	if m.opts.TitlesCSV == "" {
		return nil
	}
	return writeAtomic(m.opts.TitlesCSV, func(w *bufio.Writer) error {
		cw := csv.NewWriter(w)
		if err := cw.Write([]string{"title_a", "title_b"}); err != nil {
			return err
		}
		for _, p := range ms {
			if p.label == core.Duplicate {
				if err := cw.Write([]string{m.titles[p.a], m.titles[p.b]}); err != nil {
					return err
				}
			}
		}
		cw.Flush()
		return cw.Error()
	})
}
