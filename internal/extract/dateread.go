package extract

// Reading a date written as text: a declared value, a date line, the
// notations of other languages than English.

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/araddon/dateparse"

	"github.com/neardup/neardup/core"
)

// ParseDate is parseDate, for a date given apart from a page (a feed
// item's that its parser could not read): one that names no zone or
// offset is in core.NoZone.
func ParseDate(s string) (time.Time, bool) { return parseDate(s) }

// ReadDate reads s, a date given as a value (an input file's date field),
// in the forms parseDate reads, in any year: a date that names no zone or
// offset is in core.NoZone, as one no output should claim is UTC; a
// placeholder (core.NoDate: year 1, the Unix epoch) is no date, and so is a
// date of figures whose day and month could go either way (03/10/2023:
// ambiguousDate), as in a page's text (dateOnly), and one read without a
// zone whose clock is followed by letters no reader took for one
// (zoneUnread: "10:20 Pacific Standard Time", "10:20 America/Nowhere"),
// which parseDate reads without them.
func ReadDate(s string) (time.Time, bool) {
	t, ok, _ := scanDate(s, true)
	if !ok || t.IsZero() || core.NoDate(t) || t.Location() == core.NoZone && zoneUnread(s) {
		return time.Time{}, false
	}
	return t, true
}

// zoneUnread reports whether s holds letters after its clock, up to its
// end, a year at its end or a comma, other than a 12-hour clock's "AM" or
// "PM" (with dots or without) and the "Uhr" or "h" localDate reads: a
// zone's name, which a date read without a zone has lost ("2024-03-05
// 10:20:30 Pacific Standard Time", "… Europe/Nowhere", "10:20 Foo Time,
// March 5, 2024", "Tue Mar  5 10:30:00 Foo 2024", a mail date's comment:
// "… 10:20:30 (Foo)").
func zoneUnread(s string) bool {
	g := clockTail.FindStringSubmatch(s)
	if g == nil {
		return false
	}
	var letters strings.Builder
	for _, r := range g[1] {
		if unicode.IsLetter(r) {
			letters.WriteRune(unicode.ToLower(r))
		}
	}
	switch letters.String() {
	case "", "am", "pm", "uhr", "h":
		return false
	}
	return true
}

// clockTail is a clock (hours, minutes and seconds or none, a fraction of
// a second or a point) and what follows it up to the end, a year at the
// end or a comma, without figures: the group.
var clockTail = regexp.MustCompile(`\d:\d\d(?::\d\d(?:[.,]\d*)?)?([^\d,]*?)(?:\s+(?:19|20)\d\d)?\s*(?:,|$)`)

// withoutNoZone returns s without the words after its clock when they name
// no zone (namesNoZone: "3 May 2024 09:00 Reuters", "10:30 Uhr", "10:30
// ABC", "10:15 AM Foo, March 4, 2024", "Tue Mar  5 10:30:00 Abc 2024"),
// and whether it took any off; its "AM" or "PM" stays. The layouts and
// dateparse read a word of capitals ("ABC") or a word after a date they
// know ("Abc", "Uhr") as a zone, at UTC's offset. Words that open with a
// zone and go on lose what follows the zone ("10:30:00 EST Reuters 2024"
// is read as "10:30:00 EST 2024"; "CET (Central European Time)" as
// "CET"), which the layouts do not read past; that takes no word naming
// no zone off.
func withoutNoZone(s string) (string, bool) {
	m := clockWords.FindStringSubmatchIndex(s)
	if m == nil {
		return s, false
	}
	words := s[m[2]:m[3]]
	if namesNoZone(words) {
		return s[:m[2]] + s[m[3]:], true
	}
	if end := zoneEnd(words); end > 0 {
		return s[:m[2]] + words[:end] + s[m[3]:], false
	}
	return s, false
}

// zoneEnd returns where in words (what follows a clock, which namesNoZone
// found to open with a zone) the zone's name ends when other words follow
// it, else 0.
func zoneEnd(words string) int {
	if named := namedWords(words); len(named) > 1 {
		return named[0][1]
	}
	return 0
}

// namedWords returns where the words of what follows a clock lie (start
// and end), set apart by spaces and brackets, but "Uhr" and "h" (which
// localDate reads after a clock) and dots alone.
func namedWords(words string) [][2]int {
	isSep := func(r rune) bool { return unicode.IsSpace(r) || r == '(' || r == ')' }
	var out [][2]int
	for i := 0; i < len(words); {
		r, size := utf8.DecodeRuneInString(words[i:])
		if isSep(r) {
			i += size
			continue
		}
		j := i + strings.IndexFunc(words[i:], isSep)
		if j < i {
			j = len(words)
		}
		if l := strings.ToLower(strings.Trim(words[i:j], ".")); l != "uhr" && l != "h" && l != "" {
			out = append(out, [2]int{i, j})
		}
		i = j
	}
	return out
}

// clockWords is a clock (hours, minutes and seconds or none, a fraction of
// a second or a point) with its "AM" or "PM", if any, and the words after
// it, without figures, up to the end, a year at the end or a comma: the
// group is the words.
var clockWords = regexp.MustCompile(`\d:\d\d(?::\d\d(?:[.,]\d*)?)?(?:\s*[AaPp]\.?[Mm](?:\.|\b))?([^\d,]*?)(?:\s+(?:19|20)\d\d)?\s*(?:,|$)`)

// namesNoZone reports whether words, what follows a clock, hold letters
// that name no zone: "Uhr" or "h" alone (which localDate reads after a
// clock), or anything that does not open with the name of a zone a reader
// knows, in brackets or not (namedZone's, one of sharedZones: "CET
// (Central European Time)", "GMT GMT"), or is not one zone of the IANA
// database (ianaZone's), "Uhr" or "h" beside it.
func namesNoZone(words string) bool {
	if !strings.ContainsFunc(words, unicode.IsLetter) {
		return false
	}
	named := namedWords(words)
	if len(named) == 0 {
		return true
	}
	w := words[named[0][0]:named[0][1]]
	if _, ok := namedZone(w); ok || sharedZones[strings.ToUpper(w)] {
		return false // what follows the zone is taken off (zoneEnd)
	}
	if len(named) > 1 || !strings.Contains(w, "/") {
		return true
	}
	_, ok := ianaZone(w)
	return !ok
}

// sharedZones are zone names that zones far apart share, of which news
// means none the most (a name news mostly means one zone by is in
// zoneMinutes): a date that carries one is read as UTC. Any other word
// after a clock names no zone (namesNoZone).
var sharedZones = map[string]bool{
	"ACT": true, "ADT": true, "AMST": true, "AMT": true, "AST": true, "BDT": true, "CAT": true, "ECT": true,
	"GST": true, "LHST": true, "SST": true, "WST": true,
}

// parseDate parses a date in any common notation (exactDate's, then
// localDate's, then dateparse's), accepting only years from 1990 to next
// year, and nothing that holds no day (a year alone, a month of a year, a
// clock: see looseDate). An "on" and a weekday before the date and a dash
// or an "@" between the date and its time ("Thu, 09/25/2025 - 11:38", "on
// Friday December 19, 2025 @08:00PM") are read past. A date that names no
// zone or offset is in core.NoZone, as ReadDate gives it.
func parseDate(s string) (time.Time, bool) {
	t, ok, _ := scanDate(s, false)
	return t, ok
}

// scanDate reads s as parseDate does, a date that names no zone in
// core.NoZone: in the forms written to a pattern (exactDate), else in
// those news sites print (looseDate). value reads it as ReadDate does (any
// year, a day and a month that could go either way refused), else as
// parseDate (years from 1990 to next year). It reports whether it refused
// s (exactDate, looseDate).
func scanDate(s string, value bool) (t time.Time, ok, refused bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false, false
	}
	s = upperISO(s)
	s, _ = withoutNoZone(s) // a word read as a zone would be UTC
	if t, ok, refused := exactDate(s); ok && (value || plausibleYear(t)) {
		return t, true, false
	} else if ok || refused {
		return time.Time{}, false, refused
	}
	return looseDate(s, value)
}

// looseDate reads s, a date exactDate does not read, as scanDate does
// (value: any year, a day and a month that could go either way refused),
// in localDate's notations, dateparse's, and dayFirstDate's. It reports
// whether it refused s as a form dateparse misreads: no day (dayless:
// "2019", an album's release or a copyright, is no January 1; "2024-03" no
// March 1; "10:30:00" no October 30, 2000), a month or a day s does not
// show (monthShown, dayShown), a zone's name and an offset no convention
// reads (SplitZone's ErrZoneOffset: "10:30 EST+1"), or a date it cannot
// read before an offset SplitZone reads, which dateparse takes for the
// month, the hour or seconds; or hours alone after a date without a clock
// ("2024-03-05 -05": hoursAlone), or a time of day s does not show
// (timeShown). A date after its clock and a comma
// (clockFirst), which dateparse does not read, is read as the date and
// then the clock.
func looseDate(s string, value bool) (t time.Time, ok, refused bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 64 {
		return time.Time{}, false, false
	}
	if value {
		if m := ambiguousDate.FindStringSubmatch(s); m != nil && atoi(m[1]) <= 12 && atoi(m[2]) <= 12 {
			return time.Time{}, false, true
		}
	}
	if dayless(s) || hoursAlone(s) && !clockShown.MatchString(s) {
		return time.Time{}, false, true // hours alone are an offset after a clock only (SplitZone)
	}
	if longHour.MatchString(s) {
		return time.Time{}, false, true // "605:12:19": no clock, which dateparse reads as 00:12
	}
	if m := clockFirst.FindStringSubmatch(s); m != nil && !hasYear(m[1]) {
		if t, ok, refused := looseDate(m[2]+" "+m[1], value); ok || refused {
			return t, ok, refused // read as the date, then the clock
		}
	}
	switch rest, loc, err := SplitZone(s); {
	case err == nil:
		// dateparse drops or cuts the names it does not know ("AEDT" as
		// "AED", at UTC), reads no date at all before some ("10:30
		// a.m. ET") and an offset of hours ("MSK+1", "+3") as a month,
		// the hour or seconds: the date is read without its zone, then
		// put in it.
		if t, ok, _ := looseDate(rest, value); ok {
			if name, off := t.Zone(); off == 0 && (name == "UTC" || name == "") {
				return InZone(t, loc), true, false
			}
			return t, true, false
		}
		if strings.ContainsAny(s[len(rest):], "0123456789") {
			return time.Time{}, false, true
		}
	case errors.Is(err, ErrZoneOffset):
		return time.Time{}, false, true
	}
	t, err := localDate(s) // first: dateparse reads 03.04.2024 month first
	if err != nil {
		t, err = parseZoned(s)
	}
	if err != nil {
		u := leadingWeekday.ReplaceAllString(strings.TrimPrefix(s, "on "), "")
		if u = strings.Replace(strings.Replace(u, " - ", " ", 1), " @", " ", 1); u != s {
			t, err = parseZoned(u)
		}
	}
	if err != nil {
		t, err = dayFirstDate(s)
	}
	if err != nil || !value && !plausibleYear(t) {
		return time.Time{}, false, false
	}
	if !monthShown(s, t.Month()) || !dayShown(s, t.Day()) || !timeShown(s, t) {
		return time.Time{}, false, true
	}
	return WithZoneOffset(t), true, false
}

// plausibleYear reports whether t falls in a year from 1990 to next year,
// the years a page's date is read in: a page shows older years (a
// copyright, an archive's) that are not its own.
func plausibleYear(t time.Time) bool {
	return t.Year() >= 1990 && t.Year() <= time.Now().Year()+1
}

// dayless reports whether s holds too few figures of a date (dateFigures)
// to give a day: three runs of one, two or four figures (a day, a month
// and a year), two when s names a month (namedMonth), or one of five
// figures or more (20240305, Unix time); a run of three (a fraction of a
// second) is none of them. A time of day, a year alone and a month of a
// year are no date ("10:30:00", "Tue 10:30 +0300", "10:30 MSK 2024",
// "Tuesday 2024", "2024-03", "2024/03", "March 2024"), which dateparse
// reads as one ("10:30:00" as October 30, 2000, "01:02:03" as January 2,
// 2003, "Tuesday 2024" as January 1, "2024-03" as March 1): an invented
// day could make a later copy of a story look first.
func dayless(s string) bool {
	n := 0
	for _, r := range dateFigures(s) {
		switch len(r) {
		case 1, 2, 4:
			n++
		case 3:
		default:
			return false
		}
	}
	if n == 2 {
		m, _ := namedMonth(s)
		return m == 0
	}
	return n < 2
}

// dateFigures returns the runs of ASCII digits in s that may be a date's:
// not a clock's (a run beside a colon: "10:30", the "03:00" of "+03:00"),
// nor an offset's (after a plus, or a minus after a space, a bracket or a
// name that is no month's: "+3", "MSK+1", "GMT-5", " -0500"). The "03" of
// "2024-03-05" and the "24" of "05-Mar-24" are a date's.
func dateFigures(s string) []string {
	var runs []string
	for i := 0; i < len(s); {
		if s[i] < '0' || s[i] > '9' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		clock := j < len(s) && s[j] == ':' || i > 0 && s[i-1] == ':'
		if !clock && !offsetAt(s, i) {
			runs = append(runs, s[i:j])
		}
		i = j
	}
	return runs
}

// offsetAt reports whether the figures at s[i:] follow an offset's sign:
// a plus, or a minus ("-", "−") after a space, a bracket, the start or a
// name that is no month's.
func offsetAt(s string, i int) bool {
	before := s[:i]
	switch {
	case strings.HasSuffix(before, "+"):
		return true
	case strings.HasSuffix(before, "-"):
		before = before[:len(before)-1]
	case strings.HasSuffix(before, "−"):
		before = before[:len(before)-len("−")]
	default:
		return false
	}
	word := strings.ToLower(before[len(strings.TrimRightFunc(before, unicode.IsLetter)):])
	if word == "" {
		return before == "" || strings.HasSuffix(before, " ") || strings.HasSuffix(before, "(")
	}
	_, month := englishMonths[word]
	return !month && localMonths[word] == 0
}

// monthShown reports whether s shows month m, which dateparse read in it:
// the month s names, when it names one (a name of englishMonths or
// localMonths; several months named are not judged), and January only
// when s names it or holds it in a date's figures (dateFigures: a run "1"
// or "01", or one of six figures or more: 20240105, Unix time). dateparse
// takes what is not a month for January ("Tue 2024-03 MSK" as January 1,
// 03:00) or for another month.
func monthShown(s string, m time.Month) bool {
	named, several := namedMonth(s)
	if several {
		return true // "mar" is Tuesday in Spanish, March in English
	}
	if named != 0 || m != time.January {
		return named == 0 || named == m
	}
	for _, r := range dateFigures(s) {
		if r == "1" || r == "01" || len(r) >= 6 {
			return true
		}
	}
	return false
}

// namedMonth returns the month s names by a name of englishMonths or
// localMonths, in any case (0 when it names none), and whether it names
// several.
func namedMonth(s string) (m time.Month, several bool) {
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) }) {
		n, ok := englishMonths[w]
		if !ok {
			n = time.Month(localMonths[w])
		}
		switch {
		case n == 0 || n == m:
		case m == 0:
			m = n
		default:
			return m, true
		}
	}
	return m, false
}

// dayShown reports whether s shows day, which dateparse read in it, in a
// date's figures (dateFigures): a run of one or two figures that is the
// day, or one of five figures or more (20240305, Unix time). dateparse
// gives the first of the month where it reads no day ("March  05 2024",
// the day taken for seconds, as March 1, 2024, 00:00:05).
func dayShown(s string, day int) bool {
	for _, r := range dateFigures(s) {
		if len(r) >= 5 || len(r) <= 2 && atoi(r) == day {
			return true
		}
	}
	return false
}

// parseZoned is parseAny but for a 12-hour clock and what follows it,
// which dateparse reads wrong: the zone after "AM" or "PM" ("10:00 AM
// EST", "10:00 PM +01:00", "10:00 a.m. GMT+2") it drops, or takes an
// offset for the month, and "a.m." it refuses. The clock is parsed without
// the zone, and the zone (zoneLocation's) given to it; a name zoneLocation
// does not know is left to dateparse, and read as UTC.
func parseZoned(s string) (time.Time, error) {
	g := ampmZone.FindStringSubmatch(s)
	if g == nil {
		return parseAny(s)
	}
	loc, ok := zoneLocation(g[3])
	if !ok {
		t, err := parseAny(s) // dateparse drops the name: a zone named, read as UTC
		if t.Location() == core.NoZone {
			t = t.UTC()
		}
		return t, err
	}
	clock := dottedClock.ReplaceAllString(g[1], " $1:$2") // "9.30pm": dateparse reads .30 as a fraction of a second
	t, err := dateparse.ParseIn(clock+" "+strings.ToUpper(g[2])+"M", time.UTC)
	if err != nil {
		return parseAny(s)
	}
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), loc), nil
}

// parseAny is dateparse.ParseIn(s, time.UTC), but for a date that names
// no zone or offset, which it gives in core.NoZone. dateparse gives such a
// date in the location it is given, as it gives one that names UTC ("Z",
// "UTC", "+00:00", Unix time) in UTC: a date it reads at another instant
// in another location (probeZone) names none.
func parseAny(s string) (time.Time, error) {
	t, err := dateparse.ParseIn(s, time.UTC)
	if err != nil || t.Location() != time.UTC {
		return t, err
	}
	if u, err := dateparse.ParseIn(s, probeZone); err == nil && !u.Equal(t) {
		return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), core.NoZone), nil
	}
	return t, nil
}

// probeZone is the location parseAny reads a date in the second time: any
// offset but UTC's.
var probeZone = time.FixedZone("", 3600)

var (
	// clockShown matches a text that shows a time of day: figures either
	// side of a colon, a dot or an "h", "AM" or "PM" after a figure, the
	// character for hour, or a run of nine figures or more (Unix time,
	// 20240305102030).
	clockShown = regexp.MustCompile(`(?i)\d[:.h]\d|\d\s*[ap]\.?m|[時时]|\d{9}`)
)

// hoursAlone reports whether s ends with an offset of hours alone: one or
// two figures after an offset's sign (offsetAt: "2024-03-05 -05",
// "2024-03-05+02"), not after a date's dash ("05-Mar-24", "2024-03-05").
func hoursAlone(s string) bool {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	n := len(s) - i
	return n >= 1 && n <= 2 && offsetAt(s, i)
}

// timeShown reports whether s shows the time of day of t, which it was
// read as: t is at midnight, or s shows a clock (clockShown). dateparse
// reads the figures after a date that are no clock as one ("2024-03-05-05"
// as 00:00:05).
func timeShown(s string, t time.Time) bool {
	return t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 || clockShown.MatchString(s)
}

// longHour matches a clock whose hour has three figures or more
// ("605:12:19", a damaged wire date): no time of day.
var longHour = regexp.MustCompile(`\d{3}:\d{2}`)

// clockFirst is a time of day written before its date and a comma, with
// its "AM" or "PM" and zone ("10:15 AM EST, March 5, 2024", as AP writes
// it; "17:41 JST, October 13, 2024"): the clock and the date.
var clockFirst = regexp.MustCompile(`^(\d{1,2}:\d{2}[^,]{0,16}),\s*(.+)$`)

var (
	// ampmZone is a date and clock, "AM" or "PM" in any case, with or
	// without dots, and a zone after it or none: the date and clock, the
	// "a" or "p", the zone.
	ampmZone = regexp.MustCompile(`(?i)^(.*\d)\s*([ap])\.?m\.?(\s+[a-z]{1,5}|\s*(?:utc|gmt)?\s*[+-]\d{1,2}(?::?\d{2})?)?$`)
	// dottedClock is a clock's hour and minutes with a dot between them
	// at the end of a text ("9.30").
	dottedClock = regexp.MustCompile(`\s(\d{1,2})\.(\d{2})$`)
	// zoneOffset is an offset from UTC in hours, and minutes ("+01:00",
	// "-0500", "GMT+2", "UTC+5:30"): its sign, hours and minutes.
	zoneOffset = regexp.MustCompile(`(?i)^(?:utc|gmt)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$`)
)

// localDate reads the date notations of other languages than English, with
// the time after the date ("25.04.2024, 14:23 Uhr"), if any: the day first with
// dots (25.04.2024, 3.4.24: never month first; a year of two figures in
// centuryOf's century), the year first with 年 月 日
// or 년 월 일 (2019年4月4日), and the month by its name in German, French,
// Spanish, Italian, Portuguese, Dutch, Polish, Swedish and Russian ("3. Mai
// 2024", "3 de mayo de 2024", "3 мая 2024"), a weekday before it allowed
// (leadingWeekday: "Dienstag, 5. März 2024", "wtorek, 5 marca 2024"), in
// core.NoZone (no zone named).
func localDate(s string) (time.Time, error) {
	s = leadingWeekday.ReplaceAllString(strings.ToLower(strings.TrimSpace(s)), "")
	var hour, minute, second int
	if loc := localTime.FindStringIndex(s); loc != nil {
		if g := clockFigures.FindStringSubmatch(s[loc[0]:loc[1]]); g != nil {
			hour, minute, second = atoi(g[1]), atoi(g[2]), atoi(g[3])
		}
		if hour > 23 || minute > 59 || second > 59 {
			hour, minute, second = 0, 0, 0
		}
		s = s[:loc[0]]
	}
	s = strings.TrimSpace(s)
	var y, m, d int
	if g := dottedDate.FindStringSubmatch(s); g != nil {
		d, m, y = atoi(g[1]), atoi(g[2]), atoi(g[3])
	} else if g := cjkDate.FindStringSubmatch(s); g != nil {
		y, m, d = atoi(g[1]), atoi(g[2]), atoi(g[3])
	} else if g := namedDate.FindStringSubmatch(s); g != nil && localMonths[g[2]] > 0 {
		d, m, y = atoi(g[1]), localMonths[g[2]], atoi(g[3])
	} else {
		return time.Time{}, errNoDate
	}
	if y < 100 {
		y = centuryOf(y)
	}
	t := time.Date(y, time.Month(m), d, hour, minute, second, 0, core.NoZone)
	if m < 1 || m > 12 || d < 1 || t.Day() != d {
		return time.Time{}, errNoDate
	}
	return t, nil
}

// centuryOf gives the year of two figures yy its century as time.Parse
// does for its layouts' "06" (and so dateparse, RFC 822's and RFC 850's
// forms): 69 to 99 are 1969 to 1999, 00 to 68 are 2000 to 2068, so that
// "05.03.99" is the year "05 Mar 99" is.
func centuryOf(yy int) int {
	if yy >= 69 {
		return 1900 + yy
	}
	return 2000 + yy
}

// dayFirstDate reads an English date written day first, with an ordinal
// or without ("27th April 2020", "1st of March, 2019", "5 March 2024"), a
// weekday before it and a clock after it allowed ("Monday 27th of April
// 2020 02:37:18 AM CDT", "5 March 2024, 10:00 CET"), which dateparse does
// not read. The clock is read with its zone (zoneLocation's; a name it
// does not know as UTC); a day or a clock without one is in core.NoZone,
// as localDate's.
func dayFirstDate(s string) (time.Time, error) {
	s = strings.ToLower(leadingWeekday.ReplaceAllString(strings.TrimSpace(s), ""))
	clock := clockTime.FindStringSubmatch(s)
	if clock != nil {
		s = strings.TrimSpace(strings.TrimSuffix(s, clock[0]))
	}
	g := dayFirst.FindStringSubmatch(s)
	if g == nil {
		return time.Time{}, errNoDate
	}
	m, ok := englishMonths[g[2]]
	if !ok {
		return time.Time{}, errNoDate
	}
	t := time.Date(atoi(g[3]), m, atoi(g[1]), 0, 0, 0, 0, core.NoZone)
	if t.Day() != atoi(g[1]) {
		return time.Time{}, errNoDate
	}
	return withClock(t, clock), nil
}

// withClock gives the day t the time of day clock holds (clockTime's
// groups: hour, minute, second, "a" or "p", zone), or t itself when there
// is none or it is no time of day (25:00, 13:00 PM).
func withClock(t time.Time, clock []string) time.Time {
	if clock == nil {
		return t
	}
	h, m, sec := atoi(clock[1]), atoi(clock[2]), atoi(clock[3])
	switch {
	case clock[4] != "" && (h < 1 || h > 12):
		return t
	case clock[4] == "a" && h == 12:
		h = 0
	case clock[4] == "p" && h < 12:
		h += 12
	}
	loc, ok := zoneLocation(clock[5])
	if !ok {
		loc = time.UTC // other names, as WithZoneOffset reads them
	}
	if h > 23 || m > 59 || sec > 59 {
		return t
	}
	return time.Date(t.Year(), t.Month(), t.Day(), h, m, sec, 0, loc)
}

var (
	// dayFirst is a day, with its ordinal suffix or without, a month's
	// name and a year, in lower case.
	dayFirst = regexp.MustCompile(`^(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(\p{L}+)\.?,?\s+(\d{4})$`)
	// clockTime is a time of day after a date, in lower case: its hour,
	// minute, second, the "a" or "p" of "am" or "pm", and a zone's name or
	// offset.
	clockTime = regexp.MustCompile(`(?:,|\s)\s*(?:at\s+)?(\d{1,2})[:.](\d{2})(?::(\d{2}))?(?:\s*([ap])\.?m\.?)?(\s+[a-z]{2,5}|\s*(?:utc|gmt)?\s*[+-]\d{1,2}(?::?\d{2})?)?$`)
)

// englishMonths maps the English months' names and their three-letter
// shortenings, in lower case, to their months.
var englishMonths = func() map[string]time.Month {
	m := map[string]time.Month{"sept": time.September}
	for i := time.January; i <= time.December; i++ {
		name := strings.ToLower(i.String())
		m[name], m[name[:3]] = i, i
	}
	return m
}()

// errNoDate is localDate's error for what is no date.
var errNoDate = errors.New("no date")

var (
	// localTime is a time of day after a date, and the word before it
	// ("um", "à", "às", "a las", "alle", "ore", "om", "kl", "klockan",
	// "o godz.", "в"); or written with the characters for hour and minute
	// (09時00分). localDateWords holds these words too.
	localTime = regexp.MustCompile(`(?:(?:,|\s)\s*(?:(?:um|à|às|a\s+las|alle|ore|om|kl\.?|klockan|o\s+godz\.?|godz\.?|в)\s+)?\d{1,2}[:.h]\d{2}(?:\s*(?:uhr|h))?|\s*\d{1,2}\s*[時时]\s*\d{1,2}\s*分(?:\s*\d{1,2}\s*秒)?)$`)
	// dottedDate is a date written day first with dots.
	// clockFigures are the hour, minutes and seconds (or none) of a
	// clock localTime matched.
	clockFigures = regexp.MustCompile(`(\d{1,2})\D+(\d{1,2})(?:\D+(\d{1,2}))?`)
	dottedDate   = regexp.MustCompile(`^(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4}|\d{2})$`)
	// cjkDate is a date written year first with the characters for year,
	// month and day.
	cjkDate = regexp.MustCompile(`^(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]?$`)
	// namedDate is a day, a month's name and a year ("3. mai 2024", "3 de
	// mayo de 2024"), and the word for year after it, if any ("3 мая 2024
	// г.", "3 maja 2024 r.").
	namedDate = regexp.MustCompile(`^(\d{1,2})\.?\s+(?:de\s+)?(\p{L}+)\.?\s+(?:de\s+|del\s+)?(\d{4})(?:\s*(?:г\.?|года|r\.?|roku))?$`)
)

// localMonths maps the months' names (and the usual shortenings) of the
// languages localDate reads, in lower case, to their numbers.
var localMonths = func() map[string]int {
	names := [12]string{
		"januar jänner janvier enero gennaio janeiro januari stycznia styczeń januari января январь jan janv ene gen",
		"februar février febrero febbraio fevereiro februari lutego luty februari февраля февраль feb févr fév",
		"märz mars marzo março maart marca marzec mars марта март mär mrz",
		"april avril abril aprile april kwietnia kwiecień april апреля апрель apr avr abr",
		"mai mai mayo maggio maio mei maja maj maj мая май mag",
		"juni juin junio giugno junho juni czerwca czerwiec juni июня июнь jun giu",
		"juli juillet julio luglio julho juli lipca lipiec juli июля июль jul juil lug",
		"august août agosto agosto augustus sierpnia sierpień augusti августа август aug ago",
		"september septembre septiembre settembre setembro september września wrzesień september сентября сентябрь sep sept set",
		"oktober octobre octubre ottobre outubro oktober października październik oktober октября октябрь okt oct ott out",
		"november novembre noviembre novembre novembro november listopada listopad november ноября ноябрь nov",
		"dezember décembre diciembre dicembre dezembro december grudnia grudzień december декабря декабрь dez déc dic",
	}
	m := map[string]int{}
	for i, ns := range names {
		for _, n := range strings.Fields(ns) {
			m[n] = i + 1
		}
	}
	return m
}()

// atoi returns the value of the digits s holds (the patterns that give it
// match digits only).
func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// leadingWeekday matches a weekday's name before a date: an English one,
// whole or short, or one of localWeekdays, whole.
var leadingWeekday = regexp.MustCompile(`(?i)^(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?|` + strings.Join(strings.Fields(localWeekdays), "|") + `),?\s+`)

// localWeekdays are the weekdays' names, in lower case, of the languages
// whose months localDate reads: German, French, Spanish, Italian,
// Portuguese, Dutch, Polish, Swedish and Russian ("Dienstag, 5. März 2024",
// "mardi 5 mars 2024", "вторник, 5 марта 2024").
const localWeekdays = `montag dienstag mittwoch donnerstag freitag samstag sonnabend sonntag
	lundi mardi mercredi jeudi vendredi samedi dimanche
	lunes martes miércoles miercoles jueves viernes sábado sabado domingo
	lunedì lunedi martedì martedi mercoledì mercoledi giovedì giovedi venerdì venerdi sabato domenica
	segunda-feira terça-feira terca-feira quarta-feira quinta-feira sexta-feira segunda terça terca quarta quinta sexta
	maandag dinsdag woensdag donderdag vrijdag zaterdag zondag
	poniedziałek wtorek środa czwartek piątek sobota niedziela
	måndag tisdag onsdag torsdag fredag lördag söndag
	понедельник вторник среда четверг пятница суббота воскресенье`
