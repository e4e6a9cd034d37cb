package watch

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/mmcdole/gofeed"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/internal/extract/rules"
)

// Trial is what a site rule makes of a page: the page's canonical URL and
// the article extracted, or why there is none.
type Trial struct {
	Feed      *FeedTrial      `json:"feed,omitempty"`    // the feed the URL tried named, whose newest item's page was tried in its place; nil when the URL named a page
	URL       string          `json:"url"`               // after redirects
	Canonical string          `json:"canonical"`         // the URL the article is stored under
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
	// the watcher would fetch and extract; "" when none would be.
	Page string `json:"page,omitempty"`
	// Passed says why the items newer than it were passed over ("2 with a
	// gallery URL"); "" when it is the newest. With no Page, why every
	// item was.
	Passed string `json:"passed,omitempty"`
}

// feedFormats names gofeed's feed types as users know them.
var feedFormats = map[string]string{"rss": "RSS", "atom": "Atom", "json": "JSON Feed"}

// Try fetches the page at pageURL and extracts its article with rule (nil:
// Options.Rules), as the watcher would for an item of a feed with that
// rule, storing nothing: a site rule can be checked before it is saved.
// When pageURL answers with a feed (RSS, Atom, JSON Feed), which a rule is
// not for, it tries the page of the feed's newest item that the watcher
// would fetch and extract (see tryItem) and says so in Trial.Feed; a feed
// with none, or whose item's page is a feed too, is an error.
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
	w := &Watcher{o: o}
	fetcher := newFetcher(&o)
	t := Trial{Gallery: w.galleryNote(pageURL)}
	resp, err := fetcher.get(ctx, request{url: pageURL})
	if err != nil {
		return t, err
	}
	if parsed, err := parseFeed(resp.body, resp.contentType); err == nil {
		// A feed's URL, gallery word or not, is polled, not skipped.
		t.Gallery = ""
		f := &FeedTrial{URL: resp.url, Format: feedFormats[parsed.FeedType], Items: len(parsed.Items)}
		t.Feed = f
		if f.Page, resp, f.Passed, err = w.tryItem(ctx, fetcher, resp.url, parsed.Language, parsed.Items, rs); err != nil {
			return t, fmt.Errorf("the newest item of feed %s: %w", ShownURL(f.URL), err)
		}
		if resp == nil {
			return t, fmt.Errorf("%s: a feed (%s), not an article page, and no item of it links to a page the watcher would extract (%s): give the URL of an article page",
				ShownURL(f.URL), f.Format, f.Passed)
		}
	}
	t.URL = resp.url
	if t.Canonical = pageCanonical(resp.body, resp.url); t.Canonical == "" {
		t.Canonical = Canonical(resp.url)
	}
	t.Canonical = withoutUser(t.Canonical) // as the watcher stores it
	t.Article, t.Skip, err = extract.Page(ctx, extract.Input{URL: resp.url, ContentType: resp.contentType, Body: resp.body},
		extract.Options{Rules: rs, MinChars: o.MinChars, MaxBytes: o.MaxBytes})
	if err == nil && t.Feed != nil && t.Skip == extract.SkipFeed {
		return t, fmt.Errorf("the newest item of feed %s: %s: a feed too, not an article page: give the URL of an article page",
			ShownURL(t.Feed.URL), ShownURL(resp.url))
	}
	if word := w.galleryText(t.Article.Text); t.Gallery == "" && word != "" {
		t.Gallery = "the text starts with the gallery word " + strconv.Quote(word) + "; the watcher skips it"
	}
	return t, err
}

// galleryNote says why the watcher skips the page at pageURL by its URL
// as a gallery, video or picture page; "" when it does not.
func (w *Watcher) galleryNote(pageURL string) string {
	if word := w.galleryURL(Canonical(pageURL)); word != "" {
		return "the URL has the gallery word " + strconv.Quote(word) + "; the watcher skips it without fetching it"
	}
	return ""
}

// tryItem fetches the page of the newest of a feed's items that the
// watcher would fetch and extract with the rules rs, and returns the URL it
// was fetched from and the answer: one with a link (see entries: feedURL,
// the URL the feed was read from, resolves relative links, and lang is the
// feed's language), not a gallery URL (see unfetched), whose URL after
// redirects its rule's article_url, if any, matches, as extract.Page
// matches the URL the watcher gives it, the one the page came from. An
// item's link is no guide: a feed proxy's link redirects to an article,
// and an article's link may redirect to a video page. So each item the
// watcher fetches is fetched in turn, newest first, until one matches; a
// fetch that fails is the error. passed counts the newer items passed over
// by why ("2 with a gallery URL, 1 not matching article_url"); with no
// page (resp nil), every item.
func (w *Watcher) tryItem(ctx context.Context, fetcher *fetcher, feedURL, lang string, items []*gofeed.Item, rs *rules.Set) (page string, resp *response, passed string, err error) {
	es, unnamed := entries(feedURL, lang, items)
	var noLink, gallery, notArticle int
	for i := len(es) - 1; i >= 0 && resp == nil; i-- {
		e := es[i]
		switch outcome, _ := w.unfetched(e); outcome {
		case OutcomeNoLink:
			noLink++
			continue
		case OutcomeGallery:
			gallery++
			continue
		}
		r, err := fetcher.get(ctx, request{url: e.fetch})
		if err != nil {
			return e.fetch, nil, passedOver(noLink, gallery, notArticle), err
		}
		if rs.Match(r.url).IsArticleURL(r.url) {
			page, resp = e.fetch, r
		} else {
			notArticle++
		}
	}
	if resp == nil {
		noLink += unnamed
	}
	if passed = passedOver(noLink, gallery, notArticle); resp == nil && passed == "" {
		passed = "it lists none"
	}
	return page, resp, passed, nil
}

// passedOver says how many items a trial passed over, by why.
func passedOver(noLink, gallery, notArticle int) string {
	var why []string
	for _, c := range []struct {
		n    int
		what string
	}{{noLink, "without a link"}, {gallery, "with a gallery URL"}, {notArticle, "not matching article_url"}} {
		if c.n > 0 {
			why = append(why, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	return strings.Join(why, ", ")
}
