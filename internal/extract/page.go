package extract

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/extract/rules"
	"golang.org/x/net/html"
)

// The skip reasons this package adds to those of package neardup. Each
// names why a page gave no article.
const (
	SkipNotHTML       core.SkipReason = "not-html"        // binary, another media type, or text without HTML tags
	SkipNoArticle     core.SkipReason = "no-article"      // the extractor found no main text
	SkipNotArticleURL core.SkipReason = "not-article-url" // a site rule's article_url does not match
	SkipFeed          core.SkipReason = "feed"            // a web feed (RSS, Atom, RDF, JSON Feed): it lists articles, it is not one
	SkipSitemap       core.SkipReason = "sitemap"         // a sitemap: a site's list of page addresses
	SkipTooShort                      = core.SkipTooShort
	SkipTooLarge                      = core.SkipTooLarge
)

// ErrTimeout is returned for a page whose extraction outlived Options.Timeout.
var ErrTimeout = errors.New("extract: page timed out")

// Input is one page as fetched.
type Input struct {
	// URL is the page's address; site rules match it. It may be empty:
	// site rules then match the URL the page declares of itself (its
	// <link rel="canonical">, else its og:url), which is taken for nothing
	// else, and a rule's article_url skips no page that declares none.
	URL string
	// ContentType is the HTTP Content-Type header, may be empty. Its charset
	// parameter decodes the body when no byte-order mark says otherwise.
	ContentType string
	// Body is the page as served: any charset, gzip-compressed or not.
	Body []byte
}

// Article is what a page yields. Its JSON has the keys of the records
// `neardup extract` writes: title, text, author, date ("" when unknown,
// without an offset when the page names no zone: core.FormatDate), lang,
// and rule_miss when there is one.
type Article struct {
	Title  string
	Text   string // paragraphs separated by "\n\n"
	Author string
	Date   time.Time // zero when unknown; in core.NoZone when the page names no zone
	Lang   string    // ISO 639-1 code, empty when unknown
	// RuleMiss says, when the page's site rule has a body selector that
	// matched nothing on it, which rule and selector: the text is then the
	// extractor's own choice, and the rule may need mending. "" otherwise.
	RuleMiss string
	// DeclaredURL is, of a page without a URL of its own (Input.URL ""),
	// the URL it declares of itself (its <link rel="canonical">, else its
	// og:url; absolute, http or https), whether the page gave an article
	// or was skipped: the site rules match such a page by it (and skip it
	// as SkipNotArticleURL by it), and a reader may take its host for the
	// page's source, but nothing takes it for the page's address. "" for a
	// page with a URL, one that declares none, and with
	// Options.LibraryOnly.
	DeclaredURL string
	// SiteName is, of a page without a URL of its own (Input.URL ""), the
	// name the page gives the site showing it: the content of the first
	// og:site_name <meta> of its <head> (by property or name) that is not
	// empty, else of one that is a child of its <body> (see siteName), its
	// runs of white space made one space and trimmed. A site republishing another's
	// story keeps its own name there while its <link rel="canonical">
	// points at the original, so a reader takes it before DeclaredURL's
	// host for the page's source. "" for a page with a URL, one that
	// gives none, and with Options.LibraryOnly.
	SiteName string
	// Limit says, of a page skipped as too large (SkipTooLarge), which
	// limit it passes: "2048 bytes, over the limit of 1024 (--max-bytes)",
	// "more than 60000 HTML elements, the most a page may have (--max-elements
	// of neardup extract)". ""
	// otherwise.
	Limit string
}

// MarshalJSON writes the article with lower-case keys (see Article).
func (a Article) MarshalJSON() ([]byte, error) {
	date := ""
	if !a.Date.IsZero() {
		date = core.FormatDate(a.Date, time.RFC3339)
	}
	return json.Marshal(struct {
		Title    string `json:"title"`
		Text     string `json:"text"`
		Author   string `json:"author"`
		Date     string `json:"date"`
		Lang     string `json:"lang"`
		RuleMiss string `json:"rule_miss,omitempty"`
	}{a.Title, a.Text, a.Author, date, a.Lang, a.RuleMiss})
}

// Options control extraction. The zero value works: no site rules and the
// defaults named on each field.
type Options struct {
	// Rules are the site rules; nil means none.
	Rules *rules.Set
	// MinChars is the fewest characters of text an article has, as
	// Length counts them (a Chinese, Japanese or Korean character counting
	// three); shorter pages are skipped as too short (galleries, video
	// pages). 0 means 500; negative means no minimum.
	MinChars int
	// MaxBytes is the largest body, before and after gzip inflation, that
	// is extracted; larger ones are skipped as too large. 0 means 10 MiB (DefaultMaxBytes).
	MaxBytes int
	// MaxElements is the most HTML elements a page may have; pages with
	// more are skipped as too large. 0 means 60000.
	MaxElements int
	// MaxAttributes is the most HTML attributes a page may have, counted
	// in its tags before it is parsed and in its tree after; pages with
	// more are skipped as too large. 0 means 240000 (DefaultMaxAttributes).
	MaxAttributes int
	// Timeout bounds one page's extraction; a page that outlives it fails
	// with ErrTimeout. 0 means 20 s.
	Timeout time.Duration
	// Engine is the main-text detector; nil means Readeck.
	Engine Engine
	// LibraryOnly measures the engine alone: no cleaning before it, its
	// own text rendering, no site rules. For comparisons only.
	LibraryOnly bool
	// BlockModel scores the leaf blocks of the engine's content; those it
	// scores under its threshold leave the article. nil means
	// DefaultBlockModel. A site rule's body is never pruned.
	BlockModel *BlockModel
	// KeepBlocks turns the block classifier and the declared body's
	// pruning off: every block the engine and the fixes keep stays. For
	// comparisons only.
	KeepBlocks bool

	// blocks, when set, collects the content's blocks instead of pruning
	// them (PageBlocks).
	blocks *[]Block
	// scripted marks the extraction of an article found in a page's
	// scripts (preferScripted), whose own scripts are not read again.
	scripted bool
	// stop is set by Page when it gives up on the page; the work then
	// ends at its next checkpoint. nil outside Page.
	stop *atomic.Bool
}

// Defaults for Options fields left zero.
const (
	DefaultMinChars    = 500
	DefaultMaxBytes    = 10 << 20 // the one default of every command
	DefaultMaxElements = 60000
	// DefaultMaxAttributes is four attributes an element at
	// DefaultMaxElements: the 132 pages of go-readability's tests have at
	// most 3.05 an element, 13,949 in all. A page's tree takes about 100
	// bytes an attribute, a page of 10 MB of them 450 MB to parse.
	DefaultMaxAttributes = 4 * DefaultMaxElements
	DefaultTimeout       = 20 * time.Second
)

func (o Options) withDefaults() Options {
	if o.MinChars == 0 {
		o.MinChars = DefaultMinChars
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxElements <= 0 {
		o.MaxElements = DefaultMaxElements
	}
	if o.MaxAttributes <= 0 {
		o.MaxAttributes = DefaultMaxAttributes
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Engine == nil {
		o.Engine = Readeck
	}
	if o.BlockModel == nil {
		o.BlockModel = &DefaultBlockModel
	}
	return o
}

// Page extracts the article of one page. It returns the article and no
// skip reason, or a skip reason saying why the page has no article (with
// whatever metadata was found), or an error when the page failed: it could
// not be decoded, the extractor panicked, or it ran past opts.Timeout or
// ctx ended (ErrTimeout, ctx.Err()). A page past its time stops at the
// next of the work's checkpoints (between its stages, and at each element
// the cleaning meets), and Page returns once it has, so that the pages a
// caller has in work are no more than the Page calls it has running,
// however many time out; but it waits for that at most stopGrace, and
// then returns all the same, the work left to end on its own (a site
// rule's selector is matched without a checkpoint, and one can take
// exponential time on a deep tree).
//
// Page is safe for concurrent use; it never modifies in.Body.
func Page(ctx context.Context, in Input, opts Options) (Article, core.SkipReason, error) {
	opts = opts.withDefaults()
	type result struct {
		a    Article
		skip core.SkipReason
		err  error
	}
	opts.stop = new(atomic.Bool)
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p == errStopped {
				done <- result{err: errStopped}
			} else if p != nil {
				done <- result{err: fmt.Errorf("extract: panic: %v\n%s", p, debug.Stack())}
			}
		}()
		a, skip, err := page(in, opts)
		done <- result{a, skip, err}
	}()
	timer := time.NewTimer(opts.Timeout)
	defer timer.Stop()
	var err error
	select {
	case r := <-done:
		return r.a, r.skip, r.err
	case <-timer.C:
		err = ErrTimeout
	case <-ctx.Done():
		err = ctx.Err()
	}
	opts.stop.Store(true)
	grace := time.NewTimer(stopGrace)
	defer grace.Stop()
	select { // the work ends before its slot is given back, or soon enough
	case <-done:
	case <-grace.C:
	}
	return Article{}, "", err
}

// stopGrace is the longest Page waits, past its time or its context's
// end, for the page's work to reach a checkpoint and stop.
const stopGrace = 2 * time.Second

// errStopped is the panic with which a page's work ends at a checkpoint
// once Page has stopped waiting for it; Page recovers it.
var errStopped = errors.New("extract: page stopped")

// checkpoint ends a page's work (panicking with errStopped) when Page has
// given up on it. It costs an atomic load: it may be called per element.
func (o Options) checkpoint() {
	if o.stop != nil && o.stop.Load() {
		panic(errStopped)
	}
}

// page does Page's work without the time limit.
func page(in Input, opts Options) (Article, core.SkipReason, error) {
	body := in.Body
	if len(body) > opts.MaxBytes {
		return tooLarge(fmt.Sprintf("%d bytes, over the limit of %d (--max-bytes)", len(body), opts.MaxBytes))
	}
	if isGzip(body) {
		var err error
		if body, err = gunzip(body, opts.MaxBytes); errors.Is(err, errTooLarge) {
			return tooLarge(fmt.Sprintf("over %d bytes once inflated (--max-bytes)", opts.MaxBytes))
		} else if err != nil {
			return Article{}, "", err
		}
	}
	if skip := notPage(body); skip != "" {
		return Article{}, skip, nil
	}
	var rule *rules.Rule
	if !opts.LibraryOnly && in.URL != "" {
		rule = opts.Rules.Match(in.URL)
		if !rule.IsArticleURL(in.URL) {
			return Article{}, SkipNotArticleURL, nil
		}
	}
	if !LooksHTML(body, in.ContentType) {
		return Article{}, SkipNotHTML, nil
	}
	utf, _, err := ToUTF8(body, in.ContentType)
	if err != nil {
		return Article{}, "", err
	}
	tooManyAttrs := func() (Article, core.SkipReason, error) {
		return tooLarge(fmt.Sprintf("more than %d HTML attributes, the most a page may have (%s)", opts.MaxAttributes, attributesFlag))
	}
	if tagAttributes(utf, opts.MaxAttributes) > opts.MaxAttributes {
		return tooManyAttrs() // refused before the parse that would hold them
	}
	opts.checkpoint()
	doc, err := parsePage(utf)
	if errors.Is(err, errTooDeep) {
		return tooLarge("HTML elements nested too deep to parse")
	} else if err != nil {
		return Article{}, "", fmt.Errorf("parsing html: %w", err)
	}
	elements, attrs := countElements(doc, opts.MaxElements, opts.MaxAttributes)
	if elements > opts.MaxElements {
		return tooLarge(fmt.Sprintf("more than %d HTML elements, the most a page may have (%s)", opts.MaxElements, elementsFlag))
	}
	if attrs > opts.MaxAttributes { // the parser's copies of formatting elements carry theirs
		return tooManyAttrs()
	}
	var declared, site string
	if !opts.LibraryOnly && in.URL == "" {
		// A page without a URL (read from a file) is matched to the rules by
		// the URL it declares, and only to them; without one, an article_url
		// has nothing to judge and skips nothing.
		declared, site = declaredURL(doc), siteName(doc)
		if opts.Rules.Len() > 0 {
			rule = opts.Rules.Match(declared)
			if declared != "" && !rule.IsArticleURL(declared) {
				return Article{DeclaredURL: declared, SiteName: site}, SkipNotArticleURL, nil
			}
		}
	}
	opts.checkpoint()
	a, err := extractDoc(doc, in.URL, rule, opts)
	a.DeclaredURL, a.SiteName = declared, site
	if err != nil {
		return a, "", err
	}
	return a, judge(a, opts), nil
}

// elementsFlag and attributesFlag name the flags that raise the limits of
// Options.MaxElements and MaxAttributes: neardup extract's alone; the other
// commands read pages within the defaults.
const (
	elementsFlag   = "--max-elements of neardup extract"
	attributesFlag = "--max-attributes of neardup extract"
)

// tooLarge is page's answer for a page over a limit, which limit says.
func tooLarge(limit string) (Article, core.SkipReason, error) {
	return Article{Limit: limit}, SkipTooLarge, nil
}

// PageBlocks returns the leaf blocks of a page's content, with their
// features, as the block classifier would score them: after the cleaning,
// the engine and the other fixes. A page that yields no content, or whose
// site rule chooses the body, has none. It is how a block model is
// trained (ndlab extract-train).
func PageBlocks(in Input, opts Options) ([]Block, error) {
	var blocks []Block
	opts.blocks = &blocks
	opts.LibraryOnly = false
	_, _, err := page(in, opts.withDefaults())
	return blocks, err
}

// notPage says why a body that may pass for HTML (its items' HTML, its
// tags) is no page at all: a web feed or a sitemap; "" for anything else.
func notPage(body []byte) core.SkipReason {
	head := body[:min(len(body), sniffLimit)]
	switch {
	case container.IsFeed(head), container.IsJSONFeed(head):
		return SkipFeed
	case container.IsSitemap(head):
		return SkipSitemap
	}
	return ""
}

// judge decides whether an extracted article is kept.
func judge(a Article, opts Options) core.SkipReason {
	switch n := Length(a.Text); {
	case n == 0:
		return SkipNoArticle
	case opts.MinChars > 0 && n < opts.MinChars:
		return SkipTooShort
	}
	return ""
}

// wideWeight is how many characters one of Chinese, Japanese or Korean
// counts as in a text's Length: those scripts say in a character what an
// alphabet says in three or four. DAnIEL's reference articles in Chinese
// have a median of 682 characters, those in English, Greek, Polish and
// Russian 1,509 – 2,629; 142 of its 441 Chinese articles are under 500
// characters, and 9 under 167 (500 counted three a character), where 1 of
// 475 in English is under 500.
const wideWeight = 3

// Length returns the length of text as --min-chars counts it: its
// characters, one of the Han, Hiragana, Katakana or Hangul scripts
// counting as wideWeight.
func Length(text string) int {
	n := 0
	for _, r := range text {
		n++
		if wideLetter(r) || r >= 0x1100 && unicode.Is(unicode.Hangul, r) {
			n += wideWeight - 1
		}
	}
	return n
}

// countElements counts the element nodes under n and their attributes,
// stopping past either limit.
func countElements(n *html.Node, limit, attrLimit int) (count, attrs int) {
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil && count <= limit && attrs <= attrLimit; c = c.NextSibling {
			if c.Type == html.ElementNode {
				count++
				attrs += len(c.Attr)
			}
			walk(c)
		}
	}
	walk(n)
	return count, attrs
}

// tagAttributes counts the attributes of the start tags of the HTML b,
// stopping past limit. It reads the tokens without keeping them: a page's
// attributes are counted before the parse that holds them all.
func tagAttributes(b []byte, limit int) int {
	if len(b) <= 2*limit {
		return 0 // each attribute takes two bytes at least (" a"): the page has not that many
	}
	z := html.NewTokenizer(bytes.NewReader(b))
	count := 0
	for count <= limit {
		switch z.Next() {
		case html.ErrorToken:
			return count
		case html.StartTagToken, html.SelfClosingTagToken:
			for _, more := z.TagName(); more; {
				_, _, more = z.TagAttr()
				count++
			}
		}
	}
	return count
}
