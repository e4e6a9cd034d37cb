package corpus

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/extract"
)

// dateLayouts are the forms a date field is read in, tried in order: ISO
// 8601 and its common relatives, the RFC forms of mail and feeds, and the
// forms news sites print.
var dateLayouts = []string{
	time.RFC3339, // also with fractional seconds
	"2006-01-02T15:04:05Z0700",
	"2006-01-02T15:04:05 Z07:00",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04:05-07", // an offset of hours alone, as PostgreSQL writes a timestamptz
	"2006-01-02T15:04-07",
	"2006-01-02T15:04Z0700",
	"2006-01-02T15:04:05",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05Z0700",
	"2006-01-02 15:04:05-07",
	"2006-01-02 15:04Z07:00", // without seconds, an offset or Z straight after the clock
	"2006-01-02 15:04Z0700",
	"2006-01-02 15:04-07",
	"2006-01-02 15:04:05 -0700",
	"2006-01-02 15:04:05 Z07:00",
	"2006-01-02 15:04:05 MST",
	"2006-01-02 15:04:05",
	"2006-01-02T15:04",
	"2006-01-02 15:04",
	"2006-01-02",
	"2006/01/02 15:04:05",
	"2006/01/02",
	"20060102",
	time.RFC1123Z,
	time.RFC1123,
	"Mon, 02 Jan 2006 15:04:05", // RFC 1123 before a zone SplitZone took off
	"Mon, 2 Jan 2006 15:04:05 -0700",
	"Mon, 2 Jan 2006 15:04:05 MST",
	"Mon, 2 Jan 2006 15:04:05",
	"Mon, 2 Jan 2006 15:04 -0700",
	"Mon, 2 Jan 2006 15:04 MST",
	"Mon, 2 Jan 2006 15:04",
	"2 Jan 2006 15:04:05 -0700",
	"2 Jan 2006 15:04:05 MST",
	"2 Jan 2006 15:04:05",
	time.RFC850,
	"Monday, 02-Jan-06 15:04:05",
	time.RFC822Z,
	time.RFC822,
	"02 Jan 06 15:04",
	time.ANSIC,
	time.UnixDate,
	"January 2, 2006 15:04",
	"January 2, 2006",
	"Jan 2, 2006 15:04",
	"Jan 2, 2006",
	"2 January 2006 15:04",
	"2 January 2006",
	"2 Jan 2006",
	"02.01.2006 15:04",
	"02.01.2006",
}

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

// parseDate reads s in the first layout that fits; a date it cannot read
// is the zero Time (unknown), never an error.
func parseDate(s string) time.Time {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}
	}
	if len(s) > 10 && (s[10] == 't' || s[len(s)-1] == 'z') && isoDay.MatchString(s[:10]) {
		s = strings.ToUpper(s) // RFC 3339 allows "t" and "z"
	}
	switch rest, loc, err := extract.SplitZone(s); {
	case err == nil:
		// A name the layouts do not read ("ET": two letters) or read
		// with a zero offset, in brackets or not, or a name and an
		// offset ("MSK+1", "GMT+3"): the date and clock before it, in
		// its zone.
		if t := parseDate(rest); !t.IsZero() && t.Location() == core.NoZone {
			return extract.InZone(t, loc)
		}
	case errors.Is(err, extract.ErrZoneOffset):
		return time.Time{} // "EST+1": no zone
	}
	if i := strings.LastIndex(s, " ("); i > 0 && strings.HasSuffix(s, ")") {
		s = strings.TrimSpace(s[:i]) // a mail date's comment: "… +0000 (UTC)"
	}
	for _, layout := range dateLayouts {
		// In UTC, not the local zone: time.Parse reads a zone's name
		// with the local zone's offset when it is the local zone's, so
		// that "EST" would be UTC here and UTC-5 on a machine in New York.
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			if core.NoDate(t) {
				return time.Time{}
			}
			if !hasZone(layout) {
				return t.In(core.NoZone)
			}
			return extract.WithZoneOffset(gmtOffset(t))
		}
	}
	return unixText(s)
}

// gmtOffset gives t, parsed by a layout with a zone's name, the instant
// its clock has at the offset of a name "GMT+3" or "GMT-5" (in UnixDate's
// layout, where SplitZone does not find it): time.Parse gives such a time
// the offset but keeps the clock as UTC's (10:30 GMT+3 as 10:30Z).
func gmtOffset(t time.Time) time.Time {
	name, off := t.Zone()
	if off == 0 || len(name) <= 3 || name[:3] != "GMT" {
		return t
	}
	u := t.UTC()
	return time.Date(u.Year(), u.Month(), u.Day(), u.Hour(), u.Minute(), u.Second(), u.Nanosecond(), t.Location())
}

// isoDay is a date written year first as RFC 3339 writes it.
var isoDay = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// hasZone reports whether a layout of dateLayouts reads a zone: an offset
// or a zone's name.
func hasZone(layout string) bool {
	return strings.Contains(layout, "Z07") || strings.Contains(layout, "-07") || strings.Contains(layout, "MST")
}

// unixText reads Unix time written as text, as a CSV file or a JSON string
// holds it: 9 or 10 digits are seconds, 13 milliseconds (the dates from
// 1973 to 2286), a fraction allowed. Other runs of digits are no date
// ("20240305" is one of dateLayouts; "202403051020" is neither).
func unixText(s string) time.Time {
	digits, frac, _ := strings.Cut(s, ".")
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
// it is too large to be seconds of a plausible date.
func unixDate(lit []byte) time.Time {
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil || f <= 0 || f >= 1e15 {
		return time.Time{}
	}
	if f >= 1e11 {
		return time.UnixMilli(int64(f)).UTC()
	}
	sec := int64(f)
	if t := time.Unix(sec, int64((f-float64(sec))*1e9)).UTC(); !core.NoDate(t) {
		return t
	}
	return time.Time{}
}
