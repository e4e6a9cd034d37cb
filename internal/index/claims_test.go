package index_test

import (
	"slices"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store/storetest"
	"github.com/neardup/neardup/internal/watch"
)

// TestClaimedURLKeysOfOlderIndexes: an index of schema version 10, whose
// watcher stored an article under the URL its page named as its own
// (rel=canonical, og:url), holds that URL's exact key, and the slug key of
// it, for a document whose URL is not its id (its item's link). Opened by
// this version, those keys are dropped: an article later fetched at the
// URL claimed, or of its slug, is compared by the method (the headline
// alone is shared: similar, no duplicate), not taken for the claiming
// page's exact copy. The content key stays (a copy of the
// claiming page's title and text is still its exact copy), and so do the
// URL keys of documents stored under their id, of documents whose id is no
// http(s) URL (a library's "doc-17") and of documents whose id and URL name
// one page in two forms (http and https, www., a trailing slash): a
// re-crawl of one address is still a copy by URL.
//
// Regression (reviewer's finding): a page stored by the older watcher kept
// its claim after the watcher stopped taking declared URLs, and the
// victim's article, fetched later, became its exact copy, its text never
// compared, the claiming page its original ({"by":"url"}). Regression
// (second finding): the migration first dropped the URL keys of every
// document whose URL was not its id, a library's of ids that are no URLs
// and those of one page in two forms too.
func TestClaimedURLKeysOfOlderIndexes(t *testing.T) {
	const victimURL = "https://victim.example/2026/storm-hits-the-coast"
	day := func(d int) time.Time { return time.Date(2026, 10, d, 9, 0, 0, 0, time.UTC) }
	for _, tc := range []struct {
		name string
		url  string // the URL of the victim's article
	}{
		{"by url", victimURL},
		{"by slug", "https://www.victim.example/2026/10/storm-hits-the-coast"},
	} {
		for _, e := range storetest.Engines {
			t.Run(tc.name+"/"+e, func(t *testing.T) {
				dsn := storetest.DSN(t, e)
				g := enginetest.NewTextGen(91)
				o := index.AddOptions{Exact: true, Slug: watch.Slug}
				x := open(t, dsn, index.OpenOptions{StoreText: true})
				evil := enginetest.Doc("https://evil.example/b/evil", g.Sentences(10))
				evil.URL, evil.Title, evil.Date = victimURL, "Storm hits the coast", day(1)
				kept := enginetest.Doc("https://site.example/news/1", g.Sentences(10))
				kept.URL, kept.Date = kept.ID, day(1)
				lib := enginetest.Doc("doc-17", g.Sentences(10))
				lib.URL, lib.Date = "https://lib.example/a/17", day(1)
				form := enginetest.Doc("http://site.example/news/x/", g.Sentences(10))
				form.URL, form.Date = "https://www.site.example/news/x?utm_source=feed", day(1)
				if _, err := x.Add(t.Context(), []core.Document{evil, kept, lib, form}, o); err != nil {
					t.Fatal(err)
				}
				x.Close()
				// The same index as the watcher of schema version 10 left it.
				storetest.Exec(t, dsn, `ALTER TABLE docs DROP COLUMN place`, `UPDATE schema_version SET version = 10`)

				x = open(t, dsn, index.OpenOptions{})
				victim := enginetest.Doc(tc.url, g.Sentences(10))
				victim.URL, victim.Title, victim.Date = tc.url, "Storm hits the coast", day(2)
				again := enginetest.Doc("https://site.example/r/1", g.Sentences(10)) // redirected to kept's address
				again.URL, again.Date = kept.URL, day(2)
				mirror := evil
				mirror.ID, mirror.URL = "https://evil.example/b/mirror", "https://evil.example/b/mirror"
				libAgain := enginetest.Doc("doc-18", g.Sentences(10))
				libAgain.URL, libAgain.Date = lib.URL, day(2)
				formAgain := enginetest.Doc("https://site.example/r/x", g.Sentences(10))
				formAgain.URL, formAgain.Date = form.URL, day(2)
				ms, err := x.Add(t.Context(), []core.Document{victim, again, mirror, libAgain, formAgain}, o)
				if err != nil {
					t.Fatal(err)
				}
				if m := ms[0]; m.Skip != core.SkipNone || m.Original != "" ||
					slices.ContainsFunc(m.Pairs, func(p core.Pair) bool { return p.Label == core.Duplicate }) {
					t.Errorf("the victim's article: %+v, want compared, no duplicate (the headline alone is shared)", m)
				}
				for _, c := range []struct {
					m      index.Match
					of, by string
				}{{ms[1], kept.ID, "url"}, {ms[2], evil.ID, "content"}, {ms[3], lib.ID, "url"}, {ms[4], form.ID, "url"}} {
					if c.m.Skip != core.SkipExactCopy || len(c.m.Pairs) != 1 || c.m.Pairs[0].A != c.of ||
						c.m.Pairs[0].Evidence.(index.ExactEvidence).By != c.by {
						t.Errorf("%s: %+v, want an exact copy of %s by %s", c.m.ID, c.m, c.of, c.by)
					}
				}
			})
		}
	}
}
