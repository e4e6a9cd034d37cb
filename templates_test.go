package neardup_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/flagopts"
	"github.com/neardup/neardup/method/cosine"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/sentences"
	"github.com/neardup/neardup/method/simhash"
)

// warrants is a made-up eurobond notice of one issuer: a template whose
// slots are the issuer, its guarantor and its figures.
func warrants(issuer, guarantor, amount string) string {
	return "LONDON, June 3 - " + issuer + " is issuing a " + amount + " mln dlr equity warrant eurobond due June 30, 1999 " +
		"paying an indicated coupon of 2-1/4 pct and priced at par, lead manager Harlow Securities said.\n\n" +
		"    The issue is guaranteed by " + guarantor + " and is available in denominations of 5,000 dlrs. The selling " +
		"concession is 1-1/2 pct while management and underwriting combined pays 3/4 pct. The payment date is June 30 " +
		"and listing will be in Luxembourg.\n\n    Final terms will be fixed on June 10. The warrants are exercisable from July 14 " +
		"until the bond matures, and each entitles its holder to shares at a premium to be set with the final terms. " +
		"The bonds will be issued in bearer form, and the lead manager said demand from investors in Europe and Asia " +
		"had been strong since the market for equity warrant issues reopened after the spring holidays."
}

// TestTemplateFilledWithOtherNames: two notices of one template filled
// with other names are not duplicates, in a batch and in an index, for
// each method that applies the template rules; a notice re-sent with one
// figure corrected stays a duplicate of its first sending. --names is
// off: the title names each issuer's notice holds ("Marine", "Foods")
// tell them apart too, and the case is --slots'.
func TestTemplateFilledWithOtherNames(t *testing.T) {
	day := time.Date(2024, 6, 3, 9, 0, 0, 0, time.UTC)
	docs := []neardup.Document{
		{ID: "alpha", Title: "ORVELL MARINE ISSUES WARRANT BOND", Text: warrants("Orvell Marine Kogyo", "Tessaly Trust Bank", "80"), Date: day},
		{ID: "beta", Title: "CASTELLAN FOODS ISSUES WARRANT BOND", Text: warrants("Castellan Foods Holdings", "Tessaly Trust Bank", "60"), Date: day.Add(time.Hour)},
		{ID: "alpha-again", Title: "ORVELL MARINE ISSUES WARRANT BOND", Text: warrants("Orvell Marine Kogyo", "Tessaly Trust Bank", "85"), Date: day.Add(2 * time.Hour)},
	}
	off := func(o neardup.MethodOptions) neardup.MethodOptions {
		switch o := o.(type) {
		case minhash.Options:
			o.Slots = false
			return o
		case simhash.Options:
			o.Slots = false
			return o
		}
		panic("no such method")
	}
	mh, sh := minhash.Defaults(), simhash.Defaults()
	mh.Slots, sh.Slots = true, true // --slots, on by default (docs/wire-rules.md)
	mh.Names, sh.Names = false, false
	for _, o := range []neardup.MethodOptions{mh, sh} {
		t.Run(o.Method(), func(t *testing.T) {
			labels := func(o neardup.MethodOptions) map[string]neardup.Label {
				r, err := neardup.Dedup(t.Context(), docs, neardup.Options{Method: o})
				if err != nil {
					t.Fatal(err)
				}
				got := map[string]neardup.Label{}
				for _, p := range r.Pairs {
					got[p.A+"~"+p.B] = p.Label
				}
				return got
			}
			batch := labels(o)
			if batch["alpha~beta"] == neardup.Duplicate {
				t.Errorf("batch: the two issuers' notices are duplicates")
			}
			if batch["alpha~alpha-again"] != neardup.Duplicate {
				t.Errorf("batch: the notice re-sent is %q, want duplicate", batch["alpha~alpha-again"])
			}
			if labels(off(o))["alpha~beta"] != neardup.Duplicate {
				t.Fatalf("without --slots the two issuers' notices are not duplicates: the case tests nothing")
			}

			x, err := neardup.Open(t.Context(), filepath.Join(t.TempDir(), "x.db"), neardup.Options{Method: o})
			if err != nil {
				t.Fatal(err)
			}
			defer x.Close()
			for i, d := range docs {
				ms, err := x.Add(t.Context(), d)
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range ms[0].Pairs {
					dup := p.Label == neardup.Duplicate
					if d.ID == "beta" && dup {
						t.Errorf("index: beta is a duplicate of %s", p.A)
					}
					if i == 2 && p.A == "alpha" && !dup {
						t.Errorf("index: the notice re-sent is %q, want duplicate", p.Label)
					}
				}
			}
		})
	}
}

// bulletin is a made-up weather bulletin of a city on a day: a template
// whose slots are the city, the day and the figures.
func bulletin(city string, day time.Time, high, rain string) neardup.Document {
	date := day.Format("January 2")
	text := strings.ToUpper(city) + ", " + date + " (Weather Desk) - The forecast for " + city + " for " + day.Format("Monday") +
		": morning sunshine will give way to clouds by the afternoon. The high will reach " + high +
		" degrees Celsius, with an overnight low of 14 degrees.\n\n" +
		"Winds will blow from the west at 21 kilometres per hour, with gusts of up to 40 kilometres per hour on exposed ground. " +
		"The chance of rain is " + rain + " percent.\n\nHumidity will be around 45 percent in the afternoon. The UV index will be 5, " +
		"and residents are advised to use sun protection around midday.\n\nLooking ahead, the weather will stay unsettled over the " +
		"next two days, with highs between 22 and 27 degrees. Drivers should expect crosswinds on bridges and elevated roads.\n\n" +
		"Pollen counts will be moderate, with grass pollen at 31 grains per cubic metre. Visibility will be good at 18 kilometres. " +
		"The sea temperature off the coast is 17 degrees.\n\nSunrise is at 5:52 a.m. and sunset at 8:16 p.m. " +
		"The weather desk updates its forecasts every six hours."
	return neardup.Document{ID: city + day.Format("-Jan2"), Title: city + " weather: high of " + high + "C on " + day.Format("Monday"),
		Text: text, Date: day.Add(6 * time.Hour)}
}

// TestTemplatedBulletinsAreNotDuplicates: two bulletins of one template,
// alike but for the city and two figures, or for the day (its dateline,
// dated a day later at the same hour) and two figures, are not
// duplicates for any method that applies the template rules, in a batch
// and in an index reopened between the two (the earlier document's
// context read back from the store); a copy of a bulletin, lightly
// edited under a new headline with a line of boilerplate added, stays a
// duplicate. sentences and cosine, which marked both pairs of bulletins
// duplicates, apply the rules as minhash and simhash do.
func TestTemplatedBulletinsAreNotDuplicates(t *testing.T) {
	may2 := time.Date(2024, 5, 2, 0, 0, 0, 0, time.UTC)
	tucson := bulletin("Tucson", may2, "24", "30")
	copied := tucson
	copied.ID, copied.Title = "copy", "Clouds to follow morning sun in Tucson"
	copied.Text = strings.Replace(copied.Text, "elevated roads", "raised roads", 1) +
		"\n\nFollow the Weather Desk for updates through the day and sign up for our morning newsletter."
	copied.Date = copied.Date.Add(2 * time.Hour)
	for _, tc := range []struct {
		name string
		a, b neardup.Document
		dup  bool
	}{
		{"another city", tucson, bulletin("Raleigh", may2, "26", "35"), false},
		{"another day", tucson, bulletin("Tucson", may2.AddDate(0, 0, 1), "26", "35"), false},
		{"a copy", tucson, copied, true},
	} {
		for _, o := range []neardup.MethodOptions{minhash.Defaults(), simhash.Defaults(), sentences.Defaults(), cosine.Defaults()} {
			t.Run(tc.name+"/"+o.Method(), func(t *testing.T) {
				batch := labelOf(t, []neardup.Document{tc.a, tc.b}, o)
				db := filepath.Join(t.TempDir(), "x.db")
				var index neardup.Label
				for _, d := range []neardup.Document{tc.a, tc.b} {
					x, err := neardup.Open(t.Context(), db, neardup.Options{Method: o})
					if err != nil {
						t.Fatal(err)
					}
					ms, err := x.Add(t.Context(), d)
					x.Close()
					if err != nil {
						t.Fatal(err)
					}
					for _, p := range ms[0].Pairs {
						index = p.Label
					}
				}
				if !tc.dup && labelOf(t, []neardup.Document{tc.a, tc.b}, rulesOff(t, o)) != neardup.Duplicate {
					t.Fatalf("without the template rules %s and %s are not duplicates: the case tests nothing", tc.a.ID, tc.b.ID)
				}
				if got := batch == neardup.Duplicate; got != tc.dup {
					t.Errorf("batch: %s and %s are %q, want duplicate %v", tc.a.ID, tc.b.ID, batch, tc.dup)
				}
				if got := index == neardup.Duplicate; got != tc.dup {
					t.Errorf("index: %s and %s are %q, want duplicate %v", tc.a.ID, tc.b.ID, index, tc.dup)
				}
			})
		}
	}
}

// townForecast is a town's weather forecast under a title naming it, no
// dateline: a template whose one slot is the town (the reviewer's
// forecasts of Leeds, Derby, Sheffield and Brighton).
func townForecast(town string) neardup.Document {
	text := "The forecast for " + town + " on Friday: a cloudy start with outbreaks of rain spreading from the west during the " +
		"morning, becoming heavy at times in the afternoon. Highs of 18 degrees, lows of 9 degrees overnight. Winds will be fresh " +
		"to strong from the southwest, gusting to 40 miles per hour on exposed coasts. The rain will clear eastwards during the " +
		"evening, leaving clear spells and a few showers. The outlook for the weekend is drier and brighter, although it will feel " +
		"cooler in the brisk northerly wind, and there is a risk of frost in rural areas on Sunday night."
	return neardup.Document{ID: town, Title: town + " weather forecast", Text: text, Date: time.Date(2024, 6, 7, 5, 0, 0, 0, time.UTC)}
}

// quakeReport is a report of an earthquake off a place: a template whose
// one slot is the place, named in the title and once in the text.
func quakeReport(place string) neardup.Document {
	text := "A strong earthquake of magnitude 6.1 struck early on Tuesday off the coast of " + place + ", the national " +
		"seismology agency said, shaking buildings and sending residents into the streets. The quake hit at a depth of 10 " +
		"kilometres, about 40 kilometres from the nearest town, and was followed by several aftershocks. There were no immediate " +
		"reports of casualties or serious damage, officials said, though power was cut to some districts and landslides blocked " +
		"two roads. No tsunami warning was issued. Emergency teams were sent to check bridges and schools, and classes were " +
		"suspended for the day as a precaution. The region sits on the Pacific Ring of Fire, an arc of volcanoes and fault lines " +
		"where earthquakes are frequent."
	return neardup.Document{ID: place, Title: "Strong earthquake off " + place, Text: text, Date: time.Date(2024, 6, 4, 3, 0, 0, 0, time.UTC)}
}

// TestShortNamesTellTemplatesApart: reports of one template for two
// places, named in the title and once in the text, are not duplicates for
// any method that applies the template rules, in a batch and in an index,
// whatever the lengths of the places' names: a title name shorter than a
// character shingle (six) is a name, looked up among the other document's
// words. Forecasts of Leeds and Derby were a duplicate at Jaccard 0.96 with
// no name foreign, Leeds and Sheffield one with foreign title names [0 1],
// and the four forecasts one cluster; earthquakes off Fiji and Peru, or
// off Java and Hokkaido, duplicates. A forecast copied under another
// headline stays a duplicate.
func TestShortNamesTellTemplatesApart(t *testing.T) {
	copied := townForecast("Leeds")
	copied.ID, copied.Title = "copy", "Wet start to Friday in the north"
	copied.Text = strings.Replace(copied.Text, "brisk northerly wind", "brisk north wind", 1)
	for _, tc := range []struct {
		name string
		a, b neardup.Document
		dup  bool
	}{
		{"two towns of short names", townForecast("Leeds"), townForecast("Derby"), false},
		{"a short name and a long one", townForecast("Derby"), townForecast("Brighton"), false},
		{"two places of four letters", quakeReport("Fiji"), quakeReport("Peru"), false},
		{"a place of four letters and one of eight", quakeReport("Java"), quakeReport("Hokkaido"), false},
		{"a copy under another headline", townForecast("Leeds"), copied, true},
	} {
		for _, o := range []neardup.MethodOptions{minhash.Defaults(), simhash.Defaults(), sentences.Defaults(), cosine.Defaults()} {
			t.Run(tc.name+"/"+o.Method(), func(t *testing.T) {
				if labelOf(t, []neardup.Document{tc.a, tc.b}, rulesOff(t, o)) != neardup.Duplicate {
					t.Skipf("without the template rules %s and %s are no duplicate of %s: nothing to test", tc.a.ID, tc.b.ID, o.Method())
				}
				batch := labelOf(t, []neardup.Document{tc.a, tc.b}, o)
				db := filepath.Join(t.TempDir(), "x.db")
				var index neardup.Label
				for _, d := range []neardup.Document{tc.a, tc.b} {
					x, err := neardup.Open(t.Context(), db, neardup.Options{Method: o})
					if err != nil {
						t.Fatal(err)
					}
					ms, err := x.Add(t.Context(), d)
					x.Close()
					if err != nil {
						t.Fatal(err)
					}
					for _, p := range ms[0].Pairs {
						index = p.Label
					}
				}
				if got := batch == neardup.Duplicate; got != tc.dup {
					t.Errorf("batch: %s and %s are %q, want duplicate %v", tc.a.ID, tc.b.ID, batch, tc.dup)
				}
				if got := index == neardup.Duplicate; got != tc.dup {
					t.Errorf("index: %s and %s are %q, want duplicate %v", tc.a.ID, tc.b.ID, index, tc.dup)
				}
			})
		}
	}
}

// TestTemplateRefilledInEveryScript: a notice filled in twice from one
// template, other figures in the same places, is no duplicate in any
// script, for any method that applies the template rules, in a batch and
// in an index: the places of a figure are the words of any script around
// it (two letters of Chinese), and digits of other scripts are figures.
// The Russian and Chinese bridge closures of two weeks ("с 3 по 10 мая",
// "5月3日至5月10日") were duplicates with no places, every figure of a line
// in one place filled twice and left out, as the English ones were not;
// an Arabic notice in Arabic-Indic or Persian digits had no figures at
// all, a duplicate with its three figures changed. A copy stays one,
// whatever digits it writes its figures in.
func TestTemplateRefilledInEveryScript(t *testing.T) {
	notice := func(lang string, zero rune, week int, figures ...int) neardup.Document {
		d := enginetest.Notice(lang, zero, week, figures...)
		d.ID = fmt.Sprintf("%s-%c-%d", lang, zero, week)
		return d
	}
	copied := notice("ru", '0', 0, 3, 10)
	copied.ID, copied.Text = "ru-copy", strings.Replace(copied.Text, "кольцевой дорогой", "объездной дорогой", 1)
	for _, tc := range []struct {
		name string
		a, b neardup.Document
		dup  bool
	}{
		{"English", notice("en", '0', 0, 3, 10), notice("en", '0', 1, 10, 17), false},
		{"Russian", notice("ru", '0', 0, 3, 10), notice("ru", '0', 1, 10, 17), false},
		{"Chinese", notice("zh", '0', 0, 3, 10), notice("zh", '0', 1, 10, 17), false},
		{"Arabic", notice("ar", '0', 0, 120, 100, 18), notice("ar", '0', 5, 150, 120, 23), false},
		{"Arabic-Indic digits", notice("ar", '٠', 0, 120, 100, 18), notice("ar", '٠', 5, 150, 120, 23), false},
		{"Persian digits", notice("ar", '۰', 0, 120, 100, 18), notice("ar", '۰', 5, 150, 120, 23), false},
		{"a Russian copy", notice("ru", '0', 0, 3, 10), copied, true},
		{"a copy in other digits", notice("ar", '0', 0, 120, 100, 18), notice("ar", '۰', 0, 120, 100, 18), true},
	} {
		for _, o := range []neardup.MethodOptions{minhash.Defaults(), simhash.Defaults(), sentences.Defaults(), cosine.Defaults()} {
			t.Run(tc.name+"/"+o.Method(), func(t *testing.T) {
				templateCase(t, tc.a, tc.b, o, tc.dup)
			})
		}
	}
}

// TestTemplateTablesOfStations: two days' rainfall of one table of
// stations, a station's "33.0 MILLIMETRES" one day and "NIL" the other,
// is one template filled in twice, no duplicate, for any method that
// applies the template rules, in a batch and in an index: "nil" is the
// figure 0, and a unit after a figure no word of its place, so that a
// station with rain fills the place of the same station without. Those
// days were duplicates: a station of NIL had no figure, one with rain a
// place of its unit, and the days shared no place with another figure. A
// copy, re-sent with a word changed, stays one.
func TestTemplateTablesOfStations(t *testing.T) {
	wet := enginetest.RainfallReadings(map[int]string{9: "33.0 MILLIMETRES", 10: "5.0 MM"})
	copied := enginetest.Rainfall(7, wet...)
	copied.ID, copied.Text = "rain-7-again", strings.Replace(copied.Text, "WEATHER OFFICE", "WEATHER SERVICE", 1)
	for _, tc := range []struct {
		name string
		a, b neardup.Document
		dup  bool
	}{
		{"rain one day, none the next", enginetest.Rainfall(7, wet...), enginetest.Rainfall(9, enginetest.RainfallReadings(nil)...), false},
		{"rain at other stations", enginetest.Rainfall(7, wet...),
			enginetest.Rainfall(8, enginetest.RainfallReadings(map[int]string{0: "12.5 MM", 1: "0.4 MM"})...), false},
		{"a copy", enginetest.Rainfall(7, wet...), copied, true},
	} {
		for _, o := range []neardup.MethodOptions{minhash.Defaults(), simhash.Defaults(), sentences.Defaults(), cosine.Defaults()} {
			t.Run(tc.name+"/"+o.Method(), func(t *testing.T) {
				templateCase(t, tc.a, tc.b, o, tc.dup)
			})
		}
	}
}

// TestTemplateNumberWordsOfLanguages: a court notice of one template in
// German, French, Spanish, Polish or Russian, three years in prison
// written as a word against four and another sum, is one template filled
// in twice, no duplicate, for any method that applies the template rules,
// in a batch and in an index, as its English twin is: the numbers two to
// ten written as words in those languages are figures ("zu drei Jahren",
// "к трём годам"). Those notices were duplicates: the word was a word of
// its place, and one place held another figure, too few. A copy, re-sent
// an hour later, stays one.
func TestTemplateNumberWordsOfLanguages(t *testing.T) {
	for _, lang := range enginetest.VerdictLanguages {
		copied := enginetest.Verdict(lang, 3)
		copied.ID, copied.Date = copied.ID+"-again", copied.Date.Add(time.Hour)
		for _, tc := range []struct {
			name string
			a, b neardup.Document
			dup  bool
		}{
			{"three years and four", enginetest.Verdict(lang, 3), enginetest.Verdict(lang, 4), false},
			{"a copy", enginetest.Verdict(lang, 3), copied, true},
		} {
			for _, o := range []neardup.MethodOptions{minhash.Defaults(), simhash.Defaults(), sentences.Defaults(), cosine.Defaults()} {
				t.Run(lang+"/"+tc.name+"/"+o.Method(), func(t *testing.T) {
					templateCase(t, tc.a, tc.b, o, tc.dup)
				})
			}
		}
	}
}

// TestTemplateDatelinesOfLanguages: a weekly notice under a dateline of a
// Spanish, Russian, German or French agency ("MADRID, 5 de marzo -",
// "Madrid, 5 mar (EFE).-", "Москва. 5 марта. ИНТЕРФАКС -", "BERLIN, 5.
// März (dpa) -", "PARIS, 5 mars (AFP) -", "5 mars 2024 (Reuters) -"), the same words a week
// later under the dateline of that day, is an item that recurs, no
// duplicate (--date-apart), for any method that applies the template
// rules, in a batch and in an index, as under an English or TASS
// dateline: the day of those datelines is read. Those weeks were
// duplicates: the dateline was read without its day, or not at all. A
// copy, re-sent an hour later, stays one.
func TestTemplateDatelinesOfLanguages(t *testing.T) {
	for _, form := range enginetest.WeeklyForms {
		copied := enginetest.Weekly(form, 5)
		copied.ID, copied.Date = copied.ID+"-again", copied.Date.Add(time.Hour)
		for _, tc := range []struct {
			name string
			a, b neardup.Document
			dup  bool
		}{
			{"two weeks", enginetest.Weekly(form, 5), enginetest.Weekly(form, 12), false},
			{"a copy", enginetest.Weekly(form, 5), copied, true},
		} {
			for _, o := range []neardup.MethodOptions{minhash.Defaults(), simhash.Defaults(), sentences.Defaults(), cosine.Defaults()} {
				t.Run(form+"/"+tc.name+"/"+o.Method(), func(t *testing.T) {
					templateCase(t, tc.a, tc.b, o, tc.dup)
				})
			}
		}
	}
}

// TestTemplateAgencyDatelines: a notice under a dateline of a place not
// in capitals that an agency alone follows ("Berlin (dpa) -"), the same
// words from another town ("Hamburg (dpa) -"), is two towns' notice, no
// duplicate, for minhash and simhash, which tell datelines of other places
// apart (--names), in a batch and in an index, as under "BERLIN (dpa) -": the
// place of such a dateline is read. Those notices were duplicates: the
// dateline was read as none. A copy, re-sent an hour later, stays one.
func TestTemplateAgencyDatelines(t *testing.T) {
	day := time.Date(2024, 3, 12, 8, 0, 0, 0, time.UTC)
	notice := func(place string, at time.Duration) neardup.Document {
		return neardup.Document{ID: fmt.Sprintf("%s-%v", strings.Fields(place)[0], at), Title: "Wassersperre im Norden der Stadt", Date: day.Add(at),
			Text: place + " - Die Wasserbetriebe sperren am Donnerstag von 9:00 bis 17:00 Uhr im Norden der Stadt das " +
				"Wasser für Arbeiten an der Hauptleitung, teilten sie mit. Anwohner von rund 40 Straßen sollen Wasser " +
				"vorrätig halten. Auf dem Marktplatz stehen Tankwagen bereit."}
	}
	for _, tc := range []struct {
		name string
		a, b neardup.Document
		dup  bool
	}{
		{"two towns", notice("Berlin (dpa)", 0), notice("Hamburg (dpa)", time.Hour), false},
		{"two towns, a regional service", notice("Potsdam (dpa/bb)", 0), notice("Cottbus (dpa/bb)", time.Hour), false},
		{"a copy", notice("Berlin (dpa)", 0), notice("Berlin (dpa)", time.Hour), true},
	} {
		for _, o := range []neardup.MethodOptions{minhash.Defaults(), simhash.Defaults()} {
			t.Run(tc.name+"/"+o.Method(), func(t *testing.T) {
				templateCase(t, tc.a, tc.b, o, tc.dup)
			})
		}
	}
}

// TestTemplateThousandsSpaced: a city budget notice in French, Polish or
// Russian, its sums written with their groups of thousands set apart by a
// space ("1 250 000 zł", a no-break space in Russian, a narrow one in
// French), filled in twice with two of its three sums other, is one
// template filled in twice, no duplicate, for any method that applies the
// template rules, in a batch and in an index: such a sum is one figure.
// Those notices were duplicates: a sum was a table's cells, whose "000"
// the two shared, or, set apart by a no-break space, no place at all. A
// copy, re-sent an hour later, stays one.
func TestTemplateThousandsSpaced(t *testing.T) {
	for _, lang := range enginetest.BudgetLanguages {
		copied := enginetest.Budget(lang, 0)
		copied.ID, copied.Date = copied.ID+"-again", copied.Date.Add(time.Hour)
		for _, tc := range []struct {
			name string
			a, b neardup.Document
			dup  bool
		}{
			{"two sums other", enginetest.Budget(lang, 0), enginetest.Budget(lang, 1), false},
			{"a copy", enginetest.Budget(lang, 0), copied, true},
		} {
			for _, o := range []neardup.MethodOptions{minhash.Defaults(), simhash.Defaults(), sentences.Defaults(), cosine.Defaults()} {
				t.Run(lang+"/"+tc.name+"/"+o.Method(), func(t *testing.T) {
					templateCase(t, tc.a, tc.b, o, tc.dup)
				})
			}
		}
	}
}

// rateStory is a story of a rate rise "by <by> percentage points to <to>
// percent", sent at minute min.
func rateStory(id, by, to string, min int) neardup.Document {
	return neardup.Document{ID: id, Date: time.Date(2024, 3, 5, 10, min, 0, 0, time.UTC),
		Text: "The central bank raised its benchmark interest rate by " + by + " percentage points to " + to + " percent on " +
			"Tuesday, the biggest increase in two decades, as it struggled to contain inflation that has run above its " +
			"target for more than a year. The governor told reporters the bank was prepared to act again if price " +
			"pressures did not ease in the coming months."}
}

// TestTemplateDecimalPointMoved: a rate story "by 1.5 percentage points to
// 4.5 percent" and one "by 15 ... to 45 percent" are one template filled
// in twice, no duplicate, for minhash, simhash and cosine (sentences shares
// too few of their sentences to make them one), in a batch and in an
// index, as one "by 1.6 ... to 4.6" is: a figure's
// decimal point is part of its value. Those stories were duplicates of
// score 1, their figures all agreeing ("places":[2,0]): a figure was its
// digits alone. A copy writing the decimal comma ("1,5"), sent a minute
// later, stays one.
func TestTemplateDecimalPointMoved(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    neardup.Document
		dup  bool
	}{
		{"point dropped", rateStory("rate-b", "15", "45", 1), false},
		{"digits replaced", rateStory("rate-c", "1.6", "4.6", 1), false},
		{"decimal comma", rateStory("rate-d", "1,5", "4,5", 1), true},
	} {
		for _, o := range []neardup.MethodOptions{minhash.Defaults(), simhash.Defaults(), cosine.Defaults()} {
			t.Run(tc.name+"/"+o.Method(), func(t *testing.T) {
				templateCase(t, rateStory("rate-a", "1.5", "4.5", 0), tc.b, o, tc.dup)
			})
		}
	}
}

// TestTemplateLeadingDecimalPoint: a rate story "by 0.25 percentage points
// to 0.5 percent" and a copy writing "by .25 ... to .5", sent a minute
// later, are a duplicate for minhash and cosine, in a batch and in an
// index (simhash's sketches of the two are too far apart to make them
// one): a figure written with its decimal point first is "0." and its
// digits. Regression: ".5" read as "5", and the copy held other figures in
// both places, refused as the story filled in again. One "by 25 ... to 5"
// is none.
func TestTemplateLeadingDecimalPoint(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    neardup.Document
		dup  bool
	}{
		{"point first", rateStory("rate-b", ".25", ".5", 1), true},
		{"point dropped", rateStory("rate-c", "25", "5", 1), false},
	} {
		for _, o := range []neardup.MethodOptions{minhash.Defaults(), simhash.Defaults(), cosine.Defaults()} {
			t.Run(tc.name+"/"+o.Method(), func(t *testing.T) {
				templateCase(t, rateStory("rate-a", "0.25", "0.5", 0), tc.b, o, tc.dup)
			})
		}
	}
}

// moneyMarketNotice is a notice of the Bank of England's help to the money
// market, under a dateline of March day and dated that day at 11:00, its
// two sums of the morning, help and shortage, written as given.
func moneyMarketNotice(id string, day int, help, shortage string) neardup.Document {
	return neardup.Document{ID: id, Title: "U.K. MONEY MARKET GIVEN HELP",
		Date: time.Date(1987, 3, day, 11, 0, 0, 0, time.UTC),
		Text: fmt.Sprintf("LONDON, March %d - The Bank of England said it had provided the money market with %s mln stg "+
			"assistance in the morning session, against its estimate of a shortage of around %s mln stg in the system. "+
			"The central bank bought bills outright from the discount houses at established dealing rates, and said it "+
			"would review the position again in the afternoon.", day, help, shortage)}
}

// TestTemplateThousandsWrittenPlainOtherDay: the Bank of England's notice
// of March 5 and the next day's at its hour, their sums the same but
// written "1,500" and "2,250" in one and "1500" and "2250" in the other,
// are a duplicate for minhash, simhash and cosine, in a batch and in an
// index: a figure whose separator may group thousands agrees with the
// figure written plain. Regression: comparing the places of an item of
// another day at its hour (figures.InPlaceWhole), a figure of an ambiguous
// separator agreed with no figure equal to its reading, and the copy was
// refused as the notice filled in again ("places":[2,2]). The next day's
// notice of other sums ("1,600", "2,350") is none.
func TestTemplateThousandsWrittenPlainOtherDay(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    neardup.Document
		dup  bool
	}{
		{"written plain", moneyMarketNotice("boe-6", 6, "1500", "2250"), true},
		{"written alike", moneyMarketNotice("boe-6", 6, "1,500", "2,250"), true},
		{"other sums", moneyMarketNotice("boe-6", 6, "1,600", "2,350"), false},
	} {
		for _, o := range []neardup.MethodOptions{minhash.Defaults(), simhash.Defaults(), cosine.Defaults()} {
			t.Run(tc.name+"/"+o.Method(), func(t *testing.T) {
				templateCase(t, moneyMarketNotice("boe-5", 5, "1,500", "2,250"), tc.b, o, tc.dup)
			})
		}
	}
}

// templateCase checks that the documents a and b, a duplicate of the
// method of o without the template rules, are a duplicate with them (at
// o) when dup, in a batch and in an index; it skips a pair no duplicate
// without the rules.
func templateCase(t *testing.T, a, b neardup.Document, o neardup.MethodOptions, dup bool) {
	t.Helper()
	if labelOf(t, []neardup.Document{a, b}, rulesOff(t, o)) != neardup.Duplicate {
		t.Skipf("without the template rules %s and %s are no duplicate of %s: nothing to test", a.ID, b.ID, o.Method())
	}
	batch := labelOf(t, []neardup.Document{a, b}, o)
	if got := batch == neardup.Duplicate; got != dup {
		t.Errorf("batch: %s and %s are %q, want duplicate %v", a.ID, b.ID, batch, dup)
	}
	index, _ := addedLabel(t, filepath.Join(t.TempDir(), "x.db"), neardup.Options{Method: o}, []neardup.Document{a, b})
	if got := index == neardup.Duplicate; got != dup {
		t.Errorf("index: %s and %s are %q, want duplicate %v", a.ID, b.ID, index, dup)
	}
}

// labelOf returns the label Dedup with options o gives the pair of docs,
// "" for none.
func labelOf(t *testing.T, docs []neardup.Document, o neardup.MethodOptions) neardup.Label {
	t.Helper()
	r, err := neardup.Dedup(t.Context(), docs, neardup.Options{Method: o})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range r.Pairs {
		return p.Label
	}
	return ""
}

// rulesOff returns o with the template rules off, as --profile corpus
// sets them, by flag name; an option the method lacks is left alone.
func rulesOff(t *testing.T, o neardup.MethodOptions) neardup.MethodOptions {
	t.Helper()
	c := engine.Config(o)
	for _, f := range []struct {
		name  string
		value any
	}{{"number-agreement", -1.0}, {"date-apart", 0.0}, {"names", false}, {"template", false}, {"slots", false}} {
		if _, ok := flagopts.Get(c, f.name); !ok {
			continue
		}
		var err error
		if c, err = flagopts.Set(c, f.name, f.value); err != nil {
			t.Fatal(err)
		}
	}
	return c
}
