package webui

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/server/browse"
	"github.com/neardup/neardup/internal/watch"
)

// feedRow is a feed as the admin pages show it.
type feedRow struct {
	watch.Stored
	Rule                           string // a summary of the site rule; "" for none
	OK                             bool   // the last poll succeeded, or none was made; false for settings that do not decode
	Paused                         bool   // the last poll was put off by its host's Retry-After: no failure
	Added, Duplicate, Similar      int    // new articles, by mark
	Skipped, Failed, Total         int    // items not stored, and all items dealt with
	Forgotten                      int    // of Total, the items the index no longer keeps (watch.State.Forgotten)
	Outcomes                       []outcomeCount
	LastPollTime, NextPollTime     time.Time
	NextPollDue, NeverPolled, Slow bool
}

// outcomeCount is how many items of a feed had an outcome.
type outcomeCount struct {
	Outcome string
	N       int
}

func newFeedRow(s watch.Stored) feedRow {
	f := feedRow{Stored: s, LastPollTime: s.State.LastPoll, NextPollTime: s.NextPoll,
		NeverPolled: s.State.LastPoll.IsZero(), NextPollDue: !s.NextPoll.After(time.Now())}
	// A feed's status is "" until its first poll, but for a stored row
	// that does not decode (see watch.Feeds); a poll the watcher's stop
	// cut short is no failure.
	f.OK = s.State.Status == "" || s.State.Status == "ok" || s.State.Status == "not modified" || s.State.Status == watch.StatusStopped
	f.Paused = strings.HasPrefix(s.State.Status, watch.StatusPaused+":")
	for outcome, n := range s.Items {
		f.Total += n
		switch outcome {
		case watch.OutcomeAdded:
			f.Added += n
		case watch.OutcomeDuplicate:
			f.Duplicate += n
		case watch.OutcomeSimilar:
			f.Similar += n
		case watch.OutcomeError:
			f.Failed += n
		default:
			f.Skipped += n
		}
		f.Outcomes = append(f.Outcomes, outcomeCount{outcome, n})
	}
	slices.SortFunc(f.Outcomes, func(a, b outcomeCount) int { return b.N - a.N })
	for _, n := range s.State.Forgotten {
		f.Forgotten += n
	}
	if r := s.Rule; r != nil {
		var parts []string
		if r.Body != "" {
			parts = append(parts, r.Body)
		}
		if n := len(r.Drop) + len(r.DropAttr); n > 0 {
			parts = append(parts, "drops "+strconv.Itoa(n))
		}
		if n := len(r.Strip) + len(r.StripRegex); n > 0 {
			parts = append(parts, "strips "+strconv.Itoa(n))
		}
		if r.ArticleURL != "" {
			parts = append(parts, "articles "+r.ArticleURL)
		}
		f.Rule = strings.Join(parts, "; ")
	}
	return f
}

// feedForm is the form that adds, edits or tries a feed, as the user filled
// it in.
type feedForm struct {
	ID         int64 // 0 for a new feed
	URL        string
	Interval   string
	Body       string
	Drop       string // one CSS selector a line
	DropAttr   string // one TAG[ATTR]=REGEXP a line (see watch.ParseAttrFilter)
	Strip      string // one text a line
	StripRegex string // one regexp a line
	ArticleURL string
	TestURL    string
	NoCheck    bool   // add a new feed without fetching it first
	Error      string // what is wrong with it, when it was refused
	Field      string // the field the error concerns
}

// feed returns the feed the form gives, or an error naming the field that
// is wrong.
func (f *feedForm) feed() (watch.Feed, error) {
	var out watch.Feed
	out.URL = f.URL
	if f.URL == "" {
		return out, errorf(http.StatusBadRequest, "url", "the feed's URL is missing")
	}
	if f.ID == 0 && hiddenPassword(f.URL) {
		return out, errorf(http.StatusBadRequest, "url", "the feed's password is hidden as xxxxx: type the password again")
	}
	if f.Interval == "" {
		out.Interval = watch.Duration(watch.DefaultInterval)
	} else if err := out.Interval.UnmarshalText([]byte(f.Interval)); err != nil {
		return out, errorf(http.StatusBadRequest, "interval", "the interval %q is not a duration such as 15m, 1h or 2d", f.Interval)
	}
	var err error
	if out.Rule, err = f.rule(); err != nil {
		return out, err
	}
	if err := out.Check(); err != nil {
		field := "url"
		switch msg := err.Error(); {
		case strings.Contains(msg, "interval"):
			field = "interval"
		case strings.Contains(msg, "rule"):
			field = "rule"
		}
		return out, errorf(http.StatusBadRequest, field, "%s", err)
	}
	return out, nil
}

// hiddenPassword reports whether raw's password is "xxxxx", what a form
// sent back shows in place of the one typed (watch.ShownURL): sent again,
// it is no password but the mark of one hidden.
func hiddenPassword(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return false
	}
	p, ok := u.User.Password()
	return ok && p == "xxxxx"
}

// rule returns the site rule the form gives; nil for none. A line of
// drop_attr not in the form TAG[ATTR]=REGEXP is an error naming the field.
func (f *feedForm) rule() (*watch.Rule, error) {
	r := &watch.Rule{Body: f.Body, Drop: lines(f.Drop), Strip: lines(f.Strip), StripRegex: lines(f.StripRegex),
		ArticleURL: f.ArticleURL}
	for _, l := range lines(f.DropAttr) {
		a, err := watch.ParseAttrFilter(l)
		if err != nil {
			return nil, errorf(http.StatusBadRequest, "drop_attr", "leave out by attribute: %s", err)
		}
		r.DropAttr = append(r.DropAttr, a)
	}
	if r.Body == "" && r.Drop == nil && r.DropAttr == nil && r.Strip == nil && r.StripRegex == nil && r.ArticleURL == "" {
		return nil, nil
	}
	return r, nil
}

// lines returns the non-blank lines of s, trimmed; nil for none.
func lines(s string) []string {
	var out []string
	for l := range strings.Lines(s) {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// formOf reads the feed form of a request. Fields are bounded in length:
// a URL, a selector or a pattern of more than 8 KiB is refused.
func formOf(r *http.Request) (feedForm, error) {
	if err := parseForm(r); err != nil {
		return feedForm{}, err
	}
	get := func(k string) string { return strings.TrimSpace(r.PostForm.Get(k)) }
	f := feedForm{URL: get("url"), Interval: get("interval"), Body: get("body"), Drop: get("drop"), DropAttr: get("drop_attr"),
		Strip: get("strip"), StripRegex: get("strip_regex"), ArticleURL: get("article_url"), TestURL: get("test_url"),
		NoCheck: get("no_check") != ""}
	for name, v := range map[string]string{"url": f.URL, "interval": f.Interval, "body": f.Body, "drop": f.Drop,
		"drop_attr": f.DropAttr, "strip": f.Strip, "strip_regex": f.StripRegex, "article_url": f.ArticleURL, "test_url": f.TestURL} {
		if len(v) > 8<<10 {
			return f, errorf(http.StatusBadRequest, name, "the field %s is longer than 8 KiB", name)
		}
	}
	return f, nil
}

// formFor fills the form of a stored feed. A feed whose stored settings
// do not decode (see watch.Feeds) has none but its URL: its form offers
// the default interval, which it may be saved with.
func formFor(s watch.Stored) feedForm {
	f := feedForm{ID: s.ID, URL: s.URL, Interval: s.Every().String()}
	if r := s.Rule; r != nil {
		f.Body, f.ArticleURL = r.Body, r.ArticleURL
		f.Drop, f.Strip, f.StripRegex = strings.Join(r.Drop, "\n"), strings.Join(r.Strip, "\n"), strings.Join(r.StripRegex, "\n")
		attrs := make([]string, len(r.DropAttr))
		for i, a := range r.DropAttr {
			attrs[i] = a.String()
		}
		f.DropAttr = strings.Join(attrs, "\n")
	}
	return f
}

// feedsPage is the data of feeds.html: the list and the form of a new feed.
type feedsPage struct {
	Feeds []feedRow
	Form  feedForm
	Trial *trialView
}

// feedPage is the data of feed.html: one feed, its form and its recent items.
type feedPage struct {
	Feed  feedRow
	Form  feedForm
	Items []itemRow
	Saved bool
	Trial *trialView
}

// itemRow is a feed item dealt with.
type itemRow struct {
	neardup.FeedItem
	Seen time.Time
	Link string // the item, when it is a URL
	// Of is the stored document a duplicate or similar item was marked
	// against (the earlier one when there are several), Diff the link to
	// the two side by side; nil and "" for the other outcomes.
	Of   *browse.Doc
	Diff string
}

// trialView is a site rule tried on a page.
type trialView struct {
	watch.Trial
	URL   string // as asked
	Error string // the page could not be fetched or extracted
	Paras []string
}

func (u *ui) feeds(r *http.Request) (result, error) {
	return u.feedsPage(r.Context(), feedForm{Interval: watch.Duration(watch.DefaultInterval).String()}, nil, 0)
}

func (u *ui) feedsPage(ctx context.Context, form feedForm, trial *trialView, code int) (result, error) {
	stored, err := watch.Feeds(ctx, u.x)
	if err != nil {
		return result{}, err
	}
	p := feedsPage{Form: form, Trial: trial}
	for _, s := range stored {
		p.Feeds = append(p.Feeds, newFeedRow(s))
	}
	return result{page: "feeds.html", title: "Feeds", status: code, data: p}, nil
}

// storedFeed returns the feed of the request's {id}.
func (u *ui) storedFeed(r *http.Request) (watch.Stored, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return watch.Stored{}, errorf(http.StatusBadRequest, "id", "the feed id %q is not a positive number", short(40, r.PathValue("id")))
	}
	return u.feedByID(r.Context(), id)
}

// feedByID returns a stored feed.
func (u *ui) feedByID(ctx context.Context, id int64) (watch.Stored, error) {
	stored, err := watch.Feeds(ctx, u.x)
	if err != nil {
		return watch.Stored{}, err
	}
	for _, s := range stored {
		if s.ID == id {
			return s, nil
		}
	}
	return watch.Stored{}, errorf(http.StatusNotFound, "id", "no feed %d", id)
}

// recentItems is how many of a feed's items its page lists.
const recentItems = 50

func (u *ui) feedPage(ctx context.Context, s watch.Stored, form feedForm, trial *trialView, code int) (result, error) {
	p := feedPage{Feed: newFeedRow(s), Form: form, Trial: trial}
	err := u.x.ViewFeeds(ctx, func(r neardup.FeedReader) error {
		items, err := r.RecentItems(s.ID, recentItems)
		for _, it := range items {
			row := itemRow{FeedItem: it, Seen: unixTime(it.Seen)}
			if strings.HasPrefix(it.Item, "http://") || strings.HasPrefix(it.Item, "https://") {
				row.Link = it.Item
			}
			p.Items = append(p.Items, row)
		}
		return err
	})
	if err != nil {
		return result{}, err
	}
	for i := range p.Items {
		if err := u.markedAgainst(ctx, &p.Items[i]); err != nil {
			return result{}, err
		}
	}
	return result{page: "feed.html", title: "Feed " + watch.ShownURL(s.URL), status: code, data: p}, nil
}

// markedAgainst fills a duplicate or similar item's Of and Diff from its
// document's marks: for a duplicate, the mark against an article published
// before it (the one it copies) first; for a similar item, the mark against
// an earlier stored document first; else its best mark of that label. A
// document removed since leaves them empty.
func (u *ui) markedAgainst(ctx context.Context, it *itemRow) error {
	if it.Doc == "" || (it.Outcome != watch.OutcomeDuplicate && it.Outcome != watch.OutcomeSimilar) {
		return nil
	}
	d, err := u.x.Document(ctx, it.Doc)
	if errors.Is(err, neardup.ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	var best *browse.Mark
	for i, m := range d.Marks {
		if string(m.Label) != it.Outcome || m.Other == nil {
			continue
		}
		if best == nil || against(&m) && !against(best) {
			best = &d.Marks[i]
		}
	}
	if best != nil {
		it.Of, it.Diff = best.Other, diffLink(best.A, best.B)
	}
	return nil
}

// against reports whether a mark of an item's document is against the
// document it was marked for: in a duplicate pair the original, published
// first; in a similar pair the document stored first.
func against(m *browse.Mark) bool {
	if m.Original != "" {
		return m.Original == m.Other.ID
	}
	return m.A == m.Other.ID
}

func (u *ui) feed(r *http.Request) (result, error) {
	s, err := u.storedFeed(r)
	if err != nil {
		return result{}, err
	}
	res, err := u.feedPage(r.Context(), s, formFor(s), nil, 0)
	if p, ok := res.data.(feedPage); ok {
		p.Saved = r.URL.Query().Get("saved") != ""
		res.data = p
	}
	return res, err
}

// refused shows a form again with what is wrong with it.
func refused(form *feedForm, err error) (int, bool) {
	var se *statusError
	if !errors.As(err, &se) || se.Status >= 500 {
		return 0, false
	}
	form.Error, form.Field = se.Msg, se.Field
	return se.Status, true
}

func (u *ui) addFeed(r *http.Request) (result, error) {
	form, err := formOf(r)
	if err != nil {
		return result{}, err
	}
	f, err := form.feed()
	if err == nil && !form.NoCheck {
		err = u.checkFeed(r.Context(), f.URL)
	}
	var id int64
	if err == nil {
		id, err = watch.AddFeed(r.Context(), u.x, f)
		if errors.Is(err, neardup.ErrExists) {
			err = errorf(http.StatusConflict, "url", "the feed %s is there already: edit it in the list", watch.ShownURL(f.URL))
		}
	}
	if code, ok := refused(&form, err); ok {
		return u.feedsPage(r.Context(), form, nil, code)
	}
	if err != nil {
		return result{}, err
	}
	return result{redirect: "/feeds/" + strconv.FormatInt(id, 10) + "?saved=added"}, nil
}

// checkFeed fetches a new feed as the watcher would: one that cannot be
// fetched or is no feed is refused, saying why.
func (u *ui) checkFeed(ctx context.Context, feedURL string) error {
	ctx, cancel := context.WithTimeout(ctx, tryTimeout)
	defer cancel()
	if _, err := watch.CheckFeed(ctx, feedURL, u.o.Watch); err != nil {
		if ctx.Err() != nil && errors.Is(err, context.Canceled) {
			return err
		}
		return errorf(http.StatusUnprocessableEntity, "url", "%s; tick “add without checking” to add it all the same", err)
	}
	return nil
}

func (u *ui) saveFeed(r *http.Request) (result, error) {
	s, err := u.storedFeed(r)
	if err != nil {
		return result{}, err
	}
	form, err := formOf(r)
	if err != nil {
		return result{}, err
	}
	form.ID, form.URL = s.ID, s.URL // a feed's URL is its identity: another URL is another feed
	f, err := form.feed()
	if err == nil {
		err = watch.SetFeed(r.Context(), u.x, f)
	}
	if code, ok := refused(&form, err); ok {
		return u.feedPage(r.Context(), s, form, nil, code)
	}
	if err != nil {
		return result{}, err
	}
	return result{redirect: "/feeds/" + strconv.FormatInt(s.ID, 10) + "?saved=saved"}, nil
}

func (u *ui) removeFeed(r *http.Request) (result, error) {
	s, err := u.storedFeed(r)
	if err != nil {
		return result{}, err
	}
	if r.PostFormValue("confirm") == "" {
		return result{}, errorf(http.StatusBadRequest, "confirm", "tick the box to confirm that the feed %s is to be removed", watch.ShownURL(s.URL))
	}
	if err := watch.RemoveFeed(r.Context(), u.x, s.URL); err != nil {
		return result{}, err
	}
	return result{redirect: "/feeds"}, nil
}

// tryTimeout bounds a trial (Options.tryTimeout): fetching and extracting
// a page, or a feed and the pages of its items in turn (watch.MaxTryItems
// at most); a trial of a feed that runs out of it says how many items it
// tried and why each was passed over. It bounds checkFeed too.
const tryTimeout = 30 * time.Second

// tryRule fetches the form's test URL and extracts it with the form's site
// rule, storing nothing, and shows the article beside the form, which can
// then be saved.
func (u *ui) tryRule(r *http.Request) (result, error) {
	form, err := formOf(r)
	if err != nil {
		return result{}, err
	}
	var s watch.Stored
	if id := r.PostFormValue("id"); id != "" {
		if form.ID, err = strconv.ParseInt(id, 10, 64); err != nil || form.ID <= 0 {
			return result{}, errorf(http.StatusBadRequest, "id", "the feed id %q is not a positive number", short(40, id))
		}
		if s, err = u.feedByID(r.Context(), form.ID); err != nil {
			return result{}, err
		}
		form.URL = s.URL
	}
	trial, err := u.try(r.Context(), &form)
	if code, ok := refused(&form, err); ok {
		if form.ID != 0 {
			return u.feedPage(r.Context(), s, form, nil, code)
		}
		return u.feedsPage(r.Context(), form, nil, code)
	}
	if err != nil {
		return result{}, err
	}
	if form.ID != 0 {
		return u.feedPage(r.Context(), s, form, trial, 0)
	}
	return u.feedsPage(r.Context(), form, trial, 0)
}

// tryReopened answers /feeds/try opened by its address, as a reload or a
// bookmark of a trial's page opens it: the trial's form is not sent again,
// so it goes back to the form the rule was tried from, the feed's when the
// address names it (a stored feed's form tries its rule at
// /feeds/try?id=N).
func (u *ui) tryReopened(r *http.Request) (result, error) {
	if id, err := strconv.ParseInt(r.URL.Query().Get("id"), 10, 64); err == nil && id > 0 {
		return result{redirect: "/feeds/" + strconv.FormatInt(id, 10)}, nil
	}
	return result{redirect: "/feeds"}, nil
}

// try runs a trial of the form's rule on its test URL. A page that cannot
// be fetched is a trial with an error, not a failed request.
func (u *ui) try(ctx context.Context, form *feedForm) (*trialView, error) {
	if form.TestURL == "" {
		return nil, errorf(http.StatusBadRequest, "test_url", "give the URL of an article page to try the rule on")
	}
	if _, err := watch.PageURL(form.TestURL); err != nil { // the form's fields are trimmed
		return nil, errorf(http.StatusBadRequest, "test_url", "the page to try the rule on: %v", err)
	}
	if hiddenPassword(form.TestURL) {
		return nil, errorf(http.StatusBadRequest, "test_url", "the page's password is hidden as xxxxx: type the password again")
	}
	rule, err := form.rule()
	if err != nil {
		return nil, err
	}
	check := watch.Feed{URL: form.TestURL, Interval: watch.Duration(watch.DefaultInterval), Rule: rule}
	if err := check.Check(); err != nil {
		return nil, errorf(http.StatusBadRequest, "rule", "%s", err)
	}
	ctx, cancel := context.WithTimeout(ctx, u.o.tryTimeout)
	defer cancel()
	t, err := watch.Try(ctx, form.TestURL, check.Rule, u.o.Watch)
	tv := &trialView{Trial: t, URL: form.TestURL}
	if err != nil {
		tv.Error = err.Error()
	}
	for p := range strings.SplitSeq(t.Article.Text, "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			tv.Paras = append(tv.Paras, p)
		}
	}
	return tv, nil
}
