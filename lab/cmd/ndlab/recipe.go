package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/alecthomas/kong"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/methodflags"
	"github.com/neardup/neardup/lab/internal/gen"
	"github.com/neardup/neardup/lab/internal/sweep"
	"github.com/neardup/neardup/method/rarewords"
	"github.com/neardup/neardup/method/tfidf"
)

// recipeDocsCmd is `ndlab recipe-docs`: the BBC archive as the JSON Lines
// the seeds' recipes read (id, title, text, source: the topic).
type recipeDocsCmd struct {
	BBC string `name:"bbc" required:"" type:"existingfile" help:"The BBC News archive (bbc.tar.gz) or its unpacked directory."`
	Out string `short:"o" required:"" help:"JSON Lines to write: {id, title, text, source} per article, the id topic/nnn, the source its topic."`
}

// Run writes the documents.
func (c *recipeDocsCmd) Run(*globals) error {
	bases, err := gen.LoadBBC(c.BBC)
	if err != nil {
		return err
	}
	return writeAtomic(c.Out, func(w io.Writer) error { return writeRecipeDocs(w, bases) })
}

// recipeDoc is one line of recipe-docs' output.
type recipeDoc struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Text   string `json:"text"`
	Source string `json:"source"`
}

// writeRecipeDocs writes bases as recipe documents, in their order.
func writeRecipeDocs(w io.Writer, bases []gen.Base) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, b := range bases {
		if err := enc.Encode(recipeDoc{ID: strings.TrimPrefix(b.ID, "bbc:"), Title: b.Title, Text: b.Text, Source: b.Topic}); err != nil {
			return err
		}
	}
	return nil
}

// recipeCompareCmd is `ndlab recipe-compare`: how far `--method tfidf` and
// `--method rarewords` agree with the seeds' recipes, whose outputs are
// given, on the documents the recipes read.
type recipeCompareCmd struct {
	Input     string `arg:"" name:"input" help:"The documents the recipes read (JSON Lines: id, title, text, source), e.g. from recipe-docs."`
	TM        string `name:"tm" type:"existingfile" help:"Output of the TF-IDF recipe (seed001_tm.R): {a, b, score} per duplicate pair; compared with --method tfidf."`
	Rarewords string `name:"rarewords" type:"existingfile" help:"Output of the rare-words recipe (seed002_rarewords.py): a<TAB>b per line, b a's best match in b's source; compared with --method rarewords."`
	Variants  bool   `help:"Also compare the methods' other terms and weightings (tfidf: --terms words, --weighting smooth; rarewords: --tokens words)."`
	Show      int    `default:"0" help:"List up to this many pairs the recipe finds and the method misses, and as many the other way."`

	kong.Plugins
	flags *methodflags.Flags
}

// Run reads the recipes' outputs and the documents and prints the table.
func (c *recipeCompareCmd) Run(g *globals) error {
	if c.TM == "" && c.Rarewords == "" {
		return usageError{"give the output of a recipe: --tm, --rarewords or both"}
	}
	docs, skipped, err := sweep.ReadDocuments(g.ctx, []string{c.Input}, corpus.Options{})
	if err != nil {
		return err
	}
	if skipped > 0 {
		return fmt.Errorf("%d records of %s could not be read: the recipes read them all", skipped, c.Input)
	}
	var runs []recipeRun
	if c.TM != "" {
		want, err := readTMPairs(c.TM)
		if err != nil {
			return err
		}
		base, err := c.flags.ApplyOwn(tfidf.Defaults())
		if err != nil {
			return err
		}
		runs = append(runs, recipeRun{recipe: "tm", want: want, configs: c.tfidfConfigs(base.(tfidf.Options))})
	}
	if c.Rarewords != "" {
		want, err := readMatches(c.Rarewords)
		if err != nil {
			return err
		}
		base, err := c.flags.ApplyOwn(rarewords.Defaults())
		if err != nil {
			return err
		}
		runs = append(runs, recipeRun{recipe: "rarewords", want: want, configs: c.rarewordsConfigs(base.(rarewords.Options))})
	}
	var progress io.Writer
	if !g.quiet {
		progress = os.Stderr
	}
	return runRecipeCompare(g.ctx, docs, runs, c.Show, os.Stdout, progress)
}

// tfidfConfigs returns o and, with --variants, o with each other terms and
// weighting.
func (c *recipeCompareCmd) tfidfConfigs(o tfidf.Options) []engine.Config {
	out := []engine.Config{o}
	if !c.Variants {
		return out
	}
	for _, terms := range []string{tfidf.TermsTM, tfidf.TermsWords} {
		for _, w := range []string{tfidf.WeightingTM, tfidf.WeightingSmooth} {
			if v := o; terms != o.Terms || w != o.Weighting {
				v.Terms, v.Weighting = terms, w
				out = append(out, v)
			}
		}
	}
	return out
}

// rarewordsConfigs returns o and, with --variants, o with the other tokens.
func (c *recipeCompareCmd) rarewordsConfigs(o rarewords.Options) []engine.Config {
	out := []engine.Config{o}
	if !c.Variants {
		return out
	}
	for _, t := range []string{rarewords.TokensWhitespace, rarewords.TokensWords} {
		if v := o; t != o.Tokens {
			v.Tokens = t
			out = append(out, v)
		}
	}
	return out
}

// recipeRun is one recipe's output and the method options compared with it.
type recipeRun struct {
	recipe  string
	want    []match
	configs []engine.Config
}

// match is one pair as a recipe reports it: for tm an unordered pair
// (a < b), for rarewords a's best match b.
type match struct{ a, b string }

// agreement is how a method's pairs compare with a recipe's.
type agreement struct {
	recipe, method, both int
	missed, extra        []match // in the recipe only, in the method only
}

// found is the share of the recipe's pairs the method finds.
func (a agreement) found() float64 { return share(a.both, a.recipe) }

// more is the method's pairs the recipe does not have, as a share of the
// recipe's.
func (a agreement) more() float64 { return share(a.method-a.both, a.recipe) }

func share(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}

// compare counts the pairs in want, in got and in both.
func compare(want, got []match) agreement {
	in := map[match]bool{}
	for _, m := range want {
		in[m] = true
	}
	a := agreement{recipe: len(in)}
	seen := map[match]bool{}
	for _, m := range got {
		if seen[m] {
			continue
		}
		seen[m] = true
		a.method++
		if in[m] {
			a.both++
		} else {
			a.extra = append(a.extra, m)
		}
	}
	for _, m := range want {
		if !seen[m] {
			a.missed = append(a.missed, m)
			seen[m] = true // once
		}
	}
	return a
}

// methodMatches turns a method's pairs into the recipe's kind of matches:
// tfidf's duplicate pairs as unordered pairs; each rarewords pair as the
// best match of the document or documents it is best for.
func methodMatches(pairs []core.Pair) []match {
	var out []match
	for _, p := range pairs {
		switch ev := p.Evidence.(type) {
		case rarewords.Evidence:
			if ev.BestFor == "a" || ev.BestFor == "both" {
				out = append(out, match{p.A, p.B})
			}
			if ev.BestFor == "b" || ev.BestFor == "both" {
				out = append(out, match{p.B, p.A})
			}
		default:
			if p.Label == core.Duplicate {
				out = append(out, unordered(p.A, p.B))
			}
		}
	}
	return out
}

func unordered(a, b string) match {
	if b < a {
		a, b = b, a
	}
	return match{a, b}
}

// runRecipeCompare runs every configuration of every run over docs and
// prints its agreement with the run's recipe.
func runRecipeCompare(ctx context.Context, docs []core.Document, runs []recipeRun, show int, out, progress io.Writer) error {
	tw := tabwriter.NewWriter(out, 2, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "recipe\tmethod, options\trecipe's\tmethod's\tboth\tfound\tmore\t")
	var lists bytes.Buffer
	for _, r := range runs {
		for _, c := range r.configs {
			if progress != nil {
				fmt.Fprintf(progress, "recipe-compare: %s over %d documents\n", describeRecipeConfig(c), len(docs))
			}
			res, err := sweep.Run(ctx, docs, c, 0)
			if err != nil {
				return err
			}
			a := compare(r.want, methodMatches(res.Pairs))
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%.1f %%\t%.1f %%\t\n", r.recipe, describeRecipeConfig(c),
				a.recipe, a.method, a.both, 100*a.found(), 100*a.more())
			listMatches(&lists, fmt.Sprintf("%s, %s: in the recipe only", r.recipe, describeRecipeConfig(c)), a.missed, show)
			listMatches(&lists, fmt.Sprintf("%s, %s: in the method only", r.recipe, describeRecipeConfig(c)), a.extra, show)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := out.Write(lists.Bytes())
	return err
}

// listMatches writes up to n of ms under a heading, sorted.
func listMatches(w io.Writer, heading string, ms []match, n int) {
	if n <= 0 || len(ms) == 0 {
		return
	}
	ms = slices.Clone(ms)
	slices.SortFunc(ms, func(x, y match) int { return strings.Compare(x.a+"\x00"+x.b, y.a+"\x00"+y.b) })
	fmt.Fprintf(w, "\n%s (%d):\n", heading, len(ms))
	for _, m := range ms[:min(n, len(ms))] {
		fmt.Fprintf(w, "  %s %s\n", m.a, m.b)
	}
}

// describeRecipeConfig names a configuration by its method and the options
// the recipes' comparison varies.
func describeRecipeConfig(c engine.Config) string {
	switch o := c.(type) {
	case tfidf.Options:
		return fmt.Sprintf("tfidf --terms %s --weighting %s", o.Terms, o.Weighting)
	case rarewords.Options:
		return fmt.Sprintf("rarewords --tokens %s", o.Tokens)
	}
	return c.Method()
}

// readTMPairs reads the TF-IDF recipe's pairs: a JSON object a line with
// the ids a and b (strings or numbers).
func readTMPairs(path string) ([]match, error) {
	var out []match
	err := readLines(path, func(n int, line []byte) error {
		var p struct{ A, B json.RawMessage }
		if err := json.Unmarshal(line, &p); err != nil {
			return err
		}
		a, err := idText(p.A)
		if err != nil {
			return fmt.Errorf("field a: %w", err)
		}
		b, err := idText(p.B)
		if err != nil {
			return fmt.Errorf("field b: %w", err)
		}
		out = append(out, unordered(a, b))
		return nil
	})
	return out, err
}

// idText returns an id written as a JSON string or number as text.
func idText(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return "", fmt.Errorf("id %s is neither a string nor a number", raw)
	}
	return n.String(), nil
}

// readMatches reads the rare-words recipe's matches: a<TAB>b a line.
func readMatches(path string) ([]match, error) {
	var out []match
	err := readLines(path, func(n int, line []byte) error {
		a, b, ok := strings.Cut(string(line), "\t")
		if !ok || a == "" || b == "" || strings.Contains(b, "\t") {
			return fmt.Errorf("want two ids separated by a tab, got %q", line)
		}
		out = append(out, match{a, b})
		return nil
	})
	return out, err
}

// readLines calls fn with each non-empty line of path and its number; an
// error names the file and line.
func readLines(path string, fn func(n int, line []byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimRight(sc.Bytes(), "\r")
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err := fn(n, line); err != nil {
			return fmt.Errorf("%s line %d: %w", path, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	return nil
}
