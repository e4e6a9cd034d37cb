package dedup

import (
	"fmt"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/simhash"
)

// The methods the pipeline runs: those whose candidates come from keys of
// each document's own sketch (LSH bands, SimHash tables), with no
// statistics of the whole corpus. The others (sentences, tfidf, rarewords,
// cosine) need corpus-wide statistics before any document is sketched
// (see docs/scale.md).
var methodNames = []string{minhash.Name, simhash.Name}

// MethodNames lists the methods the pipeline runs, the default first.
func MethodNames() []string { return append([]string(nil), methodNames...) }

// methodConfig is the method's options as a DoFn carries them: exactly one
// field is set.
type methodConfig struct {
	Minhash *minhash.Options `json:",omitempty"`
	Simhash *simhash.Options `json:",omitempty"`
}

// configOf returns the methodConfig of c, minhash.Options or
// simhash.Options; nil means minhash's defaults.
func configOf(c engine.Config) (methodConfig, error) {
	switch o := c.(type) {
	case nil:
		d := minhash.Defaults()
		return methodConfig{Minhash: &d}, nil
	case minhash.Options:
		return methodConfig{Minhash: &o}, nil
	case simhash.Options:
		return methodConfig{Simhash: &o}, nil
	}
	return methodConfig{}, fmt.Errorf("dedup: the pipeline runs %v, not %s", methodNames, c.Method())
}

// stages returns the stages of the configured method.
func (c methodConfig) stages() (stages, error) {
	switch {
	case c.Minhash != nil:
		st, err := minhash.NewStages(*c.Minhash)
		if err != nil {
			return nil, err
		}
		return &typed[minhash.Sketch, minhash.Evidence]{st: st, method: minhash.Name,
			keysOf:   func(dst []uint32, s *minhash.Sketch) []uint32 { return append(dst, s.Keys...) },
			withinFn: func(_, _ *minhash.Sketch) bool { return true },
			settings: func(s *engine.Stats) { s.Bands = st.Bands() }}, nil
	case c.Simhash != nil:
		st, err := simhash.NewStages(*c.Simhash)
		if err != nil {
			return nil, err
		}
		return &typed[simhash.Sketch, simhash.Evidence]{st: st, method: simhash.Name,
			keysOf: st.Keys, withinFn: st.Within,
			settings: func(s *engine.Stats) { s.SimHashTables = st.Tables() }}, nil
	}
	return nil, fmt.Errorf("dedup: no method")
}

// stages is what the pipeline runs of a method, over sketches it carries
// encoded (the detail part and what the candidate check reads) and
// decodes where it reads them.
type stages interface {
	name() string
	bucketLimit() int
	// report adds the method's settings to the statistics.
	report(st *engine.Stats)
	// newSketcher returns a sketcher for one worker.
	newSketcher() sketchFunc
	decode(detail []byte) (sketch, error)
	// candidate reports whether the later document b is compared with a:
	// a pair that is not is neither verified nor counted.
	candidate(a, b sketch) bool
	// pair verifies and labels a pair: ok false when it is no pair.
	pair(a, b sketch) (score float64, label core.Label, ev core.Evidence, ok bool)
	similarity(a, b sketch) float64
}

// sketch is a decoded sketch of the method's own type.
type sketch any

// sketchFunc sketches a document: its encoded detail, its candidate keys
// and whether it searches for candidates; or why the method skips it.
type sketchFunc func(doc *core.Document) (detail []byte, keys []uint32, searches bool, skip core.SkipReason)

// methodStages are the stages a method package exports (minhash.Stages,
// simhash.Stages).
type methodStages[S any, E core.Evidence] interface {
	NewSketcher() engine.DocSketcher[S]
	BucketLimit() int
	Searches(s *S) bool
	Verify(a, b *S) (float64, E, bool)
	Label(score float64, ev E) (core.Label, bool)
	Similarity(a, b *S) float64
	AppendDetail(dst []byte, s *S) []byte
	DecodeDetail(b []byte) (*S, error)
}

// typed is the stages of a method whose sketches are S and evidence E.
type typed[S any, E core.Evidence] struct {
	st       methodStages[S, E]
	method   string
	keysOf   func(dst []uint32, s *S) []uint32 // the candidate keys
	withinFn func(a, b *S) bool                // the candidate check
	settings func(*engine.Stats)               // the settings stats.json reports
}

func (t *typed[S, E]) name() string               { return t.method }
func (t *typed[S, E]) bucketLimit() int           { return t.st.BucketLimit() }
func (t *typed[S, E]) report(st *engine.Stats)    { t.settings(st) }
func (t *typed[S, E]) candidate(a, b sketch) bool { return t.withinFn(a.(*S), b.(*S)) }

func (t *typed[S, E]) newSketcher() sketchFunc {
	sk := t.st.NewSketcher()
	var keys []uint32
	return func(doc *core.Document) ([]byte, []uint32, bool, core.SkipReason) {
		s, skip := sk.Sketch(doc)
		if skip != core.SkipNone {
			return nil, nil, false, skip
		}
		keys = t.keysOf(keys[:0], s)
		return t.st.AppendDetail(nil, s), keys, t.st.Searches(s), core.SkipNone
	}
}

func (t *typed[S, E]) decode(detail []byte) (sketch, error) { return t.st.DecodeDetail(detail) }

func (t *typed[S, E]) pair(a, b sketch) (float64, core.Label, core.Evidence, bool) {
	score, ev, ok := t.st.Verify(a.(*S), b.(*S))
	if !ok {
		return 0, "", nil, false
	}
	l, ok := t.st.Label(score, ev)
	return score, l, ev, ok
}

func (t *typed[S, E]) similarity(a, b sketch) float64 { return t.st.Similarity(a.(*S), b.(*S)) }
