package index

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/store"
)

func (x *Index) add(ctx context.Context, docs []core.Document, given []Sketch, o AddOptions) ([]Match, error) {
	if err := CheckStorable(docs); err != nil {
		if u := (*UnstorableError)(nil); errors.As(err, &u) {
			u.Doc += o.First
		}
		return nil, err
	}
	if x.meta.Method == "" { // opened with Existing on a store that held nothing: it chooses no method
		err := x.st.View(ctx, x.blankSince)
		if err == nil {
			err = ErrNoSettings
		}
		return nil, err
	}
	sks, err := x.sketches(docs, given)
	if err != nil {
		return nil, err
	}
	var outs []Match
	var first *firstWriter
	err = x.update(ctx, func(w store.Writer) error {
		if x.bind != nil { // still none stored (update caught up): this add's first document stores them
			first = &firstWriter{Writer: w, meta: x.meta}
			w = first
		}
		if err := x.admit(sks); err != nil {
			x.dirty = false // caught up, nothing changed: the in-memory index is the store's
			return err
		}
		outs = make([]Match, len(docs))
		ids := make([]string, len(docs))
		for i := range docs {
			ids[i] = docs[i].ID
		}
		stored, err := w.Lookup(ids)
		if err != nil {
			return err
		}
		var ex *exactKeys
		if o.Exact {
			if ex, err = newExactKeys(w, docs, sks, o.Slug); err != nil {
				return err
			}
		}
		var same map[int]int64
		var differ map[int][]string
		switch {
		case o.Replace && !o.Exact: // an exact add stores its keys, which a document stored without them lacks
			same, err = x.unchanged(w, docs, sks, stored)
		case !o.Replace:
			differ, err = x.conflicts(w, docs, sks, stored)
		}
		if err != nil {
			return err
		}
		at := now()
		added := make([]int64, len(docs))     // by document: its ordinal (an Exists or Unchanged one's stored), 0 when not stored
		mine := map[string]int{}              // ID → the document of this add stored (or left Unchanged) under it
		formers := map[string]formerCluster{} // ID → the cluster its version stored before the add was in, once replaced
		for i := range docs {
			d := &docs[i]
			outs[i] = Match{ID: d.ID, Status: Added, Pairs: []core.Pair{}}
			if sks[i].Skip() == core.SkipEmpty {
				outs[i].Status, outs[i].Skip = Skipped, core.SkipEmpty
				continue
			}
			var place int64       // the place among the documents of its date: its ordinal's
			var was formerCluster // of the version replaced: the cluster it was in before the add, for its numbering
			var cur formerCluster // of the version replaced: the cluster it is in when replaced
			if prev, ok := stored[d.ID]; ok {
				if !o.Replace {
					diff := differ[i]
					if j, ok := mine[d.ID]; ok { // stored by this add: compared with it, not with what was stored before
						diff = x.differs(x.docRow(d, &sks[i], 0), x.docRow(&docs[j], &sks[j], 0))
					}
					if len(diff) > 0 {
						// Another document under a stored ID: left out,
						// reported, never taken for the stored one.
						outs[i].Status, outs[i].Differs = Conflict, diff
						continue
					}
					// Left as stored; its cluster and original are reported.
					outs[i].Status, added[i] = Exists, prev
					continue
				}
				if same[i] == prev {
					// Left as stored, in its place among the documents
					// of its date; its cluster and original are reported.
					outs[i].Status, added[i], mine[d.ID] = Unchanged, prev, i
					continue
				}
				// The new version keeps the place of the one it
				// replaces among the documents of its date, as one left
				// Unchanged does: which of a tie is the original does not
				// change with a correction.
				olds, err := w.Docs([]int64{prev})
				if err != nil {
					return err
				}
				if len(olds) > 0 {
					place = olds[0].Rank()
					// The cluster the replaced version is in now, which
					// the new version is placed again with (placeAgain).
					if cur, err = formerOf(w, &olds[0]); err != nil {
						return err
					}
				}
				if k, ok := mine[d.ID]; ok && added[k] == prev && outs[k].Status != Unchanged {
					// The version an earlier document of this add stored:
					// numbered as the one stored before the add (none when
					// the add stored the ID first).
					was = formers[d.ID]
				} else if len(olds) > 0 {
					was = cur
					formers[d.ID] = was
				}
				made, err := x.removeOrds(w, []int64{prev})
				if err != nil {
					return err
				}
				if err := ex.forget(w, prev); err != nil {
					return err
				}
				// A match found by an earlier document of this add with
				// the version removed is not stored: the replacing
				// version is compared with that document below and
				// reports the pair when it stands. The marks the removal
				// made in its place (see heirs) are reported instead.
				for k := range i {
					outs[k].Pairs = slices.DeleteFunc(outs[k].Pairs, func(p core.Pair) bool { return p.A == d.ID || p.B == d.ID })
				}
				status := Replaced
				if k, ok := mine[d.ID]; ok && added[k] == prev {
					// Stored by an earlier document of this add, or left
					// Unchanged by one: not stored in the end. This one
					// takes its place, added when it was, as what the
					// add did of the ID is what it stores in the end.
					if outs[k].Status == Added {
						status = Added
					}
					outs[k], added[k] = Match{ID: d.ID, Status: Superseded, Pairs: []core.Pair{}}, 0
				}
				if err := x.reportMade(w, outs[:i], added[:i], made); err != nil {
					return err
				}
				outs[i].Status = status
			}
			var ord int64
			orig, ev, err := ex.copyOf(i, unixOrZero(d), func(ord int64) (*store.Doc, error) {
				docs, err := w.Docs([]int64{ord})
				if err != nil || len(docs) == 0 {
					return nil, err
				}
				return &docs[0], nil
			})
			if err != nil {
				return err
			}
			if orig != nil {
				ord, err = x.addCopy(w, d, &sks[i], at, place, orig, ev, &outs[i])
			} else {
				ord, err = x.addOne(w, d, &sks[i], at, place, &outs[i])
			}
			if err != nil {
				return blame(o.First+i, d, err)
			}
			if place != 0 { // a new version, placed where its old one was
				if outs[i].Cluster, err = x.placeAgain(w, ord, cur, outs[i].Cluster); err != nil {
					return err
				}
			}
			if was.id != 0 {
				if outs[i].Cluster, err = keepClusterID(w, ord, was); err != nil {
					return err
				}
			}
			stored[d.ID], added[i], mine[d.ID] = ord, ord, i
			if err := ex.stored(w, i, ord); err != nil {
				return err
			}
		}
		if err := x.settle(w, outs, added); err != nil {
			return err
		}
		if o.Then != nil {
			if err := o.Then(w, outs); err != nil {
				return err
			}
		}
		return relabelAdded(w, outs, added)
	})
	if err != nil {
		return nil, err // nothing is stored: no document was added
	}
	if first != nil && first.stored {
		x.bind = nil // committed with the documents
		x.metaMu.Lock()
		x.meta = first.meta // its Created, when they were
		x.metaMu.Unlock()
	}
	return outs, nil
}

// ErrNoSettings is the error of an add to an Index opened with
// OpenOptions.Existing on a store that holds no settings: it chooses no
// method, which an Index opened without Existing does.
var ErrNoSettings = errors.New("index: no method chosen: the index was opened to exist already and holds no settings; " +
	"open it without Existing to add documents")

// firstWriter is the store.Writer of an add to an index that holds no
// settings yet: its first Insert stores meta first, so that the settings
// commit with the first documents, and an add that stores none (it fails,
// or every document is skipped as empty or stored already) leaves the
// index bound to no settings, as if new. The writer lock its transaction
// holds makes the first add of two processes store its settings and the
// other's judge them (see Index.bound).
type firstWriter struct {
	store.Writer
	meta   store.Meta
	stored bool
}

// Insert stores the settings before the first document, created when
// it is stored.
func (w *firstWriter) Insert(d *store.Doc, sk *store.Sketch) (int64, error) {
	if !w.stored {
		w.meta.Created = time.Now().Unix()
		if err := w.Writer.Init(w.meta); err != nil {
			return 0, fmt.Errorf("storing the index's settings: %w", err)
		}
		w.stored = true
	}
	return w.Writer.Insert(d, sk)
}

// admit returns the method's error when it cannot compare the documents
// the index holds once those sketched as sks are added (see
// engine.Method.Admit): rarewords, made without SameSource, given
// documents without a source where none stored has one. The add is then
// refused, as a Batch of those documents is, before anything is stored.
func (x *Index) admit(sks []Sketch) error {
	lsks := make([]engine.LiveSketch, len(sks))
	for i := range sks {
		lsks[i] = sks[i].sk
	}
	return x.live.Admit(lsks)
}

// unchanged returns, by the index of a document of docs given with
// Replace, the ordinal of the stored document of its ID when it would
// replace it by the same document (a later document of the add with that
// ID compares with the stored one only while it is stored): the same
// title, URL, source and date, and the same text (when the index stores
// texts; else of the same length and content hash, which ignores runs of
// white space and the case of ASCII letters). Such a
// document is left as stored rather than stored anew, which would give
// it another ordinal (its cluster, maybe, another id) and match it again;
// a document stored anew keeps the place of the one it replaces among the
// documents of its date, the tie-break of dates (see store.Doc.Place).
func (x *Index) unchanged(r store.Reader, docs []core.Document, sks []Sketch, stored map[string]int64) (map[int]int64, error) {
	var same map[int]int64
	err := eachStored(r, docs, stored, func(i int, old *store.Doc) {
		row := x.docRow(&docs[i], &sks[i], old.Added)
		row.Ord, row.Skip, row.Cluster, row.Place = old.Ord, old.Skip, old.Cluster, old.Place
		if *row == *old {
			if same == nil {
				same = map[int]int64{}
			}
			same[i] = old.Ord
		}
	})
	return same, err
}

// eachStored calls fn with the index of each document of docs whose ID is
// stored (stored maps it to its ordinal) and the stored document of that
// ID, with its text when the index stores texts.
func eachStored(r store.Reader, docs []core.Document, stored map[string]int64, fn func(i int, old *store.Doc)) error {
	for i := range docs {
		if _, ok := stored[docs[i].ID]; !ok {
			continue
		}
		old, err := r.Doc(docs[i].ID)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		fn(i, &old)
	}
	return nil
}

// conflicts returns, by the index of a document of docs given without
// Replace whose ID is stored (stored maps it to its ordinal), the fields
// in which it differs from the stored document of its ID (see differs),
// when it does: another document under a stored ID, which Add reports as a
// Conflict rather than as the stored one (Exists).
func (x *Index) conflicts(r store.Reader, docs []core.Document, sks []Sketch, stored map[string]int64) (map[int][]string, error) {
	var out map[int][]string
	err := eachStored(r, docs, stored, func(i int, old *store.Doc) {
		if diff := x.differs(x.docRow(&docs[i], &sks[i], 0), old); len(diff) > 0 {
			if out == nil {
				out = map[int][]string{}
			}
			out[i] = diff
		}
	})
	return out, err
}

// differs names the fields in which two documents' rows of one ID differ,
// of those the input gives: "title", "url", "source", "date" (to the
// second) and "text" (in an index without texts, a text of another length
// or content hash, which ignores runs of white space and the case of ASCII
// letters); nil when they are the same document.
func (x *Index) differs(a, b *store.Doc) []string {
	var diff []string
	for _, f := range []struct {
		name string
		same bool
	}{
		{"title", a.Title == b.Title},
		{"url", a.URL == b.URL},
		{"source", a.Source == b.Source},
		{"date", a.Date == b.Date},
		// The hash is of the title and text: of another title it tells
		// nothing of the text.
		{"text", a.Length == b.Length && (x.meta.StoreText && a.Text == b.Text ||
			!x.meta.StoreText && (a.Hash == b.Hash || a.Title != b.Title))},
	} {
		if !f.same {
			diff = append(diff, f.name)
		}
	}
	return diff
}

// blame returns err, the error of storing the i-th document of an add,
// naming the document; or, when the add's context ended (the store's
// error holds the context's), the context's error alone, as SQLite and
// PostgreSQL give it at other steps: the add was stopped, and the
// document is not at fault.
func blame(i int, d *core.Document, err error) error {
	for _, stop := range []error{context.Canceled, context.DeadlineExceeded} {
		if errors.Is(err, stop) {
			return stop
		}
	}
	return fmt.Errorf("%s: %w", named(i, d), err)
}

// named names the i-th document of an add (from 0, AddOptions.First
// included) in an error: by its origin, else by its position (from 1) and
// ID, as a caller of the library's Add, whose documents have no origin,
// knows it.
func named(i int, d *core.Document) string {
	if d.Origin != "" {
		return d.Origin
	}
	return fmt.Sprintf("document %d (id %q)", i+1, d.ID)
}

// settle names the original (and the copies) of the cluster each stored
// document of an add is in, once every document is stored: reading them
// makes the store write the rows it holds back, so it is done once an add,
// not once a document.
func (x *Index) settle(w store.Writer, outs []Match, added []int64) error {
	if len(outs) == 1 && outs[0].Status != Exists && outs[0].Status != Unchanged {
		if added[0] == 0 {
			return nil
		}
		return x.original(w, &outs[0])
	}
	return settleRoles(w, outs, added)
}

// settleRoles sets the cluster and the original of each document an add
// stored or found stored (Exists), added[i] the ordinal of outs[i] (0: not
// stored), as they are once every document is: a later document of the
// add may have merged an earlier one's cluster into another, put it in a
// cluster, or been published before the members of its cluster.
func settleRoles(w store.Reader, outs []Match, added []int64) error {
	var ords []int64
	for _, ord := range added {
		if ord != 0 {
			ords = append(ords, ord)
		}
	}
	docs, err := w.Docs(ords)
	if err != nil {
		return err
	}
	clusters := make(map[int64]int64, len(docs)) // ordinal → cluster
	for _, d := range docs {
		clusters[d.Ord] = d.Cluster
	}
	originals := map[int64]string{} // cluster → its original
	for i, ord := range added {
		c, ok := clusters[ord]
		if !ok {
			continue // not stored, or replaced by a later document of the add
		}
		outs[i].Cluster, outs[i].Original = c, ""
		if c == 0 {
			continue
		}
		if _, ok := originals[c]; !ok {
			o, err := w.Original(c)
			if err != nil {
				return err
			}
			originals[c] = o.ID
		}
		outs[i].Original = originals[c]
		if err := copiesOf(w, &outs[i]); err != nil {
			return err
		}
	}
	return nil
}

// addOne matches, stores and indexes one document, at place among the
// documents of its date (store.Doc.Place; 0: its own ordinal's).
func (x *Index) addOne(w store.Writer, d *core.Document, sk *Sketch, at, place int64, out *Match) (int64, error) {
	row := x.docRow(d, sk, at)
	row.Place = place
	if skip := sk.sk.Skip(); skip != core.SkipNone {
		row.Skip, out.Skip = skip, skip
		return w.Insert(row, nil)
	}
	index, detail := sk.sk.Encoded()
	// The writer alone changes the in-memory index: it reads it (match)
	// without a lock, and changes it under one, which checks wait for.
	var p engine.Pending
	if err := x.changing(func() (err error) {
		p, err = x.live.Begin(sk.sk, d)
		return err
	}); err != nil {
		return 0, err
	}
	if err := x.readDates(w); err != nil {
		return 0, err
	}
	var det engine.Details = details{w}
	if place != 0 { // a new version, placed before the documents stored since
		det = placedBefore{details{w}, place, x.meta.StoreText}
	}
	hits, err := x.live.Match(p, d, det)
	if err != nil {
		return 0, err
	}
	ord, err := w.Insert(row, &store.Sketch{Index: index, Detail: detail})
	if err != nil {
		return 0, err
	}
	x.changing(func() error {
		x.live.Commit(p, ord)
		return nil
	})
	return ord, x.mark(w, published{row.Date, ord, place}, hits, out)
}

// docRow is what the store keeps of a document.
func (x *Index) docRow(d *core.Document, sk *Sketch, at int64) *store.Doc {
	row := &store.Doc{ID: d.ID, Source: d.Source, URL: d.URL, Title: d.Title, Date: unixOrZero(d), Added: at,
		Lang: string(sk.lang), Hash: sk.hash, Length: len(d.Text)}
	if x.meta.StoreText {
		row.Text = d.Text
	}
	return row
}

// published is a document's place in the order of publication (see
// cluster.ComparePublished): its date (Unix seconds, 0 when unknown) and
// its place among the documents of that date (store.Doc.Rank): place,
// else its ordinal ord.
type published struct{ date, ord, place int64 }

// checked is the place of a document checked and not stored: after every
// stored document of its date.
func checked(d *core.Document) published { return published{unixOrZero(d), math.MaxInt64, 0} }

// original returns the original of a pair of label l of stored document
// d and the document at p of the given ID: the one published first; ""
// for a similar pair.
func (p published) original(d *store.Doc, id string, l core.Label) string {
	switch {
	case l != core.Duplicate:
		return ""
	case cluster.ComparePublished(d.Date, d.Rank(), p.date, cmp.Or(p.place, p.ord)) < 0:
		return d.ID
	}
	return id
}

// mark stores the marks of document me, puts it in the cluster of its
// duplicates, and fills out.
func (x *Index) mark(w store.Writer, me published, hits []engine.Hit, out *Match) error {
	if len(hits) == 0 {
		return nil
	}
	ord := me.ord
	marks := make([]store.Mark, len(hits))
	at := now()
	for i, h := range hits {
		ev, err := json.Marshal(h.Evidence)
		if err != nil {
			return err
		}
		marks[i] = store.Mark{A: h.Other, B: ord, Method: x.spec.Name, Score: h.Shown, Label: h.Label,
			Evidence: ev, At: at}
	}
	if err := w.AddMarks(marks); err != nil {
		return err
	}
	others, err := x.pairs(w, out, me, hits, true)
	if err != nil {
		return err
	}
	var dups []*store.Doc
	var scores []float64
	for i, h := range hits {
		if h.Label == core.Duplicate {
			dups = append(dups, others[i])
			scores = append(scores, core.Round(h.Score))
		}
	}
	out.Cluster, err = x.place(w, ord, dups, scores, false)
	return err
}

// original names in out the original of the cluster out joined, if any:
// read in the transaction that stored the document, it is the document
// itself when it was published before every member.
func (x *Index) original(r store.Reader, out *Match) error {
	if out.Cluster == 0 {
		return nil
	}
	d, err := r.Original(out.Cluster)
	if err != nil {
		return err
	}
	out.Original = d.ID
	return copiesOf(r, out)
}

// copiesOf names in out.Copies the other members of its cluster when the
// document is that cluster's original: stored before it, they copy it.
func copiesOf(r store.Reader, out *Match) error {
	out.Copies = nil
	if out.Cluster == 0 || out.Original != out.ID {
		return nil
	}
	ords, err := r.Members(out.Cluster)
	if err != nil || len(ords) < 2 {
		return err
	}
	docs, err := r.Docs(ords)
	if err != nil {
		return err
	}
	for _, d := range docs {
		if d.ID != out.ID {
			out.Copies = append(out.Copies, d.ID)
		}
	}
	return nil
}

// place puts document ord in a cluster by its duplicates, dups, with their
// scores, by the index's linking policy, and returns the cluster's id (0:
// none). copied says ord is an exact copy of dups[0], its one duplicate
// (see cluster.Link.Copy).
func (x *Index) place(w store.Writer, ord int64, dups []*store.Doc, scores []float64, copied bool) (int64, error) {
	if x.link == cluster.Any {
		return join(w, ord, dups)
	}
	return x.joinOne(w, ord, dups, scores, copied)
}

// pairs appends to out's pairs the pairs of hits, reading the stored
// documents they name in r, and returns those documents, by hit; me is the
// place of out's document in the order of publication, which says the
// original of each duplicate pair. A hit of a document no longer stored is
// an error when all, else left out (nil).
func (x *Index) pairs(r store.Reader, out *Match, me published, hits []engine.Hit, all bool) ([]*store.Doc, error) {
	if len(hits) == 0 {
		return nil, nil
	}
	ords := make([]int64, len(hits))
	for i, h := range hits {
		ords[i] = h.Other
	}
	docs, err := r.Docs(ords)
	if err != nil {
		return nil, err
	}
	byOrd := make(map[int64]*store.Doc, len(docs))
	for i := range docs {
		byOrd[docs[i].Ord] = &docs[i]
	}
	others := make([]*store.Doc, len(hits))
	for i, h := range hits {
		d := byOrd[h.Other]
		if d == nil {
			if all {
				return nil, fmt.Errorf("matched document %d is not stored", h.Other)
			}
			continue
		}
		others[i] = d
		out.Pairs = append(out.Pairs, me.pair(d, core.Pair{A: d.ID, B: out.ID, Method: x.spec.Name, Score: h.Shown,
			Label: h.Label, Original: me.original(d, out.ID, h.Label), Evidence: h.Evidence}))
	}
	return others, nil
}

// pair returns p, a pair of stored document d (its A) and the document at
// me (its B), as an export writes it (see exportMark): the one placed
// first as A, its evidence read that way round. A document matched is
// placed after d unless it is a new version placed where the version it
// replaced stood, before d.
func (me published) pair(d *store.Doc, p core.Pair) core.Pair {
	if cmp.Or(me.place, me.ord) < d.Rank() {
		p.A, p.B, p.Evidence = p.B, p.A, reversedEvidence(p.Evidence)
	}
	return p
}

// join puts document ord in one cluster with its duplicates, as
// cluster.Choose does with Any: the oldest of their clusters, into which
// the others merge, or a new one.
func join(w store.Writer, ord int64, dups []*store.Doc) (int64, error) {
	if len(dups) == 0 {
		return 0, nil
	}
	var cands []cluster.Candidate
	for _, d := range dups {
		if d.Cluster != 0 && !slices.ContainsFunc(cands, func(c cluster.Candidate) bool { return c.Key == d.Cluster }) {
			cands = append(cands, cluster.Candidate{Key: d.Cluster, Size: 1, Links: 1})
		}
	}
	target := int64(0)
	if i := cluster.Choose(cluster.Any, 0, cands); i >= 0 {
		target = cands[i].Key
	} else {
		var err error
		if target, err = w.NewCluster(); err != nil {
			return 0, err
		}
	}
	set := []int64{ord}
	moved := map[int64]bool{}
	for _, d := range dups {
		switch {
		case d.Cluster == 0:
			set = append(set, d.Ord)
		case d.Cluster != target && !moved[d.Cluster]:
			moved[d.Cluster] = true
			if err := w.MoveCluster(d.Cluster, target); err != nil {
				return 0, err
			}
		}
	}
	return target, w.SetCluster(set, target)
}

// joinOne puts document ord, whose duplicates are dups with their scores,
// in the one cluster cluster.Choose picks by the index's policy (not Any),
// as a cluster.Linker does: a duplicate in no cluster is a cluster of one,
// each cluster is named by its first member in place order (store.First:
// a new version stands first where the version it replaced stood, though
// stored last), none merge, and a duplicate counts for the exact copies in
// its cluster that stand for it (see copiesStanding); copied says ord is
// an exact copy of its one duplicate. It returns the cluster's id, or 0
// when the policy admits none.
func (x *Index) joinOne(w store.Writer, ord int64, dups []*store.Doc, scores []float64, copied bool) (int64, error) {
	var cands []cluster.Candidate         // keyed by the place of their first member
	var ids, firsts []int64               // by candidate: the cluster's id (0 for a cluster of one), its first member
	lists := map[int64][]int64{}          // by cluster: its members, read once
	leads := map[int64][2]int64{}         // by cluster: its first member in place order and its place
	standing := map[int64]map[int64]int{} // by cluster: the copies a link to each member counts for
	for i, d := range dups {
		first, key, size, links := d.Ord, d.Rank(), 1, 1
		if d.Cluster != 0 {
			ms, ok := lists[d.Cluster]
			if !ok {
				var err error
				if ms, err = w.Members(d.Cluster); err != nil {
					return 0, err
				}
				lists[d.Cluster] = ms
				var lead [2]int64
				if lead[0], lead[1], err = w.First(d.Cluster); err != nil {
					return 0, err
				}
				leads[d.Cluster] = lead
			}
			first, key, size = leads[d.Cluster][0], leads[d.Cluster][1], len(ms)
			if !copied { // a copy's one link counts for itself
				counts, ok := standing[d.Cluster]
				if !ok {
					var err error
					if counts, err = copiesStanding(w, ms); err != nil {
						return 0, err
					}
					standing[d.Cluster] = counts
				}
				links += counts[d.Ord]
			}
		}
		k := slices.IndexFunc(cands, func(c cluster.Candidate) bool { return c.Key == key })
		if k < 0 {
			cands = append(cands, cluster.Candidate{Key: key, Size: size, Best: scores[i]})
			ids, firsts = append(ids, d.Cluster), append(firsts, first)
			k = len(cands) - 1
		}
		c := &cands[k]
		c.Links += links
		c.Anchored = c.Anchored || d.Ord == first
		c.Copy = c.Copy || copied
		c.Best = max(c.Best, scores[i])
	}
	k := cluster.Choose(x.link, x.live.BucketLimit(), cands)
	if k < 0 {
		return 0, nil
	}
	if ids[k] != 0 {
		return ids[k], w.SetCluster([]int64{ord}, ids[k])
	}
	id, err := w.NewCluster()
	if err != nil {
		return 0, err
	}
	return id, w.SetCluster([]int64{firsts[k], ord}, id)
}
