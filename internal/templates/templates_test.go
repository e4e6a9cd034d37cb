package templates

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
)

func TestNames(t *testing.T) {
	var s Scanner
	mask := func(name string) Name {
		s.buf = s.an.AppendNormalized(s.buf[:0], name)
		return Name{Mask: nameMask(s.buf)}
	}
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"Manville", "Manvville", true},
		{"JJPC", "JPC", true},
		{"MICHIGAN", "Michigan", true},
		{"Michigan", "Minnesota", false},
		{"PEBW", "STBK", false},
		{"E", "E", true},
		{"E", "T", false},
	} {
		if got := sameName(mask(tc.a), mask(tc.b)); got != tc.same {
			t.Errorf("sameName(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}

func TestTitleFigures(t *testing.T) {
	for _, tc := range []struct {
		a, b     string
		disjoint bool
	}{
		{"MIDWEST GRAIN FUTURES 11:10 EDT", "MIDWEST GRAIN FUTURES 11:31 EDT", true},
		{"MIDWEST GRAIN FUTURES 12:00 EDT", "MIDWEST GRAIN FUTURES 12:10 EDT", true}, // a digit replaced is another hour
		{"US insurer Marsh cuts 2,500 jobs", "US insurer Marsh cuts 2,50 jobs", false},
		{"US budget deficit to reach $368bn", "US budget deficit to reach $36Bbn", false},
		{"GM TO IDLE SIX PLANTS, 21,600 WORKERS", "CORRECTED - GM TO IDLE SIX PLANTS", false},
		{"TREASURY BALANCES AT FED FELL ON MARCH 27", "TREASURY BALANCES AT FED ROSE ON MARCH 31", true},
	} {
		if got := titleFiguresDisjoint(titleFigures(tc.a), titleFigures(tc.b)); got != tc.disjoint {
			t.Errorf("titleFiguresDisjoint(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.disjoint)
		}
	}
}

func TestIsRerun(t *testing.T) {
	for title, want := range map[string]bool{
		"RPT-INSITUFORM OF NORTH AMERICA INC <INSUA> NET":      true,
		"(RPT) U.S. SAYS TIN DISPOSALS WILL NOT AFFECT ACCORD": true,
		"CORRECTED - GM <GM> TO IDLE SIX PLANTS":               true,
		"UPDATE 2-South Korea To Pay More For Ethylene":        true,
		"Harbour bridge approved (updated)":                    true,
		"UPDATES TO FARM BILL SEEN":                            false,
		"REPORTERS SEE DELAY":                                  false,
	} {
		if got := isRerun(title); got != want {
			t.Errorf("isRerun(%q) = %v, want %v", title, got, want)
		}
	}
}

func TestDatelineDays(t *testing.T) {
	d := func(m time.Month, day int) uint16 { return uint16(m)<<5 | uint16(day) }
	for _, tc := range []struct {
		a, b uint16
		want int
	}{
		{d(time.March, 3), d(time.March, 19), 16},
		{d(time.December, 31), d(time.January, 2), 2},
		{d(time.June, 1), d(time.June, 1), 0},
	} {
		if got := datelineDays(tc.a, tc.b); got != tc.want {
			t.Errorf("datelineDays(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestSameHour(t *testing.T) {
	at := func(s string) int64 {
		d, err := time.Parse("2006-01-02 15:04:05", s)
		if err != nil {
			t.Fatal(err)
		}
		return d.Unix()
	}
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"1987-03-16 11:45:51", "1987-03-17 11:45:10", true},  // the next day's item at its hour
		{"1987-03-23 05:08:00", "1987-03-25 05:23:00", true},  // two days later, a quarter of an hour late
		{"1987-03-16 11:45:00", "1987-03-17 12:30:00", false}, // the next day at another hour
		{"1987-03-16 11:45:00", "1987-03-16 11:50:00", false}, // the same day
		{"1987-03-16 23:50:00", "1987-03-17 00:05:00", false},
	} {
		if got := sameHour(at(tc.a), at(tc.b)); got != tc.want {
			t.Errorf("sameHour(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestOtherPlaces(t *testing.T) {
	s := Scanner{Shingle: 6}
	context := func(text string) (*Context, Sample) {
		doc := core.Document{Title: "HOGS OPEN HIGHER", Text: text}
		var c Context
		words := s.an.Words(doc.Text)
		s.Scan(&doc, words, &c)
		c.Own()
		var sample Sample
		for _, h := range s.an.CharShingles(text, words, s.Shingle, nil) {
			sample.Set = append(sample.Set, uint32(h))
		}
		slices.Sort(sample.Set)
		sample.Cut = math.MaxUint32 // every shingle kept
		return &c, sample
	}
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"Omaha, April 7 - Hog prices were up.", "St Joseph, April 7 - Hog prices were up.", true},
		{"OMAHA, April 7 - Hog prices were up.", "Omaha, April 7 - Hog prices were up.", false},
		{"MAIMI, March 20 - Qtly div 22 cts.", "MIAMI, Fla., March 20 - Qtly div 22 cts.", false}, // misspelt
		{"Omaha, April 7 - Hog prices were up.", "Hog prices were up in St Joseph.", false},       // one dateline
	} {
		a, sa := context(tc.a)
		b, sb := context(tc.b)
		if got := Compare(a, b, sa, sb).OtherPlace; got != tc.want {
			t.Errorf("OtherPlace(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
