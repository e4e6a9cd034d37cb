package index

import (
	"context"
	"errors"
	"maps"
	"slices"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/store"
)

// query checks docs: beside the writer when the method has a Check stage and the
// in-memory index holds what the store does, else with the Index to
// itself.
func (x *Index) query(ctx context.Context, docs []core.Document, given []Sketch) ([]Match, error) {
	sks, err := x.sketches(docs, given)
	if err != nil {
		return nil, err
	}
	outs, ok, err := x.check(ctx, docs, sks)
	if ok || err != nil {
		return outs, err
	}
	x.exclusively(func() { outs, err = x.queryAlone(ctx, docs, sks) })
	return outs, err
}

// queryAlone checks docs with the Index to itself, catching up with the
// store first.
func (x *Index) queryAlone(ctx context.Context, docs []core.Document, sks []Sketch) ([]Match, error) {
	outs := make([]Match, len(docs))
	err := x.st.View(ctx, func(r store.Reader) error {
		if err := x.catchUp(r); err != nil {
			return rebuilt(err, x.restore(context.WithoutCancel(ctx))) // it may have failed half way
		}
		if err := x.readDates(r); err != nil {
			return err
		}
		stored, err := storedIDs(r, docs)
		if err != nil {
			return err
		}
		places, err := storedPlaces(r, stored)
		if err != nil {
			return err
		}
		differ, err := x.conflicts(r, docs, sks, stored)
		if err != nil {
			return err
		}
		for i := range docs {
			var me published
			outs[i], me = checkedMatch(&docs[i], &sks[i], stored, places, differ[i])
			if sks[i].Skip() != core.SkipNone {
				continue
			}
			replaced, err := storedSketch(r, outs[i].Status, me.ord)
			if err != nil {
				return err
			}
			hits, err := x.live.Probe(sks[i].sk, &docs[i], replaced, x.detailsAt(r, me))
			if err != nil {
				return err
			}
			if _, err := x.pairs(r, &outs[i], me, others(hits, me), false); err != nil {
				return err
			}
		}
		return storedRoles(r, outs, stored)
	})
	if err != nil {
		return nil, err
	}
	return outs, nil
}

// storedSketch returns what a probe of a checked document of the given
// status needs of the stored document of its ID, at ord: for one whose ID
// is stored (Exists or Conflict), its ordinal and its sketch's index part,
// so that it is matched with the other stored documents and the method's
// statistics count it once, as if it replaced the stored one; for another,
// or a stored document without a sketch, none.
func storedSketch(r store.Reader, status Status, ord int64) (engine.Replaced, error) {
	if status != Exists && status != Conflict {
		return engine.Replaced{}, nil
	}
	sk, err := r.Sketch(ord)
	if errors.Is(err, store.ErrNotFound) {
		return engine.Replaced{}, nil // skipped: nothing of it is counted
	}
	if err != nil {
		return engine.Replaced{}, err
	}
	return engine.Replaced{Ord: ord, Index: sk.Index}, nil
}

// check checks docs beside the Index's writer and other checks (see
// Index). It gathers each document's candidates from the in-memory index
// under lk.mem shared, noting how far the index has read the store; then,
// holding no lock, reads the store in one snapshot: when the snapshot holds
// nothing the in-memory index had not read, it keeps the candidates the
// snapshot holds (stored at most at its head: none of a write that has not
// committed), reads their details (the cache's, else the snapshot's) and
// verifies them. A check that finds more in its snapshot (a write committed
// meanwhile, maybe by another process), or fewer removals than memory has
// applied (a removal under way), gathers its candidates once more;
// ok is false, with nothing done, when that fails too, when the method is
// without a Check stage, or when the window's dates are not read yet: the caller
// then checks with the Index to itself, which catches up.
//
// A check thus sees every document whose add returned before it began (its
// commit is in the snapshot, its ordinal in memory), and none whose add
// has not committed. It never waits for a lock holding a connection of the
// store: a writer holding the lock may need one.
func (x *Index) check(ctx context.Context, docs []core.Document, sks []Sketch) (outs []Match, ok bool, err error) {
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
func (x *Index) checkOnce(ctx context.Context, docs []core.Document, sks []Sketch) (outs []Match, again bool, err error) {
	checks, lastOrd, lastRemoval, ok, err := x.candidates(docs, sks)
	if !ok || err != nil {
		return nil, false, err
	}
	err = x.st.View(ctx, func(r store.Reader) error {
		headOrd, headRemoval, err := r.Head()
		// The snapshot ahead of the in-memory index (a write committed
		// since the candidates were gathered), or behind it in removals: a
		// removal under way, not committed, has taken its documents out of
		// memory and loaded the copies taking their places, which the
		// snapshot holds the other way round; the check would find
		// neither.
		if err != nil || headOrd > lastOrd || headRemoval != lastRemoval {
			again = true
			return err
		}
		stored, err := storedIDs(r, docs)
		if err != nil {
			return err
		}
		places, err := storedPlaces(r, stored)
		if err != nil {
			return err
		}
		differ, err := x.conflicts(r, docs, sks, stored)
		if err != nil {
			return err
		}
		outs = make([]Match, len(docs))
		for i := range docs {
			var me published
			outs[i], me = checkedMatch(&docs[i], &sks[i], stored, places, differ[i])
			if checks[i] == nil {
				continue
			}
			hits, err := checks[i].Verify(headOrd, details{r})
			if err != nil {
				return err
			}
			if _, err := x.pairs(r, &outs[i], me, others(hits, me), false); err != nil {
				return err
			}
		}
		return storedRoles(r, outs, stored)
	})
	if err != nil {
		return nil, false, err
	}
	return outs, again, nil
}

// candidates gathers the candidates of each document (nil for one
// skipped) under lk.mem shared, and how far the in-memory index has read
// the store; ok is false when the method cannot check beside writes now.
func (x *Index) candidates(docs []core.Document, sks []Sketch) (checks []engine.Check, lastOrd, lastRemoval int64, ok bool, err error) {
	x.lk.mem.RLock()
	defer x.lk.mem.RUnlock()
	checks = make([]engine.Check, len(docs))
	for i := range docs {
		if sks[i].Skip() != core.SkipNone {
			continue
		}
		if checks[i], ok, err = x.live.Candidates(sks[i].sk, &docs[i]); !ok || err != nil {
			return nil, 0, 0, false, err
		}
	}
	return checks, x.lastOrd, x.lastRemoval, true, nil
}

// storedRoles sets the cluster and the original of each checked document
// whose ID is stored (Exists) to its stored copy's, as Add reports it; a
// Conflict, another document under a stored ID, gets none, as in Add.
func storedRoles(r store.Reader, outs []Match, stored map[string]int64) error {
	added := make([]int64, len(outs))
	var any bool
	for i := range outs {
		if outs[i].Status == Exists {
			added[i], any = stored[outs[i].ID], true
		}
	}
	if !any {
		return nil
	}
	return settleRoles(r, outs, added)
}

// storedIDs returns the ordinals of the checked documents whose IDs are
// stored, by ID.
func storedIDs(r store.Reader, docs []core.Document) (map[string]int64, error) {
	ids := make([]string, len(docs))
	for i := range docs {
		ids[i] = docs[i].ID
	}
	return r.Lookup(ids)
}

// storedPlaces returns, by ID, the place among the documents of its date
// (store.Doc.Place) of each stored document of stored (IDs by ordinal)
// that has one.
func storedPlaces(r store.Reader, stored map[string]int64) (map[string]int64, error) {
	if len(stored) == 0 {
		return nil, nil
	}
	docs, err := r.Docs(slices.Sorted(maps.Values(stored)))
	if err != nil {
		return nil, err
	}
	var places map[string]int64
	for _, d := range docs {
		if d.Place != 0 {
			if places == nil {
				places = map[string]int64{}
			}
			places[d.ID] = d.Place
		}
	}
	return places, nil
}

// checkedMatch is the match of a checked document before its pairs, and
// its place in the order of publication. A document whose ID is stored
// is reported as Add reports it: Exists when it is the stored one, else
// Conflict with the fields in which it differs (differs, see
// Index.conflicts), whose stored cluster and original are another
// document's, never reported (see storedRoles). Either takes the place of
// its stored copy (its own date, the copy's ordinal and place, which
// places gives by ID when it has one: see storedPlaces), as if it replaced
// it: that copy is no match of its own (see others). Any other is
// Checked, placed after every stored document of its date.
func checkedMatch(d *core.Document, sk *Sketch, stored, places map[string]int64, differs []string) (Match, published) {
	m := Match{ID: d.ID, Status: Checked, Skip: sk.Skip(), Pairs: []core.Pair{}}
	if ord, ok := stored[d.ID]; ok {
		m.Status = Exists
		if len(differs) > 0 {
			m.Status, m.Differs = Conflict, differs
		}
		return m, published{unixOrZero(d), ord, places[d.ID]}
	}
	return m, checked(d)
}

// others returns hits without the hit of the stored document at me, a
// checked document's own stored copy. It copies hits only when it leaves
// one out.
func others(hits []engine.Hit, me published) []engine.Hit {
	i := slices.IndexFunc(hits, func(h engine.Hit) bool { return h.Other == me.ord })
	if i < 0 {
		return hits
	}
	return slices.Concat(hits[:i], hits[i+1:])
}
