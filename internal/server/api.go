package server

import (
	"context"
	"fmt"
	"mime"
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
	"github.com/neardup/neardup/internal/server/api"
	"github.com/neardup/neardup/internal/server/browse"
)

// Result is what became of one posted document (see api.Result).
type Result = api.Result

// Match is a stored document a posted one matches, and why (see
// api.Match).
type Match = api.Match

// Results answers POST /v1/documents and POST /v1/query.
type Results struct {
	Results []Result `json:"results"`
}

func results(ms []neardup.Match) Results {
	out := Results{Results: make([]Result, len(ms))}
	for i := range ms {
		out.Results[i] = api.ResultOf(&ms[i])
	}
	return out
}

// sketch sketches docs for the index, outside its lock.
func (s *Server) sketch(docs []core.Document) []neardup.Sketch {
	sk := s.sketchers.Get().(*neardup.Sketcher)
	defer s.sketchers.Put(sk)
	out := make([]neardup.Sketch, len(docs))
	for i := range docs {
		out[i] = sk.Sketch(&docs[i])
	}
	return out
}

func (s *Server) postDocuments(r *http.Request) (any, error) {
	q, err := params(r, "replace")
	if err != nil {
		return nil, err
	}
	replace, err := boolParam(q, "replace")
	if err != nil {
		return nil, err
	}
	docs, err := s.readDocs(r, true, bodyLimit{s.o.MaxBodyBytes, "--max-body"})
	if err != nil {
		return nil, err
	}
	ms, err := s.add.add(r.Context(), docs, s.sketch(docs), replace)
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		s.met.added.WithLabelValues(string(m.Status)).Inc()
	}
	return results(ms), nil
}

func (s *Server) query(r *http.Request) (any, error) {
	if _, err := params(r); err != nil {
		return nil, err
	}
	docs, err := s.readDocs(r, false, bodyLimit{s.o.MaxQueryBytes, "--max-query-bytes"})
	if err != nil {
		return nil, err
	}
	ms, err := s.x.AddSketched(r.Context(), docs, s.sketch(docs), neardup.AddOptions{Query: true})
	if err != nil {
		return nil, err
	}
	return results(ms), nil
}

// pathID returns the document id of the request's path.
func pathID(r *http.Request) (string, error) {
	id := r.PathValue("id")
	if err := checkID(id); err != nil {
		return "", err
	}
	return id, nil
}

func (s *Server) document(r *http.Request) (any, error) {
	if _, err := params(r); err != nil {
		return nil, err
	}
	id, err := pathID(r)
	if err != nil {
		return nil, err
	}
	return s.x.Document(r.Context(), id)
}

// Removed answers DELETE /v1/documents/{id}.
type Removed struct {
	Removed string `json:"removed"`
}

func (s *Server) deleteDocument(r *http.Request) (any, error) {
	if _, err := params(r); err != nil {
		return nil, err
	}
	id, err := pathID(r)
	if err != nil {
		return nil, err
	}
	removed, err := s.x.Remove(context.WithoutCancel(r.Context()), id)
	if err != nil {
		return nil, err
	}
	if len(removed) == 0 {
		return nil, fmt.Errorf("%w: no document %q", neardup.ErrNotFound, id)
	}
	return Removed{Removed: id}, nil
}

// DocumentList answers GET /v1/documents.
type DocumentList struct {
	Documents []browse.Summary `json:"documents"`
	// NextOffset is the offset of the next page; absent on the last, and
	// when the next would start past the deepest offset taken (100,000).
	NextOffset int `json:"next_offset,omitempty"`
}

func (s *Server) latest(r *http.Request) (any, error) {
	q, err := params(r, "source", "since", "until", "label", "limit", "offset")
	if err != nil {
		return nil, err
	}
	f, err := docFilter(q)
	if err != nil {
		return nil, err
	}
	p, err := page(q)
	if err != nil {
		return nil, err
	}
	docs, more, err := s.x.Latest(r.Context(), f, p)
	if err != nil {
		return nil, err
	}
	return DocumentList{Documents: docs, NextOffset: next(p, more)}, nil
}

// ClusterList answers GET /v1/clusters.
type ClusterList struct {
	Clusters   []browse.ClusterSummary `json:"clusters"`
	NextOffset int                     `json:"next_offset,omitempty"`
}

func (s *Server) clusters(r *http.Request) (any, error) {
	q, err := params(r, "source", "since", "until", "label", "min_size", "limit", "offset")
	if err != nil {
		return nil, err
	}
	df, err := docFilter(q)
	if err != nil {
		return nil, err
	}
	f := neardup.ClusterFilter{Source: df.Source, Since: df.Since, Until: df.Until, Label: df.Label}
	if f.MinSize, err = intParam(q, "min_size", 2, 2, 1<<30); err != nil {
		return nil, err
	}
	p, err := page(q)
	if err != nil {
		return nil, err
	}
	cs, more, err := s.x.Clusters(r.Context(), f, p)
	if err != nil {
		return nil, err
	}
	return ClusterList{Clusters: cs, NextOffset: next(p, more)}, nil
}

func (s *Server) cluster(r *http.Request) (any, error) {
	if _, err := params(r); err != nil {
		return nil, err
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return nil, badRequest("id", "a cluster id is a positive integer")
	}
	return s.x.Cluster(r.Context(), id)
}

// SearchPage answers GET /v1/search: a page of the hits and, when more
// ranked hits follow it, the offset of the next page.
type SearchPage struct {
	browse.SearchResult
	NextOffset int `json:"next_offset,omitempty"`
}

func (s *Server) search(r *http.Request) (any, error) {
	q, err := params(r, "q", "limit", "offset")
	if err != nil {
		return nil, err
	}
	text, err := textParam(q, "q", neardup.MaxSearchBytes)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(text) == "" {
		return nil, badRequest("q", "q is missing: the words to search for")
	}
	p, err := page(q)
	if err != nil {
		return nil, err
	}
	res, err := s.x.Search(r.Context(), text, p)
	if err != nil {
		return nil, err
	}
	return SearchPage{SearchResult: res, NextOffset: next(p, p.Offset+p.Limit < res.Ranked)}, nil
}

func (s *Server) stats(r *http.Request) (any, error) {
	if _, err := params(r); err != nil {
		return nil, err
	}
	return s.x.Stats(r.Context())
}

// diff answers GET /v1/diff?a=ID&b=ID[&by=word|sentence|line]: the
// aligned diff of two stored documents' texts, as JSON or, for a client
// that accepts text/html before JSON, as a side-by-side HTML page.
func (s *Server) diff(w http.ResponseWriter, r *http.Request) {
	d, err := s.compare(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if wantsHTML(r) {
		// A page of documents' text: its own inline style, nothing else, in
		// no other site's frame.
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
		w.Header().Set("X-Frame-Options", "DENY")
		w.Header().Set("Referrer-Policy", "no-referrer")
		err = diff.WriteHTML(w, d)
	} else {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		err = diff.WriteJSON(w, d)
	}
	if err != nil {
		s.log.Warn("writing a diff", "err", err)
	}
}

func (s *Server) compare(r *http.Request) (*diff.Diff, error) {
	q, err := params(r, "a", "b", "by")
	if err != nil {
		return nil, err
	}
	by := diff.ByWord
	if v := q.Get("by"); v != "" {
		if by, err = diff.ParseBy(v); err != nil {
			return nil, badRequest("by", "by is word, sentence or line")
		}
	}
	if !s.x.Meta().StoreText {
		return nil, &apiError{Status: http.StatusConflict,
			Msg: "the index stores no texts, so it cannot show diffs (create it with texts: neardup index add --store-text)"}
	}
	ids := [2]string{q.Get("a"), q.Get("b")}
	for i, name := range []string{"a", "b"} {
		if err := checkID(ids[i]); err != nil {
			return nil, badRequest(name, strings.Replace(err.Error(), "id", name, 1))
		}
	}
	var docs [2]browse.Document
	for i, id := range ids {
		if docs[i], err = s.x.Document(r.Context(), id); err != nil {
			return nil, err
		}
	}
	d, err := diff.CompareContext(r.Context(), docs[0].Text, docs[1].Text, diff.Options{By: by, MaxWords: diff.MaxServedWords})
	if err != nil {
		return nil, fmt.Errorf("comparing %s and %s: %w", ids[0], ids[1], err)
	}
	d.A.ID, d.A.Title = docs[0].ID, docs[0].Title
	d.B.ID, d.B.Title = docs[1].ID, docs[1].Title
	return d, nil
}

// wantsHTML reports whether the request's Accept header prefers text/html
// to JSON.
func wantsHTML(r *http.Request) bool {
	best, bestQ := "", -1.0
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, ps, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		qv := 1.0
		if v, ok := ps["q"]; ok {
			if qv, err = strconv.ParseFloat(v, 64); err != nil {
				continue
			}
		}
		if (mt == "text/html" || mt == "application/json") && qv > bestQ {
			best, bestQ = mt, qv
		}
	}
	return best == "text/html"
}

// ping reads the index's head, within two seconds.
func (s *Server) ping(r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	return s.x.Ping(ctx)
}

// params returns the request's query, refusing parameters not named and
// parameters given twice.
func params(r *http.Request, known ...string) (url.Values, error) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, badRequest("", "malformed query string: "+err.Error())
	}
	for k, vs := range q {
		ok := false
		for _, n := range known {
			ok = ok || k == n
		}
		switch {
		case !ok && len(known) == 0:
			return nil, badRequest(trim(k), fmt.Sprintf("unknown parameter %q: this route takes none", trim(k)))
		case !ok:
			return nil, badRequest(trim(k), fmt.Sprintf("unknown parameter %q (known: %s)", trim(k), strings.Join(known, ", ")))
		case len(vs) > 1:
			return nil, badRequest(k, fmt.Sprintf("%s is given %d times", k, len(vs)))
		}
	}
	return q, nil
}

// trim shortens what a client sent to quote it back.
func trim(s string) string {
	if len(s) > 64 {
		return strings.ToValidUTF8(s[:64], "") + "…"
	}
	return strings.ToValidUTF8(s, "")
}

func textParam(q url.Values, name string, maxBytes int) (string, error) {
	v := q.Get(name)
	switch {
	case len(v) > maxBytes:
		return "", badRequest(name, fmt.Sprintf("%s is longer than %d bytes", name, maxBytes))
	case !utf8.ValidString(v):
		return "", badRequest(name, name+" is not UTF-8")
	case strings.ContainsFunc(v, unicode.IsControl):
		return "", badRequest(name, name+" holds a control character")
	}
	return v, nil
}

func intParam(q url.Values, name string, def, lo, hi int) (int, error) {
	v := q.Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, badRequest(name, fmt.Sprintf("%s is a whole number from %d to %d", name, lo, hi))
	}
	return n, nil
}

// boolParam reads a boolean parameter as strconv.ParseBool does (1, t, T,
// TRUE, true, True; 0, f, F, FALSE, false, False), and as false when it is
// absent or empty; its refusal names every value it takes.
func boolParam(q url.Values, name string) (bool, error) {
	v := q.Get(name)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, badRequest(name, name+" is true or false: 1, t, T, TRUE, true or True; 0, f, F, FALSE, false or False (empty is false)")
	}
	return b, nil
}

// maxOffset bounds how deep a client may page: deep pages cost a scan.
const maxOffset = 100000

func page(q url.Values) (neardup.Page, error) {
	limit, err := intParam(q, "limit", neardup.DefaultPage, 1, neardup.MaxPage)
	if err != nil {
		return neardup.Page{}, err
	}
	offset, err := intParam(q, "offset", 0, 0, maxOffset)
	return neardup.Page{Offset: offset, Limit: limit}, err
}

// next is the offset of the page after p, when more follows and that
// offset may be asked for (at most maxOffset); else 0, for none.
func next(p neardup.Page, more bool) int {
	if !more || p.Offset+p.Limit > maxOffset {
		return 0
	}
	return p.Offset + p.Limit
}

// docFilter reads the filters documents and clusters share: source,
// since, until and label.
func docFilter(q url.Values) (f neardup.DocFilter, err error) {
	if f.Source, err = textParam(q, "source", core.MaxSourceBytes); err != nil {
		return f, err
	}
	if f.Since, f.Until, err = window(q); err != nil {
		return f, err
	}
	f.Label, err = labelParam(q)
	return f, err
}

func window(q url.Values) (since, until int64, err error) {
	for _, f := range []struct {
		name string
		dst  *int64
	}{{"since", &since}, {"until", &until}} {
		if v := q.Get(f.name); v != "" {
			t, err := parseTime(v)
			if err != nil {
				return 0, 0, badRequest(f.name, err.Error())
			}
			*f.dst = t.Unix()
		}
	}
	if since != 0 && until != 0 && until <= since {
		return 0, 0, badRequest("until", "until is not after since")
	}
	return since, until, nil
}

func labelParam(q url.Values) (core.Label, error) {
	switch l := core.Label(q.Get("label")); l {
	case "", core.Duplicate, core.Similar:
		return l, nil
	}
	return "", badRequest("label", "label is duplicate or similar")
}
