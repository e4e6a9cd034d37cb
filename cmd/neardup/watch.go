package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/outbound"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/watch"
)

// fetchFlags are how the watcher fetches and extracts pages.
type fetchFlags struct {
	UserAgent string         `name:"user-agent" placeholder:"UA" help:"The User-Agent of every request (default: ${default_user_agent}). A site that answers 403 is asked once more as a browser, and from then on."`
	HostDelay watch.Duration `name:"host-delay" default:"${default_host_delay}" help:"The least time between two requests to one host, 0 for none; one is out at a time: 500ms, 2s, 1min (the forms of feeds add --interval; m is minutes)."`
	requestFlags
	MinChars     int    `name:"min-chars" default:"${default_watch_min_chars}" help:"The fewest characters an article has (a Chinese, Japanese or Korean one counting three); shorter pages are skipped."`
	GalleryWords string `name:"gallery-words" default:"${default_gallery_words}" help:"Words that mark a gallery, video or picture page by its URL, comma-separated (empty for none): a page whose URL path has one as a segment or a word of one (/video/..., /news/gallery-photos-3.html) is skipped without being fetched."`
	GalleryText  string `name:"gallery-text-words" default:"${default_gallery_text_words}" help:"Words that mark a gallery page by its text, comma-separated (empty for none): a page whose text starts with one is skipped once extracted."`
	Rules        string `help:"Site rules (YAML), matched against each page's URL: for the pages of feeds without a rule of their own, of the web UI's check page (serve) and of a trial without a rule flag (feeds test)."`
}

// requestFlags bound every request: how long it may take, how much it may
// read and which private addresses it may reach. watch, serve, feeds test
// and feeds add share them, so that a check fetches as the watcher will.
type requestFlags struct {
	Timeout      watch.Duration `default:"${default_fetch_timeout}" help:"The longest a request may take, its body included: 30s, 2min, 1h (the forms of feeds add --interval; m is minutes)."`
	MaxBytes     byteSize       `name:"max-bytes" default:"${max_bytes}" help:"The largest feed or page, as sent and decompressed, in bytes or a size such as 10MiB; a larger page is skipped, a larger feed refused."`
	AllowPrivate string         `name:"allow-private" placeholder:"CIDR[,CIDR...]" help:"Address ranges feeds and pages may be fetched from though they are loopback, private, link-local, carrier-grade NAT, unspecified, multicast or local-use NAT64, all refused by default (a site on a private network; 10.1.0.0/16,fd00::/8)."`
}

// apply checks the flags and sets them in o.
func (r *requestFlags) apply(o *watch.Options) error {
	switch {
	case r.Timeout <= 0:
		return usageError{fmt.Sprintf("--timeout must be positive, not %s", time.Duration(r.Timeout))}
	case r.MaxBytes <= 0:
		return usageError{fmt.Sprintf("--max-bytes must be positive, not %d", r.MaxBytes)}
	}
	allow, err := outbound.ParseAllow(r.AllowPrivate)
	if err != nil {
		return usageError{"--allow-private: " + err.Error()}
	}
	o.Timeout, o.MaxBytes, o.AllowPrivate = time.Duration(r.Timeout), int(r.MaxBytes), allow
	return nil
}

func (f *fetchFlags) options(g *globals) (watch.Options, error) {
	o := watch.Options{UserAgent: f.UserAgent, HostDelay: time.Duration(f.HostDelay),
		MinChars: f.MinChars, GalleryWords: wordList(f.GalleryWords), GalleryTextWords: wordList(f.GalleryText)}
	if f.HostDelay == 0 {
		o.HostDelay = -1
	}
	switch {
	case f.HostDelay < 0:
		return o, usageError{fmt.Sprintf("--host-delay must be 0 or more, not %s", time.Duration(f.HostDelay))}
	case f.MinChars < 0:
		return o, usageError{fmt.Sprintf("--min-chars must be 0 or more (0 keeps every page), not %d", f.MinChars)}
	}
	if err := f.requestFlags.apply(&o); err != nil {
		return o, err
	}
	if f.Rules != "" {
		rs, err := loadRules(f.Rules)
		if err != nil {
			return o, err
		}
		o.Rules = rs
	}
	level := slog.LevelInfo
	if g.quiet {
		level = slog.LevelWarn
	}
	o.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	return o, nil
}

// wordList reads a comma-separated list of words, lower-cased; empty, not
// nil, for none.
func wordList(s string) []string {
	out := []string{}
	for _, w := range strings.Split(s, ",") {
		if w = strings.ToLower(strings.TrimSpace(w)); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// watchCmd is `neardup watch`.
type watchCmd struct {
	dbFlags
	stubFlags
	Once   bool   `help:"Poll every feed once, due or not, and exit (for cron)."`
	Method string `help:"Detection method of a new index, with its default options: ${methods} (default ${default_method}). An existing index keeps its own; naming another is an error."`
	linkFlag
	Workers  int `short:"j" default:"${default_watch_workers}" help:"Feeds polled at once (requests to one host still go one at a time)."`
	MaxItems int `name:"max-items" default:"${default_max_items}" help:"The most items of a feed a poll takes, the newest; the others are left out with a warning. The index remembers the items a feed lists and ${forget_factor} times as many of those it no longer lists."`
	fetchFlags
}

func (c *watchCmd) Run(g *globals) error {
	if c.Workers < 1 {
		return usageError{"--workers must be at least 1"}
	}
	if c.MaxItems < 1 {
		return usageError{"--max-items must be at least 1"}
	}
	o, err := c.options(g)
	if err != nil {
		return err
	}
	o.Workers, o.MaxItems = c.Workers, c.MaxItems
	open := func() (*apiIndex, error) { return c.openWatched(g.ctx) }
	if !c.Once {
		open = func() (*apiIndex, error) {
			return waitingOut(g.ctx, o.Logger, func() (*apiIndex, error) { return c.openWatched(g.ctx) })
		}
	}
	x, err := open()
	if err != nil {
		if !c.Once && g.ctx.Err() != nil {
			return nil // stopped while it waited: gracefully
		}
		return err
	}
	defer x.Close()
	feeds, err := watch.Feeds(g.ctx, x.Index)
	if err != nil {
		return err
	}
	if len(feeds) == 0 {
		return fmt.Errorf("%s: no feeds to watch; add one with neardup feeds add --db %s URL", store.Name(c.DB), store.Redacted(c.DB))
	}
	w, err := watch.New(x.Index, o)
	if err != nil {
		return usageError{err.Error()}
	}
	if !c.Once {
		o.Logger.Info("watching", "feeds", len(feeds), "index", store.Name(c.DB))
		err := w.Run(g.ctx)
		summarize(o.Logger, w.Totals())
		return err
	}
	start := time.Now()
	res, err := w.Once(g.ctx)
	summarize(o.Logger, w.Totals(), "took", time.Since(start).Round(time.Millisecond))
	if ferr := failedFeeds(res); ferr != nil && (err == nil || g.ctx.Err() == nil) {
		return ferr // each feed whose articles or state were not stored among them
	}
	return err
}

// failedFeeds is the error of a pass in which feeds failed: a run from cron
// exits 1 for it, and its mail names them by their own URLs (an error may
// name only the last hop of a redirect). What the other feeds gave is
// stored all the same.
func failedFeeds(res []watch.Result) error {
	var failed []string
	for _, r := range res {
		if r.Status != "error" {
			continue
		}
		msg, feed := r.Err.Error(), watch.ShownURL(r.Feed)
		if !strings.HasPrefix(msg, feed+":") && !strings.HasPrefix(msg, "feed "+feed+" ") && !strings.HasPrefix(msg, "feed "+feed+":") {
			msg = feed + ": " + msg
		}
		failed = append(failed, "  "+msg)
	}
	if len(failed) == 0 {
		return nil
	}
	others := ""
	if len(failed) < len(res) {
		others = " (the articles of the others are stored)"
	}
	return append(linesError{fmt.Sprintf("%d of %d feeds failed%s:", len(failed), len(res), others)}, failed...)
}

// openWatched opens the index, creating it when missing with the default
// method and texts stored: the watcher's articles are kept nowhere else.
func (c *watchCmd) openWatched(ctx context.Context) (*apiIndex, error) {
	if !store.IsPostgres(c.DB) {
		if _, err := os.Stat(c.DB); err != nil {
			return nil, fmt.Errorf("%s: no index there; add a feed with neardup feeds add --db %s URL", c.DB, c.DB)
		}
	}
	return c.openKeepingTexts(ctx, c.Method, &c.linkFlag, c.minChars())
}

// The waits of watch for an index that another process writes to as it
// opens it: the first, and the longest.
var (
	openRetryWait    = 5 * time.Second
	maxOpenRetryWait = 5 * time.Minute
)

// waitingOut opens an index with open and, while another process holds
// its writer lock past the wait while the open writes (a schema to create
// or upgrade, a new index's settings; an import, a rescore) or its database cannot be
// reached (a server starting with the machine), logs it and tries again,
// after openRetryWait, then twice as long each time, as Run waits for its
// writes, until ctx is done.
func waitingOut(ctx context.Context, log *slog.Logger, open func() (*apiIndex, error)) (*apiIndex, error) {
	for wait := openRetryWait; ; wait = min(2*wait, maxOpenRetryWait) {
		x, err := open()
		switch {
		case err == nil || ctx.Err() != nil:
			return x, err
		case errors.Is(err, neardup.ErrLocked):
			log.Warn("another process is writing to the index; trying again", "in", wait, "error", err)
		case neardup.Unreachable(err):
			log.Warn("the index's database cannot be reached; trying again", "in", wait, "error", err)
		default:
			return x, err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, err
		case <-t.C:
		}
	}
}

// summarize logs what a watcher did: its polls by status and its new
// items by outcome, each in a group of its own (polls.error=2,
// items.error=3), as the metrics name them (neardup_watch_polls_total,
// neardup_watch_items_total): "error" and "paused" are both a poll's
// status and an item's outcome, and a key given twice is one a log
// parser keeps one of.
func summarize(log *slog.Logger, t watch.Totals, attrs ...any) {
	for _, g := range []struct {
		name   string
		counts map[string]int
	}{{"polls", t.Polls}, {"items", t.Items}} {
		var group []any
		for _, k := range slices.Sorted(maps.Keys(g.counts)) {
			group = append(group, strings.ReplaceAll(k, " ", "-"), g.counts[k])
		}
		if len(group) > 0 {
			attrs = append(attrs, slog.Group(g.name, group...))
		}
	}
	if t.RuleMisses > 0 {
		attrs = append(attrs, "rule-misses", t.RuleMisses)
	}
	log.Info("watch done", attrs...)
}
