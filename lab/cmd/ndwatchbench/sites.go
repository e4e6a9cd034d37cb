package main

import (
	"encoding/json"
	"fmt"
	"html"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/neardup/neardup/internal/watch"
)

// The kinds of page the sites carry, and what the watcher should make of
// each.
const (
	kindOriginal  = "original"        // an article first published here
	kindReprint   = "reprint"         // another site's article, edited: a near-duplicate
	kindCanonical = "copy-canonical"  // another site's article whole, naming it as canonical
	kindCopy      = "copy"            // another site's article whole, under this site's URL
	kindTeaser    = "teaser"          // a paragraph of an article: too short
	kindGallery   = "gallery"         // a gallery or video URL: not fetched
	kindBinary    = "binary"          // a PDF linked from the feed: not HTML
	kindBroken    = "broken"          // 404 or 500
	kindSlowBroke = "timeout"         // answers after the watcher's timeout
	kindHuge      = "huge"            // over the size limit
	kindUnused    = "unused-original" // (not a page kind: articles not published)
)

// mix is the share of each kind among the pages.
var mix = []struct {
	kind  string
	share float64
}{
	{kindOriginal, 0.60}, {kindReprint, 0.18}, {kindCanonical, 0.04}, {kindCopy, 0.04},
	{kindTeaser, 0.05}, {kindGallery, 0.04}, {kindBinary, 0.02}, {kindBroken, 0.02},
	{kindSlowBroke, 0.005}, {kindHuge, 0.005},
}

// page is a page of a site.
type page struct {
	site   *site
	path   string
	kind   string
	src    int // the source article, -1 for none
	title  string
	paras  []string
	date   time.Time
	canon  string // the URL of the page it copies, for kindCanonical
	origin *page  // the page it was made from, for copies
}

func (p *page) url() string { return p.site.srv.URL + p.path }

// site is a local news site with its feed.
type site struct {
	name   string
	tmpl   int    // the page template
	format string // the feed format
	rule   *watch.Rule
	pages  []*page
	srv    *httptest.Server
	mostly []string // headlines of its "most read" box
	delay  time.Duration
	hits   atomic.Int64
}

// world is the generated sites, their pages and the truth of how each was
// made.
type world struct {
	sites []*site
	pages []*page
	arts  []article
}

// formats are the feed formats, one per site in turn.
var formats = []string{"rss2", "atom", "rss2", "json", "rss1", "rss2", "atom", "rss091"}

// build makes n pages on nSites sites from the articles.
// hanging, when not negative, is how many pages hang.
func build(arts []article, n, nSites int, seed uint64, hanging int) (*world, error) {
	r := rand.New(rand.NewPCG(seed, 11))
	w := &world{arts: arts}
	for i := range nSites {
		s := &site{name: fmt.Sprintf("The %s %s", cities[i%len(cities)], papers[i%len(papers)]), tmpl: i % templates,
			format: formats[i%len(formats)]}
		if s.tmpl == 1 && i%2 == 1 { // some sites come with a site rule
			s.rule = &watch.Rule{Body: ".story-body", Drop: []string{".related"}}
		}
		w.sites = append(w.sites, s)
	}
	counts := map[string]int{}
	total := 0
	for _, m := range mix {
		counts[m.kind] = int(float64(n)*m.share + 0.5)
		total += counts[m.kind]
	}
	if hanging >= 0 {
		total += hanging - counts[kindSlowBroke]
		counts[kindSlowBroke] = hanging
	}
	counts[kindOriginal] += n - total
	needed := counts[kindOriginal] + counts[kindTeaser]
	if needed > len(arts) {
		return nil, fmt.Errorf("%d pages need %d distinct articles, the data has %d", n, needed, len(arts))
	}
	perm := r.Perm(len(arts))
	next := 0
	start := time.Date(2026, 11, 1, 6, 0, 0, 0, time.UTC)
	var originals []*page
	add := func(p *page) {
		p.site.pages = append(p.site.pages, p)
		w.pages = append(w.pages, p)
	}
	for range counts[kindOriginal] {
		a := arts[perm[next]]
		s := w.sites[r.IntN(nSites)]
		p := &page{site: s, kind: kindOriginal, src: perm[next], title: a.title, paras: a.paras,
			path: fmt.Sprintf("/news/%d-%s", len(s.pages), slug(a.title)), date: start.Add(time.Duration(r.IntN(72*60)) * time.Minute)}
		next++
		add(p)
		originals = append(originals, p)
	}
	copyOf := func(kind string) {
		o := originals[r.IntN(len(originals))]
		s := w.sites[r.IntN(nSites)]
		for s == o.site {
			s = w.sites[r.IntN(nSites)]
		}
		p := &page{site: s, kind: kind, src: o.src, title: o.title, paras: o.paras, origin: o,
			date: o.date.Add(time.Duration(30+r.IntN(24*60)) * time.Minute)}
		if kind == kindReprint {
			p.title, p.paras = reprint(r, s.name, o.title, o.paras)
		}
		p.path = fmt.Sprintf("/story/%d-%s", len(s.pages), slug(p.title))
		add(p)
	}
	for range counts[kindReprint] {
		copyOf(kindReprint)
	}
	for range counts[kindCanonical] {
		copyOf(kindCanonical)
	}
	for range counts[kindCopy] {
		copyOf(kindCopy)
	}
	for _, k := range []string{kindTeaser, kindGallery, kindBinary, kindBroken, kindSlowBroke, kindHuge} {
		for i := range counts[k] {
			s := w.sites[r.IntN(nSites)]
			p := &page{site: s, kind: k, src: -1, date: start.Add(time.Duration(r.IntN(72*60)) * time.Minute)}
			switch k {
			case kindTeaser:
				a := arts[perm[next]]
				next++
				p.title, p.paras = a.title, []string{truncate(a.paras[0], 300)}
				p.path = fmt.Sprintf("/news/%d-%s", len(s.pages), slug(a.title))
			case kindGallery:
				p.title = fmt.Sprintf("In pictures: the week in photos %d", i)
				p.path = fmt.Sprintf("/%s/%d-week-in-pictures", []string{"gallery", "video", "photos"}[i%3], len(s.pages))
			case kindBinary:
				p.title, p.path = fmt.Sprintf("Annual report %d (PDF)", i), fmt.Sprintf("/files/report-%d.pdf", len(s.pages))
			default:
				p.title, p.path = fmt.Sprintf("Page %d", i), fmt.Sprintf("/news/%d-page", len(s.pages))
			}
			add(p)
		}
	}
	for _, s := range w.sites {
		for range 5 {
			s.mostly = append(s.mostly, arts[r.IntN(len(arts))].title)
		}
	}
	return w, nil
}

var (
	cities = []string{"Northport", "Easton", "Westfield", "Southby", "Lakeside", "Hillview", "Riverton", "Bayside", "Kingsbridge", "Ashford"}
	papers = []string{"Gazette", "Herald", "Courier", "Chronicle", "Post", "Times", "Echo", "Observer"}
)

// reprint edits an article as a site that reprints wire copy does: its
// own headline, a dateline, a paragraph cut, a sentence dropped, a credit
// line, a few words changed.
func reprint(r *rand.Rand, siteName, title string, paras []string) (string, []string) {
	out := append([]string(nil), paras...)
	switch r.IntN(4) {
	case 0:
		title = "UPDATE 1-" + title
	case 1:
		title = title + " - " + siteName
	case 2:
		if w := strings.Fields(title); len(w) > 3 {
			title = strings.Join(w[1:], " ")
		}
	}
	if r.IntN(2) == 0 {
		out[0] = "LONDON (" + siteName + ") - " + out[0]
	}
	if r.IntN(10) < 4 && len(out) > 4 {
		out = out[:len(out)-1]
	}
	if r.IntN(10) < 3 {
		i := r.IntN(len(out))
		if s := strings.SplitAfter(out[i], ". "); len(s) > 1 {
			j := r.IntN(len(s))
			out[i] = strings.TrimSpace(strings.Join(append(s[:j:j], s[j+1:]...), ""))
		}
	}
	if r.IntN(10) < 3 {
		out = append(out, "Additional reporting by staff of "+siteName+"; editing by the news desk.")
	}
	if r.IntN(10) < 3 {
		i := r.IntN(len(out))
		w := strings.Fields(out[i])
		for range 3 {
			k := r.IntN(len(w))
			w[k] = []string{"said", "reported", "the", "new", "officials", "also"}[r.IntN(6)]
		}
		out[i] = strings.Join(w, " ")
	}
	return title, out
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if i := strings.LastIndexByte(s[:n], ' '); i > 0 {
		return s[:i]
	}
	return s[:n]
}

func slug(title string) string {
	var b strings.Builder
	for _, w := range strings.Fields(strings.ToLower(title)) {
		w = strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, w)
		if w == "" || b.Len() > 40 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('-')
		}
		b.WriteString(w)
	}
	return b.String()
}

// start serves every site.
func (w *world) start(timeout time.Duration) {
	for _, s := range w.sites {
		byPath := map[string]*page{}
		for _, p := range s.pages {
			byPath[p.path] = p
		}
		s.srv = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			s.hits.Add(1)
			if s.delay > 0 {
				time.Sleep(s.delay)
			}
			if r.URL.Path == "/feed" {
				s.writeFeed(rw)
				return
			}
			p := byPath[r.URL.Path]
			if p == nil {
				http.NotFound(rw, r)
				return
			}
			switch p.kind {
			case kindBinary:
				rw.Header().Set("Content-Type", "application/pdf")
				fmt.Fprintf(rw, "%%PDF-1.4\n%%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >> endobj\n")
			case kindBroken:
				if len(p.path)%2 == 0 {
					http.NotFound(rw, r)
				} else {
					http.Error(rw, "internal error", http.StatusInternalServerError)
				}
			case kindSlowBroke:
				select {
				case <-time.After(timeout + time.Second):
				case <-r.Context().Done():
				}
			case kindHuge:
				rw.Header().Set("Content-Type", "text/html")
				chunk := strings.Repeat("<p>filler text of a page far too large to be an article</p>\n", 1000)
				for range 1000 { // about 60 MB
					if _, err := fmt.Fprint(rw, chunk); err != nil {
						return
					}
				}
			default:
				rw.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprint(rw, s.render(p))
			}
		}))
	}
	for _, p := range w.pages {
		if p.kind == kindCanonical {
			p.canon = p.origin.url()
		}
	}
}

func (w *world) stop() {
	for _, s := range w.sites {
		s.srv.Close()
	}
}

// templates is how many page layouts there are.
const templates = 5

// render writes a page in its site's layout, with navigation, a "most
// read" box and a footer around the article.
func (s *site) render(p *page) string {
	var b strings.Builder
	e := html.EscapeString
	fmt.Fprintf(&b, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%s | %s</title>`, e(p.title), e(s.name))
	if p.canon != "" {
		fmt.Fprintf(&b, `<link rel="canonical" href="%s">`, e(p.canon))
	} else {
		fmt.Fprintf(&b, `<meta property="og:url" content="%s">`, e(p.url()))
	}
	fmt.Fprintf(&b, `<meta property="og:title" content="%s"><meta property="article:published_time" content="%s">`, e(p.title), p.date.Format(time.RFC3339))
	b.WriteString(`<style>body{font-family:sans-serif}</style><script>var ads=[];</script></head><body>`)
	fmt.Fprintf(&b, `<header><a href="/">%s</a><nav><a href="/news">News</a> <a href="/sport">Sport</a> <a href="/business">Business</a> <a href="/weather">Weather</a></nav></header>`, e(s.name))
	mostRead := func() {
		b.WriteString(`<aside class="most-read"><h3>Most read</h3><ol>`)
		for _, h := range s.mostly {
			fmt.Fprintf(&b, `<li><a href="/news/x">%s</a></li>`, e(h))
		}
		b.WriteString(`</ol></aside>`)
	}
	switch s.tmpl {
	case 0:
		fmt.Fprintf(&b, `<article><h1>%s</h1><time>%s</time>`, e(p.title), p.date.Format("2 January 2006"))
		for _, para := range p.paras {
			fmt.Fprintf(&b, "<p>%s</p>\n", e(para))
		}
		b.WriteString(`</article>`)
		mostRead()
	case 1:
		fmt.Fprintf(&b, `<div id="main"><div class="headline"><h2>%s</h2></div><div class="story-body">`, e(p.title))
		for _, para := range p.paras {
			fmt.Fprintf(&b, "<p>%s</p>\n", e(para))
		}
		b.WriteString(`<div class="related"><h3>Related stories</h3><ul>`)
		for _, h := range s.mostly[:3] {
			fmt.Fprintf(&b, `<li><a href="/news/y">%s</a></li>`, e(h))
		}
		b.WriteString(`</ul></div></div></div>`)
		mostRead()
	case 2:
		fmt.Fprintf(&b, `<table width="100%%"><tr><td class="nav" width="150"><a href="/">Front page</a><br><a href="/archive">Archive</a></td><td><font size="4"><b>%s</b></font><br><br>`, e(p.title))
		for _, para := range p.paras {
			fmt.Fprintf(&b, "%s<br><br>\n", e(para))
		}
		b.WriteString(`</td></tr></table>`)
	case 3:
		fmt.Fprintf(&b, `<main><header><h1>%s</h1><p class="byline">By our staff</p></header><section class="content">`, e(p.title))
		for i, para := range p.paras {
			fmt.Fprintf(&b, "<p>%s</p>\n", e(para))
			if i == 1 {
				b.WriteString(`<div class="ad">Advertisement</div>`)
			}
		}
		b.WriteString(`</section><section class="comments"><h3>Comments</h3><div class="comment">Great article, thanks.</div><div class="comment">I disagree with this.</div></section></main>`)
	case 4:
		ld, _ := json.Marshal(map[string]string{"@context": "https://schema.org", "@type": "NewsArticle", "headline": p.title})
		fmt.Fprintf(&b, `<script type="application/ld+json">%s</script><div class="post"><h1 class="entry-title">%s</h1><div class="entry-content">`, ld, e(p.title))
		for _, para := range p.paras {
			fmt.Fprintf(&b, "<p>%s</p>\n", e(para))
		}
		b.WriteString(`<p class="share">Share this: Facebook Twitter Email</p></div></div>`)
		mostRead()
	}
	fmt.Fprintf(&b, `<footer><p>© 2026 %s. All rights reserved.</p><p>Subscribe to our newsletter.</p></footer></body></html>`, e(s.name))
	return b.String()
}

// writeFeed writes the site's feed, the newest item first.
func (s *site) writeFeed(rw http.ResponseWriter) {
	items := append([]*page(nil), s.pages...)
	for i, j := 0, len(items)-1; i < j; i, j = i+1, j-1 {
		items[i], items[j] = items[j], items[i]
	}
	slices.SortStableFunc(items, func(a, b *page) int { return b.date.Compare(a.date) })
	e := html.EscapeString
	var b strings.Builder
	switch s.format {
	case "rss2", "rss091":
		rw.Header().Set("Content-Type", "application/rss+xml")
		version := map[string]string{"rss2": "2.0", "rss091": "0.91"}[s.format]
		fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?><rss version="%s"><channel><title>%s</title><link>%s/</link><description>News</description>`, version, e(s.name), s.srv.URL)
		for _, p := range items {
			fmt.Fprintf(&b, `<item><title>%s</title><link>%s?utm_source=rss&amp;utm_medium=feed</link>`, e(p.title), e(p.url()))
			if s.format == "rss2" {
				fmt.Fprintf(&b, `<guid isPermaLink="false">%s-%s</guid><pubDate>%s</pubDate>`, e(s.name), e(p.path), p.date.Format(time.RFC1123Z))
			}
			b.WriteString(`</item>`)
		}
		b.WriteString(`</channel></rss>`)
	case "rss1":
		rw.Header().Set("Content-Type", "application/rdf+xml")
		fmt.Fprintf(&b, `<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel rdf:about="%[1]s/"><title>%[2]s</title><link>%[1]s/</link><description>News</description></channel>`, s.srv.URL, e(s.name))
		for _, p := range items {
			fmt.Fprintf(&b, `<item rdf:about="%[2]s"><title>%[1]s</title><link>%[2]s</link><dc:date>%[3]s</dc:date></item>`, e(p.title), e(p.url()), p.date.Format(time.RFC3339))
		}
		b.WriteString(`</rdf:RDF>`)
	case "atom":
		rw.Header().Set("Content-Type", "application/atom+xml")
		fmt.Fprintf(&b, `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>%s</title><id>%s/</id><updated>2026-11-04T00:00:00Z</updated>`, e(s.name), s.srv.URL)
		for _, p := range items {
			fmt.Fprintf(&b, `<entry><title>%s</title><link href="%s"/><id>%s</id><updated>%s</updated></entry>`, e(p.title), e(p.url()), e(p.url()), p.date.Format(time.RFC3339))
		}
		b.WriteString(`</feed>`)
	case "json":
		rw.Header().Set("Content-Type", "application/feed+json")
		type item struct {
			ID        string `json:"id"`
			URL       string `json:"url"`
			Title     string `json:"title"`
			Published string `json:"date_published"`
		}
		f := struct {
			Version string `json:"version"`
			Title   string `json:"title"`
			Items   []item `json:"items"`
		}{Version: "https://jsonfeed.org/version/1.1", Title: s.name}
		for _, p := range items {
			f.Items = append(f.Items, item{ID: p.url(), URL: p.url(), Title: p.title, Published: p.date.Format(time.RFC3339)})
		}
		data, _ := json.Marshal(f)
		b.Write(data)
	}
	fmt.Fprint(rw, b.String())
}

// writeGold writes the article pages, each in its site's layout, beside
// their article text (the paragraphs, a blank line apart; the headline is
// the title, not the text): a gold folder for extraction scores.
func (w *world) writeGold(dir string) error {
	for _, sub := range []string{"input", "GoldStandard"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	n := 0
	for i, p := range w.pages {
		switch p.kind {
		case kindOriginal, kindReprint, kindCopy, kindCanonical:
		default:
			continue
		}
		id := fmt.Sprintf("page%05d", i)
		if err := os.WriteFile(filepath.Join(dir, "input", id+".html"), []byte(p.site.render(p)), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "GoldStandard", id+".txt"), []byte(strings.Join(p.paras, "\n\n")), 0o644); err != nil {
			return err
		}
		n++
	}
	fmt.Fprintf(os.Stderr, "%d article pages written to %s\n", n, dir)
	return nil
}
