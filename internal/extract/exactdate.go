package extract

// The forms of a date that exports, feeds and mail write to a pattern
// (ISO 8601, the RFC forms): read first, exactly and fast, by every reading
// of a date (scanDate), before the forms news sites print.

import (
	"errors"
	"regexp"
	"strings"
	"time"

	"github.com/neardup/neardup/core"
)

// dateLayouts are the forms exactDate reads, tried in order: ISO 8601 and
// its common relatives, the RFC forms of mail and feeds, and the forms news
// sites print most.
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
	"20060102T150405Z0700", // ISO 8601's basic format: "20240301T090000Z", "20240301T090000+0100"
	"20060102T150405Z07",
	"20060102T1504Z0700",
	"20060102T1504Z07",
	"20060102T150405",
	"20060102T1504",
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

// exactDate reads s in the first of dateLayouts that fits, after taking
// off a zone SplitZone reads (a name the layouts do not read, "ET", or read
// with a zero offset, in brackets or not, or a name and an offset: "MSK+1",
// "GMT+3") and a mail date's comment ("… +0000 (UTC)"). A date of no zone
// named is in core.NoZone. It reports whether it refused s: a zone's name
// and an offset no convention reads ("EST+1": SplitZone's ErrZoneOffset),
// or a placeholder (core.NoDate, or the zero Time: 0001-01-01).
func exactDate(s string) (t time.Time, ok, refused bool) {
	switch rest, loc, err := SplitZone(s); {
	case err == nil:
		if t, ok, _ := exactDate(rest); ok && t.Location() == core.NoZone {
			return InZone(t, loc), true, false
		}
	case errors.Is(err, ErrZoneOffset):
		return time.Time{}, false, true
	}
	if i := strings.LastIndex(s, " ("); i > 0 && strings.HasSuffix(s, ")") {
		s = strings.TrimSpace(s[:i]) // a mail date's comment: "… +0000 (UTC)"
	}
	for _, layout := range dateLayouts {
		// In UTC, not the local zone: time.Parse reads a zone's name
		// with the local zone's offset when it is the local zone's, so
		// that "EST" would be UTC here and UTC-5 on a machine in New York.
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			if t.IsZero() || core.NoDate(t) {
				return time.Time{}, false, true
			}
			if !hasZone(layout) {
				return t.In(core.NoZone), true, false
			}
			return WithZoneOffset(gmtOffset(t)), true, false
		}
	}
	return time.Time{}, false, false
}

// upperISO returns s, a date, in capitals when it is RFC 3339's with a
// lower-case "t" or "z" (which RFC 3339 allows: "2024-05-01t10:00:00z"),
// or ISO 8601's basic format with them ("20240501t100000z"), else s
// itself.
func upperISO(s string) string {
	if len(s) > 10 && (s[10] == 't' || s[len(s)-1] == 'z') && isoDay.MatchString(s[:10]) ||
		len(s) > 8 && s[8] == 't' && allDigits(s[:8]) {
		return strings.ToUpper(s)
	}
	return s
}

// allDigits reports whether s is ASCII digits only.
func allDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
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
