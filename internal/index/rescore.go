package index

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/store"
)

// rescore judges every stored pair again with the statistics of the whole
// index as it stands, as a batch run over the stored documents in place
// order (store.Doc.Rank: a new version stands where the one it replaced
// stood) would, under the window SetWindow set: it replaces the
// method's marks and the clusters (keeping cluster ids where a cluster
// survives), and gives the feed items of every document the outcome of its
// role now (relabelJudged). It holds the writer lock while it runs.
func (x *Index) rescore(ctx context.Context, progress func(done int)) (engine.Stats, error) {
	var st engine.Stats
	err := x.update(ctx, func(w store.Writer) error {
		b, err := x.spec.NewBatchWith(x.cfg, engine.Grouping{Keep: x.keep, Link: cluster.Any, Window: x.window})
		if err != nil {
			return err
		}
		rows, err := allDocs(w, x.meta.StoreText)
		if err != nil {
			return err
		}
		slices.SortStableFunc(rows, func(a, b store.Doc) int { return cmp.Compare(a.Rank(), b.Rank()) })
		for i := range rows {
			if err := addStored(w, b, &rows[i]); err != nil {
				return err
			}
		}
		if err := b.Finish(ctx, progress); err != nil {
			return err
		}
		if x.meta.StoreText {
			for i := range rows {
				doc := core.Document{ID: rows[i].ID, Title: rows[i].Title, Text: rows[i].Text}
				b.Explain(i, &doc)
			}
		}
		st = b.Stats()
		st.Read = len(rows) // each stored document is one record read
		if err := x.replaceMarks(w, b, rows); err != nil {
			return err
		}
		ords := make([]int64, len(rows))
		for i := range rows {
			ords[i] = rows[i].Ord
		}
		return relabelJudged(w, ords)
	})
	return st, err
}

// addStored adds a stored document to a batch with its whole sketch.
func addStored(r store.Reader, b engine.Batch, d *store.Doc) error {
	doc := core.Document{ID: d.ID, Origin: fmt.Sprintf("document %d", d.Ord)}
	if d.Date != 0 {
		doc.Date = time.Unix(d.Date, 0)
	}
	var parts store.Sketch
	if d.Skip == core.SkipNone {
		var err error
		if parts, err = r.Sketch(d.Ord); err != nil {
			return err
		}
	}
	return b.AddStored(&doc, d.Length, d.Skip, parts.Index, parts.Detail)
}

// replaceMarks stores a batch's pairs as the method's marks, each with the
// document stored first as A whatever their places, and its groups as the
// clusters.
func (x *Index) replaceMarks(w store.Writer, b engine.Batch, rows []store.Doc) error {
	if err := w.DeleteMarks(x.spec.Name); err != nil {
		return err
	}
	at := now()
	marks := []store.Mark{}
	links := make([][]cluster.Link, len(rows)) // by later document
	err := b.EachFound(func(a, c int, score float64, label core.Label, ev core.Evidence) error {
		data, err := json.Marshal(ev)
		if err != nil {
			return err
		}
		shown := b.Shown(score, ev)
		ea, eb := rows[a].Ord, rows[c].Ord
		if ea > eb {
			// The batch reads in place order; a mark names the
			// document stored first A, as an add stores it, with
			// the evidence read that way round.
			ea, eb = eb, ea
			if data, err = json.Marshal(reversedEvidence(ev)); err != nil {
				return err
			}
		}
		marks = append(marks, store.Mark{A: ea, B: eb, Method: x.spec.Name,
			Score: shown, Label: label, Evidence: data, At: at})
		if label == core.Duplicate {
			links[max(a, c)] = append(links[max(a, c)], cluster.Link{Other: int32(min(a, c)), Score: core.Round(score)})
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := w.AddMarks(marks); err != nil {
		return err
	}
	groups, err := x.groupsWithCopies(w, links, rows)
	if err != nil {
		return err
	}
	return renumber(w, rows, groups)
}

// renumber puts rows, stored documents, in groups (of positions in rows,
// ordered by their first member), as a rescore and a removal place them:
// each group in turn takes the oldest (smallest) cluster id that one of its
// members is in and no group before it took, else a new id, so that a
// cluster that survives whole keeps its id, the first part of one split
// keeps it, and merged ones keep the oldest; a row in no group leaves its
// cluster. Only the rows whose cluster changes are written.
func renumber(w store.Writer, rows []store.Doc, groups [][]int32) error {
	had := make([]int64, len(rows))
	for i := range rows {
		had[i] = rows[i].Cluster
	}
	return renumberFrom(w, rows, had, groups)
}

// renumberFrom is renumber by the cluster ids the rows had, by row, where
// they differ from those they are in (see keepClusterID). A group none of
// whose ids had is free keeps the id it is in, when its rows are in one and
// no group before it took it (one the add made: the part of a cluster split
// that holds the new version), else it takes a new one.
func renumberFrom(w store.Writer, rows []store.Doc, had []int64, groups [][]int32) error {
	want := make([]int64, len(rows))
	used := map[int64]bool{}
	for _, g := range groups {
		id := int64(0)
		for _, i := range g {
			if c := had[i]; c != 0 && !used[c] && (id == 0 || c < id) {
				id = c
			}
		}
		if id == 0 { // none free: the one it is in, if it is in one alone
			id = rows[g[0]].Cluster
			for _, i := range g {
				if rows[i].Cluster != id {
					id = 0
				}
			}
		}
		if id == 0 || used[id] {
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

// groupsWithCopies places rows, in place order (store.Doc.Rank), in a cluster.Linker of
// the index's policy by their duplicate links to earlier rows (by later
// row) and the stored exact-copy marks, and returns its groups.
func (x *Index) groupsWithCopies(r store.Reader, links [][]cluster.Link, rows []store.Doc) ([][]int32, error) {
	pos := make(map[int64]int32, len(rows))
	for i, d := range rows {
		pos[d.Ord] = int32(i)
	}
	err := r.EachMark(func(m *store.Mark) error {
		a, okA := pos[m.A]
		b, okB := pos[m.B]
		if m.Method == ExactMethod && okA && okB {
			links[max(a, b)] = append(links[max(a, b)], cluster.Link{Other: min(a, b), Score: m.Score, Copy: true})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	l := cluster.NewLinker(x.link, x.live.BucketLimit())
	for i := range rows {
		l.Add(int32(i), links[i])
	}
	return l.Groups(), nil
}
