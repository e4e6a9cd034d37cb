package watch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/neardup/neardup/internal/extract"
)

// ErrNotFeed is the error of a URL that answers with something other than
// a well-formed web feed: CheckFeed's, and a poll's.
var ErrNotFeed = errors.New("watch: not a feed")

// CheckFeed fetches the feed at feedURL, as the watcher would, and returns
// how many items it holds, or an error saying why it is no feed the watcher
// can poll: it cannot be fetched (a 404, a refused connection), or it is
// not RSS, Atom or JSON Feed (ErrNotFeed), an HTML page naming the feeds
// it links to. The connections it made are closed when it returns.
func CheckFeed(ctx context.Context, feedURL string, o Options) (int, error) {
	if err := o.Check(); err != nil {
		return 0, err
	}
	o = o.withDefaults()
	fetcher := newFetcher(&o)
	defer fetcher.close()
	resp, err := fetcher.get(ctx, request{url: feedURL})
	if err != nil {
		return 0, err
	}
	_, listed, err := parseFeed(resp.body, resp.contentType, o.MaxItems)
	if err == nil {
		return listed, nil
	}
	if !feedRoot(resp.body, resp.contentType) && extract.LooksHTML(resp.body, resp.contentType) {
		msg := "an HTML page, not a feed"
		if alt := feedLinks(resp.body, resp.url); len(alt) > 0 {
			for i := range alt {
				alt[i] = ShownURL(alt[i])
			}
			msg += "; it links to the feeds " + strings.Join(alt, ", ")
		}
		return 0, fmt.Errorf("%s: %s: %w", ShownURL(resp.url), msg, ErrNotFeed)
	}
	return 0, fmt.Errorf("%s: %w", ShownURL(resp.url), err)
}

// feedLinks returns the feeds an HTML page names in its head, by
// <link rel="alternate" type="application/rss+xml"> (Atom, JSON Feed
// alike), resolved against base.
func feedLinks(page []byte, base string) []string {
	b, err := url.Parse(base)
	if err != nil {
		return nil
	}
	var out []string
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out
		}
		name, hasAttr := z.TagName()
		if a := atom.Lookup(name); a == atom.Body {
			return out
		} else if a != atom.Link || !hasAttr || (tt != html.StartTagToken && tt != html.SelfClosingTagToken) {
			continue
		}
		attrs := map[string]string{}
		for more := true; more; {
			var k, v []byte
			k, v, more = z.TagAttr()
			attrs[strings.ToLower(string(k))] = string(v)
		}
		typ := strings.ToLower(attrs["type"])
		if !strings.EqualFold(attrs["rel"], "alternate") || !(strings.Contains(typ, "rss") || strings.Contains(typ, "atom") || strings.Contains(typ, "feed+json")) {
			continue
		}
		if ref, err := url.Parse(strings.TrimSpace(attrs["href"])); err == nil {
			out = append(out, b.ResolveReference(ref).String())
		}
	}
}
