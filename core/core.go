// Package core holds the types every part of neardup shares: the documents
// that come in, the typed reasons a document is skipped, and the pairs,
// labels, evidence and clusters that go out. It imports nothing of the
// project; the stages under internal/, the method packages and the public
// facade (package neardup) import it, and the facade re-exports its types.
package core

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Document is one input record as the pipeline sees it.
//
// Text and Title are the original strings; every byte offset the pipeline
// reports (evidence, diffs) points into them.
type Document struct {
	// ID identifies the document in every output. Readers assign one from the
	// record's position ("file:line" or a path) when the input has none.
	ID string
	// Title is the headline; it may be empty.
	Title string
	// Text is the body.
	Text string
	// URL is where the document was found; it may be empty.
	URL string
	// Source names the publisher (a site, an agency); it may be empty.
	Source string
	// Date is the publication time; the zero Time means unknown, and so
	// does a time NoDate reports (the Unix epoch). A date read without a
	// zone is in NoZone.
	Date time.Time
	// Origin says where the record was read: "file:line" or a path inside
	// a directory or archive. Messages about the record name it.
	Origin string
	// Raw is the record as read, a JSON object, written unchanged to the
	// de-duplicated corpus. Readers of non-JSON inputs build it from the
	// record's fields.
	Raw json.RawMessage
}

// UnstorableField returns the first of d's text fields (id, title, text,
// URL, source) that no index stores, with why: one that is not UTF-8, or
// that holds a NUL character (binary data, which PostgreSQL refuses in
// text), or a URL of another scheme than http and https (see ForeignURL):
// a "javascript:" URL would be a link no page can follow. It returns "",
// "" when every one can be stored.
func (d *Document) UnstorableField() (field, why string) {
	for _, f := range [...]struct{ name, v string }{{"id", d.ID}, {"title", d.Title}, {"text", d.Text}, {"url", d.URL}, {"source", d.Source}} {
		switch {
		case !utf8.ValidString(f.v):
			return f.name, "is not UTF-8"
		case strings.IndexByte(f.v, 0) >= 0:
			return f.name, "holds a NUL character (binary data)"
		case f.name == "url" && ForeignURL(f.v):
			return f.name, "names another scheme than http or https"
		}
	}
	return "", ""
}

// Storable returns s as an index stores it: a byte that is not UTF-8, and
// a NUL character (which PostgreSQL refuses in text), become U+FFFD.
func Storable(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", "\uFFFD")
	}
	return s
}

// WebURL reports whether s is an absolute http or https URL with a host:
// the only URL a stored document carries, and the only one the web UI and
// the report make a link of.
func WebURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (strings.EqualFold(u.Scheme, "http") || strings.EqualFold(u.Scheme, "https")) && u.Host != ""
}

// ForeignURL reports whether s names another scheme than http and https
// ("javascript:", "data:", "mailto:", "ftp://"): a URL no index stores. A
// URL without a scheme ("www.example.com/a", "/news/1", "localhost:8080/a")
// is stored, and shown as text, not as a link (see WebURL).
func ForeignURL(s string) bool {
	u, err := url.Parse(strings.TrimSpace(s))
	switch {
	case err != nil || u.Scheme == "" || strings.EqualFold(u.Scheme, "http") || strings.EqualFold(u.Scheme, "https"):
		return false
	case u.Opaque != "" && (strings.Contains(u.Scheme, ".") || u.Opaque[0] >= '0' && u.Opaque[0] <= '9'):
		return false // a host and port: "www.example.com:8080/a"
	}
	return true
}

// MaxIDBytes bounds the id of a stored document, in bytes: the HTTP API and
// the web UI name a document by its id in a URL.
const MaxIDBytes = 512

// The bounds of a document's title, URL and source, in bytes, as the HTTP
// API and the web UI take them: what a page shows and a filter names.
const (
	MaxTitleBytes  = 4096
	MaxURLBytes    = 4096
	MaxSourceBytes = 256
)

// OverlongField returns the first of d's title, URL and source (as "title",
// "url", "source") that is longer than its bound, with the bound; "", 0
// when none is.
func (d *Document) OverlongField() (field string, max int) {
	for _, f := range [...]struct {
		name string
		v    string
		max  int
	}{{"title", d.Title, MaxTitleBytes}, {"url", d.URL, MaxURLBytes}, {"source", d.Source, MaxSourceBytes}} {
		if len(f.v) > f.max {
			return f.name, f.max
		}
	}
	return "", 0
}

// BadID returns why id can name no stored document, "" when it can: an id
// is 1 to MaxIDBytes bytes of UTF-8 text, not blank (see blank), neither
// "." nor "..", without control characters, so that every stored document
// can be read and removed over HTTP and the web UI can link to it: a URL
// path resolves a segment "." or ".." (escaped %2E%2E too) away. An index
// refuses to store any other.
func BadID(id string) string {
	switch {
	case id == "":
		return "is missing"
	case blank(id):
		return "is blank"
	case id == "." || id == "..":
		return fmt.Sprintf("is %q, which a URL reads as a step in its path, not as a name", id)
	case len(id) > MaxIDBytes:
		return fmt.Sprintf("is longer than %d bytes", MaxIDBytes)
	case !utf8.ValidString(id):
		return "is not UTF-8"
	case strings.ContainsFunc(id, unicode.IsControl):
		return "holds a control character"
	}
	return ""
}

// blank reports whether s holds nothing but white space (the Unicode
// property White_Space: spaces, tabs, line ends, U+00A0, U+3000) and
// format characters (the category Cf: U+200B zero-width space, U+200C and
// U+200D joiners, U+2060 word joiner, U+FEFF, U+00AD soft hyphen, the
// direction marks), none of which shows: an empty string is blank. A byte
// that is not UTF-8 is not blank.
func blank(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool {
		return !unicode.In(r, unicode.White_Space, unicode.Cf)
	})
}

// SkipReason says why a record was not compared. The zero value means the
// record was used.
type SkipReason string

// The reasons a record is skipped. Each shows in stats by name.
const (
	SkipNone        SkipReason = ""
	SkipMalformed   SkipReason = "malformed"    // not parseable as a record of its format
	SkipInvalidUTF8 SkipReason = "invalid-utf8" // text is not valid UTF-8
	SkipBinary      SkipReason = "binary"       // binary data: NUL bytes, or a text file heavy in characters no text holds (control characters)
	SkipEmpty       SkipReason = "empty"        // no text
	SkipTooLarge    SkipReason = "too-large"    // over the size limit
	SkipTooShort    SkipReason = "too-short"    // under the method's minimum (words, characters), or a text under the minimum length of every method
	SkipGallery     SkipReason = "gallery"      // a gallery or video stub ("See all photos (18)")
	SkipNoUnits     SkipReason = "no-units"     // no sentence or shingle survives analysis
	SkipExactCopy   SkipReason = "exact-copy"   // an exact copy of a stored document (the same title and text, URL or article slug: see neardup.AddOptions.Exact), marked as its duplicate
	SkipOther       SkipReason = "other"        // a record a caller's reader could not read and gave no reason for (a RecordError without one)
	SkipRefused     SkipReason = "refused"      // an archive member not read: a name leaving the archive, nesting too deep, inflating past the limits, or a compression method not read; or a file met in a directory that cannot be reached (a link to nothing, a directory not readable) or that was read already by another path
)

// Label grades a detected pair.
type Label string

// The labels a pair can carry.
const (
	Duplicate Label = "duplicate" // at or above the method's duplicate threshold or rule
	Similar   Label = "similar"   // at or above the similar threshold, below duplicate
)

// Evidence is a method's reasons for a pair: a value of the method's own
// type (minhash.Evidence, sentences.Evidence, ...), written as JSON in
// outputs and in the store, so a reader sees why two documents were paired.
type Evidence interface {
	// Method names the method whose evidence this is.
	Method() string
}

// Pair is two documents a method found alike, with its reasons. A is the
// earlier document (added or read first), B the later one.
type Pair struct {
	A      string  `json:"a"`
	B      string  `json:"b"`
	Method string  `json:"method"`
	Score  float64 `json:"score"`
	Label  Label   `json:"label"`
	// Original is, in a duplicate pair, the ID of the one of A and B
	// published first, of which the other is the copy: the earlier date,
	// a dated document before an undated one, and else the one read or
	// stored first (A). It is empty in a similar pair: neither copies the
	// other.
	Original string   `json:"original,omitempty"`
	Evidence Evidence `json:"evidence,omitempty"`
}

// Round keeps four decimals, as a Pair's Score and its evidence are
// written: scores are shown, not computed with.
func Round(x float64) float64 { return float64(int64(x*10000+0.5)) / 10000 }

// Copy returns the ID of the copy of a duplicate pair, the one of A and B
// that is not its Original; "" when the pair has none.
func (p *Pair) Copy() string {
	switch p.Original {
	case p.A:
		return p.B
	case p.B:
		return p.A
	}
	return ""
}

// Other returns the ID of the document of the pair that is not id: its B
// when id is its A, else its A (a match's pair names the document matched
// A or B, whichever is placed first).
func (p *Pair) Other(id string) string {
	if p.A == id {
		return p.B
	}
	return p.A
}

// Cluster is a group of two or more documents joined by duplicate pairs.
type Cluster struct {
	ID             int64  `json:"cluster"`
	Representative string `json:"representative"`
	// Original is the member published first, of which the others are
	// copies: the earliest date, dated members before undated ones, and
	// else the member read or stored first.
	Original string   `json:"original"`
	Members  []string `json:"members"`
	Why      string   `json:"why"`
	// Linking is the policy by which documents joined the cluster (any,
	// anchor, majority); Joined says, for each member in the order of
	// Members, why it is in. Both are empty where nothing recorded them.
	Linking string   `json:"linking,omitempty"`
	Joined  []string `json:"joined,omitempty"`
}
