package watch

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mmcdole/gofeed"
	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/internal/extract/rules"
	"github.com/neardup/neardup/internal/outbound"
)

// entry is a feed item as the watcher keys it.
type entry struct {
	key   string // the canonical link, else textKey, else the GUID
	link  string // the canonical link, without a user name or password; "" when none
	fetch string // the URL its page is fetched from: the link as the feed gives it, resolved against the feed's URL (with the user and password it holds or took from a private feed's URL), its host normalised (normalHost), without its fragment
	other string // the link as the feed gives it when it is no http or https URL with a host (ftp://..., javascript:...), which the watcher does not fetch; "" when none
	id    string // the id of its article, articleID(link); "" when no link
	title string
	date  time.Time // itemDate, in the zone the item names
	lang  string    // the feed's language, which says which zone a name is when the page's does not
	bad   string    // why the item does not decode (a JSON Feed's: see parsedFeed); "" when it does
}

// articleID is the id of the article of an item's canonical link: the link
// itself, or, for a link longer than an id may be (core.MaxIDBytes), "link-"
// and the first 16 bytes of its SHA-256 in hex, the same on every pass.
func articleID(link string) string {
	if len(link) <= core.MaxIDBytes {
		return link
	}
	h := sha256.Sum256([]byte(link))
	return "link-" + hex.EncodeToString(h[:16])
}

// entries keys a feed's items, oldest first (by date when every item has
// one, else the reverse of the feed's order, newest first as feeds list),
// each key once, and counts those with no key (no link, no text, no
// GUID), left out. An item is keyed by its link, else by its text (see
// textKey), else by its GUID. Relative links are resolved against feedURL,
// the URL the feed was read from after redirects; lang is the feed's
// language, and bad says why those of the items that do not decode do not
// (see parsedFeed), keyed as the others by what of them decodes.
func entries(feedURL, lang string, items []*gofeed.Item, bad map[*gofeed.Item]string) (out []entry, unnamed int) {
	base, _ := url.Parse(feedURL)
	dated := true
	seen := map[string]bool{}
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		e := entry{title: core.Storable(strings.TrimSpace(it.Title)), lang: lang, bad: bad[it]}
		if link := strings.TrimSpace(it.Link); link != "" {
			e.other = link // unless it is a page's, below
			if ref, err := url.Parse(link); err == nil && base != nil {
				if abs := base.ResolveReference(ref); (abs.Scheme == "http" || abs.Scheme == "https") && abs.Host != "" {
					// The page is fetched at the link as the feed gives it,
					// its scheme and host in lower case, without a default
					// port or a fragment: the canonical link is a key, and
					// a server may tell apart what it merges (the order of
					// the parameters). The password a link holds, or takes
					// from the feed's URL, opens its page; it is no part of
					// the article's id or URL, which the index stores and
					// shows.
					normalHost(abs)
					abs.Fragment, abs.RawFragment = "", ""
					raw := abs.RawQuery
					abs.RawQuery = escapeQuery(raw) // as sent; the key keeps it as the feed gives it
					e.fetch = abs.String()
					abs.RawQuery = raw
					abs.User = nil
					e.link = Canonical(abs.String())
					e.other = ""
				}
			}
		}
		e.key, e.id = e.link, articleID(e.link)
		if e.key == "" {
			e.key = textKey(it)
		}
		if e.key == "" {
			e.key = core.Storable(strings.TrimSpace(it.GUID))
		}
		if e.key == "" {
			unnamed++
			continue
		}
		if seen[e.key] {
			continue
		}
		seen[e.key] = true
		if e.date = itemDate(it); e.date.IsZero() {
			dated = false
		}
		out = append(out, e)
	}
	if dated {
		slices.SortStableFunc(out, func(a, b entry) int { return a.date.Compare(b.date) })
	}
	return out, unnamed
}

// textKey is the key of an item without a link: "text:" and the first 16
// bytes, in hex, of the SHA-256 of its title, description and content,
// their white space collapsed; "" when it has none of them. Such an item
// has no page to fetch, and its text is what it is: a feed that gives it a
// new GUID on every poll (made of the time, say) yields it once, where
// each poll stored it again, and an item whose text changes is another.
func textKey(it *gofeed.Item) string {
	h := sha256.New()
	empty := true
	for _, s := range []string{it.Title, it.Description, it.Content} {
		words := strings.Fields(s)
		empty = empty && len(words) == 0
		io.WriteString(h, strings.Join(words, " "))
		h.Write([]byte{0})
	}
	if empty {
		return ""
	}
	return "text:" + hex.EncodeToString(h.Sum(nil)[:16])
}

// newest returns the last max of es, entries oldest first (see entries):
// the newest; and how many it left out.
func newest(es []entry, max int) ([]entry, int) {
	if len(es) <= max {
		return es, 0
	}
	return es[len(es)-max:], len(es) - max
}

// fetchItems deals with the parsed feed's new items of the newest
// Options.MaxItems, their relative links resolved against base (see
// entries), a chunk at a time: each page fetched and extracted, with the
// feed's compiled site rule rs (nil for none: Options.Rules), then the
// chunk's articles added to the index with the items' outcomes, in one
// transaction. It returns the keys of the items taken, which the index
// keeps remembering (see Watcher.poll), or stopped true when ctx was done
// before it took them all, having stored what it fetched before. A feed
// removed meanwhile stops it with an error wrapping neardup.ErrFeedGone,
// its chunk not stored.
func (w *Watcher) fetchItems(ctx context.Context, feed int64, f *Feed, rs *rules.Set, state *State, base string, parsed *parsedFeed, res *Result) (keys []string, stopped bool, err error) {
	es, unnamed := entries(base, parsed.Language, parsed.Items, parsed.bad)
	res.Unnamed = unnamed
	es, dropped := newest(es, w.o.MaxItems)
	res.Cut = res.Items - len(parsed.Items) + dropped // cut before the parse, and after
	state.Cut = res.Cut
	state.PageHost = pagesHost(es, state.PageHost)
	keys, ids := make([]string, len(es)), make([]string, 0, len(es))
	for i, e := range es {
		keys[i] = e.key
		if e.id != "" {
			ids = append(ids, e.id)
		}
	}
	var prev map[string]neardup.FeedItem
	var stored map[string]int64
	err = w.st.ViewFeeds(ctx, func(r neardup.FeedReader) error {
		var err error
		if prev, err = r.FeedItems(feed, keys); err != nil {
			return err
		}
		stored, err = r.Lookup(ids)
		return err
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, true, nil // stopped before it took any
		}
		return nil, false, fmt.Errorf("feed %s: reading its items: %w", ShownURL(f.URL), err)
	}
	var todo []entry
	for _, e := range es {
		if p, ok := prev[e.key]; ok && (p.Outcome != OutcomeError || p.Tries >= maxTries) {
			continue
		}
		todo = append(todo, e)
	}
	res.New = len(todo)
	state.Retries = 0
	if rs == nil {
		rs = w.o.Rules
	}
	counted := map[string]string{} // item → the outcome of an article stored, as counted
	res.feed, res.counted = feed, counted
	defer func() {
		if !errors.Is(err, neardup.ErrFeedGone) { // a pass that failed after some chunks stored them too
			w.recount(context.WithoutCancel(ctx), feed, counted, res)
		}
	}()
	for lo := 0; lo < len(todo); lo += w.o.Chunk {
		var docs []core.Document
		var rows []neardup.FeedItem
		var rowOf []int // by document
		var miss string // the site rule's miss on a page
		cut := false    // stopped before the chunk's last item
		for _, e := range todo[lo:min(lo+w.o.Chunk, len(todo))] {
			row := neardup.FeedItem{Feed: feed, Item: e.key, Seen: time.Now().Unix(), Tries: prev[e.key].Tries}
			var doc *core.Document
			if _, ok := stored[e.id]; ok && e.id != "" {
				row.Outcome, row.Doc = OutcomeExists, e.id
			} else if doc, err = w.page(ctx, f, rs, state.BrowserUA, e, &row, &miss); err != nil {
				cut = true
				break // stopped: what the chunk fetched before is stored below
			}
			if miss != "" {
				res.RuleMisses++
				state.RuleMiss, miss = miss, ""
			}
			if row.Outcome == OutcomePaused {
				res.Outcomes[OutcomePaused]++ // not stored: a later pass takes it again
				state.Retries++
				continue
			}
			if doc != nil {
				docs = append(docs, *doc)
				rowOf = append(rowOf, len(rows))
			}
			rows = append(rows, row)
		}
		if len(rows) == 0 {
			if ctx.Err() != nil {
				return nil, true, nil // stopped at the chunk's first page
			}
			continue // every item of the chunk paused
		}
		if err := w.store(ctx, docs, rows, rowOf, prev); err != nil {
			if errors.Is(err, neardup.ErrFeedGone) {
				res.Discarded = len(rows) // the chunk's transaction stored none of them
			}
			return nil, false, fmt.Errorf("feed %s: storing its articles: %w", ShownURL(f.URL), err)
		}
		for _, r := range rows {
			res.Outcomes[r.Outcome]++
			if r.Outcome == OutcomeError && r.Tries < maxTries {
				state.Retries++
			}
			if relabelled[r.Outcome] {
				counted[r.Item] = r.Outcome
			}
		}
		if cut || ctx.Err() != nil && lo+w.o.Chunk < len(todo) {
			return nil, true, nil // stopped with items left
		}
	}
	return keys, false, nil
}

// relabelled are the outcomes of an article stored, which the index gives
// its item again when a later add or removal changes its role.
var relabelled = map[string]bool{OutcomeAdded: true, OutcomeSimilar: true, OutcomeDuplicate: true}

// recount moves the pass's counts (res.Outcomes) of the items of counted,
// by item the outcome each was counted with, to the outcome the index
// holds for it now: a later chunk's add relabels an earlier chunk's items
// (an article a later copy of both puts in the wire's cluster becomes a
// duplicate), so that the counts say what is stored. The counts stay as
// they were when the items cannot be read.
func (w *Watcher) recount(ctx context.Context, feed int64, counted map[string]string, res *Result) {
	if len(counted) == 0 {
		return
	}
	var now map[string]neardup.FeedItem
	err := w.st.ViewFeeds(ctx, func(r neardup.FeedReader) error {
		var err error
		now, err = r.FeedItems(feed, slices.Collect(maps.Keys(counted)))
		return err
	})
	if err != nil {
		return
	}
	for item, was := range counted {
		if it, ok := now[item]; ok && it.Outcome != was && relabelled[it.Outcome] {
			if res.Outcomes[was]--; res.Outcomes[was] == 0 {
				delete(res.Outcomes, was) // no outcome is counted 0
			}
			res.Outcomes[it.Outcome]++
			counted[item] = it.Outcome
		}
	}
}

// unfetched returns the outcome of an item whose page the watcher does
// not fetch, and its detail: no link (the title shows which item it is,
// when keyed by its text's hash), a link that is no http or https URL
// (which the detail quotes: see otherLink), or a gallery URL; "" for one
// it fetches.
func (w *Watcher) unfetched(e entry) (outcome, detail string) {
	switch {
	case e.link == "" && e.other != "":
		return OutcomeNoLink, otherLink(e.other)
	case e.link == "":
		return OutcomeNoLink, e.title
	}
	if word := w.galleryURL(e.link); word != "" {
		return OutcomeGallery, "the URL has the gallery word " + strconv.Quote(word)
	}
	return "", ""
}

// otherLink says why an item's link, as the feed gives it, is no page's:
// `link "ftp://example.com/a" is not http or https`, and a link of http
// without a host or that does not parse so. The link is shown without a
// password (ShownURL; an opaque one, "mailto:desk@example.com", has none,
// and is shown as it is), its bytes that are not UTF-8 as U+FFFD, its
// control characters escaped, and cut at maxShownLink bytes.
func otherLink(link string) string {
	shown := core.Storable(link)
	u, err := url.Parse(link)
	if err != nil || u.Opaque == "" {
		shown = ShownURL(shown)
	}
	if len(shown) > maxShownLink {
		n := maxShownLink
		for n > 0 && !utf8.RuneStart(shown[n]) {
			n--
		}
		shown = shown[:n] + "…"
	}
	switch {
	case err != nil:
		return fmt.Sprintf("link %s is not a URL", strconv.Quote(shown))
	case u.Scheme == "" || strings.EqualFold(u.Scheme, "http") || strings.EqualFold(u.Scheme, "https"):
		return fmt.Sprintf("link %s names no host", strconv.Quote(shown))
	}
	return fmt.Sprintf("link %s is not http or https", strconv.Quote(shown))
}

// maxShownLink bounds the part of a link an item's detail quotes.
const maxShownLink = 200

// page fetches and extracts an item's page, and returns its article, or
// nil with the item's outcome set; *miss says when the site rule's body
// selector matched nothing on the page (also the item's detail). An item
// that does not decode whole is read as what of it decodes (its member of
// the wrong type left out), with a warning: its page is what the watcher
// stores, and a link that decoded finds it. It returns an error only when
// ctx is done.
func (w *Watcher) page(ctx context.Context, f *Feed, rs *rules.Set, browser bool, e entry, row *neardup.FeedItem, miss *string) (*core.Document, error) {
	if e.bad != "" {
		w.log.Warn("item read in part", "feed", ShownURL(f.URL), "item", cmp.Or(e.link, e.key), "error", "the item does not decode whole: "+e.bad)
	}
	if outcome, detail := w.unfetched(e); outcome != "" {
		row.Outcome, row.Detail = outcome, detail
		return nil, nil
	}
	fail := func(outcome string, err error, transient bool) (*core.Document, error) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		row.Outcome, row.Detail = outcome, err.Error()
		if transient {
			row.Tries++
		} else {
			row.Tries = maxTries
		}
		w.log.Warn("item failed", "feed", ShownURL(f.URL), "item", e.link, "outcome", outcome, "error", err)
		return nil, nil
	}
	resp, err := w.fetch.get(ctx, request{url: e.fetch, browser: browser})
	if unasked(err) {
		row.Outcome, row.Detail = OutcomePaused, err.Error()
		return nil, nil // not asked: no try counted
	}
	w.keepPause(ctx, err)
	if err != nil {
		if errors.Is(err, ErrTooLarge) {
			return fail(string(extract.SkipTooLarge), err, false)
		}
		if errors.Is(err, outbound.ErrRefused) {
			return fail(OutcomeRefused, err, false)
		}
		return fail(OutcomeError, err, transient(err))
	}
	a, skip, err := extract.Page(ctx, extract.Input{URL: resp.url, ContentType: resp.contentType, Body: resp.body},
		extract.Options{Rules: rs, MinChars: w.o.MinChars, MaxBytes: w.o.MaxBytes})
	if err != nil {
		return fail(OutcomeError, err, false)
	}
	row.Lang = a.Lang
	if a.RuleMiss != "" {
		row.Detail, *miss = a.RuleMiss, a.RuleMiss
		w.log.Warn("site rule matched nothing; extracted without it", "feed", ShownURL(f.URL), "item", e.link, "rule", a.RuleMiss)
	}
	if skip != core.SkipNone {
		row.Outcome = string(skip)
		return nil, nil
	}
	if word := w.galleryText(a.Text); word != "" {
		row.Outcome, row.Detail = OutcomeGallery, "the text starts with the gallery word "+strconv.Quote(word)
		return nil, nil
	}
	page, source := articleURL(resp.url)
	d := &core.Document{ID: e.id, Title: cutTitle(cmp.Or(a.Title, e.title)), Text: a.Text, URL: page, Source: source, Date: a.Date, Origin: f.URL}
	if d.Date.IsZero() {
		// The item's date, its zone's name read in the page's language,
		// else the feed's: CST in Chinese is China's.
		d.Date = extract.WithLanguageZone(e.date, cmp.Or(a.Lang, e.lang))
	}
	row.Doc = d.ID
	return d, nil
}

// articleURL returns the URL and the source (its host, siteOf) of the
// article of a page fetched from fetched, the address after redirects:
// the canonical form of fetched, without a user name or password, when an
// index stores it with its source (see storable: a URL of at most
// core.MaxURLBytes, of UTF-8, a source of at most core.MaxSourceBytes).
// When it does not, the article has no URL, and the source is fetched's
// when an index stores it: a URL cut short would be no address. What the
// page says of itself (<link rel="canonical">, og:url) is not taken: a
// page may name any address, and the index takes two articles of one URL
// for one page fetched twice, an exact copy whose text it never compares.
func articleURL(fetched string) (page, source string) {
	if u := withoutUser(Canonical(fetched)); u != "" {
		if site := siteOf(u); storable(core.Document{URL: u, Source: site}) {
			return u, site
		}
	}
	if site := siteOf(fetched); storable(core.Document{Source: site}) {
		return "", site
	}
	return "", ""
}

// storable reports whether an index stores d's fields (see
// index.CheckStorable): none too long, none not UTF-8.
func storable(d core.Document) bool {
	field, _ := d.UnstorableField()
	overlong, _ := d.OverlongField()
	return field == "" && overlong == ""
}

// cutTitle returns title cut, at the start of a character, to the longest
// an index stores (core.MaxTitleBytes).
func cutTitle(title string) string {
	if len(title) <= core.MaxTitleBytes {
		return title
	}
	n := core.MaxTitleBytes
	for n > 0 && !utf8.RuneStart(title[n]) {
		n--
	}
	return title[:n]
}

// store adds docs to the index and stores rows, the items' outcomes, in one
// transaction; rowOf[i] is the row of docs[i], and prev the items as the
// pass read them before it fetched their pages (see keepStored). An
// article published before stored copies of it, which arrived first, makes
// them duplicates: the rows of this pass made into them are stored as
// duplicates, and the index makes the stored items of every feed made into
// them duplicates in the same transaction (see index.Index.Add). It runs
// to the end even when ctx is done, so that a stopped pass keeps what it
// fetched.
func (w *Watcher) store(ctx context.Context, docs []core.Document, rows []neardup.FeedItem, rowOf []int, prev map[string]neardup.FeedItem) error {
	ctx = context.WithoutCancel(ctx)
	save := func(wr neardup.FeedWriter, ms []neardup.Match) error {
		// The index gives the items of the add's late copies, and of the
		// clusters it touched, their documents' roles once this returns
		// (in the same transaction); the pass counts them again at its
		// end (recount).
		for i, m := range ms {
			rows[rowOf[i]].Outcome = outcome(&m)
		}
		saved, err := keepStored(wr, rows, prev)
		if err != nil {
			return err
		}
		return wr.SaveItems(saved)
	}
	if len(docs) == 0 {
		return w.st.UpdateFeeds(ctx, func(wr neardup.FeedWriter) error { return save(wr, nil) })
	}
	_, err := w.x.AddSketched(ctx, docs, nil, neardup.AddOptions{Exact: true, Slug: Slug, Then: save})
	return err
}

// keepStored returns the rows of a pass's items to store (rows, of one
// feed, are left as the pass found them): an item whose article the pass
// found stored already (OutcomeExists), or whose page it failed to fetch
// (OutcomeError), keeps its stored row when another pass stored the item
// after this one read it (prev), as a second watcher polling the feed at
// the same moment does. That pass's outcome (added, duplicate, ...) is the
// item's, which "exists" would hide and a failure of this pass's fetch
// would undo; a stored error is replaced as before.
func keepStored(r neardup.FeedReader, rows []neardup.FeedItem, prev map[string]neardup.FeedItem) ([]neardup.FeedItem, error) {
	var keys []string
	for _, row := range rows {
		if row.Outcome == OutcomeExists || row.Outcome == OutcomeError {
			keys = append(keys, row.Item)
		}
	}
	if len(keys) == 0 {
		return rows, nil
	}
	now, err := r.FeedItems(rows[0].Feed, keys)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(rows)
	for i := range out {
		cur, ok := now[out[i].Item]
		if (out[i].Outcome == OutcomeExists || out[i].Outcome == OutcomeError) && ok && cur != prev[out[i].Item] && cur.Outcome != OutcomeError {
			out[i] = cur
		}
	}
	return out, nil
}

// outcome is an added article's outcome, its role in the index once the
// add is done: a duplicate when it copies an article published before it
// (core.Pair.Original) or is in a cluster whose original is another, not
// when it is the original of stored copies.
func outcome(m *neardup.Match) string {
	switch {
	case m.Status == neardup.Exists || m.Status == neardup.Conflict:
		// An article of its URL is stored (Conflict: one that read
		// otherwise then, as a page updated since): left as it is.
		return OutcomeExists
	case m.Skip != core.SkipNone && m.Skip != core.SkipExactCopy:
		return string(m.Skip)
	case m.Cluster != 0 && m.Original != "" && m.Original != m.ID:
		return OutcomeDuplicate
	}
	out := OutcomeAdded
	for _, p := range m.Pairs {
		switch {
		case p.Label == core.Duplicate && (p.Original != m.ID || p.Original == ""):
			return OutcomeDuplicate
		case p.Label == core.Similar:
			out = OutcomeSimilar
		}
	}
	return out
}

// siteOf is the source of a page: its host without "www.".
func siteOf(page string) string {
	u, err := url.Parse(page)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(u.Hostname(), "www.")
}

// escapeQuery returns a URL's query with the bytes a request line may not
// hold percent-encoded, as browsers send them ("q=hello world" is
// "q=hello%20world"): white space, control bytes, bytes past ASCII and the
// characters " < > \ ^ ` { | }. What is encoded already, and the rest, are
// left as they are. A server answers a raw space with 400, and the item
// failed for good.
func escapeQuery(q string) string {
	const hex = "0123456789ABCDEF"
	var b []byte
	for i := 0; i < len(q); i++ {
		c := q[i]
		if c > ' ' && c < 0x7f && !strings.ContainsRune(`"<>\^`+"`"+`{|}`, rune(c)) {
			if b != nil {
				b = append(b, c)
			}
			continue
		}
		if b == nil {
			b = append(make([]byte, 0, len(q)+8), q[:i]...)
		}
		b = append(b, '%', hex[c>>4], hex[c&15])
	}
	if b == nil {
		return q
	}
	return string(b)
}
