package watch

import (
	"cmp"
	"errors"
	"regexp"
	"strings"
	"time"

	"github.com/araddon/dateparse"
	"github.com/mmcdole/gofeed"

	"github.com/neardup/neardup/core"

	"github.com/neardup/neardup/internal/extract"
)

// itemDate is an item's date, when it was published, else updated, in the
// zone its text names; zero when it gives neither in a form gofeed or
// package extract reads.
// gofeed reads the zone names it does not know ("10:00 MSK", JST, KST) as
// UTC, keeps the clock of "GMT+3" as UTC's, and gives RSS dates in UTC,
// the zone's name lost before the page's or the feed's language could say
// which CST it is (see extract.WithLanguageZone): a date that ends with a
// zone's name, with an offset after it or none, is read again, as package
// extract reads a page's.
func itemDate(it *gofeed.Item) time.Time {
	var t time.Time
	switch {
	case it.PublishedParsed != nil:
		t = zonedDate(it.Published, *it.PublishedParsed)
	case it.UpdatedParsed != nil:
		t = zonedDate(it.Updated, *it.UpdatedParsed)
	case it.Published != "" || it.Updated != "":
		// gofeed reads none of some zones' names ("10:00:00 ET")
		t, _ = extract.ParseDate(cmp.Or(it.Published, it.Updated))
	}
	if core.NoDate(t) {
		return time.Time{} // a placeholder (year 1, the Unix epoch): no date
	}
	return t
}

// zonedDate is raw, a date gofeed read as parsed, read again in the zone
// its end names (extract.SplitZone: "MSK", "MSK+1", "GMT+3";
// extract.WithZoneOffset), that name kept; no date when its end is a
// zone's name and an offset no convention reads ("EST+1": SplitZone's
// ErrZoneOffset); parsed when raw ends with no zone, with a name package
// extract does not know, or when it reads otherwise than gofeed by more
// than zones differ (a day and a month the other way round: 02/01/2026).
func zonedDate(raw string, parsed time.Time) time.Time {
	raw = strings.TrimSpace(raw)
	var t time.Time
	rest, loc, err := extract.SplitZone(raw)
	switch {
	case err == nil:
		// dateparse cuts names of four letters or more ("AEDT" as "AED"),
		// and gofeed keeps the clock of "GMT+3" as UTC's.
		t, err = dateparse.ParseIn(rest, time.UTC)
		t = extract.InZone(t, loc)
	case errors.Is(err, extract.ErrZoneOffset):
		return time.Time{} // "EST+1": no zone, as package extract reads it
	case !endsWithZone.MatchString(raw):
		return parsed
	default:
		t, err = dateparse.ParseIn(raw, time.UTC)
		t = extract.WithZoneOffset(t)
	}
	if err != nil {
		return parsed
	}
	if _, off := t.Zone(); off == 0 {
		// UTC's name, or one WithZoneOffset does not know and reads as
		// UTC: gofeed's reading, which may know it (BST, UTC+1), is kept.
		return parsed
	}
	if d := t.Sub(parsed); d > maxZoneSpread || d < -maxZoneSpread {
		return parsed
	}
	return t
}

// endsWithZone matches a date that ends with a zone's name: "... 10:00 MSK".
var endsWithZone = regexp.MustCompile(`[^A-Za-z][A-Z]{2,5}$`)

// maxZoneSpread is more than two readings of one date's zone differ by
// (UTC−12 to UTC+14).
const maxZoneSpread = 26 * time.Hour
