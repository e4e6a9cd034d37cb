package index

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/store"
)

// Repaired is what Repair mended.
type Repaired struct {
	// Lines are the faults mended, one a line as Verify lists them, each
	// followed by what was done: "sketched again from its stored text",
	// "removed", "place cleared", "mark removed", "mark made again",
	// "cleared", "deleted", "clusters placed again".
	Lines []string
	// Removed are the IDs of the documents removed, as their damaged
	// records read: to add again from their source.
	Removed []string
	// Sketched counts the documents whose sketch was made again from
	// their stored text.
	Sketched int
	// Places counts the documents whose impossible place was cleared, the
	// rest of their record sound: each ranks among the documents of its
	// date by its ordinal since (store.Repairer.ClearPlace).
	Places int
	// Marks counts the damaged marks removed or made again, Entries the
	// entries of the change log cleared, LeftOver the rows stored for no
	// document deleted, Clusters the faults of clusters mended by placing
	// every cluster again.
	Marks, Entries, LeftOver, Clusters int
}

// ErrStoreDamaged is Repair's error for an index whose store finds damage
// of its own (SQLite's integrity check: its pages, B-trees or indexes),
// which no record's checksum names: Repair does not mend it.
var ErrStoreDamaged = errors.New("index: the store's own check finds damage that repair does not mend: restore the index from a copy, or add its documents to a new one")

// Repair mends the records of the index st holds that do not match their
// checksums, in one transaction, so that the index loads again and Verify
// finds them no more:
//
//   - a document whose sketch alone is damaged, in an index that stores
//     texts, is sketched again from its stored text, as its add sketched
//     it, and keeps its marks and cluster;
//   - a document whose record matches its checksum but holds a place no
//     write stores (0, below 0, not below its own ordinal) has its place
//     cleared, and its checksum written again for the record without one:
//     it keeps its text, sketch, marks and cluster, and ranks among the
//     documents of its date by its ordinal (store.Repairer.ClearPlace);
//   - any other document with damage (its record, its text, a sketch it
//     has no text to make again from) is removed as Remove removes one,
//     an exact copy taking its place when it was their original (see
//     heirs), and named in Repaired.Removed;
//   - a damaged exact mark between two documents left is made again (by
//     their content, else their URL, else as a copy by slug); any other
//     damaged mark is removed; the clusters that change are placed again;
//   - an entry of the change log whose part is damaged is cleared (another
//     process then loads its index again), and a detail part or text of no
//     document is deleted.
//
// Then, in a second transaction, it mends what Verify's consistency checks
// find: a mark that names a document not stored, is out of the order of
// adds, of another label or whose evidence does not decode is removed; a
// compared document whose sketch does not decode (or is missing) is
// sketched again from its stored text, else removed; and every cluster is
// placed again when a mark went or a cluster is not its duplicate marks'
// group. In each transaction the feed items made into the documents whose
// marks or cluster it changed take the outcome of their document's role
// then (see relabelJudged). Repaired says what committed, with an error
// too.
//
// An index without such faults is left as it is. Damage the store
// itself finds (SQLite's integrity check), or that stops the check of the
// records part way, is ErrStoreDamaged, and nothing is changed. The in-memory index is not loaded: Repair works on an index
// that does not load. specs are the methods the binary knows.
func Repair(ctx context.Context, st store.Store, specs []engine.Spec) (Repaired, error) {
	var out Repaired
	faults, err := st.Check(ctx)
	if errors.Is(err, store.ErrCorrupt) {
		return out, fmt.Errorf("%w: %w", ErrStoreDamaged, err) // damage that stops the check
	}
	if err != nil {
		return out, err
	}
	if faults.Engine > 0 {
		return out, fmt.Errorf("%w (%s)", ErrStoreDamaged, faults.List[0])
	}
	// No minimum length: a stored sketch says its add compared the text,
	// under a minimum this index does not keep (OpenOptions.MinChars).
	x, err := build(ctx, st, specs, OpenOptions{Existing: true, MinChars: -1})
	if errors.Is(err, ErrNoMethod) && faults.Total == 0 {
		return out, nil // feeds alone, sound
	}
	if err != nil {
		return out, err
	}
	// The in-memory index stays empty: it is taken as loaded up to the
	// head, so that the writes load nothing damaged.
	x.partial = true
	err = st.View(ctx, func(r store.Reader) (err error) {
		x.lastOrd, x.lastRemoval, err = r.Head()
		return err
	})
	if err != nil {
		return out, err
	}
	// The records first, then, once they are sound, what the index's
	// consistency checks find. Each is looked for in a snapshot first, so
	// that a sound index is not held from other writers while it is read.
	for i, mend := range []func(w store.Writer, out *Repaired) error{x.repair, x.mendIndex} {
		if i == 0 && faults.Total == 0 {
			continue
		}
		if i == 1 {
			var f faultList
			if err := st.View(ctx, func(r store.Reader) error { return x.checkIndex(r, &f, nil) }); err != nil {
				return out, err
			}
			if !f.mendable() {
				continue
			}
		}
		var part Repaired
		err = x.st.Update(ctx, func(w store.Writer) error {
			part = Repaired{}
			if err := x.catchUp(w); err != nil {
				return err
			}
			return mend(w, &part)
		})
		if err != nil {
			return out, err // what committed before
		}
		out.add(part)
	}
	return out, nil
}

// add adds what another transaction of the repair mended to r.
func (r *Repaired) add(o Repaired) {
	r.Lines = append(r.Lines, o.Lines...)
	r.Removed = append(r.Removed, o.Removed...)
	r.Sketched += o.Sketched
	r.Places += o.Places
	r.Marks += o.Marks
	r.Entries += o.Entries
	r.LeftOver += o.LeftOver
	r.Clusters += o.Clusters
}

// mendIndex mends what the index's consistency checks (Verify's but the
// store's own) find that a repair can mend: a mark that names a document
// not stored, out of the order of adds, of another label or whose evidence
// does not decode is removed; a compared document whose sketch does not
// decode, or is missing, is sketched again from its stored text, else
// removed; and then, or where a cluster is not its duplicate marks'
// group, every cluster is placed again. The feed items of the documents
// whose marks changed, and of those placed again, take the outcome of
// their document's role now (relabelJudged).
func (x *Index) mendIndex(w store.Writer, out *Repaired) error {
	f := &faultList{}
	if err := x.checkIndex(w, f, nil); err != nil {
		return err
	}
	if !f.mendable() {
		return nil
	}
	if err := w.Mend(&store.Damage{Marks: f.marks}); err != nil {
		return err
	}
	var also []int64 // the documents whose marks changed
	for _, m := range f.marks {
		out.Lines = append(out.Lines, m.Fault+": mark removed")
		also = append(also, m.A, m.B)
	}
	out.Marks = len(f.marks)
	remove, err := x.sketchOrRemove(w, f.sketches, out)
	if err != nil {
		return err
	}
	orphans, err := x.adoptOrphans(w, f.orphans, out)
	if err != nil {
		return err
	}
	also = append(also, orphans...)
	if _, err := x.removeOrds(w, remove); err != nil {
		return err
	}
	for _, line := range f.clusters {
		out.Lines = append(out.Lines, line+": clusters placed again")
	}
	out.Clusters = len(f.clusters)
	var placed []int64 // sketches made again change no cluster
	switch {
	case len(f.clusters) > 0:
		placed, err = x.reclusterAll(w)
	case len(also) > 0:
		placed, err = x.reclusterAround(w, also)
	}
	if err != nil {
		return err
	}
	return relabelJudged(w, slices.Concat(also, placed))
}

// adoptOrphans gives each group of exact copies that exact marks join to no
// document compared (their original's record gone) a head: the first is
// sketched from its stored text, as a copy that takes a removed original's
// place is (see heirs), and the others are marked its exact copies; in an
// index without texts the group is removed, named. It returns the
// documents whose marks changed.
func (x *Index) adoptOrphans(w store.Writer, groups [][]int64, out *Repaired) ([]int64, error) {
	var changed, remove []int64
	for _, g := range groups {
		docs, err := readable(w, g)
		if err != nil {
			return nil, err
		}
		head := docs[g[0]]
		if !x.meta.StoreText || head == nil {
			for _, o := range g {
				remove = append(remove, o)
				if d := docs[o]; d != nil {
					out.Removed = append(out.Removed, d.ID)
					out.Lines = append(out.Lines, fmt.Sprintf("document %q is an exact copy joined to no document compared: removed", d.ID))
				}
			}
			continue
		}
		stored, err := w.Doc(head.ID)
		if err != nil {
			return nil, err
		}
		hs := x.sketchStored(&stored)
		if err := w.SetSketch(head.Ord, hs.skip, hs.sk); err != nil {
			return nil, err
		}
		out.Sketched++
		out.Lines = append(out.Lines, fmt.Sprintf("document %q is an exact copy joined to no document compared: sketched from its stored text", head.ID))
		var marks []store.Mark
		for _, o := range g[1:] {
			d := docs[o]
			ev := joinedEvidence(head, d, nil)
			if ev == nil {
				ev, _ = json.Marshal(ExactEvidence{By: "slug"})
			}
			marks = append(marks, exactMark(head.Ord, o, ev))
			if d != nil {
				out.Lines = append(out.Lines, fmt.Sprintf("document %q is an exact copy joined to no document compared: marked a copy of %q", d.ID, head.ID))
			}
		}
		if err := w.AddMarks(marks); err != nil {
			return nil, err
		}
		changed = append(changed, g...)
	}
	if _, err := x.removeOrds(w, remove); err != nil {
		return nil, err
	}
	return changed, nil
}

// reclusterAround places again the clusters of documents ords, and the
// documents their duplicate marks join (see recluster), and returns the
// documents it placed again.
func (x *Index) reclusterAround(w store.Writer, ords []int64) ([]int64, error) {
	docs, err := readable(w, ords)
	if err != nil {
		return nil, err
	}
	var lost, also []int64
	for _, o := range ords {
		d := docs[o]
		if d == nil {
			continue // removed
		}
		also = append(also, o)
		if d.Cluster != 0 {
			lost = append(lost, d.Cluster)
		}
	}
	slices.Sort(lost)
	return x.recluster(w, slices.Compact(lost), also)
}

// sketchOrRemove clears the impossible place of each of docs whose record
// is otherwise sound (store.DamagedDoc.Place), sketches again each that
// sketchAgain can, and returns the others, to be removed, saying so in
// out.
func (x *Index) sketchOrRemove(w store.Writer, docs []store.DamagedDoc, out *Repaired) ([]int64, error) {
	var remove []int64
	for _, doc := range docs {
		if doc.Place != "" {
			if err := w.ClearPlace(doc.Ord); err != nil {
				return nil, err
			}
			out.Places++
		}
		done, removed := "", false
		switch sk := x.sketchAgain(w, &doc); {
		case sk != nil:
			if err := w.Resketch(doc.Ord, sk); err != nil {
				return nil, err
			}
			done = "sketched again from its stored text"
			out.Sketched++
		case doc.Record || doc.Text || doc.Sketch:
			done, removed = "removed", true
			remove = append(remove, doc.Ord)
			out.Removed = append(out.Removed, doc.ID)
			if doc.Place != "" {
				out.Places-- // cleared for sketchAgain's read, but the document goes
			}
		}
		for _, f := range doc.Faults {
			if f == doc.Place && !removed {
				out.Lines = append(out.Lines, f+": place cleared")
			} else {
				out.Lines = append(out.Lines, f+": "+done)
			}
		}
	}
	return remove, nil
}

// reclusterAll places every document with a duplicate mark, and every
// member of a cluster, again (see recluster), and returns the documents it
// placed again.
func (x *Index) reclusterAll(w store.Writer) ([]int64, error) {
	rows, err := allDocs(w, false)
	if err != nil {
		return nil, err
	}
	var lost, also []int64
	for _, d := range rows {
		if d.Cluster != 0 {
			lost = append(lost, d.Cluster)
		}
	}
	err = w.EachMark(func(m *store.Mark) error {
		if m.Label == core.Duplicate {
			also = append(also, m.A, m.B)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(lost)
	return x.recluster(w, slices.Compact(lost), also)
}

// repair is Repair's transaction.
func (x *Index) repair(w store.Writer, out *Repaired) error {
	d, err := w.Damage()
	if err != nil || d.Empty() {
		return err
	}
	if err := w.Mend(&d); err != nil {
		return err
	}
	for _, e := range d.Entries {
		out.Lines = append(out.Lines, e.Fault+": cleared")
	}
	for _, l := range d.LeftOver {
		out.Lines = append(out.Lines, l.Fault+": deleted")
	}
	out.Entries, out.LeftOver = len(d.Entries), len(d.LeftOver)
	// Exact marks are made again before the removals, so that a copy whose
	// damaged original goes takes its place (see heirs).
	remade, err := x.exactAgain(w, d.Marks, d.Docs)
	if err != nil {
		return err
	}
	remove, err := x.sketchOrRemove(w, d.Docs, out)
	if err != nil {
		return err
	}
	gone := map[int64]bool{}
	for _, o := range remove {
		gone[o] = true
	}
	if _, err := x.removeOrds(w, remove); err != nil {
		return err
	}
	return x.remark(w, d.Marks, remade, gone, out)
}

// exactAgain makes again, and stores, each damaged exact mark (removed by
// Mend) between two stored documents, its evidence what the two share
// (their content, else their URL), else a slug when either record is
// damaged or they share neither; docs are the damaged documents. It
// returns the marks made again, by their index in marks.
func (x *Index) exactAgain(w store.Writer, marks []store.DamagedMark, docs []store.DamagedDoc) (map[int]bool, error) {
	damaged := map[int64]bool{}
	for _, d := range docs {
		damaged[d.Ord] = true
	}
	var ords []int64
	for _, m := range marks {
		if m.Method == ExactMethod {
			ords = append(ords, m.A, m.B)
		}
	}
	if len(ords) == 0 {
		return nil, nil
	}
	sound, err := readable(w, ords)
	if err != nil {
		return nil, err
	}
	stored := func(o int64) bool { return sound[o] != nil || damaged[o] }
	remade := map[int]bool{}
	var again []store.Mark
	for i, m := range marks {
		if m.Method != ExactMethod || !stored(m.A) || !stored(m.B) {
			continue
		}
		ev := joinedEvidence(sound[m.A], sound[m.B], nil)
		if ev == nil {
			ev, _ = json.Marshal(ExactEvidence{By: "slug"})
		}
		again = append(again, exactMark(m.A, m.B, ev))
		remade[i] = true
	}
	return remade, w.AddMarks(again)
}

// sketchAgain returns the sketch of a damaged document made again from its
// stored text, or nil when it cannot be: its record or text is damaged
// too, or the index keeps no texts.
func (x *Index) sketchAgain(r store.Reader, doc *store.DamagedDoc) *store.Sketch {
	if !x.meta.StoreText || doc.Record || doc.Text || !doc.Sketch {
		return nil
	}
	stored, err := r.Doc(doc.ID)
	if err != nil || stored.Ord != doc.Ord || stored.Skip != core.SkipNone {
		return nil
	}
	return x.sketchStored(&stored).sk
}

// remark places again the clusters of the documents left of every
// damaged mark, which Mend removed and exactAgain may have made again
// (remade, by index in marks), gives the feed items of those documents,
// and of the documents placed again, the outcome of their role now
// (relabelJudged), and says what became of each mark. gone are the
// documents removed.
func (x *Index) remark(w store.Writer, marks []store.DamagedMark, remade map[int]bool, gone map[int64]bool, out *Repaired) error {
	var ords []int64
	for i, m := range marks {
		done := "mark removed"
		if remade[i] {
			done = "mark made again"
		}
		out.Lines = append(out.Lines, m.Fault+": "+done)
		for _, o := range []int64{m.A, m.B} {
			if !gone[o] {
				ords = append(ords, o)
			}
		}
	}
	out.Marks = len(marks)
	placed, err := x.reclusterAround(w, ords)
	if err != nil {
		return err
	}
	return relabelJudged(w, slices.Concat(ords, placed))
}
