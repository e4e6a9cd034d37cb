package dedup

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/candidates"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
)

// bucketFn makes the candidate pairs of one LSH bucket: each member that
// searches is paired with the members before it that the bucket limit lets
// it compare with (candidates.VisitBucket), as (later, earlier). A member
// is in a bucket once per band key of its own that falls there, as in the
// batch's index, which the limit counts.
type bucketFn struct {
	Limit int
}

func (fn *bucketFn) ProcessElement(_ int64, members func(*member) bool, emit func(int64, int64)) {
	var ms []member
	var m member
	for members(&m) {
		ms = append(ms, m)
	}
	slices.SortFunc(ms, func(a, b member) int { return cmpInt(a.Ord, b.Ord) })
	for p := 0; p < len(ms); p++ {
		if p > 0 && ms[p].Ord == ms[p-1].Ord || !ms[p].Searches {
			continue
		}
		b := ms[p].Ord
		candidates.VisitBucket(p, fn.Limit, func(i int) { emit(b, ms[i].Ord) })
	}
}

// spreadKeys emits a document's member into the bucket of each of its
// candidate keys.
func spreadKeys(_ string, k keyed, emit func(int64, member)) {
	for _, key := range k.Keys {
		emit(int64(key), k.Member)
	}
}

// copiesFn takes the documents of one engine.CopyKey (equal title, text
// and date) as the batch does under a method's Copies stage: each with
// fewer earlier copies than the bucket limit goes into its buckets; each
// other is no member of any, and its one candidate pair, as (later,
// earlier), is with the first copy, if it searches.
type copiesFn struct {
	Limit int
}

func (fn *copiesFn) ProcessElement(_ string, docs func(*keyed) bool, members func(int64, member), pairs func(int64, int64),
	counts func(string, int64)) {
	// Only the Limit lowest ordinals are held whole, in order: a million
	// copies of one page hold a million ordinals, not their keys.
	var first []keyed
	type later struct {
		ord      int64
		searches bool
	}
	var rest []later
	var k keyed
	for docs(&k) {
		i, _ := slices.BinarySearchFunc(first, k.Member.Ord, func(a keyed, ord int64) int { return cmpInt(a.Member.Ord, ord) })
		switch {
		case i < fn.Limit:
			if len(first) == fn.Limit {
				m := first[len(first)-1].Member
				rest = append(rest, later{m.Ord, m.Searches})
				first = first[:len(first)-1]
			}
			first = slices.Insert(first, i, k)
		default:
			rest = append(rest, later{k.Member.Ord, k.Member.Searches})
		}
		k = keyed{}
	}
	for _, k := range first {
		spreadKeys("", k, members)
	}
	for _, r := range rest {
		if r.searches { // as bucketFn: one that does not search has no candidate
			pairs(r.ord, first[0].Member.Ord)
		}
		counts(countCopies, 1)
	}
}

// half is a candidate pair on its way to verification: the later
// document, joined to its doc.
type half struct {
	B   int64
	Doc doc
}

// laterFn joins the candidates of a later document b, each once, to b's
// doc, keyed by the earlier document.
func laterFn(ctx context.Context, b int64, earlier func(*int64) bool, docs func(*doc) bool, emit func(int64, half)) {
	var d doc
	if !docs(&d) {
		return
	}
	seen := map[int64]bool{}
	var a int64
	for earlier(&a) {
		if !seen[a] {
			seen[a] = true
			candidatePairs.Inc(ctx, 1)
			emit(a, half{B: b, Doc: d})
		}
	}
}

// found is a verified, labelled pair, with its line of pairs.jsonl.
type found struct {
	A, B  int64
	Score float64 // rounded, as reported
	Label string
	Line  []byte
}

// verifyFn verifies each candidate pair of an earlier document a, joined to
// a's doc, and emits those the method labels, as the batch does.
type verifyFn struct {
	Method methodConfig
	Window int64 // seconds; 0 for none

	st stages
}

func (fn *verifyFn) Setup() error {
	st, err := fn.Method.stages()
	fn.st = st
	return err
}

func (fn *verifyFn) ProcessElement(a int64, halves func(*half) bool, docs func(*doc) bool,
	emit func(found), counts func(string, int64)) error {
	var da doc
	if !docs(&da) {
		return nil
	}
	var sa sketch // decoded at the first candidate: most documents have none
	var h half
	for halves(&h) {
		if sa == nil {
			var err error
			if sa, err = fn.st.decode(da.Detail); err != nil {
				return fmt.Errorf("document %s: %w", da.ID, err)
			}
		}
		if engine.FarApart(da.Date, h.Doc.Date, fn.Window) {
			continue
		}
		sb, err := fn.st.decode(h.Doc.Detail)
		if err != nil {
			return fmt.Errorf("document %s: %w", h.Doc.ID, err)
		}
		if !fn.st.candidate(sa, sb) {
			continue
		}
		counts(countCandidates, 1)
		score, l, ev, ok := fn.st.pair(sa, sb)
		if !ok {
			continue
		}
		counts(countPairs+string(l), 1)
		p := core.Pair{A: da.ID, B: h.Doc.ID, Method: fn.st.name(), Score: core.Round(score), Label: l, Evidence: ev}
		if l == core.Duplicate {
			// A was read before B: cluster.Published breaks a tie by it.
			p.Original = da.ID
			if cluster.Published(cluster.Member{Ord: 1, Date: h.Doc.Date}, cluster.Member{Ord: 0, Date: da.Date}) < 0 {
				p.Original = h.Doc.ID
			}
		}
		line, err := encodeLine(&p)
		if err != nil {
			return err
		}
		emit(found{A: a, B: h.B, Score: p.Score, Label: string(l), Line: line})
	}
	return nil
}

// encodeLine encodes v as a line of a JSON Lines output, as the batch's
// output files do: HTML characters unescaped, a newline at the end.
func encodeLine(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
