package store

import (
	"fmt"
	"strings"

	"github.com/neardup/neardup/core"
)

// Page selects a part of a list: Limit items after the first Offset.
type Page struct {
	Offset, Limit int
}

// DocFilter selects documents; its zero value selects every one.
type DocFilter struct {
	// Source keeps the documents of this source; "" any.
	Source string
	// Since and Until keep the documents dated (see Doc.Dated) at or after
	// Since and before Until, in Unix seconds; 0 leaves a side open.
	Since, Until int64
	// Label keeps the documents with a mark of this label, as either side;
	// "" any.
	Label core.Label
}

// ClusterFilter selects clusters; its zero value selects every one.
type ClusterFilter struct {
	// Source keeps the clusters with a member of this source.
	Source string
	// Since and Until keep the clusters with a member dated within them
	// (as DocFilter's).
	Since, Until int64
	// Label keeps the clusters with a mark of this label between two of
	// their members (clusters are joined by duplicate marks; "similar"
	// finds those whose members are also only similar to each other).
	Label core.Label
	// MinSize keeps the clusters of at least this many members.
	MinSize int
}

// ClusterInfo summarises a stored cluster.
type ClusterInfo struct {
	ID   int64
	Size int
	// First and Last are the ordinals of its earliest and latest members.
	First, Last int64
	// Latest is the latest date of its members (see Doc.Dated).
	Latest int64
}

// Hit is a document a full-text search found.
type Hit struct {
	Ord int64
	// Rank orders the hits: higher is better; it compares hits of one
	// search only.
	Rank float64
	// Snippet is a short passage of the text (of the title, for a document
	// stored without text) with each matched word between HitStart and
	// HitEnd.
	Snippet string
}

// The marks around a matched word in Hit.Snippet: private-use characters,
// which no text a reader should see holds.
const (
	HitStart = "\ue000"
	HitEnd   = "\ue001"
)

// dated is the SQL of a document's date as Doc.Dated reads it.
const dated = `COALESCE(date, added)`

func (t *txn) Latest(f DocFilter, p Page) ([]Doc, error) {
	if err := t.flush(); err != nil {
		return nil, err
	}
	q, args := latestQuery(f)
	rows, err := t.query(q, append(args, p.Limit, p.Offset)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Doc{}
	for rows.Next() {
		var d Doc
		if err := scanDoc(rows, &d, false); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// latestQuery returns Latest's query and its arguments but the page's two
// (limit and offset).
func latestQuery(f DocFilter) (string, []any) {
	var where []string
	var args []any
	if f.Source != "" {
		where, args = append(where, `source = ?`), append(args, f.Source)
	}
	if f.Since != 0 {
		where, args = append(where, dated+` >= ?`), append(args, f.Since)
	}
	if f.Until != 0 {
		where, args = append(where, dated+` < ?`), append(args, f.Until)
	}
	if f.Label != "" {
		where = append(where, `(EXISTS (SELECT 1 FROM marks WHERE marks.b = docs.ord AND marks.label = ?)`+
			` OR EXISTS (SELECT 1 FROM marks WHERE marks.a = docs.ord AND marks.label = ?))`)
		args = append(args, string(f.Label), string(f.Label))
	}
	q := `SELECT ` + docColumns + ` FROM docs`
	if len(where) > 0 {
		q += ` WHERE ` + strings.Join(where, ` AND `)
	}
	return q + ` ORDER BY ord DESC LIMIT ? OFFSET ?`, args
}

func (t *txn) Clusters(f ClusterFilter, p Page) ([]ClusterInfo, error) {
	if err := t.flush(); err != nil {
		return nil, err
	}
	// The clusters in the order of their latest added members: read the
	// clustered documents from the newest, a chunk at a time, and take
	// each cluster the first time it shows, until the page is full. A
	// page costs the documents read to reach it, not the whole index.
	out := []ClusterInfo{}
	seen := map[int64]bool{}
	skip := p.Offset
	before := int64(1<<63 - 1)
	for len(out) < p.Limit {
		ids, last, err := t.clusterChunk(before)
		if err != nil {
			return nil, err
		}
		if last == 0 {
			break
		}
		before = last
		for _, id := range ids {
			if seen[id] {
				continue
			}
			seen[id] = true
			c, ok, err := t.clusterInfo(id, f)
			if err != nil {
				return nil, err
			}
			switch {
			case !ok:
			case skip > 0:
				skip--
			case len(out) < p.Limit:
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// clusterChunk returns the clusters of the clustered documents added
// before ordinal before, the latest first, a chunk of them, and the
// ordinal of the earliest read (0 when none was).
func (t *txn) clusterChunk(before int64) (ids []int64, last int64, err error) {
	rows, err := t.query(`SELECT ord, cluster FROM docs WHERE cluster IS NOT NULL AND ord < ? ORDER BY ord DESC LIMIT 1000`, before)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var c int64
		if err := rows.Scan(&last, &c); err != nil {
			return nil, 0, err
		}
		ids = append(ids, c)
	}
	return ids, last, rows.Err()
}

// clusterInfo summarises cluster id and reports whether f selects it.
func (t *txn) clusterInfo(id int64, f ClusterFilter) (ClusterInfo, bool, error) {
	c := ClusterInfo{ID: id}
	until := f.Until
	if until == 0 {
		until = 1<<62 - 1
	}
	var bySource, inWindow int
	st, err := t.stmt(`SELECT count(*), min(ord), max(ord), max(` + dated + `), sum(CASE WHEN source = ? THEN 1 ELSE 0 END),` +
		` sum(CASE WHEN ` + dated + ` >= ? AND ` + dated + ` < ? THEN 1 ELSE 0 END) FROM docs WHERE cluster = ?`)
	if err != nil {
		return c, false, err
	}
	if err := st.QueryRowContext(t.ctx, f.Source, f.Since, until, id).Scan(&c.Size, &c.First, &c.Last, &c.Latest, &bySource, &inWindow); err != nil {
		return c, false, err
	}
	if c.Size < max(f.MinSize, 2) || f.Source != "" && bySource == 0 || (f.Since != 0 || f.Until != 0) && inWindow == 0 {
		return c, false, nil
	}
	if f.Label == "" {
		return c, true, nil
	}
	st, err = t.stmt(`SELECT count(*) FROM marks m JOIN docs d ON d.ord = m.b JOIN docs e ON e.ord = m.a` +
		` WHERE d.cluster = ? AND e.cluster = ? AND m.label = ?`)
	if err != nil {
		return c, false, err
	}
	var n int
	err = st.QueryRowContext(t.ctx, id, id, string(f.Label)).Scan(&n)
	return c, n > 0, err
}

func (t *txn) Search(q Query, p Page) ([]Hit, int, error) {
	if err := t.flush(); err != nil {
		return nil, 0, err
	}
	if len(q.Terms) == 0 {
		return []Hit{}, 0, nil
	}
	match, args := t.s.d.match(q)
	var total int
	st, err := t.stmt(t.s.d.searchCount(match))
	if err != nil {
		return nil, 0, err
	}
	if err := st.QueryRowContext(t.ctx, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("searching: %w", err)
	}
	var floor int64 // the oldest document ranked
	if q.Newest > 0 && total > q.Newest {
		st, err := t.stmt(t.s.d.searchFloor(match))
		if err != nil {
			return nil, 0, err
		}
		if err := st.QueryRowContext(t.ctx, append(args, q.Newest-1)...).Scan(&floor); err != nil {
			return nil, 0, fmt.Errorf("searching: %w", err)
		}
	}
	rows, err := t.query(t.s.d.search(match), append(args, floor, p.Limit, p.Offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("searching: %w", err)
	}
	defer rows.Close()
	out := []Hit{}
	for rows.Next() {
		var h Hit
		if err := rows.Scan(&h.Ord, &h.Rank, &h.Snippet); err != nil {
			return nil, 0, err
		}
		out = append(out, h)
	}
	return out, total, rows.Err()
}
