package source

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/extract/warc"
)

func gzipBytes(t testing.TB, data string) string {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(data))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func zipBytes(t testing.TB, files ...string) string {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i < len(files); i += 2 {
		f, err := zw.Create(files[i])
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(files[i+1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func tarBytes(t testing.TB, files ...string) string {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for i := 0; i < len(files); i += 2 {
		tw.WriteHeader(&tar.Header{Name: files[i], Mode: 0o644, Size: int64(len(files[i+1])), Typeflag: tar.TypeReg})
		tw.Write([]byte(files[i+1]))
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func warcRecord(typ, uri, contentType, block string) string {
	return fmt.Sprintf("WARC/1.0\r\nWARC-Type: %s\r\nWARC-Target-URI: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n",
		typ, uri, contentType, len(block), block)
}

func warcResponse(uri, status, header, body string) string {
	return warcRecord("response", uri, "application/http; msgtype=response",
		"HTTP/1.1 "+status+"\r\n"+header+"\r\n"+body)
}

// summary is the part of a page the tests compare.
type summary struct {
	ID, URL, ContentType string
	Status               int
	Body                 string
	TooLarge             bool
	Err                  bool
}

func walk(t *testing.T, opts Options, paths ...string) []summary {
	t.Helper()
	var got []summary
	err := Walk(context.Background(), paths, opts, func(p Page) error {
		got = append(got, summary{p.ID, p.URL, p.ContentType, p.Status, string(p.Body), p.TooLarge, p.Err != nil})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestWalk(t *testing.T) {
	crawl := warcRecord("warcinfo", "", "application/warc-fields", "software: test\r\n") +
		warcRecord("request", "http://a.example/1", "application/http; msgtype=request", "GET /1 HTTP/1.1\r\n\r\n") +
		warcResponse("http://a.example/1", "200 OK", "Content-Type: text/html; charset=koi8-r\r\nContent-Encoding: gzip\r\n", gzipBytes(t, "<p>one</p>")) +
		warcResponse("http://a.example/2", "404 Not Found", "Content-Type: text/html\r\n", "gone") +
		warcResponse("http://a.example/3", "200 OK", "Content-Type: text/html\r\nContent-Encoding: br\r\n", "xx") +
		warcRecord("resource", "http://a.example/4", "text/html", "<p>four</p>") +
		warcResponse("http://a.example/5", "200 OK", "Content-Type: text/html\r\n", strings.Repeat("x", 100))
	dir := writeTree(t, map[string]string{
		"a.html":          "<p>a</p>",
		"sub/b.htm":       "<p>b</p>",
		"c.html.gz":       gzipBytes(t, "<p>c</p>"),
		"d.zip":           zipBytes(t, "in/e.html", "<p>e</p>", "f.warc", warcRecord("resource", "http://z.example/", "text/html", "<p>f</p>")),
		"g.tar.gz":        gzipBytes(t, tarBytes(t, "h.html", "<p>h</p>", "i.zip", zipBytes(t, "j.html", "<p>j</p>"))),
		"k.warc.gz":       gzipBytes(t, crawl),
		"l.html":          strings.Repeat("y", 100),
		"m.gz":            "\x1f\x8bnot gzip at all",
		"n.warc":          "WARC/1.0\r\nContent-Length: 99\r\n\r\nshort",
		"empty/.keep.txt": "",
	})
	got := walk(t, Options{MaxBytes: 50}, dir)
	// Ids are relative to the directory holding the input given: they
	// start with its name, not with the absolute path given.
	p := func(rel string) string { return filepath.Base(dir) + "/" + rel }
	want := []summary{
		{ID: p("a.html"), Body: "<p>a</p>"},
		{ID: p("c.html.gz"), Body: "<p>c</p>"},
		{ID: p("d.zip/in/e.html"), Body: "<p>e</p>"},
		{ID: p("d.zip/f.warc#1"), URL: "http://z.example/", ContentType: "text/html", Body: "<p>f</p>"},
		{ID: p("g.tar.gz/h.html"), Body: "<p>h</p>"},
		{ID: p("g.tar.gz/i.zip/j.html"), Body: "<p>j</p>"},
		{ID: p("k.warc.gz#3"), URL: "http://a.example/1", ContentType: "text/html; charset=koi8-r", Status: 200, Body: "<p>one</p>"},
		{ID: p("k.warc.gz#4"), URL: "http://a.example/2", ContentType: "text/html", Status: 404, Body: "gone"},
		{ID: p("k.warc.gz#5"), URL: "http://a.example/3", ContentType: "text/html", Status: 200, Err: true},
		{ID: p("k.warc.gz#6"), URL: "http://a.example/4", ContentType: "text/html", Body: "<p>four</p>"},
		{ID: p("k.warc.gz#7"), URL: "http://a.example/5", ContentType: "text/html", Status: 200, TooLarge: true},
		{ID: p("l.html"), TooLarge: true},
		{ID: p("m.gz"), Err: true},
		{ID: p("n.warc#1"), Err: true},
		{ID: p("sub/b.htm"), Body: "<p>b</p>"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestWalkWARCResponseWithoutContentType is the regression test of a
// response record whose header names no Content-Type, as some crawlers
// write them: it was passed over as holding no page, and a WARC of such
// records gave no page and no warning. Now a block that begins as an HTTP
// response is read as one, and one whose body is over the limit is
// reported too large; a response of another protocol (text/dns) and one without a
// Content-Type whose block is no HTTP still hold no page (see also
// warc's TestHoldsPage).
func TestWalkWARCResponseWithoutContentType(t *testing.T) {
	untyped := func(uri, block string) string {
		return fmt.Sprintf("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", uri, len(block), block)
	}
	crawl := untyped("http://a.example/1", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>one</p>") +
		warcRecord("response", "dns:a.example", "text/dns", "20260101000000\na.example. 300 IN A 192.0.2.1\n") +
		untyped("http://a.example/2", "<p>no status line</p>") +
		untyped("http://a.example/3", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"+strings.Repeat("x", 100))
	dir := writeTree(t, map[string]string{"c.warc": crawl})
	got := walk(t, Options{MaxBytes: 90}, filepath.Join(dir, "c.warc"))
	want := []summary{
		{ID: "c.warc#1", URL: "http://a.example/1", ContentType: "text/html", Status: 200, Body: "<p>one</p>"},
		{ID: "c.warc#4", URL: "http://a.example/3", ContentType: "text/html", Status: 200, TooLarge: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestWalkWARCCutAfterARecord is the regression test of a .warc.gz that
// ends in a gzip member cut in its trailer, after its last record: a page
// after the last record failed ("cut.warc.gz#3: warc: malformed record …
// line cut short"), though no byte of one was read. Now Options.Cut is
// told of the file, and the pages are its records; a record cut inside is
// still a failed page. One that ends in a line end after its last member
// (stray bytes, no cut: TestWalkGzipStrayBytes) gives its pages too, and
// Options.Stray is told of it.
func TestWalkWARCCutAfterARecord(t *testing.T) {
	one := warcRecord("resource", "http://a.example/1", "text/html", "<p>one</p>")
	two := warcRecord("resource", "http://a.example/2", "text/html", "<p>two</p>")
	members := gzipBytes(t, one) + gzipBytes(t, two) // a member a record, as crawlers write
	dir := writeTree(t, map[string]string{
		"cut.warc.gz":    members[:len(members)-3],
		"stray.warc.gz":  members + "\n",
		"inside.warc.gz": members + gzipBytes(t, two)[:20],
	})
	var cuts, strays []string
	opts := Options{Cut: func(id string, err *warc.CutError) { cuts = append(cuts, fmt.Sprint(id, " ", err.Records)) },
		Stray: func(id string, f container.Format, n int64) { strays = append(strays, fmt.Sprint(id, " ", f, " ", n)) }}
	got := walk(t, opts, filepath.Join(dir, "cut.warc.gz"), filepath.Join(dir, "stray.warc.gz"), filepath.Join(dir, "inside.warc.gz"))
	want := []summary{
		{ID: "cut.warc.gz#1", URL: "http://a.example/1", ContentType: "text/html", Body: "<p>one</p>"},
		{ID: "cut.warc.gz#2", URL: "http://a.example/2", ContentType: "text/html", Body: "<p>two</p>"},
		{ID: "stray.warc.gz#1", URL: "http://a.example/1", ContentType: "text/html", Body: "<p>one</p>"},
		{ID: "stray.warc.gz#2", URL: "http://a.example/2", ContentType: "text/html", Body: "<p>two</p>"},
		{ID: "inside.warc.gz#1", URL: "http://a.example/1", ContentType: "text/html", Body: "<p>one</p>"},
		{ID: "inside.warc.gz#2", URL: "http://a.example/2", ContentType: "text/html", Body: "<p>two</p>"},
		{ID: "inside.warc.gz#3", Err: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{"cut.warc.gz 2"}, cuts); diff != "" {
		t.Errorf("Cut told of (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{"stray.warc.gz gzip 1"}, strays); diff != "" {
		t.Errorf("Stray told of (-want +got)\n%s", diff)
	}
}

// TestWalkWARCResync is the regression test of a WARC record whose
// Content-Length is too small: the record was a failed page (its HTTP body
// cut short), and so was the next, whole record ("malformed record …
// want a WARC/ version line"), and every record after it was lost. Now the
// record is a failed page saying which bytes were skipped, and the records
// after them are pages, under the numbers they would have had; so is a
// record whose header is damaged. Bytes that start no record after a
// record that ends well are told to Options.Damaged, once, and a .warc
// that holds no record at all is a failed page under its own name.
func TestWalkWARCResync(t *testing.T) {
	body := func(n int) string {
		return fmt.Sprintf("<main><article><p>Page %d.</p>%s</article></main>", n, strings.Repeat("<p>Words.</p>", 20))
	}
	page := func(n int) string {
		return warcResponse(fmt.Sprintf("http://a.example/%d", n), "200 OK", "Content-Type: text/html\r\n", body(n))
	}
	p1, p2, p3, p4 := page(1), page(2), page(3), page(4)
	length := len(p2) - strings.Index(p2, "\r\n\r\n") - 8
	short := strings.Replace(p2, fmt.Sprint("Content-Length: ", length), fmt.Sprint("Content-Length: ", length-100), 1)
	badLength := strings.Replace(p2, "Content-Length: ", "Content-Length: x", 1)
	dir := writeTree(t, map[string]string{
		"short.warc":    p1 + short + p3 + p4,
		"short.warc.gz": gzipBytes(t, p1) + gzipBytes(t, short) + gzipBytes(t, p3) + gzipBytes(t, p4),
		"bad.warc":      p1 + badLength + p3,
		"junk.warc":     p1 + "junk\r\n" + p3,
		"none.warc":     "<html>no record</html>\n",
	})
	var damaged []string
	opts := Options{Damaged: func(id string, err *warc.DamageError) {
		damaged = append(damaged, fmt.Sprint(id, " ", err.Records, " ", err.Offset, " ", err.Next))
	}}
	got := walk(t, opts, filepath.Join(dir, "short.warc"), filepath.Join(dir, "short.warc.gz"),
		filepath.Join(dir, "bad.warc"), filepath.Join(dir, "junk.warc"), filepath.Join(dir, "none.warc"))
	ok := func(id string, n int) summary {
		return summary{ID: id, URL: fmt.Sprintf("http://a.example/%d", n), ContentType: "text/html", Status: 200, Body: body(n)}
	}
	failed := func(id string) summary { return summary{ID: id, URL: "http://a.example/2", Err: true} }
	want := []summary{
		ok("short.warc#1", 1), failed("short.warc#2"), ok("short.warc#3", 3), ok("short.warc#4", 4),
		ok("short.warc.gz#1", 1), failed("short.warc.gz#2"), ok("short.warc.gz#3", 3), ok("short.warc.gz#4", 4),
		ok("bad.warc#1", 1), failed("bad.warc#2"), ok("bad.warc#3", 3),
		ok("junk.warc#1", 1), ok("junk.warc#2", 3),
		{ID: "none.warc", Err: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{fmt.Sprint("junk.warc 1 ", len(p1), " ", len(p1)+6)}, damaged); diff != "" {
		t.Errorf("Damaged told of (-want +got)\n%s", diff)
	}
}

// TestWalkGzipStrayBytes is the regression test of an .html.gz whose
// compressed stream is followed by stray bytes (zero padding): its page
// failed ("gzip: invalid header"). Now it is read, and Options.Stray is
// told of the file and its bytes; an .html.gz cut inside its member is
// still a failed page.
func TestWalkGzipStrayBytes(t *testing.T) {
	page := gzipBytes(t, "<p>one</p>")
	dir := writeTree(t, map[string]string{
		"a.html.gz": page + strings.Repeat("\x00", 512),
		"b.html.gz": page[:len(page)-3],
	})
	var strays []string
	opts := Options{Stray: func(id string, f container.Format, n int64) { strays = append(strays, fmt.Sprint(id, " ", f, " ", n)) }}
	got := walk(t, opts, filepath.Join(dir, "a.html.gz"), filepath.Join(dir, "b.html.gz"))
	want := []summary{{ID: "a.html.gz", Body: "<p>one</p>"}, {ID: "b.html.gz", Err: true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a.html.gz gzip 512"}, strays); diff != "" {
		t.Errorf("Stray told of (-want +got)\n%s", diff)
	}
}

// Regression: a page.html.gz cut short failed as "unexpected EOF" (in its
// data) or "gzip header: unexpected EOF" where dedup said where it ends;
// both now say it in dedup's words, from the same code.
func TestWalkGzipCutShort(t *testing.T) {
	page := gzipBytes(t, "<html><body><p>"+strings.Repeat("The ferry is back in service. ", 40)+"</p></body></html>")
	dir := writeTree(t, map[string]string{"a.html.gz": page[:5], "b.html.gz": page[:len(page)/2]})
	var got []string
	err := Walk(context.Background(), []string{filepath.Join(dir, "a.html.gz"), filepath.Join(dir, "b.html.gz")}, Options{},
		func(p Page) error { got = append(got, fmt.Sprint(p.ID, ": ", p.Err)); return nil })
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a.html.gz: not a complete gzip stream: it ends after 5 bytes, inside the gzip header"}
	if len(got) != 2 || got[0] != want[0] || !regexp.MustCompile(`^b\.html\.gz: unexpected EOF after \d+ bytes$`).MatchString(got[1]) {
		t.Errorf("pages %q, want %q and b.html.gz: unexpected EOF after N bytes", got, want)
	}
}

func TestWalkFilesInArgumentOrder(t *testing.T) {
	dir := writeTree(t, map[string]string{"z.html": "z", "a.html": "a"})
	got := walk(t, Options{}, filepath.Join(dir, "z.html"), filepath.Join(dir, "a.html"))
	if len(got) != 2 || got[0].Body != "z" || got[1].Body != "a" {
		t.Errorf("got %+v", got)
	}
}

func TestWalkStops(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.zip": zipBytes(t, "1.html", "1", "2.html", "2"), "b.html": "b"})
	stop := errors.New("stop")
	n := 0
	err := Walk(context.Background(), []string{dir}, Options{}, func(Page) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("err %v after %d pages, want the callback's error after 1", err, n)
	}
	if err := Walk(context.Background(), []string{filepath.Join(dir, "missing")}, Options{}, func(Page) error { return nil }); err == nil {
		t.Error("missing input: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Walk(ctx, []string{dir}, Options{}, func(Page) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestWalkNestingLimit(t *testing.T) {
	data := "<p>deep</p>"
	for range container.MaxDepth + 2 {
		data = gzipBytes(t, data)
	}
	dir := writeTree(t, map[string]string{"deep.gz": data})
	got := walk(t, Options{}, dir)
	if len(got) != 1 || !got[0].Err {
		t.Errorf("got %+v, want one failed page", got)
	}
}

func TestWalkExclude(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.html": "a", "out.jsonl": "{}", "sub/b.html": "b"})
	opts := Options{Exclude: func(p string) bool { return filepath.Base(p) == "out.jsonl" || filepath.Base(p) == "b.html" }}
	got := walk(t, opts, dir, filepath.Join(dir, "sub", "b.html"))
	var ids []string
	for _, p := range got {
		ids = append(ids, strings.TrimPrefix(p.ID, dir+"/"))
	}
	// Exclude applies to files found in directories, not to named inputs.
	if diff := cmp.Diff([]string{filepath.Base(dir) + "/a.html", "b.html"}, ids); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestListingWalkReadsWhatWasListed: Listing.Walk reads the files List
// listed, walking no directory again: a file added since is not read, and
// one removed since is a failed page; a path List could not list is Walk's
// error, before any page.
func TestListingWalkReadsWhatWasListed(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.html": "a", "b.html": "b"})
	l, err := List([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if files := l.Files(); len(files) != 1 || len(files[0]) != 2 {
		t.Fatalf("files %v, want a.html and b.html", files)
	}
	if err := os.WriteFile(filepath.Join(dir, "c.html"), []byte("c"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "b.html")); err != nil {
		t.Fatal(err)
	}
	var got []summary
	err = l.Walk(context.Background(), Options{}, func(p Page) error {
		got = append(got, summary{ID: p.ID, Body: string(p.Body), Err: p.Err != nil})
		return nil
	})
	p := func(rel string) string { return filepath.Base(dir) + "/" + rel }
	want := []summary{{ID: p("a.html"), Body: "a"}, {ID: p("b.html"), Err: true}}
	if diff := cmp.Diff(want, got); err != nil || diff != "" {
		t.Errorf("error %v, pages (-want +got)\n%s", err, diff)
	}

	// A directory holding nothing to read beside one that does is told by
	// Empty, and the other is read; alone, it is Walk's error, before any
	// page.
	empty := t.TempDir()
	l, err = List([]string{dir, empty}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	read := 0
	err = l.Walk(context.Background(), Options{}, func(Page) error { read++; return nil })
	if err != nil || read != 2 || len(l.Empty()) != 1 || !strings.HasPrefix(l.Empty()[0], empty+": no files") {
		t.Errorf("beside pages: error %v after %d pages, empty %q; want 2 pages and the empty directory told", err, read, l.Empty())
	}
	l, err = List([]string{empty}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	read = 0
	err = l.Walk(context.Background(), Options{}, func(Page) error { read++; return nil })
	var nf *container.NoFilesError
	if !errors.As(err, &nf) || read != 0 {
		t.Errorf("alone: error %v after %d pages, want the empty directory's before any", err, read)
	}
}

// TestWalkUnreachableFiles pins that a link to nothing or a loop of links
// in a directory is a failed page naming it and the other pages are read;
// it used to stop the walk before the first page.
func TestWalkUnreachableFiles(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.html": "a", "c.html": "c"})
	os.Symlink("/nonexistent/b.html", filepath.Join(dir, "b.html"))
	os.Symlink("self.html", filepath.Join(dir, "self.html"))
	got := walk(t, Options{}, dir)
	p := func(rel string) string { return filepath.Base(dir) + "/" + rel }
	want := []summary{{ID: p("a.html"), Body: "a"}, {ID: p("b.html"), Err: true}, {ID: p("c.html"), Body: "c"}, {ID: p("self.html"), Err: true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestWalkFileNamesNotUTF8 pins the bug where a page's id kept the bytes
// of a file name that is not UTF-8 ("été.html" in Latin-1), which
// extract's JSON Lines wrote as U+FFFD ("d/\ufffdt\ufffd.html"): not the
// id dedup gives the page (`d/\xe9t\xe9.html`), and one id for two such
// names. A page's path is now written as package corpus writes it
// (container.PathName), for a directory given, a file in it and an
// archive member alike, and a name holding the characters of an escape
// keeps an id of its own.
func TestWalkFileNamesNotUTF8(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "r\xe9dac")
	for name, content := range map[string]string{"\xe9t\xe9.html": "latin", `\xe9t\xe9.html`: "typed", "\xe9t\xe0.html": "other",
		"p.tar": tarBytes(t, "\xe9.html", "member")} {
		os.MkdirAll(dir, 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := walk(t, Options{}, dir)
	want := []summary{
		{ID: `r\xe9dac/\\xe9t\\xe9.html`, Body: "typed"},
		{ID: `r\xe9dac/p.tar/\xe9.html`, Body: "member"},
		{ID: `r\xe9dac/\xe9t\xe0.html`, Body: "other"},
		{ID: `r\xe9dac/\xe9t\xe9.html`, Body: "latin"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestWalkIDsEscapeTheWorkingDirectory is the regression test of ids that
// took the working directory's name raw: in a directory named "cw\xe9"
// (Latin-1), "x.txt" walked beside "../other/x.txt" had the id
// "cw\ufffd/x.txt", not the id dedup gives it; in a directory named
// `caf\xe9` as typed, "x.txt" took the id of its Latin-1 twin's.
func TestWalkIDsEscapeTheWorkingDirectory(t *testing.T) {
	for _, tc := range []struct {
		name, cwd string
		paths     []string
		want      []summary
	}{
		{"not UTF-8", "cw\xe9", []string{"x.html", "../other/x.html"},
			[]summary{{ID: `cw\xe9/x.html`, Body: "here"}, {ID: "other/x.html", Body: "there"}}},
		{"typed escape beside its Latin-1 twin", `caf\xe9`, []string{"x.html", "../caf\xe9/x.html"},
			[]summary{{ID: `caf\\xe9/x.html`, Body: "here"}, {ID: `caf\xe9/x.html`, Body: "latin"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, err := os.MkdirTemp(t.TempDir(), "ids")
			if err != nil {
				t.Fatal(err)
			}
			for name, content := range map[string]string{tc.cwd + "/x.html": "here", "other/x.html": "there",
				"caf\xe9/x.html": "latin"} {
				p := filepath.Join(root, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(filepath.Join(root, tc.cwd))
			if diff := cmp.Diff(tc.want, walk(t, Options{}, tc.paths...)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestWalkMaxBytesAtTheTop pins that the largest MaxBytes reads pages as
// any large limit does: the bound plus one (for the cut) and plus room for
// the HTTP header used to overflow to a negative bound that read nothing.
func TestWalkMaxBytesAtTheTop(t *testing.T) {
	crawl := warcResponse("http://a.example/1", "200 OK", "Content-Type: text/html\r\nContent-Encoding: gzip\r\n", gzipBytes(t, "<p>one</p>"))
	dir := writeTree(t, map[string]string{"a.html": "<p>a</p>", "b.warc": crawl, "c.html.gz": gzipBytes(t, "<p>c</p>")})
	got := walk(t, Options{MaxBytes: math.MaxInt}, dir)
	p := func(rel string) string { return filepath.Base(dir) + "/" + rel }
	want := []summary{
		{ID: p("a.html"), Body: "<p>a</p>"},
		{ID: p("b.warc#1"), URL: "http://a.example/1", ContentType: "text/html", Status: 200, Body: "<p>one</p>"},
		{ID: p("c.html.gz"), Body: "<p>c</p>"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestWalkWARCBomb pins that a .warc.gz record stopped by the
// decompression bound is reported once, by the refusal; it used to be a
// failed record too, "block cut short: unexpected EOF".
func TestWalkWARCBomb(t *testing.T) {
	crawl := warcRecord("resource", "http://a.example/1", "text/html", "<p>one</p>") +
		warcRecord("resource", "http://a.example/2", "text/html", strings.Repeat("\x00", 4<<20))
	dir := writeTree(t, map[string]string{"a.warc.gz": gzipBytes(t, crawl)})
	var got []string
	err := Walk(context.Background(), []string{filepath.Join(dir, "a.warc.gz")}, Options{}, func(p Page) error {
		switch {
		case container.IsLimit(p.Err):
			got = append(got, p.ID+": refused")
		case p.Err != nil:
			got = append(got, p.ID+": "+p.Err.Error())
		default:
			got = append(got, p.ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a.warc.gz#1", "a.warc.gz: refused"}, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestWalkStdin pins that "-" reads the pages of standard input, whatever
// it holds (a page, a WARC stream, a zip, a .tar.gz), named "stdin"; it
// was taken for a file named "-" ("stat -: no such file or directory").
func TestWalkStdin(t *testing.T) {
	crawl := warcResponse("http://a.example/1", "200 OK", "Content-Type: text/html\r\n", "<p>one</p>")
	dir := writeTree(t, map[string]string{"b.html": "<p>b</p>"})
	for _, tc := range []struct {
		name, stdin string
		want        []summary
	}{
		{"page", "<p>a</p>", []summary{{ID: "stdin", Body: "<p>a</p>"}}},
		{"warc.gz", gzipBytes(t, crawl), []summary{{ID: "stdin#1", URL: "http://a.example/1", ContentType: "text/html", Status: 200, Body: "<p>one</p>"}}},
		{"zip", zipBytes(t, "in/e.html", "<p>e</p>"), []summary{{ID: "stdin/in/e.html", Body: "<p>e</p>"}}},
		{"tar.gz", gzipBytes(t, tarBytes(t, "h.html", "<p>h</p>")), []summary{{ID: "stdin/h.html", Body: "<p>h</p>"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := walk(t, Options{Stdin: strings.NewReader(tc.stdin)}, "-", filepath.Join(dir, "b.html"))
			want := append(tc.want, summary{ID: "b.html", Body: "<p>b</p>"})
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	err := Walk(context.Background(), []string{"-", "-"}, Options{Stdin: strings.NewReader("x")}, func(Page) error { return nil })
	if !errors.Is(err, ErrStdinTwice) {
		t.Errorf(`"-" given twice: %v, want ErrStdinTwice`, err)
	}
}
