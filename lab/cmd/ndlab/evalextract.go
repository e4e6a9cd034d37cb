package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/internal/extract/rules"
	"github.com/neardup/neardup/lab/internal/engines"
	"github.com/neardup/neardup/lab/internal/extracteval"
)

// extractEvalCmd is `ndlab extract-eval`: extraction quality against
// gold text, one table row per dataset and system.
type extractEvalCmd struct {
	Gold      []string      `required:"" placeholder:"[NAME=]DIR" help:"Gold folder: input/ beside GoldStandard/ (Dragnet, CleanEval layout), a folder of such folders, html/ beside txt/ (newspaper4k's tests/data), evaldata.json beside eval/ (trafilatura's tests: scored by snippets), ground-truth/ beside html/ (WCXB's dev or test folder: its article pages), a folder per country of pages and parsed articles (fundus's tests/resources/parser/test_data), html/ beside reference/ (the DAnIEL corpus: news in English, Chinese, Russian, Greek and Polish), ground-truth.json beside html/ (the Article Extraction Benchmark), or one subset's folder html/SUBSET of the combined layout, beside ground-truth/SUBSET.jsonl (the Web Content Extraction Benchmark's: L3S-GN1, CleanPortalEval, …); repeat for more datasets. NAME defaults to the folder's name."`
	IDs       []string      `name:"ids" placeholder:"[NAME=]FILE" help:"Score only the ids listed in FILE (a split such as Dragnet's test.txt); NAME picks the dataset when there are several."`
	Pred      []string      `placeholder:"[NAME=]FILE" help:"Also score a JSONL of {id, text} (e.g. from neardup extract) as a system on dataset NAME: a record finds its page by the page file's path (from the working directory or the --gold folder) or its file name, with or without extensions; pages without a record are named in a warning, and none found is an error."`
	System    []string      `default:"neardup" placeholder:"SYSTEM" help:"Systems to run on every dataset: neardup (extraction with its fixes and rules), neardup-before (the same without the block classifier and the declared body), library (its engine alone), an engine alone by name: readeck, readability (go-shiori), trafilatura, trafilatura-fallback, domdistiller; or a design measured and rejected: vote, fallback, blockvote (see docs/extraction-rejected.md)."`
	Split     bool          `help:"Also score each half of the per-site split: tune (sites whose FNV-1a hash is even) and report (odd)."`
	Rules     string        `type:"existingfile" help:"Site rules (YAML) for the neardup system."`
	Timeout   time.Duration `default:"20s" help:"Per-page time limit."`
	Workers   int           `short:"j" help:"Pages extracted at once (default: one per CPU)."`
	Pages     string        `placeholder:"FILE" help:"Write per-page precision and recall as TSV here, for error analysis; a page without one (an empty prediction, an empty gold) has an empty field."`
	Texts     string        `placeholder:"FILE" help:"Write each page's extracted text beside its gold as JSONL here (dataset, system, id, site, half, precision, recall (null where undefined), text, and gold or the passages it must and must not hold), for error analysis."`
	Bootstrap int           `placeholder:"N" help:"Draw each dataset's sites again N times (with replacement; 1000 is plenty) and give each F1's 95% interval, and each system's F1 against the first --system's on the same draws: the difference, its interval, and the share of draws it is ahead in. The draws are seeded: a run reproduces them."`
}

// dataset is one --gold with its split and prediction files.
type evalDataset struct {
	name, dir, ids string
	preds          []string
}

// extractEvalOptions are runExtractEval's inputs.
type extractEvalOptions struct {
	datasets []evalDataset
	systems  []string // "neardup", "library" or an engine's name
	split    bool     // also score each half of the per-site split
	extract  extract.Options
	workers  int
	out      io.Writer
	pages    string // per-page TSV path, empty for none
	texts    string // per-page JSONL of texts and golds, empty for none
	draws    int    // bootstrap draws, 0 for none
	log      io.Writer
	warn     io.Writer // warnings, such as pages a --pred file has no record of; nil for none
}

// Run turns the flags into options.
func (c *extractEvalCmd) Run(g *globals) error {
	if c.Bootstrap < 0 {
		return usageError{fmt.Sprintf("--bootstrap %d: want a number of draws, 0 for none", c.Bootstrap)}
	}
	o := extractEvalOptions{workers: c.Workers, out: os.Stdout, pages: c.Pages, texts: c.Texts, split: c.Split, draws: c.Bootstrap,
		extract: extract.Options{MinChars: -1, Timeout: c.Timeout}, warn: os.Stderr}
	if !g.quiet {
		o.log = os.Stderr
	}
	for _, s := range c.System {
		if _, err := engines.Lookup(s); err != nil && s != "neardup" && s != "neardup-before" && s != "library" && s != "vote" && s != "fallback" && s != "blockvote" {
			return usageError{fmt.Sprintf("--system %q: want neardup, neardup-before, library, vote, fallback, blockvote or one of %s", s, strings.Join(engines.Names(), ", "))}
		}
		o.systems = append(o.systems, s)
	}
	var err error
	if o.datasets, err = evalDatasets(c.Gold, c.IDs, c.Pred); err != nil {
		return usageError{err.Error()}
	}
	if c.Rules != "" {
		if o.extract.Rules, err = rules.Load(c.Rules); err != nil {
			return usageError{err.Error()}
		}
	}
	return runExtractEval(g.ctx, o)
}

// evalDatasets pairs --gold folders with their --ids and --pred files.
func evalDatasets(gold, ids, preds []string) ([]evalDataset, error) {
	var ds []evalDataset
	index := map[string]int{}
	for _, g := range gold {
		name, dir, ok := strings.Cut(g, "=")
		if !ok {
			name, dir = filepath.Base(filepath.Clean(g)), g
		}
		if _, dup := index[name]; dup {
			return nil, fmt.Errorf("--gold: two datasets named %q; name them NAME=DIR", name)
		}
		index[name] = len(ds)
		ds = append(ds, evalDataset{name: name, dir: dir})
	}
	pick := func(flag, spec string) (*evalDataset, string, error) {
		name, file, ok := strings.Cut(spec, "=")
		switch {
		case !ok && len(ds) == 1:
			return &ds[0], spec, nil
		case !ok:
			return nil, "", fmt.Errorf("--%s %q: name the dataset (NAME=FILE) when there are several", flag, spec)
		}
		i, found := index[name]
		if !found {
			return nil, "", fmt.Errorf("--%s %q: no --gold dataset named %q", flag, spec, name)
		}
		return &ds[i], file, nil
	}
	for _, spec := range ids {
		d, file, err := pick("ids", spec)
		if err != nil {
			return nil, err
		}
		d.ids = file
	}
	for _, spec := range preds {
		d, file, err := pick("pred", spec)
		if err != nil {
			return nil, err
		}
		d.preds = append(d.preds, file)
	}
	return ds, nil
}

// runExtractEval scores every system on every dataset and prints the table.
func runExtractEval(ctx context.Context, o extractEvalOptions) error {
	var results []extracteval.Result
	var texts *pageTexts
	if o.texts != "" {
		texts = &pageTexts{text: map[pageKey]string{}, page: map[pageKey]extracteval.Page{}}
	}
	for _, d := range o.datasets {
		ds, err := openEvalDataset(d)
		if err != nil {
			return err
		}
		systems, err := evalSystems(o, d, ds)
		if err != nil {
			return err
		}
		for _, sys := range systems {
			if texts != nil {
				sys = texts.record(ds, sys)
			}
			r, err := extracteval.Evaluate(ctx, ds, sys, o.workers)
			if err != nil {
				return err
			}
			if o.log != nil {
				fmt.Fprintf(o.log, "eval extract: %s %s: F1 %.4f over %d pages\n", r.Dataset, r.System, r.Mean.F1(), r.Mean.Pages)
			}
			results = append(results, r)
		}
	}

	if o.pages != "" {
		if err := writeAtomic(o.pages, func(w io.Writer) error { return writePageScores(w, results) }); err != nil {
			return err
		}
	}
	if texts != nil {
		if err := writeAtomic(o.texts, func(w io.Writer) error { return texts.write(w, results) }); err != nil {
			return err
		}
	}
	if o.split {
		results = withHalves(results, func(r extracteval.Result) string { return r.Dataset }, extracteval.Result.Half)
	}
	if o.draws == 0 {
		return extracteval.WriteTable(o.out, results, nil)
	}
	cis, diffs, err := extracteval.Bootstrap{Draws: o.draws, Seed: bootstrapSeed}.Intervals(results)
	if err != nil {
		return err
	}
	if err := extracteval.WriteTable(o.out, results, cis); err != nil {
		return err
	}
	if len(diffs) == 0 {
		return nil
	}
	fmt.Fprintln(o.out)
	return extracteval.WriteDiffs(o.out, diffs)
}

// bootstrapSeed seeds extract-eval's bootstrap draws.
const bootstrapSeed = 1

// withHalves follows each dataset's rows with the rows of its tune half and
// then of its report half: results of one dataset stand together, dataset
// names them and half scores one of them on one half.
func withHalves[R any](results []R, dataset func(R) string, half func(R, extracteval.Half) R) []R {
	var out []R
	for i := 0; i < len(results); {
		j := i
		for j < len(results) && dataset(results[j]) == dataset(results[i]) {
			j++
		}
		out = append(out, results[i:j]...)
		for _, h := range []extracteval.Half{extracteval.Tune, extracteval.Report} {
			for _, r := range results[i:j] {
				out = append(out, half(r, h))
			}
		}
		i = j
	}
	return out
}

func openEvalDataset(d evalDataset) (*extracteval.Dataset, error) {
	opts := extracteval.OpenOptions{Name: d.name}
	if d.ids != "" {
		ids, err := extracteval.ReadIDs(d.ids)
		if err != nil {
			return nil, err
		}
		opts.IDs = ids
	}
	return extracteval.Open(d.dir, opts)
}

// evalSystems builds the systems to score on one dataset, ds opened from d.
func evalSystems(o extractEvalOptions, d evalDataset, ds *extracteval.Dataset) ([]extracteval.System, error) {
	var out []extracteval.System
	for _, s := range o.systems {
		switch s {
		case "vote":
			out = append(out, voteSystem(o.extract))
			continue
		case "fallback":
			out = append(out, fallbackSystem(o.extract))
			continue
		case "blockvote":
			out = append(out, blockVoteSystem(o.extract))
			continue
		}
		opts := o.extract
		opts.LibraryOnly = s != "neardup" && s != "neardup-before"
		opts.KeepBlocks = s == "neardup-before"
		if eng, err := engines.Lookup(s); err == nil {
			opts.Engine = eng
		}
		out = append(out, extracteval.System{Name: s, Extract: func(ctx context.Context, in extracteval.Input) (string, error) {
			a, _, err := extract.Page(ctx, extract.Input{URL: in.URL, ContentType: in.ContentType, Body: in.Body}, opts)
			return a.Text, err
		}})
	}
	for _, p := range d.preds {
		sys, missing, err := extracteval.Predictions(filepath.Base(p), p, ds)
		if err != nil {
			return nil, err
		}
		if err := checkMissing(o.warn, p, ds, missing); err != nil {
			return nil, err
		}
		out = append(out, sys)
	}
	return out, nil
}

// checkMissing fails a --pred file that has a record of none of the pages
// of ds, and warns of one that lacks some of them, which then score as
// empty predictions; either names how many and the first few.
func checkMissing(warn io.Writer, pred string, ds *extracteval.Dataset, missing []string) error {
	if len(missing) == 0 {
		return nil
	}
	const few = 3
	names := make([]string, 0, few)
	for _, id := range missing[:min(few, len(missing))] {
		names = append(names, fmt.Sprintf("%q", id))
	}
	list := strings.Join(names, ", ")
	if len(missing) > few {
		list += ", …"
	}
	if len(missing) == len(ds.Pages) {
		return fmt.Errorf("%s: no record for any of the %d pages of %s (%s): were its ids written from the pages of %s?",
			pred, len(ds.Pages), ds.Name, list, ds.Dir)
	}
	if warn != nil {
		fmt.Fprintf(warn, "warning: %s: no record for %d of the %d pages of %s (%s): they score as empty predictions\n",
			pred, len(missing), len(ds.Pages), ds.Name, list)
	}
	return nil
}

// voteSystem is a design measured, not adopted: neardup's text, go-trafilatura's
// (with fallbacks) and go-shiori go-readability's, of which the one that
// agrees most with the other two (the sum of its shingle F1 against each) is
// kept; neardup's wins ties.
func voteSystem(base extract.Options) extracteval.System {
	return extracteval.System{Name: "vote", Extract: func(ctx context.Context, in extracteval.Input) (string, error) {
		page := extract.Input{URL: in.URL, ContentType: in.ContentType, Body: in.Body}
		var texts []string
		for _, eng := range []extract.Engine{nil, engines.TrafilaturaFallback, engines.Readability} {
			opts := base
			opts.Engine, opts.LibraryOnly = eng, eng != nil
			a, _, err := extract.Page(ctx, page, opts)
			if err != nil && eng == nil {
				return "", err
			}
			texts = append(texts, a.Text)
		}
		best, bestScore := 0, -1.0
		for i, t := range texts {
			score := 0.0
			for j, other := range texts {
				if j != i {
					pr := extracteval.Score(other, t)
					if pr.Precision+pr.Recall > 0 {
						score += 2 * pr.Precision * pr.Recall / (pr.Precision + pr.Recall)
					}
				}
			}
			if score > bestScore {
				best, bestScore = i, score
			}
		}
		return texts[best], nil
	}}
}

// writePageScores writes one TSV line per dataset, system and page; a
// precision or recall the page does not have (an empty prediction, an
// empty gold) is an empty field, as the means leave it out.
func writePageScores(w io.Writer, results []extracteval.Result) error {
	if _, err := fmt.Fprintln(w, "dataset\tsystem\tid\tsite\thalf\tprecision\trecall\tfailed"); err != nil {
		return err
	}
	for _, r := range results {
		for _, p := range r.Pages {
			if _, err := fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%v\n", r.Dataset, r.System, p.ID, p.Site, p.Half,
				field(p.Precision, p.NoPrecision), field(p.Recall, p.NoRecall), p.Failed); err != nil {
				return err
			}
		}
	}
	return nil
}

// field writes a score to four decimals, or nothing when it is undefined.
func field(v float64, undefined bool) string {
	if undefined {
		return ""
	}
	return fmt.Sprintf("%.4f", v)
}

// score returns a score for JSON, nil (null) when it is undefined.
func score(v float64, undefined bool) *float64 {
	if undefined {
		return nil
	}
	return &v
}

// pageKey names one page of one dataset as one system extracted it.
type pageKey struct{ dataset, system, id string }

// pageTexts keeps the text every system extracted from every page, and the
// pages with their golds, for --texts.
type pageTexts struct {
	mu   sync.Mutex
	text map[pageKey]string
	page map[pageKey]extracteval.Page // system left empty
}

// record returns sys with its texts kept.
func (t *pageTexts) record(ds *extracteval.Dataset, sys extracteval.System) extracteval.System {
	for _, p := range ds.Pages {
		t.page[pageKey{ds.Name, "", p.ID}] = p
	}
	extract := sys.Extract
	sys.Extract = func(ctx context.Context, in extracteval.Input) (string, error) {
		text, err := extract(ctx, in)
		t.mu.Lock()
		t.text[pageKey{ds.Name, sys.Name, in.ID}] = text
		t.mu.Unlock()
		return text, err
	}
	return sys
}

// pageText is one line of --texts; a precision or recall the page does not
// have is null.
type pageText struct {
	Dataset   string   `json:"dataset"`
	System    string   `json:"system"`
	ID        string   `json:"id"`
	Site      string   `json:"site"`
	Half      string   `json:"half"`
	Precision *float64 `json:"precision"`
	Recall    *float64 `json:"recall"`
	Failed    bool     `json:"failed,omitempty"`
	Text      string   `json:"text"`
	Gold      string   `json:"gold,omitempty"`
	With      []string `json:"with,omitempty"`
	Without   []string `json:"without,omitempty"`
}

// write writes one JSON line per dataset, system and page, in the order of
// the per-page TSV.
func (t *pageTexts) write(w io.Writer, results []extracteval.Result) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, r := range results {
		for _, p := range r.Pages {
			g := t.page[pageKey{r.Dataset, "", p.ID}]
			line := pageText{Dataset: r.Dataset, System: r.System, ID: p.ID, Site: p.Site, Half: string(p.Half),
				Precision: score(p.Precision, p.NoPrecision), Recall: score(p.Recall, p.NoRecall), Failed: p.Failed,
				Text: t.text[pageKey{r.Dataset, r.System, p.ID}], Gold: g.Gold, With: g.With, Without: g.Without}
			if err := enc.Encode(line); err != nil {
				return err
			}
		}
	}
	return nil
}
