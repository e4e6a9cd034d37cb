package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/alecthomas/kong"

	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/eval"
	"github.com/neardup/neardup/internal/flagopts"
	"github.com/neardup/neardup/internal/methodflags"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/lab/internal/sweep"
	"github.com/neardup/neardup/method/minhash"
)

// evalSweepCmd is `ndlab sweep`: each method run once over a
// labelled corpus, its pairs re-decided at every threshold of a range.
type evalSweepCmd struct {
	Inputs  []string `arg:"" name:"input" help:"Documents of the labelled corpus: any input dedup reads."`
	Truth   string   `required:"" help:"Truth JSON Lines: {id, cluster, ...} per document or {a, b, label} per pair."`
	Methods []string `default:"minhash,sentences" help:"Methods to sweep, comma-separated: minhash, sentences, tfidf, rarewords, cosine. tfidf and rarewords decide by a rule: their thresholds apply to the score they report (body cosine; larger rare-word containment) instead, and the rule's own result is their default row."`
	From    float64  `default:"0.1" help:"Lowest threshold."`
	To      float64  `default:"0.95" help:"Highest threshold."`
	Step    float64  `default:"0.05" help:"Threshold step."`
	Vary    string   `default:"threshold" enum:"threshold,containment" help:"What the thresholds apply to: each method's threshold, or (minhash only) its containment threshold with the Jaccard threshold at its default."`
	CSV     string   `name:"csv" help:"Also write the table as CSV to this file."`
	Plot    string   `help:"Also write an SVG plot of precision, recall and F1 against the threshold to this file."`
	BCubed  bool     `name:"bcubed" help:"Plot B-cubed precision, recall and F1 over clusters instead of pair scores."`
	Title   string   `help:"Title of the plot (default: names the scores drawn)."`

	kong.Plugins

	Format  string `enum:",jsonl,csv,tsv,txt" default:"" help:"Input format; default: by extension and content."`
	IDCol   string `name:"id-col" default:"id" help:"Field or column holding the document id."`
	Workers int    `help:"Sketching goroutines (default: one per CPU)."`

	flags *methodflags.Flags
}

// evalSweepOptions is what runEvalSweep needs.
type evalSweepOptions struct {
	inputs          []string
	corpus          corpus.Options
	truth           string
	sweep           sweep.Options
	csv, plot       string
	plotOpts        sweep.PlotOptions
	out, progress   io.Writer // progress nil: none
	skippedWarnings io.Writer
}

// Run turns the flags into sweep options.
func (c *evalSweepCmd) Run(g *globals) error {
	ts, err := sweep.Range(c.From, c.To, c.Step)
	if err != nil {
		return usageError{err.Error()}
	}
	configs, err := c.configs()
	if err != nil {
		return err
	}
	o := evalSweepOptions{inputs: c.Inputs, truth: c.Truth, csv: c.CSV, plot: c.Plot,
		corpus:   corpus.Options{Format: c.Format, IDField: c.IDCol},
		plotOpts: sweep.PlotOptions{Title: c.Title, BCubed: c.BCubed},
		sweep:    sweep.Options{Methods: configs, Thresholds: ts, Vary: c.Vary, Workers: c.Workers},
		out:      os.Stdout, skippedWarnings: os.Stderr}
	if !g.quiet {
		o.progress = os.Stderr
	}
	return runEvalSweep(g.ctx, o)
}

// configs returns the options of each method swept: its defaults with the
// method flags given that it has. A flag none of them has is an error.
func (c *evalSweepCmd) configs() ([]engine.Config, error) {
	var out []engine.Config
	used := map[string]bool{}
	for _, m := range c.Methods {
		spec, err := methods.Lookup(m)
		if err != nil {
			return nil, usageError{err.Error()}
		}
		if c.Vary == sweep.VaryContainment && m != minhash.Name {
			return nil, usageError{fmt.Sprintf("--vary containment applies to minhash only, not %s", m)}
		}
		cfg := spec.Defaults()
		for _, name := range c.flags.Given() {
			if _, ok := flagopts.Get(cfg, name); ok {
				used[name] = true
			}
		}
		cfg, err = c.flags.ApplyOwn(cfg)
		if err != nil {
			return nil, err
		}
		out = append(out, cfg)
	}
	for _, name := range c.flags.Given() {
		if !used[name] {
			return nil, usageError{fmt.Sprintf("--%s is an option of %s, none of the methods swept", name, methodflags.Owners(name, methods.All))}
		}
	}
	return out, nil
}

// runEvalSweep reads the truth and the corpus, sweeps every method and
// writes the table and, when asked, the CSV and the plot.
func runEvalSweep(ctx context.Context, o evalSweepOptions) error {
	t, err := eval.ReadTruthFile(o.truth, "")
	if err != nil {
		return err
	}
	docs, skipped, err := sweep.ReadDocuments(ctx, o.inputs, o.corpus)
	if err != nil {
		return err
	}
	if skipped > 0 && o.skippedWarnings != nil {
		fmt.Fprintf(o.skippedWarnings, "warning: %d records could not be read and are left out\n", skipped)
	}
	if o.progress != nil {
		fmt.Fprintf(o.progress, "sweep: %d documents, %d thresholds from %g to %g\n", len(docs),
			len(o.sweep.Thresholds), o.sweep.Thresholds[0], o.sweep.Thresholds[len(o.sweep.Thresholds)-1])
		o.sweep.Progress = func(m string, done bool, s float64) {
			if done {
				fmt.Fprintf(o.progress, "sweep: %s done in %.1fs\n", m, s)
			}
		}
	}
	res, err := sweep.Sweep(ctx, docs, t, o.sweep)
	if err != nil {
		return err
	}
	if o.csv != "" {
		if err := writeAtomic(o.csv, res.WriteCSV); err != nil {
			return err
		}
	}
	if o.plot != "" {
		err := writeAtomic(o.plot, func(w io.Writer) error { return res.WriteSVG(w, o.plotOpts) })
		if err != nil {
			return err
		}
	}
	return res.WriteText(o.out)
}
