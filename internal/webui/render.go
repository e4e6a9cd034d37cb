package webui

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/diff"
	"github.com/neardup/neardup/internal/extract"
	why "github.com/neardup/neardup/internal/reason"
	"github.com/neardup/neardup/internal/server/httperr"
	"github.com/neardup/neardup/internal/watch"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed assets
var assetFS embed.FS

// pages are the parsed templates, by file name: each is the layout with
// one page's content.
type pages map[string]*template.Template

func parsePages() pages {
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		panic(err)
	}
	ps := pages{}
	for _, name := range names {
		base := path.Base(name)
		if base == "layout.html" || base == "partials.html" {
			continue
		}
		t := template.New(base).Funcs(funcs)
		ps[base] = template.Must(t.ParseFS(templateFS, "templates/layout.html", "templates/partials.html", name))
	}
	return ps
}

// funcs are the templates' helpers.
var funcs = template.FuncMap{
	"pct":      percent,
	"score":    func(f float64) string { return decimal(f, 3) },
	"date":     formatDate,
	"unix":     func(s int64) time.Time { return unixTime(s) },
	"ago":      ago,
	"short":    short,
	"query":    query,
	"filter":   filter,
	"esc":      pathEscape,
	"difflink": diffLink,
	"add":      func(a, b int) int { return a + b },
	"runes":    func(s string) int { return len([]rune(s)) },
	"nonzero":  func(t time.Time) bool { return !t.IsZero() },
	"plural":   plural,
	"isolate":  isolate,
	"weburl":   core.WebURL,
	"shownurl": watch.ShownURL,
	"count":    func(n int, one, many string) string { return fmt.Sprintf("%d %s", n, plural(n, one, many)) },
	"skipwhy":  skipWhy,
}

// skipWords say in words what each reason a document or page was not
// compared means; the pages show them beside the reason's name, which is
// what the API, index stats and rejects.jsonl call it.
var skipWords = map[core.SkipReason]string{
	core.SkipMalformed:        "not readable as a record of its format",
	core.SkipInvalidUTF8:      "its text is not valid UTF-8",
	core.SkipBinary:           "binary data, not text",
	core.SkipEmpty:            "no text",
	core.SkipTooLarge:         "over the size limit",
	core.SkipTooShort:         "shorter than the method compares",
	core.SkipGallery:          "a gallery or video page, not an article",
	core.SkipNoUnits:          "nothing the method compares is left once the text is analysed: no word, or no sentence or shingle long enough (a table, a list of short lines, symbols)",
	core.SkipExactCopy:        "an exact copy of a stored document",
	core.SkipRefused:          "refused: outside the limits of what is read",
	extract.SkipNotHTML:       "not an HTML page",
	extract.SkipNoArticle:     "no article text found on the page",
	extract.SkipNotArticleURL: "its URL does not match the site rule's article URLs",
	extract.SkipFeed:          "a web feed, which lists articles, not an article",
	extract.SkipSitemap:       "a sitemap, not an article",
}

// skipWhy writes why a document or page was not compared: the reason's
// name and, for a reason skipWords knows, what it means ("no-units:
// nothing the method compares is left …").
func skipWhy(r core.SkipReason) string {
	if w, ok := skipWords[r]; ok {
		return string(r) + ": " + w
	}
	return string(r)
}

// percent writes a share from 0 to 1 as a whole percentage (see
// reason.Percent): never 100% or 0% for a share that is not all or
// nothing.
func percent(f float64) string { return why.Percent(f) }

// decimal writes a score from 0 to 1 with digits decimals (see
// reason.Decimal): never 1 or 0 for a score that is not.
func decimal(f float64, digits int) string { return why.Decimal(f, digits) }

// isolate wraps s in FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, for
// text from documents where no element can isolate it (a page's <title>,
// an <option>): a title's own direction, or a control character in it
// such as an unclosed RIGHT-TO-LEFT OVERRIDE, cannot turn the text around.
func isolate(s string) string { return "\u2068" + s + "\u2069" }

// plural returns one when n is 1 and many otherwise: "1 match", "0
// matches", "3 matches".
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func unixTime(s int64) time.Time {
	if s == 0 {
		return time.Time{}
	}
	return time.Unix(s, 0).UTC()
}

// formatDate writes a time as "2006-01-02 15:04 UTC", a date without a
// time of day (midnight UTC to the second, as dates without one are kept)
// as "2006-01-02", and the zero time as "".
func formatDate(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	t = t.UTC()
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 {
		return t.Format("2006-01-02")
	}
	return t.Format("2006-01-02 15:04 UTC")
}

// ago writes how long ago t was for people: "3m ago", "2h ago", "4d ago".
func ago(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	d := time.Since(t)
	switch {
	case d < 0:
		return "in " + span(-d)
	case d < time.Minute:
		return "just now"
	}
	return span(d) + " ago"
}

func span(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// short cuts s to about n runes at a word boundary, with an ellipsis.
func short(n int, s string) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n])
	if i := strings.LastIndexAny(cut, " \n\t"); i > n/2 {
		cut = cut[:i]
	}
	return cut + "…"
}

// query returns the current query string with key set to value ("" drops
// it), for links that change one filter or the page.
func query(v url.Values, key, value string) string {
	q := cloneValues(v)
	if value == "" {
		q.Del(key)
	} else {
		q.Set(key, value)
	}
	if len(q) == 0 {
		return "?"
	}
	return "?" + q.Encode()
}

// filter returns the query of a list with the filter key set to value
// and the others kept, for a link that narrows the list: from its first
// page (the page shown is one of the list unfiltered), without the notice
// of a removal ("removed") that led to it.
func filter(v url.Values, key, value string) string {
	q := cloneValues(v)
	q.Del("page")
	q.Del("removed")
	return query(q, key, value)
}

// cloneValues returns a copy of v that can be changed without changing v.
func cloneValues(v url.Values) url.Values {
	q := make(url.Values, len(v))
	for k, vs := range v {
		q[k] = vs
	}
	return q
}

// result is what a page handler returns: a page to render with its data,
// or a place to redirect to.
type result struct {
	page     string // template file, e.g. "feeds.html"
	title    string
	status   int // 0 means 200
	data     any
	redirect string       // when set, 303 See Other to it
	cookie   *http.Cookie // set with the answer
}

// view is what every template receives.
type view struct {
	Title  string
	Path   string     // the request's path, for the navigation
	Here   string     // the page to come back to after signing in: the path as sent, and the query of a GET
	Query  url.Values // the request's query
	Writer bool       // the request carries a valid write token
	Cookie bool       // ... in the sign-in cookie (the sign-out button shows)
	CSRF   string     // the value of the forms' csrf field
	Data   any
	// ReadOnly is set when this process may not write the index (another
	// user's file, served for reading): a writer's forms that would store,
	// remove or save are not shown, and a notice says why.
	ReadOnly bool
}

// statusError is an error with the HTTP status it answers with and, for a
// form, the field it concerns (see httperr.Error).
type statusError = httperr.Error

func errorf(code int, field, format string, args ...any) error {
	return httperr.Errorf(code, field, format, args...)
}

// errorPage is the data of error.html.
type errorPage struct {
	Code    int
	Message string
	Field   string
	SignIn  bool // offer the sign-in form
	Next    string
}

// status maps an error to its HTTP status, the message shown and the
// field it concerns: httperr.Status, the API's mapping. Unknown errors are
// 500 with a generic message; the caller logs them.
func status(err error) (int, string, string) {
	e := httperr.Status(err)
	return e.Status, e.Msg, e.Field
}

// fail renders an error page.
// A page stopped at the server's write timeout says so (its context's
// cause, httperr.ErrTooLong) and is logged as a warning.
func (u *ui) fail(w http.ResponseWriter, r *http.Request, err error) {
	err = httperr.Cause(r.Context(), err)
	code, msg, field := status(err)
	switch {
	case errors.Is(err, httperr.ErrTooLong):
		u.log.Warn("web UI: page stopped", "method", r.Method, "path", r.URL.Path, "error", err)
	case code >= 500 && code != http.StatusServiceUnavailable:
		u.log.Error("web UI", "method", r.Method, "path", r.URL.Path, "error", err)
	}
	p := errorPage{Code: code, Message: msg, Field: field}
	if code == http.StatusUnauthorized {
		p.SignIn, p.Next = true, localPath(r.URL.RequestURI())
		w.Header().Set("WWW-Authenticate", `Bearer realm="neardup"`)
	}
	u.render(w, r, result{page: "error.html", title: http.StatusText(code), status: code, data: p})
}

// render writes a result: a page through its template, or a redirect.
func (u *ui) render(w http.ResponseWriter, r *http.Request, res result) {
	if res.cookie != nil {
		http.SetCookie(w, res.cookie)
	}
	if res.redirect != "" {
		http.Redirect(w, r, res.redirect, http.StatusSeeOther)
		return
	}
	t := u.pages[res.page]
	if t == nil {
		panic("webui: no template " + res.page)
	}
	tok, fromCookie := u.token(r)
	writer := u.authorized(tok)
	v := view{Title: res.title, Path: r.URL.Path, Here: localPath(r.URL.EscapedPath()), Query: r.URL.Query(), Writer: writer,
		Cookie: writer && fromCookie, Data: res.data}
	if r.Method == http.MethodGet && r.URL.RawQuery != "" {
		v.Here = localPath(r.URL.EscapedPath() + "?" + r.URL.RawQuery)
	}
	if writer {
		v.CSRF = u.csrf(tok)
		v.ReadOnly = u.x.Writable() != nil
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout", v); err != nil {
		u.log.Error("web UI template", "page", res.page, "error", err)
		http.Error(w, "the page could not be rendered", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	code := res.status
	if code == 0 {
		code = http.StatusOK
	}
	w.WriteHeader(code)
	w.Write(buf.Bytes())
}

// handler is a page's work: it reads the request and returns what to show.
type handler func(r *http.Request) (result, error)

// serve runs h and renders its result or its error.
func (u *ui) serve(w http.ResponseWriter, r *http.Request, h handler) {
	res, err := h(r)
	if err != nil {
		u.fail(w, r, err)
		return
	}
	u.render(w, r, res)
}

// open serves a page anyone may see: sign-in, sign-out, not found.
func (u *ui) open(h handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { u.serve(w, r, h) })
}

// read serves a page that needs a token only under AuthReads. A form
// posted to it with the sign-in cookie carries the CSRF field.
func (u *ui) read(h handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, u.o.MaxBytes)
		if u.o.AuthReads {
			if err := u.need(r); err != nil {
				u.fail(w, r, err)
				return
			}
		}
		u.serve(w, r, h)
	})
}

// write serves a page that needs a write token, with the CSRF check of
// every form posted with the sign-in cookie.
func (u *ui) write(h handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, u.o.MaxBytes)
		if err := u.need(r); err != nil {
			u.fail(w, r, err)
			return
		}
		u.serve(w, r, h)
	})
}

// assets serves the embedded stylesheet, the diff's stylesheet appended,
// the script and the icon (also as /favicon.ico); nothing else.
func assets() http.Handler {
	read := func(name string) []byte {
		b, err := assetFS.ReadFile("assets/" + name)
		if err != nil {
			panic(err)
		}
		return b
	}
	type asset struct {
		ctype string
		body  []byte
	}
	css := append(read("style.css"), "\n/* side-by-side diffs (package diff) */\n"+diff.HTMLStyle+"\n"...)
	files := map[string]asset{
		"/assets/style.css": {"text/css; charset=utf-8", css},
		"/assets/ui.js":     {"text/javascript; charset=utf-8", read("ui.js")},
		"/assets/icon.svg":  {"image/svg+xml", read("icon.svg")},
		"/favicon.ico":      {"image/svg+xml", read("icon.svg")}, // asked for by browsers that miss the page's icon link
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", a.ctype)
		w.Header().Set("Cache-Control", "public, max-age=3600")
		w.Write(a.body)
	})
}

// parseForm parses a request's form; a form that cannot be read is a 400,
// one too large a 413.
func parseForm(r *http.Request) error {
	err := r.ParseForm()
	if err == nil || errors.As(err, new(*http.MaxBytesError)) {
		return err
	}
	return errorf(http.StatusBadRequest, "", "the form could not be read: %v", err)
}
