package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/lab/internal/engines"
	"github.com/neardup/neardup/lab/internal/extracteval"
)

// extractMetaCmd is `ndlab extract-meta`: the titles, dates, authors and
// languages extraction finds, against those the gold sets record.
type extractMetaCmd struct {
	Gold    []string      `required:"" placeholder:"[NAME=]DIR" help:"Gold folder that records titles, authors and dates beside the text (fundus's tests/resources/parser/test_data, a WCXB dev or test folder) or languages (the DAnIEL corpus, its doc_lg.json); repeat for more. NAME defaults to the folder's name."`
	System  []string      `default:"neardup,trafilatura-fallback,readeck" placeholder:"SYSTEM" help:"Systems to run: neardup, or an engine alone by name: readeck, readability (go-shiori), trafilatura, trafilatura-fallback, domdistiller."`
	Split   bool          `help:"Also score each half of the per-site split (tune, report), as extract-eval does."`
	Timeout time.Duration `default:"20s" help:"Per-page time limit."`
	Workers int           `short:"j" help:"Pages extracted at once (default: one per CPU)."`
	Pages   string        `placeholder:"FILE" help:"Write each page's gold and found title, date and authors as TSV here, for error analysis."`
}

// Run scores every system on every dataset and prints the table.
func (c *extractMetaCmd) Run(g *globals) error {
	for _, s := range c.System {
		if _, err := engines.Lookup(s); err != nil && s != "neardup" {
			return usageError{fmt.Sprintf("--system %q: want neardup or one of %s", s, strings.Join(engines.Names(), ", "))}
		}
	}
	datasets, err := evalDatasets(c.Gold, nil, nil)
	if err != nil {
		return usageError{err.Error()}
	}
	var results []extracteval.MetaResult
	for _, d := range datasets {
		ds, err := openEvalDataset(d)
		if err != nil {
			return err
		}
		for _, s := range c.System {
			r, err := extracteval.EvaluateMeta(g.ctx, ds, metaSystem(s, c.Timeout), c.Workers)
			if err != nil {
				return err
			}
			if !g.quiet {
				fmt.Fprintf(os.Stderr, "extract-meta: %s %s: titles %.3f, dates %.3f, authors %.3f, languages %.3f over %d pages\n",
					r.Dataset, r.System, r.Title.Share(), r.Date.Share(), r.Authors.Share(), r.Lang.Share(), r.Pages)
			}
			results = append(results, r)
		}
	}
	if c.Pages != "" {
		if err := writeAtomic(c.Pages, func(w io.Writer) error { return writeMetaPages(w, results) }); err != nil {
			return err
		}
	}
	if c.Split {
		results = withHalves(results, func(r extracteval.MetaResult) string { return r.Dataset }, extracteval.MetaResult.Half)
	}
	return extracteval.WriteMetaTable(os.Stdout, results)
}

// metaSystem is the system called name as a metadata extractor.
func metaSystem(name string, timeout time.Duration) extracteval.MetaSystem {
	opts := extract.Options{MinChars: -1, Timeout: timeout}
	if eng, err := engines.Lookup(name); err == nil {
		opts.Engine, opts.LibraryOnly = eng, true
	}
	return extracteval.MetaSystem{Name: name, Extract: func(ctx context.Context, in extracteval.Input) (extracteval.PageMeta, error) {
		a, _, err := extract.Page(ctx, extract.Input{URL: in.URL, ContentType: in.ContentType, Body: in.Body}, opts)
		return extracteval.PageMeta{Title: a.Title, Author: a.Author, Date: a.Date, Lang: a.Lang}, err
	}}
}

// writeMetaPages writes a row per page and system: the gold and found
// title, date and authors, and whether each is right.
func writeMetaPages(w io.Writer, results []extracteval.MetaResult) error {
	if _, err := fmt.Fprintln(w, "dataset\tsystem\tid\tsite\thalf\ttitle ok\tdate ok\tauthors ok\tgold title\ttitle\tgold date\tdate\tgold authors\tauthors\tgold lang\tlang"); err != nil {
		return err
	}
	clean := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, r := range results {
		for _, p := range r.PerPage {
			m := p.Gold
			date := ""
			if !p.Found.Date.IsZero() {
				date = core.FormatDate(p.Found.Date, time.RFC3339) // without an offset where the page names none
			}
			if _, err := fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%v\t%v\t%v\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Dataset, r.System, p.ID, p.Site,
				extracteval.SplitHalf(p.Site), p.TitleRight, p.DateRight, p.AuthRight,
				clean(m.Title), clean(p.Found.Title), m.Published, date, clean(strings.Join(m.Authors, "; ")), clean(p.Found.Author),
				m.Lang, p.Found.Lang); err != nil {
				return err
			}
		}
	}
	return nil
}
