package watch

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/internal/extract/rules"
	"github.com/neardup/neardup/internal/outbound"
)

// Trial is what a site rule makes of a page: the URL its article is
// stored under and the article extracted, or why there is none.
type Trial struct {
	Feed      *FeedTrial      `json:"feed,omitempty"`    // the feed the URL tried named, whose newest item's page was tried in its place; nil when the URL named a page
	URL       string          `json:"url"`               // after redirects
	Canonical string          `json:"canonical"`         // the URL the article is stored under: URL made canonical, without a user name or password; "" when an index stores no such URL
	Gallery   string          `json:"gallery,omitempty"` // why the watcher takes the page for a gallery, video or picture page and skips it; "" when it does not
	Skip      core.SkipReason `json:"skipped,omitempty"`
	Article   extract.Article `json:"article"`
}

// FeedTrial is a feed named to Try in place of an article page.
type FeedTrial struct {
	URL    string `json:"url"`    // after redirects
	Format string `json:"format"` // RSS, Atom or JSON Feed
	Items  int    `json:"items"`  // how many items it lists
	// Page is the URL of the page tried, of the newest item whose page
	// the watcher would fetch and extract; "" when none was found among
	// the items tried (see MaxTryItems).
	Page string `json:"page,omitempty"`
	// Passed counts the items newer than it passed over, by why, the most
	// first ("2 with a gallery URL, 1 HTTP 404"); "" when it is the
	// newest. With no Page, every item looked at.
	Passed string `json:"passed,omitempty"`
	// PassedOver are those of them whose pages were fetched, newest
	// first, each with why; at most MaxTryItems. Nil when none was.
	PassedOver []PassedItem `json:"passed_over,omitempty"`
}

// PassedItem is an item of a feed whose page a trial fetched and passed
// over, as the watcher passes it over: it records the item's outcome and
// goes on to the next.
type PassedItem struct {
	Link    string `json:"link"`             // the item's link, its password hidden (ShownURL)
	URL     string `json:"url,omitempty"`    // where the link redirected, so shown; "" when it did not or the fetch failed before an answer
	Outcome string `json:"outcome"`          // the watcher's outcome of the item: error, refused, too-large, feed, not-article-url, ...
	Why     string `json:"why"`              // what FeedTrial.Passed counts it as: "HTTP 404", "not matching article_url"
	Detail  string `json:"detail,omitempty"` // the error; "" for a page the watcher skips
}

// String names the item by its link, and where it redirected, with why it
// was passed over: the error, less the link it may start with, or Why.
func (p PassedItem) String() string {
	s := p.Link
	if p.URL != "" {
		s += ", redirected to " + p.URL
	}
	if p.Detail == "" {
		return s + ": " + p.Why
	}
	return s + ": " + strings.TrimPrefix(p.Detail, p.Link+": ")
}

// feedFormats names gofeed's feed types as users know them.
var feedFormats = map[string]string{"rss": "RSS", "atom": "Atom", "json": "JSON Feed"}

// MaxTryItems is how many of a feed's items' pages a trial of the feed's
// URL fetches at most, newest first, looking for one the watcher would
// extract. A trial is for someone waiting at a terminal or a web page:
// ten pages of one host, as a feed's items usually are, take some ten
// seconds at the default host delay (1 s), well within the web UI's 30 s,
// where twenty would leave little for pages slow to answer; fewer would
// give up on feeds that put a few promotions or live pages before their
// articles (items with a gallery URL, passed over unfetched, do not
// count). A hostile feed of thousands of items on as many hosts, which no
// host delay holds back, costs a web UI user's trial the pages of ten
// (each with its redirects, Options.MaxRedirects at most) where it cost
// one request a host. And a rule none of whose feed's ten newest pages is
// an article would have the watcher add none of them either: the error
// that says so counts why each was passed over.
const MaxTryItems = 10

// tryTimeouts is how many times Options.Timeout a trial whose caller gives
// it no deadline may take, and the host delay before each of MaxTryItems
// fetches besides (2m10s at the defaults): the feed and three pages that
// hang until the timeout, then the error that says what was tried.
const tryTimeouts = 4

// Try fetches the page at pageURL and extracts its article with rule (nil:
// Options.Rules), as the watcher would for an item of a feed with that
// rule, storing nothing: a site rule can be checked before it is saved.
// When pageURL answers with a feed (RSS, Atom, JSON Feed), which a rule is
// not for, it tries the page of the feed's newest item that the watcher
// would fetch and extract (see tryItems) and says so in Trial.Feed; a feed
// with none among the items it tries is an error that counts why each was
// passed over, and a feed the watcher cannot read (its root element a
// feed's, or a JSON object; see feedRoot) is its error (ErrNotFeed), as CheckFeed gives it.
// A ctx without a deadline is given one (see tryTimeouts).
// The connections it made are closed when it returns.
func Try(ctx context.Context, pageURL string, rule *Rule, o Options) (Trial, error) {
	if err := o.Check(); err != nil {
		return Trial{}, err
	}
	o = o.withDefaults()
	rs, err := compileRule(rule, "")
	if err != nil {
		return Trial{}, err
	}
	if rs == nil {
		rs = o.Rules
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, tryBudget(o.Timeout, o.HostDelay))
		defer cancel()
	}
	deadline, _ := ctx.Deadline()
	limit := time.Until(deadline) // what the trial may take
	w := &Watcher{o: o, log: o.Logger}
	fetcher := newFetcher(&o)
	defer fetcher.close()
	t := Trial{Gallery: w.galleryNote(pageURL)}
	resp, err := fetcher.get(ctx, request{url: pageURL})
	if err != nil {
		return t, err
	}
	if parsed, listed, err := parseFeed(resp.body, resp.contentType, o.MaxItems); err == nil {
		// A feed's URL, gallery word or not, is polled, not skipped.
		t.Gallery = ""
		t.Feed = &FeedTrial{URL: resp.url, Format: feedFormats[parsed.FeedType], Items: listed}
		p, err := w.tryItems(ctx, fetcher, t.Feed, parsed, rs, limit)
		if err != nil {
			return t, err
		}
		resp, t.Article, t.Skip = p.resp, p.article, p.skip
	} else if feedRoot(resp.body, resp.contentType) {
		// A feed the watcher cannot read (cut short, of an unknown
		// encoding, of its own DTD): its error, as a poll and feeds add
		// give it, not what the extractor makes of it as a page.
		return t, fmt.Errorf("%s: %w", ShownURL(resp.url), err)
	}
	t.URL = resp.url
	t.Canonical, _ = articleURL(resp.url) // as the watcher stores it
	if t.Feed == nil {
		if t.Article, t.Skip, err = w.extract(ctx, resp, rs); err != nil {
			return t, err
		}
	}
	if word := w.galleryText(t.Article.Text); t.Gallery == "" && word != "" {
		t.Gallery = "the text starts with the gallery word " + strconv.Quote(word) + "; the watcher skips it"
	}
	return t, nil
}

// galleryNote says why the watcher skips the page at pageURL by its URL
// as a gallery, video or picture page; "" when it does not.
func (w *Watcher) galleryNote(pageURL string) string {
	if word := w.galleryURL(Canonical(pageURL)); word != "" {
		return "the URL has the gallery word " + strconv.Quote(word) + "; the watcher skips it without fetching it"
	}
	return ""
}

// itemPage is the page of a feed's item a trial tried: the answer it came
// in and what the rule made of it.
type itemPage struct {
	resp    *response
	article extract.Article
	skip    core.SkipReason
}

// tryItems looks for the newest of a feed's items whose page the watcher
// would fetch and extract with the rules rs, and returns that page: one
// with a link (see entries: f.URL, the URL the feed was read from,
// resolves relative links) that decodes (see parsedFeed), not a gallery
// URL (see unfetched), whose page is one the watcher extracts (see
// tryPage): its URL after redirects matched by its rule's article_url, if
// any, as extract.Page matches the URL the page came from. An item's link
// is no guide: a feed proxy's link redirects to an article, an article's
// link may redirect to a video page. So the items are fetched in turn,
// newest first, each failure (a 404, a refused address, a redirect loop,
// a page too large, a feed) passed over as the watcher passes it over,
// until one is such a page, MaxTryItems were fetched, or ctx is done. It
// sets f.Page, f.Passed and f.PassedOver (see FeedTrial); with no page,
// the error counts why each item looked at was passed over, and names the
// newest one fetched; limit is the time the trial may take, which it
// names when ctx's deadline passes.
func (w *Watcher) tryItems(ctx context.Context, fetcher *fetcher, f *FeedTrial, parsed *parsedFeed, rs *rules.Set, limit time.Duration) (*itemPage, error) {
	items := parsed.Items
	es, unnamed := entries(f.URL, parsed.Language, items, parsed.bad)
	// The items the watcher takes (see Options.MaxItems); the others are
	// older not tried.
	es, dropped := newest(es, w.o.MaxItems)
	dropped += f.Items - len(items)
	var passed tally
	var first error // the fetch's or the extraction's of f.PassedOver[0]
	stop, i := stopEnd, len(es)-1
	for ; i >= 0; i-- {
		e := es[i] // one that does not decode whole is read in part, as the watcher reads it
		switch outcome, _ := w.unfetched(e); outcome {
		case OutcomeNoLink:
			if e.other != "" {
				passed.add("with a link not http or https", 1)
			} else {
				passed.add("without a link", 1)
			}
			continue
		case OutcomeGallery:
			passed.add("with a gallery URL", 1)
			continue
		}
		if len(f.PassedOver) == MaxTryItems {
			stop = stopCap
			break
		}
		if ctx.Err() != nil {
			stop = stopTime
			break
		}
		p, over, err := w.tryPage(ctx, fetcher, e, rs)
		if over == nil {
			f.Page, f.Passed = e.fetch, passed.String()
			return p, nil
		}
		if ctx.Err() != nil {
			over.Why = "cut off when time ran out"
			stop = stopTime
		}
		if len(f.PassedOver) == 0 {
			first = err
		}
		f.PassedOver = append(f.PassedOver, *over)
		passed.add(over.Why, 1)
		w.log.Info("trial: item passed over", "feed", ShownURL(f.URL), "item", over.Link, "url", over.URL, "why", over.Why, "detail", over.Detail)
		if stop == stopTime {
			i--
			break
		}
	}
	if err := ctx.Err(); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return nil, fmt.Errorf("feed %s: %w", ShownURL(f.URL), err) // stopped by the caller
	}
	if stop == stopEnd {
		passed.add("without a link", unnamed)
	}
	f.Passed = cmp.Or(passed.String(), "it lists none")
	return nil, f.noPage(stop, i+1+dropped, limit, first)
}

// Why a trial stopped looking at a feed's items.
const (
	stopEnd  = iota // every item looked at
	stopCap         // MaxTryItems fetched
	stopTime        // the trial's deadline passed
)

// noPageError is the error of a trial of a feed that found no page to try
// among its items. It wraps the error of the newest item it fetched, when
// that item's page failed (errors.Is(err, outbound.ErrRefused), ...).
type noPageError struct {
	msg string
	err error // nil when the newest item fetched failed no fetch
}

func (e *noPageError) Error() string { return e.msg }
func (e *noPageError) Unwrap() error { return e.err }

// noPage is the error of a trial of the feed f that found no page to try
// among its items: stop says why it stopped looking, left how many older
// items it left unseen, limit is the time the trial may take, and first
// is the error of the newest item fetched (f.PassedOver[0]), if any.
func (f *FeedTrial) noPage(stop, left int, limit time.Duration, first error) error {
	what := "no item of it links to a page the watcher would extract"
	if stop != stopEnd {
		what = "none of its " + strconv.Itoa(len(f.PassedOver)) + " newest items the watcher would fetch is a page it would extract"
		if len(f.PassedOver) == 1 {
			what = "its newest item the watcher would fetch is no page it would extract"
		}
	}
	if stop == stopTime {
		what += " within the " + shownSpan(limit) + " a trial may take"
	}
	why := f.Passed
	if left > 0 {
		why += "; " + strconv.Itoa(left) + " older not tried"
	}
	msg := fmt.Sprintf("%s: a feed (%s), not an article page, and %s (%s): give the URL of an article page", ShownURL(f.URL), f.Format, what, why)
	if len(f.PassedOver) > 0 {
		msg += "; the newest fetched: " + f.PassedOver[0].String()
	}
	return &noPageError{msg: msg, err: first}
}

// shownSpan is d in a message, to the second from 10 s, to the tenth below.
func shownSpan(d time.Duration) string {
	if d >= 10*time.Second {
		return d.Round(time.Second).String()
	}
	return d.Round(100 * time.Millisecond).String()
}

// tryPage fetches and extracts the page of e, a feed's item, as the
// watcher would (see Watcher.page), and returns it, or, when the watcher
// would pass it over unextracted, the item passed over, with the error
// of its fetch or its extraction if any: its page could not be fetched
// (error, refused, too large), or is none the rule applies to (a feed, a
// sitemap, not HTML, too many elements, its URL not matching
// article_url). A page the rule is applied to is returned whatever it
// makes of it (too short, no article, a gallery's text, a rule miss): that
// is what a trial shows.
func (w *Watcher) tryPage(ctx context.Context, fetcher *fetcher, e entry, rs *rules.Set) (*itemPage, *PassedItem, error) {
	over := &PassedItem{Link: ShownURL(e.fetch)}
	resp, err := fetcher.get(ctx, request{url: e.fetch})
	if resp != nil && ShownURL(resp.url) != over.Link {
		over.URL = ShownURL(resp.url)
	}
	if err != nil {
		over.Outcome, over.Why = fetchFailure(err)
		over.Detail = err.Error()
		return nil, over, err
	}
	a, skip, err := w.extract(ctx, resp, rs)
	if err != nil {
		over.Outcome, over.Why, over.Detail = OutcomeError, "not extracted", err.Error()
		return nil, over, err
	}
	if why, ok := unextracted[skip]; ok {
		over.Outcome, over.Why = string(skip), why
		return nil, over, nil
	}
	return &itemPage{resp: resp, article: a, skip: skip}, nil, nil
}

// unextracted are the skips of pages the watcher does not extract, which
// a trial passes over, by what FeedTrial.Passed counts them as.
var unextracted = map[core.SkipReason]string{
	extract.SkipNotArticleURL: "not matching article_url",
	extract.SkipFeed:          "whose page is a feed",
	extract.SkipSitemap:       "whose page is a sitemap",
	extract.SkipNotHTML:       "not HTML",
	extract.SkipTooLarge:      "too large",
}

// fetchFailure is the outcome the watcher gives an item whose page's
// fetch failed with err (see Watcher.page), and what FeedTrial.Passed
// counts it as.
func fetchFailure(err error) (outcome, why string) {
	var se *statusError
	var ne net.Error
	var re *outbound.RefusedError
	switch {
	case unasked(err):
		return OutcomePaused, "asked to retry later"
	case errors.Is(err, ErrRetryLater):
		return OutcomeError, "asked to retry later"
	case errors.Is(err, ErrTooLarge):
		return string(extract.SkipTooLarge), "too large"
	case errors.As(err, &re) && re.Class == outbound.NoAddress:
		return OutcomeRefused, "refused (no address)"
	case errors.Is(err, outbound.ErrRefused):
		return OutcomeRefused, "refused (an internal address)"
	case errors.As(err, &se):
		return OutcomeError, "HTTP " + strconv.Itoa(se.code)
	case errors.Is(err, ErrTooManyHops):
		return OutcomeError, "too many redirects"
	case errors.As(err, &ne) && ne.Timeout(), errors.Is(err, context.DeadlineExceeded):
		return OutcomeError, "timed out"
	}
	return OutcomeError, "failing to load"
}

// extract extracts the article of a page fetched, as the watcher does.
func (w *Watcher) extract(ctx context.Context, resp *response, rs *rules.Set) (extract.Article, core.SkipReason, error) {
	return extract.Page(ctx, extract.Input{URL: resp.url, ContentType: resp.contentType, Body: resp.body},
		extract.Options{Rules: rs, MinChars: w.o.MinChars, MaxBytes: w.o.MaxBytes})
}

// tally counts items by why, in the order first met.
type tally []whyCount

// whyCount is how many items were passed over for one reason.
type whyCount struct {
	why string
	n   int
}

func (t *tally) add(why string, n int) {
	if n == 0 {
		return
	}
	for i := range *t {
		if (*t)[i].why == why {
			(*t)[i].n += n
			return
		}
	}
	*t = append(*t, whyCount{why, n})
}

// String says the counts, the largest first, ties in the order first met:
// "2 with a gallery URL, 1 not matching article_url".
func (t tally) String() string {
	sorted := slices.Clone(t)
	slices.SortStableFunc(sorted, func(a, b whyCount) int { return b.n - a.n })
	why := make([]string, len(sorted))
	for i, c := range sorted {
		why[i] = fmt.Sprintf("%d %s", c.n, c.why)
	}
	return strings.Join(why, ", ")
}

// tryBudget returns the time a trial takes at most: tryTimeouts requests'
// timeouts and MaxTryItems host delays, or, when that sum is past what a
// time.Duration holds (a timeout of 100000d given for none), the longest
// one does, not a sum that wraps round into the past.
func tryBudget(timeout, hostDelay time.Duration) time.Duration {
	const most = time.Duration(math.MaxInt64)
	if timeout > most/(2*tryTimeouts) || hostDelay > most/(2*MaxTryItems) {
		return most
	}
	return tryTimeouts*timeout + MaxTryItems*hostDelay
}
