package minhash

import (
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
)

// repo is the Fed's daily repurchase item of one day.
func repo(dateline, amount, funds string) string {
	return dateline + " - The Federal Reserve entered the U.S. Government securities market to arrange " + amount +
		" billion dlrs of customer repurchase agreements, a Fed spokesman said. Dealers said Federal funds were trading at " +
		funds + " pct when the Fed began its temporary and indirect supply of reserves to the banking system."
}

// dividend is a dividend notice of one company.
func dividend(dateline string) string {
	return dateline + " - Qtly div 25 cts vs 25 cts prior Pay April 15 Record March 31. " +
		"The board also said the annual meeting of shareholders will be held as planned in the spring."
}

// story is a wire story under a dateline.
func story(dateline string) string {
	return dateline + " - The harbour board approved construction of a new container terminal on the north shore, " +
		"ending a debate that lasted nearly four years. The project is expected to cost 412 mln dlrs and to take six " +
		"years to complete, Chairman Anna Keller told reporters after a session that ran late into the evening."
}

// grain is an hourly futures report.
func grain(a, b string) string {
	return "Wheat futures were mixed at midsession. MAY7 285 UP 1 1/2 JUL7 " + a + " SEP7 277 UP 1 DEC7 " + b +
		" MAR8 292 UP 3/4. Corn MAY7 158 UP 1/4 JUL7 162 1/2 UNCH SEP7 166 UP 1/2 DEC7 172 3/4 UP 1/4. " +
		"Oats MAY7 148 OFF 1 JUL7 139 1/4 OFF 3/4. Soybeans MAY7 502 UP 2 JUL7 497 1/2 UP 1 1/2."
}

// estimate is a money-market estimate of one hour.
func estimate(now, before string) string {
	return "LONDON, April 3 - The central bank said it has revised its estimate of today's shortfall in the money market to " +
		now + " mln stg from " + before + " mln, before taking account of its morning operations."
}

// livestock is a livestock report of one hour.
func livestock(trade, steers, heifers string) string {
	return "OMAHA, April 7 - Slaughter steers were steady and heifers firm in " + trade + " trade, the agency said.\n" +
		"Feedlots reported good interest from buyers. Sales on " + steers + " steers and " + heifers + " heifers.\n" +
		"Steers good and mostly choice 1025-1150 lbs 68.50-69.00."
}

// payout is a monthly payout notice of one fund.
func payout(div string) string {
	return "SAN MATEO, Calif., April 13 - Mthly div " + div + " cts vs " + div + " cts prior\nPay April 30\nRecord April 15"
}

// deposits is a central bank's issue of certificates of deposit of one day.
func deposits(dateline, issued, total string) string {
	return dateline + " - The central bank issued " + issued + " billion dlrs worth of certificates of deposit, " +
		"bringing issues so far this year to " + total + " billion against 40 billion a year ago, a bank spokesman said. " +
		"The new certificates, with maturities of six months, one and two years, carry interest ranging from 4.07 to 5.12 pct. " +
		"The issues are meant to curb the growth of the money supply, which rose 51 pct in the year to March."
}

// hogs is a livestock market's opening report under its town's dateline.
func hogs(dateline string) string {
	return dateline + " - Hog prices opened 1.00 dlr higher at the terminal market in light early trade, private sources " +
		"said. Top 51.50 dlrs per cwt. Receipts were estimated at 4,500 head against 5,000 a week ago."
}

// issues is a central bank's daily issue of certificates: its figures
// change from day to day in places no other day's item fills.
func issues(dateline, today string) string {
	return dateline + " - The central bank said it sold certificates of deposit " + today + ", bringing this year's issues " +
		"to a new record, a bank official said. The new certificates, with maturities of six months, one and two years, " +
		"carry interest ranging from 4.07 to 5.12 pct and are meant to curb the growth of the money supply."
}

// fundNote is a monthly payout notice that names its fund in a note.
func fundNote(fund string) string {
	return "SAN MATEO, Calif., April 13 - Mthly div 6.5 cts vs 6.5 cts prior\n\nPay April 30\n\nRecord April 15\n\n" +
		"NOTE: Arden " + fund + " Insured Tax-Free Income Fund."
}

// nilTrades is a one-line market table of no business.
func nilTrades(heading string) string {
	return heading + "\n\nMTH TYPE STRIKE PRICE PREMIUM VOLUME\n\nMORNING BUSINESS\n\nNil. Sales at call nil, total nil, tone quiet."
}

// spreads is a table of futures spreads whose first line names its hour.
func spreads(hour, jul string) string {
	return "APRIL 7 - " + hour + " - hrs cdt\n\nMONTHS LAST DIFFERENCE\n\nMay/Jul 0.34 under 0.35 under\n\n" +
		"Jul/Aug 0.16 under 0.17 under\n\nJul/Dec " + jul + " under 0.80 under\n\nAug/Sep 0.16 under 0.17 under"
}

// priceChange is a producer's notice of a new list price.
func priceChange(verb, price string) string {
	return "NEW YORK, April 7 - Tarnwell Copper Co, a subsidiary of Bexley Mining Corp, said it is " + verb +
		" its copper cathode price by 0.50 cent to " + price + " cents a lb, effective immediately."
}

// forecast is a city's weather bulletin of one day, long enough that a
// sample keeps a third of its shingles: the city's name is in a few of
// them, often none kept.
func forecast(city, high, rain string) string {
	return strings.ToUpper(city) + ", May 2 (Weather Desk) - The forecast for " + city + " for Thursday, May 2: morning sunshine " +
		"will give way to clouds by the afternoon. The high will reach " + high + " degrees Celsius, with an overnight low of 14 degrees.\n\n" +
		"Winds will blow from the west at 21 kilometres per hour, with gusts of up to 40 kilometres per hour on exposed ground. " +
		"The chance of rain is " + rain + " percent.\n\nHumidity will be around 45 percent in the afternoon. The UV index will be 5, " +
		"and residents are advised to use sun protection around midday.\n\nLooking ahead, the weather will stay unsettled over the " +
		"next two days, with highs between 22 and 27 degrees. Drivers should expect crosswinds on bridges and elevated roads.\n\n" +
		"Sunrise is at 5:52 a.m. and sunset at 8:16 p.m. The weather desk updates its forecasts every six hours."
}

// at reads a date to the minute or to the second.
func at(s string) time.Time {
	layout := "2006-01-02 15:04"
	if len(s) > len(layout) {
		layout += ":05"
	}
	t, err := time.Parse(layout, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestTemplatedFamilies(t *testing.T) {
	type doc struct {
		title, text string
		date        time.Time
	}
	for _, tc := range []struct {
		name string
		a, b doc
		dup  bool
	}{
		{"the Fed's repurchases of two days are two events",
			doc{"FED ADDS RESERVES VIA CUSTOMER REPURCHASES", repo("NEW YORK, March 3", "1.5", "6-1/8"), at("1987-03-03 11:45")},
			doc{"FED ADDS RESERVES VIA CUSTOMER REPURCHASES", repo("NEW YORK, March 19", "1.5", "6-1/8"), at("1987-03-19 11:45")}, false},
		{"undated items of two days are told apart by their datelines",
			doc{"FED ADDS RESERVES", repo("NEW YORK, March 3", "1.5", "6-1/8"), time.Time{}},
			doc{"FED ADDS RESERVES", repo("NEW YORK, March 19", "1.5", "6-1/8"), time.Time{}}, false},
		{"a story re-sent the next morning under that morning's dateline is the same story",
			doc{"HARBOUR BOARD APPROVES TERMINAL", story("BALTIMORE, March 15"), at("1987-03-15 22:38")},
			doc{"HARBOUR BOARD APPROVES TERMINAL", story("BALTIMORE, March 16"), at("1987-03-16 08:08")}, true},
		{"a re-run that keeps its dateline is the same story whenever it runs",
			doc{"HARBOUR BOARD APPROVES TERMINAL", story("BALTIMORE, March 15"), at("1987-03-15 22:38")},
			doc{"HARBOUR BOARD APPROVES TERMINAL", story("BALTIMORE, March 15"), at("1987-03-29 08:08")}, true},
		{"a re-run marked in its title is the same story",
			doc{"HARBOUR BOARD APPROVES TERMINAL", story("BALTIMORE, March 15"), at("1987-03-15 22:38")},
			doc{"RPT-HARBOUR BOARD APPROVES TERMINAL", story("BALTIMORE, March 29"), at("1987-03-29 08:08")}, true},
		{"a reprint under a new headline is the same story",
			doc{"HARBOUR BOARD APPROVES TERMINAL", story("BALTIMORE, March 15"), at("1987-03-15 10:00")},
			doc{"Baltimore port gets its terminal", story("BALTIMORE, March 15"), at("1987-03-16 12:00")}, true},
		{"dividend notices of two companies are two events",
			doc{"KNIGHT-RIDDER INC <KRN> SETS QUARTERLY", dividend("MIAMI, March 26"), at("1987-03-26 11:55")},
			doc{"COMBUSTION ENGINEERING INC <CSP> REGULAR DIV", dividend("STAMFORD, Conn., March 26"), at("1987-03-26 16:26")}, false},
		{"the same notice under two headlines is one event",
			doc{"KNIGHT-RIDDER INC <KRN> SETS QUARTERLY", dividend("MIAMI, March 26"), at("1987-03-26 11:55")},
			doc{"KNIGHT-RIDDER <KRN> DECLARES QTLY DIV", dividend("MIAMI, March 26"), at("1987-03-26 12:40")}, true},
		{"market reports of two hours are two reports",
			doc{"MIDWEST GRAIN FUTURES 11:10 EDT", grain("280 3/4 UNCH", "284"), at("1987-04-07 11:12")},
			doc{"MIDWEST GRAIN FUTURES 11:31 EDT", grain("281 UP 1/4", "284"), at("1987-04-07 11:34")}, false},
		{"a money-market estimate revised is another estimate",
			doc{"MONEY MARKET SHORTAGE REVISED UP", estimate("750", "700"), at("1987-04-03 10:20")},
			doc{"MONEY MARKET SHORTAGE REVISED UP", estimate("800", "750"), at("1987-04-03 12:17")}, false},
		{"the morning and the afternoon livestock reports are two reports",
			doc{"PLAINS FEEDLOT CATTLE STEADY", livestock("slow", "3,600", "700"), at("1987-04-07 12:45")},
			doc{"PLAINS FEEDLOT CATTLE STEADY", livestock("slow", "6,800", "2,400"), at("1987-04-07 16:41")}, false},
		{"two funds' payouts are two events",
			doc{"NORTHERN FUND SETS PAYOUT", payout("6.1"), at("1987-04-13 12:40")},
			doc{"SOUTHERN FUND SETS PAYOUT", payout("7.1"), at("1987-04-13 12:40")}, false},
		{"a payout written with a fraction and with a decimal is one payout",
			doc{"NORTHERN FUND SETS PAYOUT", payout("17-1/2"), at("1987-04-13 12:40")},
			doc{"NORTHERN FUND SETS PAYOUT", payout("17.5"), at("1987-04-13 13:40")}, true},
		{"a report whose figures a scanner damaged is the same report",
			doc{"PLAINS FEEDLOT CATTLE STEADY", livestock("slow", "3,600", "700"), at("1987-04-07 12:45")},
			doc{"PLAINS FEEDLOT CATTLE STEADY", livestock("slow", "3,6600", "70"), at("1987-04-07 16:41")}, true},
		{"issues of two days two days apart are two events",
			doc{"BANK ISSUES MORE CDS", deposits("TAIPEI, April 27", "7.53", "174.48"), at("1987-04-27 06:47")},
			doc{"BANK ISSUES MORE CDS", deposits("TAIPEI, April 29", "5.68", "180.16"), at("1987-04-29 05:30")}, false},
		{"the Fed's repurchases of the next day, at the same hour, are two events",
			doc{"FED ADDS RESERVES VIA CUSTOMER REPURCHASES", repo("NEW YORK, March 16", "2.0", "6-1/8"), at("1987-03-16 11:45:51")},
			doc{"FED ADDS RESERVES VIA CUSTOMER REPURCHASES", repo("NEW YORK, March 17", "1.5", "6-1/8"), at("1987-03-17 11:45:10")}, false},
		{"a reprint the next day at another hour with a figure changed is the same story",
			doc{"FED ADDS RESERVES VIA CUSTOMER REPURCHASES", repo("NEW YORK, March 16", "2.0", "6-1/8"), at("1987-03-16 11:45")},
			doc{"FED ADDS RESERVES VIA CUSTOMER REPURCHASES", repo("NEW YORK, March 17", "1.5", "6-1/8"), at("1987-03-17 15:10")}, true},
		{"a daily item under its title at its hour with new figures is another day's",
			doc{"BANK ISSUES MORE CDS", issues("TAIPEI, March 23", "worth 4.03 billion dlrs"), at("1987-03-23 05:08")},
			doc{"BANK ISSUES MORE CDS", issues("TAIPEI, March 24", "for 4.96 billion"), at("1987-03-24 05:23")}, false},
		{"hog reports of two towns are two reports",
			doc{"OMAHA HOGS OPEN UP 1.00 DLR", hogs("Omaha, April 7"), at("1987-04-07 10:19")},
			doc{"ST JOSEPH HOGS OPEN UP 1.00 DLR", hogs("St Joseph, April 7"), at("1987-04-07 10:51")}, false},
		{"a dateline's place misspelt is the same place",
			doc{"SOUTHEAST BANKING CORP SETS QUARTERLY", dividend("MAIMI, March 20"), at("1987-03-20 11:40")},
			doc{"SOUTHEAST BANKING DECLARES QTLY DIV", dividend("MIAMI, Fla., March 20"), at("1987-03-20 13:17")}, true},
		{"one fund family's notices, each title naming a fund the other never mentions, are two events",
			doc{"ARDEN MAPLETON SETS MONTHLY PAYOUT", fundNote("Mapleton"), at("1987-04-13 12:40")},
			doc{"ARDEN WESTBROOK SETS MONTHLY PAYOUT", fundNote("Westbrook"), at("1987-04-13 12:41")}, false},
		{"one fund's notice under two headlines is one event",
			doc{"ARDEN MAPLETON SETS MONTHLY PAYOUT", fundNote("Mapleton"), at("1987-04-13 12:40")},
			doc{"ARDEN MAPLETON INSURED DECLARES DIVIDEND", fundNote("Mapleton"), at("1987-04-13 13:10")}, true},
		{"tables of two commodities under one heading are two reports",
			doc{"", nilTrades("KELSO COFFEE OPTION TRADES MORNING - APR 7"), at("1987-04-07 07:35")},
			doc{"", nilTrades("KELSO COCOA OPTION TRADES MORNING - APR 7"), at("1987-04-07 08:20")}, false},
		{"tables of two sessions named at other places of their headings are two reports",
			doc{"", nilTrades("KELSO RUBBER NOON CALL - APR 7 GRADE 20"), at("1987-04-07 04:10")},
			doc{"", nilTrades("KELSO RUBBER CLSG - APR 7"), at("1987-04-07 06:20")}, false},
		{"a titled table whose first line names another hour is another report",
			doc{"CBT SOYBEAN OIL SPREADS", spreads("1000", "0.78"), at("1987-04-07 11:06")},
			doc{"CBT SOYBEAN OIL SPREADS", spreads("1100", "0.80"), at("1987-04-07 12:08")}, false},
		{"a titled table sent again at its hour is the same report",
			doc{"CBT SOYBEAN OIL SPREADS", spreads("1000", "0.78"), at("1987-04-07 11:06")},
			doc{"CBT SOYBEAN OIL SPREADS", spreads("1000", "0.78"), at("1987-04-07 11:30")}, true},
		{"a reprint under a headline of its opening names the goods its text holds",
			doc{"PLAINS FEEDLOT CATTLE STEADY", livestock("slow", "3,600", "700"), at("1987-04-07 12:45")},
			doc{"Slaughter steers were steady and heifers firm in slow", livestock("slow", "3,600", "700"), at("1987-04-07 14:45")}, true},
		{"a price notice whose titles report other prices is two events",
			doc{"TARNWELL RAISES COPPER PRICE 0.50 CT TO 66.00 CTS", priceChange("raising", "66.00"), at("1987-04-07 09:12")},
			doc{"TARNWELL LOWERS COPPER PRICE 0.50 CT TO 65.50 CTS", priceChange("lowering", "65.50"), at("1987-04-07 15:25")}, false},
		{"a price notice whose title's figure a scanner damaged is one event",
			doc{"TARNWELL RAISES COPPER PRICE 0.50 CT TO 66.00 CTS", priceChange("raising", "66.00"), at("1987-04-07 09:12")},
			doc{"TARNWELL RAISES COPPER PRICE 0.50 CT TO 6.00 CTS", priceChange("raising", "66.00"), at("1987-04-07 09:40")}, true},
		{"bulletins of two cities whose names lie past the samples' cut are two reports",
			doc{"Tucson weather: high of 24C on Thursday", forecast("Tucson", "24", "30"), at("2024-05-02 06:00")},
			doc{"Raleigh weather: high of 24C on Thursday", forecast("Raleigh", "24", "35"), at("2024-05-02 06:10")}, false},
		{"a city's bulletin sent again is one report",
			doc{"Tucson weather: high of 24C on Thursday", forecast("Tucson", "24", "30"), at("2024-05-02 06:00")},
			doc{"Tucson weather: high of 24C on Thursday", forecast("Tucson", "24", "30"), at("2024-05-02 06:40")}, true},
		{"Polish items of two days are two events",
			doc{"", "WARSZAWA, 3 marca (PAP) - Narodowy Bank Polski ustalił kurs średni złotego wobec dolara na poziomie, jaki obowiązywał wczoraj, podał bank w komunikacie.", time.Time{}},
			doc{"", "WARSZAWA, 19 marca (PAP) - Narodowy Bank Polski ustalił kurs średni złotego wobec dolara na poziomie, jaki obowiązywał wczoraj, podał bank w komunikacie.", time.Time{}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			docs := []core.Document{{ID: "a", Title: tc.a.title, Text: tc.a.text, Date: tc.a.date},
				{ID: "b", Title: tc.b.title, Text: tc.b.text, Date: tc.b.date}}
			got := enginetest.Batch(t, Spec, Defaults(), docs)
			if p := got["a~b"]; (p.Label == core.Duplicate) != tc.dup {
				t.Errorf("label %q, want duplicate %v (evidence %+v)", p.Label, tc.dup, p.Evidence)
			}
			off := Defaults()
			off.DateApart, off.Names, off.Template, off.Slots = 0, false, false, false
			if p := enginetest.Batch(t, Spec, off, docs)["a~b"]; p.Label != core.Duplicate {
				t.Errorf("without the family rules: label %q, want duplicate (the case would test nothing)", p.Label)
			}
		})
	}
}

// rateDecision is a central bank's rate decision: the update of a story
// sends it with its figures revised.
func rateDecision(move, dollar, jobless string) string {
	return "WELLINGTON, March 3 (Reuters) - New Zealand's central bank held its official cash rate steady at 5.50 percent on " +
		"Wednesday, as expected, but signalled that borrowing costs would stay high for longer as inflation proved stubborn. " +
		"Governor Adrian Orr said the committee remained confident that inflation would return to its target band of 1 to 3 " +
		"percent in the second half of next year. The Reserve Bank of New Zealand has raised rates by " + move + " basis points " +
		"since October 2021, its most aggressive tightening cycle since the official cash rate was introduced in 1999. " +
		"Economists polled by Reuters had unanimously expected the bank to hold. The New Zealand dollar rose " + dollar +
		" after the decision, as traders pared bets on a cut later this year. Analysts said the tone of the statement was more " +
		"hawkish than the market had priced. Housing market data released last week showed prices falling for a third straight " +
		"month, while unemployment rose to " + jobless + " percent in the fourth quarter. The bank's next review is scheduled for May 22."
}

// matchReport is a football result: a template whose slots are the teams
// and the scorer, the title naming the teams too.
func matchReport(home, away, scorer string) string {
	return home + " won 2-1 against " + away + " at home on Saturday afternoon in front of a crowd of 41,000. The visitors took " +
		"the lead after 20 minutes through a header from a corner, but the hosts equalised before half-time with a low shot from " +
		"the edge of the area. The winning goal came ten minutes from the end, a volley from " + scorer + " after the goalkeeper " +
		"had parried a long-range effort. The result lifts the home side to fourth in the table, two points behind the leaders, " +
		"while the visitors remain in the bottom half after a third defeat in four games. The manager said afterwards that he " +
		"was pleased with the character his players had shown after falling behind, and that the squad would now prepare for " +
		"the cup tie on Wednesday evening."
}

// TestWordShinglesReadTheTitle: with --shingle-unit words the template
// rules read the title as with character shingles: an update marked
// "UPDATE 1-" whose figures were revised is the story sent again, a
// duplicate exempt from the family rules; two results of one template
// whose titles name other teams are two results (--names=false, so that
// the slots alone tell them). Words read nothing of the title: the update
// was similar, its mark unread, and the results a duplicate.
func TestWordShinglesReadTheTitle(t *testing.T) {
	words := Defaults()
	words.ShingleUnit = Words
	noNames := words
	noNames.Names = false
	for _, tc := range []struct {
		name  string
		o     Options
		a, b  core.Document
		dup   bool
		rerun bool
	}{
		{"an update marked in its title", words,
			core.Document{ID: "a", Title: "NZ central bank holds rates", Text: rateDecision("525", "0.4 percent to $0.6120", "4.0"),
				Date: at("2024-03-03 02:00")},
			core.Document{ID: "b", Title: "UPDATE 1-NZ central bank holds rates", Text: rateDecision("500", "0.6 percent to $0.6135", "4.1"),
				Date: at("2024-03-03 03:00")}, true, true},
		{"two results whose titles name other teams", noNames,
			core.Document{ID: "a", Title: "Arsenal beat Chelsea 2-1", Text: matchReport("Arsenal", "Chelsea", "Martinelli"),
				Date: at("2024-03-02 18:00")},
			core.Document{ID: "b", Title: "Everton beat Fulham 2-1", Text: matchReport("Everton", "Fulham", "Calvert-Lewin"),
				Date: at("2024-03-02 18:00")}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			chars := tc.o
			chars.ShingleUnit = Chars
			for _, o := range []Options{chars, tc.o} {
				p := enginetest.Batch(t, Spec, o, []core.Document{tc.a, tc.b})["a~b"]
				if (p.Label == core.Duplicate) != tc.dup || p.Label == "" {
					t.Errorf("--shingle-unit %s: label %q, want duplicate %v (evidence %+v)", o.ShingleUnit, p.Label, tc.dup, p.Evidence)
				}
				if ev, ok := p.Evidence.(Evidence); !ok || ev.Rerun != tc.rerun {
					t.Errorf("--shingle-unit %s: evidence %+v, want rerun %v", o.ShingleUnit, p.Evidence, tc.rerun)
				}
			}
		})
	}
}

// TestWordShinglesReadNames: with --shingle-unit words the names rule
// reads names as with character shingles, each looked up in the other's
// filter of its words: two bulletins alike but for the city they forecast
// are two reports, a copy of one with a line added stays its duplicate.
// Words kept no names: the bulletins were duplicates (as with --names=false).
func TestWordShinglesReadNames(t *testing.T) {
	words := Defaults()
	words.ShingleUnit = Words
	noNames := words
	noNames.Names = false
	bulletin := func(id, city, extra string) core.Document {
		return core.Document{ID: id, Title: city + " weather: high of 24C on Thursday", Text: forecast(city, "24", "35") + extra,
			Date: at("2024-05-02 06:00")}
	}
	docs := []core.Document{bulletin("a", "Seattle", ""), bulletin("b", "Baltimore", ""), bulletin("c", "Seattle", " Stay safe.")}
	for _, tc := range []struct {
		o           Options
		cities      core.Label
		copyOfFirst core.Label
	}{{words, core.Similar, core.Duplicate}, {noNames, core.Duplicate, core.Duplicate}} {
		got := enginetest.Batch(t, Spec, tc.o, docs)
		if p := got["a~b"]; p.Label != tc.cities {
			t.Errorf("--names=%v: Seattle and Baltimore are %q, want %q (evidence %+v)", tc.o.Names, p.Label, tc.cities, p.Evidence)
		}
		if p := got["a~c"]; p.Label != tc.copyOfFirst {
			t.Errorf("--names=%v: Seattle and its copy are %q, want %q (evidence %+v)", tc.o.Names, p.Label, tc.copyOfFirst, p.Evidence)
		}
	}
}

// TestTablesOfStations: two days' rainfall of one table of stations, two
// stations with rain one day ("33.0 MILLIMETRES", "5.0 MM") and NIL the
// next, are two reports, similar, in words and in characters; a copy of
// one, re-sent with a word changed and its units spelled otherwise, stays
// its duplicate. The options of an index of format 11, which read no
// figure at a station of NIL and a unit as the word after its figure,
// make the two days the duplicate that format made of them.
func TestTablesOfStations(t *testing.T) {
	wet := enginetest.RainfallReadings(map[int]string{9: "33.0 MILLIMETRES", 10: "5.0 MM"})
	a, b := enginetest.Rainfall(7, wet...), enginetest.Rainfall(9, enginetest.RainfallReadings(nil)...)
	c := enginetest.Rainfall(7, enginetest.RainfallReadings(map[int]string{9: "33.0 MM", 10: "5.0 MILLIMETRES"})...)
	c.ID, c.Text = "rain-7-again", strings.Replace(c.Text, "THE STATE WEATHER OFFICE SAID", "STATE WEATHER OFFICIALS SAID", 1)
	c.Date = c.Date.Add(20 * time.Minute)
	words := Defaults()
	words.ShingleUnit = Words
	for _, tc := range []struct {
		name      string
		o         Options
		format    int // of an index whose options make it (Spec's Older), 0 for the current one
		days      core.Label
		copyOfOne core.Label
	}{
		{"defaults", Defaults(), 0, core.Similar, core.Duplicate},
		{"word shingles", words, 0, core.Similar, core.Duplicate},
		{"format 11", Defaults(), 11, core.Duplicate, core.Duplicate},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			if tc.format != 0 {
				c, ok := older(tc.format, o)
				if !ok {
					t.Fatalf("Spec's Older refuses format %d", tc.format)
				}
				o = c.(Options)
			}
			got := enginetest.Batch(t, Spec, o, []core.Document{a, b, c})
			if p := got[a.ID+"~"+b.ID]; p.Label != tc.days {
				t.Errorf("the rainfall of April 7 and 9 is %q, want %q (evidence %+v)", p.Label, tc.days, p.Evidence)
			}
			if p := got[a.ID+"~"+c.ID]; p.Label != tc.copyOfOne {
				t.Errorf("April 7's rainfall and its copy are %q, want %q (evidence %+v)", p.Label, tc.copyOfOne, p.Evidence)
			}
		})
	}
}

// TestColumnsAndLabelsOlderFormats: an hour's table of one column and the
// next hour's, extended by a column ("Silver     8000" and "Silver
// 8000  13000"), and two days' rate sheets whose rows each open with their
// label ("5-14 days   5.65 pct   5.60 pct"), are two reports, similar, as
// the current format reads them (figures.Scanner.LastColumn, RowLabels);
// the options of an index of format 11 or 12, which read such figures in
// their words' places, make each pair the duplicate those formats made of
// it.
func TestColumnsAndLabelsOlderFormats(t *testing.T) {
	at := time.Date(1987, 4, 8, 15, 0, 0, 0, time.UTC)
	volumes := func(id string, rows string, hour int) core.Document {
		return core.Document{ID: id, Title: "COMEX ESTIMATED VOLUMES", Date: at.Add(time.Duration(hour) * time.Hour),
			Text: "NEW YORK, April 8 - The following are the estimated volumes traded on the New York Commodity " +
				"Exchange, in lots, the exchange said in its hourly report to members and clients.\n" + rows + "Reuter"}
	}
	one := " Silver       8000\n Copper        900\n Gold         4500\n Aluminum      120\n Platinum      640\n"
	two := " Silver       8000  13000\n Copper        900   1700\n Gold         4500   8000\n Aluminum      120    310\n Platinum      640    990\n"
	sheet := func(id string, rates [4]string, day int) core.Document {
		text := "WASHINGTON, April 7 - The Federal Home Loan Bank Board set the following discount note rates for " +
			"its members, effective today, with the rates of the previous session beside them.\n"
		for i, m := range []string{"5-14 days", "15-44 days", "45-89 days", "90-180 days"} {
			text += "    " + m + "   " + rates[i] + " pct   " + rates[(i+1)%4] + " pct\n"
		}
		return core.Document{ID: id, Title: "FHLBB SETS DISCOUNT NOTE RATES", Date: at.Add(time.Duration(24*day) * time.Hour),
			Text: text + "Reuter"}
	}
	docs := []core.Document{volumes("vol-10", one, 0), volumes("vol-11", two, 1),
		sheet("fhlbb-7", [4]string{"5.65", "5.70", "5.75", "5.80"}, 0), sheet("fhlbb-8", [4]string{"5.85", "5.90", "5.95", "6.00"}, 1)}
	for _, tc := range []struct {
		name   string
		format int // of an index whose options make it (Spec's Older), 0 for the current one
		want   core.Label
	}{
		{"defaults", 0, core.Similar},
		{"format 11", 11, core.Duplicate},
		{"format 12", 12, core.Duplicate},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := Defaults()
			if tc.format != 0 {
				c, ok := older(tc.format, o)
				if !ok {
					t.Fatalf("Spec's Older refuses format %d", tc.format)
				}
				o = c.(Options)
			}
			got := enginetest.Batch(t, Spec, o, docs)
			for _, pair := range []string{"vol-10~vol-11", "fhlbb-7~fhlbb-8"} {
				if p := got[pair]; p.Label != tc.want {
					t.Errorf("%s is %q, want %q (evidence %+v)", pair, p.Label, tc.want, p.Evidence)
				}
			}
		})
	}
}
