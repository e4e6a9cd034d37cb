// Package span reads spans of time as neardup's flags and files take them:
// Go's durations ("15m", "1h30m0s", "500ms") and the calendar units news is
// counted in, d (days), w (weeks) and mo (months of 30 days), with min for
// minutes. A feed's interval (feeds add and set --interval, a feeds file's
// interval, the web UI's), an age (index expire --older-than) and a news
// window (--window, neardup-beam's too) are read here, so that each takes
// what the others do.
package span

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// units are the units Parse reads; a bare "m" is read apart (see Parse
// and ParseAge).
var units = map[string]time.Duration{
	"ns": time.Nanosecond, "us": time.Microsecond, "µs": time.Microsecond, "μs": time.Microsecond,
	"ms": time.Millisecond, "s": time.Second, "min": time.Minute, "h": time.Hour,
	"d": 24 * time.Hour, "w": 7 * 24 * time.Hour, "mo": 30 * 24 * time.Hour,
}

// Parse reads s as a span of time: an optional sign, then numbers (with a
// decimal fraction or not), each with its unit, ns, us, ms, s, m or min
// (minutes), h, d, w or mo: "15m", "1h30m0s", "2d", "1w", "1d12h", "6mo".
// "0" alone is 0. A bare "m" is minutes, as in Go's durations, which Parse
// reads as time.ParseDuration does. The error says what is wrong with s
// without quoting it: the caller names the flag or key and the value.
func Parse(s string) (time.Duration, error) { return parse(s, time.Minute) }

// ParseAge is Parse for spans counted in days and months (an age, a news
// window), where a bare "m" could be minutes or months: it is refused, the
// error naming min and mo ("2m" was read as two minutes without a word,
// where two months were likely meant), but after hours, where it can only
// be minutes ("1h30m", "2h45m0s", as Go writes a duration).
func ParseAge(s string) (time.Duration, error) { return parse(s, 0) }

// ParseDateSpan reads s as ParseAge does, as a span measured against
// documents' dates (an age, a news window): positive and of a second or
// more, since a date is kept to the second. The error says what is wrong
// without quoting s.
func ParseDateSpan(s string) (time.Duration, error) {
	d, err := ParseAge(s)
	switch {
	case err != nil:
		return 0, err
	case d <= 0:
		return 0, errors.New("want a positive duration")
	case d < time.Second:
		return 0, errors.New("want 1s or more: a document's date is kept to the second")
	}
	return d, nil
}

var (
	// errForm is the error of a value that is no span of time at all.
	errForm = errors.New("want a duration such as 30d, 12h, 2w, 90min or 6mo")
	// errTooLong is the error of a span past time.Duration's range.
	errTooLong = fmt.Errorf("too long: at most %dd (about 292 years)", math.MaxInt64/int64(24*time.Hour))
)

// parse is Parse, a bare "m" being m (0: refused) unless it follows hours,
// where it is minutes. It sums in integer
// nanoseconds, as time.ParseDuration does, so that it reads Go's durations
// to the nanosecond.
func parse(s string, m time.Duration) (time.Duration, error) {
	rest, neg := s, false
	if rest != "" && (rest[0] == '-' || rest[0] == '+') {
		neg, rest = rest[0] == '-', rest[1:]
	}
	if rest == "0" {
		return 0, nil
	}
	if rest == "" {
		return 0, errForm
	}
	limit := uint64(math.MaxInt64)
	if neg {
		limit++ // -9223372036854775808ns is a duration
	}
	var total uint64
	var unit time.Duration // the last number's
	for rest != "" {
		bare := m
		if unit == time.Hour {
			bare = time.Minute
		}
		ns, u, tail, err := component(rest, bare, limit)
		unit = u
		if err != nil {
			return 0, err
		}
		if ns > limit-total {
			return 0, errTooLong
		}
		total += ns
		rest = tail
	}
	if neg {
		return time.Duration(-total), nil
	}
	return time.Duration(total), nil
}

// component reads the number and unit s starts with, and returns them in
// nanoseconds (at most limit), the unit and the rest of s.
func component(s string, m time.Duration, limit uint64) (ns uint64, unit time.Duration, rest string, err error) {
	i := 0 // the number: digits, a fraction or not
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	v, err := digits(s[:i], limit)
	if err != nil {
		return 0, 0, "", err
	}
	frac, scale := uint64(0), 1.0
	point := i < len(s) && s[i] == '.'
	if point {
		for i++; i < len(s) && isDigit(s[i]); i++ {
			if frac < math.MaxInt64/10 { // digits past what a duration holds are dropped
				frac, scale = frac*10+uint64(s[i]-'0'), scale*10
			}
		}
	}
	if i == 0 || point && i == 1 {
		return 0, 0, "", errForm
	}
	j := i // the unit: up to the next number
	for j < len(s) && !isDigit(s[j]) && s[j] != '.' {
		j++
	}
	unit, ok := units[s[i:j]]
	switch {
	case j == i:
		return 0, 0, "", errors.New("a number without its unit: use s, min, h, d, w or mo")
	case s[i:j] == "m" && m == 0:
		return 0, 0, "", errors.New("m could be minutes or months: write min for minutes, mo for months")
	case s[i:j] == "m":
		unit = m
	case !ok:
		return 0, 0, "", fmt.Errorf("unknown unit %q: use s, min, h, d, w or mo", s[i:j])
	}
	if v > limit/uint64(unit) {
		return 0, 0, "", errTooLong
	}
	ns = v * uint64(unit)
	if frac > 0 {
		f := uint64(float64(frac) * (float64(unit) / scale))
		if f > limit-ns {
			return 0, 0, "", errTooLong
		}
		ns += f
	}
	return ns, unit, s[j:], nil
}

// digits reads a run of decimal digits ("" is 0), refusing a value past
// limit.
func digits(s string, limit uint64) (uint64, error) {
	var v uint64
	for _, c := range []byte(s) {
		if v > (limit-uint64(c-'0'))/10 {
			return 0, errTooLong
		}
		v = v*10 + uint64(c-'0')
	}
	return v, nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
