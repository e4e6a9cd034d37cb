package webui

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/diff"
)

// browseFixture stores a wire story, a reprint of it in another source,
// and unrelated documents, dated.
func browseFixture(t *testing.T) *fixture {
	f := newFixture(t, Options{})
	orig, reprint := f.story(14)
	day := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	f.add(core.Document{ID: "wire-1", Title: "Storm closes the harbour bridge", Source: "wire", Date: day, Text: orig})
	f.add(core.Document{ID: "daily/7", Title: "Harbour bridge shut by storm", Source: "daily", Date: day.Add(3 * time.Hour), Text: reprint})
	for i := range 3 {
		f.add(core.Document{ID: fmt.Sprint("blog-", i), Title: fmt.Sprint("Diary ", i), Source: "blog", Date: day.AddDate(0, 0, -i-1),
			Text: strings.Join(f.gen.Sentences(12), " ") + " zebracrossing"})
	}
	return f
}

func TestLatest(t *testing.T) {
	t.Parallel()
	f := browseFixture(t)
	a := f.get("/", false)
	a.want(t, "latest", http.StatusOK, "5 documents stored", "1 duplicate and 0 similar", `class="badge dup"`,
		"Harbour bridge shut by storm", "/documents/daily%2F7", "Storm closes the harbour bridge", "/diff?a=wire-1&amp;b=daily%2F7")
	if i, j := strings.Index(a.body, "Diary 2"), strings.Index(a.body, "Harbour bridge shut"); i < 0 || j < 0 || j < i {
		t.Errorf("the latest added is not first")
	}
	only := f.get("/?label=duplicate", false)
	only.want(t, "duplicates only", http.StatusOK, "Harbour bridge shut by storm", "Storm closes the harbour bridge")
	if strings.Contains(only.body, "Diary") {
		t.Errorf("label=duplicate lists unmarked documents")
	}
	src := f.get("/?source=blog", false)
	src.want(t, "source=blog", http.StatusOK, "Diary 0", "Diary 2", `value="blog"`)
	if strings.Contains(src.body, "Harbour bridge") {
		t.Errorf("source=blog lists other sources")
	}
	dated := f.get("/?since=2026-11-18&until=2026-11-19", false)
	dated.want(t, "dates", http.StatusOK, "Diary 0", "Diary 1")
	if strings.Contains(dated.body, "Diary 2") || strings.Contains(dated.body, "Harbour") {
		t.Errorf("dates 18 to 19 November list others:\n%s", dated.body)
	}
	f.get("/?source=nowhere", false).want(t, "no match", http.StatusOK, "No documents match these filters")
}

func TestLatestPages(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	var docs []core.Document
	for i := range listPage + 5 {
		docs = append(docs, core.Document{ID: fmt.Sprintf("d%03d", i), Title: fmt.Sprintf("Story %03d", i), Text: strings.Join(f.gen.Sentences(6), " ")})
	}
	f.add(docs...)
	first := f.get("/", false)
	first.want(t, "page 1", http.StatusOK, "Story 054", "Story 005", `rel="next"`, "?page=2")
	if strings.Contains(first.body, "Story 004") || strings.Contains(first.body, `rel="prev"`) {
		t.Errorf("page 1 holds page 2's documents or a link back")
	}
	f.get("/?page=2", false).want(t, "page 2", http.StatusOK, "Story 004", "Story 000", `rel="prev"`)
	f.get("/?page=3", false).want(t, "page 3", http.StatusOK, "No documents")
}

// Regression: a page past the end of a list (a link kept from before
// documents were removed, a page number typed) said that no document or
// cluster was stored yet and how to add some, with no way back.
func TestPastTheLastPage(t *testing.T) {
	t.Parallel()
	f := browseFixture(t)
	for _, c := range []struct{ path, want, first, wrong string }{
		{"/?page=3", "No documents on page 3", `href="?"`, "No documents yet"},
		{"/?source=blog&page=2", "No documents on page 2", `href="?source=blog"`, "No documents match"},
		{"/clusters?page=2", "No clusters on page 2", `href="?"`, "No clusters yet"},
		{"/search?q=zebracrossing&page=2", "No results on page 2", `href="?q=zebracrossing"`, ""},
	} {
		t.Run(c.path, func(t *testing.T) {
			a := f.get(c.path, false)
			a.want(t, c.path, http.StatusOK, c.want, c.first+`>Go to the first page</a>`)
			if c.wrong != "" && strings.Contains(a.body, c.wrong) {
				t.Errorf("%s says %q", c.path, c.wrong)
			}
		})
	}
	f.get("/search?q=nowhere&page=2", false).want(t, "no match at all", http.StatusOK, "No document matches")
	if a := f.get("/search?q=nowhere&page=2", false); strings.Contains(a.body, "No results on page") {
		t.Errorf("a search that matches nothing speaks of its page 2")
	}
}

func TestClusters(t *testing.T) {
	t.Parallel()
	f := browseFixture(t)
	a := f.get("/clusters", false)
	a.want(t, "clusters", http.StatusOK, "/clusters/", `<td data-label="Size" class="num">2</td>`, "Storm closes the harbour bridge")
	f.get("/clusters?min=3", false).want(t, "min=3", http.StatusOK, "No clusters match")
	f.get("/clusters?source=blog", false).want(t, "source=blog", http.StatusOK, "No clusters match")
	f.get("/clusters?source=daily&label=duplicate&min=2", false).want(t, "filters", http.StatusOK, "Storm closes the harbour bridge")

	doc, err := f.x.Document(t.Context(), "wire-1")
	if err != nil || doc.Cluster == 0 {
		t.Fatalf("wire-1: cluster %d, %v", doc.Cluster, err)
	}
	c := f.get(fmt.Sprint("/clusters/", doc.Cluster), false)
	c.want(t, "cluster", http.StatusOK, "2 documents", "Representative:", `class="badge rep"`, "Marked pairs", `class="badge dup"`,
		`<select id="pair-a" name="a">`, `value="daily/7"`, "/diff?a=wire-1&amp;b=daily%2F7")
	f.get("/clusters/999", false).want(t, "no cluster", http.StatusNotFound)
}

func TestSearch(t *testing.T) {
	t.Parallel()
	f := browseFixture(t)
	a := f.get("/search?q=zebracrossing", false)
	a.want(t, "search", http.StatusOK, "3 documents match", "Diary 0", "<mark>zebracrossing</mark>")
	f.get("/search?q=harbour+-storm", false).want(t, "exclusion", http.StatusOK, "No document matches")
	f.get("/search?q=%22harbour+bridge%22", false).want(t, "phrase", http.StatusOK, "2 documents match")
	f.get("/search", false).want(t, "no query", http.StatusOK, `id="q2"`)
	f.get("/search?q=-storm", false).want(t, "only exclusions", http.StatusBadRequest, "every term is excluded")
	f.get("/search?q="+strings.Repeat("word+", 400), false).want(t, "long query", http.StatusBadRequest)
	f.get("/search?q=%ff%fe", false).want(t, "not UTF-8", http.StatusBadRequest, "not UTF-8")
	f.get("/search?q=a%00b", false).want(t, "a NUL", http.StatusBadRequest, "control character")
	f.get("/search?q=x&page=0", false).want(t, "page 0", http.StatusBadRequest)
}

// Bad filters are 400 with the filter named, never a 5xx.
func TestBadFilters(t *testing.T) {
	t.Parallel()
	f := browseFixture(t)
	for _, p := range []string{"/?page=0", "/?page=-1", "/?page=abc", "/?page=99999999999999999999", "/?page=2001",
		"/?since=2026-13-01", "/?until=yesterday", "/?label=spam", "/?source=" + strings.Repeat("s", 600),
		"/clusters?min=-1", "/clusters?min=x", "/clusters?label=%00", "/clusters/abc", "/clusters/0", "/clusters/-5",
		"/clusters/99999999999999999999", "/?source=a%00", "/?source=%C3%28", "/clusters?source=%00", "/clusters?source=%C3%28",
		"/?since=2024-01-01&until=2023-01-01", "/clusters?since=2024-01-02&until=2024-01-01"} {
		a := f.get(p, false)
		if a.code != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400\n%s", short(60, p), a.code, short(300, a.body))
		}
	}
}

// Regression: a source's link on a later page of the latest documents kept
// the page, so that it showed that page of the source's documents (its
// first 50 skipped, or none at all), and every link of the page reached
// after removing a document kept the notice of the removal.
func TestLatestLinksFromFirstPage(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	var docs []core.Document
	for i := range listPage + 5 {
		docs = append(docs, core.Document{ID: fmt.Sprintf("d%03d", i), Title: fmt.Sprintf("Story %03d", i), Source: fmt.Sprint("src", i%2),
			Text: strings.Join(f.gen.Sentences(6), " ")})
	}
	f.add(docs...)
	for _, c := range []struct{ name, path, want string }{
		{"source on page 2", "/?page=2", `href="?source=src0"`},
		{"source on page 2, filtered", "/?label=&page=2", `href="?label=&amp;source=src0"`},
		{"source after a removal", "/?removed=gone", `href="?source=src0"`},
		{"next page after a removal", "/?removed=gone", `href="?page=2" rel="next"`},
		{"previous page after a removal", "/?page=2&removed=gone", `href="?" rel="prev"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			f.get(c.path, false).want(t, c.path, http.StatusOK, c.want)
		})
	}
	f.get("/?source=src0", false).want(t, "the source's first page", http.StatusOK, "Story 054", "Story 000")
}

// TestDiffMarksOtherSpellings: the diff page marks a word the two
// documents spell otherwise (another case, full-width digits) in the
// milder style of each side, and its legend says what that is; the
// overlap counts it as shared. Regression: such words were plain, as
// shared text spelt alike is.
func TestDiffMarksOtherSpellings(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	orig, _ := f.story(14)
	f.add(core.Document{ID: "wire-1", Title: "Storm", Source: "wire", Text: "The PRESIDENT said turnout was 34 percent. " + orig},
		core.Document{ID: "site-1", Title: "Storm", Source: "site", Text: "The president said turnout was \uff13\uff14 percent. " + orig})
	f.get("/diff?a=wire-1&b=site-1", false).want(t, "diff", http.StatusOK,
		`<span class="nd-a-spelt">PRESIDENT</span>`, `<span class="nd-b-spelt">president</span>`,
		`<span class="nd-a-spelt">34</span>`, `<span class="nd-b-spelt">`+"\uff13\uff14</span>",
		`<strong class="ratio">100%</strong>`, "the same word spelt otherwise")
}

// TestDiffLegendOfMovedPassages: the diff page's legend is the diff's own
// (diff.HTMLLegend), which says that a passage moved shows red where the
// left text has it and green where the right one does. Regression: the
// page kept a copy of the legend without it, telling a reader that a
// passage both texts hold was only in one.
func TestDiffLegendOfMovedPassages(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	orig, _ := f.story(15)
	moved := "The harbour master said the ferry would resume its winter timetable next week after repairs."
	f.add(core.Document{ID: "wire-2", Title: "Ferry", Source: "wire", Text: moved + " " + orig},
		core.Document{ID: "site-2", Title: "Ferry", Source: "site", Text: orig + " " + moved})
	f.get("/diff?a=wire-2&b=site-2", false).want(t, "diff", http.StatusOK, diff.HTMLLegend)
}

// Regression: the notice of a removal ("X is removed, with its marks.")
// showed for any id a link named, so that a link made up could say a stored
// document was removed. It shows only for an id no document is stored
// under.
func TestRemovedNoticeOfAStoredID(t *testing.T) {
	t.Parallel()
	f := browseFixture(t)
	f.add(core.Document{ID: "kept", Title: "Kept", Text: strings.Join(f.gen.Sentences(6), " ")})
	if a := f.get("/?removed=kept", false); a.code != http.StatusOK || strings.Contains(a.body, "is removed") {
		t.Errorf("a stored id: %d, the notice shown:\n%s", a.code, short(2000, a.body))
	}
	f.get("/?removed=gone", false).want(t, "an id not stored", http.StatusOK, "<bdi>gone</bdi> is removed")
	if a := f.get("/?removed=..", false); a.code != http.StatusOK || strings.Contains(a.body, "is removed") {
		t.Errorf("an id no document can have: %d, the notice shown", a.code)
	}
}
