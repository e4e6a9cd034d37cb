package watch

import (
	"context"
	"fmt"
	"strconv"

	"github.com/mmcdole/gofeed"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/extract"
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
}

// feedFormats names gofeed's feed types as users know them.
var feedFormats = map[string]string{"rss": "RSS", "atom": "Atom", "json": "JSON Feed"}

// Try fetches the page at pageURL and extracts its article with rule (nil:
// Options.Rules), as the watcher would for an item of a feed with that
// rule, storing nothing: a site rule can be checked before it is saved.
// When pageURL answers with a feed (RSS, Atom, JSON Feed), which a rule is
// not for, it tries the page of the feed's newest item that has a link and
// says so in Trial.Feed; a feed with none is an error.
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
		t.Feed = &FeedTrial{URL: resp.url, Format: feedFormats[parsed.FeedType], Items: len(parsed.Items)}
		if pageURL = newestLink(resp.url, parsed.Language, parsed.Items); pageURL == "" {
			return t, fmt.Errorf("%s: a feed (%s), not an article page, and no item of it links to a page to try: give the URL of an article page",
				ShownURL(resp.url), t.Feed.Format)
		}
		t.Gallery = w.galleryNote(pageURL)
		if resp, err = fetcher.get(ctx, request{url: pageURL}); err != nil {
			return t, err
		}
	}
	t.URL = resp.url
	if t.Canonical = pageCanonical(resp.body, resp.url); t.Canonical == "" {
		t.Canonical = Canonical(resp.url)
	}
	t.Canonical = withoutUser(t.Canonical) // as the watcher stores it
	t.Article, t.Skip, err = extract.Page(ctx, extract.Input{URL: resp.url, ContentType: resp.contentType, Body: resp.body},
		extract.Options{Rules: rs, MinChars: o.MinChars, MaxBytes: o.MaxBytes})
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

// newestLink returns the URL the page of the newest of a feed's items with
// a link is fetched from, as the watcher keys them (see entries): feedURL,
// the URL the feed was read from, resolves relative links, and lang is the
// feed's language. It returns "" when no item has a link.
func newestLink(feedURL, lang string, items []*gofeed.Item) string {
	es, _ := entries(feedURL, lang, items)
	for i := len(es) - 1; i >= 0; i-- {
		if es[i].link != "" {
			return es[i].fetch
		}
	}
	return ""
}
