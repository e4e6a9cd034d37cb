package watch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mmcdole/gofeed"
	"golang.org/x/text/encoding/charmap"

	"github.com/neardup/neardup/internal/heappeak"
	"github.com/neardup/neardup/internal/store/storetest"
)

// capItems are n items linking to /0, /1, ... of example.com, dated an
// hour apart from /0, the oldest, when dated.
func capItems(n int, dated bool) []item {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	out := make([]item, n)
	for i := range out {
		out[i] = item{title: fmt.Sprint("story ", i), link: fmt.Sprint("http://example.com/", i)}
		if dated {
			out[i].date = base.Add(time.Duration(i) * time.Hour)
		}
	}
	return out
}

// indented is a JSON document indented, white space between its values.
func indented(t *testing.T, doc string) string {
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(doc), "", "  "); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// links are the links /i of example.com, for each i from lo to hi.
func links(lo, hi int) []string {
	var out []string
	for i := lo; i <= hi; i++ {
		out = append(out, fmt.Sprint("http://example.com/", i))
	}
	return out
}

// TestFeedItemsCut pins the bound on the items a feed's parse reads: a
// feed that lists more than twice maxItems has those between its first
// and its last maxItems left out before it is parsed, in every format,
// so that the newest maxItems, which a poll takes, are among those parsed
// whether the feed lists its items newest first or oldest first. Every
// item was parsed: 10 MB of 232,570 items took the parser 2.7 GB.
func TestFeedItemsCut(t *testing.T) {
	reversed := func(its []item) []item { its = slices.Clone(its); slices.Reverse(its); return its }
	latin1 := func(s string) string {
		s = strings.Replace(s, `encoding="UTF-8"`, `encoding="ISO-8859-1"`, 1)
		b, err := charmap.ISO8859_1.NewEncoder().String(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	accented := capItems(25, false)
	for i := range accented {
		accented[i].title = fmt.Sprint("café story ", i)
	}
	for _, c := range []struct {
		name string
		body string
		max  int
		want []string // the links of the newest max items, as a poll takes them
		kept int      // the items parsed
	}{
		{"RSS 2.0 undated, newest first", rss2(reversed(capItems(25, false))...), 5, links(20, 24), 10},
		{"RSS 2.0 dated, oldest first", rss2(capItems(25, true)...), 5, links(20, 24), 10},
		{"RSS 2.0 dated, newest first", rss2(reversed(capItems(25, true))...), 5, links(20, 24), 10},
		{"RSS 0.91", rss091(reversed(capItems(25, false))...), 5, links(20, 24), 10},
		{"RSS 1.0, newest first", rss1(reversed(capItems(25, true))...), 5, links(20, 24), 10},
		{"Atom, oldest first", atomFeed(capItems(25, false)...), 5, links(20, 24), 10},
		{"JSON Feed", jsonFeed(reversed(capItems(25, false))...), 5, links(20, 24), 10},
		{"JSON Feed, indented", indented(t, jsonFeed(reversed(capItems(25, false))...)), 5, links(20, 24), 10},
		{"JSON Feed, Items", strings.Replace(jsonFeed(reversed(capItems(25, false))...), `"items"`, `"Items"`, 1), 5, links(20, 24), 10},
		{"ISO-8859-1", latin1(rss2(reversed(accented)...)), 5, links(20, 24), 10},
		{"twice max", rss2(reversed(capItems(10, false))...), 5, links(5, 9), 10},
		{"no max", rss2(reversed(capItems(25, false))...), 0, links(0, 24), 25},
	} {
		t.Run(c.name, func(t *testing.T) {
			parsed, listed, err := parseFeed([]byte(c.body), "", c.max)
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.Count(c.body, "story "); listed != want {
				t.Errorf("lists %d items, want %d", listed, want)
			}
			if len(parsed.Items) != c.kept {
				t.Errorf("%d items parsed, want %d", len(parsed.Items), c.kept)
			}
			es, _ := entries("http://example.com/feed", parsed.Language, parsed.Items, parsed.bad)
			if c.max > 0 {
				es, _ = newest(es, c.max)
			}
			var got []string
			for _, e := range es {
				got = append(got, e.link)
				if !strings.HasPrefix(e.title, "story ") && !strings.HasPrefix(e.title, "café story ") {
					t.Errorf("title %q", e.title)
				}
			}
			slices.Sort(got)
			want := slices.Clone(c.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("taken %v, want %v", got, want)
			}
		})
	}
}

// TestFeedItemsCapped pins a poll of a feed of thousands of items: every
// new item was keyed, fetched (refused here, as the 10.x.y.z links of the
// 232,570 that took a poll 462 MB and 36 s) and stored. Now a poll takes
// the newest MaxItems, the first the feed lists, and says how many it
// left out as the feed's warning, its status ok; the next poll takes
// nothing new.
func TestFeedItemsCapped(t *testing.T) {
	x := newIndex(t)
	s := newSite(t)
	its := make([]item, 2000)
	for i := range its {
		its[i] = item{title: fmt.Sprint("item ", i), link: fmt.Sprintf("http://10.0.%d.%d/", i/250, i%250)}
	}
	s.serve("/feed", "application/rss+xml", rss2(its...))
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
	o := testOptions()
	o.MaxItems = 50
	var log bytes.Buffer
	o.Logger = slog.New(slog.NewTextHandler(&log, nil))
	w := newWatcher(t, x, o)
	r := once(t, w)[0]
	if r.Status != "ok" || r.Items != 2000 || r.New != 50 || r.Cut != 1950 || r.Outcomes[OutcomeRefused] != 50 {
		t.Errorf("%+v (%v), want ok, 2000 items, 50 new, 1950 cut", r, r.Err)
	}
	stored := storedItems(t, x, s.URL+"/feed")
	for _, it := range its[:50] {
		if _, ok := stored[Canonical(it.link)]; !ok {
			t.Errorf("%s, among the first listed, not stored", it.link)
		}
	}
	if len(stored) != 50 {
		t.Errorf("%d items stored, want 50", len(stored))
	}
	if !strings.Contains(log.String(), "level=WARN") || !strings.Contains(log.String(), "cut=1950") {
		t.Errorf("log %s, want a warning counting the items left out", log.String())
	}
	feeds, err := Feeds(t.Context(), x)
	if err != nil {
		t.Fatal(err)
	}
	if st := feeds[0].State; st.Cut != 1950 || st.Status != "ok" {
		t.Errorf("state %+v, want status ok, 1950 cut", st)
	}
	if r := once(t, w)[0]; r.New != 0 || r.Cut != 1950 {
		t.Errorf("second poll: %+v, want nothing new, 1950 cut", r)
	}
}

// TestForgetsItemsNoLongerListed pins the items kept of a feed whose
// links change on every poll: none was ever deleted, so that the rows of
// such a feed grew by its items every poll. Now a poll deletes, in the
// transaction that stores its state, the items the feed no longer lists
// past the ForgetFactor × MaxItems seen last; an item the feed still
// lists is kept however long ago it was seen, and not fetched again; the
// counts of the feed's items stay its totals. Both engines.
func TestForgetsItemsNoLongerListed(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(engine, func(t *testing.T) {
			x := newIndexAt(t, storetest.DSN(t, engine))
			s := newSite(t)
			pinned := newStory(41)
			s.serve("/pinned", "text/html", pinned.page("Daily", ""))
			addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
			o := testOptions()
			o.MaxItems = 5
			w := newWatcher(t, x, o)
			const polls = 15
			for p := range polls {
				var its []item
				for i := range 4 {
					its = append(its, item{title: fmt.Sprint("item ", p, i), link: fmt.Sprintf("http://10.1.%d.%d/", p, i)})
				}
				its = append(its, item{title: "pinned", link: s.URL + "/pinned"})
				s.serve("/feed", "application/rss+xml", rss2(its...))
				if r := once(t, w)[0]; r.Status != "ok" || r.Cut != 0 {
					t.Fatalf("poll %d: %+v (%v)", p, r, r.Err)
				}
			}
			stored := storedItems(t, x, s.URL+"/feed")
			if want := 5 + ForgetFactor*5; len(stored) != want {
				t.Errorf("%d items stored, want %d: the 5 listed and the %d seen last of the others", len(stored), want, ForgetFactor*5)
			}
			if it := stored[s.URL+"/pinned"]; it.Outcome != OutcomeAdded {
				t.Errorf("the item listed since the first poll: %+v, want kept, added", it)
			}
			if n := s.hit("/pinned"); n != 1 {
				t.Errorf("the page listed on every poll was fetched %d times, want once", n)
			}
			feeds, err := Feeds(t.Context(), x)
			if err != nil {
				t.Fatal(err)
			}
			f := feeds[0]
			if f.Items[OutcomeRefused] != 4*polls || f.Items[OutcomeAdded] != 1 {
				t.Errorf("item counts %v, want %d refused, 1 added: those forgotten counted", f.Items, 4*polls)
			}
			if n := f.State.Forgotten[OutcomeRefused]; n != 4*polls+1-len(stored) {
				t.Errorf("forgotten %v, want %d refused", f.State.Forgotten, 4*polls+1-len(stored))
			}
		})
	}
}

// BenchmarkParseManyItems parses a feed of 10 MB of 232,570 items linking
// to private addresses (a feed that makes each poll fetch and store every
// one), whole and cut to the newest DefaultMaxItems (2 × 1,000 parsed):
// the allocations per op are the parse's cost, the well-formedness check's
// included.
func BenchmarkParseManyItems(b *testing.B) {
	var feed bytes.Buffer
	feed.WriteString(`<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>T</title>`)
	for i := range 232570 {
		fmt.Fprintf(&feed, "<item><link>http://10.%d.%d.%d/</link></item>", i>>16&255, i>>8&255, i&255)
	}
	feed.WriteString(`</channel></rss>`)
	for _, max := range []int{0, DefaultMaxItems} {
		b.Run(fmt.Sprint("max=", max), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(feed.Len()))
			for b.Loop() {
				if _, n, err := parseFeed(feed.Bytes(), "application/rss+xml", max); err != nil || n != 232570 {
					b.Fatal(n, err)
				}
			}
		})
	}
}

// takes parses body as a poll does, with maxItems max, and returns how
// many items it lists and the links of those it takes, sorted.
func takes(t *testing.T, body string, max int) (int, []string) {
	t.Helper()
	parsed, listed, err := parseFeed([]byte(body), "", max)
	if err != nil {
		t.Fatal(err)
	}
	es, _ := entries("http://example.com/feed", parsed.Language, parsed.Items, parsed.bad)
	if max > 0 {
		es, _ = newest(es, max)
	}
	var got []string
	for _, e := range es {
		got = append(got, e.link)
	}
	slices.Sort(got)
	return listed, got
}

// TestFeedItemsCutAsGofeedReads pins the items the cut before the parse
// counts and leaves out: elements named item or entry of another
// namespace than the feed's, which gofeed reads as extensions, were
// counted and cut as items, so that a channel of 3 items between <x:item>
// extensions, taken 2 at most, had its 3 items cut as "the middle" of 9
// and a poll took nothing; and the items of a channel gofeed drops for a
// later one, and of a JSON Feed's "items" a later one replaces, were
// counted. Now it counts and cuts what gofeed lists: each feed here lists
// as many as gofeed reads of it whole, and a poll takes what it would of
// the feed parsed whole.
func TestFeedItemsCutAsGofeedReads(t *testing.T) {
	story := func(i int) string {
		return fmt.Sprintf(`<item><title>s%d</title><link>http://example.com/s%d</link></item>`, i, i)
	}
	ext := func(prefix, name string, i int) string {
		return fmt.Sprintf(`<%s:%s><title>x%d</title><link>http://example.com/x%d</link></%[1]s:%[2]s>`, prefix, name, i, i)
	}
	const rssHead = `<rss version="2.0" xmlns:x="http://example.com/x" xmlns:foo="http://example.com/foo" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>T</title>`
	var between, following, atomFollowing, twoChannels strings.Builder
	for i := range 3 {
		between.WriteString(ext("x", "item", i))
	}
	for i := range 3 {
		between.WriteString(story(i))
	}
	for i := 3; i < 6; i++ {
		between.WriteString(ext("x", "item", i))
	}
	for i := range 9 {
		following.WriteString(story(i) + ext("foo", "item", i))
		fmt.Fprintf(&atomFollowing, `<entry><title>s%d</title><link href="http://example.com/s%[1]d"/><id>urn:s%[1]d</id></entry><x:entry><title>x%[1]d</title><link href="http://example.com/x%[1]d"/></x:entry>`, i)
		twoChannels.WriteString(story(i + 10))
	}
	jsonItems := func(lo, hi int) string {
		var its []string
		for i := lo; i < hi; i++ {
			its = append(its, fmt.Sprintf(`{"id": "%d", "url": "http://example.com/s%[1]d"}`, i))
		}
		return "[" + strings.Join(its, ", ") + "]"
	}
	for _, c := range []struct {
		name, body string
		want       []string // the links a poll takes, 2 at most
	}{
		{"RSS items between <x:item>s", rssHead + between.String() + `</channel></rss>`, []string{"http://example.com/s0", "http://example.com/s1"}},
		{"RSS items each followed by <foo:item>", rssHead + following.String() + `</channel></rss>`, []string{"http://example.com/s0", "http://example.com/s1"}},
		{"Atom entries each followed by <x:entry>", `<feed xmlns="http://www.w3.org/2005/Atom" xmlns:x="http://example.com/x"><title>T</title>` + atomFollowing.String() + `</feed>`, []string{"http://example.com/s0", "http://example.com/s1"}},
		{"two channels", `<rss version="2.0"><channel><title>A</title>` + twoChannels.String() + `</channel><channel><title>B</title>` + story(0) + `</channel></rss>`, []string{"http://example.com/s0"}},
		{"items beside a channel", `<rss version="2.0">` + story(0) + `<channel><title>A</title>` + story(1) + story(2) + story(3) + story(4) + story(5) + `</channel></rss>`, []string{"http://example.com/s1", "http://example.com/s2"}},
		{"RSS of the root's namespace", `<rss version="2.0" xmlns="http://example.com/own"><channel><title>T</title>` + following.String() + `</channel></rss>`, nil},
		{"RSS in the Atom namespace", `<rss version="2.0" xmlns="http://www.w3.org/2005/Atom"><channel><title>T</title>` + following.String() + `</channel></rss>`, nil},
		{"undeclared prefix rss", `<rss version="2.0"><channel><title>T</title>` + ext("rss", "item", 0) + ext("zz", "item", 1) + ext("rss", "item", 2) + ext("zz", "item", 3) + story(0) + story(1) + story(2) + `</channel></rss>`, nil},
		{"JSON Feed, items twice", `{"version": "https://jsonfeed.org/version/1.1", "items": ` + jsonItems(20, 25) + `, "Items": ` + jsonItems(0, 9) + `}`, []string{"http://example.com/s0", "http://example.com/s1"}},
		{"JSON Feed, items then null", `{"version": "https://jsonfeed.org/version/1.1", "items": ` + jsonItems(0, 9) + `, "ITEMS": null}`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			whole, err := gofeed.NewParser().Parse(strings.NewReader(c.body))
			if err != nil {
				t.Fatal(err)
			}
			if n, _ := takes(t, c.body, 0); n != len(whole.Items) {
				t.Fatalf("read whole: %d items listed, gofeed reads %d", n, len(whole.Items))
			}
			listed, taken := takes(t, c.body, 2)
			if listed != len(whole.Items) {
				t.Errorf("%d items listed, gofeed reads %d", listed, len(whole.Items))
			}
			// What a poll would take of the feed parsed whole, its 2 newest.
			parsed, _, _ := parseFeed([]byte(c.body), "", 0)
			es, _ := entries("http://example.com/feed", parsed.Language, parsed.Items, parsed.bad)
			es, _ = newest(es, 2)
			var want []string
			for _, e := range es {
				want = append(want, e.link)
			}
			slices.Sort(want)
			if c.want != nil && !slices.Equal(want, c.want) {
				t.Fatalf("the test's feed: whole, a poll takes %v, want %v", want, c.want)
			}
			if !slices.Equal(taken, want) {
				t.Errorf("taken %v, want %v, as of the feed parsed whole", taken, want)
			}
		})
	}
}

// TestFeedItemsCutInNoOrder pins the cut of a feed that lists its dated
// items in no order: its first and last maxItems were kept, so that of
// /0 /1 /5 /6 /2 /3 /4, taken 2, a poll took /3 and /4, where parsed
// whole it takes the newest, /5 and /6. Now the cut keeps the latest
// maxItems by their dates too, in every format, and a poll takes what it
// would of the feed parsed whole, the parser reading 3 × maxItems at most.
func TestFeedItemsCutInNoOrder(t *testing.T) {
	jsonDated := func(its ...item) string {
		var out []string
		for _, it := range its {
			out = append(out, fmt.Sprintf(`{"id": %q, "url": %[1]q, "date_published": %q}`, it.link, it.date.Format(time.RFC3339)))
		}
		return `{"version": "https://jsonfeed.org/version/1.1", "items": [` + strings.Join(out, ", ") + `]}`
	}
	order := func(its []item, at ...int) []item {
		var out []item
		for _, i := range at {
			out = append(out, its[i])
		}
		return out
	}
	sorted := func(s []string) []string { slices.Sort(s); return s }
	seven := order(capItems(7, true), 0, 1, 5, 6, 2, 3, 4)
	shuffled := order(capItems(50, true), rand.New(rand.NewPCG(1, 2)).Perm(50)...)
	for _, f := range []struct {
		name   string
		render func(...item) string
	}{{"RSS 2.0", rss2}, {"RSS 1.0", rss1}, {"Atom", atomFeed}, {"JSON Feed", jsonDated}} {
		for _, c := range []struct {
			name string
			its  []item
			max  int
			want []string
		}{
			{"/0 /1 /5 /6 /2 /3 /4", seven, 2, links(5, 6)},
			{"50 shuffled", shuffled, 5, links(45, 49)},
		} {
			t.Run(f.name+", "+c.name, func(t *testing.T) {
				body := f.render(c.its...)
				if n, taken := takes(t, body, 0); n != len(c.its) || !slices.Equal(taken, sorted(links(0, len(c.its)-1))) {
					t.Fatalf("read whole: %d items listed, %v", n, taken)
				}
				listed, taken := takes(t, body, c.max)
				if listed != len(c.its) || !slices.Equal(taken, sorted(c.want)) {
					t.Errorf("%d listed, taken %v, want %d, %v", listed, taken, len(c.its), c.want)
				}
				if parsed, _, _ := parseFeed([]byte(body), "", c.max); len(parsed.Items) > 3*c.max {
					t.Errorf("%d items parsed, want %d at most", len(parsed.Items), 3*c.max)
				}
			})
		}
	}
}

// A feed that lists many small items costs memory bounded by maxItems,
// not by the items it lists: the cut held every item, a JSON Feed's as a
// raw message and an XML feed's as an extent, so that 9 MB of 3,000,000
// "{}" items took 375 MB to poll and 9.8 MB of 1,400,000 "<item/>" 313 MB.
// The live heap while the feed is parsed (cut to 3 × 10 items, the
// collector run often) grows by under four times the body's size.
func TestFeedItemsCutMemoryBounded(t *testing.T) {
	const n = 1_000_000
	for _, c := range []struct {
		name string
		body string
	}{
		{"JSON Feed", `{"version": "https://jsonfeed.org/version/1.1", "items": [` + strings.Repeat(`{},`, n-1) + `{}]}`},
		{"RSS", `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>` + strings.Repeat("<item/>", n) + `</channel></rss>`},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := []byte(c.body)
			peak := heapPeak(t, func() {
				f, listed, err := parseFeed(body, "", 10)
				if err != nil || listed != n || len(f.Items) != 20 {
					t.Errorf("parsed %d items of %d listed, %v; want 20 of %d", len(f.Items), listed, err, n)
				}
			})
			if limit := uint64(4 * len(body)); peak > limit {
				t.Errorf("the heap grew by %d MB parsing a feed of %d MB, want at most %d MB", peak>>20, len(body)>>20, limit>>20)
			}
		})
	}
}

// heapPeak runs f, the collector run often, and returns by how much the
// heap the collector found live grew at most while it ran, as sampled:
// garbage not yet collected, which the machine's cores make more or less
// of, is not counted.
func heapPeak(t *testing.T, f func()) uint64 {
	t.Helper()
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	runtime.GC()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	_, live := heappeak.Of(time.Millisecond, f)
	if live < base {
		return 0
	}
	return live - base
}
