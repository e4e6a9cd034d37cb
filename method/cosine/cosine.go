package cosine

import (
	"context"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/vector"
)

// Spec registers the method with the engine.
var Spec = engine.Register(engine.Spec{Name: Name, Format: Format, Keep: cluster.Central,
	Summary: "cosine of word and bigram vectors, grouped by connected components"},
	Defaults, func(o Options) (engine.Method[Sketch, Evidence], error) {
		m, err := newMethod(o)
		if err != nil {
			return engine.Method[Sketch, Evidence]{}, err
		}
		return m.stages(), nil
	})

// Evidence is the evidence of a cosine pair: nothing beyond its score, the
// cosine. It shows as an empty object.
type Evidence struct{}

// Method returns the method's name.
func (Evidence) Method() string { return Name }

// method holds the documents' vectors and the join over them.
type method struct {
	o    Options
	text *vector.Field
	emit func(int32, float64, Evidence) // Match's, for found
}

func newMethod(o Options) (*method, error) {
	w, err := o.weighting()
	if err != nil {
		return nil, err
	}
	return &method{o: o, text: vector.NewField(w, o.low())}, nil
}

// Add counts the document's terms into the corpus statistics.
func (m *method) Add(ord int32, s *Sketch) {
	if s == nil {
		m.text.Add(ord, nil)
		return
	}
	m.text.Add(ord, &s.Terms)
}

// stages wires the method's stages: it matches on every core in a Batch.
func (m *method) stages() engine.Method[Sketch, Evidence] {
	return engine.Method[Sketch, Evidence]{Sketching: m, Matching: m, Label: m.Label, Recount: m,
		Reweigh: m.reweigh, Parallel: m, Corpus: engine.Corpus{Seal: m.Seal, Report: m.Report}}
}

// Seal weighs every document with the final statistics. It stops soon
// after ctx is done, returning its error.
func (m *method) Seal(ctx context.Context) error { return m.text.Seal(ctx) }

// Match reports the indexed documents whose cosine with the document
// reaches the lowest reporting threshold, in increasing ordinal order.
func (m *method) Match(ord int32, _ *Sketch, _ engine.Source[Sketch], emit func(int32, float64, Evidence)) error {
	m.emit = emit
	m.text.Candidates(ord, m.found)
	m.emit = nil
	return nil
}

// found emits a pair the join found: its cosine is exact.
func (m *method) found(other int32, cos float64) { m.emit(other, cos, Evidence{}) }

// IndexAll drops the counts from the sketches, then puts every document in
// the join at once, for a Batch's matchers (engine.Parallel). Seal
// has vectorised every document, so the counts are garbage once dropped:
// the join's lists take their place instead of adding to them (at 1,000,000
// news articles, 2 GB of counts against 0.8 GB of lists).
func (m *method) IndexAll(ctx context.Context, ss []*Sketch, _ func(done int)) error {
	for _, s := range ss {
		if s != nil {
			*s = Sketch{}
		}
	}
	return m.text.IndexAll(ctx)
}

// NewMatcher returns a matcher for one goroutine of a Batch.
func (m *method) NewMatcher() engine.Matcher[Sketch, Evidence] {
	return &matcher{text: m.text.NewMatcher()}
}

// matcher matches a Batch's documents against those before them.
type matcher struct {
	text *vector.Matcher
	emit func(int32, float64, Evidence)
}

func (x *matcher) Match(ord int32, _ *Sketch, _ engine.Source[Sketch], emit func(int32, float64, Evidence)) error {
	x.emit = emit
	x.text.Candidates(ord, x.found)
	x.emit = nil
	return nil
}

func (x *matcher) found(other int32, cos float64) { x.emit(other, cos, Evidence{}) }

// Index puts the document in the join and drops its counts from s: the
// field holds its vector.
func (m *method) Index(ord int32, s *Sketch) {
	m.text.Index(ord)
	if s != nil {
		*s = Sketch{}
	}
}

// Remove takes the document out of the join and its counts off the
// statistics.
func (m *method) Remove(ord int32, s *Sketch) {
	if s == nil {
		m.text.Remove(ord, nil)
		return
	}
	m.text.Remove(ord, &s.Terms)
}

// Uncount takes an indexed document's counts off the statistics, leaving
// its vector in the join (engine.Recounter).
func (m *method) Uncount(ord int32, s *Sketch) { m.text.Uncount(ord, &s.Terms) }

// Recount puts back what Uncount took off.
func (m *method) Recount(ord int32, s *Sketch) { m.text.Recount(ord, &s.Terms) }

// Label grades a pair by its cosine.
func (m *method) Label(score float64, _ Evidence) (core.Label, bool) {
	return engine.Grade(score >= m.o.Threshold, score, m.o.Similar)
}

// Similarity returns the cosine.
func (m *method) Similarity(a, b int32, _ engine.Source[Sketch]) (float64, error) {
	return m.text.Cosine(a, b), nil
}

// reweigh scores documents by their cosines with the statistics as they
// stand (engine.Method.Reweigh).
func (m *method) reweigh(ss []*Sketch) func(i, j int) float64 {
	cs := make([]*vector.Counts, len(ss))
	for i, s := range ss {
		if s != nil {
			cs[i] = &s.Terms
		}
	}
	return m.text.Cosines(cs)
}

// Report counts the candidates the join verified, more than were emitted.
func (m *method) Report(st *engine.Stats) {
	st.Candidates = m.text.Verified()
	st.Unweighted = m.text.Unweighted()
	if js, t, ok := m.text.JoinStats(); ok {
		st.Joins = append(st.Joins, engine.JoinCountOf("text", t, js))
	}
}
