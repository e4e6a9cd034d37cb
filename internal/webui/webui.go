// Package webui owns the web UI of neardup serve: server-rendered HTML
// pages over a stored index (the latest documents with their marks, the
// clusters, side-by-side diffs of any pair, search, a document's page, a
// form that checks a pasted or uploaded article before storing it) and
// the feed admin pages of the watcher (feeds with their last poll, status
// and counts; add, edit, remove; a site rule tried on a page before it is
// saved).
//
// Pages are html/template files and one stylesheet, embedded in the
// binary; a small script only adds keyboard shortcuts, so every page reads
// and works without JavaScript. Reads are open unless Options.AuthReads;
// writes (storing an article, the feed admin) need a write token, given as
// a bearer header or once in the sign-in form, which keeps it in an
// HttpOnly, SameSite=Strict cookie. Forms that change anything carry a
// token bound to the write token (CSRF), and cross-origin browser posts
// are refused (http.CrossOriginProtection).
package webui

import (
	"crypto/rand"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/neardup/neardup/internal/extract/rules"
	"github.com/neardup/neardup/internal/watch"
)

// Options configure the web UI. The zero value serves a read-only UI:
// every page that writes answers 401.
type Options struct {
	// Authorized reports whether token is a write token; the server
	// compares it in constant time with those of its token file. nil
	// means no token is valid.
	Authorized func(token string) bool
	// AuthReads makes every page need a write token, as the API's reads
	// do under `neardup serve --auth-reads`.
	AuthReads bool
	// Rules are the site rules pasted or uploaded HTML is extracted with;
	// nil means none (the extractor's own choice of the article).
	Rules *rules.Set
	// Watch are the watcher's options used when a site rule is tried on a
	// page (User-Agent, timeouts, size limits, minimum length); the zero
	// value means the watcher's defaults.
	Watch watch.Options
	// MaxBytes bounds a form's body (a pasted or uploaded article); 0
	// means 10 MiB.
	MaxBytes int64
	// Logger receives the errors a page could not recover from; nil
	// means slog.Default().
	Logger *slog.Logger
	// tryTimeout bounds a rule's trial (see the constant); 0 means
	// tryTimeout. Tests set it.
	tryTimeout time.Duration
}

// DefaultMaxBytes is the largest form body when Options.MaxBytes is 0.
const DefaultMaxBytes = 10 << 20

// ui is the handler New returns.
type ui struct {
	x     Index
	o     Options
	pages pages
	key   []byte // signs the forms' CSRF tokens; new with every New
	mux   *http.ServeMux
	log   *slog.Logger
}

// Handler is the web UI's http.Handler, with what the server asks of it
// before it gives a page that compares texts its turn (see Admit, Fail).
// Safe for concurrent use.
type Handler struct {
	u *ui
	h http.Handler
}

// ServeHTTP serves the UI's pages.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.h.ServeHTTP(w, r) }

// Admit returns the error a read page answers r with on its headers
// alone, before it reads the body: under AuthReads, a request with no
// valid write token, as a bearer header or the sign-in cookie; nil
// otherwise (a form's CSRF field is checked when the page is served).
func (h *Handler) Admit(r *http.Request) error {
	if !h.u.o.AuthReads {
		return nil
	}
	if tok, _ := h.u.token(r); h.u.authorized(tok) {
		return nil
	}
	return h.u.need(r) // refuses on the token alone: reads no body
}

// Fail answers r with err's error page, as the UI answers its own errors:
// an HTML page with its status, for a browser.
func (h *Handler) Fail(w http.ResponseWriter, r *http.Request, err error) {
	headers(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.u.fail(w, r, err) })).ServeHTTP(w, r)
}

// New returns the web UI over x. It serves every path but those of the
// API ("/v1/...", "/healthz", "/readyz", "/metrics", "/openapi.json"),
// which the server routes elsewhere. The handler is safe for concurrent
// use; the Index stays the caller's to close.
func New(x Index, o Options) *Handler {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.tryTimeout <= 0 {
		o.tryTimeout = tryTimeout
	}
	u := &ui{x: x, o: o, pages: parsePages(), key: make([]byte, 32), mux: http.NewServeMux(), log: o.Logger}
	rand.Read(u.key) // never fails (crypto/rand)
	u.routes()
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u.fail(w, r, errorf(http.StatusForbidden, "", "a form of another site cannot post here"))
	}))
	return &Handler{u: u, h: headers(cop.Handler(u.mux))}
}

// routes registers every page. A read page needs a token only under
// AuthReads; a write page always does.
func (u *ui) routes() {
	m := u.mux
	m.Handle("GET /assets/", assets())
	m.Handle("GET /favicon.ico", assets())
	m.Handle("GET /{$}", u.read(u.latest))
	m.Handle("GET /documents/{id}", u.read(u.document))
	m.Handle("POST /documents/{id}/remove", u.write(u.removeDocument))
	m.Handle("GET /documents/{id}/remove", u.write(reopened(func(r *http.Request) string { return docPath(r.PathValue("id")) })))
	m.Handle("GET /clusters", u.read(u.clusters))
	m.Handle("GET /clusters/{id}", u.read(u.cluster))
	m.Handle("GET /diff", u.read(u.diff))
	m.Handle("GET /search", u.read(u.search))
	m.Handle("GET /check", u.read(u.checkForm))
	m.Handle("POST /check", u.read(u.check))
	m.Handle("POST /store", u.write(u.store))
	m.Handle("GET /store", u.write(reopened(func(*http.Request) string { return "/check" })))
	m.Handle("GET /signin", u.open(u.signinForm))
	m.Handle("POST /signin", u.open(u.signin))
	m.Handle("POST /signout", u.open(u.signout))
	m.Handle("GET /signout", u.open(reopened(func(*http.Request) string { return "/" })))
	m.Handle("GET /feeds", u.write(u.feeds))
	m.Handle("POST /feeds", u.write(u.addFeed))
	m.Handle("POST /feeds/try", u.write(u.tryRule))
	m.Handle("GET /feeds/try", u.write(u.tryReopened))
	m.Handle("GET /feeds/{id}", u.write(u.feed))
	m.Handle("POST /feeds/{id}", u.write(u.saveFeed))
	m.Handle("POST /feeds/{id}/remove", u.write(u.removeFeed))
	m.Handle("GET /feeds/{id}/remove", u.write(reopened(func(r *http.Request) string { return "/feeds/" + pathEscape(r.PathValue("id")) })))
	m.Handle("/", http.HandlerFunc(u.notFound))
}

// notFound answers a request no page's route takes: 405 with Allow when
// pages answer its path with other methods (PUT /, POST /clusters), as the
// API does, else 404.
func (u *ui) notFound(w http.ResponseWriter, r *http.Request) {
	if allow := u.allowed(r); allow != "" {
		w.Header().Set("Allow", allow)
		u.fail(w, r, errorf(http.StatusMethodNotAllowed, "", "%s does not answer %s (it answers %s)", r.URL.Path, r.Method, allow))
		return
	}
	u.fail(w, r, errorf(http.StatusNotFound, "", "no such page"))
}

// allowed returns the methods the routes of r's path answer, "GET, HEAD",
// "POST" or "GET, HEAD, POST"; "" when none does. The catch-all route "/"
// takes every method, so the mux never answers 405 by itself: it is asked
// which route each method of the UI's would take.
func (u *ui) allowed(r *http.Request) string {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		probe := r.WithContext(r.Context())
		probe.Method = m
		if _, pattern := u.mux.Handler(probe); pattern != "" && pattern != "/" {
			allow = append(allow, m)
			if m == http.MethodGet {
				allow = append(allow, http.MethodHead)
			}
		}
	}
	return strings.Join(allow, ", ")
}

// reopened answers the address of a form's action opened by itself, as a
// reload or a bookmark of the page a refused form showed there opens it
// (a GET; the form is not sent again): it goes back to the page the form
// was sent from, where it can be sent again.
func reopened(back func(r *http.Request) string) handler {
	return func(r *http.Request) (result, error) { return result{redirect: back(r)}, nil }
}

// headers sets the security headers of every answer: no inline scripts
// or styles, no framing, no content sniffing.
func headers(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "same-origin")
		hd.Set("X-Frame-Options", "DENY")
		h.ServeHTTP(w, r)
	})
}
