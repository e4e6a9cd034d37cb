package watch

import (
	"context"
	"strconv"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/extract"
)

// Trial is what a site rule makes of a page: the page's canonical URL and
// the article extracted, or why there is none.
type Trial struct {
	URL       string          `json:"url"`               // after redirects
	Canonical string          `json:"canonical"`         // the URL the article is stored under
	Gallery   string          `json:"gallery,omitempty"` // why the watcher takes the page for a gallery, video or picture page and skips it; "" when it does not
	Skip      core.SkipReason `json:"skipped,omitempty"`
	Article   extract.Article `json:"article"`
}

// Try fetches the page at pageURL and extracts its article with rule (nil:
// Options.Rules), as the watcher would for an item of a feed with that
// rule, storing nothing: a site rule can be checked before it is saved.
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
	t := Trial{}
	if word := w.galleryURL(Canonical(pageURL)); word != "" {
		t.Gallery = "the URL has the gallery word " + strconv.Quote(word) + "; the watcher skips it without fetching it"
	}
	resp, err := newFetcher(&o).get(ctx, request{url: pageURL})
	if err != nil {
		return t, err
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
