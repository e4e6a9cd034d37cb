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
	"github.com/neardup/neardup/internal/store"
)

// The filters and pages of the browsing methods, as the store takes them.
type (
	// DocFilter selects documents (see store.DocFilter).
	DocFilter = store.DocFilter
	// ClusterFilter selects clusters (see store.ClusterFilter).
	ClusterFilter = store.ClusterFilter
	// Page selects a part of a list (see store.Page).
	Page = store.Page
)

// Page sizes of the browsing methods: a Page's Limit of 0 means
// DefaultPage, and one above MaxPage means MaxPage.
const (
	DefaultPage = 20
	MaxPage     = 200
)

func normPage(p Page) Page {
	switch {
	case p.Limit <= 0:
		p.Limit = DefaultPage
	case p.Limit > MaxPage:
		p.Limit = MaxPage
	}
	p.Offset = max(p.Offset, 0)
	return p
}

// Doc is a stored document as the browsing methods show it, without its
// text.
type Doc struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Source string `json:"source,omitempty"`
	URL    string `json:"url,omitempty"`
	// Date is the document's own date; zero when it gave none.
	Date time.Time `json:"date,omitzero"`
	// Added is when it was stored.
	Added time.Time `json:"added"`
	Lang  string    `json:"lang,omitempty"`
	// Length is the text's length in bytes.
	Length int `json:"length"`
	// Skip is why the method did not compare it, if it did not.
	Skip core.SkipReason `json:"skipped,omitempty"`
	// Cluster is its cluster of duplicates; 0 for none.
	Cluster int64 `json:"cluster,omitempty"`
}

func viewDoc(d *store.Doc) Doc {
	v := Doc{ID: d.ID, Title: d.Title, Source: d.Source, URL: d.URL, Added: time.Unix(d.Added, 0).UTC(),
		Lang: d.Lang, Length: d.Length, Skip: d.Skip, Cluster: d.Cluster}
	if d.Date != 0 {
		v.Date = time.Unix(d.Date, 0).UTC()
	}
	return v
}

// Mark is a stored pair: A the earlier document, B the later, with the
// method's evidence as it stored it.
type Mark struct {
	A        string          `json:"a"`
	B        string          `json:"b"`
	Method   string          `json:"method"`
	Score    float64         `json:"score"`
	Label    core.Label      `json:"label"`
	Evidence json.RawMessage `json:"evidence,omitempty"`
	// At is when the pair was found.
	At time.Time `json:"at"`
	// Other is the document at the other end of the pair from the one
	// asked about; nil in a cluster's marks.
	Other *Doc `json:"other,omitempty"`
}

// Document is a stored document with its text (when the index stores
// texts) and its marks, the best first.
type Document struct {
	Doc
	Text  string `json:"text,omitempty"`
	Marks []Mark `json:"marks"`
}

// Summary is a stored document in a list: its best mark and how many
// marks of each label it has.
type Summary struct {
	Doc
	Best       *Mark `json:"best,omitempty"`
	Duplicates int   `json:"duplicates"`
	Similar    int   `json:"similar"`
}

// ClusterSummary is a cluster in a list.
type ClusterSummary struct {
	ID   int64 `json:"id"`
	Size int   `json:"size"`
	// First is its earliest added member.
	First Doc `json:"first"`
	// Latest is the latest date of its members (their own, else when they
	// were stored).
	Latest time.Time `json:"latest"`
	// LastAdded is when its latest added member was stored: clusters are
	// listed by it, the latest first.
	LastAdded time.Time `json:"last_added"`
}

// Cluster is a cluster of duplicates: its members in the order added, its
// representative (chosen by the index's policy) and why, and the marks
// between its members, which say why each is in.
type Cluster struct {
	ID             int64  `json:"id"`
	Representative string `json:"representative"`
	Why            string `json:"why"`
	Members        []Doc  `json:"members"`
	Marks          []Mark `json:"marks"`
}

// Hit is a document a full-text search found.
type Hit struct {
	Doc
	// Rank orders the hits of one search: higher is better.
	Rank float64 `json:"rank"`
	// Snippet is a passage of the text (of the title for a document
	// stored without text) around the words matched; SnippetHTML is the
	// same, HTML-escaped, with each matched word in a <mark> element.
	Snippet     string `json:"snippet"`
	SnippetHTML string `json:"snippet_html"`
}

// SearchResult is a page of a search's hits.
type SearchResult struct {
	// Query is the search as understood (see store.ParseQuery).
	Query string `json:"query"`
	// Total counts every document that matches.
	Total int `json:"total"`
	// Ranked is how many of the matches the pages hold, ranked: all of
	// them, or the newest SearchNewest when more match.
	Ranked int   `json:"ranked"`
	Hits   []Hit `json:"hits"`
}

// SearchNewest is how many matches a search ranks at most, the newest: a
// word found in a large share of a million documents is answered in
// milliseconds instead of seconds, from the articles a reader most likely
// wants, while the total still counts every match.
const SearchNewest = 10000

// Document returns the stored document of the given ID with its marks;
// an error wrapping store.ErrNotFound when there is none. It reads the
// store without waiting for writers.
func (x *Index) Document(ctx context.Context, id string) (Document, error) {
	var out Document
	err := x.st.View(ctx, func(r store.Reader) error {
		d, err := r.Doc(id)
		if err != nil {
			return err
		}
		out.Doc, out.Text = viewDoc(&d), d.Text
		ms, err := r.MarksOf(d.Ord)
		if err != nil {
			return err
		}
		out.Marks, err = viewMarks(r, d.Ord, ms)
		return err
	})
	return out, err
}

// viewMarks returns the marks ms of document ord, each with its other
// document, the best first.
func viewMarks(r store.Reader, ord int64, ms []store.Mark) ([]Mark, error) {
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
	out := make([]Mark, 0, len(ms))
	for i, m := range ms {
		o, a, b := byOrd[others[i]], byOrd[m.A], byOrd[m.B]
		if o == nil || a == nil || b == nil {
			return nil, fmt.Errorf("mark %d~%d: %w: a document it joins", m.A, m.B, store.ErrNotFound)
		}
		v := viewDoc(o)
		out = append(out, Mark{A: a.ID, B: b.ID, Method: m.Method, Score: m.Score, Label: m.Label,
			Evidence: evidenceJSON(m.Evidence), At: time.Unix(m.At, 0).UTC(), Other: &v})
	}
	sortMarks(out)
	return out, nil
}

// sortMarks orders marks best first: duplicates before similar pairs, then
// by score, then the latest found.
func sortMarks(ms []Mark) {
	slices.SortStableFunc(ms, func(a, b Mark) int {
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
func (x *Index) Latest(ctx context.Context, f DocFilter, p Page) (docs []Summary, more bool, err error) {
	p = normPage(p)
	err = x.st.View(ctx, func(r store.Reader) error {
		rows, err := r.Latest(f, Page{Offset: p.Offset, Limit: p.Limit + 1})
		if err != nil {
			return err
		}
		if more = len(rows) > p.Limit; more {
			rows = rows[:p.Limit]
		}
		docs = make([]Summary, len(rows))
		for i := range rows {
			if docs[i], err = summarize(r, &rows[i]); err != nil {
				return err
			}
		}
		return nil
	})
	return docs, more, err
}

// summarize returns d with its best mark and counts.
func summarize(r store.Reader, d *store.Doc) (Summary, error) {
	s := Summary{Doc: viewDoc(d)}
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
	vs, err := viewMarks(r, d.Ord, ms[best:best+1])
	if err != nil {
		return s, err
	}
	s.Best = &vs[0]
	return s, nil
}

// Clusters returns a page of the clusters f selects, the one with the
// latest added member first; more says whether more follow. It reads the
// store without waiting for writers.
func (x *Index) Clusters(ctx context.Context, f ClusterFilter, p Page) (cs []ClusterSummary, more bool, err error) {
	p = normPage(p)
	err = x.st.View(ctx, func(r store.Reader) error {
		infos, err := r.Clusters(f, Page{Offset: p.Offset, Limit: p.Limit + 1})
		if err != nil {
			return err
		}
		if more = len(infos) > p.Limit; more {
			infos = infos[:p.Limit]
		}
		ords := make([]int64, 0, 2*len(infos))
		for _, c := range infos {
			ords = append(ords, c.First, c.Last)
		}
		docs, err := r.Docs(ords)
		if err != nil {
			return err
		}
		byOrd := make(map[int64]*store.Doc, len(docs))
		for i := range docs {
			byOrd[docs[i].Ord] = &docs[i]
		}
		cs = make([]ClusterSummary, 0, len(infos))
		for _, c := range infos {
			s := ClusterSummary{ID: c.ID, Size: c.Size, Latest: time.Unix(c.Latest, 0).UTC()}
			if d := byOrd[c.First]; d != nil {
				s.First = viewDoc(d)
			}
			if d := byOrd[c.Last]; d != nil {
				s.LastAdded = time.Unix(d.Added, 0).UTC()
			}
			cs = append(cs, s)
		}
		return nil
	})
	return cs, more, err
}

// Cluster returns the cluster of the given id; an error wrapping
// store.ErrNotFound when it has no members. Choosing the representative
// may compare members' sketches: it runs between writes, as they do.
func (x *Index) Cluster(ctx context.Context, id int64) (Cluster, error) {
	var c Cluster
	var err error
	x.exclusively(func() { c, err = x.cluster(ctx, id) })
	return c, err
}

func (x *Index) cluster(ctx context.Context, id int64) (Cluster, error) {
	out := Cluster{ID: id}
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
			out.Members = append(out.Members, viewDoc(&docs[i]))
		}
		rep, why, err := x.representative(r, g)
		if err != nil {
			return err
		}
		out.Representative, out.Why = rep.ID, why
		out.Marks, err = innerMarks(r, g, in)
		return err
	})
	return out, err
}

// innerMarks returns the marks between members of a cluster, the best
// first.
func innerMarks(r store.Reader, g []*store.Doc, in map[int64]*store.Doc) ([]Mark, error) {
	out := []Mark{}
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
			out = append(out, Mark{A: a.ID, B: b.ID, Method: m.Method, Score: m.Score, Label: m.Label,
				Evidence: evidenceJSON(m.Evidence), At: time.Unix(m.At, 0).UTC()})
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
func (x *Index) Search(ctx context.Context, q string, p Page) (SearchResult, error) {
	p = normPage(p)
	query, err := store.ParseQuery(q)
	if err != nil {
		return SearchResult{}, err
	}
	query.Newest = SearchNewest
	out := SearchResult{Query: query.String(), Hits: []Hit{}}
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
		docs, err := r.Docs(ords)
		if err != nil {
			return err
		}
		byOrd := make(map[int64]*store.Doc, len(docs))
		for i := range docs {
			byOrd[docs[i].Ord] = &docs[i]
		}
		for _, h := range hits {
			if d := byOrd[h.Ord]; d != nil {
				plain, marked := snippet(h.Snippet)
				out.Hits = append(out.Hits, Hit{Doc: viewDoc(d), Rank: h.Rank, Snippet: plain, SnippetHTML: marked})
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
