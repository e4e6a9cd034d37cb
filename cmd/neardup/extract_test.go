package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/internal/extract/source"
)

// articleHTML returns a news page whose article has n paragraphs.
func articleHTML(title string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<html lang=en><head><title>%s</title></head><body><nav><a href=/>Home</a> <a href=/news>News</a></nav><article><h1>%s</h1>", title, title)
	for i := range n {
		fmt.Fprintf(&b, "<p>Paragraph %d of the story. The harbour authority said on Monday that the new ferry line would start in spring, "+
			"linking the two islands for the first time since the old pier closed.</p>", i)
	}
	b.WriteString("</article><footer>Contact us</footer></body></html>")
	return b.String()
}

// writeTree writes files (name → content) under a new temporary directory
// and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func warcResponseRecord(uri, html string) string {
	block := "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + html
	return fmt.Sprintf("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n",
		uri, len(block), block)
}

func readRecords(t *testing.T, path string) []extract.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []extract.Record
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r extract.Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func TestRunExtract(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"pages/a.html":       articleHTML("Ferry line opens", 5),
		"pages/gallery.html": articleHTML("Photos", 1),
		"pages/logo.png":     "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
		"crawl.warc":         warcResponseRecord("https://port.example/2024/ferry", articleHTML("Ferry from the crawl", 5)),
		"rules.yaml":         "rules:\n  - hosts: [port.example]\n    article_url: '/\\d{4}/'\n",
	})
	out := filepath.Join(dir, "articles.jsonl")
	var log, progress bytes.Buffer
	o := extractOptions{
		Inputs:   []string{filepath.Join(dir, "pages"), filepath.Join(dir, "crawl.warc")},
		Out:      out,
		Log:      &log,
		Progress: &progress,
	}
	if err := runExtract(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	type row struct{ ID, URL, Title, Skipped string }
	var got []row
	for _, r := range readRecords(t, out) {
		if r.Skipped == "" && !strings.Contains(r.Text, "Paragraph 4 of the story.") {
			t.Errorf("%s: article text incomplete:\n%s", r.ID, r.Text)
		}
		got = append(got, row{strings.TrimPrefix(r.ID, dir+"/"), r.URL, r.Title, string(r.Skipped)})
	}
	want := []row{
		{"pages/a.html", "", "Ferry line opens", ""},
		{"pages/gallery.html", "", "Photos", "too-short"},
		{"pages/logo.png", "", "", "not-html"},
		{"crawl.warc#1", "https://port.example/2024/ferry", "Ferry from the crawl", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if !strings.Contains(progress.String(), "4 pages: 2 articles, 1 not-html, 1 too-short") {
		t.Errorf("no summary on the progress writer: %q", progress.String())
	}
	o.Articles = true
	if err := runExtract(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if n := len(readRecords(t, out)); n != 2 {
		t.Errorf("--articles wrote %d records, want 2", n)
	}
}

// TestExtractIDsAreDedups pins the bug where extract's ids of pages
// whose file names are not UTF-8 were not the ids dedup gives them:
// `caf\xe9.html` in Latin-1 was "pages/caf\ufffd.html" in extract's JSON
// Lines, one id for every name that differs there. Now extract names a
// page as dedup names the document it reads from the same file.
func TestExtractIDsAreDedups(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"pages/caf\xe9.html": articleHTML("Latin-1", 5), "pages/caf\xe0.html": articleHTML("Other", 5),
		`pages/caf\xe9.html`: articleHTML("Typed", 5), "pages/ok.html": articleHTML("UTF-8", 5),
	})
	pages, out := filepath.Join(dir, "pages"), filepath.Join(dir, "articles.jsonl")
	if err := runExtract(context.Background(), extractOptions{Inputs: []string{pages}, Out: out}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range readRecords(t, out) {
		got = append(got, r.ID)
	}
	r, err := corpus.Open([]string{pages}, corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var want []string
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, rec.Doc.ID)
	}
	if diff := cmp.Diff(want, got); diff != "" || len(got) != 4 {
		t.Errorf("extract's ids (-dedup's +extract's)\n%s", diff)
	}
}

// TestRunExtractSkipsFeedsAndSitemaps: a site's folder holds its feeds and
// sitemap beside its pages; each is skipped with its reason, not read as a
// page of links run together with dates.
func TestRunExtractSkipsFeedsAndSitemaps(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"site/2024/ferry.html": articleHTML("Ferry line opens", 5),
		"site/rss.xml": `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Port news</title>` +
			`<item><title>Ferry line opens</title><link>https://port.example/2024/ferry.html</link><pubDate>Mon, 04 Mar 2024 10:00:00 GMT</pubDate>` +
			`<description><![CDATA[<p>The harbour authority said on Monday that the new ferry line would start in spring.</p>]]></description></item></channel></rss>`,
		"site/atom.xml": `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Port news</title>` +
			`<entry><title>Ferry line opens</title><updated>2024-03-04T10:00:00Z</updated><content type="html">&lt;p&gt;The harbour authority said on Monday.&lt;/p&gt;</content></entry></feed>`,
		"site/sitemap.xml": `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
			`<url><loc>https://port.example/2024/ferry.html</loc><lastmod>2024-03-04</lastmod></url></urlset>`,
	})
	out := filepath.Join(dir, "x.jsonl")
	var progress bytes.Buffer
	if err := runExtract(context.Background(), extractOptions{Inputs: []string{filepath.Join(dir, "site")}, Out: out,
		Batch: extract.Batch{Options: extract.Options{MinChars: -1}}, Progress: &progress}); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range readRecords(t, out) {
		got[filepath.Base(r.ID)] = string(r.Skipped)
		if r.Skipped != "" && r.Text != "" {
			t.Errorf("%s: skipped as %s but has text %q", r.ID, r.Skipped, r.Text)
		}
	}
	want := map[string]string{"ferry.html": "", "rss.xml": "feed", "atom.xml": "feed", "sitemap.xml": "sitemap"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records by file: skip reason (-want +got)\n%s", diff)
	}
	for _, s := range []string{"2 feed", "1 sitemap", "neardup dedup and neardup index add read each item of a feed"} {
		if !strings.Contains(progress.String(), s) {
			t.Errorf("the summary does not say %q:\n%s", s, progress.String())
		}
	}
}

func TestRunExtractReportsFailures(t *testing.T) {
	dir := writeTree(t, map[string]string{"broken.gz": "\x1f\x8b\x08garbage", "a.html": articleHTML("Fine", 5)})
	out := filepath.Join(dir, "out.jsonl")
	var log bytes.Buffer
	err := runExtract(context.Background(), extractOptions{Inputs: []string{dir}, Out: out, Log: &log,
		Source: source.Options{}})
	if err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, out)
	if len(recs) != 2 || recs[1].Skipped != extract.SkipFailed || recs[1].Error == "" {
		t.Fatalf("records %+v, want a.html then a failed broken.gz", recs)
	}
	if !strings.Contains(log.String(), "broken.gz: ") {
		t.Errorf("failure not logged with its id: %q", log.String())
	}
}

func TestExtractCommandLine(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"a.html":    articleHTML("Ferry line opens", 5),
		"bad.yaml":  "rules:\n  - name: port\n    body: 'div[['\n",
		"typo.yaml": "rules:\n  - name: port\n    bdy: article\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"ok", []string{"-q", "extract", p("a.html"), "-o", p("out.jsonl")}, 0},
		{"bad selector", []string{"-q", "extract", "--rules", p("bad.yaml"), p("a.html"), "-o", p("x.jsonl")}, 2},
		{"unknown key", []string{"-q", "extract", "--rules", p("typo.yaml"), p("a.html"), "-o", p("x.jsonl")}, 2},
		{"bad timeout", []string{"-q", "extract", "--timeout", "0s", p("a.html")}, 2},
		{"missing input", []string{"-q", "extract", p("nope.html"), "-o", p("x.jsonl")}, 2},
		{"standard input twice", []string{"-q", "extract", "-", p("a.html"), "-", "-o", p("x.jsonl")}, 2},
		// Refused before any page is read; it used to fail at the rename, after the run.
		{"-o a directory", []string{"-q", "extract", p("a.html"), "-o", dir}, 2},
		// Refused naming the directory; it failed with exit 1 naming a temporary file
		// (".out.jsonl.1874595377.tmp: no such file or directory").
		{"-o in a missing directory", []string{"-q", "extract", p("a.html"), "-o", p("missing/out.jsonl")}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code := run(context.Background(), tc.args); code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
		})
	}
	if _, err := os.Stat(p("x.jsonl")); !os.IsNotExist(err) {
		t.Errorf("a failed run left its output: %v", err)
	}
	if recs := readRecords(t, p("out.jsonl")); len(recs) != 1 || recs[0].Skipped != "" {
		t.Errorf("records %+v", recs)
	}
}

// TestExtractBadBoundsNamed: a bound out of its range is refused naming
// the one flag and the value given (exit 2, no output); the message was the
// same list of five flags whichever was wrong, and --max-inflate and
// --max-ratio shared one.
func TestExtractBadBoundsNamed(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"a.html": articleHTML("Ferry line opens", 5)})
	out := filepath.Join(dir, "out.jsonl")
	for _, tc := range []struct{ args, want string }{
		{"--timeout 0s", "neardup: --timeout must be positive, not 0s\n"},
		{"--min-chars -1", "neardup: --min-chars must be 0 or more (0 keeps every page), not -1\n"},
		{"--max-elements 0", "neardup: --max-elements must be positive, not 0\n"},
		{"--max-attributes 0", "neardup: --max-attributes must be positive, not 0\n"},
		{"--max-ratio 0", "neardup: --max-ratio must be positive, not 0\n"},
		{"--max-inflate -1", "neardup: --max-inflate must be positive, not -1\n"},
	} {
		args := append([]string{"extract", filepath.Join(dir, "a.html"), "-o", out}, strings.Fields(tc.args)...)
		if code, _, errOut := runChild(t, args...); code != 2 || errOut != tc.want {
			t.Errorf("%s: exit %d, stderr %q; want 2, %q", tc.args, code, errOut, tc.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused run left its output: %v", err)
	}
}

// TestBoundsNamed: the bounds of dedup, index add and watch are refused
// naming the flag and the value given, as extract's are.
func TestBoundsNamed(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"a.jsonl": `{"id":"a","text":"The harbour master said the port would reopen on Monday."}` + "\n"})
	in, out := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "out")
	for _, tc := range []struct{ args, want string }{
		{"dedup IN -o OUT --max-bytes 0", "neardup: --max-bytes must be positive, not 0\n"},
		{"dedup IN -o OUT --max-warnings -1", "neardup: --max-warnings must be 0 or more, not -1\n"},
		{"dedup IN -o OUT --workers -3", "neardup: --workers must be 0 or more (0: one per CPU), not -3\n"},
		{"dedup IN -o OUT --min-chars -2", "neardup: --min-chars must be 0 or more (0 keeps every page), not -2\n"},
		{"dedup IN -o OUT --report-members -1", "neardup: --report-members must be 0 or more (0: all), not -1\n"},
		{"watch --db OUT.db --once --max-bytes -5", "neardup: --max-bytes must be positive, not -5\n"},
	} {
		args := strings.Fields(strings.NewReplacer("IN", in, "OUT", out).Replace(tc.args))
		if code, _, errOut := runChild(t, args...); code != 2 || errOut != tc.want {
			t.Errorf("%s: exit %d, stderr %q; want 2, %q", tc.args, code, errOut, tc.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused run left its output: %v", err)
	}
}

// An input that is not there fails the run naming it, before it starts:
// no progress line, no summary of no pages, no output; exit 2, a mistake
// in the command line, as in every command.
func TestExtractMissingInput(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"a.html": articleHTML("Ferry line opens", 5)})
	p := func(n string) string { return filepath.Join(dir, n) }
	code, _, errOut := runChild(t, "extract", p("a.html"), p("nope.html"), "-o", p("out.jsonl"))
	if code != 2 || !strings.Contains(errOut, p("nope.html")+": no such file") || strings.Contains(errOut, "pages") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
	if _, err := os.Stat(p("out.jsonl")); !os.IsNotExist(err) {
		t.Errorf("a failed run left its output: %v", err)
	}
}

// A directory holding no file to read (empty, or hidden files alone) is
// named as such: extract reads files of every name, and the message listed
// the extensions dedup reads ("no .jsonl, .ndjson, … files").
func TestExtractEmptyDirectorySaysNoFiles(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"empty/.hidden": "x"})
	code, _, errOut := runChild(t, "extract", filepath.Join(dir, "empty"), "-o", filepath.Join(dir, "out.jsonl"))
	if code != 1 || !strings.Contains(errOut, filepath.Join(dir, "empty")+": no files") || strings.Contains(errOut, ".jsonl,") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
}

// A directory holding no file to read beside inputs that hold pages is a
// warning naming it, and the other inputs are read, as dedup reads them:
// the run failed on it, extracting nothing.
func TestExtractEmptyDirectoryBesidePages(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"empty/.hidden": "x", "pages/a.html": articleHTML("Ferry line opens", 5)})
	p := func(n string) string { return filepath.Join(dir, n) }
	code, _, errOut := runChild(t, "extract", p("empty"), p("pages"), "-o", p("out.jsonl"))
	want := "extract: warning: " + p("empty") + ": no files (names starting with \".\" are skipped): nothing read from this directory; the other inputs are read"
	if code != 0 || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant the warning %q", code, errOut, want)
	}
	if out, err := os.ReadFile(p("out.jsonl")); err != nil || !strings.Contains(string(out), "Ferry line opens") {
		t.Errorf("the output: %s %v", out, err)
	}
}

// An input given twice, however its path is written (again, through
// "..", through a link; a directory too; a file and a directory that holds
// it, which reads it again), fails the run before it starts,
// with exit 2 and dedup's message, and writes no output. Regression:
// extract read it twice and wrote every page twice under one id.
func TestExtractRefusesInputGivenTwice(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"a.html": articleHTML("Ferry line opens", 5), "site/b.html": articleHTML("Bridge closes", 5)})
	p := func(n string) string { return filepath.Join(dir, n) }
	if err := os.Symlink(p("a.html"), p("link.html")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		inputs []string
	}{
		{"the same path", []string{p("a.html"), p("a.html")}},
		{"through ..", []string{p("a.html"), p("site") + "/../a.html"}},
		{"through a link", []string{p("link.html"), p("site"), p("a.html")}},
		{"a directory", []string{p("site"), p("a.html"), dir + "/./site/"}},
		{"a file inside a directory given", []string{p("site"), p("site/b.html")}},
		{"a directory holding a file given", []string{p("a.html"), p("site/b.html"), p("site")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.jsonl")
			code, _, errOut := runChild(t, append([]string{"extract", "-q", "-o", out}, tc.inputs...)...)
			_, _, dedupOut := runChild(t, append([]string{"dedup", "-q", "-o", filepath.Join(t.TempDir(), "dedup")}, tc.inputs...)...)
			if code != 2 || errOut != dedupOut || !strings.Contains(errOut, "an input is given twice: "+tc.inputs[len(tc.inputs)-1]) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and dedup's:\n%s", code, errOut, dedupOut)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("a refused run left its output: %v", err)
			}
		})
	}
}

// TestExtractWalksEachDirectoryOnce: with more than one input, each
// directory given is walked once, for the check that no file is given
// twice and for the reading alike, as dedup's Reader walks it. Regression:
// extract walked every directory twice, doubling the listing of a large
// tree, and read a directory changed between the walks otherwise than it
// had been checked. Its pages are too short to write (--articles): stdout
// stays empty.
func TestExtractWalksEachDirectoryOnce(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"a/1.html": "<p>one</p>", "a/sub/2.html": "<p>two</p>", "b/3.html": "<p>three</p>"})
	var mu sync.Mutex
	met := map[string]int{} // each entry a walk meets, by its path under dir
	exclude := func(p string) bool {
		mu.Lock()
		defer mu.Unlock()
		rel, _ := filepath.Rel(dir, p)
		met[filepath.ToSlash(rel)]++
		return false
	}
	o := extractOptions{Inputs: []string{filepath.Join(dir, "a"), filepath.Join(dir, "b")}, Out: "-", Articles: true,
		Source: source.Options{Exclude: exclude}}
	if err := runExtract(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"a/1.html": 1, "a/sub": 1, "a/sub/2.html": 1, "b/3.html": 1}
	if diff := cmp.Diff(want, met); diff != "" {
		t.Errorf("entries met by the walks (-want +got)\n%s", diff)
	}
}

// A run stopped (Ctrl-C: its context cancelled) says so in its last
// progress line, as dedup's stages do, rather than a line that reads as
// the stage's end.
func TestExtractInterruptedSaysSo(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"a.html": articleHTML("Ferry line opens", 5)})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	var progress bytes.Buffer
	err := runExtract(ctx, extractOptions{Inputs: []string{dir}, Out: filepath.Join(dir, "out.jsonl"), Progress: &progress})
	if !errors.Is(err, context.Canceled) || !strings.Contains(progress.String(), "extract: interrupted after") {
		t.Errorf("error %v, progress:\n%s", err, progress.String())
	}
}

// The --rules file of every command that takes one is named as the user
// gave it, and a file that is not there, or a mistake in it, is a mistake
// in the command line (exit 2): watch failed with exit 1 on a bad
// selector, and every command named the file by its absolute path.
func TestRulesFlagErrors(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"a.html":   articleHTML("Ferry line opens", 5),
		"a.jsonl":  `{"id":"a","text":"Ferry line opens on Monday."}` + "\n",
		"bad.yaml": "rules:\n  - name: port\n    body: 'div[['\n",
	})
	for _, args := range [][]string{
		{"extract", "a.html", "-o", "out.jsonl"},
		{"dedup", "a.jsonl", "-o", "out"},
		{"watch", "--db", "ix.db", "--once"},
	} {
		for file, want := range map[string]string{
			"nope.yaml": "neardup: --rules nope.yaml: no such file or directory",
			"bad.yaml":  `neardup: bad.yaml:3: rule "port": body: bad CSS selector`,
		} {
			code, _, errOut := runChildIn(t, dir, append(args, "--rules", file)...)
			if code != 2 || !strings.HasPrefix(errOut, want) {
				t.Errorf("%s --rules %s: exit %d, stderr %q, want exit 2 and %q", args[0], file, code, errOut, want)
			}
		}
	}
}

// A site rule whose body selector matches nothing on a page is said on
// stderr, marked in the page's record and counted in the summary; the page
// is extracted without it.
func TestExtractRuleMiss(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"a.html":     articleHTML("Ferry line opens", 5),
		"rules.yaml": "version: 1\nrules:\n  - name: port\n    body: '.story-body'\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	code, _, errOut := runChild(t, "extract", "--rules", p("rules.yaml"), p("a.html"), "-o", p("out.jsonl"))
	if code != 0 || !strings.Contains(errOut, `rule "port" (`+p("rules.yaml")+`:3): body ".story-body" matched nothing on the page`) ||
		!strings.Contains(errOut, "1 where the site rule's body matched nothing") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
	recs := readRecords(t, p("out.jsonl"))
	if len(recs) != 1 || recs[0].Skipped != "" || !strings.Contains(recs[0].Text, "ferry line") || !strings.Contains(recs[0].RuleMiss, "matched nothing") {
		t.Errorf("records %+v", recs)
	}
}

// TestTooLargeSaysWhichLimit: a page skipped as too large is named on
// extract's stderr with the limit it passes, and dedup's warning says the
// same; both said nothing of which limit (extract) or "over the page's
// size or element limit" (dedup). Regression: the element limit named no
// flag that raises it, where the bytes limit named --max-bytes.
func TestTooLargeSaysWhichLimit(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"a.html": articleHTML("Ferry line opens", 5)})
	p := func(n string) string { return filepath.Join(dir, n) }
	const want = "a.html: too large: more than 10 HTML elements, the most a page may have (--max-elements of neardup extract)"
	code, _, errOut := runChild(t, "extract", "--max-elements", "10", p("a.html"), "-o", p("out.jsonl"))
	if code != 0 || !strings.Contains(errOut, "extract: "+want) {
		t.Errorf("extract: exit %d, stderr:\n%s\nwant %q", code, errOut, want)
	}
	code, _, errOut = runChild(t, "dedup", "--max-bytes", "1000", p("a.html"), "-o", p("out"))
	if want := "a.html: too-large: over 1000 bytes (--max-bytes)"; code != 1 || !strings.Contains(errOut, want) {
		t.Errorf("dedup: exit %d, stderr:\n%s\nwant %q", code, errOut, want)
	}
}

// TestByteSizeFlagsTakeUnits: --max-bytes and the other sizes in bytes
// take a unit, as --memory and --max-stream do; "--max-bytes 10MiB" was
// refused ("expected a valid 64 bit int").
func TestByteSizeFlagsTakeUnits(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"a.html": articleHTML("Ferry line opens", 5)})
	p := func(n string) string { return filepath.Join(dir, n) }
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string // in stderr
	}{
		{"extract KiB", []string{"extract", "--max-bytes", "1KiB", p("a.html"), "-o", p("1.jsonl")}, 0, "too large: over 1024 bytes (--max-bytes)"},
		{"extract kB", []string{"extract", "--max-bytes", "1kB", p("a.html"), "-o", p("2.jsonl")}, 0, "too large: over 1000 bytes (--max-bytes)"},
		{"extract MiB", []string{"extract", "--max-bytes", "10MiB", "--max-inflate", "1GiB", p("a.html"), "-o", p("3.jsonl")}, 0, "1 pages: 1 articles"},
		{"dedup KiB", []string{"dedup", "--max-bytes", "1KiB", p("a.html"), "-o", p("out")}, 1, "over 1024 bytes (--max-bytes)"},
		{"not a size", []string{"extract", "--max-bytes", "10XB", p("a.html"), "-o", p("4.jsonl")}, 2, `--max-bytes: "10XB": want a size such as 10485760, 10MiB or 10MB`},
	} {
		code, _, errOut := runChild(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant %d, %q", tc.name, code, errOut, tc.code, tc.want)
		}
	}
}

// dedup and index add, reading HTML pages with site rules, warn when a
// rule's body selector matched nothing on some of them.
func TestDedupRuleMiss(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{
		"pages/a.html": articleHTML("Ferry line opens", 5),
		"pages/b.html": articleHTML("Ferry line delayed", 6),
		"rules.yaml":   "version: 1\nrules:\n  - name: port\n    body: '.story-body'\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	code, _, errOut := runChild(t, "dedup", "--rules", p("rules.yaml"), p("pages"), "-o", p("out"))
	if code != 0 || !strings.Contains(errOut, "warning: pages where a site rule's body matched nothing: 2, extracted without it") ||
		!strings.Contains(errOut, `body ".story-body" matched nothing`) {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
}

// TestExtractNeverReadsItsOutput pins that a run does not read its own
// previous output when the input directory and -o name it differently
// (absolute and relative); it used to read it back as a page.
func TestExtractNeverReadsItsOutput(t *testing.T) {
	dir := writeTree(t, map[string]string{"pages/a.html": articleHTML("Ferry line opens", 5)})
	t.Chdir(dir)
	for _, tc := range []struct{ name, in, out string }{
		{"absolute input, relative -o", filepath.Join(dir, "pages"), filepath.Join("pages", "res.jsonl")},
		{"relative input, absolute -o", "pages", filepath.Join(dir, "pages", "res.jsonl")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := extractOptions{Inputs: []string{tc.in}, Out: tc.out}
			for range 2 { // the second run finds the first one's output
				if err := runExtract(context.Background(), o); err != nil {
					t.Fatal(err)
				}
			}
			var ids []string
			for _, r := range readRecords(t, tc.out) {
				ids = append(ids, r.ID)
			}
			if diff := cmp.Diff([]string{"pages/a.html"}, ids); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestExtractNeverReadsAnEarlierOutput pins that an output an earlier run
// wrote into the input directory, under any name and with skipped pages'
// records or without (--articles), is not read as a page by a run writing
// another -o (or stdout); it was listed as a page, skipped "not-html".
// A JSON Lines corpus of other records, and an empty file, are read as
// pages still.
func TestExtractNeverReadsAnEarlierOutput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, first string
		articles    bool
	}{
		{"every page's record", "out.jsonl", false},
		{"articles only", "out.jsonl", true},
		{"another name", "articles.txt", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := writeTree(t, map[string]string{
				"pages/a.html":       articleHTML("Ferry line opens", 5),
				"pages/gallery.html": articleHTML("Photos", 1),
				"pages/corpus.jsonl": `{"id":"x","text":"A corpus of the user's, not extract's records."}` + "\n",
				"pages/empty.html":   "",
			})
			pages := filepath.Join(dir, "pages")
			first := extractOptions{Inputs: []string{pages}, Out: filepath.Join(pages, tc.first), Articles: tc.articles}
			if err := runExtract(context.Background(), first); err != nil {
				t.Fatal(err)
			}
			if len(readRecords(t, first.Out)) == 0 {
				t.Fatal("the first run wrote no record")
			}
			out := filepath.Join(pages, "out2.jsonl")
			if err := runExtract(context.Background(), extractOptions{Inputs: []string{pages}, Out: out}); err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, r := range readRecords(t, out) {
				ids = append(ids, strings.TrimPrefix(r.ID, dir+"/"))
			}
			want := []string{"pages/a.html", "pages/corpus.jsonl", "pages/empty.html", "pages/gallery.html"}
			if diff := cmp.Diff(want, ids); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestExtractStdin pins that `neardup extract -` reads its pages from
// standard input (here a .warc.gz, then a file named after it), its ids
// starting "stdin"; it failed with "stat -: no such file or directory".
func TestExtractStdin(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"b.html": articleHTML("Ferry line delayed", 6)})
	var crawl bytes.Buffer
	zw := gzip.NewWriter(&crawl)
	zw.Write([]byte(warcResponseRecord("https://port.example/2024/03/ferry", articleHTML("Ferry line opens", 5))))
	zw.Close()
	cmd := child(t, "-q", "extract", "-", filepath.Join(dir, "b.html"), "-o", filepath.Join(dir, "out.jsonl"))
	var errOut bytes.Buffer
	cmd.Stdin, cmd.Stderr = &crawl, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v, stderr:\n%s", err, errOut.String())
	}
	var got []string
	for _, r := range readRecords(t, filepath.Join(dir, "out.jsonl")) {
		got = append(got, r.ID+" "+r.URL+" "+r.Title)
	}
	want := []string{"stdin#1 https://port.example/2024/03/ferry Ferry line opens", "b.html  Ferry line delayed"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestStrayNoteAgrees is the regression test of extract's warning of
// stray bytes, whose verb was plural for one byte ("1 byte after the last
// bzip2 stream, which start no stream").
func TestStrayNoteAgrees(t *testing.T) {
	for _, tc := range []struct {
		f    container.Format
		n    int64
		want string
	}{
		{container.Gzip, 1, "1 byte after the last gzip member, which starts no member (padding, junk), ignored; every page before it is read"},
		{container.Gzip, 600, "600 bytes after the last gzip member, which start no member (padding, junk), ignored; every page before them is read"},
		{container.Bzip2, 1, "1 byte after the last bzip2 stream, which starts no stream (padding, junk), ignored; every page before it is read"},
		{container.Bzip2, 2, "2 bytes after the last bzip2 stream, which start no stream (padding, junk), ignored; every page before them is read"},
	} {
		if got := strayNote(tc.f, tc.n); got != tc.want {
			t.Errorf("strayNote(%v, %d) = %q, want %q", tc.f, tc.n, got, tc.want)
		}
	}
}

// TestExtractWARCCutAfterARecord is the regression test of a .warc.gz that
// ends in a gzip member cut in its trailer, or in a line end after its
// last member: extract wrote a failed record after the last
// ("cut.warc.gz#2", of a file of one) though no byte of one was read; and
// of one that ends in 600 NULs, a failed record too ("gzip: invalid
// header"). Now it writes the records there are and warns of the bytes
// ignored: a cut that may have lost records, or stray bytes.
func TestExtractWARCCutAfterARecord(t *testing.T) {
	t.Parallel()
	var crawl bytes.Buffer
	zw := gzip.NewWriter(&crawl)
	zw.Write([]byte(warcResponseRecord("https://port.example/2024/03/ferry", articleHTML("Ferry line opens", 5))))
	zw.Close()
	for _, tc := range []struct{ name, file, warning string }{
		{"the trailer cut", crawl.String()[:crawl.Len()-3], "extract: warning: cut.warc.gz: warc: the stream ends cut short after record 1"},
		{"a line end after the last member", crawl.String() + "\n", "extract: warning: cut.warc.gz: 1 byte after the last gzip member, which starts no member (padding, junk), ignored; every page before it is read\n"},
		{"NULs after the last member", crawl.String() + strings.Repeat("\x00", 600), "extract: warning: cut.warc.gz: 600 bytes after the last gzip member, which start no member (padding, junk), ignored; every page before them is read\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeTree(t, map[string]string{"cut.warc.gz": tc.file})
			out := filepath.Join(dir, "out.jsonl")
			var log bytes.Buffer
			if err := runExtract(context.Background(), extractOptions{Inputs: []string{filepath.Join(dir, "cut.warc.gz")}, Out: out, Log: &log}); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range readRecords(t, out) {
				got = append(got, r.ID+" "+string(r.Skipped))
			}
			if diff := cmp.Diff([]string{"cut.warc.gz#1 "}, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if !strings.HasPrefix(log.String(), tc.warning) || strings.Count(log.String(), "\n") != 1 {
				t.Errorf("log %q, want one line starting %q", log.String(), tc.warning)
			}
		})
	}
}

// TestExtractWARCResync is the regression test of a WARC record whose
// Content-Length is 100 bytes too small: extract wrote it failed, then
// the next, whole record failed too ("malformed record … got
// \"article></main>\""), and no record after it was read. Now the damaged
// record alone fails, its error naming the bytes skipped, and the records
// after it are written under the numbers they would have had; bytes that
// start no record after a record that ends well are skipped with a
// warning naming the file and the offset.
func TestExtractWARCResync(t *testing.T) {
	t.Parallel()
	page := func(n int) string {
		return warcResponseRecord(fmt.Sprintf("https://port.example/2024/03/ferry-%d", n), articleHTML(fmt.Sprintf("Ferry %d", n), 5))
	}
	p1, p2, p3, p4 := page(1), page(2), page(3), page(4)
	n := len(p2) - strings.Index(p2, "\r\n\r\n") - 8
	short := strings.Replace(p2, fmt.Sprint("Content-Length: ", n), fmt.Sprint("Content-Length: ", n-100), 1)
	for _, tc := range []struct {
		name, file string
		want       []string // id and skip reason of each record written
		log        []string // what the log says, a line each
	}{
		{"a Content-Length too small", p1 + short + p3 + p4, []string{"crawl.warc#1 ", "crawl.warc#2 failed", "crawl.warc#3 ", "crawl.warc#4 "},
			[]string{fmt.Sprintf("extract: crawl.warc#2: warc: malformed record at offset %d: the block of %d bytes its Content-Length "+
				"declares is followed by bytes that start no record: the length is wrong, or the record damaged (%d bytes from offset %d "+
				"skipped, up to the next record at offset %d)", len(p1+short)-104, n-100, len(short), len(p1), len(p1+short))}},
		{"junk between records", p1 + "junk\r\n" + p3, []string{"crawl.warc#1 ", "crawl.warc#2 "},
			[]string{fmt.Sprintf("extract: warning: crawl.warc: bytes that start no record, after record 1: warc: malformed record at "+
				"offset %d: want a WARC/ version line, got \"junk\" (6 bytes from offset %[1]d skipped, up to the next record at offset %d); "+
				"the records around them are read", len(p1), len(p1)+6)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeTree(t, map[string]string{"crawl.warc": tc.file})
			out := filepath.Join(dir, "out.jsonl")
			var log bytes.Buffer
			if err := runExtract(context.Background(), extractOptions{Inputs: []string{filepath.Join(dir, "crawl.warc")}, Out: out, Log: &log}); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range readRecords(t, out) {
				got = append(got, r.ID+" "+string(r.Skipped))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if diff := cmp.Diff(tc.log, strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n")); diff != "" {
				t.Errorf("log (-want +got)\n%s", diff)
			}
		})
	}
}

// TestExtractLogNamesAPageOnce: a page whose error names it already (a
// refused archive member) is logged with its name once. Regression:
// "extract: enc.zip/a.txt: enc.zip/a.txt: refused: encrypted …".
func TestExtractLogNamesAPageOnce(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "a.txt", Method: zip.Store, Flags: 0x1, CompressedSize64: 15, UncompressedSize64: 3})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("\x8f\x03\xd1\x7e\x00\xff\x2a\x91\x10\x44\xe0\x5c\xb3\x07\x9a"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	dir := writeTree(t, map[string]string{"enc.zip": b.String()})
	var log bytes.Buffer
	if err := runExtract(context.Background(), extractOptions{Inputs: []string{filepath.Join(dir, "enc.zip")},
		Out: filepath.Join(dir, "out.jsonl"), Log: &log}); err != nil {
		t.Fatal(err)
	}
	if want := "extract: enc.zip/a.txt: refused: encrypted (a password-protected zip member), not read\n"; log.String() != want {
		t.Errorf("log %q, want %q", log.String(), want)
	}
}

// TestExtractWARCGzipDamagedMember is the regression test of a .warc.gz,
// a gzip member a record, with junk between two members and a member whose
// magic bytes are damaged: extract stopped at the junk ("bytes after the
// last gzip member … ignored"), every page after it lost. Now it reads on
// from the next member, and warns of each stretch read past with its
// compressed offset and length; the damaged member's record is lost.
func TestExtractWARCGzipDamagedMember(t *testing.T) {
	t.Parallel()
	gzipped := func(n int) string {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(warcResponseRecord(fmt.Sprintf("https://port.example/2024/03/ferry-%d", n), articleHTML(fmt.Sprintf("Ferry %d", n), 5))))
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	m1, m2, m3, m4 := gzipped(1), gzipped(2), gzipped(3), gzipped(4)
	const junk = "junk junk junk"
	dir := writeTree(t, map[string]string{"crawl.warc.gz": m1 + junk + m2 + "\x00\x00" + m3[2:] + m4})
	out := filepath.Join(dir, "out.jsonl")
	var log bytes.Buffer
	if err := runExtract(context.Background(), extractOptions{Inputs: []string{filepath.Join(dir, "crawl.warc.gz")}, Out: out, Log: &log}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range readRecords(t, out) {
		got = append(got, r.ID+" "+string(r.Skipped)+" "+r.URL)
	}
	want := []string{"crawl.warc.gz#1  https://port.example/2024/03/ferry-1", "crawl.warc.gz#2  https://port.example/2024/03/ferry-2",
		"crawl.warc.gz#3  https://port.example/2024/03/ferry-4"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	wantLog := []string{
		fmt.Sprintf("extract: warning: crawl.warc.gz: %d compressed bytes at offset %d skipped up to the next gzip member "+
			"(bytes that start no gzip member); the records around them are read", len(junk), len(m1)),
		fmt.Sprintf("extract: warning: crawl.warc.gz: %d compressed bytes at offset %d skipped up to the next gzip member "+
			"(bytes that start no gzip member); the records around them are read", len(m3), len(m1+junk+m2)),
	}
	if diff := cmp.Diff(wantLog, strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n")); diff != "" {
		t.Errorf("log (-want +got)\n%s", diff)
	}
}

// TestExtractWARCDamageLinesCapped: a WARC of many stretches of junk
// between its records warns of the first maxDamageLines and counts the
// others in one line, as it does pages a site rule matched nothing on;
// every note was held and listed.
func TestExtractWARCDamageLinesCapped(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	const n = maxDamageLines + 5
	for i := range n + 1 {
		b.WriteString(warcResponseRecord(fmt.Sprintf("https://port.example/2024/03/ferry-%d", i), articleHTML(fmt.Sprintf("Ferry %d", i), 5)))
		if i < n {
			b.WriteString("junk\r\n")
		}
	}
	dir := writeTree(t, map[string]string{"crawl.warc": b.String()})
	var log bytes.Buffer
	if err := runExtract(context.Background(), extractOptions{Inputs: []string{filepath.Join(dir, "crawl.warc")}, Out: filepath.Join(dir, "out.jsonl"), Log: &log}); err != nil {
		t.Fatal(err)
	}
	if got := len(readRecords(t, filepath.Join(dir, "out.jsonl"))); got != n+1 {
		t.Errorf("%d records written, want %d", got, n+1)
	}
	lines := strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n")
	if len(lines) != maxDamageLines+1 || lines[len(lines)-1] != "extract: warning: 5 more stretches of bytes that start no WARC record or gzip member, skipped as those above" {
		t.Errorf("%d lines, the last %q; want %d warnings and the count of the others", len(lines), lines[len(lines)-1], maxDamageLines)
	}
}
