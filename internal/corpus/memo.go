package corpus

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/tempfile"
)

// pageMemo remembers how each web page of a Reader turned out the first
// time it was decoded, by its number in the pass, so that a second pass
// gives the same records at a fraction of the cost: the record of a
// skipped page is kept in memory (it has no text), and the article of a
// used page (its Doc.Raw) is appended to a temporary file, read back in
// the second pass instead of extracting the page again. The file holds
// what a de-duplicated corpus of every page would; Close removes it. If it
// cannot be written, pages are extracted again instead. Memory is 16 bytes
// a page plus the skipped pages' records. It is safe for concurrent use.
type pageMemo struct {
	mu      sync.Mutex
	pages   []memoEntry    // by page number
	skipped map[int]Record // the records of skipped pages
	file    *tempfile.File // the articles of used pages; nil until the first
	size    int64          // bytes written to file
	failed  bool           // file could not be made or written: cache no more
}

// memoEntry is what pageMemo knows of one page.
type memoEntry struct {
	off   int64 // where its article starts in the file
	n     int32 // the article's length in bytes
	state uint8
}

// The states of a page in pageMemo.
const (
	memoUnknown uint8 = iota // not decoded yet
	memoUsed                 // used, its article not in the file
	memoCached               // used, its article in the file
	memoSkipped              // skipped, its record in memory
)

// get returns a page's state and, for a skipped or cached page, its record.
// A cached article that cannot be read back counts as memoUsed.
func (m *pageMemo) get(raw Raw) (Record, uint8) {
	seq := raw.page.seq
	m.mu.Lock()
	if seq >= len(m.pages) {
		m.mu.Unlock()
		return Record{}, memoUnknown
	}
	e, rec, f := m.pages[seq], m.skipped[seq], m.file
	m.mu.Unlock()
	if e.state != memoCached {
		return rec, e.state
	}
	data := make([]byte, e.n)
	if _, err := f.ReadAt(data, e.off); err != nil {
		return Record{}, memoUsed
	}
	rec, err := cachedRecord(raw, data)
	if err != nil {
		return Record{}, memoUsed
	}
	return rec, memoCached
}

// put records a page's first outcome.
func (m *pageMemo) put(seq int, rec Record) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if seq >= len(m.pages) {
		m.pages = append(m.pages, make([]memoEntry, seq+1-len(m.pages))...)
	}
	e := &m.pages[seq]
	switch {
	case e.state != memoUnknown:
	case rec.Skip != core.SkipNone:
		if m.skipped == nil {
			m.skipped = map[int]Record{}
		}
		e.state = memoSkipped
		m.skipped[seq] = rec
	case m.write(rec.Doc.Raw, e):
		e.state = memoCached
	default:
		e.state = memoUsed
	}
}

// write appends an article to the file and notes where in e. Called with
// mu held.
func (m *pageMemo) write(article []byte, e *memoEntry) bool {
	if m.failed || len(article) > 1<<31-1 {
		return false
	}
	if m.file == nil {
		f, err := tempfile.Create("", "neardup-pages-*")
		if err != nil {
			m.failed = true
			return false
		}
		m.file = f
	}
	if _, err := m.file.WriteAt(article, m.size); err != nil {
		m.failed = true
		return false
	}
	e.off, e.n = m.size, int32(len(article))
	m.size += int64(len(article))
	return true
}

// close removes the file.
func (m *pageMemo) close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.file == nil {
		return nil
	}
	err := m.file.Close()
	m.file = nil
	return err
}

// cachedRecord rebuilds a used page's record from its article, its date
// as jsonDate writes it: RFC 3339, or without an offset in core.NoZone.
func cachedRecord(raw Raw, article []byte) (Record, error) {
	var a struct{ URL, Title, Text, Date string }
	if err := json.Unmarshal(article, &a); err != nil {
		return Record{}, fmt.Errorf("corpus: cached article of %s: %w", raw.Origin, err)
	}
	doc := core.Document{ID: raw.id, Origin: raw.Origin, URL: a.URL, Title: a.Title, Text: a.Text, Raw: article}
	if a.Date != "" {
		var err error
		if doc.Date, err = time.Parse(time.RFC3339, a.Date); err != nil {
			if doc.Date, err = time.ParseInLocation("2006-01-02T15:04:05", a.Date, core.NoZone); err != nil {
				return Record{}, fmt.Errorf("corpus: cached article of %s: %w", raw.Origin, err)
			}
		}
	}
	return Record{Doc: doc, built: true}, nil
}
