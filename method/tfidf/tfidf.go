package tfidf

import (
	"context"
	"math"
	"slices"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/similarity"
	"github.com/neardup/neardup/internal/vector"
)

// Spec registers the method with the engine.
var Spec = engine.Register(engine.Spec{Name: Name, Format: Format, Keep: cluster.Longest,
	Summary: "title and body TF-IDF cosines, decided by a rule", Older: older},
	Defaults, func(o Options) (engine.Method[Sketch, Evidence], error) {
		m, err := newMethod(o)
		if err != nil {
			return engine.Method[Sketch, Evidence]{}, err
		}
		return m.stages(), nil
	})

// stages wires the method's stages: it matches on every core in a Batch.
func (m *method) stages() engine.Method[Sketch, Evidence] {
	return engine.Method[Sketch, Evidence]{Sketching: m, Matching: m, Label: m.Label, Shown: shownScore, Recount: m,
		Reweigh: m.reweigh, Parallel: m, Corpus: engine.Corpus{Seal: m.Seal, Report: m.Report}}
}

// Evidence is the evidence of a tfidf pair: both cosines and the clause of
// the rule that made it a duplicate, if any.
type Evidence struct {
	Title  float64 `json:"title_cosine"`
	Body   float64 `json:"body_cosine"`
	Clause string  `json:"rule,omitempty"`
}

// Method returns the method's name.
func (Evidence) Method() string { return Name }

// method holds a vector field each for titles and bodies, with their
// joins; verification reads their vectors.
type method struct {
	o       Options
	rule    *similarity.Rule
	clauses []string // the rule's clauses as text, for the evidence
	fields  [2]*vector.Field
	floor   float64 // a pair whose body cosine does not meet it (similarity.Meets) is neither duplicate nor similar
	scratch         // of Match
}

// scratch is the working space of one goroutine's matching.
type scratch struct {
	query  [2]similarity.Dense // the document being matched, per field
	scores [2]float64
	cands  []int32
}

func newMethod(o Options) (*method, error) {
	rule, at, err := o.joins()
	if err != nil {
		return nil, err
	}
	w, err := o.weighting()
	if err != nil {
		return nil, err
	}
	m := &method{o: o, rule: rule, floor: bodyFloor(rule, o.Similar)}
	for i := range rule.Clauses {
		m.clauses = append(m.clauses, rule.ClauseString(i))
	}
	for i := range m.fields {
		m.fields[i] = vector.NewField(w, at[i])
	}
	return m, nil
}

// Add counts the document's words into the document frequencies.
func (m *method) Add(ord int32, s *Sketch) {
	for i, f := range m.fields {
		if s == nil {
			f.Add(ord, nil)
		} else {
			f.Add(ord, s.field(i))
		}
	}
}

// Seal weighs every document with the final document frequencies. It
// stops soon after ctx is done, returning its error.
func (m *method) Seal(ctx context.Context) error {
	for _, f := range m.fields {
		if err := f.Seal(ctx); err != nil {
			return err
		}
	}
	return nil
}

// Match finds the document's candidates in the title and body joins and
// reports those the rule makes duplicates or whose body cosine reaches
// Options.Similar, in increasing ordinal order.
func (m *method) Match(ord int32, _ *Sketch, _ engine.Source[Sketch], emit func(int32, float64, Evidence)) error {
	m.cands = m.cands[:0]
	for _, f := range m.fields {
		f.Candidates(ord, m.collect)
	}
	m.verify(ord, &m.scratch, emit)
	return nil
}

// verify scores the distinct candidates in s.cands, which it sorts,
// against document ord, and emits those the rule or the similar threshold
// reports, in increasing ordinal order.
func (m *method) verify(ord int32, s *scratch, emit func(int32, float64, Evidence)) {
	slices.Sort(s.cands)
	for i, f := range m.fields {
		s.query[i].Set(f.Vector(ord))
	}
	cands := slices.Compact(s.cands)
	for k, c := range cands {
		m.prefetch(cands, k)
		if score, ev, ok := m.evidence(c, &s.query, &s.scores); ok {
			emit(c, score, ev)
		}
	}
}

// prefetch requests what evidence will read first of the candidates after
// the k-th, so that it arrives while the k-th is scored: the body vector
// header of the candidate two ahead and the body vector of the next one
// (whose header was requested a candidate ago). Without it each
// candidate's body cosine starts with cache misses that add up. Titles are
// not requested: most candidates are settled on their body cosine alone
// (see evidence), and requests for lines never read cost more than they
// save.
func (m *method) prefetch(cands []int32, k int) {
	if k+2 < len(cands) {
		m.fields[body].PrefetchHeader(cands[k+2])
	}
	if k+1 < len(cands) {
		m.fields[body].PrefetchVector(cands[k+1])
	}
}

// collect gathers candidates; the method value is made once, not per field.
func (m *method) collect(other int32, _ float64) { m.cands = append(m.cands, other) }

// IndexAll puts every document in both joins at once and drops the counts
// from the sketches, for a Batch's matchers (engine.Parallel).
func (m *method) IndexAll(ctx context.Context, ss []*Sketch, _ func(done int)) error {
	for _, f := range m.fields {
		if err := f.IndexAll(ctx); err != nil {
			return err
		}
	}
	for _, s := range ss {
		if s != nil {
			*s = Sketch{}
		}
	}
	return nil
}

// NewMatcher returns a matcher for one goroutine of a Batch.
func (m *method) NewMatcher() engine.Matcher[Sketch, Evidence] {
	x := &matcher{m: m}
	for i, f := range m.fields {
		x.fields[i] = f.NewMatcher()
	}
	x.collect = func(other int32) { x.cands = append(x.cands, other) }
	return x
}

// matcher matches a Batch's documents against those before them, with its
// own scratch space.
type matcher struct {
	m       *method
	fields  [2]*vector.Matcher
	collect func(int32)
	scratch
}

func (x *matcher) Match(ord int32, _ *Sketch, _ engine.Source[Sketch], emit func(int32, float64, Evidence)) error {
	x.cands = x.cands[:0]
	for _, f := range x.fields {
		f.IDs(ord, x.collect)
	}
	x.m.verify(ord, &x.scratch, emit)
	return nil
}

// bodyFloor returns the least body cosine at which a pair may be a
// duplicate by some clause of rule, whatever its title cosine, or similar
// (similar > 0): the smallest of the clauses' lower bounds on the body (0
// for a clause with none) and similar.
func bodyFloor(rule *similarity.Rule, similar float64) float64 {
	floor := math.Inf(1)
	for _, c := range rule.Clauses {
		v, ok := c.LowerBound(body)
		if !ok {
			v = 0
		}
		floor = min(floor, v)
	}
	if similar > 0 {
		floor = min(floor, similar)
	}
	return floor
}

// evidence computes both cosines of document a with the one being matched,
// in query, and applies the rule; it returns the exact body cosine, the
// pair's score, and ok false for a pair neither duplicate nor similar. A
// body cosine below the floor settles the pair without reading a's title
// (most title pairs of the default rule end there).
func (m *method) evidence(a int32, query *[2]similarity.Dense, scores *[2]float64) (float64, Evidence, bool) {
	scores[body] = query[body].Dot(m.fields[body].Vector(a))
	if !similarity.Meets(scores[body], m.floor) {
		return 0, Evidence{}, false
	}
	scores[title] = query[title].Dot(m.fields[title].Vector(a))
	c := m.rule.Eval(scores[:])
	if c < 0 && !m.similar(scores[body]) {
		return 0, Evidence{}, false
	}
	ev := Evidence{}
	ev.Title, ev.Body = m.shown(scores, c)
	if c >= 0 {
		ev.Clause = m.clauses[c]
	}
	return scores[body], ev, true
}

// shown returns the cosines as the evidence writes them: with four
// decimals (core.Round), or one of them or both with as many more as it
// takes for the values written to meet the clause the exact ones met (c;
// -1: none) and to fall on the same side of Options.Similar, so that
// evidence read against the rule tells what decided the pair: a title
// cosine of 0.20002 met "title>0.2" and is written 0.20002, not 0.2. The
// decimals are engine.ShownDecimals, one cosine taking more before both do.
func (m *method) shown(scores *[2]float64, c int) (t, b float64) {
	t4, b4 := core.Round(scores[title]), core.Round(scores[body])
	for d := range engine.ShownDecimals {
		tn, bn := d.Round(scores[title]), d.Round(scores[body])
		for _, v := range [][2]float64{{tn, b4}, {t4, bn}, {tn, bn}} {
			if m.sameDecision(v[0], v[1], scores, c) {
				return v[0], v[1]
			}
		}
	}
	return scores[title], scores[body]
}

// sameDecision reports whether cosines t and b meet clause c of the rule
// first (c -1: none) and fall on the same side of Options.Similar as the
// exact scores.
func (m *method) sameDecision(t, b float64, scores *[2]float64, c int) bool {
	var v [2]float64
	v[title], v[body] = t, b
	return m.rule.Eval(v[:]) == c && similarity.Meets(b, m.o.Similar) == similarity.Meets(scores[body], m.o.Similar)
}

// similar reports whether a body cosine makes a pair similar: Options.Similar
// is above 0 and the cosine meets it, allowing for the rounding of its
// 32-bit weights (similarity.Meets), as the rule's bounds do.
func (m *method) similar(body float64) bool {
	return m.o.Similar > 0 && similarity.Meets(body, m.o.Similar)
}

// Index puts the document in the joins and drops its counts from s: the
// fields hold its vectors.
func (m *method) Index(ord int32, s *Sketch) {
	for _, f := range m.fields {
		f.Index(ord)
	}
	if s != nil {
		*s = Sketch{}
	}
}

// Remove takes the document out of the joins and its counts off the
// document frequencies.
func (m *method) Remove(ord int32, s *Sketch) {
	for i, f := range m.fields {
		if s == nil {
			f.Remove(ord, nil)
		} else {
			f.Remove(ord, s.field(i))
		}
	}
}

// Uncount takes an indexed document's counts off the document
// frequencies, leaving its vectors in the joins (engine.Recounter).
func (m *method) Uncount(ord int32, s *Sketch) {
	for i, f := range m.fields {
		f.Uncount(ord, s.field(i))
	}
}

// Recount puts back what Uncount took off.
func (m *method) Recount(ord int32, s *Sketch) {
	for i, f := range m.fields {
		f.Recount(ord, s.field(i))
	}
}

// Label makes a pair a duplicate by the rule and similar by its body
// cosine.
func (m *method) Label(score float64, ev Evidence) (core.Label, bool) {
	switch {
	case ev.Clause != "":
		return core.Duplicate, true
	case m.similar(score):
		return core.Similar, true
	}
	return "", false
}

// shownScore is the score as outputs write it: the body cosine as the
// evidence writes it, with the digits that keep it on the side of each
// bound of the rule and Options.Similar that the exact one is (see shown).
func shownScore(_ float64, ev Evidence) float64 { return ev.Body }

// Similarity returns the body cosine.
func (m *method) Similarity(a, b int32, _ engine.Source[Sketch]) (float64, error) {
	return m.fields[body].Cosine(a, b), nil
}

// reweigh scores documents by their body cosines with the document
// frequencies as they stand (engine.Method.Reweigh).
func (m *method) reweigh(ss []*Sketch) func(i, j int) float64 {
	cs := make([]*vector.Counts, len(ss))
	for i, s := range ss {
		if s != nil {
			cs[i] = &s.Body
		}
	}
	return m.fields[body].Cosines(cs)
}

// Report counts the candidates the joins verified, more than were emitted.
func (m *method) Report(st *engine.Stats) {
	st.Candidates = m.fields[title].Verified() + m.fields[body].Verified()
	st.Unweighted = m.fields[body].Unweighted()
	for i, f := range m.fields {
		if js, t, ok := f.JoinStats(); ok {
			st.Joins = append(st.Joins, engine.JoinCountOf(fields[i], t, js))
		}
	}
}

// older makes an index of sketch format 2 or 3 open: its terms are tm's
// pieces whole in every script (2), "ı" apart from "i" and a decomposed
// letter no evidence of a language (2 and 3), as those formats made them,
// so that its new sketches compare with those it holds.
var older = engine.OlderFormats(2, 3, func(o Options, format int) Options {
	o.format = format
	return o
})
