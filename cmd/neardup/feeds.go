package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/alecthomas/kong"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/output"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/watch"
)

// feedsCmd is `neardup feeds`: the feeds neardup watch polls, kept in the
// index.
type feedsCmd struct {
	Add    feedsAddCmd    `cmd:"" set:"db_file=created when missing" help:"Add a feed for neardup watch to poll."`
	List   feedsListCmd   `cmd:"" set:"db_file=it must exist: neardup feeds add creates one" help:"List the feeds: last poll, status, items by outcome, next poll."`
	Set    feedsSetCmd    `cmd:"" set:"db_file=it must exist: neardup feeds add creates one" help:"Change a feed's interval or site rule: each rule flag given replaces that key of the rule (a repeatable flag its whole list), the others stay."`
	Remove feedsRemoveCmd `cmd:"" set:"db_file=it must exist: neardup feeds add creates one" help:"Remove feeds (the articles added from them stay): every URL stored is removed, those not stored are named (exit 1)."`
	Import feedsImportCmd `cmd:"" set:"db_file=created when missing" help:"Add the feeds of a YAML or OPML file; feeds stored already get the settings the file gives and keep the others."`
	Export feedsExportCmd `cmd:"" set:"db_file=it must exist: neardup feeds add creates one" help:"Write the feeds as a YAML file that neardup feeds import reads, or as OPML for feed readers."`
	Test   feedsTestCmd   `cmd:"" help:"Fetch a page and extract it with a site rule, storing nothing: check a rule before saving it."`
}

// ruleFlags are a feed's site rule, given on the command line: a flag a
// key of the rule (ruleKeyFlags). A repeatable flag takes each value
// whole, commas and all: a selector group, a text or a regexp may hold one.
type ruleFlags struct {
	SiteRule   string     `name:"site-rule" placeholder:"SELECTOR" help:"CSS selector of the article body on the feed's pages, e.g. 'article .story-body'."`
	Drop       []string   `sep:"none" placeholder:"SELECTOR" help:"CSS selector of parts of the page to leave out (repeatable)."`
	DropAttr   []attrFlag `name:"drop-attr" sep:"none" placeholder:"TAG[ATTR]=REGEXP" help:"Leave out the elements of a tag whose attribute matches a regexp, any tag when TAG is left out: 'div[class]=^ad', '[id]=promo' (repeatable)."`
	Strip      []string   `sep:"none" placeholder:"TEXT" help:"Boilerplate text to strip from the article (repeatable)."`
	StripRegex []string   `name:"strip-regex" sep:"none" placeholder:"REGEXP" help:"Boilerplate to strip from the article, as a regexp: '(?m)^© .*$' (repeatable)."`
	ArticleURL string     `name:"article-url" placeholder:"REGEXP" help:"Only pages whose URL matches are articles; the others are skipped."`
}

// attrFlag is one --drop-attr: TAG[ATTR]=REGEXP, the element's tag left out
// for any.
type attrFlag watch.AttrFilter

// UnmarshalText reads TAG[ATTR]=REGEXP; the regexp is compiled with the
// rest of the rule (checkFeed), which names the flag of a bad one.
func (a *attrFlag) UnmarshalText(b []byte) error {
	f, err := watch.ParseAttrFilter(string(b))
	*a = attrFlag(f)
	return err
}

// attrFilters returns the filters of --drop-attr; nil for none.
func (f *ruleFlags) attrFilters() []watch.AttrFilter {
	var out []watch.AttrFilter
	for _, a := range f.DropAttr {
		out = append(out, watch.AttrFilter(a))
	}
	return out
}

// rule returns the rule the flags give; nil when they give none.
func (f *ruleFlags) rule() *watch.Rule {
	if f.SiteRule == "" && len(f.Drop) == 0 && len(f.DropAttr) == 0 && len(f.Strip) == 0 && len(f.StripRegex) == 0 &&
		f.ArticleURL == "" {
		return nil
	}
	return &watch.Rule{Body: f.SiteRule, Drop: f.Drop, DropAttr: f.attrFilters(), Strip: f.Strip, StripRegex: f.StripRegex,
		ArticleURL: f.ArticleURL}
}

// update returns the stored rule r (nil for none) with the keys the flags
// give replaced, a repeatable flag's whole list, and the others kept; r
// itself is not changed.
func (f *ruleFlags) update(r *watch.Rule) *watch.Rule {
	out := watch.Rule{}
	if r != nil {
		out = *r
	}
	if f.SiteRule != "" {
		out.Body = f.SiteRule
	}
	if len(f.Drop) > 0 {
		out.Drop = f.Drop
	}
	if len(f.DropAttr) > 0 {
		out.DropAttr = f.attrFilters()
	}
	if len(f.Strip) > 0 {
		out.Strip = f.Strip
	}
	if len(f.StripRegex) > 0 {
		out.StripRegex = f.StripRegex
	}
	if f.ArticleURL != "" {
		out.ArticleURL = f.ArticleURL
	}
	return &out
}

// ruleKeyFlags are the flags of a site rule's keys.
var ruleKeyFlags = map[string]string{"body": "--site-rule", "drop": "--drop", "drop_attr": "--drop-attr", "strip": "--strip",
	"strip_regex": "--strip-regex", "article_url": "--article-url"}

// checkFeed checks a feed given on the command line: a mistake is a usage
// error, one in its site rule named by the flag that gave it.
func checkFeed(f *watch.Feed) error {
	err := f.Check()
	if err == nil {
		return nil
	}
	if errors.As(err, new(*watch.RuleError)) {
		return ruleFlagError(err)
	}
	return usageError{err.Error()}
}

// ruleFlagError returns a mistake in a site rule given by flags as a usage
// error naming the flag: --site-rule: bad CSS selector "div[": ...; other
// errors as they are.
func ruleFlagError(err error) error {
	var re *watch.RuleError
	if !errors.As(err, &re) {
		return err
	}
	flag := ruleKeyFlags[re.Key]
	if flag == "" {
		flag = re.Key
	}
	return usageError{flag + ": " + re.Msg}
}

// feedDB names the index of the feeds commands, which open its store only:
// they neither need nor load the in-memory index.
type feedDB struct {
	DB string `default:"neardup.db" help:"The index: a SQLite file (${db_file}) or a PostgreSQL URL."`
}

// Validate refuses an empty --db; kong calls it after parsing.
func (f *feedDB) Validate() error { return checkDB(f.DB) }

func (f *feedDB) open(ctx context.Context) (*neardup.FeedTables, error) {
	return neardup.OpenFeeds(ctx, f.DB)
}

// openExisting opens an index that must exist already.
func (f *feedDB) openExisting(ctx context.Context) (*neardup.FeedTables, error) {
	t, err := neardup.OpenStoredFeeds(ctx, f.DB)
	if noIndex(err) {
		return nil, fmt.Errorf("%w (neardup feeds add creates one)", err)
	}
	return t, err
}

// feedsAddCmd is `neardup feeds add`.
type feedsAddCmd struct {
	URL string `arg:"" name:"url" help:"The feed's URL (RSS, Atom or JSON Feed)."`
	feedDB
	Interval watch.Duration `default:"${default_interval}" help:"How often the feed is polled, at least 1m: 15m, 1h30m, 2d, 1w (the forms of index expire --older-than; m is minutes)."`
	NoCheck  bool           `name:"no-check" help:"Add the feed without fetching it first; by default it is fetched, as neardup watch would (give the --timeout, --max-bytes and --allow-private that watch runs with), and refused when it is not an RSS, Atom or JSON feed."`
	requestFlags
	ruleFlags
}

func (c *feedsAddCmd) Run(g *globals) error {
	f := watch.Feed{URL: c.URL, Interval: c.Interval, Rule: c.rule()}
	if err := checkFeed(&f); err != nil {
		return err
	}
	f.URL, _ = watch.FeedURL(f.URL) // checked
	o := watch.Options{HostDelay: -1}
	if err := c.requestFlags.apply(&o); err != nil {
		return err
	}
	if !c.NoCheck {
		n, err := watch.CheckFeed(g.ctx, f.URL, o)
		if err != nil {
			return fmt.Errorf("%w (--no-check adds it all the same)", err)
		}
		if !g.quiet {
			fmt.Fprintf(os.Stderr, "%s is a feed of %s\n", watch.ShownURL(f.URL), count(n, "item", "items"))
		}
	}
	st, err := c.open(g.ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := watch.AddFeed(g.ctx, st, f); err != nil {
		return err
	}
	if !g.quiet {
		// A watcher already running reads the stored feeds again within
		// a minute (watch.Run), and polls the feed, due, when a worker is
		// free and its host under the limit of its feeds' workers.
		fmt.Fprintf(os.Stderr, "added %s, polled every %s; run neardup watch --db %s (a watch running reads it within a minute and polls it when a worker is free)\n",
			watch.ShownURL(f.URL), f.Interval, shellWord(store.Redacted(c.DB)))
	}
	return nil
}

// feedsSetCmd is `neardup feeds set`.
type feedsSetCmd struct {
	URL string `arg:"" name:"url" help:"The feed's URL, as added."`
	feedDB
	Interval  watch.Duration `help:"How often the feed is polled, at least 1m: 15m, 1h30m, 2d, 1w (the forms of index expire --older-than; m is minutes); not given, the interval stays."`
	NoRule    bool           `name:"no-rule" help:"Remove the feed's site rule."`
	ruleFlags `embed:""`
}

// given reports whether the command line gives the flag of a name, whatever
// its value: --interval 0s is given, and refused.
func given(kctx *kong.Context, name string) bool {
	for _, f := range kctx.Flags() {
		if f.Name == name {
			return f.Set
		}
	}
	return false
}

func (c *feedsSetCmd) Run(g *globals, kctx *kong.Context) error {
	if _, err := watch.FeedURL(c.URL); err != nil {
		return usageError{err.Error()}
	}
	rule := c.rule()
	if c.NoRule && rule != nil {
		return usageError{"--no-rule with a rule's flags"}
	}
	interval := given(kctx, "interval")
	st, err := c.openExisting(g.ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	// One transaction from the read to the write: an import or another
	// set meanwhile is not undone.
	err = watch.UpdateFeed(g.ctx, st, c.URL, func(f *watch.Feed) error {
		if interval {
			f.Interval = c.Interval
		}
		switch {
		case c.NoRule:
			f.Rule = nil
		case rule != nil:
			f.Rule = c.update(f.Rule)
		}
		return checkFeed(f)
	})
	if errors.Is(err, watch.ErrNoFeed) {
		return fmt.Errorf("%s: %w", store.Name(c.DB), err)
	}
	return err
}

// feedsRemoveCmd is `neardup feeds remove`.
type feedsRemoveCmd struct {
	URLs []string `type:"operands" arg:"" name:"url" help:"The feeds' URLs, as added."`
	feedDB
}

func (c *feedsRemoveCmd) Run(g *globals) error {
	st, err := c.openExisting(g.ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	// A URL that is no feed's is a mistake, exit 2, unless a feed is
	// stored under it as given: an older neardup stored some that add,
	// set and import now refuse (a space, a port out of range).
	var storedAs map[string]bool
	for _, u := range c.URLs {
		if _, err := watch.FeedURL(u); err != nil {
			if storedAs == nil {
				feeds, ferr := watch.Feeds(g.ctx, st)
				if ferr != nil {
					return ferr
				}
				storedAs = map[string]bool{}
				for _, f := range feeds {
					storedAs[f.URL] = true
				}
			}
			if !storedAs[u] {
				return usageError{err.Error()}
			}
		}
	}
	var unknown []string
	removed, seen := 0, map[string]bool{}
	for _, u := range c.URLs {
		key, err := watch.FeedURL(u)
		if err != nil {
			key = u // stored as given (above)
		}
		if seen[key] {
			continue // one feed given twice is removed once
		}
		seen[key] = true
		switch err := watch.RemoveFeed(g.ctx, st, u); {
		case errors.Is(err, watch.ErrNoFeed):
			unknown = append(unknown, watch.ShownURL(u))
		case err != nil:
			return fmt.Errorf("%d of %d feeds removed: %w", removed, len(seen), err)
		default:
			removed++
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("%d of %d feeds removed; %w: %s", removed, len(seen), watch.ErrNoFeed, fewNamed(unknown, " "))
	}
	return nil
}

// feedsListCmd is `neardup feeds list`.
type feedsListCmd struct {
	feedDB
	JSON bool `name:"json" help:"Print one JSON object per feed, with its settings, state and item counts."`
}

func (c *feedsListCmd) Run(g *globals) error {
	st, err := c.openExisting(g.ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	feeds, err := watch.Feeds(g.ctx, st)
	if err != nil {
		return err
	}
	if c.JSON {
		enc := json.NewEncoder(os.Stdout)
		for _, f := range feeds {
			f.URL = watch.ShownURL(f.URL) // the password left out, as in the table
			f.Interval = f.Every()        // the interval in force, as in the table
			if err := enc.Encode(f); err != nil {
				return err
			}
		}
		return nil
	}
	return listFeeds(os.Stdout, feeds, time.Now())
}

// listFeeds writes feeds as a table.
func listFeeds(out io.Writer, feeds []watch.Stored, now time.Time) error {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "FEED\tEVERY\tLAST POLL\tSTATUS\tADDED\tDUPLICATES\tSKIPPED\tERRORS\tRULE MISSES\tNEXT POLL")
	for _, f := range feeds {
		var added, dups, skipped, errs int
		for outcome, n := range f.Items {
			switch outcome {
			case watch.OutcomeAdded, watch.OutcomeSimilar:
				added += n
			case watch.OutcomeDuplicate:
				dups += n
			case watch.OutcomeError:
				errs += n
			default: // exists (another feed's item stored the article), too-short, refused, ...
				skipped += n
			}
		}
		last, status, next := "never", f.State.Status, "now"
		if !f.State.LastPoll.IsZero() {
			last = ago(now.Sub(f.State.LastPoll)) + " ago"
		}
		if status == "" {
			status = "-"
		}
		if f.State.Cut > 0 && !strings.HasPrefix(status, "error") {
			status += fmt.Sprintf(" (%d items left out)", f.State.Cut)
		}
		if len(status) > 60 {
			status = status[:57] + "..."
		}
		if d := f.NextPoll.Sub(now); d > 0 {
			next = "in " + ago(d)
		}
		every := f.Every().String()
		if f.IntervalUnreadable {
			every += " (default: unreadable)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\n", watch.ShownURL(f.URL), every, last, status, added, dups, skipped, errs, f.State.RuleMisses, next)
	}
	return tw.Flush()
}

// ago writes a duration for people: "3m", "2h5m", "4d".
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return d.Round(time.Second).String()
	case d < 24*time.Hour:
		return strings.TrimSuffix(d.Round(time.Minute).String(), "0s")
	default:
		return fmt.Sprintf("%dd", int(d.Hours()/24))
	}
}

// feedsImportCmd is `neardup feeds import`.
type feedsImportCmd struct {
	File string `arg:"" help:"A YAML file of feeds (as neardup feeds export writes), or an OPML subscription list (as feed readers export; the URLs alone: new feeds polled every 15m with no site rule, known ones unchanged)."`
	feedDB
}

func (c *feedsImportCmd) Run(g *globals) error {
	feeds, err := watch.ReadFile(c.File)
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe) && pe.Path == c.File && notAFile(pe):
		// Not there, or not a file: a mistake in the command line.
		return usageError{fmt.Sprintf("%s: %v", c.File, pe.Err)}
	case err != nil:
		return err
	}
	st, err := c.open(g.ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	added, updated, err := watch.Import(g.ctx, st, feeds)
	if err != nil {
		return err
	}
	if !g.quiet {
		msg := fmt.Sprintf("%s added, %d updated", count(added, "feed", "feeds"), updated)
		if same := len(feeds) - added - updated; same > 0 {
			msg += fmt.Sprintf(", %d unchanged", same)
		}
		fmt.Fprintln(os.Stderr, msg)
	}
	return nil
}

// feedsExportCmd is `neardup feeds export`.
type feedsExportCmd struct {
	feedDB
	Output string `short:"o" default:"-" help:"The file to write; - for stdout. A file is replaced whole or not at all."`
	Format string `enum:",yaml,opml" default:"" help:"yaml (intervals and site rules; what feeds import reads back whole) or opml (the URLs alone, for feed readers); default: opml when -o ends in .opml, else yaml."`
}

// Validate refuses an empty --db or -o; kong calls it after parsing.
func (c *feedsExportCmd) Validate() error {
	if c.Output == "" {
		return usageError{"-o is empty: name a file, or - for stdout"}
	}
	return checkDB(c.DB)
}

func (c *feedsExportCmd) Run(g *globals) error {
	st, err := c.openExisting(g.ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	export := watch.Export
	if c.Format == "opml" || c.Format == "" && strings.EqualFold(filepath.Ext(c.Output), ".opml") {
		export = watch.ExportOPML
	}
	if c.Output == "-" {
		return export(g.ctx, st, os.Stdout)
	}
	// A file that lacks the feeds left out is written all the same: it
	// holds every other one, and the error names those.
	var left *watch.ExportError
	err = output.WriteAtomic(c.Output, func(w *bufio.Writer) error {
		if err := export(g.ctx, st, w); !errors.As(err, &left) {
			return err
		}
		return nil
	})
	if err != nil {
		return err
	}
	if left != nil {
		return left
	}
	return nil
}

// feedsTestCmd is `neardup feeds test`.
type feedsTestCmd struct {
	Page string `arg:"" name:"page-url" help:"The URL of an article page of the feed; given the feed's own URL, the page of its newest item the watcher would extract is tried, of the ${max_try_items} newest whose pages it would fetch, each passed over said on stderr."`
	ruleFlags
	fetchFlags
	JSON bool `name:"json" help:"Print the result as JSON."`
}

func (c *feedsTestCmd) Run(g *globals) error {
	page, err := watch.PageURL(c.Page)
	if err != nil {
		return usageError{err.Error()}
	}
	c.Page = page
	o, err := c.options(g)
	if err != nil {
		return err
	}
	t, err := watch.Try(g.ctx, c.Page, c.rule(), o)
	if err != nil {
		return ruleFlagError(err)
	}
	if t.Article.RuleMiss != "" {
		fmt.Fprintf(os.Stderr, "neardup: warning: %s\n", t.Article.RuleMiss)
	}
	t.URL, t.Canonical = watch.ShownURL(t.URL), watch.ShownURL(t.Canonical) // a private page's password left out
	if t.Feed != nil {
		t.Feed.URL, t.Feed.Page = watch.ShownURL(t.Feed.URL), watch.ShownURL(t.Feed.Page)
	}
	if c.JSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(t)
	}
	if t.Feed != nil {
		passed := ""
		if t.Feed.Passed != "" {
			passed = ", newer ones passed over (" + t.Feed.Passed + ")"
		}
		field("Feed", fmt.Sprintf("%s: a feed (%s, %s), not an article page; the page of its newest item the watcher would extract is tried%s",
			t.Feed.URL, t.Feed.Format, count(t.Feed.Items, "item", "items"), passed))
		for _, p := range t.Feed.PassedOver {
			field("Passed", p.String())
		}
	}
	field("URL", t.URL)
	field("Stored under", t.Canonical) // the URL made canonical, never the one the page names (JSON: canonical)
	for _, f := range []struct{ label, value string }{{"Gallery", t.Gallery}, {"Skipped", string(t.Skip)}, {"Rule", t.Article.RuleMiss}} {
		if f.value != "" {
			field(f.label, f.value)
		}
	}
	field("Title", t.Article.Title)
	field("Language", t.Article.Lang)
	if !t.Article.Date.IsZero() {
		field("Date", core.FormatDate(t.Article.Date, time.RFC3339))
	}
	fmt.Printf("%-14s%d characters\n\n%s\n", "Text:", len([]rune(t.Article.Text)), t.Article.Text)
	return nil
}

// field prints one line of feeds test's text output: its label and the
// value, the values of every line in one column.
func field(label, value string) { fmt.Printf("%-14s%s\n", label+":", value) }

// shellWord returns s as one word of a POSIX shell command line: as it is
// when it holds only characters no shell reads specially, else in single
// quotes (a URL's "&" and "?" would cut or glob it).
func shellWord(s string) string {
	safe := s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@%+=,", r))
	}) < 0
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
