package watch

import (
	"encoding/json"
	"fmt"
	"html"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/server/browse"
)

// site is a local web site of feeds and pages, counting the requests of
// each path.
type site struct {
	*httptest.Server
	mu     sync.Mutex
	routes map[string]http.HandlerFunc
	hits   map[string]int
	agents []string
}

func newSite(t *testing.T) *site { return newSiteAt(t, "127.0.0.1") }

// newSiteAt starts a site on a loopback address of its own (127.0.0.2,
// [::1]).
func newSiteAt(t *testing.T, ip string) *site {
	t.Helper()
	s := &site{routes: map[string]http.HandlerFunc{}, hits: map[string]int{}}
	s.Server = startAt(t, ip, http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		s.agents = append(s.agents, r.Header.Get("User-Agent"))
		h := s.routes[r.URL.Path]
		s.mu.Unlock()
		if h == nil {
			http.NotFound(rw, r)
			return
		}
		h(rw, r)
	}))
	return s
}

// startAt starts an HTTP server of h on a port of the loopback address ip.
func startAt(t *testing.T, ip string, h http.Handler) *httptest.Server {
	t.Helper()
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		t.Fatal(err)
	}
	s := httptest.NewUnstartedServer(h)
	s.Listener.Close()
	s.Listener = ln
	s.Start()
	t.Cleanup(s.Close)
	return s
}

// hitsAll counts the requests of every path.
func (s *site) hitsAll() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, h := range s.hits {
		n += h
	}
	return n
}

// handle serves path with h.
func (s *site) handle(path string, h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.routes[path] = h
}

// serve serves path as a fixed body of a content type.
func (s *site) serve(path, contentType, body string) {
	s.handle(path, func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", contentType)
		fmt.Fprint(rw, body)
	})
}

func (s *site) hit(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// waitHit waits, up to limit, until path was asked for; a test that needs
// the request under way says so by what it checks next.
func (s *site) waitHit(path string, limit time.Duration) {
	for deadline := time.Now().Add(limit); s.hit(path) == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
}

// story is a news story: a headline and paragraphs of made-up sentences,
// the same for the same seed.
type story struct {
	title string
	paras []string
}

var vocabulary = strings.Fields(`council budget minister police court election market shares company
	river storm flood school hospital doctors union strike workers railway airport bank rates inflation
	farmers harvest festival museum library bridge highway village mayor governor senator treaty border
	talks ceasefire protest rally vote parliament report inquiry prices energy fuel wind solar coal
	exports imports factory jobs wages pension tax reform housing rent tenants landlord contract
	tender minister officials residents spokesman agency weather season record quarter profit loss`)

func newStory(seed uint64) story {
	r := rand.New(rand.NewPCG(seed, 7))
	words := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = vocabulary[r.IntN(len(vocabulary))]
		}
		return strings.Join(w, " ")
	}
	title := words(6)
	s := story{title: strings.ToUpper(title[:1]) + title[1:]}
	for range 4 {
		var p []string
		for range 3 {
			sent := words(9 + r.IntN(6))
			p = append(p, strings.ToUpper(sent[:1])+sent[1:]+".")
		}
		s.paras = append(s.paras, strings.Join(p, " "))
	}
	return s
}

func (s story) text() string { return strings.Join(s.paras, "\n\n") }

// page renders a story as a news page of a site, with navigation and a
// footer around the article and, when canonical is set, a canonical link.
func (s story) page(siteName, canonical string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%s | %s</title>`, html.EscapeString(s.title), siteName)
	if canonical != "" {
		fmt.Fprintf(&b, `<link rel="canonical" href="%s">`, canonical)
	}
	fmt.Fprintf(&b, `</head><body><nav><a href="/">%s home</a> <a href="/news">News</a></nav><article><h1>%s</h1>`, siteName, html.EscapeString(s.title))
	for _, p := range s.paras {
		fmt.Fprintf(&b, "<p>%s</p>\n", html.EscapeString(p))
	}
	fmt.Fprintf(&b, `</article><footer>© %s. Subscribe to our newsletter for the latest news.</footer></body></html>`, siteName)
	return b.String()
}

// item is an item of a test feed.
type item struct {
	title, link, guid string
	date              time.Time
}

// rss2 renders items as an RSS 2.0 feed.
func rss2(items ...item) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Test</title><link>http://example.com/</link><description>d</description>`)
	for _, it := range items {
		fmt.Fprintf(&b, `<item><title>%s</title><link>%s</link>`, html.EscapeString(it.title), html.EscapeString(it.link))
		if it.guid != "" {
			fmt.Fprintf(&b, `<guid isPermaLink="false">%s</guid>`, it.guid)
		}
		if !it.date.IsZero() {
			fmt.Fprintf(&b, `<pubDate>%s</pubDate>`, it.date.Format(time.RFC1123Z))
		}
		b.WriteString(`</item>`)
	}
	b.WriteString(`</channel></rss>`)
	return b.String()
}

// rss091 renders items as an RSS 0.91 feed.
func rss091(items ...item) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd"><rss version="0.91"><channel><title>Test</title><link>http://example.com/</link><description>d</description><language>en</language>`)
	for _, it := range items {
		fmt.Fprintf(&b, `<item><title>%s</title><link>%s</link></item>`, html.EscapeString(it.title), html.EscapeString(it.link))
	}
	b.WriteString(`</channel></rss>`)
	return b.String()
}

// rss1 renders items as an RSS 1.0 (RDF) feed.
func rss1(items ...item) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel rdf:about="http://example.com/"><title>Test</title><link>http://example.com/</link><description>d</description></channel>`)
	for _, it := range items {
		fmt.Fprintf(&b, `<item rdf:about="%[2]s"><title>%[1]s</title><link>%[2]s</link>`, html.EscapeString(it.title), html.EscapeString(it.link))
		if !it.date.IsZero() {
			fmt.Fprintf(&b, `<dc:date>%s</dc:date>`, it.date.Format(time.RFC3339))
		}
		b.WriteString(`</item>`)
	}
	b.WriteString(`</rdf:RDF>`)
	return b.String()
}

// atomFeed renders items as an Atom feed.
func atomFeed(items ...item) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Test</title><id>urn:test</id><updated>2026-01-01T00:00:00Z</updated>`)
	for i, it := range items {
		date := it.date
		if date.IsZero() {
			date = time.Date(2026, 1, 1, 0, i, 0, 0, time.UTC)
		}
		fmt.Fprintf(&b, `<entry><title>%s</title><link href="%s"/><id>urn:item:%d</id><updated>%s</updated></entry>`,
			html.EscapeString(it.title), html.EscapeString(it.link), i, date.Format(time.RFC3339))
	}
	b.WriteString(`</feed>`)
	return b.String()
}

// jsonFeed renders items as a JSON Feed 1.1.
func jsonFeed(items ...item) string {
	type jitem struct {
		ID    string `json:"id"`
		URL   string `json:"url"`
		Title string `json:"title"`
	}
	f := struct {
		Version string  `json:"version"`
		Title   string  `json:"title"`
		Items   []jitem `json:"items"`
	}{Version: "https://jsonfeed.org/version/1.1", Title: "Test"}
	for i, it := range items {
		f.Items = append(f.Items, jitem{ID: fmt.Sprint(i), URL: it.link, Title: it.title})
	}
	b, _ := json.Marshal(f)
	return string(b)
}

// newIndex opens a new SQLite index in a temporary directory.
func newIndex(t *testing.T) *neardup.Index {
	t.Helper()
	return newIndexAt(t, filepath.Join(t.TempDir(), "news.db"))
}

// newIndexAt opens a new index at dsn.
func newIndexAt(t *testing.T, dsn string) *neardup.Index {
	t.Helper()
	x, err := neardup.Open(t.Context(), dsn, neardup.Options{StoreText: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

// testOptions are Options for local servers: no delay between requests,
// short timeouts, no log, and the address of newSite allowed (the
// outbound rule refuses loopback addresses).
func testOptions() Options {
	return Options{HostDelay: -1, Timeout: 2 * time.Second, ConnectTimeout: time.Second,
		AllowPrivate: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}, Logger: slog.New(slog.DiscardHandler)}
}

func newWatcher(t *testing.T, x *neardup.Index, o Options) *Watcher {
	t.Helper()
	w, err := New(x, o)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func addFeed(t *testing.T, x *neardup.Index, f Feed) {
	t.Helper()
	if _, err := AddFeed(t.Context(), x, f); err != nil {
		t.Fatal(err)
	}
}

// once runs a pass and fails the test on its error.
func once(t *testing.T, w *Watcher) []Result {
	t.Helper()
	res, err := w.Once(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// storedItems returns the stored items of the feed of a URL, by key.
func storedItems(t *testing.T, x *neardup.Index, feedURL string) map[string]neardup.FeedItem {
	t.Helper()
	out := map[string]neardup.FeedItem{}
	err := x.ViewFeeds(t.Context(), func(r neardup.FeedReader) error {
		f, err := find(r, feedURL)
		if err != nil {
			return err
		}
		items, err := r.RecentItems(f.ID, 1<<20)
		for _, it := range items {
			out[it.Item] = it
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// stored returns a stored document, with its text, and its marks.
func stored(t *testing.T, x *neardup.Index, id string) (browse.Document, []browse.Mark) {
	t.Helper()
	d, err := x.Document(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return d, d.Marks
}

// A *neardup.Index is what the package is given.
var _ Index = (*neardup.Index)(nil)
