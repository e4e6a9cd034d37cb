package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/store"
)

// check checks docs beside the Index's writer and other checks (see
// Index). It gathers each document's candidates from the in-memory index
// under lk.mem shared, noting how far the index has read the store; then,
// holding no lock, reads the store in one snapshot: when the snapshot holds
// nothing the in-memory index had not read, it keeps the candidates the
// snapshot holds (stored at most at its head: none of a write that has not
// committed), reads their details (the cache's, else the snapshot's) and
// verifies them. A check that finds more in its snapshot (a write committed
// meanwhile, maybe by another process) gathers its candidates once more;
// ok is false, with nothing done, when that fails too, when the method is
// not a Checker, or when the window's dates are not read yet: the caller
// then checks with the Index to itself, which catches up.
//
// A check thus sees every document whose add returned before it began (its
// commit is in the snapshot, its ordinal in memory), and none whose add
// has not committed. It never waits for a lock holding a connection of the
// store: a writer holding the lock may need one.
func (x *index[S, E]) check(ctx context.Context, docs []core.Document, sks []sketched[S]) (outs []Match, ok bool, err error) {
	x.lk.open.RLock()
	defer x.lk.open.RUnlock()
	for range 2 {
		var again bool
		outs, again, err = x.checkOnce(ctx, docs, sks)
		if err != nil || outs != nil || !again {
			return outs, outs != nil, err
		}
	}
	return nil, false, nil
}

// checkOnce is one try of check: outs nil when it could not check, and
// again then when another try may.
func (x *index[S, E]) checkOnce(ctx context.Context, docs []core.Document, sks []sketched[S]) (outs []Match, again bool, err error) {
	x.lk.mem.RLock()
	ch, isChecker := x.m.(Checker[S, E])
	if !isChecker || x.window > 0 && len(x.undated) > 0 {
		x.lk.mem.RUnlock()
		return nil, false, nil
	}
	m, cache := x.m, x.cache
	lastOrd, lastRemoval := x.lastOrd, x.lastRemoval
	cands := make([]checkCands, len(docs))
	for i := range docs {
		if sks[i].skip == core.SkipNone {
			cands[i] = x.candidates(ch, sks[i].s, unixOrZero(&docs[i]))
		}
	}
	x.lk.mem.RUnlock()

	err = x.st.View(ctx, func(r store.Reader) error {
		headOrd, headRemoval, err := r.Head()
		if err != nil || headOrd > lastOrd || headRemoval > lastRemoval {
			again = true
			return err
		}
		outs = make([]Match, len(docs))
		for i := range docs {
			outs[i] = Match{ID: docs[i].ID, Status: Checked, Skip: sks[i].skip, Pairs: []core.Pair{}}
			if sks[i].skip != core.SkipNone {
				continue
			}
			c := cands[i].upTo(headOrd)
			found, err := verifyCheck(m, ch, cache, r, c, sks[i].s, &docs[i])
			if err != nil {
				return err
			}
			if err := checkPairs(r, x.spec.Name, &outs[i], found, c); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return outs, again, nil
}

// checkCands are a checked document's candidates (method ordinals,
// distinct, increasing) and their stored ordinals.
type checkCands struct {
	mems []int32
	ords []int64
}

// candidates gathers s's candidates from the in-memory index, held shared:
// those stored (ordinal not 0) within the window of date.
func (x *index[S, E]) candidates(ch Checker[S, E], s *S, date int64) checkCands {
	mems := ch.Candidates(nil, s)
	slices.Sort(mems)
	mems = slices.Compact(mems)
	c := checkCands{mems: mems[:0], ords: make([]int64, 0, len(mems))}
	for _, mem := range mems {
		ord := x.ords[mem]
		if ord == 0 || FarApart(x.dates[mem], date, x.window) {
			continue
		}
		c.mems, c.ords = append(c.mems, mem), append(c.ords, ord)
	}
	return c
}

// upTo returns the candidates stored at most at ordinal last.
func (c checkCands) upTo(last int64) checkCands {
	out := checkCands{mems: make([]int32, 0, len(c.mems)), ords: make([]int64, 0, len(c.ords))}
	for i, ord := range c.ords {
		if ord <= last {
			out.mems, out.ords = append(out.mems, c.mems[i]), append(out.ords, ord)
		}
	}
	return out
}

// verifyCheck reads the details of candidates c and verifies s against
// them, holding no lock; it returns the pairs found as match does. A
// candidate the snapshot no longer holds is left out.
func verifyCheck[S any, E core.Evidence](m Method[S, E], ch Checker[S, E], cache *detailCache[S], r store.Reader,
	c checkCands, s *S, d *core.Document) ([]Found[E], error) {
	src := checkSource[S]{mems: c.mems[:0:0], details: make([]*S, 0, len(c.mems))}
	for i, mem := range c.mems {
		ord := c.ords[i]
		det := cache.get(ord)
		if det == nil {
			data, err := r.Detail(ord)
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			if err != nil {
				return nil, err
			}
			if det, err = m.DecodeDetail(data); err != nil {
				return nil, fmt.Errorf("document %d: %w", ord, err)
			}
			cache.put(ord, det)
		}
		src.mems, src.details = append(src.mems, mem), append(src.details, det)
	}
	var found []Found[E]
	err := ch.Verify(slices.Clone(src.mems), s, src, func(other int32, score float64, ev E) {
		if l, ok := m.Label(score, ev); ok {
			found = append(found, Found[E]{A: other, Score: score, Label: l, Ev: ev})
		}
	})
	if err != nil {
		return nil, err
	}
	if sel, ok := m.(Selector[E]); ok {
		found = sel.Select(found, true)
	}
	if ex, ok := m.(Explainer[E]); ok {
		for i := range found {
			ex.Explain(&found[i].Ev, d)
		}
	}
	slices.SortStableFunc(found, bestFirst[E])
	return found, nil
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

// checkPairs fills out's pairs from found, reading the matched documents'
// IDs in the snapshot r.
func checkPairs[E core.Evidence](r store.Reader, method string, out *Match, found []Found[E], c checkCands) error {
	if len(found) == 0 {
		return nil
	}
	ordOf := func(mem int32) int64 {
		i, _ := slices.BinarySearch(c.mems, mem)
		return c.ords[i]
	}
	others := make([]int64, len(found))
	for i, f := range found {
		others[i] = ordOf(f.A)
	}
	docs, err := r.Docs(others)
	if err != nil {
		return err
	}
	ids := make(map[int64]string, len(docs))
	for _, d := range docs {
		ids[d.Ord] = d.ID
	}
	for i, f := range found {
		if id, ok := ids[others[i]]; ok {
			out.Pairs = append(out.Pairs, core.Pair{A: id, B: out.ID, Method: method,
				Score: Round(f.Score), Label: f.Label, Evidence: f.Ev})
		}
	}
	return nil
}
