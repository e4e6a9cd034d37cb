package core

import "time"

// NoZone is the location of a Document.Date read without a zone or an
// offset ("2024-01-02 03:04:05", a Parquet TIMESTAMP not adjusted to UTC):
// a wall clock of some zone nobody named. It is compared and ordered as if
// it were UTC (offset 0), as such a date always was; FormatDate writes it
// without an offset, so that no output claims it is UTC.
var NoZone = time.FixedZone("", 0)

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
