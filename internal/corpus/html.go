package corpus

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/extract"
)

// A web page (an HTML file, or a page in a WARC file) becomes a document
// through extract.Page: NextRaw only reads its bytes, Decode extracts the
// article. The document's id is the page's origin, as `neardup extract`
// names it, so that the ids of the two commands agree; Doc.Raw, the record
// written to the de-duplicated corpus, is the article as `neardup extract`
// writes it: {"id","url","title","text","date","author","lang"}, with
// "source" after them for a page read without a URL that names its site or
// declares its URL (sourceOfPage). A page
// without an article is skipped with extract's reason (not-html,
// no-article, too-short, not-article-url, too-large, http-status, failed).

// utf8BOM is the UTF-8 byte-order mark.
var utf8BOM = []byte("\xef\xbb\xbf")

// pageRaw is what NextRaw keeps of a web page besides its bytes (Raw.data).
type pageRaw struct {
	seq         int    // the page's number in its pass, the key of Reader.memo
	url         string // WARC-Target-URI; empty for a file
	contentType string // a WARC resource record's Content-Type
	http        bool   // the bytes are an HTTP response (a WARC response record)
	tooLarge    bool   // over the page size limit; the bytes were not kept
	err         error  // why the record could not be read (a malformed WARC record)
}

// newPage numbers a page and returns its Raw. Called from NextRaw only.
func (r *Reader) newPage(origin string, data []byte, p *pageRaw) Raw {
	p.seq = r.pages
	r.pages++
	return Raw{Origin: origin, kind: rawPage, id: origin, data: data, page: p}
}

// pageLimit is the largest page read into memory, in bytes.
func (r *Reader) pageLimit() int {
	if n := r.opts.Extract.MaxBytes; n > 0 {
		return n
	}
	return r.opts.MaxBytes
}

// pageTimeout bounds one page's extraction.
func (r *Reader) pageTimeout() time.Duration {
	if d := r.opts.Extract.Timeout; d > 0 {
		return d
	}
	return extract.DefaultTimeout
}

// isPage reports whether a stream of unknown kind, starting with t (blanks
// and byte-order mark removed), is an HTML page: it starts with a tag and
// extract takes it for HTML.
func isPage(t []byte) bool {
	return len(t) > 0 && t[0] == '<' && extract.LooksHTML(t, "")
}

// pageSource yields a whole file as one web page.
type pageSource struct {
	r      *Reader
	rd     io.Reader
	origin string
	size   int64 // the file's size when known (a capacity hint), else -1
	done   bool
}

func (s *pageSource) close() {}

func (s *pageSource) next() (Raw, error) {
	if s.done {
		return Raw{}, io.EOF
	}
	s.done = true
	limit := s.r.pageLimit()
	data, err := readAtMost(s.rd, limit, s.size)
	if err != nil {
		return Raw{}, fmt.Errorf("reading %s: %w", s.origin, container.CutAfter(err, int64(len(data))))
	}
	p := &pageRaw{}
	if len(data) > limit {
		data, p.tooLarge = nil, true // not read further: it may be a bomb
	}
	return s.r.newPage(s.origin, data, p), nil
}

// decodePage extracts a page's article. A page decoded a second time (after
// Rewind) gives the record it gave the first time without being extracted
// again (pageMemo); should its article not be at hand, it is extracted
// with ten times the time limit, so that a machine busier than before
// cannot turn it into a timeout and shift the records of the pass.
func (r *Reader) decodePage(raw Raw) Record {
	if r.opts.SinglePass {
		return r.pageRecord(raw, r.pageTimeout())
	}
	if rec, state := r.memo.get(raw); state == memoSkipped || state == memoCached {
		rec.Doc.ID = r.idOf(raw.id)
		return rec
	} else if state == memoUsed {
		return r.pageRecord(raw, 10*r.pageTimeout())
	}
	rec := r.pageRecord(raw, r.pageTimeout())
	r.memo.put(raw.page.seq, rec)
	return rec
}

// pageRecord extracts a page under a time limit and makes its record.
func (r *Reader) pageRecord(raw Raw, timeout time.Duration) Record {
	p := raw.page
	doc := core.Document{ID: r.idOf(raw.id), Origin: raw.Origin, URL: strings.ToValidUTF8(p.url, "\uFFFD")}
	a, reason, msg := r.extractPage(raw, timeout)
	var miss string
	if a.RuleMiss != "" {
		miss = r.ruleMiss(a.RuleMiss, raw.Origin, raw.seq)
	}
	doc.Title, doc.Date = a.Title, a.Date.Truncate(time.Second) // as Raw writes it
	if p.url == "" {
		doc.Source = sourceOfPage(a)
	}
	if reason != core.SkipNone {
		rec := skip(doc, reason, "", string(reason)+": "+msg)
		rec.RuleMiss = miss
		return rec
	}
	doc.Text = a.Text
	rec := r.finish(doc)
	rec.RuleMiss = miss
	if rec.Skip == core.SkipNone {
		rec.Doc.Raw, rec.built = articleJSON(rec.Doc, a), true
	}
	return rec
}

// extractPage runs extract.Page on a page, or says why it cannot: msg
// explains the skip reason.
func (r *Reader) extractPage(raw Raw, timeout time.Duration) (a extract.Article, reason core.SkipReason, msg string) {
	p := raw.page
	opts := r.opts.Extract
	switch {
	case p.err != nil:
		return a, extract.SkipFailed, p.err.Error()
	case p.tooLarge:
		return a, extract.SkipTooLarge, fmt.Sprintf("over %d bytes (--max-bytes)", r.pageLimit())
	}
	in := extract.Input{URL: p.url, ContentType: p.contentType, Body: raw.data}
	if p.http {
		var ok bool
		if in, reason, msg, ok = r.httpInput(raw); !ok {
			return a, reason, msg
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	opts.Timeout = timeout
	a, reason, err := extract.Page(ctx, in, opts)
	if errors.Is(err, context.DeadlineExceeded) {
		err = extract.ErrTimeout // whichever of the two equal clocks fired first
	}
	if err != nil {
		return a, extract.SkipFailed, err.Error()
	}
	return a, reason, skipMessage(reason, a, p.url, opts)
}

// skipMessage says why extract gave no article; "" for an article.
func skipMessage(reason core.SkipReason, a extract.Article, url string, opts extract.Options) string {
	switch reason {
	case core.SkipNone:
		return ""
	case extract.SkipNotHTML:
		return "not an HTML page"
	case extract.SkipNoArticle:
		return "no article found"
	case extract.SkipTooShort:
		minChars := opts.MinChars
		if minChars == 0 {
			minChars = extract.DefaultMinChars
		}
		if n, runes := extract.Length(a.Text), utf8.RuneCountInString(a.Text); n != runes {
			return fmt.Sprintf("%d characters of text, counted as %d (a Chinese, Japanese or Korean character as three), fewer than %d (--min-chars)",
				runes, n, minChars)
		}
		return fmt.Sprintf("%d characters of text, fewer than %d (--min-chars)", utf8.RuneCountInString(a.Text), minChars)
	case extract.SkipNotArticleURL:
		if url == "" && a.DeclaredURL != "" {
			return fmt.Sprintf("the site rules do not take %q, the URL the page declares of itself, for an article", a.DeclaredURL)
		}
		return fmt.Sprintf("the site rules do not take %q for an article", url)
	case extract.SkipTooLarge:
		if a.Limit != "" {
			return a.Limit
		}
		return "over the page's size or element limit"
	case extract.SkipFeed:
		return "a web feed, not a page (a feed file read by itself gives a document for each item)"
	case extract.SkipSitemap:
		return "a sitemap lists a site's page addresses and holds no document"
	}
	return string(reason)
}

// articleJSON is a page's record in the de-duplicated corpus: its article as
// `neardup extract` writes it, and the page's source after it when it has
// one (sourceOfPage), so that the record read again has it.
func articleJSON(doc core.Document, a extract.Article) []byte {
	b := make([]byte, 0, len(doc.ID)+len(doc.URL)+len(doc.Title)+len(doc.Text)+len(a.Author)+len(doc.Source)+112)
	if doc.Source != "" {
		return appendJSONObject(b, sourcedArticleKeys, []string{doc.ID, doc.URL, doc.Title, doc.Text, jsonDate(a.Date), a.Author, a.Lang, doc.Source})
	}
	return appendJSONObject(b, articleKeys, []string{doc.ID, doc.URL, doc.Title, doc.Text, jsonDate(a.Date), a.Author, a.Lang})
}

// articleKeys are the keys of a page's Raw; sourcedArticleKeys those of a
// page's with a source.
var (
	articleKeys        = encodedKeys("id", "url", "title", "text", "date", "author", "lang")
	sourcedArticleKeys = encodedKeys("id", "url", "title", "text", "date", "author", "lang", "source")
)

// sourceOfPage is the source of a page without a URL of its own: the name
// it gives the site showing it (extract.Article.SiteName, its og:site_name),
// else the host of the URL it declares of itself (declaredSource). The
// name comes first because a site republishing another's story keeps its
// own name while its <link rel="canonical"> points at the original
// publisher, whose host would make the copy a document of the original's
// source, never compared with it by rarewords. A name longer than
// core.MaxSourceBytes is no site's name and is passed over.
func sourceOfPage(a extract.Article) string {
	if a.SiteName != "" && len(a.SiteName) <= core.MaxSourceBytes {
		return a.SiteName
	}
	return declaredSource(a.DeclaredURL)
}

// declaredSource is the host of the URL a page declares of itself
// (extract.Article.DeclaredURL), lower case, without a leading "www." (as
// rarewords.SourceOf takes a document's URL's host) and without a final
// "." ("Site-A.example." is "site-a.example"); "" when it declares none or
// the host is longer than a DNS name may be (maxHostBytes). The URL stays
// out of the document's: a page may declare any address, and an index
// takes two documents of one URL for copies without comparing their texts.
func declaredSource(declared string) string {
	u, err := url.Parse(declared)
	if err != nil {
		return ""
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if len(host) > maxHostBytes {
		return ""
	}
	return strings.TrimPrefix(host, "www.")
}

// maxHostBytes is the longest DNS name, in bytes (RFC 1035, without the
// final "."): a longer host names no site.
const maxHostBytes = 253

// ruleMiss notes a page, at origin, position seq of the pass, on which a
// site rule's body selector matched nothing (extract.Article.RuleMiss), in
// the first pass, and returns the note (Record.RuleMiss).
func (r *Reader) ruleMiss(miss, origin string, seq int) string {
	note := origin + ": " + miss
	if !r.rewound {
		r.misses.note(note, seq)
	}
	return note
}

// RuleMisses returns how many pages of the first pass a site rule's body
// selector matched nothing on (each extracted without it), and the first
// of them in input order with its origin.
func (r *Reader) RuleMisses() (n int, first string) {
	r.misses.mu.Lock()
	defer r.misses.mu.Unlock()
	return r.misses.n, r.misses.first
}
