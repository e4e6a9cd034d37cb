package rarewords

import (
	"cmp"

	"github.com/neardup/neardup/internal/engine"
)

// view is one document's side of a pair: the document and the source of
// its partner.
type view struct {
	doc, partnerSrc int32
}

// Select keeps the pairs that are some document's best match in the
// partner's source: its share of rare words in the partner is the largest
// there (ties by Options.Ties) and more than the threshold; it sets each
// kept pair's BestFor. With newest only the later document's view counts.
func (m *method) Select(fs []engine.Found[Evidence], newest bool) []engine.Found[Evidence] {
	for k, i := range m.bestViews(fs, newest) {
		e := &fs[i].Ev
		side := "a"
		if fs[i].B == k.doc {
			side = "b"
		}
		if e.BestFor != "" && e.BestFor != side {
			side = "both"
		}
		e.BestFor = side
	}
	kept := fs[:0]
	for _, f := range fs {
		if f.Ev.BestFor != "" {
			kept = append(kept, f)
		}
	}
	return kept
}

// bestViews returns, for each document and partner source, the index in fs
// of the document's best pair there; see Select.
func (m *method) bestViews(fs []engine.Found[Evidence], newest bool) map[view]int {
	best := map[view]int{}
	mutual := m.o.Ties == TiesMutual
	consider := func(i int, doc, partner int32, own, other float64) {
		if own <= m.o.Threshold {
			return
		}
		k := view{doc, m.docSrc[partner]}
		if j, ok := best[k]; ok {
			jOwn, jOther := fs[j].Ev.shares()
			jPartner := fs[j].A
			if fs[j].B == doc {
				jOwn, jOther = jOther, jOwn
			} else {
				jPartner = fs[j].B
			}
			c := cmp.Compare(own, jOwn)
			if mutual {
				c = cmp.Or(c, cmp.Compare(other, jOther))
			}
			if cmp.Or(c, cmp.Compare(jPartner, partner)) <= 0 {
				return
			}
		}
		best[k] = i
	}
	for i, f := range fs {
		ab, ba := f.Ev.shares()
		if !newest {
			consider(i, f.A, f.B, ab, ba)
		}
		consider(i, f.B, f.A, ba, ab)
	}
	return best
}
