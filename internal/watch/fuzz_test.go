package watch

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzFeed reads feed bodies as a poll does: never a panic; a body is a
// feed or ErrNotFeed; every item's key is unique, and a link is an http
// or https URL that Canonical leaves as it is. A feed read whole is read
// too with its items cut to the first and the last (see parseFeed), and
// lists as many items as it reads whole.
func FuzzFeed(f *testing.F) {
	items := []item{{title: "a & b", link: "http://[::1]:9200/x?utm_source=1"}, {title: "b", link: "/rel", guid: "g"}}
	for _, seed := range []string{rss2(items...), rss091(items...), rss1(items...), atomFeed(items...), jsonFeed(items...),
		rss2(items...) + "<x>", `<?xml version="1.0" encoding="ISO-8859-1"?><rss version="2.0"><channel><item><link>http://a/</link></item></channel></rss>`,
		"<rss><channel><item><title>a&nbsp;b</title></item></channel></rss>", `{"version": "https://jsonfeed.org/version/1", "items": [{"id": "\u0000"}]}`,
		"", "<", "\ufeff<rss/>", "<html><body>x</body></html>"} {
		f.Add(seed)
	}
	f.Add(rss2(capItems(4, true)...))
	f.Add(rss1(capItems(4, false)...))
	f.Add(atomFeed(capItems(4, false)...))
	f.Add(`<?xml version="1.0" encoding="ISO-8859-1"?><rss><channel><item/><item><title>caf` + "\xe9" + `</title></item><item/></channel></rss>`)
	f.Add(`{"items": [1, {"url": "http://a/"}, "x"], "ITEMS": [{}, {}, {}]}`)
	f.Fuzz(func(t *testing.T, body string) {
		parsed, _, err := parseFeed([]byte(body), "", 0)
		if err != nil {
			if !errors.Is(err, ErrNotFeed) {
				t.Fatalf("%q: %v, want ErrNotFeed", body, err)
			}
			return
		}
		cut, listed, err := parseFeed([]byte(body), "", 1)
		if err != nil || listed < len(cut.Items) || listed != len(parsed.Items) {
			t.Fatalf("%q: read whole, %d items, but cut: %v (%d listed)", body, len(parsed.Items), err, listed)
		}
		seen := map[string]bool{}
		es, _ := entries("http://feed.example/rss", parsed.Language, parsed.Items, parsed.bad)
		for _, e := range es {
			if e.key == "" || seen[e.key] || strings.ContainsRune(e.key, 0) {
				t.Fatalf("%q: key %q empty, repeated or holding a NUL", body, e.key)
			}
			seen[e.key] = true
			if e.link != "" && (!strings.HasPrefix(e.link, "http://") && !strings.HasPrefix(e.link, "https://") || Canonical(e.link) != e.link) {
				t.Fatalf("%q: link %q", body, e.link)
			}
			if !utf8.ValidString(e.title) && utf8.ValidString(body) {
				t.Fatalf("%q: title %q not UTF-8", body, e.title)
			}
		}
	})
}
