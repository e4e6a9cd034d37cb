package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/store"
)

// rescore judges every stored pair again with the statistics of the whole
// index as it stands, as a batch run over the stored documents in the order
// they were added would: it replaces the method's marks and the clusters
// (keeping cluster ids where a cluster survives). It holds the writer lock
// while it runs.
func (x *index[S, E]) rescore(ctx context.Context, progress func(done int)) (Stats, error) {
	var st Stats
	err := x.update(ctx, func(w store.Writer) error {
		m, err := x.build()
		if err != nil {
			return err
		}
		b := newBatch(x.spec.Name, m, Grouping{Keep: x.keep, Link: cluster.Any})
		rows, err := allDocs(w, x.meta.StoreText)
		if err != nil {
			return err
		}
		for i := range rows {
			if err := x.addStored(w, b, &rows[i]); err != nil {
				return err
			}
		}
		if err := b.Finish(ctx, progress); err != nil {
			return err
		}
		if _, ok := m.(Explainer[E]); ok && x.meta.StoreText {
			for i := range rows {
				doc := core.Document{ID: rows[i].ID, Title: rows[i].Title, Text: rows[i].Text}
				b.Explain(i, &doc)
			}
		}
		st = b.Stats()
		return x.replaceMarks(w, b, rows)
	})
	return st, err
}

// addStored adds a stored document to a batch with its whole sketch.
func (x *index[S, E]) addStored(r store.Reader, b *batch[S, E], d *store.Doc) error {
	doc := core.Document{ID: d.ID, Origin: fmt.Sprintf("document %d", d.Ord)}
	if d.Date != 0 {
		doc.Date = time.Unix(d.Date, 0)
	}
	var sk Sketch
	if d.Skip != core.SkipNone {
		sk.skip = d.Skip
	} else {
		parts, err := r.Sketch(d.Ord)
		if err != nil {
			return err
		}
		s, err := x.m.DecodeSketch(parts.Index, parts.Detail)
		if err != nil {
			return fmt.Errorf("document %d: %w", d.Ord, err)
		}
		sk.v = s
	}
	if err := b.Add(&doc, sk); err != nil {
		return err
	}
	b.docs.lengths[len(b.docs.lengths)-1] = int32(min(d.Length, 1<<31-1))
	return nil
}

// replaceMarks stores a batch's pairs as the method's marks and its groups
// as the clusters.
func (x *index[S, E]) replaceMarks(w store.Writer, b *batch[S, E], rows []store.Doc) error {
	if err := w.DeleteMarks(x.spec.Name); err != nil {
		return err
	}
	now := time.Now().Unix()
	marks := make([]store.Mark, 0, b.found.n)
	for _, c := range b.found.chunks {
		for _, f := range c {
			ev, err := json.Marshal(f.Ev)
			if err != nil {
				return err
			}
			marks = append(marks, store.Mark{A: rows[f.A].Ord, B: rows[f.B].Ord, Method: x.spec.Name,
				Score: Round(f.Score), Label: f.Label, Evidence: ev, At: now})
		}
	}
	if err := w.AddMarks(marks); err != nil {
		return err
	}
	groups, err := groupsWithCopies(w, b, rows)
	if err != nil {
		return err
	}
	want := make([]int64, len(rows))
	used := map[int64]bool{}
	for _, g := range groups {
		id := int64(0)
		for _, i := range g {
			if c := rows[i].Cluster; c != 0 && !used[c] && (id == 0 || c < id) {
				id = c
			}
		}
		if id == 0 {
			var err error
			if id, err = w.NewCluster(); err != nil {
				return err
			}
		}
		used[id] = true
		for _, i := range g {
			want[i] = id
		}
	}
	changed := map[int64][]int64{}
	for i := range rows {
		if rows[i].Cluster != want[i] {
			changed[want[i]] = append(changed[want[i]], rows[i].Ord)
		}
	}
	for id, ords := range changed {
		if err := w.SetCluster(ords, id); err != nil {
			return err
		}
	}
	return nil
}

// groupsWithCopies returns the clusters of the rescored index: the batch's
// duplicates joined by the marks of exact copies, which a rescore keeps.
func groupsWithCopies[S any, E core.Evidence](r store.Reader, b *batch[S, E], rows []store.Doc) ([][]int32, error) {
	pos := make(map[int64]int32, len(rows))
	for i, d := range rows {
		pos[d.Ord] = int32(i)
	}
	var uf cluster.UnionFind
	uf.Grow(len(rows))
	for _, c := range b.found.chunks {
		for _, f := range c {
			if f.Label == core.Duplicate {
				uf.Union(f.A, f.B)
			}
		}
	}
	err := r.EachMark(func(m *store.Mark) error {
		if m.Method == ExactMethod {
			uf.Union(pos[m.A], pos[m.B])
		}
		return nil
	})
	return uf.Groups(), err
}
