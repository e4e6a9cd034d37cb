package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/jsonenc"
)

// lineSource cuts a JSONL stream into lines. Only the line's own copy is
// allocated per record, and not even that while *share is set (see
// Reader.NextRawShared) or the line fits the spare capacity of *into (see
// Reader.NextRawIn).
type lineSource struct {
	br     *bufio.Reader
	share  *bool
	into   *[]byte
	origin string
	limit  int    // the longest line kept, in bytes
	line   int    // lines read so far
	long   []byte // scratch for lines longer than br's buffer
	obuf   []byte // scratch for origins
	eof    bool
}

func (s *lineSource) close() {}

// buffered reports whether a whole line is held in the buffer, or the
// stream's end was met.
func (s *lineSource) buffered() bool {
	if s.eof {
		return true
	}
	b, _ := s.br.Peek(s.br.Buffered())
	return bytes.IndexByte(b, '\n') >= 0
}

func (s *lineSource) readErr(err error) error {
	return fmt.Errorf("reading %s: %w after line %d", s.origin, err, s.line)
}

func (s *lineSource) next() (Raw, error) {
	for !s.eof {
		b, err := s.br.ReadSlice('\n')
		switch {
		case err == bufio.ErrBufferFull:
			raw, ok, err := s.longLine(b)
			if ok || err != nil {
				return raw, err
			}
			continue
		case err == io.EOF:
			s.eof = true
			if len(b) == 0 {
				return Raw{}, io.EOF
			}
		case err != nil:
			return Raw{}, s.readErr(err)
		}
		s.line++
		switch b = lineOf(b); {
		case isBlankBytes(b):
		case len(b) > s.limit:
			return s.tooLarge(int64(len(b))), nil
		default:
			return s.raw(s.own(b)), nil
		}
	}
	return Raw{}, io.EOF
}

// tooLarge returns the record of the line just read, n bytes long: over
// the limit, not kept.
func (s *lineSource) tooLarge(n int64) Raw {
	raw := s.raw(nil)
	raw.kind, raw.size = rawTooLarge, n
	return raw
}

// longLine reads the rest of a line that does not fit br's buffer. ok is
// false for a blank line.
func (s *lineSource) longLine(first []byte) (raw Raw, ok bool, err error) {
	buf := append(s.long[:0], first...)
	for {
		b, err := s.br.ReadSlice('\n')
		if len(buf)+len(b) > s.limit+len("\r\n") {
			return s.discard(int64(len(buf)), b, err)
		}
		buf = append(buf, b...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			s.eof = true
		} else if err != nil {
			return Raw{}, false, s.readErr(err)
		}
		break
	}
	s.line++
	s.long = buf[:0]
	if cap(buf) > 4<<20 {
		s.long = nil // don't hold on to one huge line's buffer
	}
	b := lineOf(buf)
	switch {
	case isBlankBytes(b):
		return Raw{}, false, nil
	case len(b) > s.limit:
		return s.tooLarge(int64(len(b))), true, nil
	}
	return s.raw(s.own(b)), true, nil
}

// discard skips the rest of a line over the limit: n bytes before b, the
// last slice read, and err, what reading it returned.
func (s *lineSource) discard(n int64, b []byte, err error) (Raw, bool, error) {
	n += int64(len(b))
	for err == bufio.ErrBufferFull {
		b, err = s.br.ReadSlice('\n')
		n += int64(len(b))
	}
	n -= int64(len(b) - len(trimEOL(b)))
	if err == io.EOF {
		s.eof = true
	} else if err != nil {
		return Raw{}, false, s.readErr(err)
	}
	s.line++
	return s.tooLarge(n), true, nil
}

// own returns the bytes of a line for its Raw: b itself while lines may be
// shared, else a copy, in the caller's buffer when it fits there.
func (s *lineSource) own(b []byte) []byte {
	if s.share != nil && *s.share {
		return b
	}
	if s.into != nil && cap(*s.into)-len(*s.into) >= len(b) {
		buf := *s.into
		n := len(buf)
		buf = append(buf, b...)
		*s.into = buf
		return buf[n:len(buf):len(buf)]
	}
	return bytes.Clone(b)
}

func (s *lineSource) raw(data []byte) Raw {
	s.obuf = appendOrigin(s.obuf[:0], s.origin, s.line)
	return Raw{Origin: string(s.obuf), kind: rawJSON, data: data}
}

// lineOf returns the record of a line read with its end: the line
// without its end, nor a byte-order mark at its start (one of files
// joined with cat; the stream's own is gone before).
func lineOf(b []byte) []byte {
	return bytes.TrimPrefix(trimEOL(b), utf8BOM)
}

// trimEOL removes a trailing "\n" or "\r\n".
func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}

func isBlankBytes(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n', '\v', '\f':
		default:
			return false
		}
	}
	return true
}

// decodeJSON maps one JSONL line to a document. A record without an id
// (or with "") has the id its origin gives, made only then: most records
// have their own.
func (r *Reader) decodeJSON(raw Raw) Record {
	doc := core.Document{Origin: raw.Origin, Raw: raw.data}
	var vals [nFields]jsonValue
	valid, isObject := scanRecord(raw.data, &r.keys, &vals)
	if !valid || !isObject {
		doc.ID = r.idOf(raw.Origin)
		msg := "malformed: not a JSON object"
		if !valid {
			msg = syntaxMessage(raw.data)
		}
		return skip(doc, core.SkipMalformed, "", msg)
	}
	if r.nested {
		r.descend(raw.data, &vals)
	}
	reason, f, msg := r.mapJSON(&doc, &vals)
	if doc.ID == "" {
		doc.ID = r.idOf(raw.Origin)
	}
	if reason != core.SkipNone {
		return skip(doc, reason, r.names[f], msg)
	}
	unread := r.jsonDate(&doc, &vals[fDate], raw.seq)
	rec := r.finish(doc)
	if rec.Skip == core.SkipNone && !utf8.Valid(raw.data) {
		// The line is the record kept: JSON is UTF-8, and so must it be,
		// in every key and value, not only the fields read.
		key, inKey := memberAt(raw.data, invalidUTF8At(raw.data))
		msg = "invalid UTF-8"
		if inKey {
			msg = "invalid UTF-8 in the key"
		}
		rec = skip(doc, core.SkipInvalidUTF8, key, msg)
	}
	rec.UnreadDate = unread
	return rec
}

// invalidUTF8At returns the index of the first byte of b that is not
// UTF-8, or -1.
func invalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}

// memberAt returns the key of the top-level member of line, a JSON
// object, that holds the byte at index at, and whether the byte is in the
// key; "" when no member does.
func memberAt(line []byte, at int) (key string, inKey bool) {
	s := jsonScanner{b: line}
	s.ws()
	if s.i >= len(line) || line[s.i] != '{' {
		return "", false
	}
	s.i++
	for {
		s.ws()
		if s.i >= len(line) || line[s.i] != '"' {
			return "", false
		}
		k, esc, ok := s.str()
		if !ok {
			return "", false
		}
		if esc {
			k = []byte(unquote(k))
		}
		if at < s.i {
			return string(k), true
		}
		s.ws()
		if s.i >= len(line) || line[s.i] != ':' {
			return "", false
		}
		s.i++
		s.ws()
		if _, ok := s.value(); !ok {
			return "", false
		}
		if at < s.i {
			return string(k), false
		}
		s.ws()
		if s.i >= len(line) || line[s.i] != ',' {
			return "", false
		}
		s.i++
	}
}

// descend replaces the values picked for fields named by a dotted path
// (Reader.paths: an object's first key) with the value the path leads to
// in that object, missing where it leads nowhere, or with the clash of
// keys (jsonValue.clash) where it meets one. A record without the
// path's first key is looked at for a key that is the whole name, dots
// and all.
func (r *Reader) descend(line []byte, vals *[nFields]jsonValue) {
	for f, path := range r.paths {
		if path == nil {
			continue
		}
		v := vals[f]
		if v.kind == vMissing {
			var keys [nFields][]byte
			var out [nFields]jsonValue
			keys[f] = []byte(r.names[f])
			scanRecord(line, &keys, &out)
			vals[f] = out[f]
			continue
		}
		if v.clash != nil {
			v.clash.within("", path)
			vals[f] = v
			continue
		}
		walked := string(r.keys[f])
		for i, k := range path {
			if v.kind != vObject {
				v = jsonValue{}
				break
			}
			var keys [nFields][]byte
			var out [nFields]jsonValue
			keys[f] = k
			scanRecord(v.b, &keys, &out)
			if v = out[f]; v.clash != nil {
				v.clash.within(walked+".", path[i+1:])
				break
			}
			walked += "." + string(k)
		}
		vals[f] = v
	}
}

// within names the keys of a clash met inside a record by their dotted
// paths from the record's top, as the field's name is: walked is the path
// to the object holding them (ending in "."), rest the path after them.
func (c *keyClash) within(walked string, rest [][]byte) {
	c.name = walked + c.name
	for i, k := range c.keys {
		c.keys[i] = walked + k
	}
	for _, k := range rest {
		c.tail += "." + string(k)
	}
}

// mapJSON sets doc's fields from the picked values. The id and the source
// may be a string or a number, a number read as its text as written (a
// publisher's number, "publisher_id": 1, is source "1"); title and text
// must be strings; a url or source of another type is ignored (a boolean
// names no publisher). A date may be a string or Unix time. Keys that
// clash for a field (jsonValue.clash) make the record malformed: the id's
// before the id is read, the others' after.
func (r *Reader) mapJSON(doc *core.Document, vals *[nFields]jsonValue) (core.SkipReason, field, string) {
	if c := vals[fID].clash; c != nil {
		return core.SkipMalformed, fID, clashMessage("keys", c.keys, c.name, c.tail, fID)
	}
	switch v := &vals[fID]; v.kind {
	case vString, vNumber:
		if id := v.text(); id != "" {
			doc.ID = id
		}
	case vMissing, vNull:
	default:
		return core.SkipMalformed, fID, "want a string or number, got " + v.kind.String()
	}
	for f := range vals {
		if c := vals[f].clash; c != nil {
			return core.SkipMalformed, field(f), clashMessage("keys", c.keys, c.name, c.tail, field(f))
		}
	}
	strs := [...]struct {
		f   field
		dst *string
	}{{fTitle, &doc.Title}, {fText, &doc.Text}, {fURL, &doc.URL}, {fSource, &doc.Source}}
	for _, s := range strs {
		switch v := &vals[s.f]; {
		case v.kind == vString, v.kind == vNumber && s.f == fSource:
			*s.dst = v.text()
		case v.kind == vMissing, v.kind == vNull:
		case s.f == fTitle, s.f == fText:
			return core.SkipMalformed, s.f, "want a string, got " + v.kind.String()
		}
	}
	for _, f := range [...]field{fID, fURL, fSource} {
		// Decoded as U+FFFD, two ids that differ there would be one; a
		// title or a text keeps the U+FFFD.
		if v := &vals[f]; v.kind == vString && v.esc && jsonenc.LoneSurrogate(v.b) {
			return core.SkipInvalidUTF8, f, `invalid UTF-8: a lone surrogate escaped (\ud800 to \udfff, not in a pair), which is no character`
		}
	}
	if k := vals[fText].kind; k == vMissing || k == vNull {
		return core.SkipEmpty, fText, "missing"
	}
	return core.SkipNone, 0, ""
}

// jsonDate sets doc's date from the picked value v of the record at
// position seq of the pass, and returns the note of a value no layout
// reads (Record.UnreadDate), "" for none.
func (r *Reader) jsonDate(doc *core.Document, v *jsonValue, seq int) string {
	switch v.kind {
	case vString:
		var unread string
		doc.Date, unread = r.date(v.text(), doc.Origin, seq)
		return unread
	case vNumber:
		if doc.Date = unixDate(v.b); doc.Date.IsZero() {
			return r.unreadDate(string(v.b), doc.Origin, seq)
		}
	case vBool, vObject, vArray:
		return r.noteUnreadDate("a JSON "+v.kind.String(), doc.Origin, seq) // {"$date": …} is no date's text
	}
	return ""
}

// syntaxMessage describes why data is not JSON, in encoding/json's words.
func syntaxMessage(data []byte) string {
	err := json.Unmarshal(data, new(json.RawMessage))
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("malformed JSON at byte %d: %v", se.Offset, se)
	}
	if err != nil {
		return "malformed JSON: " + err.Error()
	}
	return "malformed JSON"
}
