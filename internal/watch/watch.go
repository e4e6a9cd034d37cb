package watch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/extract/rules"
	"github.com/neardup/neardup/internal/outbound"
)

// The outcomes of an item besides the skip reasons of package extract and
// of the index's method: what became of it, as stored with the item.
const (
	OutcomeAdded     = "added"     // stored, a copy of no article published before it
	OutcomeDuplicate = "duplicate" // stored, a copy (near or exact) of an article published before it, whenever that one arrived
	OutcomeSimilar   = "similar"   // stored, marked similar to a stored article, a copy of none published before it
	OutcomeExists    = "exists"    // an article of its URL was stored already
	OutcomeGallery   = "gallery"   // a gallery, video or picture page by its URL (not fetched) or the start of its text
	OutcomeNoLink    = "no-link"   // the item links to no page
	OutcomeError     = "error"     // the page could not be fetched or extracted
	OutcomeRefused   = "refused"   // its page is at an address the outbound rule refuses (see Options.AllowPrivate)
)

// StatusPaused is the status of a poll that its feed's host's pause
// refused before a request went out: the host asked, by a Retry-After
// this run or an earlier one met, to be left alone until after it. It is
// no failure of the feed's (Result.Err says until when); the feed is
// polled again when the pause ends.
const StatusPaused = "paused"

// StatusStopped is the status of a poll that the watcher's stop (its
// context done: SIGINT or SIGTERM) cut short. It is no failure of the
// feed's. A poll stopped after it stored items records them in the feed's
// state, with this status and without the feed's validators, so that the
// next pass reads the feed whole and takes the items this one left; one
// stopped before it stored any leaves the feed's state as it was.
const StatusStopped = "stopped"

// StatusRemoved is the status of a poll whose feed was removed (feeds
// remove, the web UI) while it was polled. It is no failure of the feed's:
// the pass stores nothing more of it, neither the items it fetched since
// (Result.Discarded counts them) nor its state, and logs it "feed removed
// while polled".
const StatusRemoved = "removed"

// OutcomePaused is the outcome of an item whose page's host asked, by a
// Retry-After this run or an earlier one met, to be left alone until after
// the pass: its page is not fetched, and nothing of it is stored, so that
// a later pass takes it as new, or as the failure it was, without a try
// counted. It is counted in the pass's Result and the feed's State.Last,
// never stored with an item.
const OutcomePaused = "paused"

// maxTries is how many passes try an item whose page failed for a reason
// that may pass (a timeout, a 5xx, Retry-After).
const maxTries = 3

// Tables are the feed tables of an index, as the watcher and the functions
// that manage feeds read and write them (*neardup.Index has them).
type Tables interface {
	ViewFeeds(ctx context.Context, fn func(r neardup.FeedReader) error) error
	UpdateFeeds(ctx context.Context, fn func(w neardup.FeedWriter) error) error
}

// Index is what a Watcher uses of an index (*neardup.Index has it): its
// feed tables, and adds that write them in the same transaction.
type Index interface {
	Tables
	AddSketched(ctx context.Context, docs []core.Document, sks []neardup.Sketch, o neardup.AddOptions) ([]neardup.Match, error)
}

// Watcher polls the feeds stored in an index and adds their articles to it.
// Its methods are safe for concurrent use.
type Watcher struct {
	x     Index
	st    Tables
	o     Options
	fetch *fetcher
	log   *slog.Logger

	mu     sync.Mutex
	totals Totals
}

// Totals count what a Watcher did since it was made.
type Totals struct {
	// Polls counts polls by status: "ok", "not modified", "paused",
	// "stopped", "removed", "error".
	Polls map[string]int `json:"polls"`
	// Items counts new items by outcome.
	Items map[string]int `json:"items"`
	// RuleMisses counts pages on which a site rule's body selector matched
	// nothing (see Result.RuleMisses).
	RuleMisses int `json:"rule_misses"`
	// Stopped is the error that ended Run, "" while it runs and after it
	// ended without one: a server that watches beside serving goes on
	// serving without it, and says so.
	Stopped string `json:"stopped,omitempty"`
}

// New returns a Watcher of the feeds of x's store.
func New(x Index, o Options) (*Watcher, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	o = o.withDefaults()
	return &Watcher{x: x, st: x, o: o, fetch: newFetcher(&o), log: o.Logger,
		totals: Totals{Polls: map[string]int{}, Items: map[string]int{}}}, nil
}

// Totals returns what the Watcher did so far.
func (w *Watcher) Totals() Totals {
	w.mu.Lock()
	defer w.mu.Unlock()
	t := Totals{Polls: map[string]int{}, Items: map[string]int{}, RuleMisses: w.totals.RuleMisses, Stopped: w.totals.Stopped}
	for k, v := range w.totals.Polls {
		t.Polls[k] = v
	}
	for k, v := range w.totals.Items {
		t.Items[k] = v
	}
	return t
}

// Result is what one poll of a feed did.
type Result struct {
	Feed string `json:"feed"`
	// Status is "ok", "not modified", StatusPaused, StatusStopped,
	// StatusRemoved or "error".
	Status string `json:"status"`
	// Err is the feed's error, when Status is "error", and its host's pause
	// (ErrRetryLater) when it is StatusPaused.
	Err error `json:"-"`
	// Items is how many items the feed holds, New how many of them were
	// new.
	Items int `json:"items"`
	New   int `json:"new"`
	// Outcomes counts the new items by outcome.
	Outcomes map[string]int `json:"outcomes"`
	// RuleMisses counts the pages on which the feed's site rule's body
	// selector matched nothing, their text being the extractor's own
	// choice.
	RuleMisses int `json:"rule_misses"`
	// Unnamed counts the items with no link, no title, description or
	// content, and no GUID, left out: nothing tells one of them from the
	// next poll's.
	Unnamed int `json:"unnamed,omitempty"`
	// Cut counts the items left out past Options.MaxItems, the feed's
	// oldest: a warning of the feed's, not an error.
	Cut int `json:"cut,omitempty"`
	// Forgotten counts the stored items of the feed, of those it no
	// longer lists, that the poll deleted (see ForgetFactor).
	Forgotten int `json:"forgotten,omitempty"`
	// Discarded counts the items the poll fetched and did not store, its
	// feed removed meanwhile (StatusRemoved).
	Discarded int           `json:"discarded,omitempty"`
	Took      time.Duration `json:"took"`

	feed    int64             // the feed's id
	counted map[string]string // its items of a stored article, by the outcome Outcomes counts them with
}

// Once polls every feed once, due or not, and returns the results in the
// order of the feeds. An error is returned only when the feeds could not be
// read or a result not stored (that feed's Result says so too, as an
// error); a feed's own failure is in its Result. Another process's writer
// lock held past the wait is such an error: Once does not wait it out.
//
// The results, and the Watcher's Totals, count the new items by the
// outcome they hold once every feed is polled: a later feed's article
// published before a copy an earlier feed stored makes the copy's item a
// duplicate, counted so.
func (w *Watcher) Once(ctx context.Context) ([]Result, error) {
	feeds, err := w.feeds(ctx)
	if err != nil {
		return nil, err
	}
	out, err := w.pollAll(ctx, feeds)
	for i := range out {
		res := &out[i]
		moved := map[string]int{} // outcome → items counted anew with it, less those counted with it before
		for k, v := range res.Outcomes {
			moved[k] -= v
		}
		w.recount(context.WithoutCancel(ctx), res.feed, res.counted, res)
		for k, v := range res.Outcomes {
			moved[k] += v
		}
		w.mu.Lock()
		for k, d := range moved {
			if w.totals.Items[k] += d; w.totals.Items[k] == 0 {
				delete(w.totals.Items, k)
			}
		}
		w.mu.Unlock()
	}
	return out, err
}

// Run polls each feed when it is due until ctx is done, and then returns
// nil once the polls under way have stored what they finished.
//
// Up to Options.Workers feeds are polled at once, each as soon as it is due
// and a worker is free, the longest due first; a feed is never polled twice
// at once, and the feeds whose pages are on one host (see slotHost) take at
// most half the workers. A feed whose pass takes long (thousands of new
// items, pages that hang until the timeout) holds its own worker, while the
// others poll the other feeds on their intervals.
//
// When the index's database cannot be reached (a PostgreSQL server down or
// restarting), Run logs it and tries again, after 5 s, then twice as long
// each time up to 5 min: a watcher outlives a restart of its database. What
// a pass committed before is kept, and its feeds are polled again.
func (w *Watcher) Run(ctx context.Context) (err error) {
	defer func() {
		if err != nil {
			w.mu.Lock()
			w.totals.Stopped = err.Error()
			w.mu.Unlock()
		}
	}()
	type ended struct {
		feed int64
		next int64 // its next poll, Unix seconds
		err  error
	}
	var wg sync.WaitGroup
	defer wg.Wait() // the polls under way store what they finished
	// An error that ends Run stops the polls under way too (they keep
	// what they stored): one feed's pass may take hours.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan ended, w.o.Workers)
	sl := newSlots(w.o.Workers)
	var pending []neardup.Feed
	wait := unreachableWait
	// retry reports whether err is one to wait out, having waited: the
	// index's database out of reach, or another process writing to the
	// index longer than a write waits (a rescore, an import).
	retry := func(err error) bool {
		switch {
		case neardup.Unreachable(err):
			w.o.Logger.Warn("the index's database cannot be reached; trying again", "in", wait, "error", err)
		case errors.Is(err, neardup.ErrLocked):
			w.o.Logger.Warn("another process is writing to the index; trying again", "in", wait, "error", err)
		default:
			return false
		}
		t := time.NewTimer(wait)
		defer t.Stop()
		wait = min(2*wait, maxUnreachableWait)
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		return true
	}
	read, readFailed := true, false
	var reread, lastRead time.Time // when to read the feeds again, and when they were read
	for {
		if ctx.Err() != nil {
			return nil
		}
		if read {
			feeds, err := w.feeds(ctx)
			if err != nil {
				if ctx.Err() != nil {
					return nil
				}
				if retry(err) {
					readFailed = true
					continue
				}
				return err
			}
			if readFailed {
				// The database is back; another process's lock, which reads
				// pass, is waited out until a poll stores again.
				wait, readFailed = unreachableWait, false
			}
			read = false
			var next time.Duration
			lastRead = time.Now()
			pending, next = due(feeds, sl.busy, lastRead.Unix())
			reread = lastRead.Add(next)
		}
		var start []neardup.Feed
		start, pending = sl.take(pending)
		for _, f := range start {
			wg.Go(func() {
				_, next, err := w.poll(ctx, f)
				done <- ended{f.ID, next, err}
			})
		}
		t := time.NewTimer(time.Until(reread))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case e := <-done:
			t.Stop()
			sl.done(e.feed)
			// A pass that outlasted its interval is due again: the feeds
			// are read again when it is, at most once a second.
			if soon := later(time.Unix(e.next, 0), lastRead.Add(time.Second)); e.next > 0 && soon.Before(reread) {
				reread = soon
			}
			if e.err != nil && ctx.Err() == nil {
				if !retry(e.err) {
					return e.err
				}
				pending, read = nil, true // its feeds are polled again
			} else if e.err == nil {
				wait = unreachableWait // the index took the poll's writes
			}
		case <-t.C:
			read = true
		}
	}
}

// rescanWait is the longest Run waits before it reads the feeds again.
var rescanWait = time.Minute

// The waits of Run for a database that cannot be reached: the first, and
// the longest.
var (
	unreachableWait    = 5 * time.Second
	maxUnreachableWait = 5 * time.Minute
)

// feeds reads the stored feeds, and the hosts' pauses into the host gate:
// those that this process, an earlier run (watch --once from cron) or
// another watcher of the index met.
func (w *Watcher) feeds(ctx context.Context) ([]neardup.Feed, error) {
	var feeds []neardup.Feed
	var pauses map[string]int64
	err := w.st.ViewFeeds(ctx, func(r neardup.FeedReader) error {
		var err error
		if feeds, err = r.Feeds(); err != nil {
			return err
		}
		pauses, err = r.HostPauses(time.Now().Unix())
		return err
	})
	for host, until := range pauses {
		w.fetch.gate.notBefore(host, time.Unix(until, 0))
	}
	return feeds, err
}

// keepPause stores the pause a host asked for, when err is its answer's
// Retry-After, so that a later run, whose host gate starts empty, leaves
// the host alone too. A pause that cannot be stored is logged: this run
// keeps it all the same.
func (w *Watcher) keepPause(ctx context.Context, err error) {
	var rl *retryLater
	if !errors.As(err, &rl) || rl.unasked || rl.host == "" {
		return
	}
	now := time.Now().Unix()
	err = w.st.UpdateFeeds(context.WithoutCancel(ctx), func(wr neardup.FeedWriter) error {
		return wr.PauseHost(rl.host, ceilUnix(rl.until), now)
	})
	if err != nil {
		w.log.Warn("the host's pause could not be stored; this run keeps it", "host", rl.host, "until", rl.until, "error", err)
	}
}

// pollAll polls feeds, Options.Workers at a time.
func (w *Watcher) pollAll(ctx context.Context, feeds []neardup.Feed) ([]Result, error) {
	out := make([]Result, len(feeds))
	errs := make([]error, len(feeds))
	at := make(map[int64]int, len(feeds)) // a feed's place in feeds
	for i, f := range feeds {
		at[f.ID] = i
	}
	done := make(chan int64, w.o.Workers)
	sl := newSlots(w.o.Workers)
	pending := feeds
	for {
		if ctx.Err() == nil {
			var start []neardup.Feed
			start, pending = sl.take(pending)
			for _, f := range start {
				go func() {
					out[at[f.ID]], _, errs[at[f.ID]] = w.poll(ctx, f)
					done <- f.ID
				}()
			}
		}
		if len(sl.busy) == 0 {
			break // every feed polled, or stopped
		}
		sl.done(<-done)
	}
	return out, errors.Join(errs...)
}

// poll polls one feed: the feed, then each new item's page, stored chunk by
// chunk, then the feed's state. It returns when the feed is next due (Unix
// seconds), 0 when it was stopped (see StatusStopped) or stored no state
// (an error). A feed whose
// stored settings or state do not decode, or whose stored site rule does
// not compile, fails, unfetched, as a feed that cannot be fetched does: its
// error is its status, and it is tried again after a backoff (its state,
// when that is what does not decode, is the failure's from then on).
func (w *Watcher) poll(ctx context.Context, sf neardup.Feed) (Result, int64, error) {
	start := time.Now()
	res := Result{Feed: sf.URL, Outcomes: map[string]int{}}
	f, state, err := readStored(&sf)
	var rs *rules.Set
	if err == nil {
		rs, err = storedRule(&sf, &f)
	}
	state.LastPoll = start.UTC().Truncate(time.Second)

	var parsed *parsedFeed
	var base string // where the feed was read from, after redirects
	if err == nil {
		parsed, base, err = w.items(ctx, &f, &state, &res)
		w.keepPause(ctx, err)
	}
	switch {
	case ctx.Err() != nil:
		res.Status = StatusStopped // before it stored anything
	case err != nil:
		if until, ok := unaskedUntil(err); ok {
			// Refused by its host's pause before a request went out: no
			// failure of the feed's, and nothing to back off from; it is
			// polled when the pause ends.
			res.Status, res.Err = StatusPaused, err
			state.Status = StatusPaused + ": " + err.Error()
			sf.NextPoll = ceilUnix(until)
			break
		}
		res.Status, res.Err = "error", err
		state.Status = "error: " + err.Error()
		// The failures in a row, and the backoff they make, are counted
		// in the write below.
	case parsed == nil:
		res.Status = "not modified"
	default:
		res.Status = "ok"
	}
	if res.Status == "ok" || res.Status == "not modified" {
		state.Status = res.Status
		sf.NextPoll = start.Add(every(&f)).Unix()
	}
	var listed []string // the keys of the items taken, when the feed was read
	if parsed != nil && res.Status != StatusStopped {
		var stopped bool
		listed, stopped, err = w.fetchItems(ctx, sf.ID, &f, rs, &state, base, parsed, &res)
		if errors.Is(err, neardup.ErrFeedGone) {
			return w.removed(&res, start) // nothing more of it is stored
		}
		if err != nil {
			return w.failed(ctx, &res, start, err)
		}
		if stopped {
			res.Status = StatusStopped
		}
	}
	if res.Status == StatusStopped {
		if storedCount(res.Outcomes) == 0 {
			return w.ended(&res, start, 0) // the feed's state is left as it was
		}
		// The items stored are the poll's; the validators are left
		// out, so that the next pass reads the feed whole, and its
		// next poll is left as stored.
		state.Status, state.ETag, state.LastModified = StatusStopped, "", ""
	}
	state.Last = res.Outcomes
	state.LastNew = res.New
	// Only the state and the next poll are written back: settings changed
	// while the feed was polled (feeds set, an import) stay as changed. The
	// items the feed no longer lists past those the index remembers are
	// deleted in the same transaction, and counted in the state.
	err = w.st.UpdateFeeds(context.WithoutCancel(ctx), func(wr neardup.FeedWriter) error {
		now, err := wr.Feed(sf.ID)
		if errors.Is(err, neardup.ErrNotFound) {
			return neardup.ErrFeedGone
		} else if err != nil {
			return err
		}
		var forgotten map[string]int
		if parsed != nil && res.Status != StatusStopped { // a stopped poll did not take every item listed
			if forgotten, err = wr.PruneItems(sf.ID, listed, w.remembered()); err != nil {
				return fmt.Errorf("feed %s: deleting the items it no longer lists: %w", ShownURL(f.URL), err)
			}
		}
		res.Forgotten = 0
		for _, n := range forgotten {
			res.Forgotten += n
		}
		addCounts(&state, now.State, &res, forgotten)
		switch res.Status {
		case "error":
			// From the failure, not the poll's start: a Retry-After counts
			// from the answer, and a poll due a moment before its host's
			// pause ends would be refused again and back off twice as long.
			sf.NextPoll = ceilUnix(time.Now().Add(w.backoff(&f, state.Failures, res.Err)))
		case StatusStopped:
			sf.NextPoll = now.NextPoll
		}
		return wr.SavePoll(sf.ID, marshalJSON(state), sf.NextPoll)
	})
	if errors.Is(err, neardup.ErrFeedGone) {
		return w.removed(&res, start) // its state is not stored
	}
	if err != nil {
		if !strings.HasPrefix(err.Error(), "feed ") {
			err = fmt.Errorf("feed %s: storing its state: %w", ShownURL(f.URL), err)
		}
		return w.failed(ctx, &res, start, err)
	}
	if res.Status == StatusStopped {
		return w.ended(&res, start, 0)
	}
	return w.ended(&res, start, sf.NextPoll)
}

// ended ends a poll whose result is res, counted and logged, and which is
// next due at next (see poll).
func (w *Watcher) ended(res *Result, start time.Time, next int64) (Result, int64, error) {
	res.Took = time.Since(start)
	w.count(res)
	w.logResult(res)
	return *res, next, nil
}

// removed ends a poll whose feed was removed while it was polled: counted
// and logged with StatusRemoved, and no next poll.
func (w *Watcher) removed(res *Result, start time.Time) (Result, int64, error) {
	res.Status, res.Err = StatusRemoved, nil
	return w.ended(res, start, 0)
}

// storedCount counts the items of outcomes, a poll's, that it stored: all
// but those its host's pause put off (OutcomePaused).
func storedCount(outcomes map[string]int) int {
	n := 0
	for outcome, k := range outcomes {
		if outcome != OutcomePaused {
			n += k
		}
	}
	return n
}

// failed ends a poll whose articles or state could not be stored (the
// index's error, err, naming the feed): its result says so, counted and
// logged as a failure, not as the poll it was before the write, unless
// the watcher is stopping.
func (w *Watcher) failed(ctx context.Context, res *Result, start time.Time, err error) (Result, int64, error) {
	if ctx.Err() != nil {
		return *res, 0, err
	}
	res.Status, res.Err, res.Took = "error", err, time.Since(start)
	w.count(res)
	w.logResult(res)
	return *res, 0, err
}

// addCounts sets the feed's counts in state, the state a poll writes back,
// to those of the state stored now, stored (JSON), plus this poll's, res:
// one poll, its pages on which the site rule's body selector matched
// nothing, the items it deleted, forgotten, by outcome, and its failures
// in a row, one more after a poll that failed, none after one answered, as
// stored after one its host's pause held back or the watcher's stop cut
// short. Read in the transaction
// that writes state, stored holds the counts of every poll that wrote
// before, a watcher's beside this one too: writes run one at a time. A
// stored state that no longer decodes (edited meanwhile) counts none.
func addCounts(state *State, stored []byte, res *Result, forgotten map[string]int) {
	var now State
	if _, err := unmarshalColumn(stored, &now); err != nil {
		now = State{}
	}
	state.Polls = now.Polls + 1
	state.RuleMisses = now.RuleMisses + res.RuleMisses
	state.Forgotten = maps.Clone(now.Forgotten)
	for outcome, n := range forgotten {
		if state.Forgotten == nil {
			state.Forgotten = map[string]int{}
		}
		state.Forgotten[outcome] += n
	}
	switch res.Status {
	case "error":
		state.Failures = now.Failures + 1
	case StatusPaused, StatusStopped:
		state.Failures = now.Failures
	default:
		state.Failures = 0
	}
}

// items fetches and parses the feed and returns it, nil when it is not
// modified since the last poll, and the URL it was read from after
// redirects, against which its relative links are resolved. It asks
// unconditionally while items wait to be tried again (State.Retries).
func (w *Watcher) items(ctx context.Context, f *Feed, state *State, res *Result) (*parsedFeed, string, error) {
	req := request{url: f.URL, etag: state.ETag, lastModified: state.LastModified, browser: state.BrowserUA}
	if state.Retries > 0 {
		req.etag, req.lastModified = "", "" // a 304 would hold back the items to try again
	}
	resp, err := w.fetch.get(ctx, req)
	if resp != nil && resp.browser && !state.BrowserUA {
		state.BrowserUA = true
		w.log.Info("feed refused the User-Agent; using the browser one", "feed", ShownURL(f.URL))
	}
	if err != nil {
		return nil, "", err
	}
	if resp.notModified {
		return nil, "", nil
	}
	parsed, listed, err := parseFeed(resp.body, resp.contentType, w.o.MaxItems)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", ShownURL(resp.url), err)
	}
	state.ETag, state.LastModified = resp.etag, resp.lastModified
	res.Items = listed
	return parsed, resp.url, nil
}

// remembered is how many items a feed no longer lists the index keeps of
// it: ForgetFactor × Options.MaxItems, as many as an int holds at most.
func (w *Watcher) remembered() int {
	if w.o.MaxItems > math.MaxInt/ForgetFactor {
		return math.MaxInt
	}
	return ForgetFactor * w.o.MaxItems
}

// every is how often a feed is polled: its interval, or DefaultInterval
// when it has none, or one not above 0: settings that do not decode, or
// that were edited by hand ({} or an interval of -1h decode), which would
// have the feed polled again at once, each time the feeds are read.
func every(f *Feed) time.Duration {
	if f.Interval <= 0 {
		return DefaultInterval
	}
	return time.Duration(f.Interval)
}

// backoff is how long a feed that failed failures times in a row waits:
// its interval (see every) doubled with each failure but the first, at
// most MaxBackoff, at least what the server asked by Retry-After, with up
// to 20 % jitter either way.
func (w *Watcher) backoff(f *Feed, failures int, err error) time.Duration {
	d := every(f)
	for i := 1; i < failures && d < w.o.MaxBackoff; i++ {
		d *= 2
	}
	d = min(d, w.o.MaxBackoff)
	d = time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
	var rl *retryLater
	if errors.As(err, &rl) {
		d = max(d, rl.wait)
	}
	return d
}

// unasked reports whether err is a host's pause that refused a request
// before it went out.
func unasked(err error) bool {
	_, ok := unaskedUntil(err)
	return ok
}

// unaskedUntil returns the end of the host's pause when err is that pause
// refusing a request before it went out.
func unaskedUntil(err error) (time.Time, bool) {
	var rl *retryLater
	if errors.As(err, &rl) && rl.unasked {
		return rl.until, true
	}
	return time.Time{}, false
}

// transient reports whether a page's failure may pass: a timeout, a
// connection refused or reset, a 5xx, 408 or 429, Retry-After.
func transient(err error) bool {
	var se *statusError
	if errors.As(err, &se) {
		return se.code >= 500 || se.code == http.StatusRequestTimeout || se.code == http.StatusTooManyRequests
	}
	return !errors.Is(err, ErrTooManyHops) && !errors.Is(err, errBadEncoding) && !errors.Is(err, outbound.ErrRefused) &&
		!errors.Is(err, errUnsupportedS) && !errors.Is(err, errNoHostInURL)
}

func (w *Watcher) count(res *Result) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.totals.Polls[res.Status]++
	w.totals.RuleMisses += res.RuleMisses
	for k, v := range res.Outcomes {
		w.totals.Items[k] += v
	}
}

func (w *Watcher) logResult(res *Result) {
	attrs := []any{"feed", ShownURL(res.Feed), "status", res.Status, "items", res.Items, "new", res.New, "took", res.Took.Round(time.Millisecond)}
	if res.RuleMisses > 0 {
		attrs = append(attrs, "rule_misses", res.RuleMisses)
	}
	if res.Unnamed > 0 {
		attrs = append(attrs, "unnamed", res.Unnamed)
	}
	if res.Forgotten > 0 {
		attrs = append(attrs, "forgotten", res.Forgotten)
	}
	if res.Cut > 0 {
		attrs = append(attrs, "cut", res.Cut, "max_items", w.o.MaxItems)
	}
	if res.Status == StatusRemoved {
		attrs = append(attrs, "discarded", res.Discarded)
	}
	keys := make([]string, 0, len(res.Outcomes))
	for k := range res.Outcomes {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		attrs = append(attrs, k, res.Outcomes[k])
	}
	switch {
	case res.Status == StatusPaused:
		w.log.Info("feed paused", append(attrs, "reason", res.Err)...)
		return
	case res.Status == StatusStopped:
		w.log.Info("feed stopped", attrs...)
		return
	case res.Status == StatusRemoved:
		w.log.Info("feed removed while polled", attrs...)
		return
	case res.Err != nil:
		w.log.Warn("feed failed", append(attrs, "error", res.Err)...)
		return
	case res.Cut > 0:
		// The feed lists more than a poll takes: a warning, not an error.
		w.log.Warn("feed polled; its oldest items past the most a poll takes left out", attrs...)
		return
	}
	w.log.Info("feed polled", attrs...)
}
