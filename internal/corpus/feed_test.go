package corpus

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/internal/extract"
)

const rssFeed = `<?xml version="1.0" encoding="UTF-8"?>
<!-- saved by a crawler -->
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/">
<channel><title>Daily Ledger</title><link>https://ledger.example/</link>
<item><title>Bridge &amp; tunnel</title><link>/news/1</link><guid>urn:ledger:1</guid>
  <pubDate>Tue, 05 Mar 2024 10:00:00 GMT</pubDate>
  <description>A short summary.</description>
  <content:encoded><![CDATA[<p>The council approved the bridge.</p><p>Work starts <b>in May</b>.</p>]]></content:encoded></item>
<item><title>No guid</title><link>https://ledger.example/news/2</link>
  <description>&lt;p&gt;Only a description, escaped.&lt;/p&gt;</description></item>
<item><title>Nothing to read</title><link>  </link></item>
</channel></rss>
`

const atomFeed = `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Wire</title>
<entry><id>tag:wire,2024:7</id><title>Rates rise</title><link href="https://wire.example/7"/>
<updated>2024-03-06T08:00:00Z</updated><author><name>A. Writer</name></author>
<content type="html">&lt;p&gt;The bank raised rates.&lt;/p&gt;</content></entry></feed>`

func TestFeeds(t *testing.T) {
	for _, tc := range []struct {
		name, file, input string
		want              []rec
	}{
		{"RSS", "ledger.rss", rssFeed, []rec{
			{ID: "urn:ledger:1", Title: "Bridge & tunnel", Text: "The council approved the bridge.\n\nWork starts in May.",
				URL: "https://ledger.example/news/1", Source: "Daily Ledger", Date: "2024-03-05T10:00:00Z", Origin: "ledger.rss#1",
				Raw: `{"id":"urn:ledger:1","url":"https://ledger.example/news/1","title":"Bridge & tunnel","text":"The council approved the bridge.\n\nWork starts in May.","date":"2024-03-05T10:00:00Z","author":"","source":"Daily Ledger"}`},
			{ID: "https://ledger.example/news/2", Title: "No guid", Text: "Only a description, escaped.", URL: "https://ledger.example/news/2",
				Source: "Daily Ledger", Origin: "ledger.rss#2",
				Raw: `{"id":"https://ledger.example/news/2","url":"https://ledger.example/news/2","title":"No guid","text":"Only a description, escaped.","date":"","author":"","source":"Daily Ledger"}`},
			{ID: "ledger.rss#3", Title: "Nothing to read", Source: "Daily Ledger", Origin: "ledger.rss#3", Skip: "empty",
				Err: `ledger.rss#3: field "text": empty`},
		}},
		{"Atom, found by its root element", "wire", atomFeed, []rec{
			{ID: "tag:wire,2024:7", Title: "Rates rise", Text: "The bank raised rates.", URL: "https://wire.example/7", Source: "Wire",
				Date: "2024-03-06T08:00:00Z", Origin: "wire#1",
				Raw: `{"id":"tag:wire,2024:7","url":"https://wire.example/7","title":"Rates rise","text":"The bank raised rates.","date":"2024-03-06T08:00:00Z","author":"A. Writer","source":"Wire"}`},
		}},
		{"Atom named .xml, found by its root element", "wire.xml", atomFeed, []rec{
			{ID: "tag:wire,2024:7", Title: "Rates rise", Text: "The bank raised rates.", URL: "https://wire.example/7", Source: "Wire",
				Date: "2024-03-06T08:00:00Z", Origin: "wire.xml#1",
				Raw: `{"id":"tag:wire,2024:7","url":"https://wire.example/7","title":"Rates rise","text":"The bank raised rates.","date":"2024-03-06T08:00:00Z","author":"A. Writer","source":"Wire"}`},
		}},
		{"JSON Feed named .json, found by its version", "feed.json", `{"version": "https://jsonfeed.org/version/1.1", "title": "Wire",
			"items": [{"id": "7", "url": "https://wire.example/7", "title": "Rates rise", "content_html": "<p>The bank raised rates.</p>",
			"date_published": "2024-03-06T08:00:00Z"}]}`, []rec{
			{ID: "7", Title: "Rates rise", Text: "The bank raised rates.", URL: "https://wire.example/7", Source: "Wire",
				Date: "2024-03-06T08:00:00Z", Origin: "feed.json#1",
				Raw: `{"id":"7","url":"https://wire.example/7","title":"Rates rise","text":"The bank raised rates.","date":"2024-03-06T08:00:00Z","author":"","source":"Wire"}`},
		}},
		{"Atom named .html, named on the command line", "wire.html", atomFeed, []rec{
			{ID: "tag:wire,2024:7", Title: "Rates rise", Text: "The bank raised rates.", URL: "https://wire.example/7", Source: "Wire",
				Date: "2024-03-06T08:00:00Z", Origin: "wire.html#1",
				Raw: `{"id":"tag:wire,2024:7","url":"https://wire.example/7","title":"Rates rise","text":"The bank raised rates.","date":"2024-03-06T08:00:00Z","author":"A. Writer","source":"Wire"}`},
		}},
		{"an .rss file that is no feed", "sitemap.rss", `<?xml version="1.0"?><urlset><url><loc>x</loc></url></urlset>`, []rec{
			{ID: "sitemap.rss", Origin: "sitemap.rss", Skip: "malformed", Err: "sitemap.rss: malformed: not a web feed (RSS, Atom, RDF or JSON Feed): failed to detect feed type"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{tc.file: tc.input})
			t.Chdir(dir)
			got, err := readAll(t, []string{tc.file}, Options{}, config{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestJSONLinesAreNoFeed: regression, a JSON Lines file whose first
// record held a feed's object ("feed": {"version": …}), or a JSON Feed's
// version as its own key, was read as one JSON Feed and every record was
// lost. A stream named .jsonl is never a feed, and one of another name is
// not when a second value follows its first object.
func TestJSONLinesAreNoFeed(t *testing.T) {
	const version = `"version":"https://jsonfeed.org/version/1.1"`
	long := strings.Repeat("The council voted on the budget. ", 100) // past the head the test looks at
	nested := `{"id":"a1","text":"one","feed":{` + version + `,"title":"Daily Planet"}}` + "\n" +
		`{"id":"a2","text":"two","feed":{` + version + `,"title":"Daily Planet"}}` + "\n"
	own := `{` + version + `,"id":"a1","text":"` + long + `"}` + "\n" + `{"id":"a2","text":"two"}` + "\n"
	short := `{` + version + `,"id":"a1","text":"one"}` + "\n" + `{"id":"a2","text":"two"}` + "\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		arg   string
	}{
		{"a feed's object in a record", map[string]string{"items.jsonl": nested}, "items.jsonl"},
		{"a feed's object in a record, in a directory", map[string]string{"in/items.jsonl": nested}, "in"},
		{"a feed's version as a record's key", map[string]string{"ver.jsonl": own}, "ver.jsonl"},
		{"a feed's version as a record's key, compressed", map[string]string{"ver.jsonl.gz": gz(t, own)}, "ver.jsonl.gz"},
		{"a feed's version as a record's key, named .json", map[string]string{"ver.json": short}, "ver.json"},
		{"a feed's version as a record's key, no name", map[string]string{"ver": short}, "ver"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			t.Chdir(dir)
			got, err := readAll(t, []string{tc.arg}, Options{}, config{})
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, g := range got {
				ids = append(ids, g.ID+" "+g.Skip)
			}
			if diff := cmp.Diff([]string{"a1 ", "a2 "}, ids); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestFeedNamedHTMLInADirectory: a feed named .html met in a directory is
// a page, skipped as a feed (extraction takes no article from it); named
// on the command line it is read item by item (TestFeeds).
func TestFeedNamedHTMLInADirectory(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"in/wire.html": atomFeed})
	t.Chdir(dir)
	got, err := readAll(t, []string{"in"}, Options{}, config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Skip != "feed" {
		t.Errorf("got %+v, want one record skipped as a feed", got)
	}
}

// TestJSONFeedBadItems: regression, a JSON Feed with a null item, a null
// author or a null hub panicked gofeed, ending the process, and one with an
// item of a member of the wrong type was one malformed record, its good
// items lost. Each item is a record: one that does not decode is skipped
// as malformed, naming the member, and the others are read.
func TestJSONFeedBadItems(t *testing.T) {
	const text = "A heavy storm swept across the coast."
	good := func(id, origin string) rec {
		return rec{ID: id, Text: text, Source: "F", Origin: origin,
			Raw: `{"id":"` + id + `","url":"","title":"","text":"` + text + `","date":"","author":"","source":"F"}`}
	}
	for _, tc := range []struct {
		name, items string
		want        []rec
	}{
		{"a null item", `{"id":"a","content_text":"` + text + `"},null`, []rec{good("a", "f.json#1"),
			{ID: "f.json#2", Origin: "f.json#2", Skip: "malformed", Err: "f.json#2: want an object, got null"}}},
		{"a null author", `{"id":"a","content_text":"` + text + `","authors":[null]}`, []rec{good("a", "f.json#1")}},
		{"a string item", `"x",{"id":"b","content_text":"` + text + `"}`, []rec{
			{ID: "f.json#1", Origin: "f.json#1", Skip: "malformed", Err: "f.json#1: want an object, got string"}, good("b", "f.json#2")}},
		{"a numeric title", `{"id":"a","content_text":"` + text + `"},{"id":"b","title":5,"content_text":"` + text + `"},{"id":"c","content_text":"` + text + `"}`,
			[]rec{good("a", "f.json#1"), {ID: "b", Origin: "f.json#2", Skip: "malformed", Err: `f.json#2: field "title": want a string, got number`},
				good("c", "f.json#3")}},
		{"a numeric date", `{"id":"a","content_text":"` + text + `","date_published":1700000000}`,
			[]rec{{ID: "a", Origin: "f.json#1", Skip: "malformed", Err: `f.json#1: field "date_published": want a string, got number`}}},
		{"an array of text", `{"id":"a","content_text":["` + text + `"]}`,
			[]rec{{ID: "a", Origin: "f.json#1", Skip: "malformed", Err: `f.json#1: field "content_text": want a string, got array`}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"f.json": `{"version":"https://jsonfeed.org/version/1.1","title":"F","hubs":[null],"authors":[null],"items":[` + tc.items + `]}`})
			t.Chdir(dir)
			got, err := readAll(t, []string{"f.json"}, Options{}, config{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// A feed file over the record limit is one too-large record, not parsed.
func TestFeedTooLarge(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"big.rss": strings.Replace(rssFeed, "A short summary.", strings.Repeat("word ", 400), 1)})
	t.Chdir(dir)
	got, err := readAll(t, []string{"big.rss"}, Options{MaxBytes: 1000}, config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Skip != "too-large" || got[0].Origin != "big.rss" {
		t.Errorf("got %+v, want one too-large record", got)
	}
}

// Regression: a feed file's item dates were gofeed's: "GMT+3" and "UTC-05:00"
// kept the clock as UTC's, "MSK" was UTC, "MSK+1" and "+3" no date. They
// are read as watch reads a feed's and package extract a page's
// (extract.FeedDate), which the test checks too.
func TestFeedItemDateZones(t *testing.T) {
	for _, tc := range []struct{ date, want string }{
		{"Tue, 05 Mar 2024 10:30:00 GMT+3", "2024-03-05T07:30:00Z"},
		{"Tue, 05 Mar 2024 10:30:00 UTC-05:00", "2024-03-05T15:30:00Z"},
		{"Tue, 05 Mar 2024 10:30:00 MSK", "2024-03-05T07:30:00Z"},
		{"Tue, 05 Mar 2024 10:30:00 MSK+1", "2024-03-05T06:30:00Z"},
		{"Tue, 05 Mar 2024 10:30:00 +3", "2024-03-05T07:30:00Z"},
		{"2024-03-05 10:30:00 CST+0800", "2024-03-05T02:30:00Z"},
		{"Tue, 05 Mar 2024 10:30:00 EST+1", ""},
		{"Tue Mar  5 10:30:00 GMT+3 2024", "2024-03-05T07:30:00Z"},
		{"Tue Mar  5 10:30:00 MSK+1 2024", "2024-03-05T06:30:00Z"},
		// As before.
		{"Tue, 05 Mar 2024 10:30:00 GMT", "2024-03-05T10:30:00Z"},
		{"Tue, 05 Mar 2024 10:30:00 +0300", "2024-03-05T07:30:00Z"},
		{"Tue, 05 Mar 2024 10:30:00 EST", "2024-03-05T15:30:00Z"},
	} {
		t.Run(tc.date, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"f.rss": `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>` +
				`<item><title>x</title><guid>1</guid><description>Some text.</description><pubDate>` + tc.date + `</pubDate></item></channel></rss>`})
			t.Chdir(dir)
			got, err := readAll(t, []string{"f.rss"}, Options{}, config{})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Date != tc.want {
				t.Fatalf("got %+v, want one record dated %q", got, tc.want)
			}
			if ext, _ := extract.ParseDate(tc.date); jsonDate(ext.UTC()) != tc.want {
				t.Errorf("extract.ParseDate(%q) = %v, the feed's item %s", tc.date, ext.UTC(), tc.want)
			}
		})
	}
}

// Regression: a feed file's item dated a placeholder (the Unix epoch, year
// 1) or an instant past year 9999 in UTC was dated so, as gofeed reads it:
// kept.jsonl wrote "1970-01-01T00:00:00Z" and "10000-01-01T04:00:00Z", no
// RFC 3339 date. Such an item is undated, as a date field's document is
// (core.NoDate) and as watch reads a feed's.
func TestFeedItemPlaceholderDates(t *testing.T) {
	for _, date := range []string{
		"Thu, 01 Jan 1970 00:00:00 GMT",
		"1970-01-01T00:00:00Z",
		"0001-01-01T00:00:00Z",
		"Mon, 01 Jan 0001 00:00:00 +0100",
		"9999-12-31T23:00:00-05:00",
	} {
		t.Run(date, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"f.rss": `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>` +
				`<item><title>x</title><guid>1</guid><description>Some text.</description><pubDate>` + date + `</pubDate></item></channel></rss>`})
			t.Chdir(dir)
			got, err := readAll(t, []string{"f.rss"}, Options{}, config{})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Date != "" {
				t.Fatalf("got %+v, want one record undated", got)
			}
		})
	}
}

// TestBrokenFeedKeepsItsItems: regression, an RSS, RDF or Atom feed with one
// XML error, or cut short inside an item (a download stopped), lost every
// item as "not a web feed". The items complete before the break are read, and
// the rest is one malformed record naming the line its first item starts on.
func TestBrokenFeedKeepsItsItems(t *testing.T) {
	item := func(n string) string {
		return "<item><guid>g" + n + "</guid><title>T" + n + "</title><description>text " + n + "</description></item>\n"
	}
	for _, tc := range []struct {
		name, file, input string
		ids               []string
		bad               string
	}{
		{"RSS cut inside its third item", "cut.rss",
			"<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel><title>C</title>\n" + item("1") + item("2") +
				"<item><guid>g3</guid><description>In one of the most direct cr",
			[]string{"g1", "g2"}, "cut.rss:5: malformed: malformed feed: XML syntax error on line 5: unexpected EOF; its 2 items before line 5 are read, the rest of it is not"},
		{"RDF cut inside its second item", "cut.rdf.rss",
			"<?xml version=\"1.0\"?>\n<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" xmlns=\"http://purl.org/rss/1.0/\">\n" +
				"<channel><title>C</title></channel>\n" + item("1") + "<item><title>T2",
			[]string{"g1"}, "cut.rdf.rss:5: malformed: malformed feed: XML syntax error on line 5: unexpected EOF; its item before line 5 is read, the rest of it is not"},
		{"Atom with an XML error in its second entry", "bad.atom",
			"<?xml version=\"1.0\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>W</title>\n" +
				"<entry><id>e1</id><title>One</title><content>first</content></entry>\n" +
				"<entry><id>e2</id><title>Two</ti tle></entry>\n" +
				"<entry><id>e3</id><title>Three</title><content>third</content></entry>\n</feed>\n",
			[]string{"e1"}, "bad.atom:4: malformed: malformed feed: XML syntax error on line 4: invalid characters between </ti and >; its item before line 4 is read, the rest of it is not"},
		{"RSS broken before its first item", "early.rss",
			"<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel><title>C</title\n" + item("1"),
			nil, "early.rss:3: malformed: malformed feed: XML syntax error on line 3: invalid characters between </title and >; no item of it is read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{tc.file: tc.input})
			t.Chdir(dir)
			got, err := readAll(t, []string{tc.file}, Options{}, config{})
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, r := range got[:len(got)-1] {
				ids = append(ids, r.ID)
			}
			if diff := cmp.Diff(tc.ids, ids); diff != "" {
				t.Errorf("ids (-want +got)\n%s", diff)
			}
			if last := got[len(got)-1]; last.Skip != "malformed" || last.Err != tc.bad {
				t.Errorf("last record %q %q, want malformed %q", last.Skip, last.Err, tc.bad)
			}
		})
	}
}
