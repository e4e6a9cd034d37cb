package watch

import (
	"errors"
	"fmt"
	"html"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
)

// TestFeedCharsets pins feeds whose encoding is named where publishers
// name it: in the XML declaration alone, in the Content-Type alone (read as
// UTF-8, every such feed failed: "invalid UTF-8"), or neither, with a UTF-8
// byte order mark (taken for text before the root element, every such
// feed failed). The stored titles are the items' own, when the pages have
// none, without mojibake.
func TestFeedCharsets(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	const untitled = `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><article><p>%s</p></article></body></html>`
	cases := []struct {
		name, contentType, prolog, title string
		encode                           func(string) (string, error)
	}{
		{"cp1251 in the prolog", "application/rss+xml", "windows-1251", "Шторм на побережье", charmap.Windows1251.NewEncoder().String},
		{"cp1251 in the header", "text/xml; charset=windows-1251", "", "Новости дня: мэр и совет", charmap.Windows1251.NewEncoder().String},
		{"latin-1 in the header", "application/rss+xml; charset=ISO-8859-1", "", "Größe der Brücke über den Fluß", charmap.ISO8859_1.NewEncoder().String},
		{"shift_jis in the header", "application/xml; charset=Shift_JIS", "", "東京の市場で価格上昇", japanese.ShiftJIS.NewEncoder().String},
		{"utf-8 bom", "application/rss+xml", "bom", "Brücke — Fluß", func(s string) (string, error) { return "\ufeff" + s, nil }},
		// A server's default charset on a UTF-8 feed (Apache's AddDefaultCharset): valid UTF-8 is read as
		// UTF-8, as browsers and feed readers do, not made mojibake ("BrÃ¼cke").
		{"utf-8 sent as latin-1", "text/xml; charset=ISO-8859-1", "", "Straßenbahn fährt wieder nach Köln", func(s string) (string, error) { return s, nil }},
	}
	for i, c := range cases {
		st := newStory(uint64(500 + i))
		path := "/story/" + string(rune('a'+i))
		s.serve(path, "text/html; charset=utf-8", fmtPage(untitled, st.text()))
		feed := rss2(item{title: c.title, link: s.URL + path, date: time.Date(2026, 3, 1, 8, i, 0, 0, time.UTC)})
		switch c.prolog {
		case "bom": // as written: the mark, then the declaration
		case "":
			feed = feed[len(`<?xml version="1.0" encoding="UTF-8"?>`):]
		default:
			feed = `<?xml version="1.0" encoding="` + c.prolog + `"?>` + feed[len(`<?xml version="1.0" encoding="UTF-8"?>`):]
		}
		body, err := c.encode(feed)
		if err != nil {
			t.Fatal(err)
		}
		s.serve("/feed"+path, c.contentType, body)
		addFeed(t, x, Feed{URL: s.URL + "/feed" + path, Interval: Duration(time.Hour)})
	}
	res := once(t, newWatcher(t, x, testOptions()))
	for i, r := range res {
		if r.Status != "ok" || r.Outcomes[OutcomeAdded] != 1 {
			t.Errorf("%s: %+v (%v), want one article added", cases[i].name, r, r.Err)
		}
	}
	for i, c := range cases {
		d, err := x.Document(t.Context(), s.URL+"/story/"+string(rune('a'+i)))
		if err != nil {
			t.Errorf("%s: article not stored (%v)", c.name, err)
			continue
		}
		if d.Title != c.title {
			t.Errorf("%s: title %q, want %q", c.name, d.Title, c.title)
		}
	}
}

// TestUTF16Feed pins the reviewer's finding that a well-formed feed in
// UTF-16, with its byte order mark and encoding="UTF-16", as XML lets a
// document be written, was no feed: "an HTML page, not a feed" to feeds
// add (the body does not start with '<'), "failed to detect feed type" to
// a poll. It is read, little- and big-endian, whatever its Content-Type
// says.
func TestUTF16Feed(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	const untitled = `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><article><p>%s</p></article></body></html>`
	cases := []struct {
		name, contentType string
		bigEndian         bool
	}{
		{"little-endian", "application/rss+xml", false},
		{"big-endian", "text/xml", true},
		{"little-endian sent as html", "text/html", false},
		{"big-endian with a UTF-8 charset", "application/xml; charset=utf-8", true},
	}
	for i, c := range cases {
		path := "/story/" + string(rune('a'+i))
		s.serve(path, "text/html; charset=utf-8", fmtPage(untitled, newStory(uint64(600+i)).text()))
		feed := `<?xml version="1.0" encoding="UTF-16"?>` + "\n" + rss2(item{title: "Brücke — Fluß " + c.name, link: s.URL + path})[len(`<?xml version="1.0" encoding="UTF-8"?>`):]
		bom := []byte{0xff, 0xfe}
		if c.bigEndian {
			bom = []byte{0xfe, 0xff}
		}
		s.serve("/feed"+path, c.contentType, string(append(bom, utf16Bytes(feed, c.bigEndian)...)))
		t.Run(c.name, func(t *testing.T) {
			if n, err := CheckFeed(t.Context(), s.URL+"/feed"+path, testOptions()); err != nil || n != 1 {
				t.Errorf("CheckFeed: %d items, %v; want 1", n, err)
			}
		})
		addFeed(t, x, Feed{URL: s.URL + "/feed" + path, Interval: Duration(time.Hour)})
	}
	res := once(t, newWatcher(t, x, testOptions()))
	for i, r := range res {
		if r.Status != "ok" || r.New != 1 || r.Outcomes[OutcomeAdded]+r.Outcomes[OutcomeSimilar] != 1 {
			t.Errorf("%s: %+v (%v), want one article stored", cases[i].name, r, r.Err)
		}
	}
	for i, c := range cases {
		d, err := x.Document(t.Context(), s.URL+"/story/"+string(rune('a'+i)))
		if err != nil {
			t.Errorf("%s: article not stored (%v)", c.name, err)
			continue
		}
		if want := "Brücke — Fluß " + c.name; d.Title != want {
			t.Errorf("%s: title %q, want %q", c.name, d.Title, want)
		}
	}
}

// fmtPage is format with its %s replaced by text, escaped.
func fmtPage(format, text string) string {
	return strings.Replace(format, "%s", html.EscapeString(text), 1)
}

// TestRelativeLinksOfARedirectedFeed pins a feed that moved, to another
// path or another site: its relative links are the new location's, as a
// browser or feed reader resolves them. They were resolved against the
// stored URL, and every page was a 404 from the old site.
func TestRelativeLinksOfARedirectedFeed(t *testing.T) {
	x := newIndex(t)
	old, moved := newSite(t), newSite(t)
	var items []item
	for i, link := range []string{"story/1", "/news/story/2", "../news/story/3"} {
		st := newStory(uint64(500 + i))
		moved.serve(fmt.Sprintf("/news/story/%d", i+1), "text/html; charset=utf-8", st.page("Moved", ""))
		items = append(items, item{title: st.title, link: link, date: time.Date(2026, 3, 1, 8, i, 0, 0, time.UTC)})
	}
	moved.serve("/news/feed.xml", "application/rss+xml", rss2(items...))
	old.handle("/rss", func(rw http.ResponseWriter, r *http.Request) {
		http.Redirect(rw, r, moved.URL+"/news/feed.xml", http.StatusMovedPermanently)
	})
	addFeed(t, x, Feed{URL: old.URL + "/rss", Interval: Duration(time.Hour)})
	res := once(t, newWatcher(t, x, testOptions()))
	if r := res[0]; r.Status != "ok" || r.Outcomes[OutcomeAdded] != 3 {
		t.Errorf("%+v (%v), want three articles added", r, r.Err)
	}
	for i := range 3 {
		if _, err := x.Document(t.Context(), fmt.Sprintf("%s/news/story/%d", moved.URL, i+1)); err != nil {
			t.Error(err)
		}
	}
	if n := old.hitsAll(); n != 1 {
		t.Errorf("%d requests to the old site, want the feed's alone", n)
	}
}

// TestPermalinkGUIDIsTheLink pins RSS items that leave <link> out and give
// their page's URL as a permalink GUID (isPermaLink "true", or left out,
// which means the same): they were stored no-link, their articles lost. A
// GUID marked isPermaLink="false" is no link, even when it looks like one.
func TestPermalinkGUIDIsTheLink(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>http://example.com/</link><description>d</description>`)
	for i, attr := range []string{``, ` isPermaLink="true"`, ` isPermaLink="false"`} {
		st := newStory(uint64(500 + i))
		path := fmt.Sprintf("/story/%d", i)
		s.serve(path, "text/html; charset=utf-8", st.page("Daily", ""))
		fmt.Fprintf(&b, `<item><title>%s</title><guid%s>%s%s</guid><pubDate>%s</pubDate></item>`, html.EscapeString(st.title), attr, s.URL, path,
			time.Date(2026, 3, 1, 8, i, 0, 0, time.UTC).Format(time.RFC1123Z))
	}
	b.WriteString(`</channel></rss>`)
	s.serve("/feed", "application/rss+xml", b.String())
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	res := once(t, newWatcher(t, x, testOptions()))
	if r := res[0]; r.Status != "ok" || r.Outcomes[OutcomeAdded] != 2 || r.Outcomes[OutcomeNoLink] != 1 {
		t.Errorf("%+v (%v), want two added, one without a link", r, r.Err)
	}
	if s.hit("/story/2") != 0 {
		t.Error("the page of a GUID that is no permalink was fetched")
	}
}

// TestUnnamedItemsCounted: an item with no link, no text and no GUID,
// which nothing tells from the next poll's, is left out and counted so
// (Result.Unnamed), not dropped in silence. One with a title is known by
// it (see TestLinklessItemsKeyedByText).
func TestUnnamedItemsCounted(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	items := publish(s, "Daily", 1, 1)
	items = append(items, item{title: "A note without a link"}, item{})
	s.serve("/feed", "application/rss+xml", rss2(items...))
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	res := once(t, newWatcher(t, x, testOptions()))
	if r := res[0]; r.Items != 3 || r.Outcomes[OutcomeAdded] != 1 || r.Outcomes[OutcomeNoLink] != 1 || r.Unnamed != 1 {
		t.Errorf("%+v, want 3 items, 1 added, 1 without a link, 1 unnamed", r)
	}
}

// TestLinklessItemsKeyedByText: an item without a link, which has no page
// to fetch, is known by its title and text, so that a feed that gives it a
// new GUID on every poll yields nothing new; it was keyed by its GUID, and
// each poll stored every such item again (no-link), new rows without end.
// An item whose text changes is another item; one with no text either is
// known by its GUID, as before.
func TestLinklessItemsKeyedByText(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	pass := 0
	s.handle("/feed", func(rw http.ResponseWriter, r *http.Request) {
		pass++
		var b strings.Builder
		b.WriteString(`<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>http://example.com/</link><description>d</description>`)
		fmt.Fprintf(&b, `<item><title>Road closed</title><description>The A1 is closed  at junction 4.</description><guid isPermaLink="false">urn:%d:1</guid></item>`, pass)
		fmt.Fprintf(&b, `<item><description>Markets open later today.</description><guid isPermaLink="false">urn:%d:2</guid></item>`, pass)
		fmt.Fprintf(&b, `<item><title></title><guid isPermaLink="false">urn:stable:3</guid></item>`)
		if pass == 3 {
			b.WriteString(`<item><title>Road closed</title><description>The A1 is open again.</description><guid isPermaLink="false">urn:3:4</guid></item>`)
		}
		b.WriteString(`</channel></rss>`)
		io.WriteString(rw, b.String())
	})
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	w := newWatcher(t, x, testOptions())
	for i, want := range []int{3, 0, 1} {
		if r := once(t, w)[0]; r.Status != "ok" || r.New != want || r.Outcomes[OutcomeNoLink] != want || r.Unnamed != 0 {
			t.Errorf("poll %d: %+v (%v), want %d new items without a link", i+1, r, r.Err, want)
		}
	}
	items := storedItems(t, x, s.URL+"/feed")
	if len(items) != 4 {
		t.Errorf("%d items stored, want 4: %v", len(items), slices.Sorted(maps.Keys(items)))
	}
	if _, ok := items["urn:stable:3"]; !ok {
		t.Errorf("the item with no text is not known by its GUID: %v", slices.Sorted(maps.Keys(items)))
	}
}

// TestCanonicalHomePageIgnored: articles whose template names the site's
// home page as every page's canonical URL are two articles, each at its
// own address; they shared that URL and the second was marked an exact
// copy of the first, uncompared.
func TestCanonicalHomePageIgnored(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	one, two := newStory(31), newStory(32)
	s.serve("/news/1", "text/html; charset=utf-8", one.page("Daily", s.URL+"/"))
	s.serve("/news/2", "text/html; charset=utf-8", two.page("Daily", s.URL+"/"))
	s.serve("/feed", "application/rss+xml", rss2(
		item{title: one.title, link: s.URL + "/news/1", date: time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)},
		item{title: two.title, link: s.URL + "/news/2", date: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}))
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	res := once(t, newWatcher(t, x, testOptions()))
	if r := res[0]; r.Outcomes[OutcomeAdded] != 2 {
		t.Errorf("%+v, want both added", r.Outcomes)
	}
}

// TestJSONFeedExternalURL: a JSON Feed item with no url but an
// external_url (a link blog's) has that page for its link; it was stored
// as no-link, its page never fetched.
func TestJSONFeedExternalURL(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	st := newStory(41)
	s.serve("/elsewhere/story", "text/html; charset=utf-8", st.page("Elsewhere", ""))
	feed := fmt.Sprintf(`{"version":"https://jsonfeed.org/version/1.1","title":"Links","items":[`+
		`{"id":"1","title":%q,"external_url":"%s/elsewhere/story","content_text":"A note on it."}]}`, st.title, s.URL)
	s.serve("/feed.json", "application/feed+json", feed)
	addFeed(t, x, Feed{URL: s.URL + "/feed.json", Interval: Duration(time.Hour)})
	res := once(t, newWatcher(t, x, testOptions()))
	if r := res[0]; r.Outcomes[OutcomeAdded] != 1 || s.hit("/elsewhere/story") == 0 {
		t.Errorf("%+v (%v), want the external page fetched and added", r.Outcomes, r.Err)
	}
}

// TestPermalinkGUIDNotAURL: a GUID that is no absolute http(s) URL is no
// link, even when isPermaLink is left out (true by default), as many feeds
// leave it out of ids ("12345", "urn:uuid:..."): it was resolved against
// the feed's URL and that page fetched (/feed/12345, a 404 stored as an
// error, or another page taken for the article).
func TestPermalinkGUIDNotAURL(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	s.serve("/12345", "text/html; charset=utf-8", newStory(710).page("Daily", ""))
	feed := `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>http://example.com/</link><description>d</description>` +
		`<item><title>One</title><guid>12345</guid></item>` +
		`<item><title>Two</title><guid>urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66</guid></item></channel></rss>`
	s.serve("/feed", "application/rss+xml", feed)
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	res := once(t, newWatcher(t, x, testOptions()))
	if r := res[0]; r.Status != "ok" || r.Outcomes[OutcomeNoLink] != 2 {
		t.Errorf("%+v (%v), want two items without a link", r.Outcomes, r.Err)
	}
	if n := s.hitsAll(); n != 1 {
		t.Errorf("%d requests, want the feed's alone", n)
	}
}

// TestFeedWithADTD: a feed that names an entity its own DTD declares is
// refused, saying so, by a poll and by CheckFeed; a DOCTYPE that declares
// an entity the feed does not name, or the entities of HTML (so that
// &nbsp; is valid XML), or none (RSS 0.91's PUBLIC identifier), is passed
// over. Regressions: CheckFeed called such a feed "an HTML page, not a
// feed" (it holds <title>, as a page does), and so it called any feed
// sent as text/xml that failed to parse; a poll called it not well-formed
// XML ("invalid character entity &x;").
func TestFeedWithADTD(t *testing.T) {
	s := newSite(t)
	items := publish(s, "Daily", 40, 1)
	const decl = `<?xml version="1.0" encoding="UTF-8"?>`
	good := rss2(items...)
	withDoctype := func(doctype, body string) string { return decl + doctype + strings.TrimPrefix(body, decl) }
	const refused = `line 1: &x; is an entity of the feed's own DTD, whose declarations are not read`
	for _, c := range []struct {
		name, body, want string // want: "" for a feed taken
	}{
		{"entity used", withDoctype(`<!DOCTYPE rss [<!ENTITY x "`+items[0].link+`">]>`, strings.Replace(good, items[0].link, "&x;", 1)), refused},
		{"entity declared, not named", withDoctype(`<!DOCTYPE rss [<!ENTITY x "unused">]>`, good), ""},
		{"html entity declared", withDoctype(`<!DOCTYPE rss [<!ENTITY nbsp "&#160;">]>`, strings.Replace(good, "<title>", "<title>a&nbsp;b ", 1)), ""},
		{"public identifier", withDoctype(`<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd">`, good), ""},
		{"not well-formed", strings.Replace(good, "</title>", "", 1), "not well-formed XML"},
	} {
		path := "/feed/" + strings.ReplaceAll(c.name, " ", "-")
		s.serve(path, "text/xml", c.body)
		t.Run(c.name, func(t *testing.T) {
			n, err := CheckFeed(t.Context(), s.URL+path, testOptions())
			switch {
			case c.want == "" && (err != nil || n != 1):
				t.Errorf("CheckFeed: %d items, %v; want 1", n, err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "HTML") || !errors.Is(err, ErrNotFeed)):
				t.Errorf("CheckFeed: %v; want ErrNotFeed saying %q", err, c.want)
			}
			if c.want == refused && err != nil && strings.Contains(err.Error(), "well-formed") {
				t.Errorf("CheckFeed: %v; say what is wrong, not that the feed is not well-formed", err)
			}
			ix := newIndex(t)
			addFeed(t, ix, Feed{URL: s.URL + path, Interval: Duration(time.Hour)})
			r := once(t, newWatcher(t, ix, testOptions()))[0]
			switch {
			case c.want == "" && (r.Status != "ok" || r.Items != 1):
				t.Errorf("poll: %+v (%v), want ok", r, r.Err)
			case c.want != "" && (r.Status != "error" || r.Err == nil || !strings.Contains(r.Err.Error(), c.want)):
				t.Errorf("poll: %+v (%v), want an error saying %q", r, r.Err, c.want)
			}
		})
	}
}

// TestLinkOfAnotherScheme: an item whose link is no http or https URL
// (ftp://, javascript:, mailto:, http without a host) is stored no-link,
// unfetched, with a detail quoting the link and saying what is wrong with
// it, its password hidden and a long one cut; an item without a link keeps
// its title for a detail. Regression: each such item's detail was its
// title, as if it had no link. A trial counts them apart.
func TestLinkOfAnotherScheme(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	items := publish(s, "Daily", 60, 1)
	long := "javascript:" + strings.Repeat("x", 300)
	odd := []item{
		{title: "Files", link: "ftp://files.example.com/report.pdf", guid: "o1"},
		{title: "Script", link: "javascript:alert(1)", guid: "o2"},
		{title: "Mail", link: "mailto:desk@example.com", guid: "o3"},
		{title: "Private", link: "ftp://reader:secret@files.example.com/a", guid: "o4"},
		{title: "No host", link: "http:/news/1", guid: "o5"},
		{title: "Long", link: long, guid: "o6"},
		{title: "Linkless", guid: "o7"},
	}
	s.serve("/feed", "application/rss+xml", rss2(append(odd, items...)...))
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	r := once(t, newWatcher(t, x, testOptions()))[0]
	if r.Status != "ok" || r.Outcomes[OutcomeNoLink] != len(odd) || r.Outcomes[OutcomeAdded] != 1 {
		t.Fatalf("%+v (%v), want %d no-link, 1 added", r.Outcomes, r.Err, len(odd))
	}
	var details []string
	for _, it := range storedItems(t, x, s.URL+"/feed") {
		if it.Outcome == OutcomeNoLink {
			details = append(details, it.Detail)
		}
	}
	slices.Sort(details)
	want := []string{
		"Linkless",
		`link "ftp://files.example.com/report.pdf" is not http or https`,
		`link "ftp://reader:xxxxx@files.example.com/a" is not http or https`,
		`link "http:/news/1" names no host`,
		`link "javascript:alert(1)" is not http or https`,
		`link "` + long[:maxShownLink] + `…" is not http or https`,
		`link "mailto:desk@example.com" is not http or https`,
	}
	if !slices.Equal(details, want) {
		t.Errorf("details\n%q\nwant\n%q", details, want)
	}
	if n := s.hitsAll(); n != 2 {
		t.Errorf("%d requests, want the feed's and its one page's", n)
	}
	tr, err := Try(t.Context(), s.URL+"/feed", &Rule{Body: "article"}, testOptions())
	if err != nil || tr.Feed == nil || tr.Feed.Passed != "6 with a link not http or https, 1 without a link" {
		t.Errorf("trial: %+v, %v; want 6 passed over with a link not http or https, 1 without a link", tr.Feed, err)
	}
}
