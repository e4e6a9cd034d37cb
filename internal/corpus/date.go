package corpus

import (
	"math"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/extract"
)

// unreadDates counts the date values a Reader could not read (their
// documents are undated), with the first of them in input order, for a
// warning; it counts the pages a site rule's body matched nothing on as
// well (Reader.misses). Decode notes them during the first pass only.
type unreadDates struct {
	mu    sync.Mutex
	n     int
	first string // `"value" at origin`
	at    int    // the position of first's record in the pass (Raw.seq)
}

// note counts note, of the record at position seq of the first pass,
// keeping as the first the note of the lowest position: the records are
// decoded on many goroutines, in no set order.
func (u *unreadDates) note(note string, seq int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.n == 0 || seq < u.at {
		u.first, u.at = note, seq
	}
	u.n++
}

// date reads the date s of the record at origin, position seq of the pass,
// noting a value no layout reads; unread is the note (Record.UnreadDate),
// "" when s is read or blank.
func (r *Reader) date(s, origin string, seq int) (t time.Time, unread string) {
	t = parseDate(s)
	if t.IsZero() && strings.TrimSpace(s) != "" {
		unread = r.unreadDate(s, origin, seq)
	}
	return t, unread
}

// unreadDate notes the date value s of the record at origin, position seq
// of the pass, as unread and returns the note.
func (r *Reader) unreadDate(s, origin string, seq int) string {
	if len(s) > maxDateShown {
		// A text in the date's field (a column mistaken for it): its
		// start says what it is.
		cut := maxDateShown
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return r.noteUnreadDate(strconv.Quote(s), origin, seq)
}

// maxDateShown bounds the bytes of a date value not read that its note
// quotes (the warning, stats.json, a checkpoint's journal).
const maxDateShown = 80

// noteUnreadDate notes a date value, described by what (its text quoted,
// or its JSON type), of the record at origin, position seq of the pass, as
// unread, and returns the note, `"yesterday" at news.jsonl:3`
// (Record.UnreadDate).
func (r *Reader) noteUnreadDate(what, origin string, seq int) string {
	note := what + " at " + origin
	if !r.rewound {
		r.dates.note(note, seq)
	}
	return note
}

// UnreadDates returns how many date values of the first pass no layout
// reads, their documents being undated, and the first of them in input
// order with its origin.
func (r *Reader) UnreadDates() (n int, first string) {
	r.dates.mu.Lock()
	defer r.dates.mu.Unlock()
	return r.dates.n, r.dates.first
}

// parseDate reads s, a date field's text: Unix time written as text
// (unixText), else a date in the forms every input's date is read in
// (extract.ReadDate). A date it cannot read is the zero Time (unknown),
// never an error.
func parseDate(s string) time.Time {
	s = strings.TrimSpace(s)
	if t := unixText(s); !t.IsZero() {
		return t
	}
	t, _ := extract.ReadDate(s)
	return t
}

// unixText reads Unix time written as text, as a CSV file or a JSON string
// holds it: 9 or 10 digits are seconds, 13 milliseconds (the dates from
// 1973 to 2286, and with a minus sign from 1653 to 1966), a fraction
// allowed; other text is the zero Time.
func unixText(s string) time.Time {
	digits, frac, _ := strings.Cut(strings.TrimPrefix(s, "-"), ".")
	if n := len(digits); n != 9 && n != 10 && n != 13 || !allDigits(digits) || !allDigits(frac) {
		return time.Time{}
	}
	return unixDate([]byte(s))
}

// allDigits reports whether s holds ASCII digits only.
func allDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// unixDate reads a JSON number as Unix time: seconds, or milliseconds when
// it is too large to be seconds of a plausible date (1e11 or more, either
// side of the epoch); a negative one is an instant before 1970. A number
// of 1e15 or more either side, and an instant that stands for no date
// (core.NoDate: the epoch, year 1 and before, past year 9999), are the
// zero Time.
func unixDate(lit []byte) time.Time {
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil || !(math.Abs(f) < 1e15) { // NaN too
		return time.Time{}
	}
	// Milliseconds are floored to the whole millisecond, so that a fraction
	// before 1970 is an instant earlier, not one nearer the epoch; seconds
	// keep their fraction (to the nanosecond), added to the floored second,
	// so -1.5 is 1969-12-31T23:59:58.5Z.
	var t time.Time
	if math.Abs(f) >= 1e11 {
		t = time.UnixMilli(int64(math.Floor(f))).UTC()
	} else {
		sec := math.Floor(f)
		t = time.Unix(int64(sec), int64((f-sec)*1e9)).UTC()
	}
	if core.NoDate(t) {
		return time.Time{}
	}
	return t
}
