package corpus

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/json"
	"fmt"
	nurl "net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/extract"
	"golang.org/x/net/html"
)

// storyParagraphs are the article the test pages reprint.
var storyParagraphs = []string{
	"The harbour ferry returned to service on Monday after six weeks in dry dock, the port authority said.",
	"Engineers replaced both propeller shafts and repainted the hull, work that cost 1.2 million euros.",
	"Commuters who had driven around the bay during the repairs welcomed the return of the morning crossing.",
	"The authority said a second vessel would join the route in the spring, doubling the service at peak hours.",
	"Fares will stay at their current level until the end of the year, a spokeswoman for the operator confirmed.",
	"Local businesses on the island said the closure had cut the number of visitors by almost a third.",
}

// otherParagraphs are an unrelated article.
var otherParagraphs = []string{
	"The regional orchestra announced its new season on Thursday, with eleven concerts in the old theatre.",
	"The programme opens with a symphony by a local composer that has not been performed for eighty years.",
	"Ticket prices fall for students and pensioners, and two rehearsals will be open to schools for free.",
	"The conductor said the season was planned around the restoration of the theatre's organ last winter.",
	"A festival of chamber music in July will close the season, with concerts in churches across the valley.",
}

// sitePage is an article as site A publishes it: a menu, the story, a
// newsletter box and a footer.
func sitePage(title string, paras []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%s | Port News</title>
<meta property="article:published_time" content="2024-03-05T10:00:00Z"></head><body>
<nav class="menu"><ul><li><a href="/">Home</a></li><li><a href="/local">Local</a></li><li><a href="/sport">Sport</a></li><li><a href="/weather">Weather</a></li></ul></nav>
<article><h1>%s</h1>`, title, title)
	for _, p := range paras {
		fmt.Fprintf(&b, "<p>%s</p>\n", p)
	}
	b.WriteString(`</article><aside class="newsletter"><p>Sign up for the Port News morning briefing.</p></aside>
<footer><p>Copyright 2024 Port News Ltd. All rights reserved.</p></footer></body></html>`)
	return b.String()
}

// reprintPage is the same story as site B reprints it: another menu, a
// sidebar of links, an agency credit and another footer.
func reprintPage(title string, paras []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<html><head><title>%s - Daily Coast</title></head><body>
<div id="header"><a href="/">Daily Coast</a> <a href="/news">News</a> <a href="/opinion">Opinion</a> <a href="/shop">Shop</a></div>
<div id="sidebar"><h3>Most read</h3><ul><li><a href="/a">Storm warning for the weekend</a></li><li><a href="/b">New mayor sworn in</a></li></ul></div>
<div class="story"><h2>%s</h2><p class="credit">By our correspondent</p>`, title, title)
	for _, p := range paras {
		fmt.Fprintf(&b, "<p>%s</p>\n", p)
	}
	b.WriteString(`</div><div id="footer">Daily Coast &middot; Contact &middot; Advertise</div></body></html>`)
	return b.String()
}

// galleryPage has no article: a few captions.
const galleryPage = `<html><head><title>Photos of the week</title></head><body>
<div class="gallery"><img src="1.jpg"><p>Sunset over the bay.</p><img src="2.jpg"><p>Boats.</p></div></body></html>`

// warcRecord formats one WARC record.
func warcRecord(typ, uri, contentType, block string) string {
	return fmt.Sprintf("WARC/1.0\r\nWARC-Type: %s\r\nWARC-Target-URI: %s\r\nWARC-Date: 2024-03-06T00:00:00Z\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n",
		typ, uri, contentType, len(block), block)
}

// httpResponse formats an HTTP response with the given status, headers and
// body.
func httpResponse(status int, header, body string) string {
	return fmt.Sprintf("HTTP/1.1 %d X\r\n%sContent-Length: %d\r\n\r\n%s", status, header, len(body), body)
}

// testWARC is a crawl of a reprint of the story (record 3), its request
// (2), a 404 (4), a resource record with the unrelated article (5), a DNS
// response (6) and a deflate-encoded gallery (7).
func testWARC(t testing.TB) string {
	var deflated bytes.Buffer
	zw := zlib.NewWriter(&deflated)
	zw.Write([]byte(galleryPage))
	zw.Close()
	const html = "application/http; msgtype=response"
	return warcRecord("warcinfo", "", "application/warc-fields", "software: test\r\n") +
		warcRecord("request", "https://coast.example/ferry", "application/http; msgtype=request", "GET /ferry HTTP/1.1\r\n\r\n") +
		warcRecord("response", "https://coast.example/ferry", html,
			httpResponse(200, "Content-Type: text/html; charset=utf-8\r\n", reprintPage("Ferry back in service", storyParagraphs))) +
		warcRecord("response", "https://coast.example/gone", html, httpResponse(404, "Content-Type: text/html\r\n", "<p>gone</p>")) +
		warcRecord("resource", "https://port.example/orchestra", "text/html", sitePage("Orchestra season", otherParagraphs)) +
		warcRecord("response", "dns:coast.example", "text/dns", "coast.example. 300 IN A 192.0.2.1\n") +
		warcRecord("response", "https://coast.example/photos", html,
			httpResponse(200, "Content-Type: text/html\r\nContent-Encoding: deflate\r\n", deflated.String()))
}

// page is a page's record, reduced to what these tests compare.
type page struct {
	ID, URL, Title, Date, Skip, Err string
	Story                           bool // the text holds the story's first and last paragraphs
	Boilerplate                     bool // the text holds a menu, sidebar or footer
	Raw                             map[string]string
}

func pageOf(t testing.TB, r rec) page {
	p := page{ID: r.ID, URL: r.URL, Title: r.Title, Date: r.Date, Skip: r.Skip, Err: r.Err}
	for _, paras := range [][]string{storyParagraphs, otherParagraphs} {
		p.Story = p.Story || strings.Contains(r.Text, paras[0]) && strings.Contains(r.Text, paras[len(paras)-1])
	}
	for _, s := range []string{"Home", "Most read", "Copyright", "Advertise", "morning briefing"} {
		p.Boilerplate = p.Boilerplate || strings.Contains(r.Text, s)
	}
	if r.Raw != "" {
		if err := json.Unmarshal([]byte(r.Raw), &p.Raw); err != nil {
			t.Fatalf("%s: Raw %s: %v", r.ID, r.Raw, err)
		}
		if p.Raw["text"] != r.Text {
			t.Errorf("%s: Raw text differs from the document's", r.ID)
		}
		delete(p.Raw, "text")
	}
	return p
}

func readPages(t *testing.T, paths []string, opts Options) []page {
	t.Helper()
	recs, err := readAll(t, paths, opts, config{})
	if err != nil {
		t.Fatal(err)
	}
	var got []page
	for _, r := range recs {
		got = append(got, pageOf(t, r))
	}
	return got
}

// raw is the Raw of an article record without its text.
func raw(id, url, title, date, author, lang string) map[string]string {
	return map[string]string{"id": id, "url": url, "title": title, "date": date, "author": author, "lang": lang}
}

func TestPages(t *testing.T) {
	dir := t.TempDir()
	story := sitePage("Ferry back in service", storyParagraphs)
	writeFiles(t, dir, map[string]string{
		"pages/a.html":           story,
		"pages/b.htm":            reprintPage("Ferry back in service", storyParagraphs),
		"pages/c/gallery.html":   galleryPage,
		"pages/d.html.gz":        gz(t, sitePage("Orchestra season", otherParagraphs)),
		"pages/e.zip":            zipOf(t, member{"in/f.html", story}, member{"in/g.css", "body{}"}),
		"pages/crawl.warc":       testWARC(t),
		"pages/h.warc.gz":        gz(t, warcRecord("resource", "https://port.example/x", "image/png", "\x89PNG\r\n\x1a\n\x00")),
		"pages/notes.css":        "body{}",
		"pages/sniffed/page.php": "\n  " + story,
	})
	t.Chdir(dir)
	const (
		portStory = "Ferry back in service"
		portOther = "Orchestra season"
		coast     = "Ferry back in service"
		date      = "2024-03-05T10:00:00Z"
	)
	article := func(id, url, title, date string) page {
		return page{ID: id, URL: url, Title: title, Date: date, Story: true, Raw: raw(id, url, title, date, "", "en")}
	}
	// The gallery's text is its two captions, "Sunset over the bay." and
	// "Boats." (28 characters): under 300, the block classifier prunes
	// nothing.
	short := func(id, url string) page {
		return page{ID: id, URL: url, Title: "Photos of the week", Skip: "too-short",
			Err: id + ": too-short: 28 characters of text, fewer than 500 (--min-chars)"}
	}
	want := []page{
		article("pages/a.html", "", portStory, date),
		article("pages/b.htm", "", coast, ""),
		short("pages/c/gallery.html", ""),
		article("pages/crawl.warc#3", "https://coast.example/ferry", coast, ""),
		{ID: "pages/crawl.warc#4", URL: "https://coast.example/gone", Skip: "http-status",
			Err: "pages/crawl.warc#4: http-status: HTTP status 404"},
		article("pages/crawl.warc#5", "https://port.example/orchestra", portOther, date),
		short("pages/crawl.warc#7", "https://coast.example/photos"),
		article("pages/d.html.gz", "", portOther, date),
		article("pages/e.zip/in/f.html", "", portStory, date),
		{ID: "pages/h.warc.gz#1", URL: "https://port.example/x", Skip: "not-html", Err: "pages/h.warc.gz#1: not-html: not an HTML page"},
	}
	if diff := cmp.Diff(want, readPages(t, []string{"pages"}, Options{})); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	// A file given directly is sniffed: HTML after blank lines.
	want = []page{article("page.php", "", portStory, date)} // named by the file's own name
	if diff := cmp.Diff(want, readPages(t, []string{"pages/sniffed/page.php"}, Options{})); diff != "" {
		t.Errorf("sniffed (-want +got)\n%s", diff)
	}
}

func TestPageSniff(t *testing.T) {
	story := sitePage("Ferry back in service", storyParagraphs)
	warcFile := warcRecord("resource", "https://port.example/ferry", "text/html", story)
	for _, tc := range []struct {
		name, input string
		opts        Options
		want        []string // id and skip reason of each record
	}{
		{"HTML", story, Options{}, []string{"stdin "}},
		{"HTML with a byte-order mark", "\ufeff" + story, Options{}, []string{"stdin "}},
		{"WARC", warcFile + warcFile, Options{}, []string{"stdin#1 ", "stdin#2 "}},
		{"gzip WARC", gz(t, warcFile), Options{}, []string{"stdin#1 "}},
		{"CSV with markup in the text", "id,text\n1,\"<p>a <b>b</b></p>\"\n", Options{}, []string{"1 "}},
		{"text starting with a bracket", "<3 a note\nbody", Options{}, []string{"stdin "}},
		{"WARC in name only", "WARC/x\nnotes", Options{}, []string{"stdin "}},
		{"forced HTML", "just words", Options{Format: FormatHTML}, []string{"stdin not-html"}},
		{"forced WARC", "just words", Options{Format: FormatWARC},
			[]string{`stdin failed`}}, // no record: a failed page of the stream's own name
		{"empty forced WARC", "", Options{Format: FormatWARC}, nil},
		// Regression: a sitemap named by its own path was read as one text
		// document of addresses and dates.
		{"sitemap", `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
			`<url><loc>https://port.example/ferry</loc><lastmod>2024-03-04</lastmod></url></urlset>`, Options{}, []string{"stdin sitemap"}},
		{"feed in a crawl", warcRecord("resource", "https://port.example/rss.xml", "application/rss+xml",
			`<?xml version="1.0"?><rss version="2.0"><channel><item><title>Ferry</title><description>&lt;p&gt;x&lt;/p&gt;</description></item></channel></rss>`),
			Options{}, []string{"stdin#1 feed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs, err := readAll(t, []string{"-"}, tc.opts, config{stdin: pipe(tc.input)})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range recs {
				got = append(got, r.ID+" "+r.Skip)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestWARCDamage checks what a damaged WARC file gives. It is the
// regression test of a record whose Content-Length is too small: the
// record failed, and so did the next, whole record ("want a WARC/ version
// line, got …", the rest of the file not read), every record after it
// lost; so with a record whose header is damaged. Now the damaged record
// is a failed page saying which bytes were skipped, and the records after
// it are read, under the numbers they would have had, on both passes.
// Bytes that start no record after a record that ends well are skipped and
// the file noted (DamagedWARCs, the first pass only), and a .warc that
// holds no record is a failed page of its own name.
func TestWARCDamage(t *testing.T) {
	story := sitePage("Ferry back in service", storyParagraphs)
	good := warcRecord("resource", "https://port.example/ferry", "text/html", story)
	broken := strings.Replace(good, "Content-Length: ", "Content-Length: x", 1)
	short := strings.Replace(good, fmt.Sprint("Content-Length: ", len(story)), fmt.Sprint("Content-Length: ", len(story)-100), 1)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"broken.warc":     good + broken + good,
		"short.warc":      good + short + good + good,
		"junk.warc":       good + "junk\r\n" + good,
		"truncated.warc":  good + good[:len(good)/2],
		"after.jsonl":     `{"text":"next"}`,
		"not-a-warc.warc": "hello\n",
	})
	t.Chdir(dir)
	for _, tc := range []struct {
		file    string
		want    []string // id, skip reason and error of each record
		damaged string   // what DamagedWARCs names
	}{
		{"broken.warc", []string{"broken.warc#1  ",
			`broken.warc#2 failed broken.warc#2: failed: warc: malformed record at offset ` + fmt.Sprint(len(good)+len(broken)-len(story)-4) +
				`: bad Content-Length "x` + fmt.Sprint(len(story)) + `" (` + fmt.Sprint(len(broken)) + ` bytes from offset ` + fmt.Sprint(len(good)) +
				` skipped, up to the next record at offset ` + fmt.Sprint(len(good)+len(broken)) + `)`,
			"broken.warc#3  ", "after.jsonl:1  "}, ""},
		{"short.warc", []string{"short.warc#1  ",
			`short.warc#2 failed short.warc#2: failed: warc: malformed record at offset ` + fmt.Sprint(len(good)+len(short)-104) +
				`: the block of ` + fmt.Sprint(len(story)-100) + ` bytes its Content-Length declares is followed by bytes that start no record: ` +
				`the length is wrong, or the record damaged (` + fmt.Sprint(len(short)) + ` bytes from offset ` + fmt.Sprint(len(good)) +
				` skipped, up to the next record at offset ` + fmt.Sprint(len(good)+len(short)) + `)`,
			"short.warc#3  ", "short.warc#4  ", "after.jsonl:1  "}, ""},
		{"junk.warc", []string{"junk.warc#1  ", "junk.warc#2  ", "after.jsonl:1  "}, fmt.Sprint("junk.warc, 6 bytes at offset ", len(good))},
		{"truncated.warc", []string{"truncated.warc#1  ",
			"truncated.warc#2 failed truncated.warc#2: failed: warc: malformed record at offset " + fmt.Sprint(len(good)+len(good)/2) + ": block cut short: unexpected EOF (the file ends inside this record)",
			"after.jsonl:1  "}, ""},
		{"not-a-warc.warc", []string{`not-a-warc.warc failed not-a-warc.warc: failed: warc: malformed record at offset 0: want a WARC/ version line, got "hello" (6 bytes from offset 0 skipped, to the end of the stream: no record follows)`,
			"after.jsonl:1  "}, ""},
	} {
		t.Run(tc.file, func(t *testing.T) {
			r, err := open([]string{tc.file, "after.jsonl"}, nil, Options{}, config{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			for pass := 1; pass <= 2; pass++ {
				recs, err := drain(t, r)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, r := range recs {
					got = append(got, r.ID+" "+r.Skip+" "+r.Err)
				}
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("pass %d: (-want +got)\n%s", pass, diff)
				}
				if n, first := r.DamagedWARCs(); first != tc.damaged || n != min(len(tc.damaged), 1) {
					t.Errorf("pass %d: DamagedWARCs() = %d, %q; want %q", pass, n, first, tc.damaged)
				}
				if err := r.Rewind(); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestWARCGzipCut is the regression test of a .warc.gz cut inside a gzip
// member (a download stopped): the whole run stopped ("reading
// crawl.warc.gz: unexpected EOF after record 2"), where a plain WARC cut
// inside a record keeps the records before it. Now the records before the
// cut are read, the record cut is a failed page saying so, and the next
// input is read. A cut after a whole record, before any byte of the next
// (a member cut in its header or trailer), cuts no record: it gave a
// failed record after the last, "cut.warc.gz#4", of a file of three. Now
// the file is noted (CutWARCs), its records read, and no record is
// skipped, on either pass. Stray bytes after the last member (a line end,
// NULs) are no cut: the file is noted for them (StrayBytes), its records
// read; a thousand NULs stopped the run ("gzip: invalid header"). A file cut
// in its first member's header, or empty, stopped the run ("reading
// cut.warc.gz: gzip header: unexpected EOF"), the next input not read; now
// it is a failed page of its own name.
func TestWARCGzipCut(t *testing.T) {
	story := sitePage("Ferry back in service", storyParagraphs)
	var records []string
	for _, u := range []string{"https://port.example/a", "https://port.example/b", "https://port.example/c"} {
		records = append(records, warcRecord("resource", u, "text/html", story))
	}
	a, b, c := gz(t, records[0]), gz(t, records[1]), gz(t, records[2]) // a member a record, as crawlers write
	whole := gz(t, strings.Join(records, ""))                          // one member in all
	var stored bytes.Buffer                                            // one member of stored blocks: bytes in as bytes out
	w, _ := gzip.NewWriterLevel(&stored, gzip.NoCompression)
	if _, err := w.Write([]byte(strings.Join(records, ""))); err != nil || w.Close() != nil {
		t.Fatal("writing a gzip stream of stored blocks failed")
	}
	three := []string{"cut.warc.gz#1 ", "cut.warc.gz#2 ", "cut.warc.gz#3 "}
	failed := []string{"cut.warc.gz failed"}
	const inside = "cut short: unexpected EOF (the file ends inside this record)"
	const before = "warc: the stream ends cut short before its first record: "
	for _, tc := range []struct {
		name, file string
		want       []string // id and skip reason of each record
		cut        string   // what CutWARCs names first
		err        string   // how a failed record's error ends, when not inside
		stray      string   // what StrayBytes names first
	}{
		{"inside the first member's header", a[:5], failed, "", before + "not a complete gzip stream: it ends after 5 bytes, inside the gzip header", ""},
		{"empty", "", failed, "", before + "an empty file (0 bytes), not a complete gzip stream", ""},
		{"inside a member's data", a + b + c[:len(c)/2], []string{"cut.warc.gz#1 ", "cut.warc.gz#2 ", "cut.warc.gz#3 failed"}, "", "", ""},
		{"inside the one member", stored.String()[:len(records[0])+len(records[1])/2], []string{"cut.warc.gz#1 ", "cut.warc.gz#2 failed"}, "", "", ""},
		{"inside a member's header", a + b + c[:5], three[:2], "cut.warc.gz after record 2", "", ""},
		{"inside the last member's trailer", a + b + c[:len(c)-3], three, "cut.warc.gz after record 3", "", ""},
		// The last member's data whole, its end not: the cut is after
		// the last record.
		{"at the end of the one member", whole[:len(whole)-10], three, "cut.warc.gz after record 3", "", ""},
		{"a line end after the last member", a + b + c + "\n", three, "", "", "cut.warc.gz, 1 byte"},
		{"nine NULs after the last member", a + b + c + strings.Repeat("\x00", 9), three, "", "", "cut.warc.gz, 9 bytes"},
		{"a thousand NULs after the last member", a + b + c + strings.Repeat("\x00", 1000), three, "", "", "cut.warc.gz, 1000 bytes"},
		// A last byte that is a member's first is a member cut in its
		// header, no stray byte.
		{"a member's first byte after the last", a + b + c + "\x1f", three, "cut.warc.gz after record 3", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"cut.warc.gz": tc.file, "after.jsonl": `{"text":"next"}`})
			t.Chdir(dir)
			r, err := open([]string{"cut.warc.gz", "after.jsonl"}, nil, Options{}, config{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			for pass := 1; pass <= 2; pass++ {
				recs, err := drain(t, r)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, r := range recs {
					got = append(got, r.ID+" "+r.Skip)
					want := tc.err
					if want == "" {
						want = inside
					}
					if r.Skip != "" && !strings.HasSuffix(r.Err, want) {
						t.Errorf("%s: error %q, want it to end %q", r.ID, r.Err, want)
					}
				}
				if diff := cmp.Diff(slices.Concat(tc.want, []string{"after.jsonl:1 "}), got); diff != "" {
					t.Errorf("pass %d: (-want +got)\n%s", pass, diff)
				}
				if n, first := r.CutWARCs(); first != tc.cut || n != min(len(tc.cut), 1) {
					t.Errorf("pass %d: CutWARCs() = %d, %q; want %q", pass, n, first, tc.cut)
				}
				if n, first := r.StrayBytes(container.Gzip); first != tc.stray || n != min(len(tc.stray), 1) {
					t.Errorf("pass %d: StrayBytes() = %d, %q; want %q", pass, n, first, tc.stray)
				}
				if err := r.Rewind(); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestWARCGzipDamagedMember is the regression test of a .warc.gz, a
// gzip member a record, holding a damaged member: the stream ended there
// (a failed page, or stray bytes that ended the file as gzip(1) ends it),
// every record after it lost. Now the records after the damage are read,
// on both passes, and the file noted (DamagedWARCs); the damaged member,
// its magic bytes or its data near its end, gives nothing of its record
// (a page of its first part, or of bytes inflated from damage, is no
// page).
func TestWARCGzipDamagedMember(t *testing.T) {
	story := sitePage("Ferry back in service", storyParagraphs)
	var members []string
	for _, u := range []string{"https://port.example/a", "https://port.example/b", "https://port.example/c"} {
		members = append(members, gz(t, warcRecord("resource", u, "text/html", story)))
	}
	noMagic := "\x00\x00" + members[1][2:]
	late := []byte(members[1])
	for i := len(late) - 40; i < len(late)-20; i++ {
		late[i] ^= 0x5a
	}
	for _, tc := range []struct {
		name, file string
		want       []string // id, skip reason and URL of each record
		damaged    string   // how what DamagedWARCs names ends
	}{
		{"magic bytes damaged", members[0] + noMagic + members[2], []string{"d.warc.gz#1  https://port.example/a",
			"d.warc.gz#2  https://port.example/c"}, "skipped up to the next gzip member (bytes that start no gzip member)"},
		{"data damaged near its end", members[0] + string(late) + members[2], []string{"d.warc.gz#1  https://port.example/a",
			"d.warc.gz#2  https://port.example/c"}, "(gzip: invalid checksum)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"d.warc.gz": tc.file, "after.jsonl": `{"text":"next"}`})
			t.Chdir(dir)
			r, err := open([]string{"d.warc.gz", "after.jsonl"}, nil, Options{}, config{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			for pass := 1; pass <= 2; pass++ {
				recs, err := drain(t, r)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, r := range recs {
					got = append(got, r.ID+" "+r.Skip+" "+r.URL)
				}
				if diff := cmp.Diff(slices.Concat(tc.want, []string{"after.jsonl:1  "}), got); diff != "" {
					t.Errorf("pass %d: (-want +got)\n%s", pass, diff)
				}
				n, first := r.DamagedWARCs()
				if n != 1 || !strings.HasPrefix(first, "d.warc.gz, ") || !strings.HasSuffix(first, tc.damaged) {
					t.Errorf("pass %d: DamagedWARCs() = %d, %q; want 1, the file, ending %q", pass, n, first, tc.damaged)
				}
				if err := r.Rewind(); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestPageRewind checks that a second pass gives the records of the first
// without extracting pages again: a skipped page keeps its record, so one
// that timed out the first time is failed the second time too, however fast
// it would be now; an article is read back from the Reader's file, or, when
// that file cannot be written, extracted again.
func TestPageRewind(t *testing.T) {
	t.Parallel()
	story := sitePage("Ferry back in service", storyParagraphs)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"crawl.warc": warcRecord("resource", "https://port.example/ferry", "text/html", story) +
			warcRecord("resource", "https://port.example/slow", "text/html", story) +
			warcRecord("resource", "https://port.example/photos", "text/html", galleryPage),
		"page.html": reprintPage("Ferry back in service", storyParagraphs),
	})
	warc, page := filepath.Join(dir, "crawl.warc"), filepath.Join(dir, "page.html")
	for _, tc := range []struct {
		name       string
		noFile     bool
		wantSecond int32 // pages extracted in the second pass
	}{
		{"articles read back", false, 0},
		{"articles extracted again", true, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// synctest's time: the slow page's hour passes once all else
			// waits, long after its time limit.
			synctest.Test(t, func(t *testing.T) {
				pageRewind(t, warc, page, tc.noFile, tc.wantSecond)
				time.Sleep(time.Hour) // the slow page's work, given up, ends before the bubble does
			})
		})
	}
}

// pageRewind is a case of TestPageRewind.
func pageRewind(t *testing.T, warc, page string, noFile bool, wantSecond int32) {
	var calls atomic.Int32
	var firstPass atomic.Bool
	firstPass.Store(true)
	engine := func(doc *html.Node, u *nurl.URL) extract.Found {
		calls.Add(1)
		if u != nil && u.Path == "/slow" && firstPass.Load() {
			time.Sleep(time.Hour) // outlives the time limit
		}
		return extract.Readeck(doc, u)
	}
	opts := Options{Extract: extract.Options{Engine: engine, Timeout: 500 * time.Millisecond}}
	r, err := open([]string{warc, page}, nil, opts, config{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.memo.failed = noFile
	first, err := drain(t, r)
	if err != nil {
		t.Fatal(err)
	}
	var skips []string
	for _, rc := range first {
		skips = append(skips, rc.ID+" "+rc.Skip)
	}
	w, p := filepath.Base(warc), filepath.Base(page) // ids start with the name of the input given
	want := []string{w + "#1 ", w + "#2 failed", w + "#3 too-short", p + " "}
	if diff := cmp.Diff(want, skips); diff != "" {
		t.Errorf("first pass (-want +got)\n%s", diff)
	}
	if n := calls.Load(); n != 4 {
		t.Errorf("%d pages extracted in the first pass, want 4", n)
	}
	firstPass.Store(false)
	second := again(t, r)
	if diff := cmp.Diff(first, second); diff != "" {
		t.Errorf("second pass (-first +second)\n%s", diff)
	}
	if n := calls.Load() - 4; n != wantSecond {
		t.Errorf("%d pages extracted in the second pass, want %d", n, wantSecond)
	}
	name := ""
	if r.memo.file != nil {
		name = r.memo.file.Name()
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(name); name != "" && !os.IsNotExist(err) {
		t.Errorf("%s left behind after Close: %v", name, err)
	}
}

// fuzzPages reads data as a stream called name, twice, as fuzzRead does,
// with extraction options that let short pages through.
func fuzzPages(t *testing.T, name string, data []byte, small bool) {
	// The work per input is bounded (elements, time, size), so that no
	// input stalls the fuzzer, nor its minimising.
	if len(data) > 8<<10 {
		return
	}
	opts, cfg := Options{Extract: extract.Options{MinChars: -1, MaxElements: 2000, Timeout: 2 * time.Second}}, config{}
	if small {
		opts.MaxBytes, opts.Extract.MaxBytes, cfg.bufSize, cfg.slack = 24, 64, 16, 16
	}
	readTwice(t, name, data, opts, cfg)
}

func FuzzHTML(f *testing.F) {
	addSeeds(f, "<p>one</p><p>two</p>", "\ufeff<html><title>T</title><body><article><p>text</p></article>",
		"<div hidden>x</div>\xff\x00", "<meta charset=iso-8859-2><p>\xb1</p>", "")
	f.Fuzz(func(t *testing.T, data []byte, small bool) {
		fuzzPages(t, "f.html", data, small)
		fuzzPages(t, "f", data, small)
	})
}

func FuzzWARC(f *testing.F) {
	// Small seeds and inputs, so that minimising an input found
	// interesting (six extractions an input) is quick.
	res := warcRecord("resource", "u", "text/html", "<p>two</p>")
	addSeeds(f, res, "WARC/1.0\r\nContent-Length: 99\r\n\r\nshort",
		warcRecord("response", "x", "application/http", "HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\n\r\n\x78\x9c"))
	f.Fuzz(func(t *testing.T, data []byte, small bool) {
		if len(data) > 2<<10 {
			return
		}
		fuzzPages(t, "f.warc", data, small)
		fuzzPages(t, "f.warc.gz", []byte(gz(t, string(data))), small)
	})
}

// TestTooShortMessageCountsWideCharacters: a page too short in Chinese says
// how many characters it has and what they count as against --min-chars,
// three a character, so that "7 characters, fewer than 500" does not read
// as a miscount.
func TestTooShortMessageCountsWideCharacters(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"市议会周二投票", "7 characters of text, counted as 21 (a Chinese, Japanese or Korean character as three), fewer than 500 (--min-chars)"},
		{"Boats.", "6 characters of text, fewer than 500 (--min-chars)"},
	} {
		if got := skipMessage(extract.SkipTooShort, extract.Article{Text: tc.text}, "", extract.Options{}); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestNotArticleURLMessageNamesTheDeclaredURL: a page read without a URL
// that a site rule's article_url skipped by the URL it declares of itself
// is said to be skipped for that URL, named as the page's declaration; a
// page with a URL of its own is named by it.
func TestNotArticleURLMessageNamesTheDeclaredURL(t *testing.T) {
	a := extract.Article{DeclaredURL: "https://news.example/tag/x"}
	if got, want := skipMessage(extract.SkipNotArticleURL, a, "", extract.Options{}),
		`the site rules do not take "https://news.example/tag/x", the URL the page declares of itself, for an article`; got != want {
		t.Errorf("declared: %q, want %q", got, want)
	}
	if got, want := skipMessage(extract.SkipNotArticleURL, extract.Article{}, "https://news.example/sport", extract.Options{}),
		`the site rules do not take "https://news.example/sport" for an article`; got != want {
		t.Errorf("own URL: %q, want %q", got, want)
	}
}

// TestPageSourceFromDeclaredURL: a page read without a URL of its own
// (a file, in a directory or an archive) gets as its source the name it
// gives its site (og:site_name, white space squeezed), else the host of the
// URL it declares of itself (canonical, else og:url), lower case, without
// "www." and a final ".", written in its record too; its URL stays "". A
// syndicating site's copy, whose canonical names the original publisher,
// keeps its own og:site_name. A WARC record's page has a URL, and no source
// is taken from what it declares.
func TestPageSourceFromDeclaredURL(t *testing.T) {
	dir := t.TempDir()
	declare := func(head string) string {
		return strings.Replace(sitePage("Ferry back in service", storyParagraphs), "<title>", head+"<title>", 1)
	}
	writeFiles(t, dir, map[string]string{
		"html/a/canonical.html": declare(`<link rel="canonical" href="https://WWW.Site-A.example:8443/ferry">`),
		"html/b/og.html":        declare(`<meta property="og:url" content="https://site-b.example/ferry"><meta property="og:site_name" content="Site B">`),
		"html/b/none.html":      declare(`<meta property="og:site_name" content="Site B">`),
		"html/b/syndicated.html": declare(`<link rel="canonical" href="https://site-a.example/ferry">` +
			`<meta property="og:site_name" content="  Coast
 Gazette ">`),
		"html/e/dot.html":  declare(`<link rel="canonical" href="https://Site-E.example./ferry">`),
		"html/e/name.html": declare(`<meta property="og:site_name" content="` + strings.Repeat("n", 257) + `"><link rel="canonical" href="https://site-e.example/ferry">`),
		"html/f/long.html": declare(`<link rel="canonical" href="https://` + strings.Repeat("a", 250) + `.example/ferry">`),
		"html/c.zip":       zipOf(t, member{"in/z.html", declare(`<link rel="canonical" href="http://site-c.example/z">`)}),
		"html/d.warc": warcRecord("resource", "https://warc.example/ferry", "text/html",
			declare(`<link rel="canonical" href="https://elsewhere.example/ferry">`)),
	})
	t.Chdir(dir)
	recs, err := readAll(t, []string{"html"}, Options{}, config{})
	if err != nil {
		t.Fatal(err)
	}
	type got struct{ ID, URL, Source, RawSource string }
	var gots []got
	for _, r := range recs {
		var m map[string]any
		if err := json.Unmarshal([]byte(r.Raw), &m); err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
		src, ok := m["source"].(string)
		if !ok {
			src = "(none)"
		}
		gots = append(gots, got{r.ID, r.URL, r.Source, src})
	}
	want := []got{
		{"html/a/canonical.html", "", "site-a.example", "site-a.example"},
		{"html/b/none.html", "", "Site B", "Site B"},
		{"html/b/og.html", "", "Site B", "Site B"},
		{"html/b/syndicated.html", "", "Coast Gazette", "Coast Gazette"},
		{"html/c.zip/in/z.html", "", "site-c.example", "site-c.example"},
		{"html/d.warc#1", "https://warc.example/ferry", "", "(none)"},
		{"html/e/dot.html", "", "site-e.example", "site-e.example"},
		{"html/e/name.html", "", "site-e.example", "site-e.example"},
		{"html/f/long.html", "", "", "(none)"},
	}
	if diff := cmp.Diff(want, gots); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}
