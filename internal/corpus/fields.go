package corpus

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
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
	// The records read ahead are kept: they own their bytes.
	share := c.r.shareLines
	c.r.shareLines = false
	defer func() { c.r.shareLines = share }()
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
	return fmt.Errorf("%s: %s field %q (the %s); fields seen: %s", c.origin, where, c.r.names[f], fieldRoles[f], quoteList(names))
}
