package extract

// A web feed item's date, as gofeed parsed it, read again where gofeed
// reads its zone wrong: by watch for the feeds it follows and by corpus for
// the feed files dedup reads.

import (
	"errors"
	"regexp"
	"strings"
	"time"

	"github.com/araddon/dateparse"

	"github.com/neardup/neardup/core"
)

// FeedDate is a feed item's date: published (the text and what gofeed
// parsed of it, nil when it parsed nothing), else updated, read again in
// the zone its text names, in core.NoZone when it names none (ZonedDate);
// when gofeed parsed neither, the first text given read as ParseDate reads
// it (gofeed reads no date before some zones' names: "10:00:00 ET"). It is
// the zero time when neither reads.
func FeedDate(published string, publishedParsed *time.Time, updated string, updatedParsed *time.Time) time.Time {
	switch {
	case publishedParsed != nil:
		return ZonedDate(published, *publishedParsed)
	case updatedParsed != nil:
		return ZonedDate(updated, *updatedParsed)
	}
	raw := published
	if raw == "" {
		raw = updated
	}
	t, _ := ParseDate(raw)
	return t
}

// ZonedDate is raw, a date gofeed read as parsed, read again in the zone
// its end names (SplitZone: "MSK", "MSK+1", "GMT+3", "CST+0800";
// WithZoneOffset), as ParseDate reads a page's: gofeed reads the zone
// names it does not know ("10:00 MSK", JST, KST) as UTC, keeps the clock
// of "GMT+3" as UTC's, and gives RSS dates in UTC. It is no date when
// raw's end is a zone's name and an offset no convention reads ("EST+1":
// SplitZone's ErrZoneOffset); parsed in core.NoZone when raw names no zone
// or offset (noZone), a word that names none included (noZoneWords: "10:30
// ABC"); parsed when raw ends with a name zones far apart share
// (sharedZones: "AST"), or when it reads otherwise than gofeed by more
// than zones differ (a day and a month the other way round: 02/01/2026).
func ZonedDate(raw string, parsed time.Time) time.Time {
	raw = strings.TrimSpace(raw)
	var t time.Time
	rest, loc, err := SplitZone(raw)
	switch {
	case err == nil:
		// dateparse cuts names of four letters or more ("AEDT" as "AED"),
		// and gofeed keeps the clock of "GMT+3" as UTC's.
		t, err = dateparse.ParseIn(rest, time.UTC)
		t = InZone(t, loc)
	case errors.Is(err, ErrZoneOffset):
		return time.Time{} // "EST+1": no zone, as ParseDate reads it
	case !endsWithZone.MatchString(raw) || strings.HasSuffix(raw, "AM") || strings.HasSuffix(raw, "PM") || noZoneWords(raw):
		return noZone(raw, parsed) // a 12-hour clock's "AM" is no zone, nor is a word no reader knows as one
	default:
		t, err = dateparse.ParseIn(raw, time.UTC)
		t = WithZoneOffset(t)
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

// noZoneWords reports whether raw's clock is followed by words that name
// no zone (withoutNoZone), which gofeed reads as UTC ("10:30 ABC").
func noZoneWords(raw string) bool {
	_, dropped := withoutNoZone(raw)
	return dropped
}

// noZone gives parsed, gofeed's reading of raw, in core.NoZone when raw
// names no zone or offset, as ParseDate reads it in any year (scanDate),
// and at parsed's clock: gofeed reads such a date at UTC's clock, the day
// and the month as its own layouts order them (02/01/2026 day first).
// Otherwise it gives parsed: a date it reads with an offset, or one
// package extract does not read.
func noZone(raw string, parsed time.Time) time.Time {
	own, ok, _ := scanDate(raw, false)
	if !ok {
		own, ok, _ = scanDate(raw, true)
	}
	u := parsed.UTC()
	if !ok || own.Location() != core.NoZone || own.Hour() != u.Hour() || own.Minute() != u.Minute() || own.Second() != u.Second() {
		return parsed
	}
	return time.Date(u.Year(), u.Month(), u.Day(), u.Hour(), u.Minute(), u.Second(), u.Nanosecond(), core.NoZone)
}

// endsWithZone matches a date that ends with a zone's name: "... 10:00 MSK".
var endsWithZone = regexp.MustCompile(`[^A-Za-z][A-Z]{2,5}$`)

// maxZoneSpread is more than two readings of one date's zone differ by
// (UTC−12 to UTC+14).
const maxZoneSpread = 26 * time.Hour
