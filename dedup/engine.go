package dedup

import (
	"fmt"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
)

// method is one detection method's stages behind the shared pipeline.
// Documents are numbered by ordinal in the order they are added.
type method interface {
	// newSketcher returns a sketcher for one goroutine.
	newSketcher() sketcher
	// add stores the next document's sketch (nil for a document the
	// method skipped) and updates corpus statistics.
	add(s any)
	// match finds the stored documents below id that can match it (the
	// candidates), verifies each exactly, calls emit for each one scoring
	// at least the lowest reporting threshold, and then indexes id.
	match(id int32, emit func(other int32, score float64, ev any))
	// similarity returns the exact score of two stored documents.
	similarity(a, b int32) float64
	// report adds the method's own statistics.
	report(st *Stats)
}

// sketcher analyses documents into sketches; each goroutine has its own.
type sketcher interface {
	sketch(doc *core.Document) (any, core.SkipReason)
}

// explainer is a method whose evidence needs the text of the documents a
// pair joins, which the sketches do not keep: a second reading supplies it.
type explainer interface {
	needsText(id int32) bool
	explain(id int32, doc *core.Document)
}

// sealer is a method told when a Batch has added every document, before
// any match: its corpus statistics are final, which lets it prepare for
// matching once (the vector methods weigh every document then).
type sealer interface {
	seal()
}

// labeler is a method that labels its pairs itself, from their evidence,
// instead of by Options.Threshold and Options.Similar: by a rule over
// several scores (tfidf, rarewords). ok false drops the pair.
type labeler interface {
	label(score float64, ev any) (l core.Label, ok bool)
}

// selector is a method that reports only the best of the pairs it verified,
// which are known only once every pair is (rarewords: each document's best
// match per source). In a Batch ms holds every pair and every document's
// view counts; in an Index (newest true) ms holds the newest document's
// pairs and only its view counts. It returns the kept pairs in order.
type selector interface {
	selectPairs(ms []match, newest bool) []match
}

// exporter is a method that writes files of its own when a Batch finishes
// (tfidf's title pairs, cosine's matrix). ids are the documents' IDs.
type exporter interface {
	export(ms []match, ids []string) error
}

func newMethod(o *Options) (method, error) {
	switch o.Method {
	case MethodSentences:
		return newSentences(o), nil
	case MethodTFIDF:
		return newTFIDF(o)
	case MethodRareWords:
		return newRareWords(o)
	case MethodCosine:
		return newCosine(o), nil
	default:
		return newMinHash(o), nil
	}
}

// docTable holds what the pipeline keeps of each document: no text.
type docTable struct {
	ids     []string
	origins []string
	lengths []int32
	dates   []int64
	byID    map[string]int32
}

// add records doc and returns its ordinal, or an error naming both places
// when its ID was seen before.
func (t *docTable) add(doc *core.Document) (int32, error) {
	if t.byID == nil {
		t.byID = map[string]int32{}
	}
	if prev, ok := t.byID[doc.ID]; ok {
		return 0, fmt.Errorf("%s: id %q repeats the id of %s", doc.Origin, doc.ID, t.origins[prev])
	}
	id := int32(len(t.ids))
	t.byID[doc.ID] = id
	t.ids = append(t.ids, doc.ID)
	t.origins = append(t.origins, doc.Origin)
	t.lengths = append(t.lengths, int32(min(len(doc.Text), 1<<31-1)))
	var date int64
	if !doc.Date.IsZero() {
		date = doc.Date.Unix()
	}
	t.dates = append(t.dates, date)
	return id, nil
}

func (t *docTable) member(id int32) cluster.Member {
	return cluster.Member{Ord: id, Length: int(t.lengths[id]), Date: t.dates[id]}
}

// engine couples a method with the document table and labels its matches.
type engine struct {
	opts  Options
	m     method
	docs  docTable
	stats Stats
}

func newEngine(opts Options) (*engine, error) {
	o, err := opts.Defaults()
	if err != nil {
		return nil, err
	}
	e := &engine{opts: o}
	if e.m, err = newMethod(&e.opts); err != nil {
		return nil, err
	}
	e.stats.Method = o.Method
	e.stats.Skipped = map[core.SkipReason]int{}
	e.stats.Pairs = map[core.Label]int{}
	return e, nil
}

// add stores a sketched document and returns its ordinal.
func (e *engine) add(doc *core.Document, s any, skip core.SkipReason) (int32, error) {
	id, err := e.docs.add(doc)
	if err != nil {
		return 0, err
	}
	e.stats.Documents++
	if skip != core.SkipNone {
		e.stats.Skipped[skip]++
		s = nil
	}
	e.m.add(s)
	return id, nil
}

// pairsOf runs the match stage for id and returns its labelled pairs.
func (e *engine) pairsOf(id int32, dst []match) []match {
	e.m.match(id, func(other int32, score float64, ev any) {
		e.stats.Candidates++
		if l, ok := e.label(score, ev); ok {
			e.stats.Pairs[l]++
			dst = append(dst, match{a: other, b: id, score: score, label: l, ev: ev})
		}
	})
	return dst
}

func (e *engine) label(score float64, ev any) (core.Label, bool) {
	if lb, ok := e.m.(labeler); ok {
		return lb.label(score, ev)
	}
	return e.opts.label(score)
}

// selectPairs keeps the pairs a selector method reports, uncounting the
// others; see selector.
func (e *engine) selectPairs(ms []match, newest bool) []match {
	sel, ok := e.m.(selector)
	if !ok {
		return ms
	}
	for _, m := range ms {
		e.stats.Pairs[m.label]--
	}
	ms = sel.selectPairs(ms, newest)
	for _, m := range ms {
		e.stats.Pairs[m.label]++
	}
	return ms
}

// match is a verified pair of ordinals, a < b.
type match struct {
	a, b  int32
	score float64
	label core.Label
	ev    any
}

func (e *engine) pair(m match) core.Pair {
	return core.Pair{A: e.docs.ids[m.a], B: e.docs.ids[m.b], Method: e.opts.Method,
		Score: round(m.score), Label: m.label, Evidence: m.ev}
}

// round keeps four decimals: scores are shown, not computed with.
func round(x float64) float64 { return float64(int64(x*10000+0.5)) / 10000 }
