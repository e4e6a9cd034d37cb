package corpus

import (
	"encoding/csv"
	"encoding/json"
	"html"
	"io"
	nurl "net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	xhtml "golang.org/x/net/html"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/extract"
)

func TestParseDate(t *testing.T) {
	utc := func(y int, m time.Month, d, h, min, s int) time.Time {
		return time.Date(y, m, d, h, min, s, 0, time.UTC)
	}
	for _, tc := range []struct {
		in   string
		want time.Time
	}{
		{"2024-03-05T10:20:30Z", utc(2024, 3, 5, 10, 20, 30)},
		{"2024-03-05T12:20:30+02:00", utc(2024, 3, 5, 10, 20, 30)},
		{"2024-03-05T10:20:30.123Z", time.Date(2024, 3, 5, 10, 20, 30, 123e6, time.UTC)},
		{"2024-03-05T12:20:30+0200", utc(2024, 3, 5, 10, 20, 30)},
		{"2024-03-05T10:20:30", utc(2024, 3, 5, 10, 20, 30)},
		{"2024-03-05 10:20:30", utc(2024, 3, 5, 10, 20, 30)},
		{"2024-03-05 12:20:30 +0200", utc(2024, 3, 5, 10, 20, 30)},
		{"2024-03-05 10:20", utc(2024, 3, 5, 10, 20, 0)},
		{" 2024-03-05 ", utc(2024, 3, 5, 0, 0, 0)},
		{"2024/03/05", utc(2024, 3, 5, 0, 0, 0)},
		{"Tue, 05 Mar 2024 12:20:30 +0200", utc(2024, 3, 5, 10, 20, 30)},
		{"Tue, 5 Mar 2024 12:20:30 +0200", utc(2024, 3, 5, 10, 20, 30)},
		{"Tue, 05 Mar 2024 10:20:30 GMT", utc(2024, 3, 5, 10, 20, 30)},
		{"5 Mar 2024 12:20:30 +0200", utc(2024, 3, 5, 10, 20, 30)},
		{"Tuesday, 05-Mar-24 10:20:30 UTC", utc(2024, 3, 5, 10, 20, 30)},
		{"March 5, 2024", utc(2024, 3, 5, 0, 0, 0)},
		{"Mar 5, 2024", utc(2024, 3, 5, 0, 0, 0)},
		{"5 March 2024", utc(2024, 3, 5, 0, 0, 0)},
		{"05.03.2024", utc(2024, 3, 5, 0, 0, 0)},
		// Regression: a zone's name was read with a zero offset unless it
		// was the local zone's, so that the result depended on the machine
		// (EST was UTC here, UTC-5 in New York; CET was UTC but in Europe).
		{"Tue, 05 Mar 2024 05:20:30 EST", utc(2024, 3, 5, 10, 20, 30)},
		{"Tue, 05 Mar 2024 03:20:30 PDT", utc(2024, 3, 5, 10, 20, 30)},
		{"2024-03-05 11:20:30 CET", utc(2024, 3, 5, 10, 20, 30)},
		{"5 Mar 2024 04:20:30 CST", utc(2024, 3, 5, 10, 20, 30)},
		// Regression: a mail date's zone comment, and RFC 3339's lower
		// case "t" and "z", left the document undated.
		{"Tue, 5 Mar 2024 10:20:30 +0000 (UTC)", utc(2024, 3, 5, 10, 20, 30)},
		{"Tue, 5 Mar 2024 02:20:30 -0800 (PST)", utc(2024, 3, 5, 10, 20, 30)},
		{"2024-03-05t10:20:30z", utc(2024, 3, 5, 10, 20, 30)},
		// Regression: an upper-case "T" with a lower-case "z" was no date.
		{"2024-03-05T10:20:30z", utc(2024, 3, 5, 10, 20, 30)},
		{"2024-03-05T10:20:30.5z", time.Date(2024, 3, 5, 10, 20, 30, 5e8, time.UTC)},
		{"(no date)", time.Time{}},
		{"2024-03-05 21:20 (AEDT)", utc(2024, 3, 5, 10, 20, 0)},
		{"2024-03-05T15:50:30.5 IST", time.Date(2024, 3, 5, 10, 20, 30, 5e8, time.UTC)},
		// Regression: other names news exports carry were read as UTC.
		{"Tue, 05 Mar 2024 15:50:30 IST", utc(2024, 3, 5, 10, 20, 30)},
		{"Tue, 05 Mar 2024 21:20:30 AEDT", utc(2024, 3, 5, 10, 20, 30)},
		{"2024-07-05 06:20:30 ET", utc(2024, 7, 5, 10, 20, 30)},
		// Regression: Unix time as text (every CSV value is) was not read.
		{"1709634030", utc(2024, 3, 5, 10, 20, 30)},
		{"1709634030.5", time.Date(2024, 3, 5, 10, 20, 30, 5e8, time.UTC)},
		{"1709634030000", utc(2024, 3, 5, 10, 20, 30)},
		{"20240305", utc(2024, 3, 5, 0, 0, 0)},
		{"202403051020", time.Time{}},
		{"17096340x0", time.Time{}},
		{"yesterday", time.Time{}},
		{"", time.Time{}},
		{"2024-13-45", time.Time{}},
		// Regression: forms of feeds and exports that were not read, their
		// documents undated (minutes without seconds, a space before the
		// offset).
		{"2024-03-05T12:20+02:00", utc(2024, 3, 5, 10, 20, 0)},
		{"2024-03-05T10:20Z", utc(2024, 3, 5, 10, 20, 0)},
		{"2024-03-05T12:20:30 +02:00", utc(2024, 3, 5, 10, 20, 30)},
		{"2024-03-05 12:20:30 +02:00", utc(2024, 3, 5, 10, 20, 30)},
		{"Tue, 5 Mar 2024 10:20 GMT", utc(2024, 3, 5, 10, 20, 0)},
		// Regression: placeholders that stand for no date were read as
		// dates: the Unix epoch (held as "undated" by the index and the
		// batch, silently) and year 1 written with an offset (which came
		// before every real date, so that its document was the original).
		{"1970-01-01T00:00:00Z", time.Time{}},
		{"1970-01-01", time.Time{}},
		{"0001-01-01T00:00:00+01:00", time.Time{}},
		{"0001-01-01", time.Time{}},
		// Past year 9999 in UTC: no RFC 3339 output can write it.
		{"9999-12-31T23:00:00-05:00", time.Time{}},
		{"Fri, 31 Dec 9999 23:00:00 -0500", time.Time{}},
		{"253402300800", time.Time{}}, // Unix seconds of 10000-01-01
		{"9999-12-31T23:00:00+05:00", utc(9999, 12, 31, 18, 0, 0)},
		{"1969-12-31T23:59:59Z", utc(1969, 12, 31, 23, 59, 59)},
		{"1970-01-01T00:00:01Z", utc(1970, 1, 1, 0, 0, 1)},
		// Regression: Unix time before 1970 was no date. Text is read as
		// Unix time at 9, 10 or 13 digits alone, a minus sign or not.
		{"-1709634030", utc(1915, 10, 29, 13, 39, 30)},
		{"-100000000", utc(1966, 10, 31, 14, 13, 20)},
		{"-1709634030000", utc(1915, 10, 29, 13, 39, 30)},
		{"-86400", time.Time{}},
		{"-62135596800", time.Time{}}, // Unix seconds of year 1
		// Regression: a zone's name with an offset after it was not read,
		// or "GMT+3" was read at 10:30Z: as package extract reads it
		// (TestParseDate there), east of UTC after UTC and GMT, hours on
		// from Moscow after MSK, else no date.
		{"2024-03-05 10:30 MSK+1", utc(2024, 3, 5, 6, 30, 0)},
		{"Tue, 05 Mar 2024 10:30:00 MSK+1", utc(2024, 3, 5, 6, 30, 0)},
		{"March 5, 2024 10:30 MSK+1", utc(2024, 3, 5, 6, 30, 0)},
		{"05.03.2024 10:30 MSK+1", utc(2024, 3, 5, 6, 30, 0)},
		{"2024-03-05 10:30 (MSK+1)", utc(2024, 3, 5, 6, 30, 0)},
		{"2024-03-05 10:30 MSK−1", utc(2024, 3, 5, 8, 30, 0)},
		{"2024-03-05 10:30 MSK+10", time.Time{}},
		{"Tue, 05 Mar 2024 10:30:00 GMT+3", utc(2024, 3, 5, 7, 30, 0)},
		{"Tue, 5 Mar 2024 10:30 GMT+3", utc(2024, 3, 5, 7, 30, 0)},
		{"Tue Mar  5 10:30:00 GMT+3 2024", utc(2024, 3, 5, 7, 30, 0)},
		{"2024-03-05 10:30 GMT +3", utc(2024, 3, 5, 7, 30, 0)},
		{"2024-03-05 10:30 UTC-5", utc(2024, 3, 5, 15, 30, 0)},
		{"2024-03-05 10:30 UTC-05:00", utc(2024, 3, 5, 15, 30, 0)},
		{"2024-03-05 10:30 UTC+5:30", utc(2024, 3, 5, 5, 0, 0)},
		{"2024-03-05 10:30 +3", utc(2024, 3, 5, 7, 30, 0)},
		{"2024-03-05 10:30:00 EST-0500", utc(2024, 3, 5, 15, 30, 0)},
		{"2024-03-05 10:30 EST+1", time.Time{}},
		{"Tue, 05 Mar 2024 10:30:00 CET+1", time.Time{}},
		// Regression (f81f954): an offset after a name the table gives
		// another was no date; the figures settle the zone.
		{"2024-03-05 10:30:00 CST+0800", utc(2024, 3, 5, 2, 30, 0)},
		{"2024-03-05 10:30:00 CST+08:00", utc(2024, 3, 5, 2, 30, 0)},
		{"2024-03-05 10:30:00 IST+0200", utc(2024, 3, 5, 8, 30, 0)},
		{"2024-03-05 10:30:00 IST+0100", utc(2024, 3, 5, 9, 30, 0)},
		{"2024-03-05 10:30:00 BST+0600", utc(2024, 3, 5, 4, 30, 0)},
		{"2024-03-05 10:30:00 CST-0500", utc(2024, 3, 5, 15, 30, 0)},
		{"2024-03-05 10:30:00 PST-0700", utc(2024, 3, 5, 17, 30, 0)},
		{"2024-03-05 10:30:00 CET+0200", utc(2024, 3, 5, 8, 30, 0)},
		{"Tue, 05 Mar 2024 10:30:00 EST-0400", utc(2024, 3, 5, 14, 30, 0)},
		{"05.03.2024 10:30 MEZ+0200", utc(2024, 3, 5, 8, 30, 0)},
		{"2024-03-05 10:30 KST+9", utc(2024, 3, 5, 1, 30, 0)},
		{"2024-03-05 10:30 EST-5", time.Time{}},
		{"Tue Mar  5 10:30:00 MSK 2024", utc(2024, 3, 5, 7, 30, 0)},
		{"Tue Mar  5 10:30:00 MSK+1 2024", utc(2024, 3, 5, 6, 30, 0)},
		{"Tue Mar  5 10:30:00 UTC-05:00 2024", utc(2024, 3, 5, 15, 30, 0)},
		{"Tue Mar  5 10:30:00 EST 2024", utc(2024, 3, 5, 15, 30, 0)},
		{"Tue Mar  5 10:30:00 CST+0800 2024", utc(2024, 3, 5, 2, 30, 0)},
		{"Tue Mar  5 10:30:00 EST+1 2024", time.Time{}},
		{"10:30 MSK+1", time.Time{}},
		{"10:30:00", time.Time{}},
		// Regression: an offset of hours alone after the clock, as
		// PostgreSQL writes a timestamptz as text, was no date, and so
		// was one of hours and minutes without a colon after a space's
		// clock; an offset is read after a time of day only.
		{"2024-03-05 12:20:30+02", utc(2024, 3, 5, 10, 20, 30)},
		{"2024-03-05T12:20:30+02", utc(2024, 3, 5, 10, 20, 30)},
		{"2024-03-05 05:20:30-05", utc(2024, 3, 5, 10, 20, 30)},
		{"2024-03-05 12:20:30.25+02", time.Date(2024, 3, 5, 10, 20, 30, 25e7, time.UTC)},
		{"2024-03-05T12:20+02", utc(2024, 3, 5, 10, 20, 0)},
		{"2024-03-05 12:20:30+0200", utc(2024, 3, 5, 10, 20, 30)},
		{"2024-03-05 12:20:30+02:00", utc(2024, 3, 5, 10, 20, 30)},
		{"2024-03-05 15:50:30+05:30", utc(2024, 3, 5, 10, 20, 30)},
		// A clock without seconds after a space, an offset or Z straight
		// after it, as after a T.
		{"2024-03-05 12:20+02", utc(2024, 3, 5, 10, 20, 0)},
		{"2024-03-05 12:20+02:00", utc(2024, 3, 5, 10, 20, 0)},
		{"2024-03-05 05:20-05:00", utc(2024, 3, 5, 10, 20, 0)},
		{"2024-03-05 12:20+0200", utc(2024, 3, 5, 10, 20, 0)},
		{"2024-03-05 10:20Z", utc(2024, 3, 5, 10, 20, 0)},
		{"2024-03-05T12:20+0200", utc(2024, 3, 5, 10, 20, 0)},
		{"2024-03-05 12:20+2", time.Time{}},
		{"2024-03-05-05", time.Time{}},
		{"2024-03-05 -05", time.Time{}},
		{"2024-03-05 12:20:30+2", time.Time{}},
		{"2024-03-05 12:20:30+020", time.Time{}},
		{"2024+02", time.Time{}},
		// An RFC 1123 date without a zone is a time of no zone named.
		{"Tue, 05 Mar 2024 10:30:00", utc(2024, 3, 5, 10, 30, 0)},
	} {
		t.Run(tc.in, func(t *testing.T) {
			if got := parseDate(tc.in); !got.Equal(tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// Date values no layout reads are counted once, with the first of them,
// and their documents are undated; a second pass does not count them again.
func TestUnreadDates(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.jsonl": `{"id":"1","text":"x","date":"2024-05-01"}` + "\n" +
			`{"id":"2","text":"x","date":"the 1st of May"}` + "\n" +
			`{"id":"3","text":"x","date":-1e16}` + "\n" +
			`{"id":"4","text":"x","date":" "}` + "\n" +
			`{"id":"7","text":"x","date":true}` + "\n" +
			`{"id":"8","text":"x","date":{"$date":"2024-05-01"}}` + "\n" +
			`{"id":"9","text":"x","date":"1970-01-01T00:00:00Z"}` + "\n" +
			`{"id":"10","text":"x","date":0.5}` + "\n",
		"b.csv": "id,text,date\n5,x,someday\n6,x,\n",
	})
	t.Chdir(dir)
	r, err := Open([]string{"a.jsonl", "b.csv"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for pass := range 2 {
		dated := 0
		for {
			rec, err := r.Next()
			if err != nil {
				break
			}
			if !rec.Doc.Date.IsZero() {
				dated++
			}
		}
		n, first := r.UnreadDates()
		// Regression: a boolean or an object, the epoch and a Unix time
		// under a second were left undated without a word.
		if n != 7 || first != `"the 1st of May" at a.jsonl:2` || dated != 1 {
			t.Errorf("pass %d: %d unread dates, first %s, %d dated; want 7, the 1st of May at a.jsonl:2, 1", pass+1, n, first, dated)
		}
		if err := r.Rewind(); err != nil {
			t.Fatal(err)
		}
	}
}

// Regression: a feed file's item whose date no reader reads was left
// undated without a word, where a field's is counted and named
// (UnreadDates): it is counted and named as a field's, an Atom entry's
// updated date as its published one, and a placeholder (the Unix epoch)
// too; an item without a date is not.
func TestFeedUnreadDates(t *testing.T) {
	dir := t.TempDir()
	item := func(guid, date string) string {
		return `<item><title>x</title><guid>` + guid + `</guid><description>Some text.</description>` + date + `</item>`
	}
	writeFiles(t, dir, map[string]string{
		"f.rss": `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>` +
			item("1", `<pubDate>Tue, 05 Mar 2024 10:30:00 GMT</pubDate>`) +
			item("2", `<pubDate>sometime yesterday</pubDate>`) +
			item("3", "") +
			item("4", `<pubDate>Thu, 01 Jan 1970 00:00:00 GMT</pubDate>`) +
			`</channel></rss>`,
		"g.atom": `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>` +
			`<entry><title>x</title><id>5</id><content>Some text.</content><updated>the 1st of May</updated></entry></feed>`,
	})
	t.Chdir(dir)
	r, err := Open([]string{"f.rss", "g.atom"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var notes []string
	for pass := range 2 {
		notes = notes[:0]
		for {
			raw, err := r.NextRaw()
			if err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
			if rec := r.Decode(raw); rec.UnreadDate != "" {
				notes = append(notes, rec.UnreadDate)
			}
		}
		want := []string{`"sometime yesterday" at f.rss#2`, `"Thu, 01 Jan 1970 00:00:00 GMT" at f.rss#4`, `"the 1st of May" at g.atom#1`}
		if diff := cmp.Diff(want, notes); diff != "" {
			t.Errorf("pass %d: records' notes (-want +got):\n%s", pass+1, diff)
		}
		if n, first := r.UnreadDates(); n != 3 || first != want[0] {
			t.Errorf("pass %d: %d unread dates, first %s; want 3, %s", pass+1, n, first, want[0])
		}
		if err := r.Rewind(); err != nil {
			t.Fatal(err)
		}
	}
}

// CST is China Standard Time (UTC+8) in a document written in Chinese and
// North America's Central Time (UTC−6) in others, in every format.
func TestChinaStandardTime(t *testing.T) {
	dir := t.TempDir()
	zh := "市议会周二通过了新的年度预算，将更多资金用于公共交通和学校维修。"
	writeFiles(t, dir, map[string]string{
		"a.jsonl": `{"id":"zh","text":"` + zh + `","date":"2024-03-05 18:20:30 CST"}` + "\n" +
			`{"id":"en","text":"The council passed its budget on Tuesday.","date":"2024-03-05 04:20:30 CST"}` + "\n" +
			`{"id":"ja","text":"市議会は火曜日に新しい予算を可決しました。","date":"2024-03-05 04:20:30 CST"}` + "\n",
		"b.csv": "id,text,date\nzh2," + zh + ",2024-03-05 18:20:30 CST\n",
	})
	t.Chdir(dir)
	wantDates(t, []string{"a.jsonl", "b.csv"}, 4, time.Date(2024, 3, 5, 10, 20, 30, 0, time.UTC))
}

// Regression (f81f954): an offset written after CST settles which CST it
// is, in a document in Chinese too: "CST+0800" was no date, and
// "CST-0600" (Central's own offset, written) was read as China's.
func TestChinaStandardTimeOffset(t *testing.T) {
	dir := t.TempDir()
	zh := "市议会周二通过了新的年度预算，将更多资金用于公共交通和学校维修。"
	writeFiles(t, dir, map[string]string{
		"a.jsonl": `{"id":"china","text":"` + zh + `","date":"2024-03-05 18:20:30 CST+0800"}` + "\n" +
			`{"id":"central","text":"` + zh + `","date":"2024-03-05 04:20:30 CST-0600"}` + "\n",
	})
	t.Chdir(dir)
	wantDates(t, []string{"a.jsonl"}, 2, time.Date(2024, 3, 5, 10, 20, 30, 0, time.UTC))
}

// Regression: a date of a year and a month but no day was the first of the
// month in a feed file's item (extract.FeedDate, which gofeed leaves such a
// date to), while an input file's date field counted it unread: both now
// leave the document undated, as a year alone; full dates read as before.
func TestDateWithoutDay(t *testing.T) {
	for _, tc := range []struct{ date, file, feed string }{ // file, feed: the dates read, "" undated
		{"2024-03", "", ""},
		{"2024/03", "", ""},
		{"2024-01", "", ""},
		{"March 2024", "", ""},
		{"03/2024", "", ""},
		{"Mar. 2024", "", ""},
		{"2024-03-05", "2024-03-05T00:00:00", "2024-03-05T00:00:00"}, // of no zone named, in a file and a feed alike
		{"2024/03/05", "2024-03-05T00:00:00", "2024-03-05T00:00:00"},
		{"5 March 2024", "2024-03-05T00:00:00", "2024-03-05T00:00:00"},
		{"Tue, 05 Mar 2024 10:30:00 GMT", "2024-03-05T10:30:00Z", "2024-03-05T10:30:00Z"},
	} {
		t.Run(tc.date, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{
				"a.jsonl": `{"id":"1","text":"Some text.","date":"` + tc.date + `"}` + "\n",
				"f.rss": `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>` +
					`<item><title>x</title><guid>2</guid><description>Some text.</description><pubDate>` + tc.date + `</pubDate></item></channel></rss>`,
			})
			t.Chdir(dir)
			r, err := Open([]string{"a.jsonl", "f.rss"}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			got, err := drain(t, r)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 || got[0].Date != tc.file || got[1].Date != tc.feed {
				t.Fatalf("got %+v, want the file's record dated %q, the feed's %q", got, tc.file, tc.feed)
			}
			wantUnread := 0
			if tc.file == "" {
				wantUnread = 2 // the file's and the feed's, alike
			}
			if n, first := r.UnreadDates(); n != wantUnread {
				t.Errorf("%d unread dates (first %s), want %d", n, first, wantUnread)
			}
		})
	}
}

// wantDates reads paths and checks that they hold n records, each dated
// want.
func wantDates(t *testing.T, paths []string, n int, want time.Time) {
	t.Helper()
	r, err := Open(paths, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := 0
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		got++
		if !rec.Doc.Date.Equal(want) {
			t.Errorf("%s: %v, want %v", rec.Doc.ID, rec.Doc.Date.UTC(), want)
		}
	}
	if got != n {
		t.Errorf("%d records, want %d", got, n)
	}
}

// dateForms are forms of a date from the table of docs/dates.md
// ("Dates"), a row or more each, with the instant each is read as (zero:
// no date), in core.NoZone when the form names no zone, in every input but
// those readOtherwise names.
var dateForms = []struct {
	row, date string
	want      time.Time
}{
	{"ISO 8601", "2024-03-05T10:20:30Z", time.Date(2024, 3, 5, 10, 20, 30, 0, time.UTC)},
	{"ISO 8601, lower-case t and z", "2024-05-01t10:00:00z", time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)},
	{"ISO 8601, a space and an offset", "2024-03-05 12:20:30 +0200", time.Date(2024, 3, 5, 10, 20, 30, 0, time.UTC)},
	{"ISO 8601's basic format", "20240305T102030Z", time.Date(2024, 3, 5, 10, 20, 30, 0, time.UTC)},
	{"ISO 8601's basic format, no seconds", "20240305T1020Z", time.Date(2024, 3, 5, 10, 20, 0, 0, time.UTC)},
	{"ISO 8601's basic format, an offset", "20240305T122030+0200", time.Date(2024, 3, 5, 10, 20, 30, 0, time.UTC)},
	{"ISO 8601's basic format, no zone", "20240305T102030", time.Date(2024, 3, 5, 10, 20, 30, 0, core.NoZone)},
	{"RFC forms", "Tue, 05 Mar 2024 10:20:30 GMT", time.Date(2024, 3, 5, 10, 20, 30, 0, time.UTC)},
	{"news sites'", "March 5, 2024", time.Date(2024, 3, 5, 0, 0, 0, 0, core.NoZone)},
	{"news sites', day first with dots", "05.03.2024", time.Date(2024, 3, 5, 0, 0, 0, 0, core.NoZone)},
	{"news sites', day first with dots, one figure", "4.3.2024", time.Date(2024, 3, 4, 0, 0, 0, 0, core.NoZone)},
	{"news sites', year first with slashes and a clock", "2024/03/04 09:00", time.Date(2024, 3, 4, 9, 0, 0, 0, core.NoZone)},
	{"news sites', 12-hour clock", "March 4, 2024 9:00 AM", time.Date(2024, 3, 4, 9, 0, 0, 0, core.NoZone)},
	{"news sites', 12-hour clock with dots and a zone", "Mar 4, 2024, 9:00 a.m. EST", time.Date(2024, 3, 4, 14, 0, 0, 0, time.UTC)},
	{"news sites', clock first", "10:15 AM EST, March 4, 2024", time.Date(2024, 3, 4, 15, 15, 0, 0, time.UTC)},
	{"news sites', a month named in German", "3. Mai 2024", time.Date(2024, 5, 3, 0, 0, 0, 0, core.NoZone)},
	{"a year of two figures, day first with dots", "05.03.99", time.Date(1999, 3, 5, 0, 0, 0, 0, core.NoZone)},
	{"a year of two figures, day first with dots and a clock", "05.03.24 10:20", time.Date(2024, 3, 5, 10, 20, 0, 0, core.NoZone)},
	{"a year of two figures, RFC 822", "05 Mar 99 10:20 GMT", time.Date(1999, 3, 5, 10, 20, 0, 0, time.UTC)},
	{"day and month that could go either way", "03/10/2023", time.Time{}},
	{"Unix time as text", "1709634030", time.Date(2024, 3, 5, 10, 20, 30, 0, time.UTC)},
	{"a zone's name of RFC 5322", "Tue, 05 Mar 2024 05:20:30 EST", time.Date(2024, 3, 5, 10, 20, 30, 0, time.UTC)},
	{"a zone's name of Europe", "2024-03-05 11:20:30 CET", time.Date(2024, 3, 5, 10, 20, 30, 0, time.UTC)},
	{"a zone's name of Oceania, in brackets", "2024-03-05 21:20 (AEDT)", time.Date(2024, 3, 5, 10, 20, 0, 0, time.UTC)},
	{"a name no zone table agrees on", "2024-03-05 10:20:30 AST", time.Date(2024, 3, 5, 10, 20, 30, 0, time.UTC)},
	{"ET in summer", "2024-07-05 06:20:30 ET", time.Date(2024, 7, 5, 10, 20, 30, 0, time.UTC)},
	{"a name of two zones", "Tue, 05 Mar 2024 15:50:30 IST", time.Date(2024, 3, 5, 10, 20, 30, 0, time.UTC)},
	{"UT after a space", "Tue, 05 Mar 2024 10:20:30 UT", time.Date(2024, 3, 5, 10, 20, 30, 0, time.UTC)},
	{"Z after a space", "Tue, 05 Mar 2024 10:20:30 Z", time.Date(2024, 3, 5, 10, 20, 30, 0, time.UTC)},
	{"Z after a space, news sites'", "March 5, 2024 10:20 Z", time.Date(2024, 3, 5, 10, 20, 0, 0, time.UTC)},
	{"a zone of the IANA database", "2024-03-05 05:20:30 America/New_York", time.Date(2024, 3, 5, 10, 20, 30, 0, time.UTC)},
	{"a zone of the IANA database in summer", "Fri, 05 Jul 2024 12:20:30 Europe/Warsaw", time.Date(2024, 7, 5, 10, 20, 30, 0, time.UTC)},
	{"a zone's name no reader reads", "2024-03-05 10:20:30 Pacific Standard Time", time.Time{}},
	{"a zone of no name of the IANA database", "2024-03-05 10:20:30 America/Nowhere", time.Time{}},
	{"a word of capitals no reader knows for a zone", "2024-03-05 10:20:30 ABC", time.Time{}},
	{"a word no reader knows for a zone", "Tue, 05 Mar 2024 10:20:30 Abc", time.Time{}},
	{"Uhr after the clock", "Tue, 05 Mar 2024 10:20:30 Uhr", time.Date(2024, 3, 5, 10, 20, 30, 0, core.NoZone)},
	{"Z after a fraction's point", "2024-03-05T10:20:30.Z", time.Date(2024, 3, 5, 10, 20, 30, 0, time.UTC)},
	{"an offset after GMT", "Tue, 05 Mar 2024 10:30:00 GMT+3", time.Date(2024, 3, 5, 7, 30, 0, 0, time.UTC)},
	{"an offset after UTC", "2024-03-05 10:30 UTC-05:00", time.Date(2024, 3, 5, 15, 30, 0, 0, time.UTC)},
	{"hours after MSK", "2024-03-05 10:30 MSK+1", time.Date(2024, 3, 5, 6, 30, 0, 0, time.UTC)},
	{"hours and minutes after another name", "2024-03-05 10:30:00 CST+0800", time.Date(2024, 3, 5, 2, 30, 0, 0, time.UTC)},
	{"hours alone after a clock", "2024-03-05 10:30 +3", time.Date(2024, 3, 5, 7, 30, 0, 0, time.UTC)},
	{"hours alone straight after a clock", "2024-03-01 10:00:00+02", time.Date(2024, 3, 1, 8, 0, 0, 0, time.UTC)},
	{"hours alone after a date without a clock", "2024-03-05 -05", time.Time{}},
	{"figures after a date without a clock", "2024-03-05-05", time.Time{}},
	{"hours alone after another name, its own", "2024-03-05 10:30 KST+9", time.Date(2024, 3, 5, 1, 30, 0, 0, time.UTC)},
	{"hours alone after another name, not its own", "2024-03-05 10:30 EST+1", time.Time{}},
	{"minutes after MSK other than Moscow's", "2024-03-05 10:30 MSK+01:00", time.Time{}},
	{"a zone between the clock and the year", "Tue Mar  5 10:30:00 GMT+3 2024", time.Date(2024, 3, 5, 7, 30, 0, 0, time.UTC)},
	{"no zone", "2024-01-02 03:04:05", time.Date(2024, 1, 2, 3, 4, 5, 0, core.NoZone)},
	{"a clock alone", "10:30:00", time.Time{}},
	{"a year alone", "2024", time.Time{}},
	{"a year and a month", "2024-03", time.Time{}},
	{"a month's name and a year", "March 2024", time.Time{}},
	{"the Unix epoch", "1970-01-01T00:00:00Z", time.Time{}},
	{"year 1", "0001-01-01", time.Time{}},
	{"past year 9999 in UTC", "9999-12-31T23:00:00-05:00", time.Time{}},
}

// Regression: a JSON or CSV date field did not read forms a feed's item
// or a page reads (a 12-hour clock, "a.m.", a clock before the date,
// 2024/03/04 09:00, 4.3.2024, months named in other languages), leaving
// their documents undated; a feed's item read RFC 3339's lower-case "t"
// and "z" as no date, and the Unix epoch and an instant past year 9999 as
// dates. Each form of the docs' table is read as the same instant, or as
// no date, in every input: a JSON field, a CSV field, a feed's item and a
// page's <meta> date.
// readOtherwise are the forms of dateForms that an input reads otherwise,
// as the table says, by input file: a feed's item reads a day and a month
// that could go either way as gofeed does, day first, a page's <meta> date
// month first; a feed's item and a page read a date and clock followed by
// a zone no reader reads without it.
var readOtherwise = map[string]map[string]time.Time{
	"03/10/2023": {"f.rss": time.Date(2023, 10, 3, 0, 0, 0, 0, core.NoZone), "p.html": time.Date(2023, 3, 10, 0, 0, 0, 0, core.NoZone)},
	"2024-03-05 10:20:30 Pacific Standard Time": {
		"f.rss": time.Date(2024, 3, 5, 10, 20, 30, 0, core.NoZone), "p.html": time.Date(2024, 3, 5, 10, 20, 30, 0, core.NoZone),
	},
	"2024-03-05 10:20:30 America/Nowhere": {
		"f.rss": time.Date(2024, 3, 5, 10, 20, 30, 0, core.NoZone), "p.html": time.Date(2024, 3, 5, 10, 20, 30, 0, core.NoZone),
	},
	"2024-03-05 10:20:30 ABC": {
		"f.rss": time.Date(2024, 3, 5, 10, 20, 30, 0, core.NoZone), "p.html": time.Date(2024, 3, 5, 10, 20, 30, 0, core.NoZone),
	},
	"Tue, 05 Mar 2024 10:20:30 Abc": {
		"f.rss": time.Date(2024, 3, 5, 10, 20, 30, 0, core.NoZone), "p.html": time.Date(2024, 3, 5, 10, 20, 30, 0, core.NoZone),
	},
}

func TestDateFormsEveryInput(t *testing.T) {
	for _, tc := range dateForms {
		t.Run(tc.row, func(t *testing.T) {
			var csvFile strings.Builder
			w := csv.NewWriter(&csvFile)
			w.WriteAll([][]string{{"id", "text", "date"}, {"c", "Some text.", tc.date}})
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{
				"a.jsonl": `{"id":"j","text":"Some text.","date":` + strconv.Quote(tc.date) + "}\n",
				"b.csv":   csvFile.String(),
				"d.md":    "---\ndate: " + strconv.Quote(tc.date) + "\n---\nTitle\nSome text.\n",
				"f.rss": `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><item><guid>f</guid>` +
					`<title>x</title><description>Some text.</description><pubDate>` + html.EscapeString(tc.date) +
					`</pubDate></item></channel></rss>`,
				"p.html": strings.Replace(sitePage("Ferry returns to the harbour", storyParagraphs),
					`content="2024-03-05T10:00:00Z"`, `content="`+html.EscapeString(tc.date)+`"`, 1),
			})
			t.Chdir(dir)
			for _, input := range []string{"a.jsonl", "b.csv", "d.md", "f.rss", "p.html"} {
				r, err := Open([]string{input}, Options{})
				if err != nil {
					t.Fatal(err)
				}
				rec, err := r.Next()
				r.Close()
				if err != nil {
					t.Fatalf("%s: %v", input, err)
				}
				want, ok := readOtherwise[tc.date][input]
				if !ok {
					want = tc.want
				}
				got := rec.Doc.Date
				if noZone := got.Location() == core.NoZone; !got.Equal(want) || noZone != (want.Location() == core.NoZone) {
					t.Errorf("%s: %q read as %v (in core.NoZone: %v), want %v (%v)", input, tc.date, got.UTC(), noZone,
						want, want.Location() == core.NoZone)
				}
			}
		})
	}
}

// Regression: a feed's item's and a page's date of no zone or offset
// ("2024-03-05T10:00:00", "03.04.2024, 14:23 Uhr") was read in UTC and
// written so in its record ("2024-03-05T10:00:00Z"), where a field's is
// written without an offset, as the docs say of every date of no zone. Such
// a date is in core.NoZone in every input, and written without an offset,
// in the first pass and in the next, a page's read back from the first
// (pageMemo); one that names its zone or offset is written with it.
func TestZonelessDateEveryInput(t *testing.T) {
	rss := func(date string) string {
		return `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><item><guid>f</guid>` +
			`<title>x</title><description>Some text.</description><pubDate>` + date + `</pubDate></item></channel></rss>`
	}
	page := sitePage("Ferry returns to the harbour", storyParagraphs)
	meta := func(date string) string {
		return strings.Replace(page, `content="2024-03-05T10:00:00Z"`, `content="`+date+`"`, 1)
	}
	shown := strings.Replace(strings.Replace(page, `<meta property="article:published_time" content="2024-03-05T10:00:00Z">`, "", 1),
		"</h1>", `</h1><div class="date">03.04.2024, 14:23 Uhr</div>`, 1)
	for _, tc := range []struct {
		name, file, body string
		want             string // the record's date
		noZone           bool
	}{
		{"a JSON field", "a.jsonl", `{"id":"j","text":"Some text.","date":"2024-03-05T10:00:00"}` + "\n", "2024-03-05T10:00:00", true},
		{"a CSV field", "b.csv", "id,text,date\nc,Some text.,2024-03-05T10:00:00\n", "2024-03-05T10:00:00", true},
		{"a feed's item, ISO 8601", "f.rss", rss("2024-03-05T10:00:00"), "2024-03-05T10:00:00", true},
		{"a feed's item, RFC 1123 without a zone", "f.rss", rss("Tue, 05 Mar 2024 10:00:00"), "2024-03-05T10:00:00", true},
		{"a feed's item gofeed does not read", "f.rss", rss("03.04.2024, 14:23 Uhr"), "2024-04-03T14:23:00", true},
		{"a JSON Feed's item", "f.json", `{"version":"https://jsonfeed.org/version/1.1","title":"T","items":[{"id":"f",` +
			`"content_text":"Some text.","date_published":"2024-03-05T10:00:00"}]}`, "2024-03-05T10:00:00", true},
		{"a page's meta date", "p.html", meta("2024-03-05T10:00:00"), "2024-03-05T10:00:00", true},
		{"a page's date by its headline", "p.html", shown, "2024-04-03T14:23:00", true},
		// As before: a zone or an offset named is written.
		{"a feed's item with an offset", "f.rss", rss("Tue, 05 Mar 2024 10:00:00 +0300"), "2024-03-05T07:00:00Z", false},
		{"a page's meta date with an offset", "p.html", meta("2024-03-05T10:00:00+01:00"), "2024-03-05T10:00:00+01:00", false},
		{"a page's meta date in UTC", "p.html", meta("2024-03-05T10:00:00Z"), "2024-03-05T10:00:00Z", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{tc.file: tc.body})
			t.Chdir(dir)
			var extracted atomic.Int32
			engine := func(doc *xhtml.Node, u *nurl.URL) extract.Found {
				extracted.Add(1)
				return extract.Readeck(doc, u)
			}
			r, err := Open([]string{tc.file}, Options{Extract: extract.Options{Engine: engine}})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			for pass := 1; pass <= 2; pass++ {
				if pass == 2 {
					if err := r.Rewind(); err != nil {
						t.Fatal(err)
					}
				}
				rec, err := r.Next()
				if err != nil {
					t.Fatalf("pass %d: %v", pass, err)
				}
				var raw struct{ Date string }
				if err := json.Unmarshal(rec.Doc.Raw, &raw); err != nil {
					t.Fatalf("pass %d: %v: %s", pass, err, rec.Doc.Raw)
				}
				if got := core.FormatDate(rec.Doc.Date, time.RFC3339); got != tc.want || raw.Date != tc.want {
					t.Errorf("pass %d: read as %s, written %q, want %s", pass, got, raw.Date, tc.want)
				}
				if got := rec.Doc.Date.Location() == core.NoZone; got != tc.noZone {
					t.Errorf("pass %d: %v in core.NoZone: %v, want %v", pass, rec.Doc.Date, got, tc.noZone)
				}
			}
			if n := extracted.Load(); n > 1 {
				t.Errorf("the page extracted %d times, want once: the second pass reads back the first's article", n)
			}
		})
	}
}

// BenchmarkParseDate measures reading a date field, which the readers do
// once a record: forms of exports and feeds written to a pattern, Unix time
// as text, forms news sites print, and text that is no date.
func BenchmarkParseDate(b *testing.B) {
	for _, s := range []string{
		"2024-03-05T10:20:30Z",
		"2024-03-05 10:20:30",
		"Tue, 05 Mar 2024 10:20:30 GMT",
		"2024-03-05 10:30 MSK+1",
		"05.03.2024",
		"1709634030",
		"March 4, 2024 9:00 AM",
		"10:15 AM EST, March 4, 2024",
		"yesterday",
	} {
		b.Run(s, func(b *testing.B) {
			for b.Loop() {
				parseDate(s)
			}
		})
	}
}

// TestUnixDateFractions pins the fractions of a Unix time given as a JSON
// number (docs/dates.md): seconds keep theirs, added to the second below, so
// -1.5 is half a second after 23:59:58 of the last day of 1969; milliseconds
// are floored to the whole millisecond, the earlier instant before 1970.
func TestUnixDateFractions(t *testing.T) {
	for _, tc := range []struct {
		lit  string
		want time.Time
	}{
		{"-1.5", time.Date(1969, 12, 31, 23, 59, 58, 5e8, time.UTC)},
		{"1709634030.5", time.Date(2024, 3, 5, 10, 20, 30, 5e8, time.UTC)},
		{"-1709634030000.5", time.Date(1915, 10, 29, 13, 39, 29, 999e6, time.UTC)},
		{"1709634030000.5", time.Date(2024, 3, 5, 10, 20, 30, 0, time.UTC)},
	} {
		if got := unixDate([]byte(tc.lit)); !got.Equal(tc.want) {
			t.Errorf("unixDate(%s) = %v, want %v", tc.lit, got, tc.want)
		}
	}
}
