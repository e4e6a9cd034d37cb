package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/neardup/neardup/core"
)

// Live is a method's in-memory candidate index over the documents of a
// persistent index, with its types erased: what package index drives as it
// reads, writes and checks its store. Stored documents are named by their
// stored ordinals (int64, increasing in the order added, never 0); the
// method's own ordinals stay inside.
//
// A Live is not safe for concurrent use, with two exceptions its caller
// arranges: the methods marked "reads" may run at once with each other,
// and a Check's Verify runs at once with anything.
type Live interface {
	// Reset empties the live index with its method built afresh, ready
	// for Load.
	Reset() error
	// Load adds the stored documents each gives (ordinal, index part of
	// the sketch), in increasing ordinal order, but for a document stored
	// without a sketch and given one since, which may come after documents
	// stored later: each is the latest document from then on.
	Load(each func(yield func(ord int64, index []byte) error) error) error
	// Forget takes a removed document out; index is its sketch's index
	// part, nil for a document without one. A document never loaded is
	// ignored; one loaded given no index part is ErrNoIndexPart, nothing
	// changed: load the index again without it.
	Forget(ord int64, index []byte) error
	// Len counts the stored documents loaded (reads).
	Len() int

	// SetWindow makes matching pair only documents dated at most seconds
	// apart (0: any).
	SetWindow(seconds int64)
	// NeedsDates reports whether matching under a window needs dates
	// not given yet (reads).
	NeedsDates() bool
	// Counts reports whether the method weighs a match by counts over the
	// documents loaded (a Recount stage: the idf of tfidf and cosine,
	// sentences' and rarewords' document frequencies), so that a match
	// among a few documents loaded is not the match among them all.
	Counts() bool
	// Undated lists the stored documents whose dates matching under a
	// window needs and has not been given (reads).
	Undated() []int64
	// SetDates gives the dates (Unix seconds) of the documents Undated
	// listed; those left out are taken as undated.
	SetDates(dates map[int64]int64)

	// SetMinChars sets the minimum length of a text compared, in
	// characters (see StubSkip); 0 means analysis.DefaultStubChars,
	// negative none. Call it before any NewSketcher.
	SetMinChars(n int)
	// NewSketcher returns a LiveSketcher for one goroutine; it encodes
	// each sketch as it makes it. A text of white space alone, or none, is
	// skipped as core.SkipEmpty (an index stores no such document, as the
	// readers of package corpus skip it), before StubSkip's rules. Safe to
	// call at any time.
	NewSketcher() *LiveSketcher

	// Admit checks that the method can compare the documents loaded once
	// those sketched as sks are added (see Method.Admit), and returns the
	// method's error when it cannot; it changes nothing (reads).
	Admit(sks []LiveSketch) error
	// Begin adds document doc, sketched as sk, to the method's corpus
	// statistics, as the next document, not indexed yet.
	Begin(sk LiveSketch, doc *core.Document) (Pending, error)
	// Match verifies a begun document against the documents indexed
	// (reads the index; details gives the stored sketches the cache
	// lacks) and returns its pairs, best first.
	Match(p Pending, doc *core.Document, details Details) ([]Hit, error)
	// Commit indexes a begun document stored under ordinal ord.
	Commit(p Pending, ord int64)
	// Probe matches a document without keeping it: Begin, Match and
	// the method's Remove. A document that stands for a stored one,
	// replaced (a query of a stored ID), is matched against the other
	// stored documents, with statistics that count it in place of that
	// one (see Recounter); the live index is then as it was.
	Probe(sk LiveSketch, doc *core.Document, replaced Replaced, details Details) ([]Hit, error)
	// Judge matches stored document ord again as Probe matches a document
	// that stands for it, and returns its pairs with the stored documents
	// of others alone, best first: index and detail are its sketch's
	// stored parts, doc the document (its date, and its text where the
	// method quotes it in its evidence). The documents of others not
	// loaded are loaded from stored for the match, before it, counted in
	// the statistics as loaded documents are, and taken out again after.
	// A method that can verify named candidates (a Check or Copies stage,
	// and no Pairs.Select) verifies it against others alone; another
	// matches it with every candidate. The live index is then as it was.
	Judge(ord int64, index, detail []byte, doc *core.Document, others []int64, stored Stored) ([]Hit, error)

	// Candidates gathers the candidates of a check of doc beside writes
	// (reads): ok is false when the method cannot check so, or dates are
	// to be read first.
	Candidates(sk LiveSketch, doc *core.Document) (c Check, ok bool, err error)

	// Central scores loaded documents, group, against each other, for
	// the representative policy "central", as a Batch of the loaded
	// documents would: by the method's statistics as they stand, not
	// those each document was matched with (see Method.Reweigh). sim
	// scores group[i] against group[j]: 0 when either is not loaded.
	// Central reads, for a method that weighs again, the index parts of
	// the group's sketches through indexes before it returns; sim reads
	// the details a method's Similarity needs through details as it is
	// called. sim must not be called once the live index changes.
	Central(group []int64, indexes Indexes, details Details) (sim func(i, j int) (float64, error), err error)
	// BucketLimit returns the method's Method.BucketLimit, the most members
	// of one bucket of the candidate index a document is compared with (0:
	// none), by which the index links documents (see cluster.Choose)
	// (reads).
	BucketLimit() int
	// CheckSketch decodes a stored sketch's two parts, to verify them. A
	// detail part that is nil (none stored) where the method needs one is
	// ErrNoDetail when the index part decodes.
	CheckSketch(index, detail []byte) error
}

// Details reads the detail parts of stored sketches (nil for a method
// without one). For a document no longer stored Detail returns an error
// wrapping ErrNotStored, which a check leaves out.
type Details interface {
	Detail(ord int64) ([]byte, error)
}

// LaterTexts is what a Details may give besides: the text of a stored
// document placed after the document matched (a new version stands where
// the version it replaced stood, before documents stored since). A Batch
// in place order explains a pair with its later document's text
// (Pairs.Explain: the sentences quoted, in that document's order), so
// Match explains a pair with such a document with its text.
type LaterTexts interface {
	// LaterText returns stored document ord, with its text, when it is
	// placed after the document matched and its text is stored; nil
	// when not, the pair then explained with the text of the document
	// matched.
	LaterText(ord int64) (*core.Document, error)
}

// Indexes reads the index parts of stored sketches.
type Indexes interface {
	IndexPart(ord int64) ([]byte, error)
}

// Stored reads what Live.Judge reads of stored documents: the parts of
// their sketches, and the dates of those it loads for the match.
type Stored interface {
	Details
	Indexes
	// Date returns a stored document's own date, in Unix seconds (0 for
	// none).
	Date(ord int64) (int64, error)
}

// ErrNoIndexPart is Live.Forget's error for a document it holds, given no
// index part to take it out by (the change log holds none where the stored
// part was damaged).
var ErrNoIndexPart = errors.New("engine: a document removed without its sketch's index part")

// ErrNotStored is what Details return for a document no longer stored.
var ErrNotStored = errors.New("engine: document not stored")

// ErrNoDetail is CheckSketch's error of a sketch whose method needs a
// detail part and has none.
var ErrNoDetail = errors.New("engine: the detail part of the sketch is missing")

// Hit is a verified pair of a document with a stored one.
type Hit struct {
	// Other is the stored document's ordinal.
	Other int64
	Score float64
	// Shown is Score as the method shows it (Method.Shown; with four
	// decimals without one), as a Batch's results write it.
	Shown    float64
	Label    core.Label
	Evidence core.Evidence
}

// Replaced is the stored document a probed document stands for (see
// Live.Probe): the zero value, none.
type Replaced struct {
	// Ord is its stored ordinal.
	Ord int64
	// Index is its sketch's index part; nil for a document without one.
	Index []byte
}

// Pending is a document begun and not yet committed (see Live.Begin).
type Pending struct {
	mem int32
	v   held
}

// Check is a check's candidates, gathered from a Live.
type Check interface {
	// Verify verifies the candidates stored at most at ordinal head,
	// reading their details from the cache, else from details, and
	// returns the pairs found, best first. It runs beside anything.
	Verify(head int64, details Details) ([]Hit, error)
}

// newLive returns the Live of a method built by build.
func newLive[S any, E core.Evidence](name string, build func() (Method[S, E], error)) (*live[S, E], error) {
	m, err := build()
	if err != nil {
		return nil, err
	}
	l := &live[S, E]{name: name, maker: newMaker("index", name), build: build}
	l.reset(m)
	return l, nil
}

// live is the Live of a method with sketches S and evidence E.
type live[S any, E core.Evidence] struct {
	name  string
	maker *maker // of the live index's sketches
	build func() (Method[S, E], error)
	m     Method[S, E]
	// ords maps the method's ordinals to stored ones; mem the reverse.
	// An ordinal whose document was removed, or that a probe used, maps
	// to 0.
	ords []int64
	mem  map[int64]int32
	// window, when positive, is the most seconds apart two dated
	// documents may be to pair.
	window int64
	// minChars is the minimum length of a text compared (see StubSkip).
	minChars int
	// dates are the documents' own dates by method ordinal (Unix seconds,
	// 0 unknown); undated lists the ordinals loaded whose dates are not
	// read yet.
	dates   []int64
	undated []int32
	cache   *detailCache[S]
	// codec is m, for what sketches documents on any goroutine (Reset
	// replaces m; sketching reads only its options).
	codec atomic.Pointer[methodRef[S, E]]
}

// methodRef holds a live index's method for goroutines that hold none of
// its caller's locks (see live.codec).
type methodRef[S any, E core.Evidence] struct{ m Method[S, E] }

// detailCacheSize is how many decoded sketch details a live index keeps (a
// minhash detail takes about 1 KiB): the documents added last are the
// likeliest candidates of the next ones.
const detailCacheSize = 1 << 17

func (l *live[S, E]) reset(m Method[S, E]) {
	l.m, l.ords, l.mem = m, nil, map[int64]int32{}
	l.dates, l.undated = nil, nil
	l.cache = newDetailCache[S](detailCacheSize)
	l.codec.Store(&methodRef[S, E]{m})
}

func (l *live[S, E]) Reset() error {
	m, err := l.build()
	if err != nil {
		return err
	}
	l.reset(m)
	return nil
}

// Load adds documents all at once through the method's Restore stage when
// the index is empty.
func (l *live[S, E]) Load(each func(yield func(ord int64, index []byte) error) error) error {
	bulk := l.m.Restore != nil && len(l.ords) == 0
	var mems []int32
	var ss []*S
	err := each(func(ord int64, data []byte) error {
		s, err := l.m.DecodeIndex(data)
		if err != nil {
			return fmt.Errorf("document %d: %w", ord, err)
		}
		mem := l.assign(ord, 0)
		l.m.Add(mem, s)
		if bulk {
			mems, ss = append(mems, mem), append(ss, s)
		} else {
			l.m.Index(mem, s)
		}
		return nil
	})
	if err == nil && bulk {
		l.m.Restore(mems, ss)
	}
	return err
}

// assign gives stored ordinal ord (0 for a document being added or
// probed) the next method ordinal; date is the document's own date (Unix
// seconds, 0 unknown), unread for a stored document.
func (l *live[S, E]) assign(ord int64, date int64) int32 {
	mem := int32(len(l.ords))
	l.ords = append(l.ords, ord)
	l.dates = append(l.dates, date)
	if ord != 0 {
		l.mem[ord] = mem
		l.undated = append(l.undated, mem)
	}
	return mem
}

func (l *live[S, E]) Forget(ord int64, data []byte) error {
	mem, ok := l.mem[ord]
	if !ok {
		return nil // never loaded: skipped, or added and removed since
	}
	if data == nil {
		return fmt.Errorf("removed document %d: %w", ord, ErrNoIndexPart)
	}
	var s *S
	if len(data) > 0 {
		var err error
		if s, err = l.m.DecodeIndex(data); err != nil {
			return fmt.Errorf("removed document %d: %w", ord, err)
		}
	}
	l.m.Remove(mem, s)
	delete(l.mem, ord)
	l.ords[mem] = 0
	l.cache.drop(ord)
	return nil
}

func (l *live[S, E]) Len() int { return len(l.mem) }

func (l *live[S, E]) SetWindow(seconds int64) { l.window = seconds }

func (l *live[S, E]) NeedsDates() bool { return l.window > 0 && len(l.undated) > 0 }

func (l *live[S, E]) Counts() bool { return l.m.Recount != nil }

func (l *live[S, E]) Undated() []int64 {
	if !l.NeedsDates() {
		return nil
	}
	ords := make([]int64, 0, len(l.undated))
	for _, mem := range l.undated {
		if o := l.ords[mem]; o != 0 {
			ords = append(ords, o)
		}
	}
	return ords
}

func (l *live[S, E]) SetDates(dates map[int64]int64) {
	for ord, date := range dates {
		if mem, ok := l.mem[ord]; ok {
			l.dates[mem] = date
		}
	}
	l.undated = nil
}

func (l *live[S, E]) SetMinChars(n int) { l.minChars = n }

func (l *live[S, E]) NewSketcher() *LiveSketcher {
	m := l.codec.Load().m
	sk := m.NewSketcher()
	minChars := l.minChars
	return &LiveSketcher{sketch: func(doc *core.Document) LiveSketch {
		if strings.TrimSpace(doc.Text) == "" {
			return LiveSketch{by: l.maker, skip: core.SkipEmpty}
		}
		if skip := StubSkip(doc, minChars); skip != core.SkipNone {
			return LiveSketch{by: l.maker, skip: skip}
		}
		s, skip := sk.Sketch(doc)
		if skip != core.SkipNone {
			return LiveSketch{by: l.maker, skip: skip}
		}
		return LiveSketch{v: typed[S]{s}, by: l.maker, index: m.AppendIndex(nil, s), detail: m.AppendDetail(nil, s)}
	}}
}

// pending returns the sketch of a begun document.
func pending[S any](p Pending) *S { return p.v.(typed[S]).s } // Begin made it of type S

func (l *live[S, E]) Admit(sks []LiveSketch) error {
	if l.m.Admit == nil {
		return nil
	}
	ss := make([]*S, len(sks))
	for i, sk := range sks {
		s, err := unwrap[S](sk.v, sk.by, l.maker)
		if err != nil {
			return err
		}
		ss[i] = s
	}
	return l.m.Admit(ss)
}

func (l *live[S, E]) Begin(sk LiveSketch, doc *core.Document) (Pending, error) {
	s, err := unwrap[S](sk.v, sk.by, l.maker)
	if err != nil {
		return Pending{}, err
	}
	if s == nil {
		return Pending{}, fmt.Errorf("engine: a skipped document begun in an index of %s", l.name)
	}
	mem := l.assign(0, unixOrZero(doc))
	l.m.Add(mem, s)
	return Pending{mem: mem, v: typed[S]{s}}, nil
}

func (l *live[S, E]) Match(p Pending, doc *core.Document, details Details) ([]Hit, error) {
	return l.match(p, doc, details, l.outside)
}

// match is Match with the pairs of the documents outside(other, doc)
// reports left out.
func (l *live[S, E]) match(p Pending, doc *core.Document, details Details, outside func(a, b int32) bool) ([]Hit, error) {
	mem, s := p.mem, pending[S](p)
	src := Source[S](liveSource[S, E]{l, details})
	if l.window > 0 {
		src = liveWindowSource[S, E]{liveSource[S, E]{l, details}, mem}
	}
	var found []Found[E]
	add := func(f Found[E]) { found = append(found, f) }
	err := l.m.Match(mem, s, src, emitter(l.m, &mem, outside, add, nil))
	if err != nil {
		return nil, err
	}
	if found, err = settle(l.m, found, doc, l.laterText(details)); err != nil {
		return nil, err
	}
	return l.hits(found), nil
}

// laterText returns the text of the stored document of a pair, by its
// place in memory, that explains the pair in place of doc's (see
// LaterTexts); nil when details gives none, or the method explains no
// pair.
func (l *live[S, E]) laterText(details Details) func(mem int32) (*core.Document, error) {
	t, ok := details.(LaterTexts)
	if !ok || l.m.Pairs.Explain == nil {
		return nil
	}
	return func(mem int32) (*core.Document, error) { return t.LaterText(l.ords[mem]) }
}

// matchOnly is match of p's pairs with the loaded documents of others
// alone (see Judge, which loads them).
func (l *live[S, E]) matchOnly(p Pending, doc *core.Document, details Details, outside func(a, b int32) bool, others []int64) ([]Hit, error) {
	var verify func(cands []int32, s *S, src Source[S], emit func(int32, float64, E)) error
	switch {
	case l.m.Pairs.Select != nil: // keeps the best of every pair
	case l.m.Check != nil:
		verify = l.m.Check.Verify
	case l.m.Copies != nil:
		verify = l.m.Copies.Verify
	}
	if verify == nil {
		hits, err := l.match(p, doc, details, outside)
		return slices.DeleteFunc(hits, func(h Hit) bool { return !slices.Contains(others, h.Other) }), err
	}
	var cands []int32
	for _, o := range others {
		if mem, ok := l.mem[o]; ok && !outside(mem, p.mem) {
			cands = append(cands, mem)
		}
	}
	slices.Sort(cands)
	var found []Found[E]
	add := func(f Found[E]) { found = append(found, f) }
	err := verify(slices.Compact(cands), pending[S](p), liveSource[S, E]{l, details}, emitter(l.m, &p.mem, outside, add, nil))
	if err != nil {
		return nil, err
	}
	if found, err = settle(l.m, found, doc, l.laterText(details)); err != nil {
		return nil, err
	}
	return l.hits(found), nil
}

// hits are the pairs found of a document matched, by stored ordinal.
func (l *live[S, E]) hits(found []Found[E]) []Hit {
	hits := make([]Hit, len(found))
	for i, f := range found {
		hits[i] = Hit{Other: l.ords[f.A], Score: f.Score, Shown: l.m.shownScore(f.Score, f.Ev), Label: f.Label, Evidence: f.Ev}
	}
	return hits
}

// outside reports whether documents a and b are dated farther apart than
// the window.
func (l *live[S, E]) outside(a, b int32) bool { return FarApart(l.dates[a], l.dates[b], l.window) }

func (l *live[S, E]) Commit(p Pending, ord int64) {
	s := pending[S](p)
	l.ords[p.mem], l.mem[ord] = ord, p.mem
	l.m.Index(p.mem, s)
	l.cache.put(ord, s)
}

func (l *live[S, E]) Probe(sk LiveSketch, doc *core.Document, replaced Replaced, details Details) ([]Hit, error) {
	p, err := l.Begin(sk, doc)
	if err != nil {
		return nil, err
	}
	return l.probe(p, doc, replaced, details, nil)
}

func (l *live[S, E]) Judge(ord int64, index, detail []byte, doc *core.Document, others []int64, stored Stored) (hits []Hit, err error) {
	s, err := l.m.DecodeSketch(index, detail)
	if err != nil {
		return nil, fmt.Errorf("document %d: %w", ord, err)
	}
	// Loaded before the document matched, taken out after it: see
	// Recounter.
	loaded, err := l.loadFor(others, stored)
	defer func() {
		if uerr := l.unload(loaded); err == nil {
			err = uerr
		}
	}()
	if err != nil {
		return nil, err
	}
	mem := l.assign(0, unixOrZero(doc))
	l.m.Add(mem, s)
	return l.probe(Pending{mem: mem, v: typed[S]{s}}, doc, Replaced{Ord: ord, Index: index}, stored, others)
}

// borrowed is a stored document Judge loaded for its match alone.
type borrowed struct {
	ord   int64
	mem   int32
	index []byte
}

// loadFor loads, as the latest documents, those of others that are not
// loaded, their index parts and dates read from stored, and returns them,
// for unload; those it loaded before an error too.
func (l *live[S, E]) loadFor(others []int64, stored Stored) ([]borrowed, error) {
	var out []borrowed
	for _, o := range others {
		if _, ok := l.mem[o]; ok {
			continue
		}
		data, err := stored.IndexPart(o)
		if err != nil {
			return out, err
		}
		s, err := l.m.DecodeIndex(data)
		if err != nil {
			return out, fmt.Errorf("document %d: %w", o, err)
		}
		var date int64
		if l.window > 0 {
			if date, err = stored.Date(o); err != nil {
				return out, err
			}
		}
		mem := l.assign(0, date) // dated: not listed by Undated
		l.ords[mem], l.mem[o] = o, mem
		l.m.Add(mem, s)
		l.m.Index(mem, s)
		out = append(out, borrowed{o, mem, data})
	}
	return out, nil
}

// unload takes the documents loadFor loaded out again, the latest first.
func (l *live[S, E]) unload(bs []borrowed) error {
	for _, b := range slices.Backward(bs) {
		s, err := l.m.DecodeIndex(b.index) // Index may have dropped parts of the one loaded
		if err != nil {
			return fmt.Errorf("document %d: %w", b.ord, err)
		}
		l.m.Remove(b.mem, s)
		delete(l.mem, b.ord)
		l.ords[b.mem] = 0
		l.cache.drop(b.ord)
	}
	return nil
}

// probe matches begun document p as Probe does, standing for the stored
// document replaced, and takes it out again; with others not nil, its
// pairs with the loaded documents of others alone (see Judge, which loads
// them).
func (l *live[S, E]) probe(p Pending, doc *core.Document, replaced Replaced, details Details, others []int64) ([]Hit, error) {
	defer l.m.Remove(p.mem, pending[S](p)) // after Recount: see Recounter
	outside := l.outside
	if self, ok := l.mem[replaced.Ord]; ok {
		s, err := l.uncount(self, replaced)
		if err != nil {
			return nil, err
		}
		if s != nil {
			defer l.m.Recount.Recount(self, s)
		}
		outside = func(a, b int32) bool { return a == self || l.outside(a, b) }
	}
	if others != nil {
		return l.matchOnly(p, doc, details, outside, others)
	}
	return l.match(p, doc, details, outside)
}

// uncount takes the counts of the stored document a probe stands for,
// loaded as method ordinal mem, off the method's statistics, and returns
// the sketch to put them back with: nil when nothing was taken off (the
// method has no Recount stage).
func (l *live[S, E]) uncount(mem int32, replaced Replaced) (*S, error) {
	if l.m.Recount == nil || replaced.Index == nil {
		return nil, nil
	}
	s, err := l.m.DecodeIndex(replaced.Index)
	if err != nil {
		return nil, fmt.Errorf("document %d: %w", replaced.Ord, err)
	}
	l.m.Recount.Uncount(mem, s)
	return s, nil
}

func (l *live[S, E]) Central(group []int64, indexes Indexes, details Details) (func(i, j int) (float64, error), error) {
	mems := make([]int32, len(group))
	loaded := make([]bool, len(group))
	for i, ord := range group {
		mems[i], loaded[i] = l.mem[ord]
	}
	if l.m.Reweigh == nil {
		src := liveSource[S, E]{l, details}
		return func(i, j int) (float64, error) {
			if !loaded[i] || !loaded[j] {
				return 0, nil
			}
			return l.m.Similarity(mems[i], mems[j], src)
		}, nil
	}
	ss := make([]*S, len(group))
	for i, ord := range group {
		if !loaded[i] {
			continue
		}
		data, err := indexes.IndexPart(ord)
		if err != nil {
			return nil, err
		}
		if ss[i], err = l.m.DecodeIndex(data); err != nil {
			return nil, fmt.Errorf("document %d: %w", ord, err)
		}
	}
	sim := l.m.Reweigh(ss)
	return func(i, j int) (float64, error) { return sim(i, j), nil }, nil
}

func (l *live[S, E]) BucketLimit() int { return l.m.BucketLimit }

func (l *live[S, E]) CheckSketch(index, detail []byte) error {
	_, err := l.m.DecodeSketch(index, detail)
	if err != nil && detail == nil {
		if _, ierr := l.m.DecodeIndex(index); ierr == nil {
			return ErrNoDetail // not a detail part of another format: none
		}
	}
	return err
}

// liveSource reads other documents' sketch details for Match: from the
// cache, else through details.
type liveSource[S any, E core.Evidence] struct {
	l       *live[S, E]
	details Details
}

func (src liveSource[S, E]) Sketch(mem int32) (*S, error) {
	l := src.l
	ord := l.ords[mem]
	if s := l.cache.get(ord); s != nil {
		return s, nil
	}
	data, err := src.details.Detail(ord)
	if err != nil {
		return nil, err
	}
	s, err := l.m.DecodeDetail(data)
	if err != nil {
		return nil, fmt.Errorf("document %d: %w", ord, err)
	}
	l.cache.put(ord, s)
	return s, nil
}

// liveWindowSource is a live index's Source for matching document mem
// under a window (see Outside).
type liveWindowSource[S any, E core.Evidence] struct {
	liveSource[S, E]
	mem int32
}

func (w liveWindowSource[S, E]) Outside(other int32) bool { return w.l.outside(other, w.mem) }

// checkCands are a checked document's candidates (method ordinals,
// distinct, increasing) and their stored ordinals, with what verifying
// them reads: the method and cache as they were when gathered.
type checkCands[S any, E core.Evidence] struct {
	m     Method[S, E]
	ch    Checker[S, E]
	cache *detailCache[S]
	s     *S
	doc   *core.Document
	mems  []int32
	ords  []int64
}

func (l *live[S, E]) Candidates(sk LiveSketch, doc *core.Document) (Check, bool, error) {
	ch := l.m.Check
	if ch == nil || l.NeedsDates() {
		return nil, false, nil
	}
	s, err := unwrap[S](sk.v, sk.by, l.maker)
	if err != nil || s == nil {
		return nil, err == nil, err
	}
	date := unixOrZero(doc)
	mems := ch.Candidates(nil, s)
	slices.Sort(mems)
	mems = slices.Compact(mems)
	c := &checkCands[S, E]{m: l.m, ch: ch, cache: l.cache, s: s, doc: doc, mems: mems[:0], ords: make([]int64, 0, len(mems))}
	for _, mem := range mems {
		ord := l.ords[mem]
		if ord == 0 || FarApart(l.dates[mem], date, l.window) {
			continue
		}
		c.mems, c.ords = append(c.mems, mem), append(c.ords, ord)
	}
	return c, true, nil
}

// Verify reads the details of the candidates and verifies the document
// against them, holding no lock. A candidate no longer stored is left out.
func (c *checkCands[S, E]) Verify(head int64, details Details) ([]Hit, error) {
	src := checkSource[S]{mems: make([]int32, 0, len(c.mems)), details: make([]*S, 0, len(c.mems))}
	ordOf := make(map[int32]int64, len(c.mems))
	for i, mem := range c.mems {
		ord := c.ords[i]
		if ord > head {
			continue
		}
		det := c.cache.get(ord)
		if det == nil {
			data, err := details.Detail(ord)
			if errors.Is(err, ErrNotStored) {
				continue
			}
			if err != nil {
				return nil, err
			}
			if det, err = c.m.DecodeDetail(data); err != nil {
				return nil, fmt.Errorf("document %d: %w", ord, err)
			}
			c.cache.put(ord, det)
		}
		src.mems, src.details = append(src.mems, mem), append(src.details, det)
		ordOf[mem] = ord
	}
	var found []Found[E]
	add := func(f Found[E]) { found = append(found, f) }
	if err := c.ch.Verify(slices.Clone(src.mems), c.s, src, emitter(c.m, new(int32), nil, add, nil)); err != nil {
		return nil, err
	}
	// No method with a Check stage explains its pairs (Pairs.Explain), so
	// none reads a LaterTexts here.
	found, err := settle(c.m, found, c.doc, nil)
	if err != nil {
		return nil, err
	}
	hits := make([]Hit, len(found))
	for i, f := range found {
		hits[i] = Hit{Other: ordOf[f.A], Score: f.Score, Shown: c.m.shownScore(f.Score, f.Ev), Label: f.Label, Evidence: f.Ev}
	}
	return hits, nil
}

// checkSource gives Verify the details read for a check: mems are
// increasing, details[i] is mems[i]'s.
type checkSource[S any] struct {
	mems    []int32
	details []*S
}

func (src checkSource[S]) Sketch(mem int32) (*S, error) {
	if i, ok := slices.BinarySearch(src.mems, mem); ok {
		return src.details[i], nil
	}
	return nil, fmt.Errorf("engine: document %d is not a candidate of the check", mem)
}
