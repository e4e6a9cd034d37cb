// Command neardup-beam runs `neardup dedup` as an Apache Beam pipeline, on
// the runners of Beam's Go SDK that run a job (runnerTable): prism
// (in-process, the default), Flink, Spark, Dataflow, any portable job
// service (universal) or Beam's older in-process runner (direct). It
// finds the pairs, clusters and kept corpus that `neardup dedup` finds on
// the same input and options:
//
//	neardup-beam dedup --runner=prism INPUT... -o DIR [options]
//	neardup-beam merge DIR
//
// merge joins the shards a run with --shards wrote into one file of each.
//
// Run without the dedup command, with a Beam worker's flags, it is the
// pipeline's worker (what a runner's SDK container starts).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/metrics"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3" // s3:// paths
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"

	"github.com/neardup/neardup/beam/dedup"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/flagopts"
	"github.com/neardup/neardup/internal/methodflags"
	"github.com/neardup/neardup/internal/output"
	"github.com/neardup/neardup/internal/profile"
	"github.com/neardup/neardup/internal/span"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/simhash"
)

const usage = `usage: neardup-beam dedup [--runner=prism] INPUT... -o DIR [options]
       neardup-beam merge DIR

Finds the duplicate and similar pairs of JSON Lines documents, as neardup
dedup does, on an Apache Beam runner (--runner: prism, the default, flink,
spark, dataflow, universal or direct).
INPUT is a JSON Lines file or glob (local, gs://, s3://; .gz, .zst and .bz2
read as such; of a zip or tar archive, its JSON Lines members).
DIR receives pairs.jsonl, clusters.jsonl, kept.jsonl, removed.jsonl,
rejects.jsonl and stats.json; with --shards N each JSON Lines file as N
shards (pairs-00000-of-0000N.jsonl ...), which merge joins into one file of
each (or: cat DIR/pairs-*-of-*.jsonl > pairs.jsonl).

Options (a method's options are those of --method, given after it):
`

func main() {
	if len(os.Args) >= 2 && isHelp(os.Args[1]) || len(os.Args) == 3 && os.Args[1] == "merge" && isHelp(os.Args[2]) {
		// neardup-beam --help, --help dedup, merge --help.
		fmt.Print(usage[:strings.Index(usage, "\nOptions")+1])
		fmt.Println(runHelp)
		return
	}
	if len(os.Args) == 3 && os.Args[1] == "merge" {
		files, err := merge(context.Background(), os.Args[2])
		for _, f := range files {
			fmt.Fprintln(os.Stderr, "merged", f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "neardup-beam:", err)
			os.Exit(1)
		}
		return
	}
	// A flag's mistake is returned, not printed with every runner's flags.
	flag.CommandLine.Init(os.Args[0], flag.ContinueOnError)
	if len(os.Args) < 2 || os.Args[1] != "dedup" {
		// A worker, started by a runner with its own flags; or a mistake.
		flag.CommandLine.SetOutput(io.Discard)
		err := flag.CommandLine.Parse(os.Args[1:])
		if err == nil {
			beam.Init() // a worker runs here and never returns
		}
		for _, l := range strings.Split(commandMistake(os.Args[1:], err), "\n") {
			fmt.Fprintln(os.Stderr, "neardup-beam:", l)
		}
		os.Exit(2)
	}
	ctx, stopped := onStop(context.Background())
	c, err := parse(flag.CommandLine, os.Args[2:])
	if errors.Is(err, flag.ErrHelp) {
		return // parse printed the usage
	}
	if err == nil {
		err = run(ctx, c)
	}
	if sig := stopped(); err != nil && sig != 0 {
		err = stopError{sig: sig}
	}
	if err != nil {
		for _, l := range strings.Split(strings.TrimRight(err.Error(), "\n"), "\n") {
			fmt.Fprintln(os.Stderr, "neardup-beam:", l) // a hint on the line after, as neardup prints it
		}
		os.Exit(exitCode(err))
	}
}

// commandMistake says what is wrong with a command line that names neither
// a run (dedup) nor a merge of one directory and is no worker's, whose
// flags Beam's packages define: flagErr is the error of parsing those
// flags, nil when they parsed. Its last line points to --help.
func commandMistake(args []string, flagErr error) string {
	var msg string
	cmd := ""
	for _, a := range args {
		if a == "dedup" || a == "merge" {
			cmd = a
			break
		}
	}
	switch {
	case cmd != "" && strings.HasPrefix(args[0], "-"):
		msg = fmt.Sprintf("%s comes before the command: flags follow it (neardup-beam %s %s ...)", args[0], cmd, args[0])
	case flagErr != nil:
		msg = undefinedFlag(flagErr).Error()
	case len(args) == 0:
		msg = "no command: give dedup INPUT... -o DIR (a run) or merge DIR"
	case args[0] == "merge" && len(args) == 1:
		msg = "merge: no directory: give the output directory whose shards to join (neardup-beam merge DIR)"
	case args[0] == "merge":
		msg = fmt.Sprintf("merge: one directory, not %d arguments (%s)", len(args)-1, strings.Join(args[1:], " "))
	default:
		msg = fmt.Sprintf("%s: not a command: dedup (a run) or merge", args[0])
	}
	return msg + "\nRun neardup-beam --help for its commands."
}

// undefinedFlag is the error of a flag the flag package does not know,
// "flag provided but not defined: -bogus", as neardup says it: "unknown
// flag --bogus"; another error as it is.
func undefinedFlag(err error) error {
	if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
		return fmt.Errorf("unknown flag --%s", name)
	}
	return err
}

// runHelp is the line that points from a mistake to the options of a run.
const runHelp = "Run neardup-beam dedup --help for the options of a run."

// flagMistake is the error of parsing a run's flags, for the method c: an
// option of the other method the pipeline runs, as neardup dedup says it
// ("--bands is an option of minhash, not of simhash"), or the error with a
// pointer to --help on the line after.
func flagMistake(err error, c engine.Config) error {
	if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
		var owners []string
		for _, d := range []engine.Config{minhash.Defaults(), simhash.Defaults()} {
			if _, has := flagopts.Get(d, name); has {
				owners = append(owners, d.Method())
			}
		}
		if len(owners) > 0 {
			return fmt.Errorf("--%s is an option of %s, not of %s", name, strings.Join(owners, ", "), c.Method())
		}
	}
	return fmt.Errorf("%w\n%s", undefinedFlag(err), runHelp)
}

// onStop returns a context cancelled at the first SIGINT or SIGTERM, so
// that the run stops and removes its temporary files, and a func that
// returns that signal once it came (0 before).
func onStop(parent context.Context) (context.Context, func() syscall.Signal) {
	ctx, cancel := context.WithCancel(parent)
	var got atomic.Value
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	// A pipe closed under stderr (2>&1 | head -1) makes a write to it fail
	// with EPIPE, dropped, instead of killing the run with its lock and
	// stage left. (The channel is never read: a full one drops the signal.)
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	go func() {
		sig := <-c
		got.Store(sig.(syscall.Signal))
		cancel()
		signal.Stop(c) // a second signal ends the process at once
	}()
	return ctx, func() syscall.Signal {
		sig, _ := got.Load().(syscall.Signal)
		return sig
	}
}

// stopError is a run stopped by a signal: it exits with 128 + the
// signal's number (130 for SIGINT, 143 for SIGTERM), as neardup's batch
// commands do.
type stopError struct{ sig syscall.Signal }

func (e stopError) Error() string { return "stopped: " + e.sig.String() }

// usageError is a mistake in the command line (a flag, an option's value,
// an input): it exits with code 2, as neardup's do.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// exitCode is the exit code of a run that failed with err: 2 for a mistake
// in the command line, 128 + the signal's number for a run stopped by one,
// 1 for any other failure.
func exitCode(err error) int {
	var se stopError
	switch {
	case errors.As(err, new(usageError)):
		return 2
	case errors.As(err, &se):
		return 128 + int(se.sig)
	}
	return 1
}

// command is what the command line of `neardup-beam dedup` asks for.
type command struct {
	dedup.Options
	// Runner is the name of the runner the job runs on (--runner): one
	// of runnerTable's, by its name or an alias; "" is prism.
	Runner string
	// Quiet (-q, --quiet) leaves out what a run writes on stderr but its
	// errors and warnings: the runner's log below level WARN (prism's INFO
	// lines) and the summary of a run that succeeds.
	Quiet bool
}

// parse reads the command line into fs: flags (Beam's among them, which
// are flag.CommandLine's) anywhere among the inputs.
func parse(fs *flag.FlagSet, args []string) (command, error) {
	runner := map[string]bool{} // the flags Beam's packages registered
	fs.VisitAll(func(f *flag.Flag) { runner[f.Name] = true })
	// -h and --help are flags of their own, so that the usage the flag
	// package prints after a mistake is one line, not the two hundred of
	// every runner's flags that drowned the mistake.
	help := false
	for _, n := range []string{"h", "help"} {
		fs.BoolFunc(n, "Print the options of a run and the flags of the Beam runners", func(string) error { help = true; return nil })
	}
	fs.Usage = func() { fmt.Fprintln(fs.Output(), runHelp) }
	var c command
	o := &c.Options
	var method engine.Config = minhash.Defaults()
	if name := methodArg(args); name == simhash.Name {
		method = simhash.Defaults()
	}
	// The method's options given, in order: set once the profile, which
	// they override wherever they are given, has been applied.
	var options []methodOption
	for _, f := range flagopts.Fields(method) {
		set := func(text string) error {
			if _, err := flagopts.Parse(method, f.Name, text); err != nil {
				return err // refused where given, as the flag package refuses a value
			}
			options = append(options, methodOption{f.Name, text})
			return nil
		}
		help := fmt.Sprintf("%s (default %v)", f.Help, f.Value)
		if _, isBool := f.Value.(bool); isBool {
			fs.BoolFunc(f.Name, help, set)
		} else {
			fs.Func(f.Name, help, set)
		}
	}
	name := fs.String("method", minhash.Name, "Detection method: "+strings.Join(dedup.MethodNames(), " or ")+" (the others need corpus-wide statistics: neardup dedup)")
	prof := fs.String("profile", profile.News, "news: the methods' defaults, with the rules that keep apart two reports of one template (other figures, names, days) "+
		"and a similar label; corpus (training data): those rules off, no similar label, no containment rule: one score at one --threshold "+
		"decides every copy, and the banding follows it; a similar label given back (--similar) counts as a copy when choosing what to keep. "+
		"Method options given win")
	fs.StringVar(&o.Out, "o", "", "Output directory (local, gs://, s3://)")
	fs.StringVar(&o.Kept, "kept", output.KeptFile, "File of the de-duplicated corpus in the output directory, one of three names, each saying its format: kept.jsonl, kept.jsonl.gz or kept.jsonl.zst")
	fs.IntVar(&o.Shards, "shards", 0, "Write each JSON Lines file as this many shards, each by a worker of its own (0: one file of each, written by one worker)")
	keep := fs.String("keep", "", "Which member represents a cluster: longest (the default), earliest, first or central")
	link := fs.String("link", string(cluster.Any), "How a document joins a cluster: any, anchor or majority")
	fs.Func("window", "Pair only documents dated at most this far apart, e.g. 3d, 72h, 1w, 90min (m alone is refused: min or mo); undated documents pair with any", func(v string) error {
		var err error
		o.Window, err = span.ParseDateSpan(v)
		return err
	})
	fs.StringVar(&o.Fields.ID, "id-col", "id", "Field holding the document id")
	fs.StringVar(&o.Fields.Title, "title-col", "title", "Field holding the title")
	fs.StringVar(&o.Fields.Text, "text-col", "text", "Field holding the body text")
	fs.StringVar(&o.Fields.URL, "url-col", "url", "Field holding the URL")
	fs.StringVar(&o.Fields.Source, "source-col", "source", "Field holding the source (publisher)")
	fs.StringVar(&o.Fields.Date, "date-col", "date", "Field holding the date")
	fs.IntVar(&o.MaxBytes, "max-bytes", 10<<20, "Skip records larger than this many bytes")
	minText := fs.Int("min-text", analysis.DefaultStubChars, "Skip documents whose text has fewer than this many characters (white space not counted) as too-short, and gallery or video captions as gallery; 0 compares every document")
	rounds := fs.Int("rounds", dedup.DefaultRounds, "Large-star/small-star rounds of the connected components, 0 or more: 0 runs none, joining every duplicate link on one worker (any number gives the same clusters)")
	for _, name := range []string{"q", "quiet"} {
		fs.BoolVar(&c.Quiet, name, false, "No progress output on stderr: the runner's log lines below WARN (prism's INFO lines) and the summary left out, errors and warnings kept")
	}
	out := fs.Output()
	for len(args) > 0 {
		fs.SetOutput(io.Discard) // its mistake returned, said once
		err := fs.Parse(args)
		fs.SetOutput(out)
		if err != nil {
			return c, usageError{flagMistake(err, method)}
		}
		if help {
			printUsage(fs, runner)
			return c, usageError{flag.ErrHelp}
		}
		if args = fs.Args(); len(args) > 0 {
			o.Inputs, args = append(o.Inputs, args[0]), args[1:]
		}
	}
	if f := fs.Lookup("runner"); f != nil { // Beam's, on flag.CommandLine
		c.Runner = f.Value.String()
	}
	if _, err := lookupRunner(c.Runner); err != nil {
		return c, err
	}
	switch {
	case !slices.Contains(profile.Names(), *prof):
		return c, usageError{fmt.Errorf("--profile %s: want %s", *prof, strings.Join(profile.Names(), " or "))}
	case *name != method.Method():
		return c, usageError{fmt.Errorf("--method %s: the pipeline runs %s (the others need corpus-wide statistics or inverted lists, see docs/scale.md)", *name, strings.Join(dedup.MethodNames(), " and "))}
	case len(o.Inputs) == 0:
		return c, usageError{errors.New("no input: give JSON Lines files or globs")}
	case o.Out == "":
		return c, usageError{errors.New("no output directory: give -o DIR")}
	case o.Out == "-":
		return c, usageError{errors.New("-o -: the results are files (pairs.jsonl, clusters.jsonl, kept.jsonl, removed.jsonl, rejects.jsonl, stats.json), not one stream: name a directory (./- for one named -)")}
	case o.MaxBytes <= 0:
		return c, usageError{errors.New("--max-bytes must be positive")}
	case *rounds < 0:
		return c, usageError{fmt.Errorf("--rounds: want 0 or more rounds (0 runs none), not %d", *rounds)}
	case *minText < 0: // as neardup's --min-text refuses it
		return c, usageError{fmt.Errorf("--min-text: want 0 or more characters (0 compares every document), not %d", *minText)}
	case trueFlag(fs, "async", "execute_async") != "":
		return c, usageError{fmt.Errorf("--%s: neardup-beam waits for its job to end, to remove an earlier run's results only once it has succeeded and to print its counts; run neardup-beam itself in the background instead", trueFlag(fs, "async", "execute_async"))}
	case trueFlag(fs, "dry_run") != "":
		return c, usageError{errors.New("--dry_run: neardup-beam has no dry run: it runs its job and replaces the results in -o (Beam's runners but Dataflow's ignore the flag and run the job; Dataflow's submits none, leaving no results)")}
	}
	method, err := withOptions(method, *prof, options)
	if err != nil {
		return c, usageError{err}
	}
	o.Method, o.Keep, o.Link = method, cluster.Policy(*keep), cluster.Linking(*link)
	o.SimilarIsCopy = profile.SimilarIsCopy(*prof, given(fs, "similar"))
	if o.MinChars = *minText; o.MinChars == 0 {
		o.MinChars = -1 // 0 on the command line compares every text, as in neardup dedup
	}
	if o.Rounds = *rounds; o.Rounds == 0 {
		o.Rounds = -1 // 0 on the command line runs none; Options' 0 is the default
	}
	if err := o.Check(); err != nil { // a method's option, --keep, --link, --kept, --shards, --window
		return c, usageError{err}
	}
	if given(fs, "similar") {
		if err := methodflags.CheckSimilar(method); err != nil { // as neardup dedup refuses it
			return c, usageError{err}
		}
	}
	return c, nil
}

// methodOption is a method's option given on the command line: its flag's
// name and value.
type methodOption struct{ name, text string }

// withOptions returns the method's options c with those of the profile of
// that name (profile.Apply, as neardup dedup applies it) and then the
// options given, in order, so that an option given wins over the
// profile's.
func withOptions(c engine.Config, name string, options []methodOption) (engine.Config, error) {
	c, err := profile.Apply(c, name)
	if err != nil {
		return c, err
	}
	for _, opt := range options {
		if c, err = flagopts.Parse(c, opt.name, opt.text); err != nil {
			return c, err
		}
	}
	return c, nil
}

// given reports whether the command line set the flag of a name.
func given(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// isHelp reports whether arg asks for help.
func isHelp(arg string) bool {
	switch arg {
	case "-h", "-help", "--help", "help":
		return true
	}
	return false
}

// printUsage prints the usage on stderr: the options of a run first, then
// the flags of the Beam runners, which flag.PrintDefaults would have mixed
// with them in one alphabetical list of about a hundred.
func printUsage(fs *flag.FlagSet, runner map[string]bool) {
	ours := flag.NewFlagSet("", flag.ContinueOnError)
	theirs := flag.NewFlagSet("", flag.ContinueOnError)
	fs.VisitAll(func(f *flag.Flag) {
		to := ours
		if runner[f.Name] {
			to = theirs
		}
		to.Var(f.Value, f.Name, f.Usage)
		to.Lookup(f.Name).DefValue = f.DefValue
	})
	out := fs.Output()
	fmt.Fprint(out, usage)
	ours.SetOutput(out)
	ours.PrintDefaults()
	fmt.Fprintf(out, "\nFlags of the Beam runners (--runner: %s; and what each runner takes):\n", runnerNames())
	theirs.SetOutput(out)
	theirs.PrintDefaults()
}

// trueFlag returns the name of the flag of those named that is given and
// true, or "" when none is. parse refuses two kinds of Beam's flags so
// given: those that submit the job and return at once (--async, or the
// Dataflow runner's --execute_async, which sets the same option), with
// which an earlier run's results would be removed though the job might
// fail, and the counts of a job not done read; and --dry_run, which the
// Dataflow runner alone reads (it submits no job), the others running the
// job and replacing the results.
func trueFlag(fs *flag.FlagSet, names ...string) string {
	name := ""
	fs.Visit(func(f *flag.Flag) {
		if slices.Contains(names, f.Name) && f.Value.String() == "true" {
			name = f.Name
		}
	})
	return name
}

// methodArg returns the method the arguments name (--method NAME or
// --method=NAME), which decides the method options the flags take: the
// last one given, as the flag's value is, and as neardup dedup takes it;
// "" when none.
func methodArg(args []string) string {
	name := ""
	for i, a := range args {
		a = "-" + strings.TrimLeft(a, "-")
		if v, ok := strings.CutPrefix(a, "-method="); ok {
			name = v
		}
		if a == "-method" && i+1 < len(args) {
			name = args[i+1]
		}
	}
	return name
}

// run builds the pipeline and runs it on the runner of c.Runner, holding
// the lock of a local output directory (dedup.Lock) until its files are
// in place or its stage removed.
func run(ctx context.Context, c command) error {
	o := c.Options
	if fi, err := os.Stat(o.Out); err == nil && !fi.IsDir() && isLocalPath(o.Out) {
		return usageError{fmt.Errorf("%s: is not a directory", o.Out)} // as neardup dedup says it, exit 2
	}
	release, err := dedup.Lock(o.Out) // held until the files are published or the stage removed
	if err != nil {
		return err
	}
	defer release()
	if c.Quiet {
		beamlog.LogLevel = "warn" // read by beam.Init, which sets up the log
	}
	beam.Init()
	if c.Quiet {
		// The runner logs a job's failure at ERROR, each line with the
		// plan of the bundle that failed; the run's error says it.
		defer slog.SetDefault(slog.Default())
		slog.SetDefault(slog.New(belowError{slog.Default().Handler()}))
	}
	files, err := dedup.Expand(ctx, o.Inputs, o.Out, o.Fields)
	if err != nil {
		if ie := (*dedup.InputError)(nil); errors.As(err, &ie) {
			return usageError{err}
		}
		return err
	}
	o.Inputs = files
	r, err := lookupRunner(c.Runner)
	if err != nil {
		return err
	}
	if f := flag.Lookup("endpoint"); f != nil && f.Value.String() != "" && r.name != "direct" && r.name != "dataflow" && !c.Quiet {
		// The runner dials it with no word until its timeout, minutes on;
		// Dataflow ignores the flag and dials none.
		fmt.Fprintf(os.Stderr, "connecting to the job service at %s\n", f.Value)
	}
	res, err := runJob(ctx, o, r)
	if err != nil {
		return err
	}
	st, err := dedup.ReadStats(ctx, o.Out)
	if err != nil {
		return err
	}
	warnUnread(os.Stderr, st)
	if c.Quiet {
		return nil
	}
	fmt.Fprintln(os.Stderr, summary(len(files), o.Out, st))
	if res != nil {
		printCounters(os.Stderr, res.Metrics().AllMetrics().Counters())
	}
	return nil
}

// summary is the line a run that succeeded ends with: its inputs, its
// output directory and what stats.json counts there.
func summary(files int, out string, st engine.Stats) string {
	pairs := 0
	for _, n := range st.Pairs {
		pairs += n
	}
	return fmt.Sprintf("%s → %s: %s, %s, %s, %s kept", plural(files, "input file"), out,
		plural(st.Documents, "document"), plural(pairs, "pair"), plural(st.Clusters, "cluster"), fmt.Sprint(st.Kept))
}

// plural is n and the noun, an s added when n is not 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// runJob runs the pipeline of o on r, writing into a stage inside o.Out
// (dedup.NewStage), and once the job has succeeded moves its files into
// o.Out and removes an earlier run's files left there (dedup.Publish). A
// job that fails, or that read no document, leaves o.Out as it was: its
// stage is removed, and o.Out too when the run made it.
func runJob(ctx context.Context, o dedup.Options, r runner) (beam.PipelineResult, error) {
	made, err := mkdirLocal(o.Out)
	if err != nil {
		return nil, err
	}
	o.Stage = dedup.NewStage(o.Out)
	p, s := beam.NewPipelineWithRoot()
	if err := dedup.Build(s, o); err != nil {
		discard(ctx, o, made)
		return nil, err
	}
	res, err := runInTemp(ctx, p, r)
	if err != nil {
		discard(ctx, o, made)
		return nil, jobError{err}
	}
	removed, err := dedup.Publish(ctx, o)
	if len(removed) > 0 {
		fmt.Fprintf(os.Stderr, "removed %d files of an earlier run from %s\n", len(removed), o.Out)
	}
	if err != nil && made {
		os.Remove(o.Out) // refused (no documents): only when empty
	}
	return res, err
}

// jobError is a job that failed. Its message is the error the step that
// failed returned ("c2.jsonl: none of its 75 records has a field ..."),
// the end of the runner's message, which carries before it the plan of the
// bundle that failed and each layer the error passed through (5 to 30 KB);
// the whole message when it names no step.
type jobError struct{ err error }

func (e jobError) Error() string {
	msg := e.err.Error()
	const failed = "] failed:\n" // exec's "DoFn[UID:29, PID:e4, Name: ...] failed:\n" + the error
	if i := strings.LastIndex(msg, failed); i >= 0 && strings.Contains(msg[strings.LastIndex(msg[:i], "\n")+1:i], "DoFn[") {
		return strings.TrimSpace(msg[i+len(failed):])
	}
	if strings.Contains(msg, "failed to cross-compile") {
		// A binary run outside the module's source, which the SDK
		// compiles the workers' binary from.
		msg += "\n--worker_binary PATH gives the workers a neardup-beam built for their platform " +
			"(GOOS=linux GOARCH=amd64 go build ./cmd/neardup-beam), so that none is compiled; or submit from the module (go run ./cmd/neardup-beam)"
	}
	return "pipeline: " + msg
}

func (e jobError) Unwrap() error { return e.err }

// discard removes what a run that failed wrote: its stage, and the output
// directory when the run made it (and it holds nothing else). It runs
// when ctx is cancelled too (a signal stopped the run).
func discard(ctx context.Context, o dedup.Options, made bool) {
	if err := dedup.Discard(context.WithoutCancel(ctx), o); err != nil {
		fmt.Fprintln(os.Stderr, "neardup-beam:", err)
	}
	if made {
		os.Remove(o.Out) // only when empty
	}
}

// runInTemp runs p on r with TMPDIR a directory of its own, removed with
// what is left in it when the run ends: Beam's runner leaves an empty file
// (beamloopbackworker-*) in the temporary directory for each job it runs
// in process.
func runInTemp(ctx context.Context, p *beam.Pipeline, r runner) (beam.PipelineResult, error) {
	tmp, err := os.MkdirTemp("", "neardup-beam-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	old, had := os.LookupEnv("TMPDIR")
	os.Setenv("TMPDIR", tmp)
	defer func() {
		if had {
			os.Setenv("TMPDIR", old)
		} else {
			os.Unsetenv("TMPDIR")
		}
	}()
	return runOn(ctx, r, p)
}

// printCounters prints the pipeline's counters, each summed over its
// steps, in name order: what the shuffles carried.
func printCounters(w io.Writer, cs []metrics.CounterResult) {
	sums := map[string]int64{}
	for _, c := range cs {
		if c.Key.Namespace == "neardup" {
			sums[c.Key.Name] += c.Result()
		}
	}
	for _, name := range slices.Sorted(maps.Keys(sums)) {
		fmt.Fprintf(w, "%s: %d\n", name, sums[name])
	}
}

// belowError passes on the records of its handler's levels below ERROR.
type belowError struct{ slog.Handler }

func (h belowError) Enabled(ctx context.Context, l slog.Level) bool {
	return l < slog.LevelError && h.Handler.Enabled(ctx, l)
}

func (h belowError) WithAttrs(as []slog.Attr) slog.Handler {
	return belowError{h.Handler.WithAttrs(as)}
}
func (h belowError) WithGroup(name string) slog.Handler { return belowError{h.Handler.WithGroup(name)} }

// isLocalPath reports whether p is a path of the local file system.
func isLocalPath(p string) bool {
	u := schemeOf(p)
	return u == "" || u == "file"
}

// mkdirLocal creates a local output directory, and reports whether it
// made it (it was not there); a bucket needs none.
func mkdirLocal(dir string) (bool, error) {
	if u := schemeOf(dir); u != "" && u != "file" {
		return false, nil
	}
	if _, err := os.Stat(dir); err == nil {
		return false, nil
	}
	return true, os.MkdirAll(dir, 0o755)
}

// schemeOf returns the scheme of a path, "gs" of "gs://b/x"; "" for a local
// path.
func schemeOf(p string) string {
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == ':':
			if len(p) > i+2 && p[i+1] == '/' && p[i+2] == '/' {
				return p[:i]
			}
			return ""
		case c == '/' || c == '.':
			return ""
		}
	}
	return ""
}

// warnUnread says what the inputs held that was not read, with an example
// of each, as neardup dedup does: archive members for their names, dates
// in no form the reader knows, and stray bytes after the last member of a
// gzip file or the last stream of a bzip2 file.
func warnUnread(w io.Writer, st engine.Stats) {
	if st.Unlisted > 0 {
		fmt.Fprintf(w, "warning: files not read: %d, archive members whose names are not of JSON Lines, "+
			"the one format neardup-beam reads (e.g. %s; stats.json counts them: files_not_read)\n", st.Unlisted, st.UnlistedExample)
	}
	if st.UnreadDates > 0 {
		fmt.Fprintf(w, "warning: dates not read: %d (e.g. %s); their documents count as undated\n", st.UnreadDates, st.UnreadDatesExample)
	}
	if st.GzipStrayBytes > 0 {
		fmt.Fprintln(w, corpus.StrayWarning(container.Gzip, st.GzipStrayBytes, st.GzipStrayBytesExample))
	}
	if st.Bzip2StrayBytes > 0 {
		fmt.Fprintln(w, corpus.StrayWarning(container.Bzip2, st.Bzip2StrayBytes, st.Bzip2StrayBytesExample))
	}
}

// merge joins the shards of dir (dedup.Merge) holding its lock
// (dedup.Lock), so that it never joins the shards of a run moving its
// files in, nor removes them.
func merge(ctx context.Context, dir string) ([]string, error) {
	if isLocalPath(dir) {
		fi, err := os.Stat(dir)
		if err != nil {
			return nil, err // "stat nodir: no such file or directory"
		}
		if !fi.IsDir() {
			return nil, fmt.Errorf("%s: is not a directory", dir)
		}
	}
	release, err := dedup.Lock(dir)
	if err != nil {
		return nil, err
	}
	defer release()
	return dedup.Merge(ctx, dir)
}
