package corpus

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// A field name that matches nothing is found in the first records of each
// JSON Lines input, and in the header of each CSV or TSV file, before any
// of its records is handed on: the text field must be there, and so must
// every other field whose name differs from the default (a name the user
// chose). The error names the fields seen, so that a typo in --text-col
// fails at once, naming what was meant, instead of skipping every record.

// defaultNames are the field names Options fills in when they are empty.
var defaultNames = [nFields]string{"id", "title", "text", "url", "source", "date"}

// fieldRoles say what each field is for, in messages.
var fieldRoles = [nFields]string{"id", "title", "text", "URL", "source", "date"}

// checkRecords and checkBytes bound the records looked at, and held, to
// check the field names of a JSON Lines input.
const (
	checkRecords = 100
	checkBytes   = 8 << 20
)

// required lists the fields that must match: the text, and every field
// given a name of its own.
func (r *Reader) required() []field {
	var fs []field
	for f := range nFields {
		if f == fText || r.names[f] != defaultNames[f] {
			fs = append(fs, f)
		}
	}
	return fs
}

// seenFields collects the field names of the inputs' first records.
type seenFields struct {
	mu    sync.Mutex
	names map[string]bool
}

func (s *seenFields) add(names map[string]bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.names == nil {
		s.names = map[string]bool{}
	}
	for n := range names {
		s.names[n] = true
	}
}

// FieldsSeen returns the field names (JSON keys, CSV columns) seen in the
// first records of the inputs read so far, sorted.
func (r *Reader) FieldsSeen() []string {
	r.seen.mu.Lock()
	defer r.seen.mu.Unlock()
	var out []string
	for n := range r.seen.names {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// missing returns the first required field that no name in seen matches
// (exactly or ignoring case); ok is false when every one matches.
func (r *Reader) missing(seen map[string]bool) (f field, ok bool) {
	for _, f := range r.required() {
		found := false
		for n := range seen {
			if n == r.names[f] || strings.EqualFold(strings.TrimSpace(n), r.names[f]) {
				found = true
				break
			}
		}
		if !found {
			return f, true
		}
	}
	return 0, false
}

// checkedSource holds back the first records of a JSON Lines input until
// their field names are checked.
type checkedSource struct {
	r      *Reader
	src    source
	origin string
	queue  []Raw
	err    error // what ended the look ahead, given after the queue
	done   bool
}

func (c *checkedSource) close() { c.src.close() }

func (c *checkedSource) next() (Raw, error) {
	if !c.done {
		c.done = true
		if err := c.check(); err != nil {
			return Raw{}, err
		}
	}
	if len(c.queue) > 0 {
		raw := c.queue[0]
		c.queue[0] = Raw{}
		c.queue = c.queue[1:]
		return raw, nil
	}
	if c.err != nil {
		return Raw{}, c.err
	}
	return c.src.next()
}

// check reads ahead up to checkRecords records and checks their keys.
func (c *checkedSource) check() error {
	// The records read ahead are kept: they own their bytes, in memory of
	// their own (not in a caller's buffer, see NextRawIn, which the
	// caller writes over before they are given).
	share, into := c.r.shareLines, c.r.lineBuf
	c.r.shareLines, c.r.lineBuf = false, nil
	defer func() { c.r.shareLines, c.r.lineBuf = share, into }()
	seen := map[string]bool{}
	objects, size := 0, 0
	for len(c.queue) < checkRecords && size < checkBytes {
		raw, err := c.src.next()
		if err != nil {
			c.err = err
			break
		}
		c.queue = append(c.queue, raw)
		size += len(raw.data)
		var obj map[string]json.RawMessage
		if raw.kind == rawJSON && json.Unmarshal(raw.data, &obj) == nil && obj != nil {
			objects++
			for k := range obj {
				seen[k] = true
			}
		}
	}
	c.r.seen.add(seen)
	if objects == 0 {
		return nil // no object to go by: each record is skipped, saying why
	}
	n := len(c.queue)
	where := fmt.Sprintf("none of the first %d records has a", n)
	if n == 1 {
		where = "the first record has no"
	}
	if c.err == io.EOF {
		where = fmt.Sprintf("none of its %d records has a", n)
		if n == 1 {
			where = "its one record has no"
		}
	}
	f, ok := c.r.missing(seen)
	if !ok {
		return nil
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	slices.Sort(names)
	return c.r.fieldError(f, names,
		fmt.Sprintf("%s: %s field %q (the %s); fields seen: %s", c.origin, where, c.r.names[f], fieldRoles[f], quoteList(names)))
}

// A FieldError says that no field (JSON key, CSV column) of an input's
// first records has a name the reader looks for: the text's, or one the
// caller chose. It names the fields seen, and Likely names the one most
// probably meant, so that a command can say which flag reads it.
type FieldError struct {
	Field string   // what the field holds: "id", "title", "text", "URL", "source" or "date"
	Name  string   // the name looked for
	Seen  []string // the names seen
	msg   string
}

func (e *FieldError) Error() string { return e.msg }

func (r *Reader) fieldError(f field, seen []string, msg string) *FieldError {
	return &FieldError{Field: fieldRoles[f], Name: r.names[f], Seen: seen, msg: msg}
}

// fieldAliases are names under which news corpora commonly keep each
// field, in order of preference, as their letters and digits in lower case
// (see letters: "Full Text" is "fulltext").
var fieldAliases = [nFields][]string{
	fID:     {"docid", "uuid", "guid", "key"},
	fTitle:  {"headline", "heading", "name"},
	fText:   {"body", "content", "maintext", "article", "fulltext", "story", "articletext", "articlebody"},
	fURL:    {"link", "href", "uri"},
	fSource: {"publisher", "site", "domain", "outlet", "feed"},
	fDate:   {"published", "datepublish", "publishedat", "pubdate", "datetime", "timestamp"},
}

// letters returns s's letters and digits, in lower case.
func letters(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// Likely returns the name among Seen most probably meant: one within two
// edits of Name (a typo), else the first of the names news corpora
// commonly give the field that is there; "" when none is.
func (e *FieldError) Likely() string {
	best, bestD := "", 3
	for _, n := range e.Seen {
		if d := editDistance(strings.ToLower(n), strings.ToLower(e.Name), bestD); d < bestD {
			best, bestD = n, d
		}
	}
	if best != "" {
		return best
	}
	f := slices.Index(fieldRoles[:], e.Field)
	if f < 0 {
		return ""
	}
	for _, alias := range fieldAliases[f] {
		for _, n := range e.Seen {
			if letters(n) == alias {
				return n
			}
		}
	}
	return ""
}

// editDistance returns the Levenshtein distance between a and b, in
// bytes, or limit when it is at least limit.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}
