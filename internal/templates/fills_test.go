package templates

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/codec"
)

// contextOf scans one made-up document as a method's sketcher does.
func contextOf(title, text string) Context {
	return scanWith(Scanner{Shingle: 6, Fills: true}, title, text)
}

// scanWith scans one made-up document, dated, with the scanner s.
func scanWith(s Scanner, title, text string) Context {
	var an analysis.Analyzer
	var c Context
	s.Scan(&core.Document{Title: title, Text: text, Date: time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)}, an.Words(text), &c)
	c.Own()
	return c
}

// TestFillRules pins each kind of slot on pairs of made-up texts: the
// places both fill, and in how many the words differ.
func TestFillRules(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		titleA, a, titleB, b string
		shared, other        int
	}{
		{"a name: a run of capitals inside a sentence",
			"", "PORTVILLE, May 2 - The trust said Quillon Harbour Works is raising 40 mln crowns in new notes, its agent said.",
			"", "PORTVILLE, May 2 - The trust said Marven Tool Company is raising 40 mln crowns in new notes, its agent said.", 1, 1},
		{"the same name misread is the same name",
			"", "PORTVILLE, May 2 - The trust said Quillon Harbour Works is raising 40 mln crowns in new notes.",
			"", "PORTVILLE, May 2 - The trust said Qui1lon Harbour Works is raising 40 mln crowns in new notes.", 1, 0},
		{"a name and its initials are one name",
			"", "NORBURY, May 2 - Delegates of the Northern Rowing League met in the town hall on Friday.",
			"", "NORBURY, May 2 - Delegates of the NRL met in the town hall on Friday.", 1, 0},
		{"a name held elsewhere in the other text is no other name",
			"", "The fair visits Aldmoor in June and Brackwell in July, the organisers said.",
			"", "The fair visits Brackwell in June and Aldmoor in July, the organisers said.", 1, 0},
		{"a word of a name inside the longer name is the same name",
			"", "Supporters of the Wardens cheered as the team paraded through the square.",
			"", "Supporters of the Eastfield Wardens cheered as the team paraded through the square.", 1, 0},
		{"a name in quotes, Cyrillic",
			"", "Редакция объявляет фотоконкурс «Зимний город» для всех читателей газеты.",
			"", "Редакция объявляет фотоконкурс «Весенний сад» для всех читателей газеты.", 1, 1},
		{"a name in straight quotes",
			"", "Entries for the \"Silver Lens\" contest close on Friday, the club said.",
			"", "Entries for the \"Night Market\" contest close on Friday, the club said.", 2, 1},
		{"a commodity, in the title and at a sentence's start",
			"RIVERTON BARLEY SEEN STEADY", "RIVERTON, May 2 - Dry and mild - Barley prices are seen steady on light receipts, dealers said.",
			"RIVERTON OATS SEEN STEADY", "RIVERTON, May 2 - Dry and mild - Oats prices are seen steady on light receipts, dealers said.", 2, 2},
		{"a time of day: a word and an hour",
			"", "KELSO TIN OPENING - MAY 2\n spot (per tonne)\n 5,100 (prev 5,090)",
			"", "KELSO TIN 1130 - MAY 2\n spot (per tonne)\n 5,104 (prev 5,090)", 1, 1},
		{"a time of day: two clock times in the title",
			"COPRA PRICES AT 11:15 LOCAL", "Copra was quoted firmer in quiet dealings, brokers said.",
			"COPRA PRICES AT 14:40 LOCAL", "Copra was quoted firmer in quiet dealings, brokers said.", 1, 1},
		{"a capital that opens a sentence is no name",
			"", "Shares rose. Dealers said trading was quiet.",
			"", "Shares rose. Brokers said trading was quiet.", 0, 0},
		{"a line in capitals marks no names",
			"", "ALPHA BRAVO CHARLIE REPORT\n the figures follow in the table",
			"", "DELTA ECHO FOXTROT REPORT\n the figures follow in the table", 0, 0},
		{"the dateline's place is no fill: a reprint under another dateline",
			"", "EASTON, May 2 - The council approved the Millbrook Bridge repairs, the mayor said.",
			"", "WESTON, May 2 - The council approved the Millbrook Bridge repairs, the mayor said.", 1, 0},
		{"a place framed by function words alone is no place: one man described two ways",
			"", "\"We can do it in time,\" said Dr. Ames Porter of the Bureau for Coastal Survey and Mapping.",
			"", "\"We can do it in time,\" said Dr. Ames Porter, the bureau's head for Harbour Works and Planning.", 2, 0},
		{"a name misread by a character recogniser is the same name",
			"", "NEW YORK, May 2 - Moody's said it upgraded Tarn Paper Co's debt to A-3 from Baa-1. The company's Prime-2 rating and its Corp units are unchanged.",
			"", "NEW YORK, May 2 - Moody's said it upgraded Tarn Paper Co's debt to A-3 from Boa-1. The company's Prirne-2 rating and its Gorp units are unchanged.", 5, 0},
		{"a name that opens the text fills a place: the lead's subject",
			"", "Harold Jensen, a lifelong resident of the county, died peacefully at home on Sunday.",
			"", "Bob Smith, a lifelong resident of the county, died peacefully at home on Sunday.", 1, 1},
		{"particles inside a name are the name's: another town",
			"", "Residents of Aix-en-Provence woke to heavy frost on Tuesday, forecasters said.",
			"", "Residents of Lyon woke to heavy frost on Tuesday, forecasters said.", 2, 1},
		{"a word elsewhere in the text is no longer name: \"Saturday\" and \"Ólafur Þórðarson\" share half their bits",
			"", "Wang Wei, the composer whose scores won acclaim, has died, the family said on Saturday.",
			"", "Ólafur Þórðarson, the composer whose scores won acclaim, has died, the family said on Saturday.", 1, 1},
		{"two particles inside a name",
			"", "The trust said Ludwig van der Berg had joined its board on Monday.",
			"", "The trust said Ingrid Bergström had joined its board on Monday.", 1, 1},
		{"a line of its own that opens the text is no place: a headline, a kicker",
			"", "Apple Posts Record Quarter\n\nApple Inc said on Thursday its revenue rose to a record.",
			"", "Apple Tops Wall Street Forecasts\n\nApple Inc said on Thursday its revenue rose to a record.", 1, 0},
		{"a name that opens the text after a dateline",
			"", "PORTVILLE, May 2 - Quillon Harbour Works said it is raising 40 mln crowns in new notes.",
			"", "PORTVILLE, May 2 - Marven Tool Company said it is raising 40 mln crowns in new notes.", 1, 1},
		{"a hard-wrapped line is one line",
			"", "LONDON, May 2 - The bank said Corran Mills\nLtd sold the plant, the bank said.",
			"", "LONDON, May 2 - The bank said Corran Mills Ltd sold\nthe plant, the bank said.", 1, 0},
		{"a name of more than six words fills its place whole",
			"", "PORTVILLE, May 2 - Acme Ohio Zebra Fund said its board declared a monthly dividend.",
			"", "PORTVILLE, May 2 - Acme Ohio Investors Intermediate Government Securities Opportunities Fund said its board declared a monthly dividend.", 1, 1},
		{"an abbreviation's dot inside a name is the name's",
			"", "PORTVILLE, May 2 - Acme Ohio Zebra Fund said its board declared a monthly dividend.",
			"", "PORTVILLE, May 2 - Acme Investors U.S. Government Fund said its board declared a monthly dividend.", 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := contextOf(tc.titleA, tc.a), contextOf(tc.titleB, tc.b)
			shared, other, _ := fillsInPlace(a.Fills, b.Fills)
			if shared != tc.shared || other != tc.other {
				t.Errorf("fills in place: %d shared, %d other; want %d, %d (fills %x and %x)", shared, other, tc.shared, tc.other, a.Fills, b.Fills)
			}
		})
	}
}

// TestOneWordNamesNotHeld pins the fault where one template filled in with
// two companies of one word each ("Shares of Sony fell …", "Shares of
// Danone fell …") was one story: a short name's few letter-pair bits lay
// in the other's mask by chance (about one pair in thirty), and a name
// held inside the other counted as the same name, as "Wardens" inside
// "Eastfield Wardens" does. A word is held only inside a name of several
// words; two names of one word are the same only when they share half
// their pairs, four at least, or their shapes are one. Made-up names of
// four to nine letters, every pair: at most one in 200 is one name (3 of
// 1,770; 29 before). Spellings of one name by two desks stay one.
func TestOneWordNamesNotHeld(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const consonants, vowels = "bcdfghklmnprstvz", "aeiou"
	seen := map[string]bool{}
	var names []string
	for len(names) < 60 {
		b := []byte{consonants[rng.IntN(len(consonants))] - 'a' + 'A'}
		for n := 4 + rng.IntN(6); len(b) < n; {
			b = append(b, vowels[rng.IntN(len(vowels))], consonants[rng.IntN(len(consonants))])
		}
		if name := string(b); !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	text := func(name string) string {
		return "Shares of " + name + " fell sharply on Tuesday after the company warned that profit would miss forecasts. " +
			"The chief executive said " + name + " would cut costs and review its product line."
	}
	ctxs := make([]Context, len(names))
	for i, n := range names {
		ctxs[i] = contextOf(n+" shares fall on profit warning", text(n))
	}
	same, pairs := 0, 0
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			pairs++
			if shared, other, _ := fillsInPlace(ctxs[i].Fills, ctxs[j].Fills); other < shared {
				same++
			}
		}
	}
	if same > pairs/200 {
		t.Errorf("%d of %d pairs of names are one name in a place, want at most %d", same, pairs, pairs/200)
	}
	for _, v := range [][2]string{{"Zelenskiy", "Zelenskyy"}, {"Medvedev", "Medvedyev"}, {"Hezbollah", "Hizbollah"},
		{"Navalny", "Navalniy"}, {"Yanukovich", "Yanukovych"}, {"Sarkozy", "Sarkozi"}} {
		a, b := contextOf(v[0]+" shares fall on profit warning", text(v[0])), contextOf(v[1]+" shares fall on profit warning", text(v[1]))
		if shared, other, _ := fillsInPlace(a.Fills, b.Fills); shared == 0 || other > 0 {
			t.Errorf("%s and %s: %d places filled by both, %d with other names; want one name", v[0], v[1], shared, other)
		}
	}
}

// TestLongNamesFillTheirPlace pins the fault where one dividend notice of
// two funds was one story when a fund's name ran past six words, or past
// an abbreviation's dot ("Franklin Pennsylvania Investors U.S. Government
// Securities Fund"): the run of capitals was cut there, its rest read as
// another name, so that neither part filled the place of the other fund's
// name, and another name and another dividend were one place changed. A
// reprint of the notice under another title stays one story.
func TestLongNamesFillTheirPlace(t *testing.T) {
	const notice = " said its board declared a monthly dividend of %s cts per share, payable April 30 to holders of record April 15."
	r := Rules{Slots: true, Names: true, Template: true}
	for _, tc := range []struct {
		name, a, b   string
		titleB, divB string
		veto         bool
	}{
		{"eight words", "Acme Ohio Zebra Fund", "Acme Ohio Investors Intermediate Government Securities Opportunities Fund",
			"ACME OHIO FUND SETS PAYOUT", "4.2", true},
		{"an abbreviation's dot", "Acme Ohio Zebra Fund", "Acme Ohio Investors U.S. Government Fund",
			"ACME OHIO FUND SETS PAYOUT", "4.2", true},
		{"the same fund reprinted", "Acme Ohio Investors Intermediate Government Securities Opportunities Fund",
			"Acme Ohio Investors Intermediate Government Securities Opportunities Fund", "ACME OHIO FUND DECLARES DIVIDEND", "nine", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := contextOf("ACME OHIO FUND SETS PAYOUT", tc.a+fmt.Sprintf(notice, "nine"))
			b := contextOf(tc.titleB, tc.b+fmt.Sprintf(notice, tc.divB))
			e := Compare(&a, &b, Sample{}, Sample{})
			Recheck(&a, &b, Sample{}, Sample{}, &e)
			if got := r.Veto(&e) != None; got != tc.veto {
				t.Errorf("vetoed %v, want %v (fills %v, places %v)", got, tc.veto, e.Fills, e.Places)
			}
		})
	}
}

// TestAbbreviationJoins checks where a dot after a word goes on with a
// name: after one capital letter or letters with dots between them, before
// a capitalised word that opens no sentence.
func TestAbbreviationJoins(t *testing.T) {
	var an analysis.Analyzer
	for _, tc := range []struct {
		text, next string
		want       bool
	}{
		{"Investors U.S. Government Securities Fund", "Government", true},
		{"President John F. Kennedy said", "Kennedy", true},
		{"the U.S.\nGovernment Securities Fund", "Government", true},
		{"sold in the U.S. The company said", "The", false},
		{"sold in the U.S. Sales rose", "Sales", true}, // read as a name: a sentence that opens with a capital of no stop word
		{"said Dr. Ames Porter", "Ames", false},
		{"sold in Canada. Sales rose", "Sales", false},
		{"the U.S. economy grew", "economy", false},
		{"the U.S., Canada and Mexico", "Canada", false},
	} {
		words := an.Words(tc.text)
		j := slices.IndexFunc(words, func(w analysis.Token) bool { return tc.text[w.Start:w.End] == tc.next })
		if j < 1 {
			t.Fatalf("%q: no word %q after another", tc.text, tc.next)
		}
		if got := abbreviationJoins(tc.text, words, j); got != tc.want {
			t.Errorf("%q: the dot before %q joins %v, want %v", tc.text, tc.next, got, tc.want)
		}
	}
}

// TestNamesOfSeveralWords pins the fault where two funds of one family
// were one name ("Franklin Pennsylvania Tax-Free Income Fund" and
// "Franklin Pennsylvania Investors U.S. Government Securities Fund", six
// cts and 7.8 cts: a duplicate): a name of several words sets most bits of
// its 31-bit mask, many letter pairs hashed to one bit, so that two such
// names share most bits by chance and by the family's words, and a word's
// few bits lie inside such a mask. Made-up names of one family with three
// words of their own: at most one pair in ten is one name (123 of 1,770;
// all before); a made-up word inside a made-up name of four or five words:
// at most one in twenty (15 of 1,000; 194 before). A name and the same
// name misread, or with a word added, stay one.
func TestNamesOfSeveralWords(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	word := func(min, max int) string {
		const consonants, vowels = "bcdfghklmnprstvz", "aeiou"
		b := []byte{consonants[rng.IntN(len(consonants))] - 'a' + 'A'}
		for n := min + rng.IntN(max-min+1); len(b) < n; {
			b = append(b, vowels[rng.IntN(len(vowels))], consonants[rng.IntN(len(consonants))])
		}
		return string(b)
	}
	text := func(name string) string {
		return "The trust said " + name + " would pay its dividend on Friday, the agent said."
	}
	oneName := func(a, b string) bool {
		shared, other, _ := fillsInPlace(contextOf("", text(a)).Fills, contextOf("", text(b)).Fills)
		return shared > 0 && other == 0
	}
	var funds []string
	for len(funds) < 60 {
		funds = append(funds, "Franklin Pennsylvania "+word(4, 9)+" "+word(4, 9)+" "+word(4, 9)+" Fund")
	}
	same, pairs := 0, 0
	for i := range funds {
		for j := i + 1; j < len(funds); j++ {
			if pairs++; oneName(funds[i], funds[j]) {
				same++
			}
		}
	}
	if same > pairs/10 {
		t.Errorf("%d of %d pairs of funds of one family are one name, want at most %d", same, pairs, pairs/10)
	}
	held := 0
	for n := 0; n < 1000; n++ {
		name := []string{word(5, 9), word(5, 9), word(5, 9), word(5, 9), word(5, 9)}
		if oneName(word(4, 9), strings.Join(name[:5-n%2], " ")) {
			held++
		}
	}
	if held > 1000/20 {
		t.Errorf("%d of 1000 words lie inside names of four or five words, want at most %d", held, 1000/20)
	}
	for _, v := range [][2]string{
		{"Franklin Pennsylvania Tax-Free Income Fund", "Franklin Pennsy1vania Tax-Free Incorne Fund"},
		{"Acme Ohio Growth Equity Fund", "Acme Ohio Growth Equity Fund Inc"},
		{"E-Systems", "E-Systems Inc"},
		{"Treasury Secretary James Baker", "U.S. Treasury Secretary James Baker"},
		{"Federal Deposit Insurance Corp Chairman L. William Seidman", "Federal Deposit Insurance Corporation Chairman L. William Seidman"},
		{"Spurs", "San Antonio Spurs"},
		{"Co", "Co Inc"},
	} {
		if !oneName(v[0], v[1]) {
			t.Errorf("%q and %q: two names, want one", v[0], v[1])
		}
	}
	const notice = " said its board declared an initial monthly dividend of %s cts per share, payable April 30 to holders of record April 15."
	a := contextOf("FRANKLIN PENNSYLVANIA TAX-FREE IN INITIAL PAYOUT", "SAN MATEO, Calif., April 13 - Franklin Pennsylvania Tax-Free Income Fund"+fmt.Sprintf(notice, "six"))
	b := contextOf("FRANKLIN PENNSYLVANIA U.S. SETS INITIAL PAYOUT", "SAN MATEO, Calif., April 13 - Franklin Pennsylvania Investors U.S. Government Securities Fund Fund"+fmt.Sprintf(notice, "7.8"))
	e := Compare(&a, &b, Sample{}, Sample{})
	Recheck(&a, &b, Sample{}, Sample{}, &e)
	if r := (Rules{Slots: true, Names: true, Template: true}); r.Veto(&e) == None {
		t.Errorf("two funds' notices of one family: no veto (fills %v, places %v)", e.Fills, e.Places)
	}
}

// TestTemplatedObituaries pins the fault where one notice filled in for
// two people (an obituary: the name opens the text and ends the title)
// was one story: the name that opens a text filled no place (no word
// before it), so only the title's place differed, and one place is no
// template. Two people are two stories; a reprint under another title is
// one.
func TestTemplatedObituaries(t *testing.T) {
	const body = ", a lifelong resident of the county, died peacefully at home on Sunday surrounded by family. " +
		"He was born on the family farm and worked for many years at the paper mill."
	r := Rules{Slots: true, Names: true, Template: true}
	for _, tc := range []struct {
		titleA, a, titleB, b string
		veto                 bool
	}{
		{"Obituary: Harold Jensen", "Harold Jensen" + body, "Obituary: Bob Smith", "Bob Smith" + body, true},
		{"Obituary: Harold Jensen", "Harold Jensen" + body, "Obituary: Margaret Olsen", "Margaret Olsen" + body, true},
		{"Obituary: Harold Jensen", "Harold Jensen" + body, "Harold Jensen, 84, of Portville", "Harold Jensen" + body, false},
	} {
		a, b := contextOf(tc.titleA, tc.a), contextOf(tc.titleB, tc.b)
		e := Compare(&a, &b, Sample{}, Sample{})
		Recheck(&a, &b, Sample{}, Sample{}, &e)
		if got := r.Veto(&e) != None; got != tc.veto {
			t.Errorf("%q and %q: vetoed %v, want %v (fills %v)", tc.titleA, tc.titleB, got, tc.veto, e.Fills)
		}
	}
}

// TestShapes pins what a fill's value is compared by: its shape, in which
// the look-alikes a character recogniser confuses are one letter.
func TestShapes(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"Corp", "Gorp", true},
		{"Prime", "Prirne", true},
		{"Baa", "Boa", true},
		{"December's", "Ddeeemben's", true},
		{"Metal Box", "Meta1 B0x", true},
		{"Coffee", "Cocoa", false},
		{"Michigan", "Minnesota", false},
		{"Sun", "Unocal", false},
		{"Hogs", "Cattle", false},
		{"Insured", "Puerto Rico", false},
	} {
		a, b := contextOf("", "The report named "+tc.a+" as the seller."), contextOf("", "The report named "+tc.b+" as the seller.")
		if len(a.Fills) != 1 || len(b.Fills) != 1 {
			t.Fatalf("%q, %q: fills %x and %x, want one each", tc.a, tc.b, a.Fills, b.Fills)
		}
		if got := sameFill(a.Fills[0], b.Fills[0]); got != tc.same {
			t.Errorf("sameFill(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}

// TestReportTime pins the hour of a report: a time of day in the heading
// (the title, or the first line of a text sent without one), compared
// whole; a time further on is a slot like any other.
func TestReportTime(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		titleA, a, titleB, b string
		want                 bool
	}{
		{"a table's heading, two clock times",
			"", "KELSO COPPER 12:00\n\nLAST CHANGE MAY4 6150 UNCH JUN4 UNTRD",
			"", "KELSO COPPER 12:30\n\nLAST CHANGE MAY4 6150 UNCH JUN4 UNTRD", true},
		{"a one-line table: the heading ends at its dash",
			"", "KELSO EXCHS CLOSING - MAY 2 US 0.4920/27 STG 3.2950/80",
			"", "KELSO EXCHS OPENING - MAY 2 US 0.4920/27 STG 3.2950/80", true},
		{"an hour and a session",
			"", "KELSO SEEDS 1330 - MAY 2\nCOPRA dlrs per tonne May 275.00 slrs",
			"", "KELSO SEEDS CLOSING - MAY 2\nCOPRA dlrs per tonne May 275.00 slrs", true},
		{"one minute apart is another report",
			"GRAIN FUTURES 12:00 EDT", "Wheat was steady in light trade.",
			"GRAIN FUTURES 12:01 EDT", "Wheat was steady in light trade.", true},
		{"the same table sent again",
			"", "KELSO COPPER 12:00\n\nLAST CHANGE MAY4 6150 UNCH",
			"", "KELSO COPPER 12:00\n\nLAST CHANGE MAY4 6150 UNCH", false},
		{"the same title in other letter case",
			"EXCHANGE TO CLOSE EARLY", "The exchange will close at 1300 local time on Friday.",
			"Exchange To Close Early", "The exchange will close at 1300 local time on Friday.", false},
		{"times in the text, not the heading",
			"TALKS RESUME", "The delegates met at 10:30 and talks resumed, officials said.\nMore later.",
			"TALKS RESUME", "The delegates met at 11:15 and talks resumed, officials said.\nMore later.", false},
		{"a sentence of one line has no heading",
			"", "Trading opened at 10:30 - dealers said - and shares rose.",
			"", "Trading opened at 11:00 - dealers said - and shares rose.", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := contextOf(tc.titleA, tc.a), contextOf(tc.titleB, tc.b)
			e := Compare(&a, &b, Sample{}, Sample{})
			if e.ReportTime != tc.want {
				t.Errorf("report time %v, want %v (fills %x and %x)", e.ReportTime, tc.want, a.Fills, b.Fills)
			}
			r := Rules{Slots: true}
			if got := r.Veto(&e) == Slots; got != tc.want {
				t.Errorf("vetoed %v, want %v (evidence %+v)", got, tc.want, e)
			}
		})
	}
}

// TestWordsRefilled pins the veto: two places with other words, or one and
// a figure in another place.
func TestWordsRefilled(t *testing.T) {
	for _, tc := range []struct {
		fills, places [2]int
		want          bool
	}{
		{[2]int{3, 2}, [2]int{}, true},
		{[2]int{3, 1}, [2]int{4, 1}, true},
		{[2]int{3, 1}, [2]int{4, 0}, false},
		{[2]int{9, 0}, [2]int{4, 3}, false}, // the figures' own rule, not this one
	} {
		e := Evidence{Fills: tc.fills, Places: tc.places}
		if got := e.WordsRefilled(); got != tc.want {
			t.Errorf("fills %v, places %v: refilled %v, want %v", tc.fills, tc.places, got, tc.want)
		}
		r := Rules{Slots: true}
		if got := r.Veto(&e) == Slots; got != tc.want {
			t.Errorf("fills %v, places %v: vetoed %v, want %v", tc.fills, tc.places, got, tc.want)
		}
		e.Rerun = true
		if r.Veto(&e) != None {
			t.Errorf("fills %v, places %v: a re-run is vetoed", tc.fills, tc.places)
		}
	}
}

// TestContextRoundTrip: what AppendContext writes, ReadContext reads, with
// the filter of the words and the names' letters and without.
func TestContextRoundTrip(t *testing.T) {
	c := scanWith(Scanner{Shingle: 6, Fills: true, WordFilter: true, Languages: true, Columns: true}, "RIVERTON BARLEY SEEN STEADY <RVB>",
		"RIVERTON, May 2 - Dry and mild - Barley prices are seen steady at 12.50 on receipts of 3,000, dealers said.")
	if len(c.Fills) == 0 || len(c.Names) == 0 || len(c.Slots) == 0 || len(c.WordFilter) == 0 ||
		!slices.ContainsFunc(c.Names, func(n Name) bool { return n.Letters != 0 }) {
		t.Fatalf("the made-up context is too thin to test: %+v", c)
	}
	for _, words := range []bool{true, false} {
		var got Context
		r := codec.NewReader(AppendContext(nil, &c, words, words))
		if err := ReadContext(r, &got, true, words, words); err != nil || r.Done() != nil {
			t.Fatalf("ReadContext: %v, %v", err, r.Done())
		}
		want := c
		if !words {
			want.WordFilter = nil
			want.Names = slices.Clone(c.Names)
			for i := range want.Names {
				want.Names[i].Letters = 0
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("round trip, words %v:\n got %+v\nwant %+v", words, got, want)
		}
	}
}

// TestWordKinds checks the table of word kinds against the lists it is
// built from: each listed word has its list's kind (a word of two lists
// the later's), and words of no list, of every case, have none.
func TestWordKinds(t *testing.T) {
	var an analysis.Analyzer
	want := map[string]uint8{}
	for kind, words := range [][]string{commodityWord: commodities, timeWord: timeWords, stopWord: sentenceStops, functionWord: functionWords} {
		for _, w := range words {
			want[w] = uint8(kind)
		}
	}
	for w, kind := range want {
		for _, form := range []string{w, strings.ToUpper(w)} {
			if got := kindOf(analysis.HashWord(an.AppendNormalized(nil, form))); got != kind {
				t.Errorf("kindOf(%q) = %d, want %d", form, got, kind)
			}
		}
	}
	for _, w := range []string{"wheats", "said", "Exxon", "1000", "thee", "", "opened", "corp", "été"} {
		if got := kindOf(analysis.HashWord(an.AppendNormalized(nil, w))); got != otherWord {
			t.Errorf("kindOf(%q) = %d, want none", w, got)
		}
	}
}

// TestGapMarks checks the readings of the text between two words on
// gaps of ASCII and beyond it: what ends a sentence, what opens a quote.
func TestGapMarks(t *testing.T) {
	for _, tc := range []struct {
		gap            string
		sentence, open bool
	}{
		{"", false, false},
		{" ", false, false},
		{", ", false, false},
		{". ", true, false},
		{"\n\n", true, false},
		{" - ", true, false},
		{" – ", true, false},
		{" — ", true, false},
		{" é.", true, false},
		{"«", false, true},
		{" \"", false, true},
		{"a\"", false, false},
		{" “", false, true},
		{"é ", false, false},
		{"\xff", false, false},
		{"? „", true, true},
	} {
		if got := startsSentence(tc.gap); got != tc.sentence {
			t.Errorf("startsSentence(%q) = %v, want %v", tc.gap, got, tc.sentence)
		}
		if got := opensQuote(tc.gap); got != tc.open {
			t.Errorf("opensQuote(%q) = %v, want %v", tc.gap, got, tc.open)
		}
	}
}

// TestBigramMaskRunes checks that the masks of names of ASCII and beyond
// are those of their runes read one by one: letters and digits of any
// script, punctuation and invalid bytes passed over.
func TestBigramMaskRunes(t *testing.T) {
	for _, name := range []string{"", "x", "u.n.", "san antonio spurs", "zürich-2", "société générale", "альфа банк", "ab\xffcd", "1000", "--", "é"} {
		var want, single uint64
		prev := rune(-1)
		for _, r := range name {
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				continue
			}
			if prev >= 0 {
				want |= 1 << (pairHash(prev, r) % fillMaskBits)
			} else {
				single = 1 << (pairHash(-1, r) % fillMaskBits)
			}
			prev = r
		}
		if want == 0 {
			want = single
		}
		if got := bigramMask([]byte(name), fillMaskBits); got != want {
			t.Errorf("bigramMask(%q) = %#x, want %#x", name, got, want)
		}
	}
}

// TestSkipPlain checks that every word skipPlain passes over is one that
// fillAt finds no fill at, with the line's names as lineOf reads them.
func TestSkipPlain(t *testing.T) {
	var an analysis.Analyzer
	var s Scanner
	texts := []string{
		"NEW YORK, April 7 - General Alloys Corp said it raised its stake in Meridian to 5 pct, and lead manager \"Northern Star\" priced at 101.",
		"NY COMEX COPPER 12:00 - The opening was steady with wheat and corn up 3 cts at midsession, dealers said in 1030 trading.",
		"HONG KONG GOLD OPG - APR 8\nGOLD 401.50/402.00 (CLOSE 400.00)",
		"«Альфа» said the «Beta» fund, \"gamma\" and 'delta' closed; „Epsilon“ opened at 9:45 in São Paulo and the Société traded.",
		"the the \"the\" \"The\" x \"1\" 2 _x a_b",
	}
	for _, text := range texts {
		words := an.Words(text)
		names, lineEnd, skipped := false, -1, 0
		for i := 0; i < len(words); i++ {
			var next int
			next, names, lineEnd = skipPlain(text, words, i, names, lineEnd)
			for j := i; j < next; j++ {
				lower, _ := lineOf(text, int(words[j].Start))
				if n, _ := s.fillAt(text, words, j, lower); n != 0 {
					t.Errorf("%q: word %q passed over, fillAt finds %d words", text, text[words[j].Start:words[j].End], n)
				}
				skipped++
			}
			if next < len(words) {
				if want, _ := lineOf(text, int(words[next].Start)); names != want {
					t.Errorf("%q: at word %q names %v, want %v", text, text[words[next].Start:words[next].End], names, want)
				}
			}
			i = next
		}
		if skipped == 0 {
			t.Errorf("%q: no word passed over", text)
		}
	}
}

// TestUSSpelledOut: a reprint that spells "U.S." out as "United States" is
// the same text; the abbreviation joined to the capital after it ("U.S.
// Government", "U.S. Officials", as wire copy writes it) is the same name,
// its letters the initials of the words it stands for.
func TestUSSpelledOut(t *testing.T) {
	r := Rules{Slots: true, Names: true, Template: true}
	for _, tc := range []struct{ name, a, b string }{
		{"fund name",
			"PORTVILLE, May 2 - Acme U.S. Government Fund said its board declared a monthly dividend of 7.8 cts per share. ",
			"PORTVILLE, May 2 - Acme United States Government Fund said its board declared a monthly dividend of 7.8 cts per share. "},
		{"wire capital after U.S.",
			"WASHINGTON, May 2 - The planned sale of a major U.S. Computer maker to a Japanese company was opposed, U.S. Officials said on Tuesday.",
			"WASHINGTON, May 2 - The planned sale of a major United States Computer maker to a Japanese company was opposed, United States Officials said on Tuesday."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := contextOf("", tc.a), contextOf("", tc.b)
			e := Compare(&a, &b, Sample{}, Sample{})
			Recheck(&a, &b, Sample{}, Sample{}, &e)
			if v := r.Veto(&e); v != None {
				t.Errorf("one text with U.S. spelled out: vetoed %q (fills %v, places %v)", v, e.Fills, e.Places)
			}
		})
	}
}

// FuzzSameTextNoVeto: a text compared with itself is never read as one
// template filled in twice, whatever its names, abbreviations, figures
// and times, and no text makes the scanner fail.
func FuzzSameTextNoVeto(f *testing.F) {
	for _, s := range []string{
		"WASHINGTON, May 2 - U.S. Officials said the Acme U.S. Government Fund paid 7.8 cts early on Tuesday.",
		"Franklin Pennsylvania Investors U.S. Government Securities Fund Fund said. Mary Jones replied at 12:30 EDT.",
		"CBT CORN MIXED EARLY\nCHICAGO, April 7 - corn 1.50 dlrs, wheat 2.64 late.",
		"A.B.C. D.E. F. G H. Ü.S. Ärzte 10:00 1000 hrs",
	} {
		f.Add(s)
	}
	r := Rules{Slots: true, Names: true, Template: true}
	f.Fuzz(func(t *testing.T, text string) {
		a, b := contextOf("", text), contextOf("", text)
		e := Compare(&a, &b, Sample{}, Sample{})
		Recheck(&a, &b, Sample{}, Sample{}, &e)
		if v := r.Veto(&e); v != None {
			t.Errorf("%q with itself: vetoed %q (fills %v, places %v)", text, v, e.Fills, e.Places)
		}
	})
}
