package extracteval

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"text/tabwriter"
)

// The figures of one run are means over the pages a dataset happens to
// hold; another sample of the same kind of pages would give others. A
// bootstrap measures how far: it draws the dataset's sites again, with
// replacement, as many as it has, scores every draw, and reads the spread
// of the scores. Sites are drawn rather than pages because pages of one
// site are alike (one publisher's template, one parser's gold): a draw of
// pages would count a site of twenty pages as twenty witnesses.

// Interval is a percentile interval of a statistic over bootstrap draws.
type Interval struct {
	Lo, Hi float64
}

// String writes the interval as "lo–hi" with four decimals.
func (i Interval) String() string { return fmt.Sprintf("%.4f–%.4f", i.Lo, i.Hi) }

// Level is the share of the draws a bootstrap interval holds: the 2.5th
// to the 97.5th percentile.
const Level = 0.95

// Bootstrap draws the sites of a dataset again, with replacement; every
// result of one dataset is scored on the same draws, so that the
// difference between two systems is measured on the same pages. The
// draws depend only on the seed and the pages' sites: a run reproduces
// its intervals.
type Bootstrap struct {
	// Draws is the number of resamples.
	Draws int
	// Seed seeds the draws.
	Seed uint64
}

// draws returns, for pages grouped by site, the site indices of every
// draw.
func (b Bootstrap) draws(sites int) [][]int {
	rng := rand.New(rand.NewPCG(b.Seed, uint64(sites)))
	out := make([][]int, b.Draws)
	for d := range out {
		pick := make([]int, sites)
		for i := range pick {
			pick[i] = rng.IntN(sites)
		}
		out[d] = pick
	}
	return out
}

// bySite groups the indices of pages by site, sites in order of first
// appearance.
func bySite(pages []PageScore) [][]int {
	index := map[string]int{}
	var groups [][]int
	for i, p := range pages {
		k, ok := index[p.Site]
		if !ok {
			k = len(groups)
			index[p.Site] = k
			groups = append(groups, nil)
		}
		groups[k] = append(groups[k], i)
	}
	return groups
}

// f1s returns the F1 of each draw of r's pages.
func f1s(pages []PageScore, groups [][]int, draws [][]int) []float64 {
	out := make([]float64, len(draws))
	for d, pick := range draws {
		var m Mean
		for _, g := range pick {
			for _, i := range groups[g] {
				m.Add(pages[i].PR)
			}
		}
		out[d] = m.F1()
	}
	return out
}

// percentiles returns the Level interval of xs (sorted in place).
func percentiles(xs []float64) Interval {
	if len(xs) == 0 {
		return Interval{}
	}
	slices.Sort(xs)
	at := func(q float64) float64 {
		k := int(q * float64(len(xs)-1))
		return xs[k]
	}
	return Interval{at((1 - Level) / 2), at(1 - (1-Level)/2)}
}

// Diff is the first system's F1 against another system's on one dataset,
// measured on the same bootstrap draws.
type Diff struct {
	Dataset, System, Against string
	// Delta is the system's F1 less the other's, on the dataset itself.
	Delta float64
	// Interval is the Level interval of the difference over the draws.
	Interval Interval
	// Ahead is the share of draws in which the system's F1 is the higher.
	Ahead float64
}

// Intervals returns, for each result, the Level interval of its F1 over
// the draws, and, for every result of a dataset after its first (the first
// system given), that first system's difference from it. Results of one
// dataset must score the same pages in the same order, as Evaluate and
// Result.Half give them.
func (b Bootstrap) Intervals(results []Result) ([]Interval, []Diff, error) {
	cis := make([]Interval, len(results))
	var diffs []Diff
	// The first result of a dataset is the reference; the others are
	// scored on its draws, the same sites in the same order.
	type ref struct {
		r      Result
		groups [][]int
		draws  [][]int
		f1s    []float64
	}
	refs := map[string]*ref{}
	for i, r := range results {
		rf, seen := refs[r.Dataset]
		if !seen {
			groups := bySite(r.Pages)
			rf = &ref{r: r, groups: groups, draws: b.draws(len(groups))}
			rf.f1s = f1s(r.Pages, rf.groups, rf.draws)
			refs[r.Dataset] = rf
			cis[i] = percentiles(slices.Clone(rf.f1s))
			continue
		}
		if err := samePages(rf.r, r); err != nil {
			return nil, nil, err
		}
		xs := f1s(r.Pages, rf.groups, rf.draws)
		d := Diff{Dataset: r.Dataset, System: rf.r.System, Against: r.System, Delta: rf.r.Mean.F1() - r.Mean.F1()}
		deltas := make([]float64, len(xs))
		ahead := 0
		for k := range xs {
			deltas[k] = rf.f1s[k] - xs[k]
			if deltas[k] > 0 {
				ahead++
			}
		}
		d.Interval = percentiles(deltas)
		d.Ahead = float64(ahead) / float64(len(xs))
		diffs = append(diffs, d)
		cis[i] = percentiles(xs)
	}
	return cis, diffs, nil
}

// samePages reports an error unless a and b scored the same pages, of the
// same sites, in the same order.
func samePages(a, b Result) error {
	if len(a.Pages) != len(b.Pages) {
		return fmt.Errorf("bootstrap: %s: %s scored %d pages, %s %d", a.Dataset, a.System, len(a.Pages), b.System, len(b.Pages))
	}
	for i := range a.Pages {
		if a.Pages[i].ID != b.Pages[i].ID || a.Pages[i].Site != b.Pages[i].Site {
			return fmt.Errorf("bootstrap: %s: page %d is %s for %s, %s for %s", a.Dataset, i, a.Pages[i].ID, a.System, b.Pages[i].ID, b.System)
		}
	}
	return nil
}

// WriteDiffs prints the differences as an aligned table.
func WriteDiffs(w io.Writer, diffs []Diff) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "dataset\tsystem\tagainst\tΔF1\t%.0f%% interval\tahead in\t\n", 100*Level)
	for _, d := range diffs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%+.4f\t%+.4f – %+.4f\t%.1f%%\t\n",
			d.Dataset, d.System, d.Against, d.Delta, d.Interval.Lo, d.Interval.Hi, 100*d.Ahead)
	}
	return tw.Flush()
}
