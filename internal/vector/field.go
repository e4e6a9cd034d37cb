package vector

import (
	"cmp"
	"context"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/neardup/neardup/internal/candidates"
	"github.com/neardup/neardup/internal/prefetch"
	"github.com/neardup/neardup/internal/similarity"
)

// Weighting is how a Field weighs a term in a document.
type Weighting uint8

// The weightings.
const (
	// TFIDF is the term's count times 1 + ln((N+1)/(df+1)), N the number
	// of documents and df how many hold the term: scikit-learn's smoothed
	// IDF, which the tfidf method's rule thresholds assume. A term in every
	// document weighs its count, one in a single document its count times
	// 1 + ln((N+1)/2).
	TFIDF Weighting = iota
	// PMI is the positive pointwise mutual information of term and
	// document, max(0, ln(tf·T / (cf·len))), T the occurrences of all terms
	// in the corpus, cf those of the term, len those in the document.
	PMI
	// TFIDFLog2 is R tm's weightTfIdf: the term's count over the
	// document's length (the occurrences of all its terms) times
	// log2(N/df), N the number of documents (those whose field holds no
	// term included) and df how many hold the term. A term in every
	// document weighs 0 and is left out of the vector.
	TFIDFLog2
)

// state is where a document is in a Field.
type state uint8

const (
	absent     state = iota // never added, added without counts, or removed
	pending                 // counted; its vector waits for the next vectorise
	vectorised              // weighed into a vector
	indexed                 // and in the join
)

// Field is one document field of a vector method: its terms, their corpus
// statistics, the documents' vectors and the exact cosine join over them.
//
// Documents are numbered by ordinal. Lifecycle of one: Add counts its terms
// and leaves it pending; Candidates (or Index, or Seal) turns every pending
// document into a vector with the statistics as they stand; Index puts it in
// the join, where later documents' Candidates find it; Remove undoes all of
// that. Ordinals need not be dense, but per-ordinal tables grow with the
// largest; a removed ordinal leaves a hole. Term ids whose last document is
// removed are reused, so a long-lived field's memory follows the documents
// it holds, not all it ever saw.
//
// A Field is not safe for concurrent use.
type Field struct {
	weighting Weighting
	joinAt    float64 // threshold of the join; 0 means no join

	ids    termIDs  // term hash → term id, for terms some document holds
	df     []int32  // documents holding each term
	cf     []int64  // occurrences of each term (PMI)
	free   []uint32 // term ids no document holds, to reuse
	docs   int      // documents added with at least one term
	added  int      // documents added with counts, empty ones included (TFIDFLog2's N)
	tokens int64    // occurrences of all terms (PMI)

	state []state             // by ordinal
	vecs  []similarity.Sparse // by ordinal, once vectorised; terms in join order

	pending []pendingDoc // documents counted, not yet vectorised, in the order added
	nPend   int          // terms in pending
	started bool         // some document was vectorised: the join order is fixed

	// order maps a term id to its join term, from Seal; ids past its end
	// are their own join term. nil: every term id is.
	order []uint32
	join  *candidates.AllPairs
	tw    []termWeight // vectorise's scratch

	unweighted atomic.Int64 // documents vectorised with terms but no weighted one
}

// pendingDoc is a document counted and not yet vectorised: its term ids
// and their counts. hashes and tfs are the caller's Counts, not copied.
type pendingDoc struct {
	ord    int32
	ids    []uint32
	hashes []uint64
	tfs    []uint32
	total  int
}

type termWeight struct {
	t uint32
	w float64
}

// NewField returns an empty field weighing terms by w, whose candidates are
// the documents of cosine at least joinAt (0 < joinAt <= 1) with the one
// matched; joinAt 0 means no join: Candidates finds none.
func NewField(w Weighting, joinAt float64) *Field {
	return &Field{weighting: w, joinAt: joinAt}
}

// Add counts the terms of document ord, which must not be in the field; c
// nil means the document has no such field and is left out. The field
// keeps c's slices until the document is vectorised; it never changes them.
func (f *Field) Add(ord int32, c *Counts) {
	f.grow(ord)
	if f.state[ord] != absent {
		panic("vector: document added twice")
	}
	if c == nil {
		return
	}
	f.added++
	p := pendingDoc{ord: ord, ids: make([]uint32, len(c.Hashes)), hashes: c.Hashes, tfs: c.TFs, total: c.Total()}
	if len(c.Hashes) > 0 {
		f.docs++
		f.tokens += int64(p.total)
	}
	for i, h := range c.Hashes {
		id, ok := f.ids.get(h)
		if !ok {
			id = f.newTerm(h)
		}
		f.df[id]++
		f.cf[id] += int64(c.TFs[i])
		p.ids[i] = id
	}
	f.pending = append(f.pending, p)
	f.nPend += len(p.ids)
	f.state[ord] = pending
}

// newTerm numbers term hash h, reusing a free id if there is one.
func (f *Field) newTerm(h uint64) uint32 {
	var id uint32
	if n := len(f.free); n > 0 {
		id, f.free = f.free[n-1], f.free[:n-1]
	} else {
		id = uint32(len(f.df))
		f.df = append(f.df, 0)
		f.cf = append(f.cf, 0)
	}
	f.ids.put(h, id)
	return id
}

func (f *Field) grow(ord int32) {
	if n := int(ord) + 1; n > len(f.state) {
		f.state = append(f.state, make([]state, n-len(f.state))...)
		f.vecs = append(f.vecs, make([]similarity.Sparse, n-len(f.vecs))...)
	}
}

// Seal is called once every document of a batch is added and before any
// is vectorised: the statistics are final. It numbers the join terms by
// decreasing document frequency, which keeps frequent terms out of the
// join's lists, vectorises every document, and bounds each term's weight
// in the queries to come. Once a document is vectorised it only
// vectorises what is pending. It stops soon after ctx is done, returning
// its error, and leaves the field unusable.
func (f *Field) Seal(ctx context.Context) error {
	if f.started || f.join != nil {
		return f.vectorise(ctx)
	}
	f.order = rankByDF(f.df)
	if err := f.vectorise(ctx); err != nil {
		return err
	}
	if f.joinAt <= 0 {
		return nil
	}
	qmax := make([]float32, len(f.df))
	for _, v := range f.vecs {
		for i, t := range v.Terms {
			qmax[t] = max(qmax[t], v.Weights[i])
		}
	}
	f.join = candidates.NewAllPairs(f.joinAt, f.Vector)
	f.join.SetQueryBound(qmax)
	f.join.Reserve(len(f.vecs), len(f.df))
	return nil
}

// rankByDF returns each term's rank by decreasing document frequency df,
// ties by increasing term id: a counting sort, linear in the terms and the
// largest frequency (a million documents' word pairs are millions of terms,
// which a comparison sort took seconds over, unstoppable).
func rankByDF(df []int32) []uint32 {
	top := int32(0)
	for _, n := range df {
		top = max(top, n)
	}
	// start[top-n] is the first rank of the terms of frequency n.
	start := make([]uint32, int(top)+2)
	for _, n := range df {
		start[top-max(n, 0)+1]++
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	rank := make([]uint32, len(df))
	for id, n := range df {
		at := &start[top-max(n, 0)]
		rank[id] = *at
		*at++
	}
	return rank
}

// vectorise turns the pending documents into vectors with the statistics
// as they stand, and lets go of their counts. A vector's terms take the
// place of the document's term ids, which it no longer needs (a batch
// holds them all, 4 bytes a term, until its vectors are made); the
// weights of a run of documents go into one allocation. Many pending
// documents (a batch's, at Seal) are vectorised on every core, in runs:
// each document's vector depends on it and the statistics alone.
func (f *Field) vectorise(ctx context.Context) error {
	if len(f.pending) == 0 {
		return nil
	}
	f.started = true
	parts := min(runtime.GOMAXPROCS(0), len(f.pending)/minVectoriseRun)
	if parts <= 1 {
		f.tw = f.vectoriseRun(ctx, f.pending, f.nPend, f.tw)
	} else {
		var wg sync.WaitGroup
		for part := range parts {
			run := f.pending[part*len(f.pending)/parts : (part+1)*len(f.pending)/parts]
			wg.Go(func() {
				n := 0
				for _, p := range run {
					n += len(p.ids)
				}
				f.vectoriseRun(ctx, run, n, nil)
			})
		}
		wg.Wait()
	}
	if err := ctx.Err(); err != nil {
		return err // some documents left as they were: the field is unusable
	}
	clear(f.pending)
	f.pending, f.nPend = f.pending[:0], 0
	return nil
}

// minVectoriseRun is the fewest pending documents each goroutine of
// vectorise is given: fewer are vectorised on the caller's.
const minVectoriseRun = 4096

// ctxEvery is how many documents vectoriseRun and IndexAll go through
// between looks at their context.
const ctxEvery = 1024

// vectoriseRun vectorises the pending documents run, which hold n terms,
// with tw as scratch space, and returns the scratch space grown; it stops
// soon after ctx is done, leaving the rest pending. Runs of
// one Field's pending documents may be vectorised concurrently: each
// writes its own documents' vectors and states, and reads the statistics.
func (f *Field) vectoriseRun(ctx context.Context, run []pendingDoc, n int, tw []termWeight) []termWeight {
	weights := make([]float32, 0, n)
	unweighted := 0
	defer func() { f.unweighted.Add(int64(unweighted)) }()
	for i, p := range run {
		if i%ctxEvery == 0 && ctx.Err() != nil {
			return tw
		}
		tw = tw[:0]
		var norm float64
		for i, id := range p.ids {
			w := f.weight(id, p.tfs[i], p.total)
			if w <= 0 {
				continue
			}
			tw = append(tw, termWeight{f.joinTerm(id), w})
			norm += w * w
		}
		slices.SortFunc(tw, func(a, b termWeight) int { return cmp.Compare(a.t, b.t) })
		norm = math.Sqrt(norm)
		terms, lo := p.ids[:0], len(weights) // every id was read into tw
		for _, x := range tw {
			terms = append(terms, x.t)
			weights = append(weights, float32(x.w/norm))
		}
		if len(terms) == 0 && len(p.ids) > 0 {
			unweighted++
		}
		n, hi := len(terms), len(weights)
		f.vecs[p.ord] = similarity.Sparse{Terms: terms[:n:n], Weights: weights[lo:hi:hi]}
		f.state[p.ord] = vectorised
	}
	return tw
}

func (f *Field) joinTerm(id uint32) uint32 {
	if int(id) < len(f.order) {
		return f.order[id]
	}
	return id
}

// weight is a term's weight in a document where it occurs tf times among
// length occurrences.
func (f *Field) weight(id, tf uint32, length int) float64 {
	switch f.weighting {
	case PMI:
		return math.Log(float64(tf) * float64(f.tokens) / (float64(f.cf[id]) * float64(length)))
	case TFIDFLog2:
		return float64(tf) / float64(length) * math.Log2(float64(f.added)/float64(f.df[id]))
	}
	return float64(tf) * (1 + math.Log(float64(f.docs+1)/float64(f.df[id]+1)))
}

// Candidates vectorises what is pending and calls fn, in increasing
// ordinal order, with every indexed document whose cosine with document ord
// reaches the join threshold, and that cosine.
func (f *Field) Candidates(ord int32, fn func(other int32, cos float64)) {
	f.vectorise(context.Background())
	if f.joinAt <= 0 || int(ord) >= len(f.state) || f.state[ord] < vectorised {
		return
	}
	f.joiner().Query(f.vecs[ord], fn)
}

func (f *Field) joiner() *candidates.AllPairs {
	if f.join == nil {
		f.join = candidates.NewAllPairs(f.joinAt, f.Vector)
	}
	return f.join
}

// IndexAll vectorises what is pending and puts every vectorised document
// in the join, in ordinal order, as Index of each would: a Batch then
// matches them with Matchers, on many goroutines. It stops soon after ctx
// is done, returning its error, and leaves the field unusable.
func (f *Field) IndexAll(ctx context.Context) error {
	if err := f.vectorise(ctx); err != nil {
		return err
	}
	for ord, st := range f.state {
		if ord%ctxEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if st != vectorised {
			continue
		}
		if f.joinAt > 0 {
			f.joiner().Add(int32(ord), f.vecs[ord])
		}
		f.state[ord] = indexed
	}
	return nil
}

// A Matcher finds a document's candidates among the documents before it
// once IndexAll has indexed them all; each goroutine has its own.
type Matcher struct {
	f *Field
	q *candidates.Querier
}

// NewMatcher returns a Matcher of the field as IndexAll left it: the field
// must not change while Matchers are in use.
func (f *Field) NewMatcher() *Matcher {
	m := &Matcher{f: f}
	if f.joinAt > 0 {
		m.q = f.joiner().NewQuerier()
	}
	return m
}

// Candidates is Field.Candidates against the documents before ord only:
// it calls fn, in increasing ordinal order, with those whose cosine with
// document ord reaches the join threshold, and that cosine.
func (m *Matcher) Candidates(ord int32, fn func(other int32, cos float64)) {
	f := m.f
	if f.joinAt <= 0 || int(ord) >= len(f.state) || f.state[ord] != indexed {
		return
	}
	m.q.QueryBefore(f.vecs[ord], ord, fn)
}

// IDs is Candidates without the cosines: it calls fn, in increasing
// ordinal order, with the same documents, deciding some of them without
// computing their exact cosine (candidates.Querier.IDsBefore).
func (m *Matcher) IDs(ord int32, fn func(other int32)) {
	f := m.f
	if f.joinAt <= 0 || int(ord) >= len(f.state) || f.state[ord] != indexed {
		return
	}
	m.q.IDsBefore(f.vecs[ord], ord, fn)
}

// Index vectorises document ord if it is pending and puts it in the join,
// where the Candidates of later documents find it. A document absent or
// indexed already is left as it is.
func (f *Field) Index(ord int32) {
	if int(ord) >= len(f.state) {
		return
	}
	if f.state[ord] == pending {
		f.vectorise(context.Background())
	}
	if f.state[ord] != vectorised {
		return
	}
	if f.joinAt > 0 {
		f.joiner().Add(ord, f.vecs[ord])
	}
	f.state[ord] = indexed
}

// Remove undoes Add of document ord and, if they happened, its
// vectorising and Index: it leaves the join, its vector is dropped and its
// counts are taken off the statistics. c must be the counts given to Add
// (or equal ones, decoded again); with c nil a document no longer pending
// leaves the join but its counts stay. A document absent is ignored.
func (f *Field) Remove(ord int32, c *Counts) {
	if int(ord) >= len(f.state) || f.state[ord] == absent {
		return
	}
	switch f.state[ord] {
	case pending:
		i := slices.IndexFunc(f.pending, func(p pendingDoc) bool { return p.ord == ord })
		p := f.pending[i]
		f.pending = slices.Delete(f.pending, i, i+1)
		f.nPend -= len(p.ids)
		if c == nil {
			c = &Counts{Hashes: p.hashes, TFs: p.tfs}
		}
	case indexed:
		if f.join != nil {
			f.join.Remove(ord)
		}
	}
	f.vecs[ord], f.state[ord] = similarity.Sparse{}, absent
	if c != nil {
		f.uncount(c)
	}
}

// Uncount takes the counts of document ord, c (those given to Add, or
// equal ones decoded again), off the statistics and leaves the document as
// it is: its vector, its place in the join, and its terms' ids, numbered
// even while no document counts them, so that Recount puts the same counts
// back. A document absent is ignored. Between the two the field may only
// find the candidates of a document added before Uncount, and remove that
// one after Recount: a Remove between them could free the id of a term
// that document's vector holds.
func (f *Field) Uncount(ord int32, c *Counts) {
	if int(ord) < len(f.state) && f.state[ord] != absent && c != nil {
		f.shift(c, -1)
	}
}

// Recount puts back what Uncount of ord and c took off.
func (f *Field) Recount(ord int32, c *Counts) {
	if int(ord) < len(f.state) && f.state[ord] != absent && c != nil {
		f.shift(c, 1)
	}
}

// shift adds a document's counts, c, times sign (1 or -1) to the
// statistics, for terms numbered already.
func (f *Field) shift(c *Counts, sign int) {
	total := 0
	for i, h := range c.Hashes {
		if id, ok := f.ids.get(h); ok {
			total += int(c.TFs[i])
			f.df[id] += int32(sign)
			f.cf[id] += int64(sign) * int64(c.TFs[i])
		}
	}
	if len(c.Hashes) > 0 {
		f.docs += sign
		f.tokens += int64(sign * total)
	}
	f.added += sign
}

// uncount takes a document's counts off the statistics, freeing the ids of
// terms no document holds any more.
func (f *Field) uncount(c *Counts) {
	total := 0
	for i, h := range c.Hashes {
		id, ok := f.ids.get(h)
		if !ok {
			continue
		}
		total += int(c.TFs[i])
		f.cf[id] -= int64(c.TFs[i])
		if f.df[id]--; f.df[id] <= 0 {
			f.df[id], f.cf[id] = 0, 0
			f.ids.remove(h)
			f.free = append(f.free, id)
		}
	}
	if len(c.Hashes) > 0 {
		f.docs--
		f.tokens -= int64(total)
	}
	f.added--
}

// Vector returns document ord's vector: empty until it is vectorised, and
// once it is removed.
func (f *Field) Vector(ord int32) similarity.Sparse {
	if int(ord) >= len(f.vecs) {
		return similarity.Sparse{}
	}
	return f.vecs[ord]
}

// PrefetchHeader requests the cache line holding where document ord's
// vector lies, the first thing reading it needs (see package prefetch).
func (f *Field) PrefetchHeader(ord int32) {
	if int(ord) < len(f.vecs) {
		prefetch.Value(&f.vecs[ord])
	}
}

// PrefetchVector requests the terms and weights of document ord's vector;
// it reads where they lie, which PrefetchHeader requested earlier spares
// waiting for.
func (f *Field) PrefetchVector(ord int32) {
	v := f.Vector(ord)
	prefetch.Slice(v.Terms)
	prefetch.Slice(v.Weights)
}

// Cosines returns the cosines of documents of counts cs (each as given to
// Add, or equal ones decoded again; nil for a document without terms)
// with their vectors weighed by the statistics as they stand, as Seal
// would weigh them now, whatever they were weighed with: cos(i, j) is
// Cosine of documents i and j in a Batch of the documents counted, to the
// bit, the same products added in the same order, where the terms are
// numbered as that batch numbered them (in the order their documents were
// added, unless removals freed ids for reuse). Terms no document counts
// weigh nothing. Each document costs one look-up and one weight per term,
// once; cos reads nothing of the field, so it stays valid as the field
// changes.
func (f *Field) Cosines(cs []*Counts) (cos func(i, j int) float64) {
	vs := make([]keyedVector, len(cs))
	var tw []keyedWeight
	for i, c := range cs {
		if c == nil {
			continue
		}
		tw = tw[:0]
		total, norm := c.Total(), 0.0
		for k, h := range c.Hashes {
			id, ok := f.ids.get(h)
			if !ok {
				continue
			}
			if w := f.weight(id, c.TFs[k], total); w > 0 {
				tw = append(tw, keyedWeight{sealOrder(f.df[id], id), w})
				norm += w * w
			}
		}
		slices.SortFunc(tw, func(a, b keyedWeight) int { return cmp.Compare(a.key, b.key) })
		norm = math.Sqrt(norm)
		v := keyedVector{keys: make([]uint64, len(tw)), weights: make([]float32, len(tw))}
		for k, x := range tw {
			v.keys[k], v.weights[k] = x.key, float32(x.w/norm)
		}
		vs[i] = v
	}
	return func(i, j int) float64 { return vs[i].dot(vs[j]) }
}

// sealOrder is a key of term id held by df documents that orders terms as
// rankByDF does: by decreasing document frequency, ties by increasing id.
func sealOrder(df int32, id uint32) uint64 {
	return uint64(math.MaxUint32-uint32(max(df, 0)))<<32 | uint64(id)
}

// keyedWeight is a term's weight in a document, its term keyed by
// sealOrder.
type keyedWeight struct {
	key uint64
	w   float64
}

// keyedVector is a vector of Cosines: weights by term, the terms keyed by
// sealOrder, increasing.
type keyedVector struct {
	keys    []uint64
	weights []float32
}

// dot is similarity.Dot of two keyed vectors: the products of the terms
// both hold, added in increasing key order, as similarity.Unit takes them.
func (a keyedVector) dot(b keyedVector) float64 {
	var s float64
	i, j := 0, 0
	for i < len(a.keys) && j < len(b.keys) {
		switch ka, kb := a.keys[i], b.keys[j]; {
		case ka < kb:
			i++
		case ka > kb:
			j++
		default:
			s += float64(a.weights[i]) * float64(b.weights[j])
			i++
			j++
		}
	}
	return similarity.Unit(s)
}

// Cosine returns the exact cosine of two vectorised documents.
func (f *Field) Cosine(a, b int32) float64 { return similarity.Dot(f.Vector(a), f.Vector(b)) }

// JoinStats returns the work of the field's join and its threshold, and
// false when it has none.
func (f *Field) JoinStats() (candidates.JoinStats, float64, bool) {
	if f.join == nil {
		return candidates.JoinStats{}, 0, false
	}
	return f.join.Stats(), f.joinAt, true
}

// Unweighted returns how many documents were vectorised with terms but
// none of positive weight: under TFIDFLog2, documents whose every term
// every document held (copies of one text and nothing else). Their vector
// is empty: they are similar to nothing.
func (f *Field) Unweighted() int { return int(f.unweighted.Load()) }

// Verified returns how many candidate pairs the join verified exactly.
func (f *Field) Verified() int {
	if f.join == nil {
		return 0
	}
	return f.join.Stats().Verified
}
