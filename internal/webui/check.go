package webui

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"html/template"
	"io"
	"mime/multipart"
	"net/http"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/diff"
	"github.com/neardup/neardup/internal/extract"
)

// article is the form of check.html: an article pasted or uploaded, and
// what was made of it.
type article struct {
	ID, Title, URL, Source, Date, Text string
	// When is the date as the store form carries it: Date, or the date
	// and time (RFC 3339, UTC) of one with a time of day, such as an HTML
	// page's, which the form's date field (a day) would cut to midnight.
	When   string
	Format string // "auto", "text" or "html"
	Error  string // why the form was refused
	Field  string // the field refused
}

// checkPage is the data of check.html.
type checkPage struct {
	Form      article
	Checked   bool            // the article was checked: the results follow
	Extracted bool            // the text was extracted from HTML
	RuleMiss  string          // the site rule's body selector matched nothing on it (extract.Article.RuleMiss)
	FileName  string          // the file uploaded
	Skip      core.SkipReason // why the method did not compare it
	Matches   []matchRow
	Diff      template.HTML // the article against its best match, when that one's text is stored
	DiffWith  string
	Stored    string // the document of this ID stored already
	// Differs, when the document of this ID stored already is another
	// (neardup.Conflict), names the fields in which it differs from the
	// article ("title and text"); "" when it is this article (Exists).
	Differs string
	// StoredDiff is the article against that other document, when their
	// texts differ and its text is stored.
	StoredDiff template.HTML
}

// matchRow is one match of a document: the other document, the score and
// the label.
type matchRow struct {
	ID, Title, Source, URL string
	Date                   time.Time
	Score                  float64
	Label                  core.Label
	Method                 string
	Earlier                bool // the other document was stored first
	// Role is, in a duplicate pair, the other document's: "original" when
	// it was published first (this one copies it), "copy" when it copies
	// this one; "" in a similar pair.
	Role string
	Diff string // the link to the pair's diff; "" for none
}

func (u *ui) checkForm(r *http.Request) (result, error) {
	return result{page: "check.html", title: "Check an article", data: checkPage{Form: article{Format: "auto"}}}, nil
}

// readArticle reads the article of a check or store form: pasted or
// uploaded text or HTML, HTML extracted with the site rules.
func (u *ui) readArticle(r *http.Request, p *checkPage) (core.Document, error) {
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
		if err := r.ParseMultipartForm(8 << 20); err != nil {
			if errors.As(err, new(*http.MaxBytesError)) {
				return core.Document{}, err
			}
			return core.Document{}, errorf(http.StatusBadRequest, "file", "the form could not be read: %v", err)
		}
	} else if err := parseForm(r); err != nil {
		return core.Document{}, err
	}
	get := func(k string) string { return strings.TrimSpace(r.PostForm.Get(k)) }
	f := article{ID: get("id"), Title: get("title"), URL: get("url"), Source: get("source"), Date: get("date"),
		Text: strings.ReplaceAll(r.PostForm.Get("text"), "\r\n", "\n"), Format: get("format")}
	p.Form = f
	if f.Format == "" {
		f.Format, p.Form.Format = "auto", "auto"
	}
	body := []byte(f.Text)
	if file, hdr, err := r.FormFile("file"); err == nil {
		defer file.Close()
		if body, err = readFile(file, hdr); err != nil {
			return core.Document{}, err
		}
		p.FileName = hdr.Filename
		switch name := strings.ToLower(hdr.Filename); {
		case f.Format != "auto":
		case strings.HasSuffix(name, ".html") || strings.HasSuffix(name, ".htm"):
			f.Format = "html"
		case strings.HasSuffix(name, ".txt"):
			f.Format = "text"
		}
	}
	doc := core.Document{ID: f.ID, Title: f.Title, URL: f.URL, Source: f.Source, Text: string(body)}
	// A page is decoded by the charset it declares (or its bytes) as it
	// is extracted: only text must be UTF-8.
	page := f.Format == "html" || (f.Format == "auto" && extract.LooksHTML(body, ""))
	if page {
		doc.Text = ""
	}
	switch {
	case f.ID != "" && checkID("id", f.ID) != nil:
		return doc, checkID("id", f.ID)
	case !page && !utf8.Valid(body):
		return doc, errorf(http.StatusBadRequest, "text", "the text is not UTF-8: upload the page as HTML, which says its charset")
	case f.Format != "auto" && f.Format != "text" && f.Format != "html":
		return doc, errorf(http.StatusBadRequest, "format", "the format %q is not auto, text or html", short(20, f.Format))
	case strings.TrimSpace(string(body)) == "":
		return doc, errorf(http.StatusBadRequest, "text", "paste an article or choose a file")
	}
	if field, why := doc.UnstorableField(); field != "" {
		return doc, errorf(http.StatusBadRequest, field, "the %s %s", field, why)
	}
	if field, max := doc.OverlongField(); field != "" {
		return doc, errorf(http.StatusBadRequest, field, "the %s is longer than %d bytes", field, max)
	}
	if f.Date != "" {
		d, err := parseFormDate(f.Date)
		switch {
		case err != nil:
			return doc, errorf(http.StatusBadRequest, "date", "the date %q is not a date such as 2026-11-26", short(20, f.Date))
		case core.WhyNoDate(d) != "":
			return doc, errorf(http.StatusBadRequest, "date", "the date %s %s: leave it empty for an undated article", f.Date, core.WhyNoDate(d))
		}
		doc.Date = d
	}
	if page {
		miss, err := u.extract(r, &doc, body)
		if err != nil {
			return doc, err
		}
		p.Extracted, p.RuleMiss = true, miss
		p.Form.Format = "text" // the form comes back holding the extracted text, which is no page
		// The page's text, checked as extracted.
		if field, why := doc.UnstorableField(); field != "" {
			return doc, errorf(http.StatusBadRequest, field, "the %s %s", field, why)
		}
	}
	if doc.ID == "" {
		doc.ID = defaultID(&doc)
	}
	p.Form.ID, p.Form.Title, p.Form.Text = doc.ID, doc.Title, doc.Text
	if !doc.Date.IsZero() {
		d := doc.Date.UTC()
		p.Form.Date, p.Form.When = d.Format("2006-01-02"), d.Format("2006-01-02")
		if !d.Equal(d.Truncate(24 * time.Hour)) {
			p.Form.When = d.Format(time.RFC3339)
		}
	}
	return doc, nil
}

// parseFormDate reads the date of a check or store form: a day, as the
// check form's date field sends it, or a date and time in RFC 3339, as
// the store form carries that of a page (article.When), its lower-case
// "t" and "z" too.
func parseFormDate(s string) (time.Time, error) {
	if d, err := time.Parse("2006-01-02", s); err == nil {
		return d, nil
	}
	d, err := core.ParseRFC3339(s)
	return d.UTC(), err
}

// readFile reads an uploaded file.
func readFile(file multipart.File, hdr *multipart.FileHeader) ([]byte, error) {
	b, err := io.ReadAll(file)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "file", "the file %s could not be read: %v", path.Base(hdr.Filename), err)
	}
	return b, nil
}

// extract replaces doc's text with the article of the HTML page body,
// and fills the title and date the form left empty. It returns the site
// rule's miss on the page, if any (extract.Article.RuleMiss).
func (u *ui) extract(r *http.Request, doc *core.Document, body []byte) (string, error) {
	a, skip, err := extract.Page(r.Context(), extract.Input{URL: doc.URL, ContentType: "text/html", Body: body},
		extract.Options{Rules: u.o.Rules, MinChars: -1, MaxBytes: int(u.o.MaxBytes)})
	switch {
	case err != nil:
		return "", errorf(http.StatusUnprocessableEntity, "text", "the HTML could not be extracted: %v", err)
	case skip != "":
		return "", errorf(http.StatusUnprocessableEntity, "text", "no article in the HTML (%s)", skip)
	}
	doc.Text = a.Text
	if doc.Title == "" {
		doc.Title = a.Title
	}
	if doc.Date.IsZero() {
		doc.Date = a.Date
	}
	return a.RuleMiss, nil
}

// defaultID names an article given without an id: by its URL, else by a
// hash of its title and text, so checking twice gives the same id.
func defaultID(d *core.Document) string {
	if d.URL != "" && len(d.URL) <= core.MaxIDBytes {
		return d.URL
	}
	h := sha256.Sum256([]byte(d.Title + "\x00" + d.Text))
	return "web-" + hex.EncodeToString(h[:8])
}

// check matches the article against the index without storing it.
func (u *ui) check(r *http.Request) (result, error) {
	var p checkPage
	doc, err := u.readArticle(r, &p)
	if refusedArticle(&p.Form, err) {
		return result{page: "check.html", title: "Check an article", status: statusOf(err), data: p}, nil
	}
	if err != nil {
		return result{}, err
	}
	ms, err := u.x.Query(r.Context(), doc)
	if err != nil {
		return result{}, err
	}
	p.Checked = true
	if len(ms) == 1 {
		if err := u.describe(r, &p, doc, ms[0]); err != nil {
			return result{}, err
		}
	}
	return result{page: "check.html", title: "Check an article", data: p}, nil
}

// describe fills a check page with the matches found for doc, and a diff
// against the best one.
func (u *ui) describe(r *http.Request, p *checkPage, doc core.Document, m neardup.Match) error {
	p.Skip = m.Skip
	// A pair names the stored match A, or B where the article is stored
	// and placed before it (see neardup.Match.Pairs).
	ids := []string{doc.ID}
	for i := range m.Pairs {
		ids = append(ids, m.Pairs[i].Other(m.ID))
	}
	docs, err := u.storedDocs(r.Context(), ids)
	if err != nil {
		return err
	}
	if stored, ok := docs[doc.ID]; ok {
		p.Stored = doc.ID
		if m.Status == neardup.Conflict {
			p.Differs = andList(m.Differs)
			if stored.Text != "" && stored.Text != doc.Text {
				d, err := diffHTML(r.Context(), stored.ID, stored.Title, stored.Text, doc.ID, doc.Title, doc.Text)
				if err != nil {
					return err
				}
				p.StoredDiff = d
			}
		}
	}
	for i := range m.Pairs {
		pr := &m.Pairs[i]
		id := pr.Other(m.ID)
		row := matchRow{ID: id, Score: pr.Score, Label: pr.Label, Method: pr.Method, Role: role(pr.Original, id)}
		if d, ok := docs[id]; ok {
			row.Title, row.Source, row.URL, row.Date = d.Title, d.Source, d.URL, d.Date
		}
		p.Matches = append(p.Matches, row)
	}
	if len(m.Pairs) > 0 {
		if best, ok := docs[m.Pairs[0].Other(m.ID)]; ok && best.Text != "" {
			d, err := diffHTML(r.Context(), best.ID, best.Title, best.Text, doc.ID, doc.Title, doc.Text)
			if err != nil {
				return err
			}
			p.Diff, p.DiffWith = d, best.ID
		}
	}
	return nil
}

// diffHTML renders the side-by-side diff of two texts; it stops with
// ctx's error when ctx ends first (the request's client went, or it took
// past the server's write timeout).
func diffHTML(ctx context.Context, idA, titleA, textA, idB, titleB, textB string) (template.HTML, error) {
	d, err := diff.CompareContext(ctx, textA, textB, diff.Options{MaxWords: diff.MaxServedWords}) // a stored text may be long
	if err != nil {
		return "", err
	}
	d.A.ID, d.A.Title, d.B.ID, d.B.Title = idA, titleA, idB, titleB
	var sb strings.Builder
	diff.WriteHTMLFragment(&sb, d) // writes to memory: never fails
	return template.HTML(sb.String()), nil
}

// refusedArticle keeps a client error on the form; it reports whether the
// form is to be shown again.
func refusedArticle(f *article, err error) bool {
	var se *statusError
	if !errors.As(err, &se) || se.Status >= 500 {
		return false
	}
	f.Error, f.Field = se.Msg, se.Field
	return true
}

func statusOf(err error) int {
	code, _, _ := status(err)
	return code
}

// store adds the article of the form (the text the check extracted) to the
// index and shows its page.
func (u *ui) store(r *http.Request) (result, error) {
	var p checkPage
	if err := parseForm(r); err != nil {
		return result{}, err
	}
	r.PostForm.Set("format", "text") // the text was extracted when it was checked
	r.Form.Set("format", "text")
	doc, err := u.readArticle(r, &p)
	if refusedArticle(&p.Form, err) {
		return result{page: "check.html", title: "Check an article", status: statusOf(err), data: p}, nil
	}
	if err != nil {
		return result{}, err
	}
	ms, err := u.x.Add(r.Context(), doc)
	if err != nil {
		return result{}, err
	}
	if len(ms) == 1 && (ms[0].Status == neardup.Exists || ms[0].Status == neardup.Conflict) {
		p.Form.Error, p.Form.Field = "A document with the id "+doc.ID+" is stored already: give another id.", "id"
		if ms[0].Status == neardup.Conflict {
			p.Form.Error = "A document with the id " + doc.ID + " is stored already, with another " + andList(ms[0].Differs) + ": give another id."
		}
		return result{page: "check.html", title: "Check an article", status: http.StatusConflict, data: p}, nil
	}
	return result{redirect: docPath(doc.ID) + "?stored=1"}, nil
}

// andList joins the names of fields as "title, date and text".
func andList(words []string) string {
	switch len(words) {
	case 0:
		return "content"
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// docPath is the path of a document's page.
func docPath(id string) string { return "/documents/" + pathEscape(id) }
