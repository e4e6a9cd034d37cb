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
		if f.Page, f.Passed = w.tryItem(resp.url, parsed.Language, parsed.Items, rs); f.Page == "" {
			return t, fmt.Errorf("%s: a feed (%s), not an article page, and no item of it links to a page the watcher would extract (%s): give the URL of an article page",
				ShownURL(resp.url), f.Format, f.Passed)
		}
		if resp, err = fetcher.get(ctx, request{url: f.Page}); err != nil {
			return t, fmt.Errorf("the newest item of feed %s: %w", ShownURL(f.URL), err)
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

// tryItem returns the URL the page of the newest of a feed's items that
// the watcher would fetch and extract with the rules rs is fetched from:
// one with a link (see entries: feedURL, the URL the feed was read from,
// resolves relative links, and lang is the feed's language), not a gallery
// URL, matching its rule's article_url if any. passed counts the newer
// items passed over by why ("2 with a gallery URL, 1 not matching
// article_url"); with no page, every item.
func (w *Watcher) tryItem(feedURL, lang string, items []*gofeed.Item, rs *rules.Set) (page, passed string) {
	es, unnamed := entries(feedURL, lang, items)
	var noLink, gallery, notArticle int
	for i := len(es) - 1; i >= 0 && page == ""; i-- {
		e := es[i]
		switch outcome, _ := w.unfetched(e); {
		case outcome == OutcomeNoLink:
			noLink++
		case outcome == OutcomeGallery:
			gallery++
		case !rs.Match(e.fetch).IsArticleURL(e.fetch):
			notArticle++
		default:
			page = e.fetch
		}
	}
	if page == "" {
		noLink += unnamed
	}
	var why []string
	for _, c := range []struct {
		n    int
		what string
	}{{noLink, "without a link"}, {gallery, "with a gallery URL"}, {notArticle, "not matching article_url"}} {
		if c.n > 0 {
			why = append(why, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	if page == "" && len(why) == 0 {
		return "", "it lists none"
	}
	return page, strings.Join(why, ", ")
}
