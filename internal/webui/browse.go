package webui

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/diff"
	"github.com/neardup/neardup/internal/server/browse"
)

// checkID refuses an id no document can have, as the API does; field
// names the parameter ("id", or "a" and "b" of a diff).
func checkID(field, id string) error {
	name := "the document id"
	if field != "id" {
		name += " " + field
	}
	if why := core.BadID(id); why != "" {
		return errorf(http.StatusBadRequest, field, "%s %s", name, why)
	}
	return nil
}

// listPage is how many documents or clusters a list page shows.
const listPage = 50

// maxPages bounds the page number of a list: deeper pages are refused
// rather than scanned.
const maxPages = 2000

// filters are the filters of the latest documents and of the clusters, as
// the query string gives them.
type filters struct {
	Source, Since, Until, Label string
	MinSize                     string // clusters only
	Page                        int    // from 1
}

// parseFilters reads and checks the filters of a list page.
func parseFilters(q url.Values) (filters, neardup.DocFilter, error) {
	f := filters{Source: strings.TrimSpace(q.Get("source")), Since: q.Get("since"), Until: q.Get("until"), Label: q.Get("label"),
		MinSize: q.Get("min"), Page: 1}
	var df neardup.DocFilter
	switch {
	case len(f.Source) > core.MaxSourceBytes:
		return f, df, errorf(http.StatusBadRequest, "source", "the source is longer than %d bytes", core.MaxSourceBytes)
	case !utf8.ValidString(f.Source):
		return f, df, errorf(http.StatusBadRequest, "source", "the source is not UTF-8")
	case strings.ContainsFunc(f.Source, unicode.IsControl):
		return f, df, errorf(http.StatusBadRequest, "source", "the source holds a control character")
	}
	df.Source = f.Source
	switch f.Label {
	case "", "any":
		f.Label = ""
	case string(core.Duplicate), string(core.Similar):
		df.Label = core.Label(f.Label)
	default:
		return f, df, errorf(http.StatusBadRequest, "label", "the label %q is not duplicate or similar", short(20, f.Label))
	}
	for _, d := range []struct {
		name, value string
		to          *int64
		days        int
	}{{"since", f.Since, &df.Since, 0}, {"until", f.Until, &df.Until, 1}} {
		if d.value == "" {
			continue
		}
		t, err := time.Parse("2006-01-02", d.value)
		if err != nil {
			return f, df, errorf(http.StatusBadRequest, d.name, "%s=%q is not a date such as 2026-11-26", d.name, short(20, d.value))
		}
		*d.to = t.AddDate(0, 0, d.days).Unix() // until is the whole day
	}
	if df.Since != 0 && df.Until != 0 && df.Until <= df.Since {
		return f, df, errorf(http.StatusBadRequest, "until", "until=%s is before since=%s: no day is after one and before the other", f.Until, f.Since)
	}
	if s := q.Get("page"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxPages {
			return f, df, errorf(http.StatusBadRequest, "page", "page=%q is not a number from 1 to %d", short(20, s), maxPages)
		}
		f.Page = n
	}
	return f, df, nil
}

// pager links the pages of a list.
type pager struct {
	Page       int
	Prev, Next string // links; "" at either end
	First      string // the link to the first page; "" on it
}

func newPager(q url.Values, page int, more bool) pager {
	p := pager{Page: page}
	if q.Has("removed") { // the notice of a removal is the page's it led to, not its neighbours'
		q = cloneValues(q)
		q.Del("removed")
	}
	if page > 1 {
		prev := ""
		if page > 2 {
			prev = strconv.Itoa(page - 1)
		}
		p.Prev = query(q, "page", prev)
		p.First = query(q, "page", "")
	}
	if more && page < maxPages {
		p.Next = query(q, "page", strconv.Itoa(page+1))
	}
	return p
}

// latestPage is the data of latest.html.
type latestPage struct {
	Filters filters
	Docs    []browse.Summary
	Pager   pager
	Removed string // the document just removed
	Stats   neardup.IndexStats
	// Dups and Sims count the pairs marked duplicate and similar.
	Dups, Sims int
}

// latest lists the documents stored last, with their best marks.
func (u *ui) latest(r *http.Request) (result, error) {
	q := r.URL.Query()
	f, df, err := parseFilters(q)
	if err != nil {
		return result{}, err
	}
	docs, more, err := u.x.Latest(r.Context(), df, neardup.Page{Offset: (f.Page - 1) * listPage, Limit: listPage})
	if err != nil {
		return result{}, err
	}
	stats, err := u.x.RecentStats(r.Context())
	if err != nil {
		return result{}, err
	}
	removed, err := u.removed(r.Context(), q.Get("removed"))
	if err != nil {
		return result{}, err
	}
	p := latestPage{Filters: f, Docs: docs, Pager: newPager(q, f.Page, more), Stats: stats, Removed: removed,
		Dups: stats.Marks[core.Duplicate], Sims: stats.Marks[core.Similar]}
	return result{page: "latest.html", title: "Latest documents", data: p}, nil
}

// removed returns the id of the notice of a removal that led to the page
// ("/?removed=ID"), shortened, when no document of that id is stored; ""
// when one is, so that a link made up to say a stored document is removed
// says nothing.
func (u *ui) removed(ctx context.Context, id string) (string, error) {
	if id == "" || core.BadID(id) != "" {
		return "", nil // no document could have it
	}
	_, err := u.x.Document(ctx, id)
	switch {
	case errors.Is(err, neardup.ErrNotFound):
		return short(200, id), nil
	case err != nil:
		return "", err
	}
	return "", nil
}

// clustersPage is the data of clusters.html.
type clustersPage struct {
	Filters  filters
	Clusters []browse.ClusterSummary
	Pager    pager
}

// clusters lists the clusters of duplicates, the latest first.
func (u *ui) clusters(r *http.Request) (result, error) {
	q := r.URL.Query()
	f, df, err := parseFilters(q)
	if err != nil {
		return result{}, err
	}
	cf := neardup.ClusterFilter{Source: df.Source, Since: df.Since, Until: df.Until, Label: df.Label}
	if f.MinSize != "" {
		n, err := strconv.Atoi(f.MinSize)
		if err != nil || n < 0 || n > 1_000_000 {
			return result{}, errorf(http.StatusBadRequest, "min", "min=%q is not a cluster size", short(20, f.MinSize))
		}
		cf.MinSize = n
	}
	cs, more, err := u.x.Clusters(r.Context(), cf, neardup.Page{Offset: (f.Page - 1) * listPage, Limit: listPage})
	if err != nil {
		return result{}, err
	}
	p := clustersPage{Filters: f, Clusters: cs, Pager: newPager(q, f.Page, more)}
	return result{page: "clusters.html", title: "Clusters", data: p}, nil
}

// clusterPage is the data of cluster.html.
type clusterPage struct {
	browse.Cluster
	Rep   browse.Doc
	Orig  browse.Doc // the original, published first
	Pairs []pairRow
}

// pairRow is a mark between two members of a cluster.
type pairRow struct {
	browse.Mark
	TitleA, TitleB string
	Diff           string
}

func (u *ui) cluster(r *http.Request) (result, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return result{}, errorf(http.StatusBadRequest, "id", "the cluster id %q is not a positive number", short(40, r.PathValue("id")))
	}
	c, err := u.x.Cluster(r.Context(), id)
	if err != nil {
		return result{}, err
	}
	p := clusterPage{Cluster: c}
	titles := map[string]string{}
	for _, m := range c.Members {
		titles[m.ID] = m.Title
		if m.ID == c.Representative {
			p.Rep = m
		}
		if m.ID == c.Original {
			p.Orig = m
		}
	}
	for _, m := range c.Marks {
		p.Pairs = append(p.Pairs, pairRow{Mark: m, TitleA: titles[m.A], TitleB: titles[m.B], Diff: diffLink(m.A, m.B)})
	}
	return result{page: "cluster.html", title: "Cluster " + strconv.FormatInt(id, 10), data: p}, nil
}

// searchPage is the data of search.html.
type searchPage struct {
	Q      string
	Result browse.SearchResult
	Hits   []hitRow
	Pager  pager
	Error  string
	From   int // the rank of the first hit shown
}

// hitRow is a search hit, its snippet as HTML.
type hitRow struct {
	browse.Hit
	Snippet template.HTML
}

// search runs a full-text search over the stored titles and texts.
func (u *ui) search(r *http.Request) (result, error) {
	q := r.URL.Query()
	p := searchPage{Q: strings.TrimSpace(q.Get("q")), From: 1}
	if p.Q == "" {
		return result{page: "search.html", title: "Search", data: p}, nil
	}
	f, _, err := parseFilters(url.Values{"page": q["page"]})
	if err != nil {
		return result{}, err
	}
	p.From = (f.Page-1)*listPage + 1
	res, err := u.x.Search(r.Context(), p.Q, neardup.Page{Offset: (f.Page - 1) * listPage, Limit: listPage})
	if code, msg, _ := status(err); err != nil && code == http.StatusBadRequest {
		p.Error = msg
		return result{page: "search.html", title: "Search", status: code, data: p}, nil
	}
	if err != nil {
		return result{}, err
	}
	p.Result = res
	for _, h := range res.Hits {
		// SnippetHTML is the engine's escaped text with <mark> elements.
		p.Hits = append(p.Hits, hitRow{Hit: h, Snippet: template.HTML(h.SnippetHTML)})
	}
	p.Pager = newPager(q, f.Page, f.Page*listPage < res.Ranked)
	return result{page: "search.html", title: "Search: " + short(60, p.Q), data: p}, nil
}

// documentPage is the data of document.html.
type documentPage struct {
	Doc     browse.Document
	Paras   []string
	Matches []matchRow
	Stored  bool // just stored from the check form
}

// paragraphs splits a text at blank lines.
func paragraphs(text string) []string {
	var out []string
	for p := range strings.SplitSeq(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// diffLink is the path of the diff of two documents.
func diffLink(a, b string) string {
	return "/diff?" + urlValues("a", a, "b", b)
}

func (u *ui) document(r *http.Request) (result, error) {
	id := r.PathValue("id")
	if err := checkID("id", id); err != nil {
		return result{}, err
	}
	doc, err := u.x.Document(r.Context(), id)
	if err != nil {
		return result{}, err
	}
	p := documentPage{Doc: doc, Paras: paragraphs(doc.Text), Matches: matchRows(doc.Marks), Stored: r.URL.Query().Get("stored") != ""}
	title := doc.Title
	if title == "" {
		title = doc.ID
	}
	return result{page: "document.html", title: title, data: p}, nil
}

// removeDocument removes a stored document, with its marks, after a
// confirmation; the documents it matched stay.
func (u *ui) removeDocument(r *http.Request) (result, error) {
	id := r.PathValue("id")
	if err := checkID("id", id); err != nil {
		return result{}, err
	}
	if r.PostFormValue("confirm") == "" {
		return result{}, errorf(http.StatusBadRequest, "confirm", "tick the box to confirm that %s is to be removed", short(80, id))
	}
	removed, err := u.x.Remove(r.Context(), id)
	if err != nil {
		return result{}, err
	}
	if len(removed) == 0 {
		return result{}, errorf(http.StatusNotFound, "id", "no document %q", short(80, id))
	}
	return result{redirect: "/?" + urlValues("removed", id)}, nil
}

// diffPage is the data of diff.html.
type diffPage struct {
	A, B               browse.Document
	By                 string
	OverlapA, OverlapB float64
	WordsA, WordsB     int
	CutA, CutB         bool      // only the first MaxWords words of the text were compared
	MaxWords           int       // diff.MaxServedWords
	Mark               *matchRow // the mark between the two, if any
	Reason             string    // why the mark was made, in words
	Table              template.HTML
	Legend             template.HTML // what the colours of Table mean: diff.HTMLLegend
	NoText             bool          // the index stores no texts
	SwapLink           string
	ByLinks            []byLink
}

// byLink switches a diff's unit.
type byLink struct {
	Name, Link string
	Current    bool
}

// diff shows two stored documents side by side, with each one's overlap.
func (u *ui) diff(r *http.Request) (result, error) {
	q := r.URL.Query()
	a, b := q.Get("a"), q.Get("b")
	if err := checkID("a", a); err != nil {
		return result{}, err
	}
	if err := checkID("b", b); err != nil {
		return result{}, err
	}
	by := diff.ByWord
	if s := q.Get("by"); s != "" {
		var err error
		if by, err = diff.ParseBy(s); err != nil {
			return result{}, errorf(http.StatusBadRequest, "by", "by=%q: want word, sentence or line", short(20, s))
		}
	}
	docs := [2]browse.Document{}
	for i, id := range []string{a, b} {
		d, err := u.x.Document(r.Context(), id)
		if err != nil {
			return result{}, err
		}
		docs[i] = d
	}
	p := diffPage{A: docs[0], B: docs[1], By: by.String(), SwapLink: "/diff?" + urlValues("a", b, "b", a, "by", q.Get("by"))}
	for _, name := range []string{"word", "sentence", "line"} {
		p.ByLinks = append(p.ByLinks, byLink{Name: name, Link: "/diff?" + urlValues("a", a, "b", b, "by", name), Current: name == p.By})
	}
	for i, m := range matchRows(p.A.Marks) {
		if m.ID == b {
			p.Mark = &m
			p.Reason = reason(p.A.Marks[i], p.A.Marks[i].A == a, u.x.Meta().Options)
			break
		}
	}
	if p.A.Text == "" && p.B.Text == "" && !u.x.Meta().StoreText {
		p.NoText = true
		return result{page: "diff.html", title: "Diff", data: p}, nil
	}
	d, err := diff.CompareContext(r.Context(), p.A.Text, p.B.Text, diff.Options{By: by, MaxWords: diff.MaxServedWords})
	if err != nil {
		return result{}, fmt.Errorf("comparing %s and %s: %w", a, b, err)
	}
	d.A.ID, d.A.Title, d.B.ID, d.B.Title = p.A.ID, p.A.Title, p.B.ID, p.B.Title
	p.CutA, p.CutB, p.MaxWords = d.A.Cut, d.B.Cut, diff.MaxServedWords
	var sb strings.Builder
	diff.WriteHTMLFragment(&sb, d) // writes to memory: never fails
	p.Table, p.Legend = template.HTML(sb.String()), template.HTML(diff.HTMLLegend)
	p.OverlapA, p.OverlapB, p.WordsA, p.WordsB = d.A.Overlap(), d.B.Overlap(), d.A.Words, d.B.Words
	return result{page: "diff.html", title: "Diff of " + short(40, a) + " and " + short(40, b), data: p}, nil
}
