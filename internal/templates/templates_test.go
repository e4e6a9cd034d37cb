package templates

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/enginetest"
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

// placeContext scans text (under a title that names no place) with s,
// and returns its context and the sample of all its shingles.
func placeContext(s *Scanner, text string) (*Context, Sample) {
	var an analysis.Analyzer // its own: Scan reuses the scanner's word buffer for the title
	doc := core.Document{Title: "HOGS OPEN HIGHER", Text: text}
	var c Context
	words := an.Words(doc.Text)
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

func TestOtherPlaces(t *testing.T) {
	s := Scanner{Shingle: 6, Fills: true}
	context := func(text string) (*Context, Sample) { return placeContext(&s, text) }
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"Omaha, April 7 - Hog prices were up.", "St Joseph, April 7 - Hog prices were up.", true},
		{"OMAHA, April 7 - Hog prices were up.", "Omaha, April 7 - Hog prices were up.", false},
		{"MAIMI, March 20 - Qtly div 22 cts.", "MIAMI, Fla., March 20 - Qtly div 22 cts.", false},                                 // misspelt
		{"Omaha, April 7 - Hog prices were up.", "Hog prices were up in St Joseph.", false},                                       // one dateline
		{"Joliet, April 7 - Hog prices opened 1.00 dlr higher.", "St Joseph, April 7 - Hog prices opened 1.00 dlr higher.", true}, // "jo" shared
		{"MINNEAPOLIS, April 1 - The bank is raising its prime rate.", "CHICAGO, April 1 - The bank is raising its prime rate.", true},
		{"NEW YORK, April 1 - The bank is raising its prime rate.", "NEW YROK, April 1 - The bank is raising its prime rate.", false},
		{"HOUSTON, April 1 - The bank is raising its prime rate.", "HUSTON, April 1 - The bank is raising its prime rate.", false},
		{"BOSTON, April 1 - The bank is raising its prime rate.", "DALLAS, April 1 - The bank is raising its prime rate.", true},
	} {
		a, sa := context(tc.a)
		b, sb := context(tc.b)
		if got := Compare(a, b, sa, sb).OtherPlace; got != tc.want {
			t.Errorf("OtherPlace(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// Regression: two towns' notices under datelines of short names whose
// letter pairs share a bit of the 62 they are hashed to (one pair of
// five-letter names in four) passed for one place, and were duplicates.
// From the formats of Scanner.Columns a place's letters tell them apart,
// and a misspelling (a swap, a dropped or misread letter) is still one
// place.
func TestOtherPlacesShortNames(t *testing.T) {
	s := Scanner{Shingle: 6, Fills: true, Languages: true, Columns: true}
	const notice = " (Reuters) - The city council approved a new bridge over the river on Monday."
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"Bursa", "Sivas", true}, {"Konya", "Tokat", true}, {"Konya", "Izmir", true}, {"Bursa", "Adana", true},
		{"Izmir", "Ordu", true}, {"Izmir", "Rize", true}, {"Omaha", "Salem", true},
		{"MAIMI", "MIAMI", false}, {"NEW YROK", "NEW YORK", false}, {"HUSTON", "HOUSTON", false},
		{"LODNON", "LONDON", false}, {"BOSTAN", "BOSTON", false}, {"Bursa", "Bursa", false},
		{"Zürich", "Zuerich", false}, {"KÖLN", "KOELN", false}, {"München", "Muenchen", false},
	} {
		a, sa := placeContext(&s, tc.a+notice)
		b, sb := placeContext(&s, tc.b+notice)
		if got := Compare(a, b, sa, sb).OtherPlace; got != tc.want {
			t.Errorf("OtherPlace(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestScannerDateline checks that a Scanner tells the dateline of the text
// it scanned last, as analysis.ParseDateline reads it, and none after a
// text without one.
func TestScannerDateline(t *testing.T) {
	var s Scanner
	var an analysis.Analyzer
	for _, text := range []string{
		"NEW YORK, March 3 - Alpha Corp said it raised its dividend.",
		"Alpha Corp said it raised its dividend.",
		"WASHINGTON (Reuters) - The budget deficit narrowed.",
	} {
		var c Context
		s.Scan(&core.Document{Text: text}, an.Words(text), &c)
		want, wantOK := analysis.ParseDateline(text)
		if got, ok := s.Dateline(); got != want || ok != wantOK {
			t.Errorf("Dateline() after %q = %+v, %v; want %+v, %v", text, got, ok, want, wantOK)
		}
	}
}

// TestAppendNameWords checks the words of places and tags against
// strings.FieldsFunc with the same separators.
func TestAppendNameWords(t *testing.T) {
	sep := func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' }
	for _, phrase := range []string{
		"", " ", "GM", "Qantas Airways Ltd", "N.Y.", "SAN MATEO, Calif.", "  FRANKLIN AGE-HIGH INCOME FUND ",
		"Société Générale", "МОСКВА", "a\xffb", "\xff", "3M Co/", "x", "..", "A & B",
	} {
		if got, want := appendNameWords(nil, phrase), strings.FieldsFunc(phrase, sep); !slices.Equal(got, want) {
			t.Errorf("appendNameWords(%q) = %q, strings.FieldsFunc %q", phrase, got, want)
		}
	}
}

// TestBigramMaskTable checks the masks read from the table of ASCII pairs
// against the pairs hashed one by one, for both widths and another.
func TestBigramMaskTable(t *testing.T) {
	slow := func(b []byte, n uint64) uint64 {
		var mask, single uint64
		prev := rune(-1)
		for _, r := range string(b) {
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				continue
			}
			if prev >= 0 {
				mask |= 1 << (pairHash(prev, r) % n)
			} else {
				single = 1 << (pairHash(-1, r) % n)
			}
			prev = r
		}
		if mask == 0 {
			return single
		}
		return mask
	}
	for _, w := range []string{"", "a", "Z", "9", "manville", "MANVVILLE", "u.n.", "3M Co", "Société Générale", "МОСКВА", "aé", "éa", "x-y_z", "AbCdEf0123456789"} {
		for _, n := range []uint64{fillMaskBits, kindShift, 20} {
			if got, want := bigramMask([]byte(w), n), slow([]byte(w), n); got != want {
				t.Errorf("bigramMask(%q, %d) = %#x, want %#x", w, n, got, want)
			}
		}
	}
}

// TestCaseFastPaths checks the ASCII readings of a word's capital and a
// line's lower case against unicode's.
func TestCaseFastPaths(t *testing.T) {
	for _, w := range []string{"", "A", "a", "Z", "1", "Émile", "élan", "Москва", "москва", "\xff", "[x"} {
		r, _ := utf8.DecodeRuneInString(w)
		if got, want := isCapital(w), unicode.IsUpper(r); got != want {
			t.Errorf("isCapital(%q) = %v, want %v", w, got, want)
		}
	}
	for _, text := range []string{"", "ABC DEF", "ABC def", "ABC DÉF", "ABC DÉf", "ABC Déf", "МОСКВА", "МОСКВа", "12:30\nlower", "\xffX"} {
		lower := strings.IndexFunc(strings.SplitN(text, "\n", 2)[0], unicode.IsLower) >= 0
		if got, _ := lineOf(text, 0); got != lower {
			t.Errorf("lineOf(%q) = %v, want %v", text, got, lower)
		}
	}
}

// An item of another day at its hour whose figure is a piece of the
// other's ("six" and "6-1/8") holds another figure; a copy sent again the
// next morning under the same dateline, its figure split by damage, does
// not.
func TestSameHourPieces(t *testing.T) {
	s := Scanner{Shingle: 6}
	context := func(title, text, date string) *Context {
		d, err := time.Parse("2006-01-02 15:04", date)
		if err != nil {
			t.Fatal(err)
		}
		doc := core.Document{Title: title, Text: text, Date: d}
		var c Context
		var an analysis.Analyzer // its own: Scan reuses the scanner's word buffer for the title
		s.Scan(&doc, an.Words(doc.Text), &c)
		c.Own()
		return &c
	}
	const frame = " - The central bank added funds to the market through two-day repurchases, a spokesman said. Call money traded at %s pct when it began."
	for _, tc := range []struct {
		a, b, fa, fb string
		refilled     bool
	}{
		{"KESTRELTON, May 4", "KESTRELTON, May 5", "six", "6-1/8", true},
		{"KESTRELTON, May 4", "KESTRELTON, May 5", "6-1/4", "6-1/16", true},
		{"KESTRELTON, May 4", "KESTRELTON, May 4", "6-1/4", "6-1/16", false}, // one day: a piece may be damage
		{"KESTRELTON, May 4", "KESTRELTON, May 5", "6-1/8", "6-1/8", false},
	} {
		a := context("BANK ADDS FUNDS", tc.a+fmt.Sprintf(frame, tc.fa), "1991-05-04 11:45")
		b := context("BANK ADDS FUNDS VIA REPURCHASES", tc.b+fmt.Sprintf(frame, tc.fb), "1991-05-05 11:46")
		ev := Compare(a, b, Sample{}, Sample{})
		if got := ev.Refilled(); got != tc.refilled {
			t.Errorf("%s %s / %s %s: Refilled() = %v (evidence %+v), want %v", tc.a, tc.fa, tc.b, tc.fb, got, ev, tc.refilled)
		}
	}
}

// TestCapitalisedOfTitleWords compares capitalised, which reads only the
// words a title could name, with the plain rule applied to every word
// (each word written with a capital inside a sentence) on random texts:
// a word of the title that can be a name is found by both or by neither.
func TestCapitalisedOfTitleWords(t *testing.T) {
	plain := func(text string, words []analysis.Token) []uint64 {
		var dst []uint64
		for i, w := range words[:min(len(words), maxCapsTokens)] {
			r, _ := utf8.DecodeRuneInString(text[w.Start:])
			if i > 0 && unicode.IsUpper(r) && !startsSentence(text[words[i-1].End:w.Start]) {
				dst = append(dst, w.Hash)
			}
		}
		return dst
	}
	vocab := []string{"Meridian", "meridian", "MERIDIAN", "Holdings", "said", "the", "Zürich", "Élan", "élan", "stake", "Alloys", "alloys", "of", "Kraków"}
	gaps := []string{" ", " ", " ", ", ", ". ", " - ", "\n\n", ": ", " — ", "? "}
	rng := rand.New(rand.NewPCG(3, 3))
	for range 3000 {
		var text, title strings.Builder
		for range rng.IntN(600) {
			text.WriteString(vocab[rng.IntN(len(vocab))])
			text.WriteString(gaps[rng.IntN(len(gaps))])
		}
		for range rng.IntN(6) {
			title.WriteString(strings.ToUpper(vocab[rng.IntN(len(vocab))]) + " ")
		}
		var an, tan analysis.Analyzer
		words := an.Words(text.String())
		s := Scanner{Shingle: 5}
		tw := tan.Words(title.String())
		want := plain(text.String(), words)
		names, _ := s.nameWords(title.String(), tw)
		got := capitalised(text.String(), words, names, 0, nil)
		for _, w := range tw {
			if letterCount(title.String()[w.Start:w.End]) < s.Shingle {
				continue
			}
			if slices.Contains(got, w.Hash) != slices.Contains(want, w.Hash) {
				t.Fatalf("title %q, text %q: word %q capitalised %v, plainly %v", title.String(), text.String(),
					title.String()[w.Start:w.End], slices.Contains(got, w.Hash), slices.Contains(want, w.Hash))
			}
		}
	}
}

// TestLetterCountRunes compares letterCount, which reads ASCII bytes by a
// table, with a count of unicode's letters and digits on random words.
func TestLetterCountRunes(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	pieces := []string{"a", "Z", "0", "9", ".", "-", " ", "'", "é", "Ж", "٣", "—", "\xff", "\xc3", "_"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(10) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		want := 0
		for _, r := range b.String() {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				want++
			}
		}
		if got := letterCount(b.String()); got != want {
			t.Fatalf("letterCount(%q) = %d, want %d", b.String(), got, want)
		}
	}
}

// TestIsRerunAnyCase compares isRerun, which compares an ASCII title's
// marks without case, with the rule on the title upper-cased, on random
// titles.
func TestIsRerunAnyCase(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	pieces := []string{"rpt", "RPT", "Repeat", "corrected", "CORRECTION", "Refile", "wrapup", "update", "UPDATED", "Update",
		"-", " ", "(", ")", "1", "2-", "a", "Z", "é", "ı", "ſ", "GOLD", ":"}
	for range 50000 {
		var b strings.Builder
		for range rng.IntN(5) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		title := b.String()
		if got, want := isRerun(title), isRerunUpper(strings.ToUpper(strings.TrimLeft(title, " ("))); got != want {
			t.Fatalf("isRerun(%q) = %v, want %v", title, got, want)
		}
	}
}

// TestTitleReadWithoutCharacterShingles: the scanner of a method without
// character shingles (Shingle 0: --shingle-unit words) reads a title as
// one with them does, its rerun mark, its figures, its hash and the words
// that fill its slots, and leaves out only its names, which are looked up
// among character shingles. It read nothing of the title: an update
// marked "UPDATE 1-" lost the exemption of a re-run, and two results of
// one template the other teams their titles name.
func TestTitleReadWithoutCharacterShingles(t *testing.T) {
	for _, tc := range []struct {
		name, title, text string
		rerun             bool
	}{
		{"a rerun mark and the title's figure", "UPDATE 1-NZ central bank holds rate at 5.50 pct",
			"WELLINGTON, March 3 (Reuters) - New Zealand's central bank held its official cash rate steady at 5.50 percent " +
				"on Wednesday, as expected, but signalled that borrowing costs would stay high for longer.", true},
		{"the words that fill the title's slots", "Arsenal beat Chelsea 2-1",
			"Arsenal won 2-1 against Chelsea at home on Saturday afternoon in front of a crowd of 41,000, " +
				"the winning goal a volley from Martinelli ten minutes from the end.", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			chars := scanWith(Scanner{Shingle: 6, Fills: true}, tc.title, tc.text)
			words := scanWith(Scanner{Fills: true, TitleWords: true}, tc.title, tc.text)
			if words.Rerun != tc.rerun || words.Title == 0 || len(words.TitleNums) == 0 || words.Names != nil {
				t.Errorf("without character shingles: rerun %v, title %x, title's figures %v, names %v; want rerun %v, "+
					"a title, its figures and no names", words.Rerun, words.Title, words.TitleNums, words.Names, tc.rerun)
			}
			chars.Names = nil
			if !reflect.DeepEqual(words, chars) {
				t.Errorf("without character shingles the context is\n%+v\nwith them (names left out)\n%+v", words, chars)
			}
		})
	}
}

// forecast is a weather forecast of a town under a dateline-free title:
// a template whose one slot is the town, named once in the text.
func forecast(town string) (title, text string) {
	return town + " weather forecast", "The forecast for " + town + " on Friday: a cloudy start with outbreaks of rain " +
		"spreading from the west during the morning, becoming heavy at times in the afternoon. Highs of 18 degrees, lows of " +
		"9 degrees overnight. Winds will be fresh to strong from the southwest, gusting to 40 miles per hour on exposed coasts."
}

// TestShortTitleNames: a title name shorter than a shingle ("Leeds",
// "Peru", "Fed") is looked up by its key among the words of the other
// document (Scanner.ShortNames), as a longer one is by its shingles: two
// forecasts of one template for two towns each name a town the other
// never mentions, whatever the names' lengths, and are not duplicates. A
// short name had no shingle and was left out: Leeds and Derby were a
// duplicate with no name foreign, Leeds and Sheffield one with
// foreign title names [0 1]. A copy holds the name however it writes it
// (with a capital, at a sentence's start, possessive); a function word or
// a word the text also writes in lower case is no name; without
// ShortNames (a sketch format kept before them) no short name is kept.
func TestShortTitleNames(t *testing.T) {
	s := Scanner{Shingle: 6, Folded: true, Fills: true, WordFilter: true, ShortNames: true}
	leedsTitle, leeds := forecast("Leeds")
	derbyTitle, derby := forecast("Derby")
	sheffieldTitle, sheffield := forecast("Sheffield")
	quake := func(place string) (string, string) {
		return "Strong earthquake off " + place, "A strong earthquake of magnitude 6.1 struck early on Tuesday off the coast of " +
			place + ", the national seismology agency said. No tsunami warning was issued."
	}
	luzonTitle, luzon := quake("Luzon")
	peruTitle, peru := quake("Peru")
	for _, tc := range []struct {
		name                 string
		s                    Scanner
		titleA, a, titleB, b string
		foreign              [2]int
	}{
		{"two towns of short names", s, leedsTitle, leeds, derbyTitle, derby, [2]int{1, 1}},
		{"a short name and a long one", s, leedsTitle, leeds, sheffieldTitle, sheffield, [2]int{1, 1}},
		{"earthquakes off two places of four and five letters", s, luzonTitle, luzon, peruTitle, peru, [2]int{1, 1}},
		{"a copy under another headline", s, leedsTitle, leeds, "Wet and windy Friday ahead", leeds, [2]int{0, 0}},
		{"a copy naming the town at a sentence's start", s, leedsTitle, leeds,
			"Rain for the north", "Leeds can expect a cloudy start with outbreaks of rain.", [2]int{0, 0}},
		{"a copy naming the town in capitals, possessive", s, leedsTitle, leeds,
			"", "LEEDS'S FORECAST: A CLOUDY START WITH OUTBREAKS OF RAIN.", [2]int{0, 0}},
		{"a possessive title name", s, "Fed's Powell sees no hurry", "Chair Jerome Powell said the Fed's policy was well placed.",
			"", "Jerome Powell said the Fed would wait.", [2]int{0, 0}},
		{"without short names", Scanner{Shingle: 6, Folded: true, Fills: true, WordFilter: true},
			leedsTitle, leeds, derbyTitle, derby, [2]int{0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := scanWith(tc.s, tc.titleA, tc.a), scanWith(tc.s, tc.titleB, tc.b)
			e := Compare(&a, &b, Sample{}, Sample{}) // nothing sampled, as sentences and cosine compare
			Recheck(&a, &b, Sample{}, Sample{}, &e)
			if tc.s.ShortNames && !slices.ContainsFunc(a.Names, func(x Name) bool { return x.Kind() == TitleName && x.Shingle == 0 }) {
				t.Fatalf("no short title name in %+v: the case tests nothing", a.Names)
			}
			if e.ForeignTitleNames != tc.foreign {
				t.Errorf("foreign title names %v, want %v (names %+v and %+v)", e.ForeignTitleNames, tc.foreign, a.Names, b.Names)
			}
			if r, want := (Rules{Names: true}), tc.foreign == [2]int{1, 1}; e.NamesDisagree() != want {
				t.Errorf("names disagree %v, want %v (evidence %+v)", r.Veto(&e), want, e)
			}
		})
	}
	// No name: a function word, and a common word the text also writes in
	// lower case, though written with a capital inside a sentence.
	var an analysis.Analyzer
	for _, tc := range []struct{ title, text, word string }{
		{"The Leeds forecast", "Rain is due in Leeds on Friday, says The Yorkshire Post.", "the"},
		{"Tsunami to hit Sri Lanka banks", "Sri Lanka's banks face hard times, the Sri Lanka Banks Association said.", "banks"},
	} {
		c := scanWith(s, tc.title, tc.text)
		mask := nameMask(an.AppendNormalized(nil, tc.word))
		for _, x := range c.Names {
			if x.bigrams() == mask {
				t.Errorf("%q, %q: %q is a name (names %+v)", tc.title, tc.text, tc.word, c.Names)
			}
		}
		if len(c.Names) == 0 {
			t.Errorf("%q, %q: no name at all; the case tests nothing", tc.title, tc.text)
		}
	}
}

// TestRefilledInEveryScript: a scanner reading every script (Unicode)
// finds a notice in Russian, Chinese or Arabic (its figures in ASCII,
// Arabic-Indic or Persian digits, the title's too) filled in twice from
// one template: other figures in the places its words make, Refilled; the
// scanner of the formats before it read none of those places, nor the
// figures of other digits, and the notices were duplicates.
func TestRefilledInEveryScript(t *testing.T) {
	for _, tc := range []struct {
		name, title, a, b string
		otherDigits       bool // the title's figure is written in the digits of another script
	}{
		{"Russian", "Мост закроют с 3 по 10 мая", "Мост на Главной улице будет закрыт для движения с 3 по 10 мая на ремонт.",
			"Мост на Главной улице будет закрыт для движения с 10 по 17 мая на ремонт.", false},
		{"Chinese", "大桥5月封闭维修", "主街上的大桥将于5月3日至5月10日封闭维修，禁止车辆通行。", "主街上的大桥将于5月10日至5月17日封闭维修，禁止车辆通行。", false},
		{"Arabic-Indic digits", "الخبز بـ ١٢٠ فلسا", "سترتفع أسعار الخبز إلى ١٢٠ فلسا بعد أن كانت ١٠٠ فلسا، وسيصبح الطحين ١٨ دينارا.",
			"سترتفع أسعار الخبز إلى ١٥٠ فلسا بعد أن كانت ١٢٠ فلسا، وسيصبح الطحين ٢٣ دينارا.", true},
		{"Persian digits", "الخبز بـ ۱۲۰ فلسا", "سترتفع أسعار الخبز إلى ۱۲۰ فلسا بعد أن كانت ۱۰۰ فلسا، وسيصبح الطحين ۱۸ دينارا.",
			"سترتفع أسعار الخبز إلى ۱۵۰ فلسا بعد أن كانت ۱۲۰ فلسا، وسيصبح الطحين ۲۳ دينارا.", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, unicode := range []bool{true, false} {
				s := Scanner{Shingle: 6, Folded: true, Fills: true, Unicode: unicode}
				a, b := scanWith(s, tc.title, tc.a), scanWith(s, tc.title, tc.b)
				ev := Compare(&a, &b, Sample{}, Sample{})
				if got := ev.Refilled(); got != unicode {
					t.Errorf("Unicode %v: places %v, refilled %v, want %v", unicode, ev.Places, got, unicode)
				}
				if tc.otherDigits && len(a.TitleNums) > 0 != unicode {
					t.Errorf("Unicode %v: the title's figures %v", unicode, a.TitleNums)
				}
			}
		})
	}
}

// TestRefilledTablesOfStations: a scanner reading the figures of a table
// of stations as it writes them (Measures) finds two days' rainfall of
// one table, a station's "33.0 MILLIMETRES" one day and "NIL" the other,
// filled in twice from one template: other figures at the stations both
// fill, Refilled; a copy stays one, whatever unit it spells. The scanner
// of the formats before it read no figure at a station of NIL and put a
// station with rain in the place of its unit: the days shared no place
// with another figure and were one report.
func TestRefilledTablesOfStations(t *testing.T) {
	readings := enginetest.RainfallReadings
	wet := readings(map[int]string{9: "33.0 MILLIMETRES", 10: "5.0 MM"})
	for _, tc := range []struct {
		name     string
		a, b     core.Document
		refilled bool // with Measures
	}{
		{"rain one day, none the next", enginetest.Rainfall(7, wet...), enginetest.Rainfall(9, readings(nil)...), true},
		{"rain at other stations", enginetest.Rainfall(7, wet...),
			enginetest.Rainfall(8, readings(map[int]string{2: "12.5 MM", 3: "0.4 MM"})...), true},
		{"a copy", enginetest.Rainfall(7, wet...), enginetest.Rainfall(7, wet...), false},
		{"a copy spelling its units otherwise", enginetest.Rainfall(7, wet...),
			enginetest.Rainfall(7, readings(map[int]string{9: "33 MM", 10: "5.0 MILLIMETRES"})...), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, measures := range []bool{true, false} {
				s := Scanner{Shingle: 6, Folded: true, Fills: true, Unicode: true, Measures: measures}
				a, b := scanWith(s, tc.a.Title, tc.a.Text), scanWith(s, tc.b.Title, tc.b.Text)
				ev := Compare(&a, &b, Sample{}, Sample{})
				if got := ev.Refilled(); got != (tc.refilled && measures) {
					t.Errorf("Measures %v: places %v, refilled %v, want %v", measures, ev.Places, got, tc.refilled && measures)
				}
			}
		})
	}
}

// scanDoc returns the context s reads of doc, its own.
func scanDoc(s *Scanner, doc core.Document) Context {
	var an analysis.Analyzer
	var c Context
	s.Scan(&doc, an.Words(doc.Text), &c)
	c.Own()
	return c
}

// TestRefilledInOtherLanguages: a scanner reading figures as more
// languages write them (Languages) finds a court notice of one template
// in German, French, Spanish, Polish or Russian, three years in prison
// written as a word against four, and another sum, filled in twice: other
// figures in two places, Refilled, as in English; a copy not. The scanner
// of the formats before it read the years as a word of a place, and
// found one place with another figure, too few. English reads so either
// way.
func TestRefilledInOtherLanguages(t *testing.T) {
	for _, lang := range enginetest.VerdictLanguages {
		t.Run(lang, func(t *testing.T) {
			for _, languages := range []bool{true, false} {
				s := Scanner{Shingle: 6, Folded: true, Fills: true, Unicode: true, Measures: true, Languages: languages}
				three, four := scanDoc(&s, enginetest.Verdict(lang, 3)), scanDoc(&s, enginetest.Verdict(lang, 4))
				ev := Compare(&three, &four, Sample{}, Sample{})
				if want := languages || lang == "en"; ev.Refilled() != want {
					t.Errorf("Languages %v: places %v, refilled %v, want %v", languages, ev.Places, ev.Refilled(), want)
				}
				again := scanDoc(&s, enginetest.Verdict(lang, 3))
				if ev := Compare(&three, &again, Sample{}, Sample{}); ev.Refilled() {
					t.Errorf("Languages %v: a copy's places %v, refilled", languages, ev.Places)
				}
			}
		})
	}
}

// TestRefilledThousandsSpaced: a scanner reading figures as more
// languages write them (Languages) reads a sum whose groups of thousands
// a space sets apart ("1 250 000 zł", a no-break space in Russian, a
// narrow one in French) as one figure, so that a city budget notice
// filled in twice, two of its three sums other, has other figures in two
// of three places, Refilled; a copy not. The scanner of the formats
// before it read such a sum as a table's cells, its "000" places shared,
// or, set apart by a no-break space, as no place at all, and the two
// were one notice.
func TestRefilledThousandsSpaced(t *testing.T) {
	for _, lang := range enginetest.BudgetLanguages {
		t.Run(lang, func(t *testing.T) {
			s := Scanner{Shingle: 6, Folded: true, Fills: true, Unicode: true, Measures: true, Languages: true}
			a, b := scanDoc(&s, enginetest.Budget(lang, 0)), scanDoc(&s, enginetest.Budget(lang, 1))
			if ev := Compare(&a, &b, Sample{}, Sample{}); ev.Places != [2]int{3, 2} || !ev.Refilled() {
				t.Errorf("places %v, refilled %v, want [3 2], refilled", ev.Places, ev.Refilled())
			}
			again := scanDoc(&s, enginetest.Budget(lang, 0))
			if ev := Compare(&a, &again, Sample{}, Sample{}); ev.Refilled() {
				t.Errorf("a copy's places %v, refilled", ev.Places)
			}
		})
	}
}

// TestDatelinesOfOtherLanguages: a scanner reading datelines as more
// languages write them (Languages) reads the day of Spanish, Russian,
// German and French agencies' datelines ("MADRID, 5 de marzo -", "Madrid,
// 5 mar (EFE).-", "Москва. 5 марта. ИНТЕРФАКС -", "BERLIN, 5. März (dpa)
// -", "PARIS, 5 mars (AFP) -", "5 mars 2024 (Reuters) -"), so that a weekly notice of two weeks
// has datelines of other days a week apart, which DateApart refuses, and
// its text after the dateline; the scanner of the formats before it read
// no day there, and the two were one notice. The forms read before
// (English's, TASS's) are read either way.
func TestDatelinesOfOtherLanguages(t *testing.T) {
	rules := Rules{DateApart: 72}
	for _, form := range enginetest.WeeklyForms {
		t.Run(form, func(t *testing.T) {
			for _, languages := range []bool{true, false} {
				s := Scanner{Shingle: 6, Folded: true, Fills: true, Unicode: true, Measures: true, Languages: languages}
				twelfth := enginetest.Weekly(form, 12)
				a, b := scanDoc(&s, enginetest.Weekly(form, 5)), scanDoc(&s, twelfth)
				dl, ok := s.Dateline() // the 12th's
				read := languages || form == "en" || form == "ru-tass"
				if got := a.Dateline != 0; got != read {
					t.Errorf("Languages %v: the dateline's date %x, read %v, want %v", languages, a.Dateline, got, read)
				}
				ev := Compare(&a, &b, Sample{}, Sample{})
				if got := rules.Veto(&ev); (got == Dateline) != read {
					t.Errorf("Languages %v: the two weeks' veto %q (evidence %+v), want a dateline's %v", languages, got, ev, read)
				}
				if !read {
					continue
				}
				rest := twelfth.Text[min(dl.End, len(twelfth.Text)):]
				body := slices.ContainsFunc([]string{"The city", "La empresa", "Городской", "Die Wasserbetriebe", "Le service"},
					func(p string) bool { return strings.HasPrefix(rest, p) })
				if !ok || dl.Day != 12 || dl.Month != time.March || !body {
					t.Errorf("Languages %v: the dateline %+v, %v, the text after it %.20q", languages, dl, ok, rest)
				}
			}
		})
	}
}
