package index

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"slices"
	"strings"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/server/browse"
	"github.com/neardup/neardup/internal/store"
)

// Page sizes of the browsing methods: a store.Page's Limit of 0 means
// DefaultPage, and one above MaxPage means MaxPage.
const (
	DefaultPage = 20
	MaxPage     = 200
)

// pageOf reads page p of a list through read, asked for one row more than
// the page holds: more says whether rows follow the page.
func pageOf[T any](p store.Page, read func(store.Page) ([]T, error)) (rows []T, more bool, err error) {
	rows, err = read(store.Page{Offset: p.Offset, Limit: p.Limit + 1})
	if more = len(rows) > p.Limit; more {
		rows = rows[:p.Limit]
	}
	return rows, more, err
}

// docsByOrd reads the stored documents of ords (those still stored) by
// ordinal.
func docsByOrd(r store.Reader, ords []int64) (map[int64]*store.Doc, error) {
	docs, err := r.Docs(ords)
	byOrd := make(map[int64]*store.Doc, len(docs))
	for i := range docs {
		byOrd[docs[i].Ord] = &docs[i]
	}
	return byOrd, err
}

func normPage(p store.Page) store.Page {
	switch {
	case p.Limit <= 0:
		p.Limit = DefaultPage
	case p.Limit > MaxPage:
		p.Limit = MaxPage
	}
	p.Offset = max(p.Offset, 0)
	return p
}

func viewDoc(d *store.Doc) browse.Doc {
	v := browse.Doc{ID: d.ID, Title: d.Title, Source: d.Source, URL: d.URL, Added: time.Unix(d.Added, 0).UTC(),
		Lang: d.Lang, Length: d.Length, Skip: d.Skip, Cluster: d.Cluster}
	v.Date = store.DateTime(d.Date)
	return v
}

// SearchNewest is how many matches a search ranks at most, the newest: a
// word found in a large share of a million documents is answered in
// milliseconds instead of seconds, from the articles a reader most likely
// wants, while the total still counts every match.
const SearchNewest = 10000

// Document returns the stored document of the given ID with its marks;
// an error wrapping store.ErrNotFound when there is none. It reads the
// store without waiting for writers.
func (x *Index) Document(ctx context.Context, id string) (browse.Document, error) {
	var out browse.Document
	err := x.st.View(ctx, func(r store.Reader) error {
		d, err := r.Doc(id)
		if err != nil {
			return err
		}
		out.Doc, out.Text = viewDoc(&d), d.Text
		if d.Cluster != 0 {
			o, err := r.Original(d.Cluster)
			if err != nil {
				return err
			}
			v := viewDoc(&o)
			out.Original = &v
		}
		ms, err := r.MarksOf(d.Ord)
		if err != nil {
			return err
		}
		out.Marks, err = x.viewMarks(r, d.Ord, ms)
		return err
	})
	return out, err
}

// viewMarks returns the marks ms of document ord, each with its other
// document, the best first.
func (x *Index) viewMarks(r store.Reader, ord int64, ms []store.Mark) ([]browse.Mark, error) {
	others := make([]int64, len(ms))
	for i, m := range ms {
		others[i] = m.A
		if m.A == ord {
			others[i] = m.B
		}
	}
	docs, err := r.Docs(append(others, ord))
	if err != nil {
		return nil, err
	}
	byOrd := make(map[int64]*store.Doc, len(docs))
	for i := range docs {
		byOrd[docs[i].Ord] = &docs[i]
	}
	out := make([]browse.Mark, 0, len(ms))
	for i, m := range ms {
		o, a, b := byOrd[others[i]], byOrd[m.A], byOrd[m.B]
		if o == nil || a == nil || b == nil {
			return nil, fmt.Errorf("mark %d~%d: %w: a document it joins", m.A, m.B, store.ErrNotFound)
		}
		v, err := x.viewMark(&m, a, b)
		if err != nil {
			return nil, err
		}
		other := viewDoc(o)
		v.Other = &other
		out = append(out, v)
	}
	sortMarks(out)
	return out, nil
}

// viewMark returns mark m of documents a and b (its A and B) as the pages
// show it and as an export writes it (see exportMark): the earlier-placed
// document (store.Doc.Rank) as A, the evidence read that way round.
func (x *Index) viewMark(m *store.Mark, a, b *store.Doc) (browse.Mark, error) {
	ev := evidenceJSON(m.Evidence)
	if a.Rank() > b.Rank() {
		a, b = b, a
		if ev != nil {
			dec, err := x.decodeEvidence(m.Method, m.Evidence)
			if err != nil {
				return browse.Mark{}, fmt.Errorf("mark %d~%d: %w", m.A, m.B, err)
			}
			if ev, err = json.Marshal(reversedEvidence(dec)); err != nil {
				return browse.Mark{}, fmt.Errorf("mark %d~%d: %w", m.A, m.B, err)
			}
		}
	}
	return browse.Mark{A: a.ID, B: b.ID, Method: m.Method, Score: m.Score, Label: m.Label,
		Original: published{b.Date, b.Ord, b.Place}.original(a, b.ID, m.Label), Evidence: ev,
		At: time.Unix(m.At, 0).UTC()}, nil
}

// sortMarks orders marks best first: duplicates before similar pairs, then
// by score, then the latest found.
func sortMarks(ms []browse.Mark) {
	slices.SortStableFunc(ms, func(a, b browse.Mark) int {
		if c := cmp.Compare(engine.LabelRank(a.Label), engine.LabelRank(b.Label)); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return b.At.Compare(a.At)
	})
}

// evidenceJSON returns stored evidence as JSON, nil when it is none.
func evidenceJSON(ev []byte) json.RawMessage {
	if len(ev) == 0 || string(ev) == "null" || !json.Valid(ev) {
		return nil
	}
	return json.RawMessage(ev)
}

// Latest returns a page of the documents f selects, the latest added
// first, each with its best mark; more says whether more follow. It reads
// the store without waiting for writers.
func (x *Index) Latest(ctx context.Context, f store.DocFilter, p store.Page) (docs []browse.Summary, more bool, err error) {
	p = normPage(p)
	err = x.st.View(ctx, func(r store.Reader) error {
		var rows []store.Doc
		rows, more, err = pageOf(p, func(p store.Page) ([]store.Doc, error) { return r.Latest(f, p) })
		if err != nil {
			return err
		}
		docs = make([]browse.Summary, len(rows))
		for i := range rows {
			if docs[i], err = x.summarize(r, &rows[i]); err != nil {
				return err
			}
		}
		return nil
	})
	return docs, more, err
}

// summarize returns d with its best mark and counts.
func (x *Index) summarize(r store.Reader, d *store.Doc) (browse.Summary, error) {
	s := browse.Summary{Doc: viewDoc(d)}
	ms, err := r.MarksOf(d.Ord)
	if err != nil || len(ms) == 0 {
		return s, err
	}
	best := 0
	for i, m := range ms {
		if m.Label == core.Duplicate {
			s.Duplicates++
		} else {
			s.Similar++
		}
		b := ms[best]
		if engine.LabelRank(m.Label) < engine.LabelRank(b.Label) || engine.LabelRank(m.Label) == engine.LabelRank(b.Label) && m.Score > b.Score {
			best = i
		}
	}
	vs, err := x.viewMarks(r, d.Ord, ms[best:best+1])
	if err != nil {
		return s, err
	}
	s.Best = &vs[0]
	return s, nil
}

// Clusters returns a page of the clusters f selects, the one with the
// latest added member first; more says whether more follow. It reads the
// store without waiting for writers.
func (x *Index) Clusters(ctx context.Context, f store.ClusterFilter, p store.Page) (cs []browse.ClusterSummary, more bool, err error) {
	p = normPage(p)
	err = x.st.View(ctx, func(r store.Reader) error {
		var infos []store.ClusterInfo
		infos, more, err = pageOf(p, func(p store.Page) ([]store.ClusterInfo, error) { return r.Clusters(f, p) })
		if err != nil {
			return err
		}
		ords := make([]int64, 0, 2*len(infos))
		for _, c := range infos {
			ords = append(ords, c.First, c.Last)
		}
		byOrd, err := docsByOrd(r, ords)
		if err != nil {
			return err
		}
		cs = make([]browse.ClusterSummary, 0, len(infos))
		for _, c := range infos {
			s := browse.ClusterSummary{ID: c.ID, Size: c.Size, Latest: store.DateTime(c.Latest)}
			if d := byOrd[c.First]; d != nil {
				s.First = viewDoc(d)
			}
			if d := byOrd[c.Last]; d != nil {
				s.LastAdded = time.Unix(d.Added, 0).UTC()
			}
			o, err := r.Original(c.ID)
			if err != nil {
				return err
			}
			s.Original = viewDoc(&o)
			cs = append(cs, s)
		}
		return nil
	})
	return cs, more, err
}

// Cluster returns the cluster of the given id; an error wrapping
// store.ErrNotFound when it has no members. Choosing the representative
// may compare members' sketches: it runs between writes, as they do.
func (x *Index) Cluster(ctx context.Context, id int64) (browse.Cluster, error) {
	var c browse.Cluster
	var err error
	x.exclusively(func() { c, err = x.cluster(ctx, id) })
	return c, err
}

func (x *Index) cluster(ctx context.Context, id int64) (browse.Cluster, error) {
	out := browse.Cluster{ID: id}
	err := x.st.View(ctx, func(r store.Reader) error {
		ords, err := r.Members(id)
		if err != nil {
			return err
		}
		if len(ords) == 0 {
			return fmt.Errorf("%w: no cluster %d", store.ErrNotFound, id)
		}
		docs, err := r.Docs(ords)
		if err != nil {
			return err
		}
		g := make([]*store.Doc, len(docs))
		in := make(map[int64]*store.Doc, len(docs))
		for i := range docs {
			g[i], in[docs[i].Ord] = &docs[i], &docs[i]
		}
		byRank(g) // members listed, and the representative chosen, in place order
		for _, d := range g {
			out.Members = append(out.Members, viewDoc(d))
		}
		rep, why, err := x.representative(r, g)
		if err != nil {
			return err
		}
		out.Representative, out.Why, out.Original = rep.ID, why, originalOf(g).ID
		out.Marks, err = x.innerMarks(r, g, in)
		return err
	})
	return out, err
}

// innerMarks returns the marks between members of a cluster, the best
// first, each as viewMark shows it.
func (x *Index) innerMarks(r store.Reader, g []*store.Doc, in map[int64]*store.Doc) ([]browse.Mark, error) {
	out := []browse.Mark{}
	for _, d := range g {
		ms, err := r.MarksOf(d.Ord)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			a, b := in[m.A], in[m.B]
			if m.B != d.Ord || a == nil || b == nil {
				continue // each mark once: from its later document
			}
			v, err := x.viewMark(&m, a, b)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
	}
	sortMarks(out)
	return out, nil
}

// Search returns a page of the stored documents whose title or text
// match q (see store.ParseQuery), the best first of the newest
// SearchNewest matches; an error wrapping
// store.ErrQuery for a query that cannot be run. It reads the store
// without waiting for writers.
func (x *Index) Search(ctx context.Context, q string, p store.Page) (browse.SearchResult, error) {
	p = normPage(p)
	query, err := store.ParseQuery(q)
	if err != nil {
		return browse.SearchResult{}, err
	}
	query.Newest = SearchNewest
	out := browse.SearchResult{Query: query.String(), Hits: []browse.Hit{}}
	err = x.st.View(ctx, func(r store.Reader) error {
		hits, total, err := r.Search(query, p)
		if err != nil {
			return err
		}
		out.Total, out.Ranked = total, min(total, SearchNewest)
		ords := make([]int64, len(hits))
		for i, h := range hits {
			ords[i] = h.Ord
		}
		byOrd, err := docsByOrd(r, ords)
		if err != nil {
			return err
		}
		for _, h := range hits {
			if d := byOrd[h.Ord]; d != nil {
				plain, marked := snippet(h.Snippet)
				out.Hits = append(out.Hits, browse.Hit{Doc: viewDoc(d), Rank: h.Rank, Snippet: plain, SnippetHTML: marked})
			}
		}
		return nil
	})
	return out, err
}

// snippet returns a store's snippet as plain text and as HTML with the
// matched words in <mark> elements.
func snippet(s string) (plain, marked string) {
	var p, m strings.Builder
	open := false
	for s != "" {
		i := strings.IndexAny(s, store.HitStart+store.HitEnd)
		if i < 0 {
			i = len(s)
		}
		p.WriteString(s[:i])
		m.WriteString(html.EscapeString(s[:i]))
		s = s[i:]
		switch {
		case strings.HasPrefix(s, store.HitStart):
			if !open {
				m.WriteString("<mark>")
			}
			open, s = true, s[len(store.HitStart):]
		case strings.HasPrefix(s, store.HitEnd):
			if open {
				m.WriteString("</mark>")
			}
			open, s = false, s[len(store.HitEnd):]
		}
	}
	if open {
		m.WriteString("</mark>")
	}
	return p.String(), m.String()
}
