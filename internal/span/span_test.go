package span

import (
	"cmp"
	"math"
	"strings"
	"testing"
	"time"
)

// TestParse pins the forms a span takes: Go's durations, and the days,
// weeks and months --older-than took where --interval refused "2d".
func TestParse(t *testing.T) {
	day := 24 * time.Hour
	for _, tc := range []struct {
		in     string
		want   time.Duration
		err    string // of both
		ageErr string // of ParseAge alone, where Parse reads the value
	}{
		{in: "15m", want: 15 * time.Minute, ageErr: "m could be minutes or months: write min for minutes, mo for months"},
		// After hours an m can only be minutes, as Go writes a duration:
		// an age of 1h30m was refused as minutes or months.
		{in: "1h30m0s", want: 90 * time.Minute},
		{in: "2h45m", want: 165 * time.Minute},
		{in: "1d30m", want: day + 30*time.Minute, ageErr: "m could be minutes or months"},
		{in: "1h30m2m", want: 92 * time.Minute, ageErr: "m could be minutes or months"},
		{in: "2d", want: 2 * day},
		{in: "1w", want: 7 * day},
		{in: "1d12h", want: 36 * time.Hour},
		{in: "90min", want: 90 * time.Minute},
		{in: "6mo", want: 180 * day},
		{in: "1.5h", want: 90 * time.Minute},
		{in: ".5d", want: 12 * time.Hour},
		{in: "500ms", want: 500 * time.Millisecond},
		{in: "-1h", want: -time.Hour},
		{in: "+2d", want: 2 * day},
		{in: "0", want: 0},
		{in: "0s", want: 0},
		{in: "106751d", want: 106751 * day},
		{in: "3y", err: `unknown unit "y": use s, min, h, d, w or mo`},
		{in: "soon", err: "want a duration such as 30d, 12h, 2w, 90min or 6mo"},
		{in: "", err: "want a duration such as"},
		{in: "-", err: "want a duration such as"},
		{in: ".d", err: "want a duration such as"},
		{in: "12", err: "a number without its unit"},
		{in: "1h30", err: "a number without its unit"},
		{in: "999999999999999999d", err: "too long: at most 106751d"},
		{in: "100000d100000d100000d", err: "too long: at most 106751d"},
		{in: "99999999999999999999999ns", err: "too long"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			for _, p := range []struct {
				name  string
				parse func(string) (time.Duration, error)
				err   string
			}{{"Parse", Parse, tc.err}, {"ParseAge", ParseAge, cmp.Or(tc.ageErr, tc.err)}} {
				got, err := p.parse(tc.in)
				if p.err != "" {
					if err == nil || !strings.Contains(err.Error(), p.err) {
						t.Errorf("%s: %v, %v; want an error with %q", p.name, got, err, p.err)
					}
					continue
				}
				if err != nil || got != tc.want {
					t.Errorf("%s: %v, %v; want %v", p.name, got, err, tc.want)
				}
			}
		})
	}
}

// Parse reads every duration time.ParseDuration reads, to the nanosecond.
func FuzzParseGoDurations(f *testing.F) {
	for _, s := range []string{"15m", "1h30m0s", "1.5h", "-1.25s", "300ms", "2h45m", "1µs", "3us", "9223372036854775807ns",
		"-9223372036854775808ns", "0.000000001s", "2562047h47m16.854775807s", "1.0000000000000000000000001s", ".5m", "0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := time.ParseDuration(s)
		if err != nil {
			return
		}
		if got, err := Parse(s); err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; time.ParseDuration %v", s, got, err, want)
		}
	})
}

// ParseAge reads what the Go durations it takes hold, refusing "m".
func TestParseAgeLimits(t *testing.T) {
	if d, err := ParseAge("9223372036854775807ns"); err != nil || d != math.MaxInt64 {
		t.Errorf("the longest: %v, %v", d, err)
	}
	if _, err := ParseAge("9223372036854775808ns"); err == nil {
		t.Error("one past the longest: no error")
	}
}

// TestParseDateSpan: an age or a news window is a second or more, the
// precision of a document's date.
func TestParseDateSpan(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		err  string
	}{
		{"3d", 3 * 24 * time.Hour, ""},
		{"1s", time.Second, ""},
		{"1ms", 0, "want 1s or more: a document's date is kept to the second"},
		{"0.5s", 0, "want 1s or more"},
		{"0d", 0, "want a positive duration"},
		{"-1h", 0, "want a positive duration"},
		{"2m", 0, "m could be minutes or months"},
	} {
		got, err := ParseDateSpan(tc.in)
		if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) || tc.err == "" && (err != nil || got != tc.want) {
			t.Errorf("%s: %v, %v; want %v or an error with %q", tc.in, got, err, tc.want, tc.err)
		}
	}
}
