package dedup

import (
	"cmp"
	"slices"

	"github.com/neardup/neardup/core"
)

// Index answers, for each document added, what it matches among the
// documents added before it: the incremental mode, as a crawler checks each
// article on arrival. Adding a corpus to an Index in input order finds the
// same pairs as a Batch, except where a method depends on corpus statistics,
// which an Index takes as they stand when each document is added: the
// sentences method judges boilerplate by the sentence counts seen so far;
// tfidf and cosine weigh each document by the document frequencies so far
// (its vector is then fixed, so scores differ from a Batch's); rarewords
// fixes each document's rare words by its source's counts so far and
// reports the new document's best match per source only (a Batch also
// reports each earlier document's best).
//
// An Index is not safe for concurrent use.
type Index struct {
	e  *engine
	sk sketcher
	ms []match
}

// NewIndex returns an empty Index, or an error when opts are invalid.
func NewIndex(opts Options) (*Index, error) {
	e, err := newEngine(opts)
	if err != nil {
		return nil, err
	}
	return &Index{e: e, sk: e.m.newSketcher()}, nil
}

// Add indexes doc and returns its pairs with earlier documents, doc as B,
// best score first. A document the method cannot compare is still stored
// (its ID is taken) and its reason returned. A repeated ID is an error and
// nothing is stored.
func (x *Index) Add(doc core.Document) ([]core.Pair, core.SkipReason, error) {
	v, skip := x.sk.sketch(&doc)
	id, err := x.e.add(&doc, v, skip)
	if err != nil {
		return nil, skip, err
	}
	x.ms = x.e.selectPairs(x.e.pairsOf(id, x.ms[:0]), true)
	pairs := make([]core.Pair, 0, len(x.ms))
	for _, m := range x.ms {
		pairs = append(pairs, x.e.pair(m))
	}
	sortByScore(pairs)
	return pairs, skip, nil
}

// Len returns the number of documents added.
func (x *Index) Len() int { return len(x.e.docs.ids) }

func sortByScore(ps []core.Pair) {
	slices.SortStableFunc(ps, func(a, b core.Pair) int { return cmp.Compare(b.Score, a.Score) })
}
