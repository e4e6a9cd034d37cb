package sentences

import "slices"

// repost posts each lapsed sentence that is not boilerplate now for every
// document holding it but skip (the document being matched, not indexed
// yet), in the order they were added, as an index reopened with the same
// documents posts it: Index posts a sentence for each document it holds
// while it is within Options.MaxDocs. A lapsed sentence that is
// boilerplate again is dropped: it lapses anew when it comes back.
//
// Finding the documents takes a pass over every document's sentences (the
// longer of each document's sorted hashes and the lapsed ones searched for
// each of the shorter), once for all the sentences lapsed since the last
// match: 11–29 ms at 200,000 documents of 30 sentences (BenchmarkRepost, on
// 2 shared cores), in proportion to the documents. The alternative,
// posting boilerplate sentences too and skipping them when gathering
// candidates, keeps 8 bytes a posting of every sentence in more than
// MaxDocs documents, and makes removing a document walk the list of each
// of its boilerplate sentences: a sentence in most documents, expired
// oldest first, costs a pass over its whole list per removal.
func (m *method) repost(skip int32) {
	if len(m.lapsed) == 0 {
		return
	}
	hs := make([]uint64, 0, len(m.lapsed))
	for h := range m.lapsed {
		if !m.boilerplate(h) {
			hs = append(hs, h)
		}
	}
	clear(m.lapsed)
	if len(hs) == 0 {
		return
	}
	slices.Sort(hs)
	holders := make([][]int32, len(hs))
	for ord, s := range m.docs {
		if s != nil && int32(ord) != skip {
			shared(s.Hashes, hs, func(i int) { holders[i] = append(holders[i], int32(ord)) })
		}
	}
	for i, h := range hs {
		for _, d := range holders[i] {
			m.index.Remove(h, d)
		}
		for _, d := range holders[i] {
			m.index.Add(h, d)
		}
	}
}

// shared calls fn with the index in hs of each hash both sorted lists
// hold, searching the longer list for each hash of the shorter.
func shared(doc, hs []uint64, fn func(i int)) {
	if len(hs) <= len(doc) {
		for i, h := range hs {
			if _, ok := slices.BinarySearch(doc, h); ok {
				fn(i)
			}
		}
		return
	}
	for _, h := range doc {
		if i, ok := slices.BinarySearch(hs, h); ok {
			fn(i)
		}
	}
}
