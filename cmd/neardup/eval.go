package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/eval"
)

// evalCmd is `neardup eval`: predictions scored against a truth.
type evalCmd struct {
	Truth          string   `required:"" help:"Truth JSON Lines: {id, cluster, ...} per document or {a, b, label} per pair, optionally with a weight (inverse probability of being drawn) and a stratum: weighted precision, recall and F1 with 95 % intervals are then reported."`
	Pred           []string `required:"" sep:"none" help:"Prediction: a pairs.jsonl or clusters.jsonl from dedup; repeat for more."`
	By             string   `help:"Break recall down by this field of the truth (e.g. ops)."`
	Direct         bool     `help:"With --by: count only pairs one of whose members has no value of the field (for ops: each copy with its own original, so an edit's recall is not mixed with that of the story's other copies)."`
	Without        []string `help:"With --by: leave out of the breakdown every document with one of these values (e.g. ocr-heavy: the copies that also carry heavy OCR noise)."`
	IncludeSimilar bool     `help:"Count pairs labelled similar as predicted duplicates."`
	JSON           bool     `name:"json" help:"Write the report as JSON."`
}

// evalOptions is what runEvalPairs needs.
type evalOptions struct {
	truth          string
	preds          []string
	by             string
	direct         bool
	without        []string
	includeSimilar bool
	json           bool
	out            io.Writer
}

// Run turns the flags into evaluation options.
func (c *evalCmd) Run(g *globals) error {
	if (c.Direct || len(c.Without) > 0) && c.By == "" {
		return usageError{"--direct and --without need --by"}
	}
	return runEvalPairs(g.ctx, evalOptions{truth: c.Truth, preds: c.Pred, by: c.By, direct: c.Direct, without: c.Without,
		includeSimilar: c.IncludeSimilar, json: c.JSON, out: os.Stdout})
}

// runEvalPairs reads the truth and every prediction and writes the report.
func runEvalPairs(ctx context.Context, o evalOptions) error {
	if err := notADirectory("--truth", o.truth, "the truth's JSON Lines file"); err != nil {
		return err
	}
	for _, name := range o.preds {
		if err := notADirectory("--pred", name, "its pairs.jsonl or clusters.jsonl"); err != nil {
			return err
		}
	}
	var t *eval.Truth
	err := readInterruptibly(ctx, o.truth, func(r io.Reader) (err error) {
		if t, err = eval.ReadTruth(r, o.by); err != nil {
			err = fmt.Errorf("%s: %w", o.truth, err) // as eval.ReadTruthFile names it
		}
		return err
	})
	if err != nil {
		return err
	}
	if t.Pairs() && (o.direct || len(o.without) > 0) {
		return usageError{fmt.Sprintf("--direct and --without break down a truth of documents ({id, cluster}); %s holds labelled pairs ({a, b, label}), each counted by its own line's %s", o.truth, o.by)}
	}
	t.SetDirect(o.direct)
	if err := t.SetWithout(o.without); err != nil {
		return usageError{err.Error()}
	}
	var preds []*eval.Prediction
	for _, name := range o.preds {
		if err := ctx.Err(); err != nil {
			return err
		}
		var p *eval.Prediction
		err := readInterruptibly(ctx, name, func(r io.Reader) (err error) {
			p, err = eval.ReadPrediction(r, name, eval.PredictionOptions{IncludeSimilar: o.includeSimilar})
			return err
		})
		if err != nil {
			return err
		}
		if err := t.CheckIDs(p); err != nil {
			return err
		}
		preds = append(preds, p)
	}
	rep := eval.NewReport(t, preds)
	if o.json {
		return rep.WriteJSON(o.out)
	}
	return rep.WriteText(o.out)
}

// readInterruptibly opens the file name and reads it with read, giving up
// when ctx ends, also while the file, a named pipe, waits for a writer or
// for data (`--pred <(zcat pairs.jsonl.gz)`).
func readInterruptibly(ctx context.Context, name string, read func(io.Reader) error) error {
	f, err := container.OpenInterruptible(ctx, name)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := read(container.Interruptible(ctx, f)); err != nil {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return err
	}
	return nil
}

// notADirectory refuses a directory given to flag, such as the output
// directory of dedup given to --pred, saying what to name instead (want).
func notADirectory(flag, name, want string) error {
	fi, err := os.Stat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return usageError{fmt.Sprintf("%s %s: no such file or directory", flag, name)}
	case err == nil && fi.IsDir():
		return usageError{fmt.Sprintf("%s %s: a directory; name %s", flag, name, want)}
	}
	return nil
}
