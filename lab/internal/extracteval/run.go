package extracteval

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
)

// System is an extractor under test: it returns the main text of a page.
// An error counts the page as failed with an empty prediction.
// Extract is called from several goroutines at once.
type System struct {
	Name    string
	Extract func(ctx context.Context, in Input) (string, error)
}

// Result is one system's score on one dataset.
type Result struct {
	Dataset string
	System  string
	Mean    Mean
	// Failed counts pages whose Extract returned an error.
	Failed int
	// Empty counts pages whose prediction holds no word, no \w token (an
	// empty text, or one of spaces and punctuation only): the pages that
	// have no precision under the shingle metric.
	Empty int
	// Elapsed is the wall time of the extraction over all pages.
	Elapsed time.Duration
	// Workers is the number of pages extracted at once.
	Workers int
	// Median is the median wall time of one page's extraction.
	Median time.Duration
	// Sites counts the distinct sites of the pages (see Site).
	Sites int
	// Pages are the per-page scores in dataset order, for error analysis.
	Pages []PageScore
}

// PageScore is one page's score.
type PageScore struct {
	ID string
	// Site is the page's site (see Site); Half its side of the split.
	Site string
	Half Half
	PR
	Failed bool
	// Empty is set when the prediction holds no word (see Result.Empty).
	Empty bool
}

// Half returns the result restricted to the pages of one half of the
// per-site split, its dataset named "<dataset>:<half>". Timings are not
// split: the half's Elapsed and Median are zero.
func (r Result) Half(h Half) Result {
	out := Result{Dataset: r.Dataset + ":" + string(h), System: r.System, Workers: r.Workers}
	sites := map[string]bool{}
	for _, p := range r.Pages {
		if p.Half != h {
			continue
		}
		out.Pages = append(out.Pages, p)
		out.Mean.Add(p.PR)
		sites[p.Site] = true
		if p.Failed {
			out.Failed++
		}
		if p.Empty {
			out.Empty++
		}
	}
	out.Sites = len(sites)
	return out
}

// PagesPerSecond is the throughput the run measured.
func (r Result) PagesPerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Mean.Pages) / r.Elapsed.Seconds()
}

type scored struct {
	pr     PR
	failed bool
	empty  bool
	took   time.Duration
	site   string
}

// Evaluate runs sys over every page of ds with workers goroutines (0 means
// GOMAXPROCS) and scores each prediction against the gold text. Reading a
// page is a fatal error; an extraction error is not.
func Evaluate(ctx context.Context, ds *Dataset, sys System, workers int) (Result, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	inputs, err := readInputs(ds)
	if err != nil {
		return Result{}, err
	}
	out := make([]scored, len(ds.Pages))
	start := time.Now()
	err = eachPage(ctx, len(inputs), workers, func(i int) {
		t0 := time.Now()
		text, err := sys.Extract(ctx, inputs[i])
		took := time.Since(t0)
		out[i] = scored{ds.Pages[i].Score(text), err != nil, !strings.ContainsFunc(text, isWord), took, Site(inputs[i])}
	})
	if err != nil {
		return Result{}, err
	}
	return summarise(ds, sys, out, time.Since(start), workers), nil
}

// eachPage calls do with every page index below n on workers goroutines,
// and stops handing out pages when ctx is done (its error is returned).
func eachPage(ctx context.Context, n, workers int, do func(i int)) error {
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Go(func() {
			for i := range next {
				do(i)
			}
		})
	}
	for i := range n {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return ctx.Err()
}

// readInputs reads every page before the clock starts.
func readInputs(ds *Dataset) ([]Input, error) {
	inputs := make([]Input, len(ds.Pages))
	for i, p := range ds.Pages {
		in, err := ReadInput(p)
		if err != nil {
			return nil, err
		}
		inputs[i] = in
	}
	return inputs, nil
}

// summarise turns per-page scores into a Result.
func summarise(ds *Dataset, sys System, out []scored, elapsed time.Duration, workers int) Result {
	res := Result{Dataset: ds.Name, System: sys.Name, Elapsed: elapsed, Workers: workers}
	res.Pages = make([]PageScore, len(out))
	took := make([]time.Duration, len(out))
	sites := map[string]bool{}
	for i, s := range out {
		took[i] = s.took
		sites[s.site] = true
		res.Pages[i] = PageScore{ds.Pages[i].ID, s.site, SplitHalf(s.site), s.pr, s.failed, s.empty}
		res.Mean.Add(s.pr)
		if s.failed {
			res.Failed++
		}
		if s.empty {
			res.Empty++
		}
	}
	res.Sites = len(sites)
	if len(took) > 0 {
		slices.Sort(took)
		res.Median = took[len(took)/2]
	}
	return res
}

// WriteTable prints results as an aligned table, one row per dataset and
// system. With cis (one per result, from Bootstrap.Intervals), a column
// gives each F1's interval.
func WriteTable(w io.Writer, results []Result, cis []Interval) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "dataset\tsystem\tpages\tsites\tempty\tfailed\tprecision\trecall\tF1\t"
	if cis != nil {
		head += fmt.Sprintf("F1 %.0f%%\t", 100*Level)
	}
	fmt.Fprintln(tw, head+"pages/s\tp50 ms\t")
	for i, r := range results {
		speed := "\t"
		if r.Elapsed > 0 {
			speed = fmt.Sprintf("%.0f\t%.1f", r.PagesPerSecond(), float64(r.Median)/1e6)
		}
		ci := ""
		if cis != nil {
			ci = cis[i].String() + "\t"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%.4f\t%.4f\t%.4f\t%s%s\t\n",
			r.Dataset, r.System, r.Mean.Pages, r.Sites, r.Empty, r.Failed,
			r.Mean.Precision(), r.Mean.Recall(), r.Mean.F1(), ci, speed)
	}
	return tw.Flush()
}
