package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/alecthomas/kong"

	"github.com/neardup/neardup"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/job"
	"github.com/neardup/neardup/internal/methodflags"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/internal/progress"
	"github.com/neardup/neardup/internal/span"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/method/rarewords"
)

// indexCmd is `neardup index`: the persistent index.
type indexCmd struct {
	Add     indexAddCmd     `cmd:"" set:"db_file=created when missing" help:"Check documents against everything stored, store them and print their matches (JSONL)."`
	Query   indexQueryCmd   `cmd:"" help:"Check documents against everything stored without storing them."`
	Remove  indexRemoveCmd  `cmd:"" help:"Remove documents by id, with their sketches and marks."`
	Expire  indexExpireCmd  `cmd:"" help:"Remove the documents older than a window: their own date, else when they were stored."`
	Stats   indexStatsCmd   `cmd:"" help:"Print what the index holds (JSON)."`
	Export  indexExportCmd  `cmd:"" help:"Write pairs.jsonl, clusters.jsonl, kept.jsonl, removed.jsonl, rejects.jsonl and stats.json as neardup dedup does."`
	Verify  indexVerifyCmd  `cmd:"" help:"Check the index's integrity; exit 1 on any fault."`
	Repair  indexRepairCmd  `cmd:"" help:"Mend what verify finds: damaged records (documents sketched again from their stored texts, those that cannot be mended removed and listed, to add again; damaged marks), then marks naming no document, copies of nothing and clusters."`
	Rescore indexRescoreCmd `cmd:"" help:"Judge every pair again with the statistics of the whole index, as neardup dedup would (but that every exact copy is matched)."`
}

// dbFlags name the index.
type dbFlags struct {
	DB         string `default:"neardup.db" help:"The index: a SQLite file (${db_file}) or a PostgreSQL URL (postgres://user@host/db)."`
	Sync       string `default:"${default_sync}" enum:"full,normal" help:"SQLite durability: full (an add reported done survives a power cut) or normal (faster; a power cut may lose the last adds, never corrupt the index)."`
	CPUProfile string `name:"cpuprofile" hidden:"" help:"Write a CPU profile of the command, opening the index included, to this file."`

	stopProfile func()
}

// Validate refuses an empty --db (as `--db` given last, without its value,
// is read); kong calls it after parsing.
func (f *dbFlags) Validate() error { return checkDB(f.DB) }

// checkDB is the check of every --db.
func checkDB(db string) error {
	switch {
	case strings.TrimSpace(db) == "":
		return usageError{"--db is empty: name a SQLite file or a PostgreSQL URL"}
	case keywordDSN(db):
		// Read as a path, it would make a SQLite file named by the
		// connection's settings, its password among them.
		return usageError{"--db holds PostgreSQL settings as key=value pairs (host=…, dbname=…): give them as a URL, " +
			"postgres://user:password@host:port/dbname?sslmode=disable"}
	}
	if err := store.CheckURL(db); err != nil {
		// A scheme mistyped, or an @ of the password not escaped: read
		// on, the URL would be a file's path, or its password's tail a
		// host looked up.
		return usageError{"--db: " + strings.TrimPrefix(err.Error(), "store: ")}
	}
	return nil
}

// keywordDSN reports whether db reads as a libpq connection string of
// key=value pairs ("host=db1 dbname=news", "password = pw"): a libpq
// keyword, spaces allowed, then "=", at its start or after a space. A
// SQLite file so named can still be given as ./host=x.
func keywordDSN(db string) bool {
	return libpqPair.MatchString(db)
}

// libpqPair matches a libpq connection string's key and "=" (its
// parameter keywords, PostgreSQL 15).
var libpqPair = regexp.MustCompile(`(?:^|\s)(?:host|hostaddr|port|dbname|user|password|passfile|channel_binding|` +
	`connect_timeout|client_encoding|options|application_name|fallback_application_name|keepalives|keepalives_idle|` +
	`keepalives_interval|keepalives_count|tcp_user_timeout|replication|gssencmode|sslmode|requiressl|sslcompression|` +
	`sslcert|sslkey|sslpassword|sslrootcert|sslcrl|sslcrldir|sslsni|requirepeer|ssl_min_protocol_version|` +
	`ssl_max_protocol_version|krbsrvname|gsslib|service|target_session_attrs|load_balance_hosts|search_path)\s*=`)

// startProfile starts the CPU profile --cpuprofile asks for; close ends
// it.
func (f *dbFlags) startProfile() error {
	if f.CPUProfile == "" {
		return nil
	}
	stop, err := startCPUProfile(f.CPUProfile)
	f.stopProfile = stop
	return err
}

func (f *dbFlags) close() {
	if f.stopProfile != nil {
		f.stopProfile()
		f.stopProfile = nil
	}
}

// noIndex reports whether err, of opening an index that must exist, says
// there is none: a SQLite file missing, or a database without neardup's
// tables. A PostgreSQL socket that is not there (host=/run/postgresql of a
// server not running) is a server out of reach, not a missing index.
func noIndex(err error) bool {
	return errors.Is(err, neardup.ErrNoIndex) || errors.Is(err, fs.ErrNotExist) && !neardup.Unreachable(err)
}

// openStored opens an existing index as it was created, keep choosing
// its clusters' representatives ("" the method's own), through the public
// API, as a program using package neardup opens one: the commands that
// read or maintain an index (query, remove, expire, stats, export, verify,
// rescore) make the calls such a program makes. A file that holds feeds
// alone (feeds add made it) is refused, not given a method and a choice
// of texts that the first add should make.
func (f *dbFlags) openStored(ctx context.Context, keep string) (*apiIndex, error) {
	x, err := f.openAPI(ctx, neardup.Options{Keep: keep, Existing: true})
	if noIndex(err) {
		return nil, fmt.Errorf("%w (neardup index add creates one)", err)
	}
	if errors.Is(err, neardup.ErrNoMethod) {
		return nil, fmt.Errorf("%w; neardup index add, serve or watch choose it as they add the first documents", err)
	}
	return x, err
}

// openAPI opens the index through the public API with the options given
// and --sync, creating it when missing.
func (f *dbFlags) openAPI(ctx context.Context, o neardup.Options) (*apiIndex, error) {
	if err := f.startProfile(); err != nil {
		return nil, err
	}
	o.Sync = f.Sync
	x, err := neardup.Open(ctx, f.DB, o)
	if err != nil {
		f.close()
		return nil, err
	}
	return &apiIndex{Index: x, f: f}, nil
}

// apiIndex is an index opened through the public API that ends the
// command's CPU profile when closed.
type apiIndex struct {
	*neardup.Index
	f *dbFlags
}

func (x *apiIndex) Close() error {
	defer x.f.close()
	return x.Index.Close()
}

// indexAddCmd is `neardup index add`.
type indexAddCmd struct {
	Inputs []string `type:"operands" arg:"" name:"input" help:"Documents to add: any input neardup dedup reads; - for stdin."`
	dbFlags
	Method string `help:"Detection method of a new index: ${methods} (default ${default_method}). An existing index keeps its own; naming another is an error."`
	kong.Plugins
	StoreText   bool   `name:"store-text" default:"true" negatable:"" help:"A new index stores each document's text, for the diffs of serve, search and export with texts; --no-store-text saves the space. An existing index keeps its own choice; asking it for the other is warned of."`
	Replace     bool   `help:"A document whose id is stored replaces it, unless it is the same (then left as stored and reported unchanged); default: it is reported as existing and left alone."`
	Chunk       int    `default:"${default_chunk}" help:"Documents added in one transaction; a document's line is printed once its transaction commits."`
	OnlyMatches bool   `name:"only-matches" help:"Print only the documents with matches."`
	Window      string `help:"Pair a document only with stored documents dated at most this far from it, e.g. 3d (undated documents pair with any)."`
	linkFlag
	stubFlags
	inputFlags

	flags *methodflags.Flags
}

func (c *indexAddCmd) Run(g *globals, kctx *kong.Context) error {
	c.noteGiven(kctx)
	if c.Chunk < 1 {
		return usageError{"--chunk must be at least 1"}
	}
	window, err := parseWindow(c.Window)
	if err != nil {
		return err
	}
	if err := checkMethod(c.Method); err != nil {
		return err
	}
	if err := checkNewFlags(c.DB, c.Method, c.flags); err != nil {
		return err
	}
	co, err := c.corpusOptions()
	if err != nil {
		return err
	}
	co.IndexIDs = true
	co.Waiting = warnWaiting
	r, err := job.OpenFeed(c.Inputs, co)
	if err != nil {
		return err
	}
	defer r.Close()
	link, err := c.linking()
	if err != nil {
		return err
	}
	o := neardup.Options{MethodName: c.Method, StoreTextIfNew: c.StoreText, MinChars: c.minChars(), Link: string(link)}
	if apply := applyFlags(c.flags); apply != nil {
		o.Configure = func(base neardup.MethodOptions) (neardup.MethodOptions, error) { return apply(base) }
	}
	x, err := c.openAPI(g.ctx, o)
	if err != nil {
		return err
	}
	defer x.Close()
	// A choice of texts given that the index does not keep is warned of,
	// either way: the add goes on as the index stores, and reports the
	// same matches. An index that held no document when opened keeps the
	// choice of the first add to store one, which may be another
	// process's: warned of once this add has stored its first.
	texts := x.StoresText()
	c.warnTexts(texts, kctx, g.quiet)
	x.SetWindow(window)
	_, mo, _ := x.Method()
	ro, isRare := mo.(rarewords.Options)
	err = feed(g, x, r, job.FeedOptions{Replace: c.Replace, Chunk: c.Chunk, OnlyMatches: c.OnlyMatches,
		Sources: isRare && !ro.SameSource}, &c.inputFlags)
	if x.StoresText() != texts {
		c.warnTexts(x.StoresText(), kctx, g.quiet)
	}
	if se := (*rarewords.SourceError)(nil); errors.As(err, &se) && se.Source == "" {
		// The refusal's --same-source is an option of a new index: this
		// one, made by this add or before it, keeps its own.
		err = fmt.Errorf("%w (%s keeps the options it was made with: --same-source is an option of a new index)", err, store.Name(c.DB))
	}
	return err
}

// warnTexts warns of a choice of texts given that the index does not
// keep, texts being whether it stores them.
func (c *indexAddCmd) warnTexts(texts bool, kctx *kong.Context, quiet bool) {
	switch {
	case !texts && c.StoreText && onCommandLine(kctx, "store-text"):
		fmt.Fprintf(os.Stderr, "warning: --store-text: %s stores no texts, as it was created to (with --no-store-text); an existing "+
			"index keeps its own choice: add the documents to a new index to store their texts\n", store.Name(c.DB))
	case !texts && !quiet:
		fmt.Fprintf(os.Stderr, "note: %s stores no texts (it was created with --no-store-text): serve shows no diffs of its documents\n", store.Name(c.DB))
	case texts && !c.StoreText:
		fmt.Fprintf(os.Stderr, "warning: --no-store-text: %s stores texts, as it was created to; an existing index keeps its own choice\n", store.Name(c.DB))
	}
}

// linkFlag is --link of the commands that may create an index.
type linkFlag struct {
	Link string `placeholder:"POLICY" help:"How a new index's documents join a cluster, as dedup's --link: any (the default), anchor or majority. An existing index keeps its own; asking it for another is an error."`
}

// linking reads --link: "" when not given.
func (f *linkFlag) linking() (cluster.Linking, error) {
	if f.Link == "" {
		return "", nil
	}
	l, err := cluster.ParseLinking(f.Link)
	if err != nil {
		return "", usageError{"--link: " + err.Error()}
	}
	return l, nil
}

// openKeepingTexts opens the index for a command whose documents live
// nowhere else (serve, watch): a new index is created storing texts and
// linking by link's policy, its settings stored as it opens (the process
// runs long: another's first add asking for others is refused, not its
// own adds later); an existing one keeps its own choices and method.
// minChars is the minimum length of a text compared
// (neardup.Options.MinChars).
func (f *dbFlags) openKeepingTexts(ctx context.Context, method string, link *linkFlag, minChars int) (*apiIndex, error) {
	return f.openKeeping(ctx, method, link, minChars, false)
}

// openKeeping is openKeepingTexts, of an index that exists only, when
// existing: one that holds feeds alone, or no index's tables, is refused
// rather than given a method (see neardup.Options.Existing).
func (f *dbFlags) openKeeping(ctx context.Context, method string, link *linkFlag, minChars int, existing bool) (*apiIndex, error) {
	if err := checkMethod(method); err != nil {
		return nil, err
	}
	l, err := link.linking()
	if err != nil {
		return nil, err
	}
	return f.openAPI(ctx, neardup.Options{MethodName: method, StoreTextIfNew: true, MinChars: minChars, Link: string(l), Existing: existing,
		BindOnOpen: true})
}

// checkMethod refuses a --method this binary does not know.
func checkMethod(method string) error {
	if method == "" {
		return nil
	}
	if _, err := methods.Lookup(method); err != nil {
		return usageError{err.Error()}
	}
	return nil
}

// checkNewFlags refuses method flags out of range for an index that does
// not exist yet (a SQLite file not there), before the file is made: the
// index would refuse them over the method's defaults once it is.
func checkNewFlags(db, method string, flags *methodflags.Flags) error {
	apply := applyFlags(flags)
	if apply == nil || store.IsPostgres(db) {
		return nil
	}
	if _, err := os.Stat(db); err == nil {
		return nil
	}
	spec := methods.All[0]
	if method != "" {
		spec, _ = methods.Lookup(method)
	}
	_, err := apply(spec.Defaults())
	return err
}

// applyFlags returns how the method flags given apply over an index's
// options (see neardup.Options.Configure); nil when none is given.
func applyFlags(flags *methodflags.Flags) func(engine.Config) (engine.Config, error) {
	if len(flags.Given()) == 0 {
		return nil
	}
	return func(base engine.Config) (engine.Config, error) { return flags.Apply(base, methods.All) }
}

// feed runs an add or a query over the inputs r reads, through the
// public Index.AddSeq, and prints the summary.
func feed(g *globals, x *apiIndex, r *corpus.Reader, o job.FeedOptions, in *inputFlags) error {
	o.Add = func(ctx context.Context, docs iter.Seq2[core.Document, error], onMatch func(*neardup.Match) error, waiting func() bool) error {
		return x.AddSeq(ctx, docs, neardup.AddOptions{Replace: o.Replace, Query: o.Query, Chunk: o.Chunk, Workers: o.Workers,
			Waiting: waiting, OnMatch: func(m neardup.Match) error { return onMatch(&m) }})
	}
	o.Workers, o.Strict, o.MaxWarnings = in.Workers, in.Strict, in.maxWarnings()
	o.Out, o.Warn = os.Stdout, visibleLines{os.Stderr}
	if !g.quiet {
		o.Progress = os.Stderr
	}
	st, err := job.Feed(g.ctx, r, o)
	if !g.quiet {
		fmt.Fprintln(os.Stderr, feedSummary(st, o.Query))
	}
	if err == nil && st.Conflicts > 0 {
		// A warning, not a failure: an upgrade that reads a page otherwise
		// (another date, a line less) makes a routine re-add of unchanged
		// files report them so.
		fate := "not stored"
		if o.Query {
			fate = "that index add would not store"
		}
		fmt.Fprintf(os.Stderr, "warning: %s %s: stored already under %s with other content (see the warnings above); %s\n",
			count(st.Conflicts, "document", "documents"), fate, map[bool]string{true: "its id", false: "their ids"}[st.Conflicts == 1],
			conflictAdvice(st.Conflicts, st.UnnamedConflicts))
	}
	return err
}

// conflictAdvice says how to store documents not stored because their ids
// are stored with other content, conflicts of them, unnamed of which have
// no id of their own (named by where they were read): ids of their own keep
// those apart, while a record's own id names a stored document, of which
// it is a new version (--replace) or which its input gives the same id.
func conflictAdvice(conflicts, unnamed int) string {
	switch {
	case unnamed == conflicts:
		return "--replace replaces the stored ones, and records of ids of their own (--id-col) do not collide"
	case unnamed == 0:
		return "--replace replaces the stored ones where these are new versions of them; " +
			"a document that is another needs an id that no other document has"
	}
	return fmt.Sprintf("--replace replaces the stored ones where these are new versions of them; the %d named by where they were "+
		"read would not collide with ids of their own (--id-col), and a document whose own id names another needs an id that "+
		"no other document has", unnamed)
}

// feedSummary says what an add or a query did with the records it read,
// in the manner of documentsNote: the records skipped (neither stored nor
// checked), when there are any, apart from the documents, whose counts by
// status sum to the records read with them; the documents of those that the
// method did not compare, stored or checked all the same, are counted among
// them and said apart ("11 records: 4 documents added, 1 not compared (1
// too-short), 7 skipped (7 malformed)").
func feedSummary(st job.FeedStats, query bool) string {
	var b strings.Builder
	skipped, why := reasonsNote(st.Skipped)
	if skipped > 0 && st.Read > 0 {
		fmt.Fprintf(&b, "%s: ", count(st.Read, "record", "records"))
	}
	if query {
		fmt.Fprintf(&b, "%s checked", count(st.Checked, "document", "documents"))
		if st.Exists > 0 {
			fmt.Fprintf(&b, ", %d already stored", st.Exists)
		}
		if st.Conflicts > 0 {
			fmt.Fprintf(&b, ", %d whose %s stored with other content", st.Conflicts, map[bool]string{true: "id is", false: "ids are"}[st.Conflicts == 1])
		}
	} else {
		fmt.Fprintf(&b, "%s added", count(st.Added, "document", "documents"))
		if st.Replaced > 0 {
			fmt.Fprintf(&b, ", %d replaced", st.Replaced)
		}
		if st.Unchanged > 0 {
			fmt.Fprintf(&b, ", %d unchanged", st.Unchanged)
		}
		if st.Superseded > 0 {
			fmt.Fprintf(&b, ", %d replaced by a later record of %s", st.Superseded, map[bool]string{true: "its id", false: "their ids"}[st.Superseded == 1])
		}
		if st.Exists > 0 {
			fmt.Fprintf(&b, ", %d already stored", st.Exists)
		}
		if st.Conflicts > 0 {
			fmt.Fprintf(&b, ", %d not stored: their ids are stored with other content", st.Conflicts)
		}
	}
	if n, why := reasonsNote(st.NotCompared); n > 0 {
		fmt.Fprintf(&b, ", %d not compared (%s)", n, why)
	}
	if skipped > 0 {
		fmt.Fprintf(&b, ", %d skipped (%s)", skipped, why)
	}
	fmt.Fprintf(&b, "; %d duplicate and %d similar pairs in %.1fs", st.Duplicates, st.Similar, st.Seconds)
	return b.String()
}

// indexQueryCmd is `neardup index query`.
type indexQueryCmd struct {
	Inputs []string `type:"operands" arg:"" name:"input" help:"Documents to check: any input neardup dedup reads; - for stdin."`
	dbFlags
	OnlyMatches bool   `name:"only-matches" help:"Print only the documents with matches."`
	Window      string `help:"Pair a document only with stored documents dated at most this far from it, e.g. 3d (undated documents pair with any)."`
	inputFlags
}

func (c *indexQueryCmd) Run(g *globals, kctx *kong.Context) error {
	c.noteGiven(kctx)
	window, err := parseWindow(c.Window)
	if err != nil {
		return err
	}
	r, err := c.openInputs(c.Inputs)
	if err != nil {
		return err
	}
	defer r.Close()
	x, err := c.openStored(g.ctx, "")
	if err != nil {
		return err
	}
	defer x.Close()
	x.SetWindow(window)
	return feed(g, x, r, job.FeedOptions{Query: true, OnlyMatches: c.OnlyMatches}, &c.inputFlags)
}

// indexRemoveCmd is `neardup index remove`.
type indexRemoveCmd struct {
	IDs []string `type:"operands" arg:"" name:"id" help:"Ids of the documents to remove."`
	dbFlags
}

// Help is the detail of `index remove --help`: its exit code when some ids
// are not stored.
func (c *indexRemoveCmd) Help() string {
	return "The documents are removed in one transaction. An id that is not stored is named on standard error and makes " +
		"the exit code 1, the others removed all the same (\"1 of 2 documents removed\", then \"not stored: \"nosuch\"\")."
}

func (c *indexRemoveCmd) Run(g *globals) error {
	x, err := c.openStored(g.ctx, "")
	if err != nil {
		return err
	}
	defer x.Close()
	ids := distinct(c.IDs)
	removed, err := x.Remove(g.ctx, ids...)
	if err != nil {
		return err
	}
	if !g.quiet {
		fmt.Fprintf(os.Stderr, "%d of %d documents removed\n", len(removed), len(ids))
	}
	if len(removed) < len(ids) {
		gone := map[string]bool{}
		for _, id := range removed {
			gone[id] = true
		}
		var missing []string
		for _, id := range ids {
			if !gone[id] {
				missing = append(missing, strconv.Quote(id))
			}
		}
		return fmt.Errorf("not stored: %s", fewNamed(missing, ", "))
	}
	return nil
}

// distinct returns ids without repeats, in the order first given.
func distinct(ids []string) []string {
	seen := make(map[string]bool, len(ids))
	out := ids[:0:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// indexExpireCmd is `neardup index expire`.
type indexExpireCmd struct {
	dbFlags
	OlderThan string `name:"older-than" required:"" help:"The news window: remove documents dated more than this long ago, e.g. 30d, 12h, 2w."`
}

// Help is the detail of `index expire --help`: its transactions.
func (c *indexExpireCmd) Help() string {
	return "The documents are removed in transactions of up to 10,000, in the order they were stored; an expiry stopped part way " +
		"(killed, or failing) keeps the transactions it committed, the index consistent, and the next one removes the rest."
}

func (c *indexExpireCmd) Run(g *globals) error {
	d, err := parseAge(c.OlderThan)
	if err != nil {
		return usageError{err.Error()}
	}
	x, err := c.openStored(g.ctx, "")
	if err != nil {
		return err
	}
	defer x.Close()
	n, err := x.Expire(g.ctx, time.Now().Add(-d))
	if !g.quiet {
		fmt.Fprintf(os.Stderr, "%s expired\n", count(n, "document", "documents"))
	}
	return err
}

// parseWindow reads --window: "" for none, else a positive duration as
// parseAge reads it.
func parseWindow(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	return parseSpan("--window", s)
}

// parseAge reads --older-than (see parseSpan).
func parseAge(s string) (time.Duration, error) { return parseSpan("--older-than", s) }

// parseSpan reads the value s of flag as a span of time of a second or
// more, as span.ParseDateSpan reads it: numbers, each with its unit, s
// (seconds), min (minutes), h (hours), d (days), w (weeks) or mo (months of
// 30 days), or Go's: "30d", "2w", "36h", "1d12h", "90min", "6mo". A bare
// "m" is refused: minutes or months, a reader cannot tell. A span under a
// second is refused too: a document's date is kept to the second, so that
// --older-than 1ms expired every document dated before this second, and an
// index's --window 500ms was no window at all.
func parseSpan(flag, s string) (time.Duration, error) {
	d, err := span.ParseDateSpan(s)
	if err != nil {
		return 0, usageError{fmt.Sprintf("%s %q: %v", flag, s, err)}
	}
	return d, nil
}

// indexStatsCmd is `neardup index stats`.
type indexStatsCmd struct {
	dbFlags
}

func (c *indexStatsCmd) Run(g *globals) error {
	x, err := c.openStored(g.ctx, "")
	if err != nil {
		return err
	}
	defer x.Close()
	st, err := x.Stats(g.ctx)
	if err != nil {
		return err
	}
	return printJSON(os.Stdout, st)
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// indexExportCmd is `neardup index export`.
type indexExportCmd struct {
	dbFlags
	Out  string `short:"o" default:"out" help:"Output directory."`
	Keep string `default:"" enum:",longest,earliest,first,central" help:"Which member represents a cluster: longest (the most text; the default, but central for cosine), earliest (its original, the member published first), first (read first) or central (the highest mean similarity to the other members, scored as the method scores a pair; in a cluster of more than 64, to the first 64 read; of members that tie, the longest, then the one published first)."`
}

// Validate refuses an empty --db or -o; kong calls it after parsing.
func (c *indexExportCmd) Validate() error {
	if err := checkOut(c.Out); err != nil {
		return err
	}
	return c.dbFlags.Validate()
}

// checkOut is the check of every output directory's -o. "-", which
// stands for stdout wherever neardup writes one file, is refused: the
// results are six files, and a directory named "-" was made.
func checkOut(dir string) error {
	switch {
	case strings.TrimSpace(dir) == "":
		return usageError{"-o is empty: name the output directory"}
	case dir == "-":
		return usageError{"-o -: the results are six files (pairs.jsonl, clusters.jsonl, kept.jsonl, removed.jsonl, rejects.jsonl, stats.json), not one stream: name a directory (./- for one named -)"}
	}
	return nil
}

func (c *indexExportCmd) Run(g *globals) error {
	x, err := c.openStored(g.ctx, c.Keep)
	if err != nil {
		return err
	}
	defer x.Close()
	if err := x.Export(g.ctx, c.Out); err != nil {
		return err
	}
	if g.quiet {
		return nil
	}
	// What was exported: a later read would count what another process
	// stored since.
	var st neardup.IndexStats
	if data, err := os.ReadFile(filepath.Join(c.Out, "stats.json")); err != nil {
		return err
	} else if err := json.Unmarshal(data, &st); err != nil {
		return fmt.Errorf("reading %s: %w", filepath.Join(c.Out, "stats.json"), err)
	}
	fmt.Fprintf(os.Stderr, "%s, %d duplicate and %d similar pairs, %s → %s (pairs.jsonl, clusters.jsonl, kept.jsonl, removed.jsonl, rejects.jsonl, stats.json)\n",
		count(st.Documents, "document", "documents"), st.Marks[core.Duplicate], st.Marks[core.Similar], count(st.Clusters, "cluster", "clusters"), c.Out)
	return nil
}

// indexVerifyCmd is `neardup index verify`.
type indexVerifyCmd struct {
	dbFlags
}

// errFaults marks a verify that found faults: exit code 1, faults printed.
var errFaults = errors.New("the index has faults")

func (c *indexVerifyCmd) Run(g *globals) error {
	x, err := c.openStored(g.ctx, "")
	if errors.Is(err, store.ErrCorrupt) {
		return c.checkStore(g, err)
	}
	if err != nil {
		return err
	}
	defer x.Close()
	var meter *progress.Meter
	if !g.quiet {
		meter = progress.New(os.Stderr)
		meter.Stage("verifying")
	}
	faults, err := x.Verify(g.ctx, func(done int) { meter.Update(done, 0, 0) })
	meter.Done(x.Len())
	if err != nil && faults.Total == 0 {
		return err
	}
	return printFaults(g, faults, err, nil)
}

// checkStore lists the faults of a store whose index could not be loaded
// because of damage (openErr): what SQLite's integrity check finds, and
// every record that does not match its checksum (or holds an impossible
// place), until damage stops the check. It opens the store read-only, and
// returns openErr alone when the store cannot be opened or finds no fault.
func (c *indexVerifyCmd) checkStore(g *globals, openErr error) error {
	so := store.DefaultOptions()
	so.ReadOnly = true
	st, err := store.Open(g.ctx, c.DB, so)
	if err != nil {
		return openErr
	}
	defer st.Close()
	faults, err := st.Check(g.ctx)
	if faults.Total == 0 {
		return openErr
	}
	return printFaults(g, faults, err, openErr)
}

// printFaults prints the faults verify found, one a line, and returns
// errFaults with how many there are, when there are any, and the error
// that stopped the check part way (stopped) and the one that kept the
// index from loading (openErr), when not nil.
func printFaults(g *globals, faults neardup.Faults, stopped, openErr error) error {
	for _, f := range faults.List {
		fmt.Println(f)
	}
	if faults.Total == 0 {
		if !g.quiet {
			fmt.Fprintln(os.Stderr, "the index is sound")
		}
		return nil
	}
	format, args := "%w: %d", []any{errFaults, faults.Total}
	if faults.Total > len(faults.List) {
		format, args = format+" (%d listed)", append(args, len(faults.List))
	}
	if stopped != nil {
		format, args = format+"; the check stopped: %w", append(args, stopped)
	}
	if openErr != nil {
		format, args = format+"; the index does not load: %w", append(args, openErr)
	}
	return fmt.Errorf(format, args...)
}

// indexRepairCmd is `neardup index repair`.
type indexRepairCmd struct {
	dbFlags
}

func (c *indexRepairCmd) Run(g *globals) error {
	r, err := neardup.Repair(g.ctx, c.DB, neardup.Options{Sync: c.Sync})
	for _, line := range r.Lines { // what committed, also before an error
		fmt.Println(line)
	}
	if err != nil {
		return err
	}
	if len(r.Lines) > 0 && !g.quiet {
		fmt.Fprintln(os.Stderr, "repaired: "+repairSummary(r))
	}
	// What is left: the index loads, and verify finds nothing.
	x, err := c.openStored(g.ctx, "")
	if err != nil {
		return fmt.Errorf("the index still does not load: %w", err)
	}
	defer x.Close()
	faults, err := x.Verify(g.ctx, nil)
	if err != nil && faults.Total == 0 {
		return err
	}
	if faults.Total == 0 && len(r.Lines) == 0 {
		if !g.quiet {
			fmt.Fprintln(os.Stderr, "the index is sound: nothing to repair")
		}
		return nil
	}
	return printFaults(g, faults, err, nil)
}

// repairSummary says what a repair did, in a line: "1 document sketched
// again from its stored text, 2 removed (add them again from their
// source), 1 mark mended".
func repairSummary(r neardup.Repaired) string {
	var parts []string
	switch r.Sketched {
	case 0:
	case 1:
		parts = append(parts, "1 document sketched again from its stored text")
	default:
		parts = append(parts, fmt.Sprintf("%d documents sketched again from their stored texts", r.Sketched))
	}
	if r.Places > 0 {
		parts = append(parts, count(r.Places, "place", "places")+" cleared")
	}
	if n := len(r.Removed); n > 0 {
		parts = append(parts, count(n, "document", "documents")+" removed (add them again from their source)")
	}
	if r.Marks > 0 {
		parts = append(parts, count(r.Marks, "mark", "marks")+" mended")
	}
	if r.Entries > 0 {
		parts = append(parts, count(r.Entries, "entry", "entries")+" of the change log cleared")
	}
	if r.LeftOver > 0 {
		parts = append(parts, count(r.LeftOver, "row", "rows")+" of no document deleted")
	}
	if r.Clusters > 0 {
		parts = append(parts, "every cluster placed again ("+count(r.Clusters, "fault", "faults")+" of clusters)")
	}
	return strings.Join(parts, ", ")
}

// indexRescoreCmd is `neardup index rescore`.
type indexRescoreCmd struct {
	dbFlags
	Window string `help:"Pair only documents dated at most this far apart, e.g. 3d (undated documents pair with any), as index add's and dedup's --window. The window of earlier adds is not stored: give it again."`
}

func (c *indexRescoreCmd) Run(g *globals) error {
	window, err := parseWindow(c.Window)
	if err != nil {
		return err
	}
	x, err := c.openStored(g.ctx, "")
	if err != nil {
		return err
	}
	defer x.Close()
	x.SetWindow(window)
	st, err := x.Rescore(g.ctx, nil)
	if err != nil {
		return err
	}
	if !g.quiet {
		fmt.Fprintf(os.Stderr, "%s rescored: %d duplicate and %d similar pairs, %s\n", count(st.Documents, "document", "documents"),
			st.Pairs[neardup.Duplicate], st.Pairs[neardup.Similar], count(st.Clusters, "cluster", "clusters"))
	}
	return nil
}

// count says n of a noun, one when n is 1 and many otherwise: "1
// document", "3 documents".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
