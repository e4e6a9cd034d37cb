package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/neardup/neardup/internal/output"
	"github.com/neardup/neardup/internal/progress"
	"github.com/neardup/neardup/lab/internal/gen"
)

// genCmd is `ndlab gen`: a seeded labelled near-duplicate corpus made from
// real news texts.
type genCmd struct {
	Reuters string `help:"Directory of Reuters-21578 .sgm or .sgm.gz files." type:"existingdir"`
	BBC     string `name:"bbc" help:"BBC News full-text archive (bbc.tar.gz) or its unpacked directory." type:"existingfile"`
	N       int    `short:"n" help:"Documents to write (default: one original per usable base text; more are synthesised)."`
	Seed    uint64 `default:"1" help:"Seed of the corpus: the same inputs and seed give the same files."`
	Out     string `short:"o" required:"" help:"Documents output, JSON Lines {id,title,text,source,url,date}."`
	Truth   string `required:"" help:"Truth output, JSON Lines {id,cluster,base,ops[,negative_of]}."`

	DupRate      float64 `default:"0.3" help:"Share of documents that are copies of an original."`
	TemplateRate float64 `default:"0.02" help:"Share of documents that are templated negatives (another company's figures)."`
	Ops          string  `help:"Comma-separated edits copies are made with (default: all): truncate, delete-sentence, swap-sentences, insert-sentence, spelling, number-format, glue, new-headline, ocr-light, ocr-heavy, boilerplate."`
	MaxOps       int     `default:"3" help:"Most edits per copy."`
	KeepNatural  bool    `name:"keep-natural-duplicates" help:"Keep base texts that repeat an earlier one (wire repeats, corrections); they are unlabelled duplicates."`
}

// genOptions is what runGen needs.
type genOptions struct {
	reuters, bbc     string
	docsOut, truthTo string
	gen              gen.Options
	progress         io.Writer // nil: none
}

// Run turns the flags into generator options.
func (c *genCmd) Run(g *globals) error {
	if c.Reuters == "" && c.BBC == "" {
		return usageError{"give --reuters DIR, --bbc FILE or both"}
	}
	if c.N < 0 || c.DupRate < 0 || c.DupRate >= 1 || c.TemplateRate < 0 || c.TemplateRate >= 1 || c.MaxOps < 1 {
		return usageError{"-n must be >= 0, --dup-rate and --template-rate in [0, 1), --max-ops >= 1"}
	}
	ops, err := gen.ParseOps(c.Ops)
	if err != nil {
		return usageError{err.Error()}
	}
	if sameFile(c.Out, c.Truth) {
		return usageError{fmt.Sprintf("-o %s and --truth %s name the same file: give two", c.Out, c.Truth)}
	}
	o := genOptions{reuters: c.Reuters, bbc: c.BBC, docsOut: c.Out, truthTo: c.Truth,
		gen: gen.Options{N: c.N, DupRate: noneIfZero(c.DupRate), TemplateRate: noneIfZero(c.TemplateRate),
			Seed: c.Seed, Ops: ops, MaxOps: c.MaxOps, KeepNaturalDuplicates: c.KeepNatural}}
	if !g.quiet {
		o.progress = os.Stderr
	}
	return runGen(g.ctx, o)
}

// sameFile reports whether paths a and b name one file: the same path once
// made absolute and clean, or one existing file (os.SameFile) by two names,
// such as a hard link or a symbolic link to it.
func sameFile(a, b string) bool {
	aa, errA := filepath.Abs(a)
	ab, errB := filepath.Abs(b)
	if errA == nil && errB == nil && aa == ab {
		return true
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// noneIfZero maps a flag's 0 ("none") to the library's negative "none".
func noneIfZero(x float64) float64 {
	if x == 0 {
		return -1
	}
	return x
}

// runGen loads the base texts, generates the corpus into temporary files and
// renames them into place when complete.
func runGen(ctx context.Context, o genOptions) error {
	start := time.Now()
	var bases []gen.Base
	if o.reuters != "" {
		b, err := gen.LoadReuters(o.reuters)
		if err != nil {
			return err
		}
		bases = append(bases, b...)
	}
	if o.bbc != "" {
		b, err := gen.LoadBBC(o.bbc)
		if err != nil {
			return err
		}
		bases = append(bases, b...)
	}
	meter := progress.New(o.progress)
	if o.progress != nil {
		fmt.Fprintf(o.progress, "gen: %d base texts loaded in %.1fs\n", len(bases), time.Since(start).Seconds())
		meter.Stage("gen")
		total := int64(o.gen.N)
		o.gen.Progress = func(n int) { meter.Update(n, int64(n), total) }
	}
	var st gen.Stats
	err := writeAtomically(ctx, o.docsOut, o.truthTo, func(docs, truth io.Writer) error {
		var err error
		st, err = gen.Generate(bases, o.gen, docs, truth)
		return err
	})
	if err != nil {
		return err
	}
	meter.Done(st.Documents)
	if o.progress != nil {
		leftOut := ""
		if st.CopiesLeftOut > 0 {
			leftOut = fmt.Sprintf("; %d copies left out, no allowed op changing the originals drawn for them", st.CopiesLeftOut)
		}
		fmt.Fprintf(o.progress, "gen: %d documents (%d originals of which %d synthesised, %d copies, %d templated negatives%s) in %.1fs; bases %d, dropped %d short, %d exact and %d near duplicates\n",
			st.Documents, st.Originals, st.Synthesised, st.Copies, st.TemplateNegatives, leftOut, time.Since(start).Seconds(),
			st.Bases, st.DroppedShort, st.DroppedExact, st.DroppedNear)
	}
	return nil
}

// writeAtomically runs write with buffered writers on temporary files next
// to docsPath and truthPath and renames both into place when write succeeds.
// Cancelling ctx makes the next write fail.
// A device or pipe (/dev/stdout) is refused: the rename would replace it.
func writeAtomically(ctx context.Context, docsPath, truthPath string, write func(docs, truth io.Writer) error) error {
	for _, p := range []string{docsPath, truthPath} {
		if output.Special(p) {
			return fmt.Errorf("%s is not a regular file (a device or a pipe): give the path of a file", p)
		}
	}
	df, err := os.CreateTemp(dirOf(docsPath), ".gen-docs-*")
	if err != nil {
		return err
	}
	defer os.Remove(df.Name())
	defer df.Close()
	tf, err := os.CreateTemp(dirOf(truthPath), ".gen-truth-*")
	if err != nil {
		return err
	}
	defer os.Remove(tf.Name())
	defer tf.Close()
	dw, tw := bufio.NewWriterSize(df, 1<<20), bufio.NewWriterSize(tf, 1<<20)
	if err := write(ctxWriter{ctx, dw}, ctxWriter{ctx, tw}); err != nil {
		return err
	}
	for _, f := range []struct {
		b    *bufio.Writer
		f    *os.File
		dest string
	}{{dw, df, docsPath}, {tw, tf, truthPath}} {
		if err := errors.Join(f.b.Flush(), f.f.Chmod(0o644), f.f.Close()); err != nil {
			return err
		}
		if err := os.Rename(f.f.Name(), f.dest); err != nil {
			return err
		}
	}
	return nil
}

func dirOf(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if os.IsPathSeparator(path[i]) {
			return path[:i+1]
		}
	}
	return "."
}

// ctxWriter fails writes once its context is done.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}
