package templates

import "testing"

// TestHeadingsDiffer pins the headings' times and commodities compared
// wherever they stand: two headings that name none of each other's is two
// reports; a copy whose headline is made of its opening names what the
// other text holds.
func TestHeadingsDiffer(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		titleA, a, titleB, b string
		times, goods         bool
	}{
		{"two sessions at other places of the heading",
			"", "KELSO RUBBER NOON CALL - APR 7\n\nMay 194.50 196.50 Jun 195.50 197.50",
			"", "KELSO RUBBER CLSG - APR 7\n\nMay 194.50 196.50 Jun 195.50 197.50", true, false},
		{"a session in one title, another in the other",
			"KELSO WHEAT MOSTLY UP AT MIDDAY", "Spring wheat futures traded two cents higher as firm demand lent support.",
			"KELSO WHEAT CLOSES HIGHER", "Spring wheat futures ended two cents higher as firm demand lent support.", true, false},
		{"a table's heading names its hour as a bare number",
			"", "SINGAPORE RUBBER 1045 SLIGHTLY STEADIER - APRIL 8\n\nNO 1 RSS MAY 196.00 196.50",
			"", "SINGAPORE RUBBER 1115 QUIET - APRIL 8\n\nNO 1 RSS MAY 196.00 196.50", true, false},
		{"a title's bare number is no hour",
			"KELSO TRUST BUYS 1045 SHARES", "The trust said it bought the shares from a fund.",
			"KELSO TRUST TAKES 1115 SHARES FROM FUND", "The trust said it bought the shares from a fund.", false, false},
		{"two commodities",
			"", "KELSO COFFEE OPTION TRADES - APR 7\n\nBusiness nil.",
			"", "KELSO COCOA OPTION TRADES - APR 7\n\nBusiness nil.", false, true},
		{"one commodity in two forms",
			"KELSO SOYBEAN SPREADS", "Spreads were steady in light trade.",
			"KELSO SOYBEANS SPREADS", "Spreads were steady in light trade.", false, false},
		{"a title's commodity the other text holds",
			"PLAINS CATTLE STEADY", "Slaughter steers were steady in slow trade, the agency said.",
			"Slaughter steers were steady in slow trade", "Slaughter steers were steady in slow trade, the agency said.", false, false},
		{"a title's session the other text holds",
			"OILSEEDS CLOSE MIXED", "Oilseeds traded quietly this afternoon, dealers said.",
			"Oilseeds traded quietly this afternoon", "Oilseeds traded quietly this afternoon, dealers said.", false, false},
		{"early in the session, and at midsession",
			"KELSO CORN FUTURES TRADE QUIETLY MIXED EARLY", "Corn futures held gains of one cent in moderately light trade.",
			"KELSO CORN FUTURES HOLD GAINS AT MIDSESSION", "Corn futures held gains of two cents in moderately light trade.", true, false},
		{"early and late trading",
			"KELSO STOCKS LOWER IN EARLY TRADING", "Stocks fell as the dollar eased, dealers said.",
			"KELSO STOCKS LOWER IN LATE TRADING", "Stocks fell as the dollar eased, dealers said.", true, false},
		{"one heading without a time",
			"", "KELSO RUBBER NOON CALL - APR 7\n\nMay 194.50 196.50",
			"", "KELSO RUBBER - APR 7\n\nMay 194.50 196.50", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := contextOf(tc.titleA, tc.a), contextOf(tc.titleB, tc.b)
			times, goods := headingsDiffer(a.Fills, b.Fills)
			if times != tc.times || goods != tc.goods {
				t.Errorf("times %v, goods %v; want %v, %v (fills %x and %x)", times, goods, tc.times, tc.goods, a.Fills, b.Fills)
			}
			e := Compare(&a, &b, Sample{}, Sample{})
			Recheck(&a, &b, Sample{}, Sample{}, &e)
			r := Rules{Slots: true}
			if got, want := r.Veto(&e) == Slots, tc.times || tc.goods; got != want {
				t.Errorf("vetoed %v, want %v (evidence %+v)", got, want, e)
			}
		})
	}
}

// TestSubhead pins the first line of a titled text read as its heading: a
// short line of its own, not a sentence's first line.
func TestSubhead(t *testing.T) {
	for text, want := range map[string]int{
		"APRIL 7 - 1000 - hrs cdt\n\nMONTHS LAST DIFFERENCE":                               24,
		"APRIL 7 - 1000 - hrs cdt\n  May/Jul 0.34 under":                                   24,
		"APRIL 7 - 1000 - hrs cdt":                                                         0, // nothing follows
		"The exchange said trading\nwould resume at 1000.":                                 0, // a hard-wrapped sentence
		"NEW YORK, April 7 - The Federal Reserve said today it had added reserves\n\nMore": 0,
	} {
		if got := subheadEnd(text); got != want {
			t.Errorf("subheadEnd(%q) = %d, want %d", text, got, want)
		}
	}
}

// TestHoursKeepTheirDigits: two bare hours whose shapes are one ("1000"
// and "1100" drop a repeated digit alike) are two hours.
func TestHoursKeepTheirDigits(t *testing.T) {
	a := contextOf("CBT SOYBEAN OIL SPREADS", "APRIL 7 - 1000 - hrs cdt\n\nMay/Jul 0.34 under 0.35 under")
	b := contextOf("CBT SOYBEAN OIL SPREADS", "APRIL 7 - 1100 - hrs cdt\n\nMay/Jul 0.34 under 0.35 under")
	if e := Compare(&a, &b, Sample{}, Sample{}); !e.ReportTime {
		t.Errorf("1000 and 1100 in the headings: no report time (fills %x and %x)", a.Fills, b.Fills)
	}
}

// TestForeignTags: two companies' notices of one template, each under a
// title with its ticker (Reuters' "<NFO>") and a name the other document
// never mentions, are not duplicates, however alike their texts
// (ForeignTags, regression: "NORTHFIELD OIL <NFO> RAISES CRUDE POSTINGS"
// and "BAYSHORE REFINING <BAYR> ..." were a duplicate with foreign title
// names [0 1]). A copy whose scanner damaged its ticker keeps its title's
// names ("<TFI>" for "<TEI>", "<PANTRY ING>"), and so does a story
// naming one company more in its text; they stay duplicates. So does a
// pair whose one title names only what the other document holds (foreign
// title names [0 1]: one story under its company's title, another naming
// that company too under another's), however foreign its tickers: each
// title must name what the other never mentions (titlesApart).
func TestForeignTags(t *testing.T) {
	s := Scanner{Shingle: 6, Folded: true, Fills: true, WordFilter: true, ShortNames: true, Unicode: true,
		Measures: true, Languages: true}
	posting := func(company, said string) string {
		return said + " said it raised the contract price it will pay for crude oil 50 cts a barrel, effective " +
			"today. The increase brings " + company + " posted price for West Texas Intermediate to 21.50 dlrs."
	}
	audit := "OKLAHOMA CITY, March 30 - Texas International Inc said it has received an unqualified audit opinion " +
		"from auditor Arthur Andersen and Co, which the company had sought since its bank talks."
	for _, tc := range []struct {
		name                 string
		titleA, a, titleB, b string
		tags                 [2]int
		oneTitleHeld         bool // foreign title names [0 n], n > 0: the case titlesApart pins
	}{
		{"two companies' postings", "NORTHFIELD OIL <NFO> RAISES CRUDE POSTINGS",
			posting("Northfield's", "Northfield Oil Co"), "BAYSHORE REFINING <BAYR> RAISES CRUDE POSTINGS",
			posting("the company's", "Bayshore Refining"), [2]int{1, 1}, false},
		{"a copy whose ticker a scanner damaged", "TEXAS INTERNATIONAL <TEI> HAS UNQUALIFIED AUDIT", audit,
			"TEXAS INTERNATIONAL <TFI> HAS UNQUALIFIED AUDIT", audit, [2]int{0, 0}, false},
		{"a copy whose tag a scanner damaged", "<PANTRY INC> IN TALKS ON BEING ACQUIRED",
			"Privately-held Pantry Inc said it has engaged Alex. Brown and Sons Inc <ABSB> to explore a sale.",
			"<PANTRY ING> IN TALKS ON BEING ACQUIRED",
			"Privately-held Pantry Inc said it has engaged Alex. Brown and Sons Inc <ABSB> to explore a sale.", [2]int{0, 0}, false},
		{"one company's notice under its ticker twice", "NORTHFIELD OIL <NFO> RAISES CRUDE POSTINGS",
			posting("Northfield's", "Northfield Oil Co"), "NORTHFIELD <NFO> LIFTS CRUDE PRICES",
			posting("Northfield's", "Northfield Oil Co"), [2]int{0, 0}, false},
		{"one title's names all held by the other document", "NORTHFIELD OIL <NFO> RAISES CRUDE POSTINGS",
			posting("the company's", "Refiner Northfield Oil Co"), "BAYSHORE REFINING <BAYR> RAISES CRUDE POSTINGS",
			posting("Northfield Oil Co's", "Refiner Bayshore Refining"), [2]int{0, 0}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := scanWith(s, tc.titleA, tc.a), scanWith(s, tc.titleB, tc.b)
			e := Compare(&a, &b, Sample{}, Sample{})
			Recheck(&a, &b, Sample{}, Sample{}, &e)
			if tc.tags != [2]int{} && e.ForeignTitleNames[0] > 0 && e.ForeignTitleNames[1] > 0 {
				t.Fatalf("foreign title names %v: the case tests nothing", e.ForeignTitleNames)
			}
			if tc.oneTitleHeld && (e.ForeignTitleNames[0] != 0 || e.ForeignTitleNames[1] == 0) {
				t.Fatalf("foreign title names %v, want [0 n]: the case tests nothing", e.ForeignTitleNames)
			}
			if e.ForeignTags != tc.tags {
				t.Errorf("foreign tags %v, want %v (evidence %+v)", e.ForeignTags, tc.tags, e)
			}
			r := Rules{Names: true}
			if got, want := r.Veto(&e), map[bool]Reason{true: Names, false: None}[tc.tags == [2]int{1, 1}]; got != want {
				t.Errorf("veto %q, want %q (evidence %+v)", got, want, e)
			}
		})
	}
}
