package cosine

import (
	"context"
	"encoding/json"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/similarity"
	"github.com/neardup/neardup/internal/templates"
	"github.com/neardup/neardup/internal/vector"
)

// Spec registers the method with the engine.
var Spec = engine.Register(engine.Spec{Name: Name, Format: Format, Keep: cluster.Central,
	Summary: "cosine of word and bigram vectors, grouped by connected components", Older: older},
	Defaults, func(o Options) (engine.Method[Sketch, Evidence], error) {
		m, err := newMethod(o)
		if err != nil {
			return engine.Method[Sketch, Evidence]{}, err
		}
		return m.stages(), nil
	})

// older makes an index of sketch format 1 to 5 open: its sketches go on
// as that format made them, without a context, no template rule refusing
// its pairs (1), without the title names shorter than a shingle (2, see
// Options.shortNames), with figures and places read in ASCII alone (2
// and 3, see templates.Scanner.Unicode), or with "nil" no figure and a
// unit the word after its figure (2 to 4, see templates.Scanner.Measures),
// number words in English alone and datelines of the forms that format
// read and a figure's digits without its decimal separator (2 to 4, see
// templates.Scanner.Languages and figures.Scanner.Decimals), a figure
// alone at its line's end in its word's place, no row labelled by its
// first figure, a place by its letter pairs alone and the Turkish "ı"
// apart from "i", a decomposed letter no
// evidence of a language (2 to 5, see templates.Scanner.Columns,
// analysis.Analyzer.DottedIApart).
var older = engine.OlderFormats(1, 5, func(o Options, format int) Options {
	o.format = format
	return o
})

// Evidence is the evidence of a cosine pair, whose score is the cosine:
// for a pair its cosine makes a duplicate, what the template rules read of
// the two documents (see templates.Evidence); else nothing, an empty
// object.
type Evidence struct {
	templates.Evidence
}

// Method returns the method's name.
func (Evidence) Method() string { return Name }

// Reversed returns the evidence of B and A (see core.Pair): the foreign
// names swapped.
func (e Evidence) Reversed() core.Evidence {
	e.Evidence = e.Evidence.Reversed()
	return e
}

// MarshalJSON writes the template rules' evidence rounded: it is read,
// not computed with.
func (e Evidence) MarshalJSON() ([]byte, error) { return json.Marshal(e.Evidence.Rounded()) }

// method holds the documents' vectors and the join over them.
type method struct {
	o     Options
	rules templates.Rules
	text  *vector.Field
	found verifier // Match's
}

func newMethod(o Options) (*method, error) {
	w, err := o.weighting()
	if err != nil {
		return nil, err
	}
	m := &method{o: o, rules: o.rules(), text: vector.NewField(w, o.low())}
	m.found.m = m
	return m, nil
}

// verifier emits the pairs the join finds for one document, with the
// template rules' evidence of those its cosine makes a duplicate: the
// state of one Match, kept so that the join's callback is made once.
type verifier struct {
	m    *method
	s    *Sketch
	src  engine.Source[Sketch]
	emit func(int32, float64, Evidence)
	err  error
	call func(other int32, cos float64) // found, as a method value made once
}

// match emits the pairs the join finds for document ord of sketch s.
func (v *verifier) match(ord int32, s *Sketch, src engine.Source[Sketch], emit func(int32, float64, Evidence), text candidates) error {
	if v.call == nil {
		v.call = v.found
	}
	v.s, v.src, v.emit, v.err = s, src, emit, nil
	text.Candidates(ord, v.call)
	err := v.err
	v.s, v.src, v.emit, v.err = nil, nil, nil, nil
	return err
}

// candidates is the join's lookup: vector.Field's and vector.Matcher's.
type candidates interface {
	Candidates(ord int32, found func(other int32, cos float64))
}

// found emits a pair the join found: its cosine is exact. A pair at the
// threshold is given what the template rules read of it; the method keeps
// no character shingles, so a name is looked up in the filter of the
// other's words (the zero Sample).
func (v *verifier) found(other int32, cos float64) {
	if v.err != nil {
		return
	}
	var ev Evidence
	if similarity.Meets(cos, v.m.o.Threshold) && !v.m.rules.Off() {
		a, err := v.src.Sketch(other)
		if err != nil {
			v.err = err
			return
		}
		ev.Evidence = v.m.rules.Verify(&a.Context, &v.s.Context, templates.Sample{}, templates.Sample{})
	}
	v.emit(other, cos, ev)
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
	return engine.Method[Sketch, Evidence]{Sketching: m, Matching: m, Label: m.Label, Shown: m.shown, Recount: m,
		Reweigh: m.reweigh, Parallel: m, Corpus: engine.Corpus{Seal: m.Seal, Report: m.Report}}
}

// Seal weighs every document with the final statistics. It stops soon
// after ctx is done, returning its error.
func (m *method) Seal(ctx context.Context) error { return m.text.Seal(ctx) }

// Match reports the indexed documents whose cosine with the document
// reaches the lowest reporting threshold, in increasing ordinal order.
// The context of the later document is s's, the earlier one's src's.
func (m *method) Match(ord int32, s *Sketch, src engine.Source[Sketch], emit func(int32, float64, Evidence)) error {
	return m.found.match(ord, s, src, emit, m.text)
}

// IndexAll drops the counts from the sketches, then puts every document in
// the join at once, for a Batch's matchers (engine.Parallel). Seal
// has vectorised every document, so the counts are garbage once dropped:
// the join's lists take their place instead of adding to them (at 1,000,000
// news articles, 2 GB of counts against 0.8 GB of lists). The contexts
// stay, for verifying.
func (m *method) IndexAll(ctx context.Context, ss []*Sketch, _ func(done int)) error {
	for _, s := range ss {
		if s != nil {
			s.Terms = vector.Counts{}
		}
	}
	return m.text.IndexAll(ctx)
}

// NewMatcher returns a matcher for one goroutine of a Batch.
func (m *method) NewMatcher() engine.Matcher[Sketch, Evidence] {
	return &matcher{text: m.text.NewMatcher(), found: verifier{m: m}}
}

// matcher matches a Batch's documents against those before them.
type matcher struct {
	text  *vector.Matcher
	found verifier
}

func (x *matcher) Match(ord int32, s *Sketch, src engine.Source[Sketch], emit func(int32, float64, Evidence)) error {
	return x.found.match(ord, s, src, emit, x.text)
}

// Index puts the document in the join and drops its counts from s: the
// field holds its vector. The context stays, for verifying.
func (m *method) Index(ord int32, s *Sketch) {
	m.text.Index(ord)
	if s != nil {
		s.Terms = vector.Counts{}
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

// Label grades a pair by its cosine: a duplicate at the threshold, unless
// a template rule vetoes it (templates.Rules.Veto); else similar at
// Similar. A cosine meets a bound allowing for the rounding of its 32-bit
// weights (similarity.Meets): an exact cosine of 0.7 meets 0.7.
func (m *method) Label(score float64, ev Evidence) (core.Label, bool) {
	switch {
	case similarity.Meets(score, m.o.Threshold) && m.rules.Veto(&ev.Evidence) == templates.None:
		return core.Duplicate, true
	case m.o.Similar > 0 && similarity.Meets(score, m.o.Similar):
		return core.Similar, true
	}
	return "", false
}

// shown is the score as outputs write it (engine.Shown): on the side of
// the threshold, and of Similar, that the exact cosine is on.
func (m *method) shown(score float64, _ Evidence) float64 {
	sides := func(c float64) [2]bool {
		return [2]bool{similarity.Meets(c, m.o.Threshold), similarity.Meets(c, m.o.Similar)}
	}
	want := sides(score)
	return engine.Shown(score, func(v float64) bool { return sides(v) == want })
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
