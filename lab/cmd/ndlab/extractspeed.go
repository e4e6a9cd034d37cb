package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"golang.org/x/net/html"

	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/lab/internal/engines"
	"github.com/neardup/neardup/lab/internal/extracteval"
)

// extractSpeedCmd is `ndlab extract-speed`: how long extraction takes per
// page over real pages, beside baselines measured in the same run on the
// same pages: decoding and parsing the page's HTML, which every extractor
// does first, and go-trafilatura with its fallbacks, the best single
// engine on trafilatura's pages. The process's collector runs as `neardup
// extract`'s does (extract.SetGC): the pages are timed as the command
// extracts them.
type extractSpeedCmd struct {
	Gold   []string `required:"" placeholder:"[NAME=]DIR" help:"Gold folder (input/ beside GoldStandard/, or a folder of such folders); only its input pages are read. Repeat for more datasets."`
	IDs    []string `name:"ids" placeholder:"[NAME=]FILE" help:"Time only the ids listed in FILE; NAME picks the dataset when there are several."`
	Rounds int      `default:"3" help:"Times each page is timed; its fastest round counts, the one least disturbed by other work on the machine."`
	// CPUProfile names a file for a CPU profile of the whole run (all
	// stages), read with go tool pprof.
	CPUProfile string `name:"cpuprofile" placeholder:"FILE" help:"Write a CPU profile of the run (every stage) to FILE, for go tool pprof."`
}

// Run turns the flags into options.
func (c *extractSpeedCmd) Run(g *globals) error {
	if c.Rounds < 1 {
		return usageError{"--rounds: want at least 1"}
	}
	ds, err := evalDatasets(c.Gold, c.IDs, nil)
	if err != nil {
		return usageError{err.Error()}
	}
	var log io.Writer
	if !g.quiet {
		log = os.Stderr
	}
	if c.CPUProfile != "" {
		stop, err := startCPUProfile(c.CPUProfile)
		if err != nil {
			return err
		}
		defer stop()
	}
	defer extract.SetGC()()
	return runExtractSpeed(g.ctx, ds, c.Rounds, os.Stdout, log)
}

// startCPUProfile starts a CPU profile written to path; the returned func
// stops it and closes the file.
func startCPUProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// speedStages are the timed stages, the baseline first.
var speedStages = []string{"parse HTML (baseline)", "engine alone", "neardup, no block model", "neardup extract", "go-trafilatura + fallbacks"}

// beforeStage is the stage of extraction without the block model: the
// extractor the block model is added to, timed in the same run;
// neardupStage is `neardup extract`'s and trafStage go-trafilatura's.
const (
	beforeStage  = 2
	neardupStage = 3
	trafStage    = 4
)

// stageTimes are one dataset's per-page times of each stage.
type stageTimes struct {
	dataset string
	pages   int
	times   [][]time.Duration // by stage, then page; each page's fastest round
}

// runExtractSpeed times every stage on every page of each dataset, on one
// goroutine, rounds times, the stages of one page one after the other so
// that they share the machine's load, and prints the table.
func runExtractSpeed(ctx context.Context, datasets []evalDataset, rounds int, out, log io.Writer) error {
	var all []stageTimes
	for _, d := range datasets {
		ds, err := openEvalDataset(d)
		if err != nil {
			return err
		}
		inputs := make([]extracteval.Input, len(ds.Pages))
		for i, p := range ds.Pages {
			if inputs[i], err = extracteval.ReadInput(p); err != nil {
				return err
			}
		}
		st := stageTimes{dataset: ds.Name, pages: len(inputs), times: make([][]time.Duration, len(speedStages))}
		for s := range st.times {
			st.times[s] = make([]time.Duration, len(inputs))
		}
		for r := range rounds {
			for i, in := range inputs {
				if err := ctx.Err(); err != nil {
					return err
				}
				took, err := timeStages(ctx, in)
				if err != nil {
					return fmt.Errorf("%s: %w", in.Path, err)
				}
				for s, t := range took {
					if r == 0 || t < st.times[s][i] {
						st.times[s][i] = t
					}
				}
			}
			if log != nil {
				fmt.Fprintf(log, "extract-speed: %s: round %d of %d done\n", ds.Name, r+1, rounds)
			}
		}
		all = append(all, st)
	}
	if len(all) > 1 {
		all = append(all, pooled(all))
	}
	return writeSpeedTable(out, all, rounds)
}

// pooled returns the times of every page of all datasets as one dataset,
// "all": the development pages together.
func pooled(all []stageTimes) stageTimes {
	p := stageTimes{dataset: "all", times: make([][]time.Duration, len(speedStages))}
	for _, st := range all {
		p.pages += st.pages
		for s := range p.times {
			p.times[s] = append(p.times[s], st.times[s]...)
		}
	}
	return p
}

// timeStages times each stage once on one page.
func timeStages(ctx context.Context, in extracteval.Input) ([]time.Duration, error) {
	took := make([]time.Duration, len(speedStages))
	t0 := time.Now()
	utf, _, err := extract.ToUTF8(in.Body, in.ContentType)
	if err == nil {
		_, err = html.Parse(bytes.NewReader(utf))
	}
	took[0] = time.Since(t0)
	if err != nil {
		return nil, err
	}
	page := extract.Input{URL: in.URL, ContentType: in.ContentType, Body: in.Body}
	stages := []extract.Options{{LibraryOnly: true, MinChars: -1}, {MinChars: -1, KeepBlocks: true}, {MinChars: -1},
		{LibraryOnly: true, MinChars: -1, Engine: engines.TrafilaturaFallback}}
	for s, opts := range stages {
		t0 := time.Now()
		_, _, err := extract.Page(ctx, page, opts)
		took[s+1] = time.Since(t0)
		if err != nil {
			return nil, err
		}
	}
	return took, nil
}

// writeSpeedTable prints per-page percentiles of each stage, the ratios of
// each stage's median to the baseline's and to extraction without the
// block model, and a last line per dataset: `neardup extract`'s p50 and p99
// against go-trafilatura's, all from the same run.
func writeSpeedTable(w io.Writer, all []stageTimes, rounds int) error {
	fmt.Fprintf(w, "per-page wall time, fastest of %d rounds, one goroutine; GOMAXPROCS %d; load average %s\n",
		rounds, runtime.GOMAXPROCS(0), loadAverage())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "dataset\tstage\tpages\tp50 ms\tp90 ms\tp99 ms\tmax ms\tmean ms\tp50 / baseline p50\tp50 / no-block-model p50\tp99 / no-block-model p99\t")
	ratio := func(a, b time.Duration) float64 {
		if b <= 0 {
			return 0
		}
		return float64(a) / float64(b)
	}
	for _, st := range all {
		base := percentile(st.times[0], 0.5)
		before50, before99 := percentile(st.times[beforeStage], 0.5), percentile(st.times[beforeStage], 0.99)
		for s, times := range st.times {
			p50, p99 := percentile(times, 0.5), percentile(times, 0.99)
			fmt.Fprintf(tw, "%s\t%s\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.3f\t%.3f\t\n", st.dataset, speedStages[s], st.pages,
				ms(p50), ms(percentile(times, 0.9)), ms(p99), ms(percentile(times, 1)), ms(mean(times)),
				ratio(p50, base), ratio(p50, before50), ratio(p99, before99))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, st := range all {
		nd, tr := st.times[neardupStage], st.times[trafStage]
		fmt.Fprintf(w, "%s: neardup extract / go-trafilatura + fallbacks: p50 %.3f, p99 %.3f\n", st.dataset,
			ratio(percentile(nd, 0.5), percentile(tr, 0.5)), ratio(percentile(nd, 0.99), percentile(tr, 0.99)))
	}
	return nil
}

// percentile returns the nearest-rank q-quantile of times (0 < q ≤ 1), 0
// for none.
func percentile(times []time.Duration, q float64) time.Duration {
	if len(times) == 0 {
		return 0
	}
	s := slices.Clone(times)
	slices.Sort(s)
	k := int(q*float64(len(s))+0.999999) - 1
	return s[max(0, min(k, len(s)-1))]
}

func mean(times []time.Duration) time.Duration {
	if len(times) == 0 {
		return 0
	}
	var sum time.Duration
	for _, t := range times {
		sum += t
	}
	return sum / time.Duration(len(times))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// loadAverage returns the machine's 1, 5 and 15-minute load averages, or
// "unknown" where /proc/loadavg cannot be read.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}
