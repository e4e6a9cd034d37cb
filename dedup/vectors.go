package dedup

import (
	"cmp"
	"math"
	"slices"

	"github.com/neardup/neardup/internal/candidates"
	"github.com/neardup/neardup/internal/similarity"
)

// The vector methods (tfidf, cosine) share this file: a document field is
// counted into terms when sketched, its terms are numbered and their
// document frequencies counted when added, and it becomes a weighted,
// L2-normalised sparse vector when matched, with the statistics as they
// stand then: final in a batch, which seals the corpus first, and the
// counts so far in an index.

// termCounts is one field of a document as sketched: its distinct term
// hashes in increasing order, how often each occurs, and the number of
// occurrences in all.
type termCounts struct {
	hashes []uint64
	ids    []uint32 // the terms' ids, once added to a field
	tfs    []uint32
	total  int
}

// countTerms returns the distinct values of hs (which it sorts) with their
// counts, in fresh slices.
func countTerms(hs []uint64) termCounts {
	slices.Sort(hs)
	n := 0
	for i := range hs {
		if i == 0 || hs[i] != hs[i-1] {
			n++
		}
	}
	tc := termCounts{hashes: make([]uint64, 0, n), tfs: make([]uint32, 0, n), total: len(hs)}
	for i, h := range hs {
		if i > 0 && h == hs[i-1] {
			tc.tfs[len(tc.tfs)-1]++
			continue
		}
		tc.hashes = append(tc.hashes, h)
		tc.tfs = append(tc.tfs, 1)
	}
	return tc
}

// Weighting names how the vector methods weigh a term in a document.
const (
	// WeightTFIDF is the term's count times 1 + ln((N+1)/(df+1)), N the
	// number of documents and df how many hold the term: scikit-learn's
	// smoothed IDF, which the tfidf recipe's thresholds assume. A term in
	// every document weighs 1, one in a single document 1 + ln((N+1)/2).
	WeightTFIDF = "tfidf"
	// WeightPMI is the positive pointwise mutual information of term and
	// document, max(0, ln(tf·T / (cf·len))), T the occurrences of all terms
	// in the corpus, cf those of the term, len those in the document.
	WeightPMI = "pmi"
)

// field is one document field of a vector method: its terms, their corpus
// statistics, the documents' vectors and the exact cosine join over them.
//
// Documents are added in order; their counts wait in pending until the
// next match or seal turns them into vectors, after which they are freed.
type field struct {
	weighting string
	joinAt    float64 // threshold of the join; 0 means no join

	ids    map[uint64]uint32 // term hash → term id, numbered as first seen
	df     []int32           // documents holding each term
	cf     []int64           // occurrences of each term (PMI)
	docs   int               // documents added with at least one term
	tokens int64             // occurrences of all terms (PMI)

	// pending documents: pending[k] is document len()+k, its terms
	// numbered, in slices of its own (a growing arena would be copied
	// over and over), nil for a skipped document.
	pending []*termCounts
	nPend   int // terms in pending

	// vectors of documents 0..len(vOff)-2, terms in join order.
	vTerms []uint32
	vW     []float32
	vOff   []int64
	// order maps a term id to its join term; nil means the term id itself.
	order []uint32
	join  *candidates.AllPairs
}

func newField(weighting string, joinAt float64) *field {
	return &field{weighting: weighting, joinAt: joinAt, ids: map[uint64]uint32{},
		vOff: []int64{0}}
}

// add counts the next document's terms; tc may be nil (a skipped
// document). It takes tc over: its hashes become term ids.
func (f *field) add(tc *termCounts) {
	if tc != nil && len(tc.hashes) > 0 {
		f.docs++
		f.tokens += int64(tc.total)
		tc.ids = make([]uint32, len(tc.hashes))
		for i, h := range tc.hashes {
			id, ok := f.ids[h]
			if !ok {
				id = uint32(len(f.df))
				f.ids[h] = id
				f.df = append(f.df, 0)
				f.cf = append(f.cf, 0)
			}
			f.df[id]++
			f.cf[id] += int64(tc.tfs[i])
			tc.ids[i] = id
		}
		tc.hashes = nil
		f.nPend += len(tc.ids)
	}
	f.pending = append(f.pending, tc)
}

// len returns the number of documents vectorised.
func (f *field) len() int { return len(f.vOff) - 1 }

// vector returns document id's vector; id must be vectorised.
func (f *field) vector(id int32) similarity.Sparse {
	lo, hi := f.vOff[id], f.vOff[id+1]
	return similarity.Sparse{Terms: f.vTerms[lo:hi], Weights: f.vW[lo:hi]}
}

// seal is called once every document is added: statistics are final. It
// numbers the join terms by decreasing document frequency, which keeps
// frequent terms out of the join's lists, vectorises every document, and
// bounds each term's weight in the queries to come.
func (f *field) seal() {
	if f.len() > 0 || f.join != nil {
		return // matching has begun: the order can no longer change
	}
	byDF := make([]uint32, len(f.df))
	for i := range byDF {
		byDF[i] = uint32(i)
	}
	slices.SortFunc(byDF, func(a, b uint32) int { return cmp.Or(cmp.Compare(f.df[b], f.df[a]), cmp.Compare(a, b)) })
	f.order = make([]uint32, len(f.df))
	for rank, id := range byDF {
		f.order[id] = uint32(rank)
	}
	f.vectorise()
	if f.joinAt > 0 {
		qmax := make([]float32, len(f.df))
		for i, t := range f.vTerms {
			qmax[t] = max(qmax[t], f.vW[i])
		}
		f.join = candidates.NewAllPairs(f.joinAt, f.vector)
		f.join.SetQueryBound(qmax)
		f.join.Reserve(f.len(), len(f.df))
	}
}

// vectorise turns the pending documents into vectors with the statistics
// as they stand, and frees their counts.
func (f *field) vectorise() {
	var terms []uint32
	var ws []float64
	var idx []int
	f.vTerms = slices.Grow(f.vTerms, f.nPend)
	f.vW = slices.Grow(f.vW, f.nPend)
	for _, tc := range f.pending {
		terms, ws = terms[:0], ws[:0]
		var norm float64
		for i := 0; tc != nil && i < len(tc.ids); i++ {
			id := tc.ids[i]
			w := f.weight(id, tc.tfs[i], tc.total)
			if w <= 0 {
				continue
			}
			t := id
			if f.order != nil {
				t = f.order[id]
			}
			terms, ws = append(terms, t), append(ws, w)
			norm += w * w
		}
		idx = idx[:0]
		for i := range terms {
			idx = append(idx, i)
		}
		slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(terms[a], terms[b]) })
		norm = math.Sqrt(norm)
		for _, i := range idx {
			f.vTerms = append(f.vTerms, terms[i])
			f.vW = append(f.vW, float32(ws[i]/norm))
		}
		f.vOff = append(f.vOff, int64(len(f.vTerms)))
	}
	clear(f.pending)
	f.pending, f.nPend = f.pending[:0], 0
}

// weight is a term's weight in a document where it occurs tf times among
// length occurrences.
func (f *field) weight(id, tf uint32, length int) float64 {
	if f.weighting == WeightPMI {
		return math.Log(float64(tf) * float64(f.tokens) / (float64(f.cf[id]) * float64(length)))
	}
	return float64(tf) * (1 + math.Log(float64(f.docs+1)/float64(f.df[id]+1)))
}

// candidates vectorises what is pending and calls fn with every earlier
// document whose cosine with id reaches the join threshold.
func (f *field) candidates(id int32, fn func(other int32, cos float64)) {
	f.vectorise()
	if f.joinAt <= 0 {
		return
	}
	if f.join == nil {
		f.join = candidates.NewAllPairs(f.joinAt, f.vector)
	}
	f.join.Query(f.vector(id), fn)
}

// index adds document id to the join, after its candidates were found.
func (f *field) index(id int32) {
	if f.join != nil {
		f.join.Add(id, f.vector(id))
	}
}

// verified returns how many candidate pairs the join verified exactly.
func (f *field) verified() int {
	if f.join == nil {
		return 0
	}
	return f.join.Stats().Verified
}

// cosine returns the exact cosine of two vectorised documents.
func (f *field) cosine(a, b int32) float64 {
	return similarity.Dot(f.vector(a), f.vector(b))
}
