package watch

import (
	"fmt"
	"html"
	"strings"
	"testing"
	"time"

	"github.com/mmcdole/gofeed"

	"github.com/neardup/neardup/internal/extract"
)

// TestItemDateZones: an item's date, an article's when its page gives
// none, is read in the zone it names, those gofeed does not know (MSK,
// JST, KST) included, which it read as UTC; and CST, in a feed or on a
// page in Chinese, is China Standard Time (UTC+8), not North America's
// Central Time: the page's language says so, else the feed's.
func TestItemDateZones(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	cases := []struct {
		name, feedLang, page, date string // page: "en", "zh" (declared) or "none" (no language found)
		want                       time.Time
	}{
		{"MSK", "ru", "en", "Mon, 02 Nov 2026 10:00:00 MSK", time.Date(2026, 11, 2, 7, 0, 0, 0, time.UTC)},
		{"JST", "ja", "en", "Mon, 02 Nov 2026 10:00:00 JST", time.Date(2026, 11, 2, 1, 0, 0, 0, time.UTC)},
		{"KST", "ko", "en", "Mon, 02 Nov 2026 10:00:00 KST", time.Date(2026, 11, 2, 1, 0, 0, 0, time.UTC)},
		{"EST", "en", "en", "Mon, 02 Nov 2026 10:00:00 EST", time.Date(2026, 11, 2, 15, 0, 0, 0, time.UTC)},
		{"GMT", "zh-cn", "zh", "Mon, 02 Nov 2026 10:00:00 GMT", time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)},
		{"an offset", "zh-cn", "zh", "Mon, 02 Nov 2026 10:00:00 -0600", time.Date(2026, 11, 2, 16, 0, 0, 0, time.UTC)},
		{"CST in English", "en", "en", "Mon, 02 Nov 2026 10:00:00 CST", time.Date(2026, 11, 2, 16, 0, 0, 0, time.UTC)},
		{"CST of a feed in Chinese", "zh-cn", "none", "Mon, 02 Nov 2026 10:00:00 CST", time.Date(2026, 11, 2, 2, 0, 0, 0, time.UTC)},
		{"CST of a page in Chinese", "en", "zh", "Mon, 02 Nov 2026 10:00:00 CST", time.Date(2026, 11, 2, 2, 0, 0, 0, time.UTC)},
		{"CST of a page in English, the feed in Chinese", "zh-cn", "en", "Mon, 02 Nov 2026 10:00:00 CST", time.Date(2026, 11, 2, 16, 0, 0, 0, time.UTC)},
		// Regression: read again, BST was UTC, an hour off.
		{"BST", "en", "en", "Mon, 02 Nov 2026 10:00:00 BST", time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)},
		// Regression: names neither gofeed nor package extract knew were
		// read as UTC ("AEDT" cut to "AED").
		{"AEDT", "en", "en", "Mon, 02 Nov 2026 10:00:00 AEDT", time.Date(2026, 11, 1, 23, 0, 0, 0, time.UTC)},
		{"IST", "en", "en", "Mon, 02 Nov 2026 10:00:00 IST", time.Date(2026, 11, 2, 4, 30, 0, 0, time.UTC)},
		{"ET", "en", "en", "Mon, 02 Nov 2026 10:00:00 ET", time.Date(2026, 11, 2, 15, 0, 0, 0, time.UTC)},
		// A name package extract does not know: gofeed's reading is kept.
		{"AST", "en", "en", "Mon, 02 Nov 2026 10:00:00 AST", time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)},
		// Read again, the day and the month would change places: gofeed's
		// reading is kept.
		{"day first", "en", "en", "02/01/2026 10:00 EST", time.Date(2026, 1, 2, 15, 0, 0, 0, time.UTC)},
		// Placeholders stand for no date (core.NoDate): the article is
		// undated (regression: year 1 came before every real date).
		{"year 1", "en", "en", "Mon, 01 Jan 0001 00:00:00 +0100", time.Time{}},
		{"the Unix epoch", "en", "en", "Thu, 01 Jan 1970 00:00:00 GMT", time.Time{}},
		// Past year 9999 in UTC, which no output writes: no date (regression:
		// stored, it made the API's lists answer 500).
		{"year 10000 in UTC", "en", "en", "Fri, 31 Dec 9999 23:00:00 -0500", time.Time{}},
	}
	for i, c := range cases {
		page := fmt.Sprintf("/page/%d", i)
		switch c.page {
		case "en", "zh":
			p := newStory(uint64(500+i)).page("Daily", "")
			if c.page == "zh" {
				p = strings.Replace(p, `<html lang="en">`, `<html lang="zh-CN">`, 1)
			}
			s.serve(page, "text/html; charset=utf-8", p)
		case "none": // figures alone: no language declared or detected
			s.serve(page, "text/html; charset=utf-8", `<!DOCTYPE html><html><head><title>Figures</title></head><body><article><p>`+
				strings.Repeat(fmt.Sprintf("%d 5678 90. ", 1000+i), 60)+`</p></article></body></html>`)
		}
		s.serve(fmt.Sprintf("/feed/%d", i), "application/rss+xml", fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>`+
			`<rss version="2.0"><channel><title>T</title><link>http://example.com/</link><description>d</description>`+
			`<language>%s</language><item><title>Item</title><link>%s</link><pubDate>%s</pubDate></item></channel></rss>`,
			c.feedLang, html.EscapeString(s.URL+page), c.date))
		addFeed(t, x, Feed{URL: fmt.Sprintf("%s/feed/%d", s.URL, i), Interval: Duration(time.Hour)})
	}
	for _, r := range once(t, newWatcher(t, x, testOptions())) {
		if r.Status != "ok" || r.Outcomes[OutcomeAdded]+r.Outcomes[OutcomeDuplicate] != 1 {
			t.Fatalf("%+v (%v)", r, r.Err)
		}
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, _ := stored(t, x, fmt.Sprintf("%s/page/%d", s.URL, i))
			if !d.Date.Equal(c.want) {
				t.Errorf("%q, feed in %q, page %s: %s, want %s", c.date, c.feedLang, c.page, d.Date.UTC(), c.want)
			}
		})
	}
}

// Regression: an item's date with a zone's name and an offset after it
// was January ("MSK+1", "EST+1": gofeed reads none of them, and the
// fallback took the offset for the month), or gofeed's reading of
// "GMT+3" kept the clock as UTC's. It is read as package extract reads
// it (extract.TestParseDate), which the test checks too: east of UTC after
// UTC and GMT, hours on from Moscow after MSK, else no date; and a clock
// alone, or a month of a year without a day, is no date.
func TestItemDateZoneOffsets(t *testing.T) {
	for _, tc := range []struct {
		date string
		want time.Time // zero: undated
	}{
		{"Tue, 05 Mar 2024 10:30:00 MSK+1", time.Date(2024, 3, 5, 6, 30, 0, 0, time.UTC)},
		{"2024-03-05 10:30 MSK+1", time.Date(2024, 3, 5, 6, 30, 0, 0, time.UTC)},
		{"March 5, 2024 10:30 PM MSK+1", time.Date(2024, 3, 5, 18, 30, 0, 0, time.UTC)},
		{"Tue, 05 Mar 2024 10:30:00 GMT+3", time.Date(2024, 3, 5, 7, 30, 0, 0, time.UTC)},
		{"Tue, 05 Mar 2024 10:30:00 UTC-5", time.Date(2024, 3, 5, 15, 30, 0, 0, time.UTC)},
		{"Tue, 05 Mar 2024 10:30:00 UTC-05:00", time.Date(2024, 3, 5, 15, 30, 0, 0, time.UTC)},
		{"Tue, 05 Mar 2024 10:30:00 +3", time.Date(2024, 3, 5, 7, 30, 0, 0, time.UTC)},
		{"Tue, 05 Mar 2024 10:30:00 EST+1", time.Time{}},
		// Regression (f81f954): an offset after a name the table gives
		// another was no date; the figures settle the zone.
		{"Tue, 05 Mar 2024 10:30:00 CET+0200", time.Date(2024, 3, 5, 8, 30, 0, 0, time.UTC)},
		{"2024-03-05 10:30:00 CST+0800", time.Date(2024, 3, 5, 2, 30, 0, 0, time.UTC)},
		{"Tue, 05 Mar 2024 10:30:00 IST+0200", time.Date(2024, 3, 5, 8, 30, 0, 0, time.UTC)},
		{"Tue, 05 Mar 2024 10:30:00 BST+0600", time.Date(2024, 3, 5, 4, 30, 0, 0, time.UTC)},
		{"Tue, 05 Mar 2024 10:30:00 CST-0500", time.Date(2024, 3, 5, 15, 30, 0, 0, time.UTC)},
		{"Tue, 05 Mar 2024 10:30:00 PST-0700", time.Date(2024, 3, 5, 17, 30, 0, 0, time.UTC)},
		{"Tue, 05 Mar 2024 10:30:00 EST-0400", time.Date(2024, 3, 5, 14, 30, 0, 0, time.UTC)},
		{"Tue, 05 Mar 2024 10:30:00 MEZ+0200", time.Date(2024, 3, 5, 8, 30, 0, 0, time.UTC)},
		{"Tue, 05 Mar 2024 10:30:00 IST+0100", time.Date(2024, 3, 5, 9, 30, 0, 0, time.UTC)},
		{"Tue, 05 Mar 2024 10:30:00 KST+9", time.Date(2024, 3, 5, 1, 30, 0, 0, time.UTC)},
		{"Tue, 05 Mar 2024 10:30:00 CET+1", time.Time{}},
		// Regression: a zone before the year, as Unix's date writes it:
		// gofeed kept the clock of "GMT+3" as UTC's.
		{"Tue Mar  5 10:30:00 GMT+3 2024", time.Date(2024, 3, 5, 7, 30, 0, 0, time.UTC)},
		{"Tue Mar  5 10:30:00 MSK+1 2024", time.Date(2024, 3, 5, 6, 30, 0, 0, time.UTC)},
		{"Tue Mar  5 10:30:00 UTC-05:00 2024", time.Date(2024, 3, 5, 15, 30, 0, 0, time.UTC)},
		{"Tue Mar  5 10:30:00 MSK 2024", time.Date(2024, 3, 5, 7, 30, 0, 0, time.UTC)},
		{"Tue Mar  5 10:30:00 EST 2024", time.Date(2024, 3, 5, 15, 30, 0, 0, time.UTC)},
		{"10:30 MSK+1", time.Time{}},
		{"01:02:03", time.Time{}},
		// Regression: a year and a month but no day (gofeed reads none
		// of them) was the first of the month, as extract.ParseDate read
		// it: an invented day could make a later copy look first.
		{"2024-03", time.Time{}},
		{"2024/03", time.Time{}},
		{"2024-01", time.Time{}},
		{"March 2024", time.Time{}},
		{"03/2024", time.Time{}},
		{"Mar. 2024", time.Time{}},
		{"2024-03-05", time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC)},
		{"5 March 2024", time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC)},
		{"March 5, 2024 10:00 AM EST", time.Date(2024, 3, 5, 15, 0, 0, 0, time.UTC)},
		// As before: gofeed's reading, and a name read again.
		{"Tue, 05 Mar 2024 10:30:00 +0300", time.Date(2024, 3, 5, 7, 30, 0, 0, time.UTC)},
		{"Tue, 05 Mar 2024 10:30:00 MSK", time.Date(2024, 3, 5, 7, 30, 0, 0, time.UTC)},
	} {
		t.Run(tc.date, func(t *testing.T) {
			f, err := gofeed.NewParser().ParseString(`<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>` +
				`<item><title>x</title><pubDate>` + html.EscapeString(tc.date) + `</pubDate></item></channel></rss>`)
			if err != nil {
				t.Fatal(err)
			}
			got := itemDate(f.Items[0])
			if !got.Equal(tc.want) {
				t.Errorf("itemDate = %v, want %v", got.UTC(), tc.want)
			}
			if ext, _ := extract.ParseDate(tc.date); !ext.Equal(got) {
				t.Errorf("itemDate = %v, extract.ParseDate %v", got.UTC(), ext.UTC())
			}
		})
	}
}

// Regression: a cut feed ranked its items by dates dateparse read, which
// took "MSK+1" for January: the newest item, so dated, was cut.
func TestKeptItemsZoneOffset(t *testing.T) {
	dates := []string{
		"Mon, 04 Mar 2024 09:00:00 MSK", "Mon, 04 Mar 2024 10:00:00 MSK", "Mon, 04 Mar 2024 08:00:00 MSK",
		"Tue, 05 Mar 2024 10:30:00 MSK+1", // the newest, in the middle
		"Mon, 04 Mar 2024 07:00:00 MSK", "Mon, 04 Mar 2024 11:00:00 MSK", "Mon, 04 Mar 2024 06:00:00 MSK",
	}
	kept := keptItems(len(dates), 1, func(i int) string { return dates[i] })
	if !kept[3] {
		t.Errorf("kept %v: the newest, item 3, cut", kept)
	}
}

// Regression: a cut feed ranked an item dated with a month and no day
// ("2024-04", read as April 1) above its newest.
func TestKeptItemsWithoutDay(t *testing.T) {
	dates := []string{
		"Mon, 04 Mar 2024 09:00:00 GMT", "Mon, 04 Mar 2024 10:00:00 GMT", "2024-04",
		"Tue, 05 Mar 2024 10:30:00 GMT", // the newest, in the middle
		"Mon, 04 Mar 2024 07:00:00 GMT", "Mon, 04 Mar 2024 11:00:00 GMT", "Mon, 04 Mar 2024 06:00:00 GMT",
	}
	kept := keptItems(len(dates), 1, func(i int) string { return dates[i] })
	if !kept[3] || kept[2] {
		t.Errorf("kept %v: want the newest, item 3, kept and item 2, undated, cut", kept)
	}
}
