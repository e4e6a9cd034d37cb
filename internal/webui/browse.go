package webui

import (
	"html/template"
	"net/http"
	"strings"

	"github.com/neardup/neardup/internal/diff"
)

// checkID refuses an id no document can have.
func checkID(field, id string) error {
	switch {
	case id == "":
		return errorf(http.StatusBadRequest, field, "the document id %s is missing", field)
	case len(id) > maxIDBytes:
		return errorf(http.StatusBadRequest, field, "the document id %s is longer than %d bytes", field, maxIDBytes)
	}
	return nil
}

// documentPage is the data of document.html.
type documentPage struct {
	Doc     storedDoc
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

// diffLink is the path of the diff of two documents, the earlier first.
func diffLink(a, b string) string {
	return "/diff?" + urlValues("a", a, "b", b)
}

func (u *ui) document(r *http.Request) (result, error) {
	id := r.PathValue("id")
	if err := checkID("id", id); err != nil {
		return result{}, err
	}
	doc, ms, err := u.docMarks(r.Context(), id)
	if err != nil {
		return result{}, err
	}
	for i := range ms {
		if ms[i].Earlier {
			ms[i].Diff = diffLink(ms[i].ID, doc.ID)
		} else {
			ms[i].Diff = diffLink(doc.ID, ms[i].ID)
		}
	}
	p := documentPage{Doc: doc, Paras: paragraphs(doc.Text), Matches: ms, Stored: r.URL.Query().Get("stored") != ""}
	title := doc.Title
	if title == "" {
		title = doc.ID
	}
	return result{page: "document.html", title: title, data: p}, nil
}

// diffPage is the data of diff.html.
type diffPage struct {
	A, B     storedDoc
	By       string
	OverlapA float64
	OverlapB float64
	WordsA   int
	WordsB   int
	Mark     *matchRow // the mark between the two, if any
	Table    template.HTML
	NoText   bool // the index stores no texts
	SwapLink string
	ByLinks  []byLink
}

// byLink switches a diff's unit.
type byLink struct {
	Name, Link string
	Current    bool
}

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
	docA, marks, err := u.docMarks(r.Context(), a)
	if err != nil {
		return result{}, err
	}
	docs, err := u.storedDocs(r.Context(), []string{b})
	if err != nil {
		return result{}, err
	}
	docB, ok := docs[b]
	if !ok {
		return result{}, errorf(http.StatusNotFound, "b", "no document %q", short(80, b))
	}
	p := diffPage{A: docA, B: docB, By: by.String(), SwapLink: "/diff?" + urlValues("a", b, "b", a, "by", q.Get("by"))}
	for _, name := range []string{"word", "sentence", "line"} {
		p.ByLinks = append(p.ByLinks, byLink{Name: name, Link: "/diff?" + urlValues("a", a, "b", b, "by", name), Current: name == p.By})
	}
	for i := range marks {
		if marks[i].ID == b {
			p.Mark = &marks[i]
			break
		}
	}
	if docA.Text == "" && docB.Text == "" && !u.x.Meta().StoreText {
		p.NoText = true
		return result{page: "diff.html", title: "Diff", data: p}, nil
	}
	d := diff.Compare(docA.Text, docB.Text, diff.Options{By: by})
	d.A.ID, d.A.Title, d.B.ID, d.B.Title = docA.ID, docA.Title, docB.ID, docB.Title
	var sb strings.Builder
	diff.WriteHTMLFragment(&sb, d) // writes to memory: never fails
	p.Table = template.HTML(sb.String())
	p.OverlapA, p.OverlapB, p.WordsA, p.WordsB = d.A.Overlap(), d.B.Overlap(), d.A.Words, d.B.Words
	return result{page: "diff.html", title: "Diff of " + short(40, a) + " and " + short(40, b), data: p}, nil
}
