// Command neardup finds duplicate and near-duplicate documents.
//
// This file is the composition root: it declares the commands, parses the
// command line and maps errors to exit codes. Each command lives in its own
// file as a flag struct whose Run method calls a testable run function.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"reflect"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/alecthomas/kong"
	"github.com/dustin/go-humanize"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/diff"
	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/internal/extract/rules"
	"github.com/neardup/neardup/internal/extract/source"
	"github.com/neardup/neardup/internal/job"
	"github.com/neardup/neardup/internal/methodflags"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/internal/output"
	"github.com/neardup/neardup/internal/report"
	"github.com/neardup/neardup/internal/server"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/watch"
	"github.com/neardup/neardup/method/rarewords"
)

// cli lists the commands. Each field's type is defined in <command>.go.
type cli struct {
	Quiet   bool             `help:"No progress output on stderr." short:"q"`
	Version kong.VersionFlag `help:"Print the version and exit."`

	Dedup   dedupCmd   `cmd:"" help:"Find duplicate and near-duplicate documents in a corpus."`
	Convert convertCmd `cmd:"" help:"Write any input neardup reads as JSON Lines, each record as dedup reads it, under the id dedup gives it."`
	Index   indexCmd   `cmd:"" help:"Keep a persistent index: check each new document against everything stored, on arrival."`
	Diff    diffCmd    `cmd:"" help:"Show what two documents share, side by side or inline, with each side's overlap."`
	Eval    evalCmd    `cmd:"" help:"Measure predictions against a labelled truth: pair P/R/F1, ARI, B-cubed."`
	Extract extractCmd `cmd:"" help:"Extract articles (title, text, date, author, language) from HTML pages, archives and WARC files."`
	Watch   watchCmd   `cmd:"" set:"db_file=it must exist: neardup feeds add creates one" help:"Poll web feeds, extract each new article and add it to the index, checked on arrival."`
	Feeds   feedsCmd   `cmd:"" help:"Manage the feeds neardup watch polls: add, list, set, remove, import, export, test a site rule."`
	Serve   serveCmd   `cmd:"" set:"db_file=created when missing, with --token-file or --watch" help:"Serve the index over HTTP: add and check documents, browse clusters, diffs and search (JSON API; web UI)."`
}

// globals is what every command's Run receives besides its own flags.
type globals struct {
	ctx   context.Context
	quiet bool
}

// usageError marks a mistake in the command line; it exits with code 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// ownFailure is the failure of a command that stops gracefully on SIGINT
// or SIGTERM (serve), met while it stopped or before: it exits 1 with its
// message, a signal or none, where the error of a batch command that a
// signal stopped exits 128 + the signal's number.
type ownFailure struct{ error }

func (e ownFailure) Unwrap() error { return e.error }

func main() {
	ctx, stop := signalContext()
	defer stop()
	os.Exit(run(ctx, os.Args[1:]))
}

// stopSignal is the cause of the context's end when SIGINT or SIGTERM
// stops a command.
type stopSignal struct{ sig syscall.Signal }

func (s stopSignal) Error() string { return "stopped by " + signalName(s.sig) }

func signalName(s syscall.Signal) string {
	if s == syscall.SIGINT {
		return "SIGINT"
	}
	if s == syscall.SIGTERM {
		return "SIGTERM"
	}
	return s.String()
}

// signalContext returns a context that SIGINT or SIGTERM ends, with the
// signal as its cause: a command stops, removes its temporary files and
// exits with 128 + the signal's number (130, 143), or, for the commands
// that run until stopped (watch), ends gracefully with 0. A second signal
// ends the process at once. SIGPIPE kills it no more: a write to a closed
// pipe fails with EPIPE, a warning on a stderr gone dropped.
func signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	// A pipe closed under stdout or stderr (2>&1 | head -1) makes the
	// write fail with EPIPE instead of killing the process: a warning or
	// progress line on a stderr gone is dropped, and a command writing
	// its results on a stdout gone fails with that error, removing its
	// temporary files and lock. (The channel is never read: a full one
	// drops the signal.)
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	go func() {
		s, ok := <-ch
		if !ok {
			return
		}
		sig, _ := s.(syscall.Signal)
		cancel(stopSignal{sig})
		if s, ok = <-ch; ok {
			sig, _ = s.(syscall.Signal)
			fmt.Fprintf(os.Stderr, "neardup: %s again: stopping at once\n", signalName(sig))
			os.Exit(128 + int(sig))
		}
	}()
	return ctx, func() { signal.Stop(ch); close(ch); cancel(nil) }
}

// stdoutGone reports whether err is a write to standard output that failed
// because the pipe under it was closed (neardup … | head -1). A broken pipe
// elsewhere, a database connection's, is an error like any other.
func stdoutGone(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Path == os.Stdout.Name() && errors.Is(pe.Err, syscall.EPIPE)
}

// run parses args, runs the chosen command and returns the exit code:
// 0 success, 1 failure, 2 bad usage, 128 + the signal's number when SIGINT
// or SIGTERM stopped it (130, 143), but 1 for an ownFailure.
func run(ctx context.Context, args []string) (code int) {
	var c cli
	parser, err := newParser(&c, kong.UsageOnError(), onlyCommand(args),
		// --help makes kong exit: turn that into a return from run.
		kong.Exit(func(code int) { panic(helpExit(code)) }))
	if err != nil {
		panic(err) // the cli struct is malformed: a programmer error
	}
	defer func() {
		if r := recover(); r != nil {
			h, ok := r.(helpExit)
			if !ok {
				panic(r)
			}
			code = int(h)
		}
	}()
	kctx, err := parser.Parse(args)
	if err != nil {
		if !printUsageIfNoCommand(parser, err) {
			fmt.Fprintf(os.Stderr, "neardup: %v\n", err)
		}
		return 2
	}
	err = kctx.Run(&globals{ctx: ctx, quiet: c.Quiet})
	var stopped stopSignal
	if err != nil && !errors.As(err, new(ownFailure)) && errors.As(context.Cause(ctx), &stopped) {
		fmt.Fprintf(os.Stderr, "neardup: %v\n", stopped)
		return 128 + int(stopped.sig)
	}
	return exitCode(err)
}

// printUsageIfNoCommand prints on the parser's stderr the help of a
// command group the command line named without one of its commands (a bare
// `neardup`, `neardup index`), in place of the error that one is expected,
// and reports whether it did.
func printUsageIfNoCommand(parser *kong.Kong, err error) bool {
	var pe *kong.ParseError
	if !errors.As(err, &pe) || pe.Context == nil || !strings.HasPrefix(err.Error(), "expected") {
		return false
	}
	node := pe.Context.Selected()
	if node == nil {
		node = parser.Model.Node
	}
	if !slices.ContainsFunc(node.Children, func(n *kong.Node) bool { return n.Type == kong.CommandNode }) {
		return false
	}
	stdout := parser.Stdout
	parser.Stdout = parser.Stderr
	defer func() { parser.Stdout = stdout }()
	return pe.Context.PrintUsage(false) == nil
}

// newParser returns the parser of the command line into c: the method
// flags made from the methods' options, the variables help texts name.
func newParser(c *cli, options ...kong.Option) (*kong.Kong, error) {
	flags := methodflags.New(methods.All)
	c.Dedup.flags, c.Index.Add.flags = flags, flags
	c.Dedup.Plugins = kong.Plugins{flags.Plugin()}
	c.Index.Add.Plugins = kong.Plugins{flags.Plugin()}
	return kong.New(c, append([]kong.Option{
		kong.Name("neardup"),
		kong.Description("Find duplicate and near-duplicate documents, above all news articles."),
		// A flag's value may begin with a hyphen: --number-agreement -1.
		kong.WithHyphenPrefixedParameters(true),
		// A "--" among the operands ends the flags (see operandsMapper).
		kong.NamedMapper("operands", operandsMapper),
		kong.KindMapper(reflect.String, stringMapper),
		kong.Vars{"version": version(), "max_bytes": strconv.Itoa(corpus.DefaultMaxBytes),
			"methods": strings.Join(methods.Names(), ","), "default_method": methods.All[0].Name,
			"formats":            strings.Join(container.RecordFormatNames(), ","),
			"kept_names":         strings.Join(output.KeptNames(), ","),
			"default_user_agent": watch.DefaultUserAgent, "default_gallery_words": strings.Join(watch.DefaultGalleryWords, ","),
			"default_gallery_text_words": strings.Join(watch.DefaultGalleryTextWords, ","),
			"default_min_text":           strconv.Itoa(analysis.DefaultStubChars)},
		defaultVars(),
	}, options...)...)
}

// stringMapper reads a text flag's value, as kong does, and refuses one
// given last on the line with no value: with values that may begin with a
// hyphen, kong reads it as empty, and an empty --allow-private or --rules
// means none. An empty value given as such (--rules=) is read.
var stringMapper = kong.MapperFunc(func(ctx *kong.DecodeContext, target reflect.Value) error {
	if ctx.Scan.Peek().IsEOL() {
		return errors.New("missing value")
	}
	return ctx.Scan.PopValueInto("string", target.Addr().Interface())
})

// seconds writes a duration of whole seconds as a flag takes it: "60s".
func seconds(d time.Duration) string { return strconv.Itoa(int(d/time.Second)) + "s" }

// short writes a duration as a flag's default shows it: 15m, not 15m0s.
func short(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// defaultVars are the defaults the flags of serve, watch, extract, the
// inputs and the index commands show, read from the options of the parts
// they set: stated there only.
func defaultVars() kong.Vars {
	so, sv := store.DefaultOptions(), server.DefaultOptions()
	return kong.Vars{"default_sync": so.Sync, "db_file": "it must exist: neardup index add creates one",
		"default_max_body": strconv.FormatInt(sv.MaxBodyBytes, 10), "default_max_batch": strconv.Itoa(sv.MaxBatch),
		"default_max_query_bytes": strconv.FormatInt(sv.MaxQueryBytes, 10), "default_query_queue": strconv.Itoa(sv.QueryQueue),
		"default_query_wait":   strconv.Itoa(int(sv.QueryWait/time.Second)) + " s",
		"default_read_timeout": seconds(sv.ReadTimeout), "default_write_timeout": seconds(sv.WriteTimeout),
		"default_idle_timeout": seconds(sv.IdleTimeout), "default_watch_workers": strconv.Itoa(watch.DefaultWorkers),
		"default_host_delay": watch.DefaultHostDelay.String(), "default_fetch_timeout": watch.DefaultTimeout.String(),
		"default_watch_min_chars": strconv.Itoa(watch.DefaultMinChars), "default_max_items": strconv.Itoa(watch.DefaultMaxItems), "forget_factor": strconv.Itoa(watch.ForgetFactor),
		"default_min_chars": strconv.Itoa(extract.DefaultMinChars), "default_max_elements": strconv.Itoa(extract.DefaultMaxElements),
		"default_max_attributes": strconv.Itoa(extract.DefaultMaxAttributes),
		"default_page_timeout":   extract.DefaultTimeout.String(),
		"default_max_inflate":    strconv.FormatInt(container.DefaultMaxInflate, 10), "default_max_ratio": strconv.FormatInt(container.DefaultMaxRatio, 10),
		"default_chunk": strconv.Itoa(neardup.DefaultChunk), "default_max_warnings": strconv.Itoa(job.DefaultMaxWarnings),
		"default_checkpoint_every": strconv.Itoa(job.DefaultCheckpointEvery), "default_report_clusters": strconv.Itoa(report.DefaultClusters),
		"default_report_members": strconv.Itoa(report.DefaultMembers), "default_interval": short(watch.DefaultInterval),
		"max_try_items": strconv.Itoa(watch.MaxTryItems), "default_max_stream": sizeFlag(corpus.DefaultMaxStreamCopy)}
}

// onlyCommand keeps, of the commands, only the one args name, when they name
// one: kong interpolates the help of every flag of every command when it
// builds the parser, for the few hundred flags of all commands half the
// instructions of a command that does little (a one-document query), and a
// command's run needs only its own flags. A command is named by the first
// argument that is not a flag, and a subcommand (index add) by the next,
// as long as the flags before it take no value (those of the program and
// of index and feeds do not). Arguments that name no command keep
// them all, for the overview and for kong's suggestions.
func onlyCommand(args []string) kong.Option {
	return kong.PostBuild(func(k *kong.Kong) error {
		node := k.Model.Node
		for len(args) > 0 && !slices.ContainsFunc(node.Flags, func(f *kong.Flag) bool { return !f.IsBool() && !f.IsCounter() }) {
			i := slices.IndexFunc(args, func(a string) bool { return !strings.HasPrefix(a, "-") })
			if i < 0 {
				return nil
			}
			j := slices.IndexFunc(node.Children, func(n *kong.Node) bool { return n.Type == kong.CommandNode && n.Name == args[i] })
			if j < 0 {
				return nil
			}
			node.Children = node.Children[j : j+1]
			node, args = node.Children[0], args[i+1:]
		}
		return nil
	})
}

// version is neardup's version as the build recorded it (see versionOf).
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "neardup (no build information recorded)"
	}
	return versionOf(bi)
}

// versionOf says which neardup bi describes: the module's version when it
// was installed as a module (go install …@v1.2.3), else the commit it was
// built from, the commit's time and whether the work tree had changes
// (go build and go install record them in a git clone), and the Go release.
// A binary that recorded neither (go run, -buildvcs=false) says how to get
// one that does.
func versionOf(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "(devel)" {
		v = ""
	}
	var rev, when string
	var dirty bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
			if len(rev) > 12 {
				rev = rev[:12]
			}
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	var parts []string
	if v != "" {
		parts = append(parts, v)
	}
	if rev != "" {
		c := "commit " + rev
		if when != "" {
			c += " (" + when + ")"
		}
		if dirty {
			c += " with uncommitted changes"
		}
		parts = append(parts, c)
	}
	if len(parts) == 0 {
		parts = append(parts, "development build, no version or commit recorded (go run and -buildvcs=false record none; go build or go install in a git clone does)")
	}
	return "neardup " + strings.Join(parts, ", ") + ", " + bi.GoVersion
}

// helpExit carries kong's exit code after it printed help.
type helpExit int

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if stdoutGone(err) {
		// The reader of the results went away (| head): the command has
		// stopped and cleaned up, and ends as SIGPIPE would have ended it,
		// without a word.
		return 128 + int(syscall.SIGPIPE)
	}
	msg := diff.VisibleLine(flagWords(err))
	var ml multiLine
	if errors.As(err, &ml) {
		lines := ml.Lines()
		for i, l := range lines {
			lines[i] = diff.VisibleLine(l)
		}
		msg = strings.Join(lines, "\n")
	}
	fmt.Fprintf(os.Stderr, "neardup: %s\n", msg)
	var fe *corpus.FieldError
	if errors.As(err, &fe) {
		fmt.Fprintf(os.Stderr, "neardup: %s\n", diff.VisibleLine(fe.Hint()))
	}
	var ue usageError
	var me methodflags.UsageError
	// A mistake in a site rule is the user's, as a bad flag is. One in a
	// feed's rule is a usage error when flags gave it (ruleFlagError), and a
	// bad file's content, exit 1, when a feeds file did. So is an input
	// named twice on the command line, or one that is not there, and an
	// extra output (--report, --titles-csv, --matrix) that names a result
	// file, a directory or another extra output, and an index URL the store
	// refuses as it is written.
	if errors.As(err, &ue) || errors.As(err, &me) || errors.As(err, new(*rules.Error)) || errors.Is(err, corpus.ErrGivenTwice) ||
		errors.As(err, new(*store.URLError)) ||
		errors.Is(err, source.ErrStdinTwice) || errors.As(err, new(*container.MissingError)) || errors.As(err, new(*output.PathError)) {
		return 2
	}
	return 1
}

// multiLine is an error of several lines by design (a line for each feed
// that failed, watch.ExportError), each shown escaped by itself; the
// message of any other error is one line, its line ends escaped with its
// other control characters (diff.VisibleLine), as a file name may hold
// them.
type multiLine interface {
	error
	// Lines returns the message's lines, without their line ends, in a
	// slice the caller may change.
	Lines() []string
}

// linesError is a multiLine error of the lines it holds.
type linesError []string

func (e linesError) Error() string   { return strings.Join(e, "\n") }
func (e linesError) Lines() []string { return slices.Clone(e) }

// visibleLines writes to w the messages written to it, one a Write, with
// the control characters of each escaped (diff.VisibleLine) but for the
// line end that ends it: the warnings and errors that name files, archive
// members and ids, which may hold ESC, BEL or a line end, reach the
// terminal as text, each on a line of its own.
type visibleLines struct{ w io.Writer }

func (v visibleLines) Write(p []byte) (int, error) {
	msg, nl := strings.CutSuffix(string(p), "\n")
	msg = diff.VisibleLine(msg)
	if nl {
		msg += "\n"
	}
	if _, err := io.WriteString(v.w, msg); err != nil {
		return 0, err
	}
	return len(p), nil
}

// sizeFlag writes n bytes as a size flag takes it, exactly, in the largest
// unit that divides it: "32GiB", "500MB", "1000B".
func sizeFlag(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"TiB", 1 << 40}, {"TB", 1e12}, {"GiB", 1 << 30}, {"GB", 1e9}, {"MiB", 1 << 20}, {"MB", 1e6}, {"KiB", 1 << 10}, {"kB", 1e3}} {
		if n >= u.size && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10) + "B"
}

// flagWords is err's message as the command line says it: where a
// library error names the Go options that help, it names the flags.
func flagWords(err error) string {
	msg := err.Error()
	var se *rarewords.SourceError
	if errors.As(err, &se) {
		var ke *job.KindsError
		kinds := corpus.KindFields
		if errors.As(err, &ke) && ke.Kinds != 0 {
			kinds = ke.Kinds
		}
		flags := "rarewords compares documents of different sources, and no document has a source: give them one (" +
			sourceHint(kinds) + "), or compare within one source with --same-source"
		if se.Source != "" {
			flags = fmt.Sprintf("rarewords compares documents of different sources, and all %d documents are of one source (%q): "+
				"compare within it with --same-source", se.Docs, se.Source)
		}
		msg = strings.Replace(msg, se.Error(), flags, 1)
	}
	var sc *corpus.StreamCopyError
	if errors.As(err, &sc) {
		msg = strings.Replace(msg, sc.Error(), fmt.Sprintf("%s: stopped: standard input and pipes, read once and copied to "+
			"temporary files for the second pass, give more than %s together (--max-stream; a stream that never ends?); "+
			"give a larger --max-stream, or the input as a file", sc.Origin, sizeFlag(sc.Max)), 1)
	}
	// The library names itself in some errors; the line is already
	// "neardup: …".
	return strings.TrimPrefix(msg, "neardup: ")
}

// sourceHint says how documents of the kinds read are given a source, or a
// URL whose host is taken for one: "a page: its og:site_name, else …; a
// Markdown file: a source: or url: key …".
func sourceHint(kinds corpus.Kinds) string {
	var ways []string
	for _, k := range []struct {
		kind corpus.Kinds
		way  string
	}{
		{corpus.KindFields, "a JSON, CSV or Parquet record: a source field (--source-col) or a URL (--url-col), whose host is taken"},
		{corpus.KindMarkdown, "a Markdown file: a source: or url: key in its front matter, a URL's host taken"},
		{corpus.KindPage, "a page: its og:site_name, else a canonical URL or og:url, whose host is taken"},
		{corpus.KindOther, "any other: a source field in the JSON Lines neardup convert writes of it"},
	} {
		if kinds&k.kind != 0 {
			ways = append(ways, k.way)
		}
	}
	return strings.Join(ways, "; ")
}

// byteSize is a flag's size in bytes: a number of bytes (10485760), or a
// size with a unit, binary (10MiB, 4GiB) or decimal (10MB), as --memory
// and --max-stream take it. A negative number is read, for the command's
// own check to refuse it naming the flag.
type byteSize int64

// UnmarshalText reads a byteSize.
func (b *byteSize) UnmarshalText(text []byte) error {
	s := string(text)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		*b = byteSize(n)
		return nil
	}
	n, err := humanize.ParseBytes(s)
	if err != nil || n > 1<<62 {
		return fmt.Errorf("%q: want a size such as 10485760, 10MiB or 10MB", s)
	}
	*b = byteSize(n)
	return nil
}
