// Command ndlab holds the project's own measurement tools that users of
// neardup do not need: the labelled corpus generator (gen), threshold
// sweeps over a labelled corpus (sweep), extraction scored against gold
// text (extract-eval), the titles, dates, authors and languages it finds
// scored against those the gold records (extract-meta), extraction timed per page
// (extract-speed), and the methods
// compared with the seeds' recipes (recipe-docs, recipe-compare). Scoring a run against a truth stays in the product as
// `neardup eval`.
//
//	go run ./cmd/ndlab gen --reuters ../../shared/data/reuters21578 -n 20000 -o docs.jsonl --truth truth.jsonl
//	go run ./cmd/ndlab sweep docs.jsonl --truth truth.jsonl --methods minhash,sentences
//	go run ./cmd/ndlab extract-eval --gold dragnet=../../shared/data/dragnet
//	go run ./cmd/ndlab extract-meta --gold wcxb=/tmp/data/wcxb/dev --split
//	go run ./cmd/ndlab extract-speed --gold dragnet=/tmp/data/dragnet
//	go run ./cmd/ndlab recipe-docs --bbc ../../shared/data/bbc-news-fulltext/bbc.tar.gz -o bbc.jsonl
//	go run ./cmd/ndlab recipe-compare bbc.jsonl --tm tm.jsonl --rarewords rw.tsv
//
// Run from the lab directory (the lab module).
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/alecthomas/kong"

	"github.com/neardup/neardup/internal/methodflags"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/internal/output"
)

// cli lists the commands. Each field's type is defined in <command>.go.
type cli struct {
	Quiet bool `help:"No progress output on stderr." short:"q"`

	Gen           genCmd           `cmd:"" help:"Generate a labelled near-duplicate news corpus from real texts (seeded)."`
	Sweep         evalSweepCmd     `cmd:"" help:"Run methods once over a labelled corpus and score every threshold of a range: table, CSV, SVG plot."`
	ExtractEval   extractEvalCmd   `cmd:"" name:"extract-eval" help:"Score extracted text against gold text (Dragnet, CleanEval layout): shingle P/R/F1 per dataset."`
	ExtractTrain  extractTrainCmd  `cmd:"" name:"extract-train" help:"Fit the block model of neardup extract on the tune half of gold sets and write it as Go source (internal/extract/blockmodel.go)."`
	ExtractMeta   extractMetaCmd   `cmd:"" name:"extract-meta" help:"Score the titles, dates, authors and languages extraction finds against those gold sets record (fundus, WCXB, DAnIEL)."`
	ExtractSpeed  extractSpeedCmd  `cmd:"" name:"extract-speed" help:"Time extraction per page over real pages (p50, p90, p99) beside parsing the same HTML, in one run."`
	CharsetEval   charsetEvalCmd   `cmd:"" name:"charset-eval" help:"Write real texts as pages that declare no charset, in the charsets of their languages, and count those read back in the charset written."`
	RecipeDocs    recipeDocsCmd    `cmd:"" name:"recipe-docs" help:"Write the BBC archive as the JSON Lines the seeds' recipes read (id, title, text, source)."`
	RecipeCompare recipeCompareCmd `cmd:"" name:"recipe-compare" help:"Compare --method tfidf and --method rarewords with the outputs of the seeds' recipes on the documents they read: pairs found, missed and extra."`
}

// globals is what every command's Run receives besides its own flags.
type globals struct {
	ctx   context.Context
	quiet bool
}

// usageError marks a mistake in the command line; it exits with code 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:]))
}

// run parses args, runs the chosen command and returns the exit code:
// 0 success, 1 failure, 2 bad usage.
func run(ctx context.Context, args []string) (code int) {
	var c cli
	parser, err := newParser(&c, kong.UsageOnError(), kong.Exit(func(code int) { panic(helpExit(code)) }))
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
		fmt.Fprintf(os.Stderr, "ndlab: %v\n", err)
		return 2
	}
	err = kctx.Run(&globals{ctx: ctx, quiet: c.Quiet})
	if err == nil {
		return 0
	}
	fmt.Fprintf(os.Stderr, "ndlab: %v\n", err)
	var ue usageError
	var me methodflags.UsageError
	if errors.As(err, &ue) || errors.As(err, &me) {
		return 2
	}
	return 1
}

// newParser returns the parser of the command line into c.
func newParser(c *cli, options ...kong.Option) (*kong.Kong, error) {
	flags := methodflags.New(methods.All)
	c.Sweep.flags = flags
	c.Sweep.Plugins = kong.Plugins{flags.Plugin()}
	c.RecipeCompare.flags = flags
	c.RecipeCompare.Plugins = kong.Plugins{flags.Plugin()}
	return kong.New(c, append([]kong.Option{
		kong.Name("ndlab"),
		kong.Description("The neardup project's measurement tools: corpus generator, threshold sweeps, extraction scores."),
		kong.WithHyphenPrefixedParameters(true),
		kong.Vars{"methods": strings.Join(methods.Names(), ",")},
	}, options...)...)
}

// helpExit carries kong's exit code after it printed help.
type helpExit int

// writeAtomic writes path through write, replacing it only once all is
// written.
func writeAtomic(path string, write func(io.Writer) error) error {
	return output.WriteAtomic(path, func(w *bufio.Writer) error { return write(w) })
}
