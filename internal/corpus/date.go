package corpus

import (
	"strconv"
	"strings"
	"time"
)

// dateLayouts are the forms a date field is read in, tried in order: ISO
// 8601 and its common relatives, the RFC forms of mail and feeds, and the
// forms news sites print.
var dateLayouts = []string{
	time.RFC3339, // also with fractional seconds
	"2006-01-02T15:04:05Z0700",
	"2006-01-02T15:04:05",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05 -0700",
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
	"Mon, 2 Jan 2006 15:04:05 -0700",
	"Mon, 2 Jan 2006 15:04:05 MST",
	"Mon, 2 Jan 2006 15:04 -0700",
	"2 Jan 2006 15:04:05 -0700",
	"2 Jan 2006 15:04:05 MST",
	time.RFC850,
	time.RFC822Z,
	time.RFC822,
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

// parseDate reads s in the first layout that fits; a date it cannot read
// is the zero Time (unknown), never an error.
func parseDate(s string) time.Time {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}
	}
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
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
	return time.Unix(sec, int64((f-float64(sec))*1e9)).UTC()
}
