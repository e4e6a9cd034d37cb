package server

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/jsonenc"
)

// docInput is a document as a client sends it.
type docInput struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Text   string `json:"text"`
	URL    string `json:"url"`
	Source string `json:"source"`
	// Date is RFC 3339 ("2024-05-01T12:00:00Z") or a day ("2024-05-01").
	Date string `json:"date"`
}

// MaxIDBytes bounds a document's id, in bytes (core.MaxIDBytes); its
// title, URL and source are bounded by core.Document.OverlongField, its
// text by the body's limit.
const MaxIDBytes = core.MaxIDBytes

// jsonTypes are the content types POST bodies may have: one JSON document,
// a JSON array of them, or JSON Lines.
var jsonTypes = map[string]bool{"application/json": true, "application/x-ndjson": true, "application/jsonl": true,
	"application/x-jsonlines": true, "application/jsonlines": true}

// bodyLimit is the size limit of a body and the flag that sets it.
type bodyLimit struct {
	bytes int64
	flag  string
}

// readDocs reads the documents of a POST body of at most limit bytes.
// needID says whether each must name its id (a query's need not: they are
// numbered).
func (s *Server) readDocs(r *http.Request, needID bool, limit bodyLimit) ([]core.Document, error) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || !jsonTypes[mt] {
		return nil, &apiError{Status: http.StatusUnsupportedMediaType, Field: "Content-Type",
			Msg: "send documents as Content-Type: application/json (an object or an array) or application/x-ndjson (one object a line)"}
	}
	body, err := s.readBody(r, limit)
	if err != nil {
		return nil, err
	}
	// A byte-order mark, which Windows editors write at the start of a
	// file saved as UTF-8, is passed over, as neardup index add does.
	body = bytes.TrimPrefix(body, []byte("\uFEFF"))
	raws, err := s.split(body, mt != "application/json")
	if err != nil {
		return nil, err
	}
	docs := make([]core.Document, len(raws))
	for i, raw := range raws {
		if err := decodeDoc(raw.data, &docs[i], needID); err != nil {
			var ae *apiError
			errors.As(err, &ae)
			ae.Msg = fmt.Sprintf("document %d (line %d): %s", i+1, raw.line, ae.Msg)
			return nil, ae
		}
		if docs[i].ID == "" {
			docs[i].ID = fmt.Sprintf("#%d", i+1)
		}
		docs[i].Origin = fmt.Sprintf("request document %d", i+1)
	}
	return docs, nil
}

// readBody reads a request's body, inflating it when its Content-Encoding
// is gzip; the size limit holds for the body both as sent and as inflated.
func (s *Server) readBody(r *http.Request, limit bodyLimit) ([]byte, error) {
	var rd io.Reader = http.MaxBytesReader(nil, r.Body, limit.bytes)
	zipped := false
	switch enc := strings.ToLower(strings.TrimSpace(r.Header.Get("Content-Encoding"))); enc {
	case "", "identity":
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(rd)
		switch {
		case isTimeout(err):
			return nil, &apiError{Status: http.StatusRequestTimeout,
				Msg: "the body did not arrive in time (the server's --read-timeout): send it at once, or in smaller requests"}
		case err != nil:
			return nil, badRequest("Content-Encoding", "the body is not gzip: "+err.Error())
		}
		defer zr.Close()
		rd, zipped = io.LimitReader(zr, limit.bytes+1), true
	default:
		return nil, &apiError{Status: http.StatusUnsupportedMediaType, Field: "Content-Encoding",
			Msg: fmt.Sprintf("Content-Encoding %q: send the body as it is, or gzip-compressed", enc)}
	}
	body, err := io.ReadAll(rd)
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return nil, &apiError{Status: http.StatusRequestEntityTooLarge,
			Msg: fmt.Sprintf("the body is larger than %d bytes (see %s)", mbe.Limit, limit.flag)}
	case isTimeout(err):
		return nil, &apiError{Status: http.StatusRequestTimeout,
			Msg: "the body did not arrive in time (the server's --read-timeout): send it at once, or in smaller requests"}
	case err != nil && zipped:
		return nil, badRequest("Content-Encoding", "the gzip body is cut short or damaged: "+err.Error())
	case err != nil:
		return nil, &apiError{Status: http.StatusBadRequest, Msg: "reading the body: " + err.Error()}
	case int64(len(body)) > limit.bytes:
		return nil, &apiError{Status: http.StatusRequestEntityTooLarge,
			Msg: fmt.Sprintf("the body inflates to more than %d bytes (see %s)", limit.bytes, limit.flag)}
	}
	return body, nil
}

// isTimeout reports whether err is a deadline passed: the connection's
// read deadline, which the server's ReadTimeout sets, ends a body sent too
// slowly.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// rawDoc is a document's JSON object and the line it starts on.
type rawDoc struct {
	data json.RawMessage
	line int
}

// split cuts a body into its documents' JSON objects: the elements of an
// array, or the objects one after another (JSON Lines, when jsonLines is set;
// else one), each with the line it starts on.
func (s *Server) split(body []byte, jsonLines bool) ([]rawDoc, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	var out []rawDoc
	lines := lineCounter{body: body, line: 1}
	top := int64(0) // where the top-level value being read starts: a document, or the array
	// next decodes the next value, a document.
	next := func() error {
		start := dec.InputOffset()
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return syntaxError(body, top, start, err)
		}
		if len(out) == s.o.MaxBatch {
			return s.tooMany()
		}
		out = append(out, rawDoc{raw, lines.at(dec.InputOffset() - int64(len(raw)))})
		return nil
	}
	for {
		start := skipSpace(body, dec.InputOffset())
		if start == int64(len(body)) {
			break
		}
		top = start
		if body[start] != '[' {
			if len(out) > 0 && !jsonLines {
				return nil, badRequest("", fmt.Sprintf("line %d: data after the document: send several as an array, or one a line as application/x-ndjson",
					lineAt(body, start)))
			}
			if err := next(); err != nil {
				return nil, err
			}
			continue
		}
		if len(out) > 0 {
			return nil, badRequest("", fmt.Sprintf("line %d: an array must be the whole body", lineAt(body, start)))
		}
		if _, err := dec.Token(); err != nil { // [
			return nil, syntaxError(body, start, start, err)
		}
		for dec.More() {
			if err := next(); err != nil {
				return nil, err
			}
		}
		if _, err := dec.Token(); err != nil { // ]
			return nil, syntaxError(body, start, dec.InputOffset(), err)
		}
		if rest := skipSpace(body, dec.InputOffset()); rest < int64(len(body)) {
			return nil, badRequest("", fmt.Sprintf("line %d: an array must be the whole body", lineAt(body, rest)))
		}
		break
	}
	if len(out) == 0 {
		return nil, badRequest("", "the body holds no documents")
	}
	return out, nil
}

func (s *Server) tooMany() error {
	return &apiError{Status: http.StatusRequestEntityTooLarge,
		Msg: fmt.Sprintf("more than %d documents in one request (see --max-batch)", s.o.MaxBatch)}
}

// syntaxError locates a JSON error in the body: on the line of the byte
// the scanner refused (a line break inside a string on the line it ends),
// or, when the body ends too soon, on the line where the value left open
// starts (the first byte after start that is neither a space nor the comma
// before an array's element). top is where the top-level value being read
// starts, a document or the array.
func syntaxError(body []byte, top, start int64, err error) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return badRequest("", fmt.Sprintf("line %d: malformed JSON: %v", lineAt(body, badByte(body, top)), err))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return badRequest("", fmt.Sprintf("line %d: malformed JSON: the body ends inside the value that starts there",
			lineAt(body, skip(body, start, " \t\r\n,"))))
	}
	return badRequest("", fmt.Sprintf("line %d: malformed JSON: %v", lineAt(body, start), err))
}

// badByte is the offset in body of the byte that makes the JSON value
// starting at top malformed, or top if it is not. A json.Decoder's
// SyntaxError cannot say it: its Offset counts only the bytes its values
// were scanned from, not the white space, brackets and commas its Token
// and an array's More read, and it is one past the byte refused. The value
// is scanned again on its own, where every byte is counted.
func badByte(body []byte, top int64) int64 {
	var raw json.RawMessage
	var se *json.SyntaxError
	if err := json.NewDecoder(bytes.NewReader(body[top:])).Decode(&raw); errors.As(err, &se) && se.Offset > 0 {
		return top + se.Offset - 1
	}
	return top
}

// lineCounter gives the lines of offsets that never go back, counting
// each line break once: the documents of a body of many lines are found
// in order.
type lineCounter struct {
	body []byte
	off  int64 // counted up to here
	line int   // the line of off
}

// at is the line (from 1) of the byte at off, not before the last.
func (c *lineCounter) at(off int64) int {
	off = max(c.off, min(off, int64(len(c.body))))
	c.line += bytes.Count(c.body[c.off:off], []byte("\n"))
	c.off = off
	return c.line
}

// lineAt is the line (from 1) of the byte at off in body.
func lineAt(body []byte, off int64) int {
	c := lineCounter{body: body, line: 1}
	return c.at(off)
}

// skipSpace is the offset of the first byte at or after off in body that is
// not JSON white space, or len(body).
func skipSpace(body []byte, off int64) int64 { return skip(body, off, " \t\r\n") }

// skip is the offset of the first byte at or after off in body that is not
// one of set, or len(body).
func skip(body []byte, off int64, set string) int64 {
	for off < int64(len(body)) && strings.IndexByte(set, body[off]) >= 0 {
		off++
	}
	return off
}

// decodeDoc reads one document's object, refusing unknown fields and
// checking each field.
func decodeDoc(raw json.RawMessage, d *core.Document, needID bool) error {
	if t := bytes.TrimLeft(raw, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return badRequest("", "a document is a JSON object")
	}
	if !utf8.Valid(raw) {
		// JSON is UTF-8: the decoder would quietly turn the bad bytes
		// into U+FFFD, and the text stored would not be the text sent.
		return notUTF8(raw)
	}
	if err := checkKeys(raw); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var in docInput
	if err := dec.Decode(&in); err != nil {
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te):
			return badRequest(te.Field, fmt.Sprintf("%s must be a JSON %s", te.Field, te.Type))
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			f := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			return badRequest(f, fmt.Sprintf("unknown field %q (known: id, title, text, url, source, date)", f))
		}
		return badRequest("", err.Error())
	}
	if err := loneSurrogate(raw, &in); err != nil {
		return err
	}
	if in.ID != "" || needID {
		if err := checkID(in.ID); err != nil {
			return err
		}
	}
	*d = core.Document{ID: in.ID, Title: in.Title, Text: in.Text, URL: in.URL, Source: in.Source, Raw: raw}
	if field, max := d.OverlongField(); field != "" {
		return badRequest(field, fmt.Sprintf("%s is longer than %d bytes", field, max))
	}
	if field, why := d.UnstorableField(); field != "" {
		return badRequest(field, field+" "+why)
	}
	if in.Date != "" {
		t, err := parseTime(in.Date)
		switch {
		case err != nil:
			return badRequest("date", err.Error())
		case core.WhyNoDate(t) != "":
			// Stored, an undated document's placeholder would change its
			// place among its cluster's members.
			return badRequest("date", fmt.Sprintf("%q %s: leave date out for an undated document", in.Date, core.WhyNoDate(t)))
		}
		d.Date = t
	}
	return nil
}

// notUTF8 is the error of a document object that is not UTF-8, naming the
// first field (in the order sent) whose value holds the bad bytes.
func notUTF8(raw json.RawMessage) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err == nil { // {
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				break
			}
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				break
			}
			if k, _ := key.(string); !utf8.Valid(v) {
				return badRequest(k, k+" is not UTF-8 (JSON must be)")
			}
		}
	}
	return badRequest("", "the document is not UTF-8 (JSON must be)")
}

// loneSurrogate refuses an id, a URL or a source whose JSON string
// escapes a lone surrogate ("\ud800" without its pair): the decoder
// reads it as U+FFFD, so that two ids that differ there would be one id
// stored, and a source or URL filtered on would not be the one sent. A
// title or a text keeps the U+FFFD, as neardup index add keeps it.
func loneSurrogate(raw json.RawMessage, in *docInput) error {
	var vals map[string]json.RawMessage
	for _, f := range []struct{ name, v string }{{"id", in.ID}, {"url", in.URL}, {"source", in.Source}} {
		if !strings.ContainsRune(f.v, utf8.RuneError) {
			continue
		}
		if vals == nil && json.Unmarshal(raw, &vals) != nil {
			return nil // decoded once already
		}
		if jsonenc.LoneSurrogate(vals[f.name]) {
			return badRequest(f.name, f.name+` escapes a lone surrogate (\ud800 to \udfff, not in a pair), which is no character and would be read as U+FFFD`)
		}
	}
	return nil
}

// checkID checks a document id: one a stored document can have
// (core.BadID).
func checkID(id string) error {
	if why := core.BadID(id); why != "" {
		return badRequest("id", "id "+why)
	}
	return nil
}

// parseTime reads RFC 3339 (its lower-case "t" and "z" too) or a day
// (YYYY-MM-DD, UTC).
func parseTime(s string) (time.Time, error) {
	if t, err := core.ParseRFC3339(s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%q is not a date: use RFC 3339 (2024-05-01T12:00:00Z) or YYYY-MM-DD", s)
}
