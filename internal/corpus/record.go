package corpus

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/internal/jsonenc"
)

// Raw is an undecoded record: where it came from and its bytes. It owns its
// data (nothing is shared with the Reader's buffers), so it may be kept and
// decoded on any goroutine after later calls to NextRaw; a Raw of
// NextRawShared may not.
type Raw struct {
	// Origin names the record: "file:line" for JSONL and CSV, the path of a
	// text file, "archive.zip/member.txt" (plus ":line") inside an archive.
	Origin string
	// seq is the record's position in its pass, counted from 0: the
	// notes of records decoded out of order keep the first in input
	// order (unreadDates).
	seq int

	kind   rawKind
	data   []byte         // a JSONL line; a text file's contents
	fields []string       // a CSV row
	header *csvHeader     // the CSV row's header
	id     string         // the id of a whole-file record; for a CSV row encoding/csv rejected, why
	size   int64          // bytes of a too-large record; -n: more than n
	md     bool           // a Markdown text file
	page   *pageRaw       // a web page: a file or a WARC record (html.go)
	item   *feedItem      // an item of a web feed (feed.go)
	note   string         // why a refused member is not read, a malformed record is malformed, or a too-large Parquet row keeps no id
	row    parquet.Row    // a Parquet row
	pq     *parquetHeader // the Parquet row's schema and mapping
	rows   bool           // Origin's number is a Parquet row, not a line
	at     *place         // where it was read beyond Origin; nil for a file's record in no archive
}

// Size returns the bytes the record holds in memory, so callers can bound
// how much they keep in flight.
func (r Raw) Size() int {
	n := len(r.data)
	for _, f := range r.fields {
		n += len(f)
	}
	return n + rowBytes(r.row)
}

// JSONLine returns the bytes of a JSONL line, which Decode would give as
// Doc.Raw; nil for a record of another kind, whose Doc.Raw Decode builds.
func (r Raw) JSONLine() []byte {
	if r.kind != rawJSON {
		return nil
	}
	return r.data
}

// rawKind says how Decode reads a Raw.
type rawKind uint8

const (
	rawNone      rawKind = iota
	rawJSON              // data is one JSON object
	rawCSV               // fields and header are a CSV row
	rawText              // data is a whole text file
	rawBinary            // a file of unknown kind with NUL bytes; note says what told it
	rawTooLarge          // a line or file over the limit, not kept
	rawPage              // page holds a web page
	rawRefused           // an archive member not read; note says why
	rawSGML              // data is one Reuters-21578 <REUTERS> element
	rawMalformed         // a record that could not be cut out; note says why
	rawItem              // item is one item of a web feed
	rawParquet           // row and pq are a Parquet row
)

// Record is a decoded record. When Skip is set the document cannot be used
// and Err says why; Doc then holds what could be read (at least ID and
// Origin).
//
// Doc.Raw is a JSONL line exactly as read (also when skipped); one that is
// not UTF-8 is skipped (SkipInvalidUTF8), so no record used holds such a
// line. For a CSV row it is an object of the header's names and the row's
// values in header order; for a text file {"id","title","text"}, then, of
// a Markdown file, "url", "source" and "date" (as written) when its front
// matter gives them; and for a web page the article as `neardup extract`
// writes it, {"id","url","title","text","date","author","lang"}, then
// "source" when it has one (its og:site_name or declared host). These are
// built only for records that are used. SetID gives a record another id.
type Record struct {
	Doc  core.Document
	Skip core.SkipReason
	Err  error // a *RecordError when Skip is set
	// Row says that the number ending Doc.Origin ("file:3") counts the
	// rows of a Parquet file, not lines: a file's name does not tell
	// ("stdin:3", or a file read with Options.Format "parquet").
	Row bool
	// UnreadDate, when not "", says that the record's date is a value no
	// layout reads, so that its document is undated: the value quoted
	// (or its JSON type) at the record's origin, `"yesterday" at
	// news.jsonl:3`, as UnreadDates gives the first. Decode counts it
	// there as well, for every record it decodes; a caller that takes
	// fewer of them than were decoded (one stopped at a bad record while
	// its workers decoded ahead) counts the notes of those it took.
	UnreadDate string
	// RuleMiss, when not "", says that a site rule's body selector matched
	// nothing on the page, as RuleMisses gives the first: the origin and
	// what matched nothing. Decode counts it there as well.
	RuleMiss string
	// at is Raw.at: see Reader.Places.
	at *place
	// built says that the Reader built Doc.Raw of the document's fields,
	// its id first (a text file, a page, a feed item, an SGML story):
	// SetID sets the id it holds.
	built bool
}

// SetID gives rec's document the id id: Doc.ID, and the "id" of Doc.Raw
// when the Reader built Doc.Raw itself (a text file, a web page, a feed
// item, an SGML story), so that the record kept names the document as the
// results do. A record read as a JSON object, or a CSV or Parquet row,
// keeps its Doc.Raw as read. Doc.Raw is replaced, not changed in place.
func (rec *Record) SetID(id string) {
	if rec.built && id != rec.Doc.ID {
		rec.Doc.Raw = withID(rec.Doc.Raw, id)
	}
	rec.Doc.ID = id
}

// withID returns obj, an object whose first member is "id" with a string
// value, with id as that value; obj as it is if it is not such an object.
func withID(obj []byte, id string) []byte {
	const key = `{"id":"`
	if !strings.HasPrefix(string(obj), key) {
		return obj
	}
	end := len(key)
	for end < len(obj) && obj[end] != '"' {
		if obj[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(obj) {
		return obj
	}
	b := make([]byte, 0, len(obj)-end+len(id)+len(key)+8)
	b = append(b, key[:len(key)-1]...)
	b = jsonenc.AppendString(b, id)
	return append(b, obj[end+1:]...)
}

// RecordError says why one record was skipped.
type RecordError struct {
	Origin string          // the record's origin, "file:line" or a path
	Field  string          // the JSON key or CSV column at fault; empty for the whole record
	Reason core.SkipReason // the skip reason
	Msg    string          // what is wrong
}

// Error reads "origin: field "name": msg", or "origin: msg".
func (e *RecordError) Error() string {
	if e.Field == "" {
		return e.Origin + ": " + e.Msg
	}
	return fmt.Sprintf("%s: field %q: %s", e.Origin, e.Field, e.Msg)
}

// skip returns a skipped record of doc.
func skip(doc core.Document, reason core.SkipReason, field, msg string) Record {
	return Record{Doc: doc, Skip: reason, Err: &RecordError{Origin: doc.Origin, Field: field, Reason: reason, Msg: msg}}
}

// Decode parses and validates raw. It is safe for concurrent use, also with
// NextRaw, Rewind and Progress.
func (r *Reader) Decode(raw Raw) Record {
	rec := r.decode(raw)
	rec.Row, rec.at = raw.rows, raw.at
	return rec
}

func (r *Reader) decode(raw Raw) Record {
	switch raw.kind {
	case rawJSON:
		return r.decodeJSON(raw)
	case rawCSV:
		return r.decodeCSV(raw)
	case rawText:
		return r.decodeText(raw)
	case rawPage:
		return r.decodePage(raw)
	case rawSGML:
		return r.decodeSGML(raw)
	case rawItem:
		return r.decodeItem(raw)
	case rawParquet:
		return r.decodeParquet(raw)
	case rawBinary:
		doc := core.Document{ID: r.idOf(raw.id), Origin: raw.Origin}
		return skip(doc, core.SkipBinary, "", "binary data ("+raw.note+")")
	case rawTooLarge:
		if raw.pq != nil {
			// A Parquet row is read whole before its size is known: it
			// keeps its id, unless that is too long to keep (note).
			doc := core.Document{ID: r.parquetID(raw), Origin: raw.Origin}
			msg := fmt.Sprintf("a row of %d bytes, over the limit of %d bytes a record (--max-bytes)", raw.size, r.opts.MaxBytes)
			if raw.note != "" {
				msg += "; " + raw.note
			}
			return skip(doc, core.SkipTooLarge, "", msg)
		}
		doc := core.Document{ID: r.idOf(raw.Origin), Origin: raw.Origin}
		if raw.id != "" {
			doc.ID = r.idOf(raw.id)
		}
		if raw.size < 0 {
			return skip(doc, core.SkipTooLarge, "", fmt.Sprintf("over %d bytes, too large to read (the limit is %d bytes a record, --max-bytes)", -raw.size, r.opts.MaxBytes))
		}
		return skip(doc, core.SkipTooLarge, "", fmt.Sprintf("%d bytes, too large to read (the limit is %d bytes a record, --max-bytes)", raw.size, r.opts.MaxBytes))
	case rawRefused:
		doc := core.Document{ID: r.idOf(raw.id), Origin: raw.Origin}
		msg := strings.TrimPrefix(raw.note, raw.Origin+": ")
		return skip(doc, core.SkipRefused, "", msg)
	case rawMalformed:
		doc := core.Document{ID: r.idOf(raw.Origin), Origin: raw.Origin}
		return skip(doc, core.SkipMalformed, "", "malformed: "+raw.note)
	}
	doc := core.Document{ID: r.idOf(raw.Origin), Origin: raw.Origin}
	return skip(doc, core.SkipMalformed, "", "not a record read by this Reader")
}

// check validates a decoded document: its size, then NUL bytes and UTF-8 in
// title, text and id, an id and a URL an index stores (with Options.IndexIDs), and a
// text that is not blank. URL and source bytes that are not UTF-8, and NUL
// bytes, become U+FFFD. No field that passes holds a NUL byte, which no
// index can store (PostgreSQL refuses it in text).
func (r *Reader) check(doc *core.Document) (core.SkipReason, string, string) {
	if n := len(doc.Title) + len(doc.Text); n > r.opts.MaxBytes {
		return core.SkipTooLarge, "", fmt.Sprintf("title and text are %d bytes, over the limit of %d", n, r.opts.MaxBytes)
	}
	parts := [...]struct {
		name string
		s    string
	}{{r.opts.TitleField, doc.Title}, {r.opts.TextField, doc.Text}, {r.opts.IDField, doc.ID}}
	for _, p := range parts {
		if strings.IndexByte(p.s, 0) >= 0 {
			return core.SkipBinary, p.name, "NUL byte (binary data)"
		}
	}
	for _, p := range parts {
		if !utf8.ValidString(p.s) {
			return core.SkipInvalidUTF8, p.name, "invalid UTF-8"
		}
	}
	if r.opts.IndexIDs {
		if why := core.BadID(doc.ID); why != "" {
			return core.SkipMalformed, r.opts.IDField, "an index stores no id that " + why
		}
		if core.ForeignURL(core.Storable(doc.URL)) {
			return core.SkipMalformed, r.opts.URLField, "an index stores no URL of another scheme than http or https"
		}
		// As the HTTP API refuses them: a page shows them, a filter names
		// them. Measured as stored: a NUL or a byte not UTF-8 becomes
		// U+FFFD, three bytes.
		stored := core.Document{Title: doc.Title, URL: core.Storable(doc.URL), Source: core.Storable(doc.Source)}
		if field, max := stored.OverlongField(); field != "" {
			name := map[string]string{"title": r.opts.TitleField, "url": r.opts.URLField, "source": r.opts.SourceField}[field]
			return core.SkipMalformed, name, fmt.Sprintf("an index stores no %s longer than %d bytes", field, max)
		}
	}
	if isBlank(doc.Text) {
		return core.SkipEmpty, r.opts.TextField, "empty"
	}
	doc.URL = core.Storable(doc.URL)
	doc.Source = core.Storable(doc.Source)
	if name, _ := doc.Date.Zone(); name == "CST" && inChinese(doc.Text) {
		doc.Date = extract.WithLanguageZone(doc.Date, "zh") // China's, not North America's Central
	}
	return core.SkipNone, "", ""
}

// inChinese reports whether text is written in Chinese: more than half of
// its first 200 letters are Han ideographs, and none is kana (Japanese
// writes Han with kana).
func inChinese(text string) bool {
	letters, han := 0, 0
	for _, c := range text {
		switch {
		case !unicode.IsLetter(c):
			continue
		case unicode.In(c, unicode.Hiragana, unicode.Katakana):
			return false
		case unicode.Is(unicode.Han, c):
			han++
		}
		if letters++; letters == 200 {
			break
		}
	}
	return 2*han > letters
}

// finish validates doc and returns its record.
func (r *Reader) finish(doc core.Document) Record {
	if reason, field, msg := r.check(&doc); reason != core.SkipNone {
		return skip(doc, reason, field, msg)
	}
	return Record{Doc: doc}
}

func isBlank(s string) bool {
	for _, c := range s {
		if !unicode.IsSpace(c) {
			return false
		}
	}
	return true
}

// appendOrigin appends "name:line".
func appendOrigin(dst []byte, name string, line int) []byte {
	dst = append(dst, name...)
	dst = append(dst, ':')
	return strconv.AppendInt(dst, int64(line), 10)
}
