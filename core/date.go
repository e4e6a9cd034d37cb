package core

import (
	"strings"
	"time"
)

// NoZone is the location of a Document.Date read without a zone or an
// offset ("2024-01-02 03:04:05", a Parquet TIMESTAMP not adjusted to UTC):
// a wall clock of some zone nobody named. It is compared and ordered as if
// it were UTC (offset 0), as such a date always was; FormatDate writes it
// without an offset, so that no output claims it is UTC.
var NoZone = time.FixedZone("", 0)

// NoDate reports whether t, not the zero Time, stands for no date all the
// same: an instant of year 1 or before in UTC (the zero value of Go's and
// .NET's times, written with an offset, falls there, in year 1 or year 0:
// no news article is dated so), or the Unix epoch,
// 1970-01-01T00:00:00Z (a Unix time of 0), which placeholders write and
// which the batch and the index, holding dates in Unix seconds, hold as
// unknown; or one past year 9999 in UTC (PastYear9999), which no output,
// RFC 3339's four figures of a year, can write. The readers of package
// corpus leave such a date out, as one they cannot read, and count it
// with those.
func NoDate(t time.Time) bool {
	return !t.IsZero() && (t.Unix() == 0 || t.UTC().Year() <= 1 || PastYear9999(t))
}

// WhyNoDate returns why t, a date a client gave, stands for no date ("" when
// it is a date), for an edge that refuses it: the zero time, a
// placeholder (NoDate), or an instant past year 9999 in UTC.
func WhyNoDate(t time.Time) string {
	switch {
	case PastYear9999(t):
		return "is after the year 9999 in UTC, which no output can write"
	case t.IsZero(), NoDate(t):
		return "stands for no date (the zero time, year 1 and the Unix epoch are held as undated)"
	}
	return ""
}

// PastYear9999 reports whether t falls after the last instant of year
// 9999 in UTC ("9999-12-31T23:00:00-05:00" does), where RFC 3339 and
// encoding/json write no time.
func PastYear9999(t time.Time) bool {
	return t.UTC().Year() > 9999
}

// noZoneLayout is RFC 3339 without the offset, with the fraction of a
// second when there is one.
const noZoneLayout = "2006-01-02T15:04:05.999999999"

// FormatDate returns t formatted by layout, or, when t is in NoZone, as
// RFC 3339 without an offset: "2024-01-02T03:04:05" (and its fraction of a
// second, when it has one).
func FormatDate(t time.Time, layout string) string {
	if t.Location() == NoZone {
		return t.Format(noZoneLayout)
	}
	return t.Format(layout)
}

// ParseRFC3339 reads s as time.Parse reads time.RFC3339 (a fraction of a
// second or none), and also with the lower-case "t" between the date and
// the time and "z" for UTC, which RFC 3339 allows (section 5.6:
// "2024-05-01t10:00:00z") and time.Parse refuses.
func ParseRFC3339(s string) (time.Time, error) {
	if len(s) > 10 && s[10] == 't' {
		s = s[:10] + "T" + s[11:]
	}
	if strings.HasSuffix(s, "z") {
		s = s[:len(s)-1] + "Z"
	}
	return time.Parse(time.RFC3339, s)
}
