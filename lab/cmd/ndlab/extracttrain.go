package main

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/lab/internal/extracteval"
)

// extractTrainCmd is `ndlab extract-train`: fits the block model of
// package extract on the tune half of gold sets and writes it as Go source.
type extractTrainCmd struct {
	Gold    []string `required:"" placeholder:"[NAME=]DIR" help:"Gold folder (any layout extract-eval reads); repeat for more datasets. A block of a snippet set is trained on when it holds a passage the text must hold (1) or must not (0)."`
	IDs     []string `name:"ids" placeholder:"[NAME=]FILE" help:"Train only on the ids listed in FILE; NAME picks the dataset when there are several."`
	Half    string   `default:"tune" enum:"tune,report,all" help:"Pages trained on: those of the tune half of the per-site split (tune), of the report half, or all."`
	L2      float64  `default:"1" help:"Ridge penalty on the weights (not the bias)."`
	MinP    float64  `name:"min-precision-gain" default:"0" help:"Choose the threshold with the best F1 among those whose precision is at least this much above keeping every block."`
	MaxLoss float64  `name:"max-loss" default:"0.0005" help:"Choose the threshold only among those that cost no dataset more than this much F1 against keeping every block."`
	Trees   int      `default:"200" help:"Boosted trees added to the linear model (0: the linear model alone)."`
	Depth   int      `default:"3" help:"Largest depth of a tree."`
	Rate    float64  `default:"0.1" help:"Learning rate of the boosting: each tree's values are shrunk by it."`
	MinLeaf float64  `name:"min-leaf" default:"2" help:"Least weight (in pages' worth of blocks, scaled by p(1-p)) a tree's leaf may hold."`
	Pin     float64  `name:"threshold" placeholder:"P" help:"Keep this threshold instead of choosing one (0: choose it on the held-out folds' scores); without -q the choice is still printed."`
	Folds   int      `default:"5" help:"Choose the threshold on probabilities from models fitted without each block's fold of pages (1: from the model itself)."`
	Out     string   `placeholder:"FILE" help:"Write the model as Go source here (internal/extract/blockmodel.go); without it the weights are printed."`
	Verify  bool     `help:"With --out: fail unless FILE already holds exactly the model trained (the committed weights are reproducible)."`
	Blocks  string   `placeholder:"FILE" help:"Write every training block as TSV here (page, label, weight, probability, text), for error analysis."`
	Balance bool     `help:"Weigh every dataset the same in the fit, however many pages it has (each page weighs the same within its dataset)."`
}

// Run turns the flags into options.
func (c *extractTrainCmd) Run(g *globals) error {
	ds, err := evalDatasets(c.Gold, c.IDs, nil)
	if err != nil {
		return usageError{err.Error()}
	}
	if c.Verify && c.Out == "" {
		return usageError{"--verify needs --out"}
	}
	switch {
	case c.Trees < 0:
		return usageError{fmt.Sprintf("--trees %d: want 0 or more", c.Trees)}
	case c.Depth < 1 || c.Depth > 8:
		return usageError{fmt.Sprintf("--depth %d: want 1 to 8", c.Depth)}
	case !(c.Rate > 0 && c.Rate <= 1):
		return usageError{fmt.Sprintf("--rate %v: want more than 0, at most 1", c.Rate)}
	case !(c.MinLeaf >= 0):
		return usageError{fmt.Sprintf("--min-leaf %v: want 0 or more", c.MinLeaf)}
	case !(c.Pin >= 0 && c.Pin < 1):
		return usageError{fmt.Sprintf("--threshold %v: want 0 to less than 1", c.Pin)}
	case c.Folds < 1:
		return usageError{fmt.Sprintf("--folds %d: want 1 or more", c.Folds)}
	case !(c.L2 >= 0):
		return usageError{fmt.Sprintf("--l-2 %v: want 0 or more", c.L2)}
	}
	var log io.Writer
	if !g.quiet {
		log = os.Stderr
	}
	opts := trainOptions{
		half: c.Half, l2: c.L2, minGain: c.MinP, maxLoss: c.MaxLoss, pin: c.Pin, folds: c.Folds, balance: c.Balance,
		boost: boostOptions{trees: c.Trees, depth: c.Depth, rate: c.Rate, l2: c.L2, minHess: c.MinLeaf, maxCuts: 64},
	}
	m, pages, err := trainBlocks(g.ctx, ds, opts, log)
	if err != nil {
		return err
	}
	if c.Blocks != "" {
		if err := writeAtomic(c.Blocks, func(w io.Writer) error { return writeBlocks(w, m, pages) }); err != nil {
			return err
		}
	}
	src := blockModelSource(m)
	switch {
	case c.Out == "":
		_, err = os.Stdout.WriteString(src)
		return err
	case c.Verify:
		old, err := os.ReadFile(c.Out)
		if err != nil {
			return err
		}
		if string(old) != src {
			return fmt.Errorf("extract-train: %s differs from the model trained now", c.Out)
		}
		fmt.Fprintf(os.Stderr, "extract-train: %s holds the model trained now\n", c.Out)
		return nil
	}
	return writeAtomic(c.Out, func(w io.Writer) error { _, err := io.WriteString(w, src); return err })
}

// trainPage is one page's blocks with their labels and its gold text.
type trainPage struct {
	id, ds string
	site   string           // extracteval.Site: folds keep a site's pages together
	page   extracteval.Page // for a snippet page
	gold   extracteval.Shingles
	blocks []extract.Block
	labels []float64 // share of each block's text found in the gold text
	weight []float64 // each block's share of the page's tokens
}

// trainOptions are extract-train's choices for the fit (see its flags).
type trainOptions struct {
	half                 string // tune, report or all
	l2, minGain, maxLoss float64
	pin                  float64 // the threshold kept; 0: chosen
	folds                int
	balance              bool // every dataset weighs the same
	boost                boostOptions
}

// trainBlocks reads the pages of the chosen half, labels their blocks and
// fits the model.
func trainBlocks(ctx context.Context, datasets []evalDataset, o trainOptions, log io.Writer) (extract.BlockModel, []trainPage, error) {
	var pages []trainPage
	opts := extract.Options{MinChars: -1, KeepBlocks: true}
	for _, d := range datasets {
		ds, err := openEvalDataset(d)
		if err != nil {
			return extract.BlockModel{}, nil, err
		}
		n := 0
		for _, p := range ds.Pages {
			if ctx.Err() != nil {
				return extract.BlockModel{}, nil, ctx.Err()
			}
			in, err := extracteval.ReadInput(p)
			if err != nil {
				return extract.BlockModel{}, nil, err
			}
			if o.half != "all" && string(extracteval.SplitHalf(extracteval.Site(in))) != o.half {
				continue
			}
			blocks, err := extract.PageBlocks(extract.Input{URL: in.URL, ContentType: in.ContentType, Body: in.Body}, opts)
			if err != nil || len(blocks) == 0 {
				continue
			}
			var tp trainPage
			if p.Snippets() {
				tp = labelSnippetPage(p, blocks)
			} else {
				tp = labelPage(p.Gold, blocks)
			}
			tp.id, tp.ds, tp.site = ds.Name+"/"+p.ID, ds.Name, extracteval.Site(in)
			pages = append(pages, tp)
			n++
		}
		if log != nil {
			fmt.Fprintf(log, "extract-train: %s: %d pages of the %s half\n", ds.Name, n, o.half)
		}
	}
	if len(pages) == 0 {
		return extract.BlockModel{}, nil, fmt.Errorf("extract-train: no page to train on")
	}
	if o.balance {
		balance(pages)
	}
	fit := func(pages []trainPage) extract.BlockModel {
		m := extract.BlockModel{Weights: fitLogistic(pages, o.l2)}
		if o.boost.trees > 0 {
			m.Trees = fitBoost(pages, m, o.boost)
		}
		return m
	}
	m := fit(pages)
	if o.pin > 0 && log == nil {
		m.Threshold = o.pin
		return m, pages, nil
	}
	m.Threshold = chooseThreshold(pages, crossProbs(pages, fit, o.folds, m), o.minGain, o.maxLoss, log)
	if o.pin > 0 {
		// The choice is logged, for comparison; the threshold given is kept.
		fmt.Fprintf(log, "extract-train: threshold kept at %.2f (--threshold)\n", o.pin)
		m.Threshold = o.pin
	}
	return m, pages, nil
}

// balance scales the blocks' weights so that every dataset weighs the same
// in the fit: a page of a dataset of n pages weighs N/(k·n), for N pages of
// k datasets in all. Without it a dataset weighs by its pages, and the
// largest one's gold decides what the model learns.
func balance(pages []trainPage) {
	count := map[string]int{}
	for _, p := range pages {
		count[p.ds]++
	}
	for _, p := range pages {
		f := float64(len(pages)) / float64(len(count)*count[p.ds])
		for i := range p.weight {
			p.weight[i] *= f
		}
	}
}

// labelPage labels each block by the share of its shingles found in the
// gold text; a block of fewer than four tokens is 1 when its tokens occur
// in the gold text in a row, else 0.
func labelPage(gold string, blocks []extract.Block) trainPage {
	found := extracteval.FoundIn(gold)
	tp := trainPage{gold: extracteval.ShinglesOf(gold), blocks: blocks}
	total := 0
	tokens := make([]int, len(blocks))
	for i, b := range blocks {
		tokens[i] = len(extracteval.Tokens(b.Text))
		total += tokens[i]
	}
	for i, b := range blocks {
		w := 0.0
		if total > 0 {
			w = float64(tokens[i]) / float64(total)
		}
		tp.labels = append(tp.labels, found.Share(b.Text))
		tp.weight = append(tp.weight, w)
	}
	return tp
}

// labelSnippetPage labels the blocks of a snippet page: 1 for a block
// holding a passage the text must hold, 0 for one holding a passage it must
// not; the other blocks (and those holding both) are not trained on.
func labelSnippetPage(p extracteval.Page, blocks []extract.Block) trainPage {
	tp := trainPage{page: p, blocks: blocks}
	holds := func(text string, snippets []string) bool {
		text = strings.Join(strings.Fields(text), " ")
		for _, s := range snippets {
			if s = strings.Join(strings.Fields(s), " "); s != "" && strings.Contains(text, s) {
				return true
			}
		}
		return false
	}
	labelled := 0
	for _, b := range blocks {
		with, without := holds(b.Text, p.With), holds(b.Text, p.Without)
		label, w := 0.0, 0.0
		switch {
		case with && !without:
			label, w = 1, 1
		case without && !with:
			w = 1
		}
		labelled += int(w)
		tp.labels = append(tp.labels, label)
		tp.weight = append(tp.weight, w)
	}
	for i := range tp.weight {
		if labelled > 0 {
			tp.weight[i] /= float64(labelled)
		}
	}
	return tp
}

// score scores a prediction for the page.
func (p trainPage) score(text string) extracteval.PR {
	if p.page.Snippets() {
		return p.page.Score(text)
	}
	return extracteval.ScoreShingles(p.gold, extracteval.ShinglesOf(text))
}

// fitLogistic fits weighted logistic regression with a ridge penalty by
// Newton's method (iteratively reweighted least squares), from zero
// weights for a fixed number of steps: the same pages give the same
// weights on every run.
func fitLogistic(pages []trainPage, l2 float64) [extract.NumBlockFeatures]float64 {
	const k = extract.NumBlockFeatures
	var w [k]float64
	for range 25 {
		var grad [k]float64
		var hess [k][k]float64
		for _, p := range pages {
			for i, b := range p.blocks {
				z := 0.0
				for j := range k {
					z += w[j] * b.Features[j]
				}
				pr := 1 / (1 + math.Exp(-z))
				c := p.weight[i]
				r := c * (p.labels[i] - pr)
				s := c * pr * (1 - pr)
				for j := range k {
					grad[j] += r * b.Features[j]
					for l := range k {
						hess[j][l] += s * b.Features[j] * b.Features[l]
					}
				}
			}
		}
		for j := 1; j < k; j++ {
			grad[j] -= l2 * w[j]
			hess[j][j] += l2
		}
		hess[0][0] += 1e-9
		step := solve(hess, grad)
		for j := range k {
			w[j] += step[j]
		}
	}
	return w
}

// solve solves a x = b by Gaussian elimination with partial pivoting.
func solve(a [extract.NumBlockFeatures][extract.NumBlockFeatures]float64, b [extract.NumBlockFeatures]float64) [extract.NumBlockFeatures]float64 {
	const n = extract.NumBlockFeatures
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		b[c], b[p] = b[p], b[c]
		if a[c][c] == 0 {
			continue
		}
		for r := c + 1; r < n; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k < n; k++ {
				a[r][k] -= f * a[c][k]
			}
			b[r] -= f * b[c]
		}
	}
	var x [n]float64
	for r := n - 1; r >= 0; r-- {
		s := b[r]
		for k := r + 1; k < n; k++ {
			s -= a[r][k] * x[k]
		}
		if a[r][r] != 0 {
			x[r] = s / a[r][r]
		}
	}
	return x
}

// flatF1 is how much less F1 than the best a bolder threshold may score and
// still be chosen: the F1 of the held-out scores moves by this much from
// one threshold to the next as the training pages change.
const flatF1 = 0.0005

// chooseThreshold scores the training pages with the blocks under each
// threshold removed as extraction removes them (BlockModel.Keep) and
// returns, among the thresholds whose precision gains at least minGain
// over keeping every block and that cost no dataset more than maxLoss of
// F1, the boldest whose F1 is within flatF1 of the best.
func chooseThreshold(pages []trainPage, probs [][]float64, minGain, maxLoss float64, log io.Writer) float64 {
	// score returns the mean over all pages and over each dataset's.
	score := func(t float64) (extracteval.Mean, map[string]*extracteval.Mean) {
		var mean extracteval.Mean
		per := map[string]*extracteval.Mean{}
		for i, p := range pages {
			var kept []string
			for j, keep := range extract.KeepScored(p.blocks, probs[i], t) {
				if keep {
					kept = append(kept, p.blocks[j].Text)
				}
			}
			pr := p.score(strings.Join(kept, "\n\n"))
			mean.Add(pr)
			if per[p.ds] == nil {
				per[p.ds] = &extracteval.Mean{}
			}
			per[p.ds].Add(pr)
		}
		return mean, per
	}
	base, basePer := score(0)
	if log != nil {
		var oracle extracteval.Mean
		for _, p := range pages {
			var kept []string
			for j, b := range p.blocks {
				if p.labels[j] >= 0.5 {
					kept = append(kept, b.Text)
				}
			}
			oracle.Add(p.score(strings.Join(kept, "\n\n")))
		}
		fmt.Fprintf(log, "extract-train: blocks kept by their labels (the best pruning can do): P %.4f R %.4f F1 %.4f\n", oracle.Precision(), oracle.Recall(), oracle.F1())
	}
	best, bestF1 := 0.0, base.F1()
	f1s := map[float64]float64{} // the F1 of each eligible threshold
	for t := 0.02; t < 0.9; t += 0.02 {
		t = math.Round(t*100) / 100
		s, per := score(t)
		worst := 0.0 // the largest loss of F1 on one dataset
		for name, m := range per {
			worst = max(worst, basePer[name].F1()-m.F1())
		}
		if log != nil {
			fmt.Fprintf(log, "extract-train: threshold %.2f: P %.4f R %.4f F1 %.4f, largest loss on one set %.4f\n", t, s.Precision(), s.Recall(), s.F1(), worst)
		}
		if s.Precision() >= base.Precision()+minGain && worst <= maxLoss {
			f1s[t] = s.F1()
			if s.F1() > bestF1 {
				best, bestF1 = t, s.F1()
			}
		}
	}
	// Where the F1 is flat, the boldest threshold: it keeps less
	// boilerplate for the same F1.
	for t, f1 := range f1s {
		if t > best && f1 >= bestF1-flatF1 {
			best = t
		}
	}
	if log != nil {
		chosen := bestF1
		if f1, ok := f1s[best]; ok {
			chosen = f1
		}
		fmt.Fprintf(log, "extract-train: %d pages; all blocks kept P %.4f R %.4f F1 %.4f; threshold %.2f F1 %.4f (best F1 %.4f)\n",
			len(pages), base.Precision(), base.Recall(), base.F1(), best, chosen, bestF1)
	}
	return best
}

// crossProbs returns every training block's probability under the model
// m, or, with folds > 1, under a model fitted without the block's fold
// (the pages of a set of sites, siteFold): a threshold chosen on
// probabilities of blocks the model trained on would be chosen for a fit
// better than new sites get.
func crossProbs(pages []trainPage, fit func([]trainPage) extract.BlockModel, folds int, m extract.BlockModel) [][]float64 {
	out := make([][]float64, len(pages))
	fold := make([]int, len(pages))
	models := []extract.BlockModel{m}
	if folds > 1 {
		models = make([]extract.BlockModel, folds)
		for i, p := range pages {
			fold[i] = siteFold(p.site, folds)
		}
		for k := range folds {
			if !slices.Contains(fold, k) {
				continue
			}
			var train []trainPage
			for i, p := range pages {
				if fold[i] != k {
					train = append(train, p)
				}
			}
			models[k] = fit(train)
		}
	}
	for i, p := range pages {
		mk := &models[fold[i]]
		out[i] = make([]float64, len(p.blocks))
		for j, b := range p.blocks {
			out[i][j] = mk.Prob(b.Features)
		}
	}
	return out
}

// siteFold returns the fold of a site's pages: its name's FNV-1a hash
// without the lowest bit (which makes the tune and report halves) modulo
// folds.
func siteFold(site string, folds int) int {
	h := fnv.New32a()
	h.Write([]byte(site))
	return int((h.Sum32() >> 1) % uint32(folds))
}

// blockModelSource is the Go source of internal/extract/blockmodel.go.
func blockModelSource(m extract.BlockModel) string {
	var b strings.Builder
	b.WriteString("// Code generated by ndlab extract-train; DO NOT EDIT.\n\npackage extract\n\n")
	b.WriteString("// DefaultBlockModel is the block model extraction uses by default,\n")
	b.WriteString("// trained by `ndlab extract-train` (docs/extraction-quality.md).\n")
	b.WriteString("var DefaultBlockModel = BlockModel{\n\tWeights: [NumBlockFeatures]float64{\n")
	for _, w := range m.Weights {
		fmt.Fprintf(&b, "\t\t%s,\n", strconv.FormatFloat(w, 'g', 8, 64))
	}
	b.WriteString("\t},\n")
	if len(m.Trees) > 0 {
		b.WriteString("\t// One tree a line; a node is {Feature, Split, Left, Right, Value}.\n")
		b.WriteString("\tTrees: []BlockTree{\n")
		for _, t := range m.Trees {
			b.WriteString("\t\t{")
			for i, n := range t {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "{%d, %s, %d, %d, %s}", n.Feature, strconv.FormatFloat(n.Split, 'g', -1, 64), n.Left, n.Right, strconv.FormatFloat(n.Value, 'g', 8, 64))
			}
			b.WriteString("},\n")
		}
		b.WriteString("\t},\n")
	}
	fmt.Fprintf(&b, "\tThreshold: %s,\n}\n", strconv.FormatFloat(m.Threshold, 'g', -1, 64))
	return b.String()
}

// writeBlocks writes one TSV line per training block.
func writeBlocks(w io.Writer, m extract.BlockModel, pages []trainPage) error {
	if _, err := fmt.Fprintln(w, "page\tlabel\tweight\tprob\ttext"); err != nil {
		return err
	}
	for _, p := range pages {
		for i, b := range p.blocks {
			text := strings.Join(strings.Fields(b.Text), " ")
			if _, err := fmt.Fprintf(w, "%s\t%.3f\t%.4f\t%.3f\t%s\n", p.id, p.labels[i], p.weight[i], m.Prob(b.Features), text); err != nil {
				return err
			}
		}
	}
	return nil
}
