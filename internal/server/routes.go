package server

import (
	"embed"
	"errors"
	"fmt"
	"net/http"
	"path"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/server/httperr"
)

//go:embed openapi.json
var openapiFS embed.FS

// OpenAPI returns the OpenAPI 3 document of the API, as served at
// /openapi.json.
func OpenAPI() []byte {
	b, err := openapiFS.ReadFile("openapi.json")
	if err != nil {
		panic(err) // embedded: cannot fail
	}
	return b
}

// routes builds the handler: every API route with its method, a JSON 405
// for the other methods of an API path, a JSON 404 under /v1/ and the UI
// at "/".
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	for _, route := range s.api() {
		var allow []string
		for m, h := range route.methods {
			mux.Handle(m+" "+route.path, h)
			allow = append(allow, m)
			if m == "GET" {
				allow = append(allow, "HEAD")
			}
		}
		slices.Sort(allow)
		mux.Handle(route.path, s.methodNotAllowed(allow))
	}
	mux.Handle("/v1/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.writeJSON(w, r, http.StatusNotFound, &apiError{Msg: "no such route: " + r.URL.Path + " (see /openapi.json)"})
	}))
	if ui := s.o.UI; ui != nil {
		mux.Handle("/", ui)
		mux.Handle("POST /check", s.heavyUI(ui)) // the UI's check compares a posted text, as /v1/query does
		mux.Handle("GET /diff", s.heavyUI(ui))   // and its diff two stored texts, as /v1/diff does
	} else {
		mux.Handle("/", http.HandlerFunc(noUI))
	}
	return s.checkHost(s.met.instrument(s.recover(s.limit(s.uncleanAPIPaths(mux)))))
}

// uncleanAPIPaths answers a JSON 400 for an API path with dot segments or
// empty ones ("/v1/documents/../x", "/v1//stats") and a JSON 404 for "/v1",
// which the mux would redirect with an HTML body: every answer of the API
// is JSON. An id holding such segments is sent escaped (%2F), as any id
// with a slash.
func (s *Server) uncleanAPIPaths(mux http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.EscapedPath()
		switch {
		case p == "/v1":
			s.writeJSON(w, r, http.StatusNotFound, &apiError{Msg: "no such route: /v1 (see /openapi.json)"})
		case strings.HasPrefix(p, "/v1/") && cleanPath(p) != p:
			s.writeJSON(w, r, http.StatusBadRequest, &apiError{Msg: fmt.Sprintf("the path %s has dot or empty segments: send it as %s", p, cleanPath(p))})
		default:
			mux.ServeHTTP(w, r)
		}
	})
}

// cleanPath is path.Clean keeping a trailing slash: the path the mux
// redirects p to when they differ.
func cleanPath(p string) string {
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c
}

// route is a path of the API and its handler of each method.
type route struct {
	path    string
	methods map[string]http.Handler
}

// api lists the routes that /openapi.json describes.
func (s *Server) api() []route {
	return []route{
		{"/v1/documents", map[string]http.Handler{
			"POST": s.write(s.jsonHandler(s.postDocuments)), "GET": s.read(s.jsonHandler(s.latest))}},
		{"/v1/documents/{id...}", map[string]http.Handler{
			"GET": s.read(s.jsonHandler(s.document)), "DELETE": s.write(s.jsonHandler(s.deleteDocument))}},
		{"/v1/query", map[string]http.Handler{"POST": s.read(s.heavy(s.jsonHandler(s.query)))}},
		{"/v1/clusters", map[string]http.Handler{"GET": s.read(s.jsonHandler(s.clusters))}},
		{"/v1/clusters/{id}", map[string]http.Handler{"GET": s.read(s.jsonHandler(s.cluster))}},
		{"/v1/diff", map[string]http.Handler{"GET": s.read(s.heavy(http.HandlerFunc(s.diff)))}},
		{"/v1/search", map[string]http.Handler{"GET": s.read(s.jsonHandler(s.search))}},
		{"/v1/stats", map[string]http.Handler{"GET": s.read(s.jsonHandler(s.stats))}},
		{"/healthz", map[string]http.Handler{"GET": s.noParams(http.HandlerFunc(s.healthz))}},
		{"/readyz", map[string]http.Handler{"GET": s.noParams(http.HandlerFunc(s.readyz))}},
		{"/metrics", map[string]http.Handler{"GET": s.read(s.noParams(promhttp.HandlerFor(s.met.reg, promhttp.HandlerOpts{})))}},
		{"/openapi.json", map[string]http.Handler{"GET": s.read(s.noParams(http.HandlerFunc(serveOpenAPI)))}},
	}
}

func (s *Server) methodNotAllowed(allow []string) http.Handler {
	list := strings.Join(allow, ", ")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", list)
		s.writeJSON(w, r, http.StatusMethodNotAllowed, &apiError{Msg: fmt.Sprintf("%s does not answer %s (it answers %s)", r.URL.Path, r.Method, list)})
	})
}

// noParams refuses a request with a query string of any parameter, as
// every route refuses the parameters it does not take (see params).
func (s *Server) noParams(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := params(r); err != nil {
			s.writeError(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// write lets through the requests with a write token.
func (s *Server) write(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.authorize(w, r) {
			return
		}
		next.ServeHTTP(w, r)
	})
}

// read lets through every request, or with AuthReads those with a token.
func (s *Server) read(next http.Handler) http.Handler {
	if !s.o.AuthReads {
		return next
	}
	return s.write(next)
}

// authorize answers 401 or 403 for a request without a good token.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) bool {
	switch {
	case s.Authorized(r):
		return true
	case s.o.Tokens.Len() == 0:
		s.writeError(w, r, &apiError{Status: http.StatusForbidden, Field: "Authorization",
			Msg: "this server takes no writes: it was started without --token-file"})
	case r.Header.Get("Authorization") == "":
		s.writeError(w, r, &apiError{Status: http.StatusUnauthorized, Field: "Authorization",
			Msg: "this route needs a token: send Authorization: Bearer TOKEN"})
	default:
		s.writeError(w, r, &apiError{Status: http.StatusUnauthorized, Field: "Authorization", Msg: "the token is not one of this server's"})
	}
	return false
}

// limit bounds every request's body.
func (s *Server) limit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, s.o.MaxBodyBytes)
		next.ServeHTTP(w, r)
	})
}

// recover turns a panic into a logged 500 without a stack trace for the
// client.
func (s *Server) recover(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("panic serving a request", "method", r.Method, "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
				s.writeJSON(w, r, http.StatusInternalServerError, &apiError{Msg: "internal error; the server's log has the details"})
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// jsonHandler answers with what fn returns, as JSON, or its error.
func (s *Server) jsonHandler(fn func(r *http.Request) (any, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, err := fn(r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		s.writeJSON(w, r, http.StatusOK, v)
	})
}

func serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(OpenAPI())
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	s.writeJSON(w, r, http.StatusOK, map[string]string{"status": "ok"})
}

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	if s.draining.Load() {
		s.writeJSON(w, r, http.StatusServiceUnavailable, map[string]string{"status": "shutting down"})
		return
	}
	if err := s.ping(r); err != nil {
		s.log.Warn("index not ready", "err", err)
		status := "the index cannot be read"
		if errors.Is(err, neardup.ErrSettingsChanged) {
			status = httperr.Status(err).Msg // the reason its queries are answered with
		}
		s.writeJSON(w, r, http.StatusServiceUnavailable, map[string]string{"status": status})
		return
	}
	s.writeJSON(w, r, http.StatusOK, map[string]string{"status": "ready"})
}

const noUIPage = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>neardup</title></head>
<body><h1>neardup</h1><p>This server has no web UI. Its HTTP API is under <a href="/v1/documents">/v1/</a>,
described by <a href="/openapi.json">/openapi.json</a>.</p></body></html>
`

func noUI(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write([]byte(noUIPage))
}
