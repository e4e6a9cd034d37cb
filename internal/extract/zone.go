package extract

// The zone a date names after its clock: UTC, an offset, a zone's name
// (an abbreviation, in its season, or an IANA name), read in the language
// of its text.

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // the zones of seasonZones and ianaZone, wherever the binary runs

	"github.com/neardup/neardup/core"
)

// zoneLocation gives the zone z names after a clock: none (core.NoZone),
// UTC or GMT, a name namedZone knows, or an offset (zoneOffset). It reports
// false for any other name.
func zoneLocation(z string) (*time.Location, bool) {
	z = strings.ToUpper(strings.TrimSpace(z))
	switch z {
	case "":
		return core.NoZone, true
	case "UTC", "GMT", "Z":
		return time.UTC, true
	}
	if loc, ok := namedZone(z); ok {
		return loc, true
	}
	g := zoneOffset.FindStringSubmatch(z)
	if g == nil {
		return nil, false
	}
	h, m := atoi(g[2]), atoi(g[3])
	if h > 14 || m > 59 {
		return nil, false
	}
	off := h*3600 + m*60
	if g[1] == "-" {
		off = -off
	}
	return time.FixedZone("", off), true
}

// zoneMinutes are the offsets, in minutes east of UTC, of the zone names a
// date may carry that tell one offset wherever news is written: those of
// RFC 5322 (mail, RSS), which pages, feeds and exports still write, and
// the names of Europe, Russia, Asia, Oceania, Africa and the Americas that
// news sites print after a clock. Of two zones of one name the first in
// news is taken: IST is India's (Israel's in Hebrew: WithLanguageZone),
// BST Britain's summer time (Bangladesh's in Bengali), PST North
// America's Pacific, not the Philippines'. Names no zone table agrees on
// (AST, CAT, SST, …) are not here but in sharedZones: a date that carries
// one is read as UTC.
var zoneMinutes = map[string]int{
	"EST": -5 * 60, "EDT": -4 * 60, "CST": -6 * 60, "CDT": -5 * 60, "MST": -7 * 60, "MDT": -6 * 60, "PST": -8 * 60, "PDT": -7 * 60,
	"AKST": -9 * 60, "AKDT": -8 * 60, "HST": -10 * 60, "NST": -3*60 - 30, "NDT": -2*60 - 30, "BRT": -3 * 60, "ART": -3 * 60,
	"WET": 0, "WEST": 60, "BST": 60, "IST": 5*60 + 30, "CET": 60, "CEST": 2 * 60, "MEZ": 60, "MESZ": 2 * 60,
	"EET": 2 * 60, "EEST": 3 * 60, "MSK": 3 * 60, "IDT": 3 * 60, "TRT": 3 * 60,
	"SAST": 2 * 60, "WAT": 60, "EAT": 3 * 60, "PKT": 5 * 60, "NPT": 5*60 + 45, "ICT": 7 * 60, "WIB": 7 * 60,
	"HKT": 8 * 60, "SGT": 8 * 60, "MYT": 8 * 60, "PHT": 8 * 60, "AWST": 8 * 60, "JST": 9 * 60, "KST": 9 * 60,
	"ACST": 9*60 + 30, "ACDT": 10*60 + 30, "AEST": 10 * 60, "AEDT": 11 * 60, "NZST": 12 * 60, "NZDT": 13 * 60,
}

// seasonZones are the names of North America's zones that leave the season
// to the date ("10:30 a.m. ET"): standard time in winter, daylight saving
// time in summer, as the zone's rules had them that day.
var seasonZones = map[string]string{
	"ET": "America/New_York", "CT": "America/Chicago", "MT": "America/Denver", "PT": "America/Los_Angeles",
}

// seasonLocations are the locations of seasonZones, loaded once (from the
// zone database the binary carries: time/tzdata).
var seasonLocations = sync.OnceValue(func() map[string]*time.Location {
	m := map[string]*time.Location{}
	for name, zone := range seasonZones {
		if loc, err := time.LoadLocation(zone); err == nil {
			m[name] = loc
		}
	}
	return m
})

// namedZone returns the zone a name after a clock names, in any case: a
// name of zoneMinutes or seasonZones, or UTC's (UTC, GMT, UT, Z); false
// for any other.
func namedZone(name string) (*time.Location, bool) {
	name = strings.ToUpper(name)
	switch name {
	case "UTC", "GMT", "UT", "Z":
		return time.UTC, true
	}
	if m, ok := zoneMinutes[name]; ok {
		return time.FixedZone(name, m*60), true
	}
	loc, ok := seasonLocations()[name]
	return loc, ok
}

// ianaZone returns the zone a name of the IANA time zone database names
// ("America/New_York", "Europe/Warsaw", "Etc/GMT+5", which is UTC−5),
// from the system's zone database or the one the binary carries
// (time/tzdata); false for a name neither holds. A zone is loaded once.
func ianaZone(name string) (*time.Location, bool) {
	if loc, ok := ianaZones.Load(name); ok {
		return loc.(*time.Location), true
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, false
	}
	ianaZones.Store(name, loc)
	return loc, true
}

// ianaZones holds the locations ianaZone loaded, by name: at most the
// database's.
var ianaZones sync.Map

// SplitZone splits s, a date whose clock is followed by a zone, into the
// date and clock before the zone and the zone itself. The zone is a name
// namedZone knows ("10:30 IST", "10:30 a.m. ET", "22:15 (AEDT)", "10:30
// UT", "10:30 Z"), such a name with an offset after it (zoneWithOffset:
// "10:30 MSK+1", "10:30 GMT+3", "10:30 UTC-05:00", "10:30 CST+0800"), a
// zone of the IANA database (ianaZone: "10:30 America/New_York"), or an
// offset of hours alone ("10:30 +3"). The error is ErrNoZone when s ends
// otherwise (another reader may read it), ErrZoneOffset when it ends with
// a name and an offset that no convention reads ("10:30 EST+1"): the date
// is unread.
//
// A year after the zone, as Unix's date and JavaScript's Date.toString
// write it ("Tue Mar  5 10:30:00 GMT+3 2024"), stays in rest, after the
// clock ("Tue Mar  5 10:30:00 2024"): the zone is read as at the end.
func SplitZone(s string) (rest string, loc *time.Location, err error) {
	if y := zoneBeforeYear.FindStringSubmatch(s); y != nil {
		if rest, loc, err = SplitZone(y[1]); err != nil {
			return "", nil, err
		}
		return rest + " " + y[2], loc, nil
	}
	g := zoneAtEnd.FindStringSubmatch(s)
	switch {
	case g == nil:
		return "", nil, ErrNoZone
	case g[8] != "": // a zone of the IANA database
		var ok bool
		if loc, ok = ianaZone(g[8]); !ok {
			return "", nil, ErrNoZone
		}
	case g[6] != "": // an offset alone
		loc, err = zoneWithOffset("", g[6], g[7], "")
	case g[2] == "AM" || g[2] == "PM": // "10:30 PM -0500": parseZoned's
		return "", nil, ErrNoZone
	case g[3] != "":
		loc, err = zoneWithOffset(g[2], g[3], g[4], g[5])
	default:
		var ok bool
		if loc, ok = namedZone(g[2]); !ok || s[len(g[1])] == 'Z' { // "…00Z" is RFC 3339's, the layouts read it
			return "", nil, ErrNoZone
		}
	}
	if err != nil {
		return "", nil, err
	}
	return g[1], loc, nil
}

var (
	// ErrNoZone is SplitZone's error for a date that does not end with
	// a zone it reads.
	ErrNoZone = errors.New("extract: no zone after the clock")
	// ErrZoneOffset is SplitZone's error for a date that ends with a
	// zone's name and an offset no convention reads: "EST+1", "CET+1",
	// "Z+3" (zoneWithOffset).
	ErrZoneOffset = errors.New("extract: an offset after a zone's name that no convention reads")
)

// zoneWithOffset gives the zone a name followed by an offset names: sign
// ("+", "-" or "−"), hours and minutes (or none) as written. An offset
// alone (no name), of hours, is east of UTC, and so is one after UTC or
// GMT ("GMT+3", "UTC-05:00", "UTC+5:30"), as news sites write them (not
// POSIX's reverse). After MSK, hours alone are hours on from Moscow time,
// as Russia names its zones (MSK−1 to MSK+9: "MSK+1" is UTC+4), and hours
// and minutes must be Moscow's own ("MSK+03:00"): "MSK+01:00" may be
// either. Hours and minutes after another name are the offset, whatever
// the name's own in zoneMinutes: the figures settle a name that several
// zones share ("CST+0800" is China's, "IST+0200" Israel's), and the zone
// is named by its offset alone (WithLanguageZone leaves it). Hours alone
// after another name are read only as the name's own offset where they
// are it and hours on from it would be no offset in use ("KST+9",
// "AEST+10": UTC+18, UTC+20); anything else ("EST+1", "CET+1", which
// some write for CEST, "Z+3") is ErrZoneOffset.
func zoneWithOffset(name, sign, hours, minutes string) (*time.Location, error) {
	h, m := atoi(hours), atoi(minutes)
	if h > 14 || m > 59 {
		return nil, ErrZoneOffset
	}
	off := h*3600 + m*60
	if sign != "+" {
		off = -off
	}
	name = strings.ToUpper(name)
	own, known := zoneMinutes[name]
	switch {
	case name == "" || name == "UTC" || name == "GMT":
		return time.FixedZone("", off), nil
	case name == "MSK" && minutes == "":
		if off < -3600 || off > 9*3600 {
			return nil, ErrZoneOffset
		}
		return time.FixedZone("MSK"+strings.Replace(sign, "−", "-", 1)+strconv.Itoa(h), zoneMinutes["MSK"]*60+off), nil
	case name == "Z" || name == "MSK":
		if off != own*60 {
			return nil, ErrZoneOffset
		}
	case minutes == "" && (!known || off != own*60 || offsetInUse(2*off)):
		return nil, ErrZoneOffset
	}
	return time.FixedZone("", off), nil
}

// offsetInUse reports whether off, in seconds east of UTC, lies between
// the offsets zones use: UTC−12 to UTC+14.
func offsetInUse(off int) bool { return off >= -12*3600 && off <= 14*3600 }

// InZone returns t's date and clock in loc. A clock the zone skips (2:30
// on the night summer time starts) is read with the offset before the
// change, an hour on.
func InZone(t time.Time, loc *time.Location) time.Time {
	u := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), loc)
	if u.Hour() != t.Hour() && u.Add(time.Hour).Hour() == (t.Hour()+1)%24 {
		u = u.Add(time.Hour) // time.Date's choice in a gap is not guaranteed
	}
	return u
}

// zoneAtEnd is a date whose clock is followed by a zone: its name in
// capitals, in brackets or not, with an offset after it or none ("10:30
// IST", "10:30 a.m. ET", "22:15 (AEDT)", "20:00:00.123 CEST", "14:23 Uhr
// MEZ", "10:30 MSK+1", "10:30 GMT +3", "10:30 UTC-05:00", and after a
// fraction's point without figures: "10:30:00.Z"), an offset of hours
// alone after a space ("10:30 +3"), which dateparse reads as a month, the
// hour or seconds, or a name of the IANA database, an area and a place
// ("10:30 America/New_York", "10:30 (Europe/Warsaw)"), which dateparse
// drops. Its groups: the date; the name, the offset's sign, hours and
// minutes; the sign and hours of an offset alone; the IANA name.
var zoneAtEnd = regexp.MustCompile(`^(.*\d:\d\d(?::\d\d(?:[.,]\d+)?)?(?:\s*[AaPp]\.?[Mm]\.?|\s*[Uu]hr)?)` +
	`(?:[.,]?[\s,]*\(?([A-Z]{1,5})(?:\s*([+\-−])(\d{1,2})(?::?(\d{2}))?)?\)?|\s+([+\-−])(\d{1,2})` +
	`|[\s,]*\(?([A-Z][A-Za-z]*(?:/[A-Za-z0-9_+\-]+)+)\)?)$`)

// zoneBeforeYear is a date whose clock is followed by a zone's name, with
// an offset after it or none, and then by the year ("Tue Mar  5 10:30:00
// GMT+3 2024", "Tue Mar  5 10:30:00 MSK 2024"): its groups are the date to
// the zone, and the year.
var zoneBeforeYear = regexp.MustCompile(`^(.*\d:\d\d(?::\d\d)?\s+\(?[A-Z]{1,5}(?:\s*[+\-−]\d{1,2}(?::?\d{2})?)?\)?)\s+((?:19|20)\d{2})$`)

// WithZoneOffset gives t, a time parsed in UTC (time.ParseInLocation, or
// dateparse.ParseIn with time.UTC), the offset of the zone it names: those
// read a zone's name other than UTC's with a zero offset ("01:00 EST" as
// 01:00 UTC, not 06:00).
func WithZoneOffset(t time.Time) time.Time {
	name, off := t.Zone()
	if off != 0 || name == "UTC" || name == "" {
		return t
	}
	loc, ok := namedZone(name)
	if !ok {
		return t
	}
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), loc)
}

// WithLanguageZone gives t the offset its zone's name has in a text in
// language lang (a BCP 47 tag) where that differs from WithZoneOffset's
// reading: CST on a page in Chinese is China Standard Time, UTC+8, which
// mainland and Taiwanese sites write, not North America's Central, UTC−6;
// IST in Hebrew is Israel's, UTC+2, not India's; BST in Bengali is
// Bangladesh's, UTC+6, not Britain's summer time.
func WithLanguageZone(t time.Time, lang string) time.Time {
	name, off := t.Zone()
	z, ok := languageZones[name]
	if !ok || (off != 0 && off != zoneMinutes[name]*60) || !hasLanguage(lang, z.lang) {
		return t
	}
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.FixedZone(name, z.minutes*60))
}

// languageZones are the zone names whose offset in texts of one language
// (a BCP 47 primary tag) is another than zoneMinutes gives.
var languageZones = map[string]struct {
	lang    string
	minutes int
}{
	"CST": {"zh", 8 * 60},
	"IST": {"he", 2 * 60},
	"BST": {"bn", 6 * 60},
}

// hasLanguage reports whether lang, a BCP 47 tag, is of the primary
// language primary ("zh", "zh-CN", "zh-Hant-TW" for "zh"), in any case.
func hasLanguage(lang, primary string) bool {
	n := len(primary)
	return len(lang) >= n && strings.EqualFold(lang[:n], primary) && (len(lang) == n || lang[n] == '-' || lang[n] == '_')
}
