package neardup_test

import (
	"database/sql"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/method/cosine"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/sentences"
	"github.com/neardup/neardup/method/simhash"
	"github.com/neardup/neardup/method/tfidf"
)

// TestOlderSketchFormat: a tfidf index made before terms of scripts
// written without spaces became pairs of letters (sketch format 2) still
// opens, and goes on making its terms as it did, so that its sketches
// compare with those it holds: a Chinese copy is paired there as format 2
// paired it (not at all: each clause was one term), and with format 3
// found. An index of a format no binary makes now is refused.
func TestOlderSketchFormat(t *testing.T) {
	story := "市政府周一宣布，将在明年春季开通一条连接机场和火车站的新地铁线路。这条线路全长二十八公里，设有十二个车站，预计每天运送乘客超过三十万人次。" +
		"负责该项目的工程师表示，施工已经进入最后阶段，目前正在进行设备调试。市民对新线路普遍表示欢迎，认为它将大大缩短前往机场的时间。"
	docs := []neardup.Document{
		{ID: "other1", Title: "本市举办春季花卉展览", Text: "本市第二十届春季花卉展览于周六在中心公园开幕，展出各类花卉三千余种。主办方介绍，今年的展览首次设立了儿童科普区，吸引了大批家长带着孩子前来参观。"},
		{ID: "other2", Title: "图书馆延长开放时间", Text: "市图书馆宣布，从下个月起将延长周末的开放时间，晚上闭馆时间推迟到九点。图书馆负责人说，这一调整是根据读者的意见作出的，同时还将增加自习座位。"},
		{ID: "orig", Title: "新地铁线路明年开通", Text: story},
		{ID: "copy", Title: "新地铁线路将于明年春季开通", Text: strings.Replace(story, "工程师", "技术人员", 1)},
	}
	// copyPaired opens the index at db, adds docs and reports whether the
	// copy was paired with its original.
	copyPaired := func(t *testing.T, db string, docs []neardup.Document) bool {
		t.Helper()
		x, err := neardup.Open(t.Context(), db, neardup.Options{MethodName: tfidf.Name})
		if err != nil {
			t.Fatal(err)
		}
		defer x.Close()
		ms, err := x.Add(t.Context(), docs...)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			for _, p := range m.Pairs {
				if m.ID == "copy" && p.A == "orig" {
					return true
				}
			}
		}
		return false
	}
	dir := t.TempDir()
	if !copyPaired(t, filepath.Join(dir, "new.db"), docs) {
		t.Error("a new index does not pair the Chinese copy with its original")
	}
	old := filepath.Join(dir, "old.db")
	setSketchFormat(t, old, tfidf.Defaults(), 2)
	if copyPaired(t, old, docs[:3]) || copyPaired(t, old, docs[3:]) {
		t.Error("an index of sketch format 2 paired the Chinese copy: its terms are not those it holds")
	}
	// Its options, as Method returns them, make its terms in Dedup too:
	// they gave format 3's, which paired the copy.
	x, err := neardup.Open(t.Context(), old, neardup.Options{Existing: true})
	if err != nil {
		t.Fatal(err)
	}
	_, opts, err := x.Method()
	x.Close()
	if err != nil {
		t.Fatal(err)
	}
	res, err := neardup.Dedup(t.Context(), docs, neardup.Options{Method: opts})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pairs) != 0 {
		t.Errorf("Dedup with the options of an index of sketch format 2 found %+v, want no pair (format 2's terms)", res.Pairs)
	}
	older := filepath.Join(dir, "older.db")
	setSketchFormat(t, older, tfidf.Defaults(), 1)
	_, err = neardup.Open(t.Context(), older, neardup.Options{})
	if err == nil || !strings.Contains(err.Error(), "build a new index") {
		t.Errorf("an index of sketch format 1 opened: %v", err)
	}
}

// TestOlderMinhashSketchFormat: an index of minhash sketch format 7,
// made before sketches kept the filter of their words, still opens, and
// goes on making sketches of format 7 (stored with their format's byte),
// whose names past the sample's cut are taken as held as format 7 took
// them: the bulletins of two cities stay one report there, where a new
// index tells them apart by the filter.
func TestOlderMinhashSketchFormat(t *testing.T) {
	docs := []neardup.Document{weatherBulletin("tucson", "Tucson", "30"), weatherBulletin("raleigh", "Raleigh", "35")}
	label := func(t *testing.T, db string) neardup.Label { return secondLabel(t, db, nil, docs) }
	dir := t.TempDir()
	fresh := filepath.Join(dir, "new.db")
	if got := label(t, fresh); got == neardup.Duplicate {
		t.Errorf("a new index: the bulletins of two cities are a %s", got)
	}
	if got := detailFormats(t, fresh); string(got) != "\x0d\x0d" {
		t.Errorf("a new index stores sketches of formats %v, want 13", got)
	}
	old := filepath.Join(dir, "old.db")
	setSketchFormat(t, old, minhash.Defaults(), 7)
	if got := label(t, old); got != neardup.Duplicate {
		t.Errorf("an index of sketch format 7: the bulletins of two cities are %q, want the duplicate format 7 made", got)
	}
	if got := detailFormats(t, old); string(got) != "\x07\x07" {
		t.Errorf("an index of sketch format 7 stores sketches of formats %v, want 7", got)
	}
}

// TestOlderSimhashSketchFormat: an index of simhash sketch format 4, made
// before its sketches kept the filter of their words, still opens, and
// goes on making sketches of format 4 (stored with their format's byte),
// whose names past the sample's cut are taken as held as format 4 took
// them: the bulletins of two cities, a few bits apart, stay one report
// there, where a new index tells them apart by the filter. Dedup with the
// options such an index holds keeps format 4's pairs too.
func TestOlderSimhashSketchFormat(t *testing.T) {
	bulletin := func(id, city, rain string) neardup.Document {
		text := strings.ToUpper(city) + ", May 2 (Weather Desk) - The forecast for " + city + " for Thursday, May 2: morning sunshine " +
			"will give way to clouds by the afternoon. The high will reach 24 degrees Celsius, with an overnight low of 14 degrees.\n\n" +
			"Winds will blow from the west at 21 kilometres per hour, with gusts of up to 40 kilometres per hour on exposed ground. " +
			"The chance of rain is " + rain + " percent.\n\nHumidity will be around 45 percent in the afternoon. The UV index will be 5, " +
			"and residents are advised to use sun protection around midday.\n\nLooking ahead, the weather will stay unsettled over the " +
			"next two days, with highs between 22 and 27 degrees. Drivers should expect crosswinds on bridges and elevated roads.\n\n" +
			"Sunrise is at 5:52 a.m. and sunset at 8:16 p.m. The weather desk updates its forecasts every six hours.\n\n" +
			"Air quality is expected to be moderate, and pollen levels will be high for most of the day. People with allergies " +
			"are advised to keep windows closed in the morning.\n\nThe weather in the surrounding region will be similar, with hill " +
			"areas seeing temperatures a few degrees lower than in the city and a greater chance of showers late in the evening.\n\n" +
			"Farmers should expect dry conditions for the harvest, and boaters are warned of choppy water on the lakes in the afternoon. " +
			"The highway department said its crews would be on standby through the weekend."
		return neardup.Document{ID: id, Title: city + " weather: high of 24C on Thursday", Text: text,
			Date: time.Date(2024, 5, 2, 6, 0, 0, 0, time.UTC)}
	}
	docs := []neardup.Document{bulletin("tucson", "Tucson", "30"), bulletin("raleigh", "Raleigh", "35")}
	label := func(t *testing.T, db string) neardup.Label { return secondLabel(t, db, simhash.Defaults(), docs) }

	dir := t.TempDir()
	fresh := filepath.Join(dir, "new.db")
	if got := label(t, fresh); got != neardup.Similar {
		t.Errorf("a new index: the bulletins of two cities are %q, want %q", got, neardup.Similar)
	}
	if got := detailFormats(t, fresh); string(got) != "\x09\x09" {
		t.Errorf("a new index stores sketches of formats %v, want 9", got)
	}
	old := filepath.Join(dir, "old.db")
	setSketchFormat(t, old, simhash.Defaults(), 4)
	if got := label(t, old); got != neardup.Duplicate {
		t.Errorf("an index of sketch format 4: the bulletins of two cities are %q, want the duplicate format 4 made", got)
	}
	if got := detailFormats(t, old); string(got) != "\x04\x04" {
		t.Errorf("an index of sketch format 4 stores sketches of formats %v, want 4", got)
	}
	x, err := neardup.Open(t.Context(), old, neardup.Options{Existing: true})
	if err != nil {
		t.Fatal(err)
	}
	_, opts, err := x.Method()
	x.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opts neardup.Options
		want neardup.Label
	}{
		{"the defaults", neardup.Options{Method: simhash.Defaults()}, neardup.Similar},
		{"the options of an index of format 4", neardup.Options{Method: opts}, neardup.Duplicate},
	} {
		res, err := neardup.Dedup(t.Context(), docs, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Pairs) != 1 || res.Pairs[0].Label != tc.want {
			t.Errorf("Dedup with %s found %+v, want one pair, %q", tc.name, res.Pairs, tc.want)
		}
	}
}

// setSketchFormat creates the index db with the options of method o,
// holding no document, and stores its settings as an index of sketches
// of format holds them (a new index's first add stores them).
func setSketchFormat(t *testing.T, db string, o neardup.MethodOptions, format int) {
	t.Helper()
	x, err := neardup.Open(t.Context(), db, neardup.Options{Method: o})
	if err != nil {
		t.Fatal(err)
	}
	m := x.Meta()
	x.Close()
	m.Format = format
	settings, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	sdb, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	if _, err := sdb.ExecContext(t.Context(), `INSERT INTO meta(name, value) VALUES('index', ?)`, string(settings)); err != nil {
		t.Fatal(err)
	}
}

// detailFormats returns the format bytes of the detail parts of the
// sketches the index db stores, by ordinal.
func detailFormats(t *testing.T, db string) []byte {
	t.Helper()
	sdb, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	rows, err := sdb.QueryContext(t.Context(), `SELECT data FROM sketch_detail ORDER BY ord`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []byte
	for rows.Next() {
		var data []byte
		if err := rows.Scan(&data); err != nil {
			t.Fatal(err)
		}
		out = append(out, data[0])
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestOlderSentencesCosineSketchFormat: an index of sentences or cosine
// sketch format 1, made before their sketches carried the template rules'
// context, still opens and goes on making sketches of format 1 (an index
// part of format 1, no detail part), whose pairs no template rule
// refuses: the bulletins of two cities stay duplicates there, in the index
// and in a Dedup with its options, where a new index (a detail
// part holding the context) tells them apart.
func TestOlderSentencesCosineSketchFormat(t *testing.T) {
	may2 := time.Date(2024, 5, 2, 0, 0, 0, 0, time.UTC)
	docs := []neardup.Document{bulletin("Tucson", may2, "24", "30"), bulletin("Raleigh", may2, "26", "35")}
	for _, defaults := range []neardup.MethodOptions{sentences.Defaults(), cosine.Defaults()} {
		name := defaults.Method()
		t.Run(name, func(t *testing.T) {
			add := func(t *testing.T, db string) (neardup.Label, neardup.MethodOptions) {
				return addedLabel(t, db, neardup.Options{MethodName: name}, docs)
			}
			// indexFormats returns the format bytes of the index parts of
			// the sketches the index db stores, by ordinal.
			indexFormats := func(t *testing.T, db string) string {
				t.Helper()
				sdb, err := sql.Open("sqlite", db)
				if err != nil {
					t.Fatal(err)
				}
				defer sdb.Close()
				rows, err := sdb.QueryContext(t.Context(), `SELECT sketch FROM docs ORDER BY ord`)
				if err != nil {
					t.Fatal(err)
				}
				defer rows.Close()
				var out string
				for rows.Next() {
					var data []byte
					if err := rows.Scan(&data); err != nil {
						t.Fatal(err)
					}
					out += string(data[:1])
				}
				if err := rows.Err(); err != nil {
					t.Fatal(err)
				}
				return out
			}

			dir := t.TempDir()
			fresh := filepath.Join(dir, "new.db")
			if got, _ := add(t, fresh); got == neardup.Duplicate {
				t.Errorf("a new index: the bulletins of two cities are a %s", got)
			}
			format := map[string]byte{sentences.Name: sentences.Format, cosine.Name: cosine.Format}[name]
			if want := string([]byte{format, format}); indexFormats(t, fresh) != want || string(detailFormats(t, fresh)) != want {
				t.Errorf("a new index stores index parts of formats %q and detail parts of %q, want %d and %d",
					indexFormats(t, fresh), detailFormats(t, fresh), format, format)
			}
			old := filepath.Join(dir, "old.db")
			setSketchFormat(t, old, defaults, 1)
			got, opts := add(t, old)
			if got != neardup.Duplicate {
				t.Errorf("an index of sketch format 1: the bulletins of two cities are %q, want the duplicate format 1 made", got)
			}
			if index, detail := indexFormats(t, old), string(detailFormats(t, old)); index != "\x01\x01" || detail != "" {
				t.Errorf("an index of sketch format 1 stores index parts of formats %q and detail parts of %q, want 1 and none", index, detail)
			}
			res, err := neardup.Dedup(t.Context(), docs, neardup.Options{Method: opts})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Pairs) != 1 || res.Pairs[0].Label != neardup.Duplicate {
				t.Errorf("Dedup with the options of an index of sketch format 1 found %+v, want the bulletins duplicates", res.Pairs)
			}
		})
	}
}

// TestOlderShortNamesSketchFormat: an index of the sketch format each
// method made before title names shorter than a shingle were kept
// (minhash 8, simhash 5, sentences and cosine 2) still opens, and goes on
// making sketches of that format, whose filters lack the keys such a name
// is looked up by: the forecasts of Leeds and Brighton stay one report
// there, as that format made them, in the index and in a Dedup with its
// options, where a new index tells them apart by the short name.
func TestOlderShortNamesSketchFormat(t *testing.T) {
	olderFormatKeeps(t, []neardup.Document{townForecast("Leeds"), townForecast("Brighton")}, "the forecasts of two towns",
		[]olderFormat{{minhash.Defaults(), 8}, {simhash.Defaults(), 5}, {sentences.Defaults(), 2}, {cosine.Defaults(), 2}})
}

// olderFormat is a method and a sketch format before its current one.
type olderFormat struct {
	defaults neardup.MethodOptions
	format   int
}

// olderFormatKeeps checks, for each method of formats, that a new index
// does not find docs duplicates, and that an index of the older format
// does, as that format made them, storing sketches of that format alone,
// and so does a Dedup with that index's options; what names the documents
// in messages.
func olderFormatKeeps(t *testing.T, docs []neardup.Document, what string, formats []olderFormat) {
	t.Helper()
	for _, tc := range formats {
		name := tc.defaults.Method()
		t.Run(name, func(t *testing.T) {
			add := func(t *testing.T, db string) (neardup.Label, neardup.MethodOptions) {
				return addedLabel(t, db, neardup.Options{MethodName: name}, docs)
			}
			dir := t.TempDir()
			if got, _ := add(t, filepath.Join(dir, "new.db")); got == neardup.Duplicate {
				t.Errorf("a new index: %s are a %s", what, got)
			}
			old := filepath.Join(dir, "old.db")
			setSketchFormat(t, old, tc.defaults, tc.format)
			got, opts := add(t, old)
			if got != neardup.Duplicate {
				t.Errorf("an index of sketch format %d: %s are %q, want the duplicate it made", tc.format, what, got)
			}
			if formats := detailFormats(t, old); string(formats) != string([]byte{byte(tc.format), byte(tc.format)}) {
				t.Errorf("an index of sketch format %d stores sketches of formats %v", tc.format, formats)
			}
			res, err := neardup.Dedup(t.Context(), docs, neardup.Options{Method: opts})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Pairs) != 1 || res.Pairs[0].Label != neardup.Duplicate {
				t.Errorf("Dedup with the options of an index of sketch format %d found %+v, want %s duplicates", tc.format, res.Pairs, what)
			}
		})
	}
}

// TestOlderWordsSketchFormatReadsNoTitle: an index of word shingles of
// minhash's format 8 or simhash's format 5 goes on making the sketches
// that format made, which read no title: a rate decision and its
// "UPDATE 1-" with figures revised stay similar there, as the index made
// them, where a new index reads the title's rerun mark and marks the
// update a duplicate. Regression: the scanner read the title of word
// sketches of every format, so that an older index stored sketches of two
// contents under one format and compared one side's title with none.
func TestOlderWordsSketchFormatReadsNoTitle(t *testing.T) {
	story := "WELLINGTON, March 3 (Reuters) - New Zealand's central bank held its official cash rate steady at 5.50 percent " +
		"on Wednesday, as expected, but signalled that borrowing costs would stay high for longer as inflation proved stubborn. " +
		"Governor Adrian Orr said the committee remained confident that inflation would return to its target band of 1 to 3 " +
		"percent in the second half of next year. The Reserve Bank of New Zealand has raised rates by 525 basis points since " +
		"October 2021, its most aggressive tightening cycle since the official cash rate was introduced in 1999. Economists " +
		"polled by Reuters had unanimously expected the bank to hold. The New Zealand dollar rose 0.4 percent to $0.6120 after " +
		"the decision, as traders pared bets on a cut later this year. Analysts said the tone of the statement was more hawkish " +
		"than the market had priced. Housing market data released last week showed prices falling for a third straight month, " +
		"while unemployment rose to 4.0 percent in the fourth quarter. The bank's next review is scheduled for May 22."
	update := strings.NewReplacer("rose 0.4 percent to $0.6120", "rose 0.6 percent to $0.6135", "rose to 4.0 percent",
		"rose to 4.1 percent", "by 525 basis", "by 500 basis").Replace(story)
	at := time.Date(2024, 3, 3, 2, 0, 0, 0, time.UTC)
	docs := []neardup.Document{{ID: "first", Title: "NZ central bank holds rates", Text: story, Date: at},
		{ID: "update", Title: "UPDATE 1-NZ central bank holds rates", Text: update, Date: at.Add(time.Hour)}}
	mh, sh := minhash.Defaults(), simhash.Defaults()
	mh.ShingleUnit, sh.ShingleUnit = minhash.Words, simhash.Words
	for _, tc := range []struct {
		o      neardup.MethodOptions
		format int
	}{{mh, 8}, {sh, 5}} {
		t.Run(tc.o.Method(), func(t *testing.T) {
			label := func(db string) neardup.Label { return secondLabel(t, db, tc.o, docs) }
			dir := t.TempDir()
			if got := label(filepath.Join(dir, "new.db")); got != neardup.Duplicate {
				t.Errorf("a new index: the update is %q, want a duplicate (its title's rerun mark read)", got)
			}
			old := filepath.Join(dir, "old.db")
			setSketchFormat(t, old, tc.o, tc.format)
			if got := label(old); got != neardup.Similar {
				t.Errorf("an index of sketch format %d: the update is %q, want similar, as that format made it", tc.format, got)
			}
		})
	}
}

// TestOlderMinhashWordsFormat: an index of minhash word shingles of sketch
// format 9, made before such sketches kept names, still opens and goes on
// making sketches of 9, without names: the bulletins of two cities, alike
// but for the city, stay the duplicate that format made, where a new index
// of word shingles tells them apart by the cities' names.
func TestOlderMinhashWordsFormat(t *testing.T) {
	docs := []neardup.Document{weatherBulletin("seattle", "Seattle", "35"), weatherBulletin("baltimore", "Baltimore", "35")}
	words := minhash.Defaults()
	words.ShingleUnit = minhash.Words
	label := func(t *testing.T, db string) neardup.Label { return secondLabel(t, db, words, docs) }
	dir := t.TempDir()
	fresh := filepath.Join(dir, "new.db")
	if got := label(t, fresh); got != neardup.Similar {
		t.Errorf("a new index of word shingles: the bulletins of two cities are %q, want %q", got, neardup.Similar)
	}
	if got := detailFormats(t, fresh); string(got) != "\x0d\x0d" {
		t.Errorf("a new index stores sketches of formats %v, want 13", got)
	}
	old := filepath.Join(dir, "old.db")
	setSketchFormat(t, old, words, 9)
	if got := label(t, old); got != neardup.Duplicate {
		t.Errorf("an index of word shingles of sketch format 9: the bulletins of two cities are %q, want the duplicate format 9 made", got)
	}
	if got := detailFormats(t, old); string(got) != "\x09\x09" {
		t.Errorf("an index of sketch format 9 stores sketches of formats %v, want 9", got)
	}
}

// weatherBulletin is a city's weather bulletin: a template of one weather
// desk, the city and the chance of rain its fills.
func weatherBulletin(id, city, rain string) neardup.Document {
	text := strings.ToUpper(city) + ", May 2 (Weather Desk) - The forecast for " + city + " for Thursday, May 2: morning sunshine " +
		"will give way to clouds by the afternoon. The high will reach 24 degrees Celsius, with an overnight low of 14 degrees.\n\n" +
		"Winds will blow from the west at 21 kilometres per hour, with gusts of up to 40 kilometres per hour on exposed ground. " +
		"The chance of rain is " + rain + " percent.\n\nHumidity will be around 45 percent in the afternoon. The UV index will be 5, " +
		"and residents are advised to use sun protection around midday.\n\nLooking ahead, the weather will stay unsettled over the " +
		"next two days, with highs between 22 and 27 degrees. Drivers should expect crosswinds on bridges and elevated roads.\n\n" +
		"Sunrise is at 5:52 a.m. and sunset at 8:16 p.m. The weather desk updates its forecasts every six hours."
	return neardup.Document{ID: id, Title: city + " weather: high of 24C on Thursday", Text: text,
		Date: time.Date(2024, 5, 2, 6, 0, 0, 0, time.UTC)}
}

// secondLabel opens the index at db with the options o (nil: the stored
// ones, or the defaults), adds docs and returns the label of the second
// document's first pair ("" for none).
func secondLabel(t *testing.T, db string, o neardup.MethodOptions, docs []neardup.Document) neardup.Label {
	t.Helper()
	l, _ := addedLabel(t, db, neardup.Options{Method: o}, docs)
	return l
}

// addedLabel opens the index at db with o, adds docs and returns the label
// of the second document's first pair ("" for none) and the options the
// index runs with.
func addedLabel(t *testing.T, db string, o neardup.Options, docs []neardup.Document) (neardup.Label, neardup.MethodOptions) {
	t.Helper()
	x, err := neardup.Open(t.Context(), db, o)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	ms, err := x.Add(t.Context(), docs...)
	if err != nil {
		t.Fatal(err)
	}
	_, opts, err := x.Method()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ms[1].Pairs {
		return p.Label, opts
	}
	return "", opts
}

// TestOlderScriptsSketchFormat: an index of the sketch format each method
// made before figures and their places were read in every script (minhash
// 10, simhash 6, sentences and cosine 3) still opens, and goes on making
// sketches of that format, which read ASCII digits and letters alone: an
// Arabic notice of two weeks in Persian digits stays the duplicate that
// format made of it (no figures read), in the index and in a Dedup with
// its options, where a new index finds its three figures changed.
func TestOlderScriptsSketchFormat(t *testing.T) {
	docs := []neardup.Document{enginetest.Notice("ar", '۰', 0, 120, 100, 18), enginetest.Notice("ar", '۰', 5, 150, 120, 23)}
	olderFormatKeeps(t, docs, "the notices of two weeks",
		[]olderFormat{{minhash.Defaults(), 10}, {simhash.Defaults(), 6}, {sentences.Defaults(), 3}, {cosine.Defaults(), 3}})
}

// TestOlderMeasuresSketchFormat: an index of the sketch format each method
// made before the figures of a table of stations were read as it writes
// them (minhash 11, simhash 7, cosine 4) still opens, and goes on making
// sketches of that format, which read no "nil" and a unit as the word
// after its figure: two days' rainfall of one table, two stations with
// rain one day and NIL the next, stay the duplicate that format made of
// them (no place of both holds another figure), in the index and in a
// Dedup with its options, where a new index finds the two stations' rain
// changed. (sentences, which shares too few of the tables' sentences, made
// them no duplicate in its format 4 either.)
func TestOlderMeasuresSketchFormat(t *testing.T) {
	docs := []neardup.Document{enginetest.Rainfall(7, enginetest.RainfallReadings(map[int]string{9: "33.0 MILLIMETRES", 10: "5.0 MM"})...),
		enginetest.Rainfall(9, enginetest.RainfallReadings(nil)...)}
	olderFormatKeeps(t, docs, "the rainfall of two days",
		[]olderFormat{{minhash.Defaults(), 11}, {simhash.Defaults(), 7}, {cosine.Defaults(), 4}})
}

// TestOlderLanguagesSketchFormat: an index of the sketch format each
// method made before figures and datelines were read as more languages
// write them (minhash 11, simhash 7, sentences and cosine 4) still opens,
// and goes on making sketches of that format, which read number words in
// English alone and the datelines of the forms it read: a Spanish court
// notice of three years and of four, a weekly notice under a dateline
// "MADRID, 5 de marzo -" or "BERLIN, 5. März (dpa) -" and the next
// week's, a Polish budget notice of other sums written "1 250 000
// zł", and a rate story "by 1.5 percentage points to 4.5 percent" and one
// "by 15 ... to 45" (a figure its digits alone), stay the duplicates that format made of them, in the index and in a Dedup with its options,
// where a new index finds another figure in two places, or datelines of
// days a week apart.
func TestOlderLanguagesSketchFormat(t *testing.T) {
	formats := []olderFormat{{minhash.Defaults(), 11}, {simhash.Defaults(), 7}, {sentences.Defaults(), 4}, {cosine.Defaults(), 4}}
	t.Run("verdicts", func(t *testing.T) {
		olderFormatKeeps(t, []neardup.Document{enginetest.Verdict("es", 3), enginetest.Verdict("es", 4)},
			"the sentences of three years and four", formats)
	})
	t.Run("weeklies", func(t *testing.T) {
		olderFormatKeeps(t, []neardup.Document{enginetest.Weekly("es-de", 5), enginetest.Weekly("es-de", 12)},
			"the notices of two weeks", formats)
	})
	// simhash made neither of these duplicates, without the rules either.
	noSimhash := []olderFormat{formats[0], formats[2], formats[3]}
	t.Run("dpa weeklies", func(t *testing.T) {
		olderFormatKeeps(t, []neardup.Document{enginetest.Weekly("de-dpa", 5), enginetest.Weekly("de-dpa", 12)},
			"the notices of two weeks", noSimhash)
	})
	t.Run("budgets", func(t *testing.T) {
		olderFormatKeeps(t, []neardup.Document{enginetest.Budget("pl", 0), enginetest.Budget("pl", 1)},
			"the budgets of other sums", noSimhash)
	})
	// sentences shares too few of the stories' sentences to make them one.
	t.Run("decimal points", func(t *testing.T) {
		olderFormatKeeps(t, []neardup.Document{rateStory("rate-a", "1.5", "4.5", 0), rateStory("rate-b", "15", "45", 1)},
			"the rates of other points", []olderFormat{formats[0], formats[1], formats[3]})
	})
}

// TestNarrowSpaceReprint: a French notice whose sums a narrow no-break
// space (U+202F) sets apart, as French typography sets them, and its copy
// with plain spaces are a duplicate of score 1 for sentences and cosine,
// as for minhash: the narrow space sets the figures apart as a plain one
// does. Word segmentation (UAX #29) read "180\u202f000" as one word, the
// copy's "180 000" as two, so that sentences scored the copy 0.33, its
// sentences with sums all other. An index of sentences' format 4 goes on
// reading it so.
func TestNarrowSpaceReprint(t *testing.T) {
	text := "PARIS, 5 mars (AFP) - Le conseil municipal a voté lundi une enveloppe de 180\u202f000 euros pour la rénovation " +
		"thermique de l'école primaire, dont les travaux doivent débuter l'été prochain.\n\nLa région versera une " +
		"subvention de 45\u202f000 euros, a précisé le maire lors de la séance publique du conseil.\n\nLes élus de " +
		"l'opposition ont voté contre, jugeant le projet insuffisant au regard de l'état du bâtiment."
	date := time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)
	docs := []neardup.Document{
		{ID: "narrow", Title: "L'école sera rénovée", Text: text, Date: date},
		{ID: "plain", Title: "L'école sera rénovée", Text: strings.ReplaceAll(text, "\u202f", " "), Date: date.Add(time.Hour)},
	}
	for _, o := range []neardup.MethodOptions{sentences.Defaults(), cosine.Defaults()} {
		res, err := neardup.Dedup(t.Context(), docs, neardup.Options{Method: o})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Pairs) != 1 || res.Pairs[0].Label != neardup.Duplicate || res.Pairs[0].Score < 0.9999 {
			t.Errorf("%s: %+v, want one duplicate of score 1", o.Method(), res.Pairs)
		}
	}
	old := filepath.Join(t.TempDir(), "old.db")
	setSketchFormat(t, old, sentences.Defaults(), 4)
	if got, _ := addedLabel(t, old, neardup.Options{MethodName: sentences.Name}, docs); got == neardup.Duplicate {
		t.Errorf("an index of sentences' format 4: %q, want the similar pair it made", got)
	}
}

// TestNarrowSpaceQuotesOfOlderFormat: an index of sentences' format 4
// quotes every sentence a pair shares, those with a narrow no-break space
// between figures too: the sentences are read again to quote them as the
// format's sketches read them, "180\u202f000" one word. Regression: they were
// read with the space setting figures apart, their hashes other than the
// sketches', and the sentences holding a sum were left out of the quotes.
func TestNarrowSpaceQuotesOfOlderFormat(t *testing.T) {
	doc := enginetest.NarrowSpaceDoc()
	copied := doc
	copied.ID, copied.Date = "narrow-again", doc.Date.Add(time.Hour)
	for _, format := range []int{4, sentences.Format} {
		db := filepath.Join(t.TempDir(), "x.db")
		setSketchFormat(t, db, sentences.Defaults(), format)
		x, err := neardup.Open(t.Context(), db, neardup.Options{MethodName: sentences.Name})
		if err != nil {
			t.Fatal(err)
		}
		ms, err := x.Add(t.Context(), doc, copied)
		x.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(ms[1].Pairs) != 1 {
			t.Fatalf("format %d: pairs %+v, want one", format, ms[1].Pairs)
		}
		ev, ok := ms[1].Pairs[0].Evidence.(sentences.Evidence)
		if !ok {
			t.Fatalf("format %d: evidence %T", format, ms[1].Pairs[0].Evidence)
		}
		if ev.Shared == 0 || len(ev.Sentences) != ev.Shared {
			t.Errorf("format %d: %d sentences shared, %d quoted: %q", format, ev.Shared, len(ev.Sentences), ev.Sentences)
		}
	}
}

// TestZeroWidthSpaceReprint: a notice whose words a zero-width space
// (U+200B) cuts, as a page's markup or copy protection leaves it, and its
// copy without them are a duplicate of score 1 for sentences and cosine,
// as for minhash: the space is read as the invisible character it is. Word
// segmentation (UAX #29) breaks words at it, so that "금융통화\u200b위원회는"
// was two words and the copy's one, and sentences found no sentence
// shared. An index of sentences' format 4 goes on reading it so.
func TestZeroWidthSpaceReprint(t *testing.T) {
	doc := enginetest.ZeroWidthSpaceDoc()
	plain := doc
	plain.ID, plain.Date = "plain", doc.Date.Add(time.Hour)
	plain.Title, plain.Text = strings.ReplaceAll(doc.Title, "\u200b", ""), strings.ReplaceAll(doc.Text, "\u200b", "")
	docs := []neardup.Document{doc, plain}
	for _, o := range []neardup.MethodOptions{minhash.Defaults(), sentences.Defaults(), cosine.Defaults()} {
		res, err := neardup.Dedup(t.Context(), docs, neardup.Options{Method: o})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Pairs) != 1 || res.Pairs[0].Label != neardup.Duplicate || res.Pairs[0].Score < 0.9999 {
			t.Errorf("%s: %+v, want one duplicate of score 1", o.Method(), res.Pairs)
		}
	}
	old := filepath.Join(t.TempDir(), "old.db")
	setSketchFormat(t, old, sentences.Defaults(), 4)
	if got, _ := addedLabel(t, old, neardup.Options{MethodName: sentences.Name}, docs); got == neardup.Duplicate {
		t.Errorf("an index of sentences' format 4: %q, want no duplicate", got)
	}
}

// TestUrduFullStopReprint: an Urdu story of four sentences and its copy
// with one word changed share three of five sentences (0.6), a pair under
// sentences (a duplicate at the defaults): the Urdu full stop "۔" ends a
// sentence, where the story was one sentence and the copy shared none. An index
// of sentences' format 6, which read the story as one sentence, goes on
// reading it so, its new sketches agreeing with those it holds: no pair.
func TestUrduFullStopReprint(t *testing.T) {
	text := "شہر کی کونسل نے پیر کے روز پرانی بندرگاہ کی تعمیر نو کے نئے منصوبے کی منظوری دے دی۔ " +
		"حکام نے کہا کہ کام موسم بہار میں شروع ہوگا اور تقریباً دو سال میں مکمل ہوگا۔ " +
		"مقامی ماہی گیروں نے فیصلے کا خیرمقدم کیا لیکن تاخیر کے بارے میں خبردار کیا۔ " +
		"میئر نے کہا کہ بندرگاہ شہر کے لیے بہت اہم ہے اور ہر مرحلے پر رہائشیوں سے مشورہ کیا جائے گا۔"
	date := time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)
	docs := []neardup.Document{
		{ID: "ur1", Title: "بندرگاہ", Text: text, Date: date},
		{ID: "ur2", Title: "بندرگاہ", Text: strings.Replace(text, "پیر", "منگل", 1), Date: date.Add(time.Hour)},
	}
	res, err := neardup.Dedup(t.Context(), docs, neardup.Options{Method: sentences.Defaults()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pairs) != 1 || res.Pairs[0].Score < 0.5999 || res.Pairs[0].Score > 0.6001 {
		t.Errorf("%+v, want one pair of score 0.6", res.Pairs)
	}
	old := filepath.Join(t.TempDir(), "old.db")
	setSketchFormat(t, old, sentences.Defaults(), 6)
	if got, _ := addedLabel(t, old, neardup.Options{MethodName: sentences.Name}, docs); got != "" {
		t.Errorf("an index of sentences' format 6: %q, want no pair, as it made", got)
	}
}
