package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"sync"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/eval"
	"github.com/neardup/neardup/internal/job"
	"github.com/neardup/neardup/internal/progress"
)

// childCmd is `ndbench child SPEC`: one measured run, described by a JSON
// childSpec, whose childResult it writes to stdout as JSON.
type childCmd struct {
	Spec string `arg:"" help:"The run as JSON."`
}

// The kinds of child run. Generation and scoring run in children too, so
// that the parent stays small: a child's rusage peak RSS counts the
// parent's at the moment it was started (Linux records the old memory's
// peak when exec replaces it).
const (
	kindGen  = "gen"  // generate the corpus unless it is cached
	kindRead = "read" // the baseline: read and decode only
	kindJob  = "job"  // a whole dedup job
	kindEval = "eval" // score a job's output against the truth
)

// childSpec describes one child run.
type childSpec struct {
	Kind       string        `json:"kind"`
	Corpus     *corpusSpec   `json:"corpus,omitempty"` // gen: the corpus to make
	Work       string        `json:"work,omitempty"`   // gen: the directory that caches corpora
	Inputs     []string      `json:"inputs,omitempty"` // read, job
	Out        string        `json:"out,omitempty"`    // job, eval: the job's output directory
	Method     methodOptions `json:"method"`           // job: the method and its options; eval: the method
	Truth      string        `json:"truth,omitempty"`  // eval: the truth file
	Progress   bool          `json:"progress"`         // print progress on stderr
	CPUProfile string        `json:"cpu_profile"`      // write a CPU profile here when set
	Workers    int           `json:"workers"`          // 0: GOMAXPROCS for a job, 2 for read
	DB         string        `json:"db,omitempty"`     // index-add, index-probe: the index
	Skip       int           `json:"skip,omitempty"`   // index-probe: records before its documents
	Limit      int           `json:"limit,omitempty"`  // index-add, index-probe: documents to take
}

// childResult is what a child reports on stdout.
type childResult struct {
	Records   int   `json:"records"`   // records read
	Documents int   `json:"documents"` // records read without error (and, for a job, not skipped)
	Skipped   int   `json:"skipped"`   // records skipped by the reader (and, for a job, the method)
	TextBytes int64 `json:"text_bytes"`
	// Shingles is how many word 5-grams the floor hashed, ShingleSum the
	// sum of their hashes.
	Shingles   int64         `json:"shingles,omitempty"`
	ShingleSum uint64        `json:"shingle_sum,omitempty"`
	Stats      *engine.Stats `json:"stats,omitempty"`  // job
	Corpus     *corpusFiles  `json:"corpus,omitempty"` // gen
	Eval       *eval.Result  `json:"eval,omitempty"`   // eval
	Probe      *probeResult  `json:"probe,omitempty"`  // index-probe
	// SelfPeakRSS is the child's own peak resident memory in bytes
	// (VmHWM), where the platform tells; 0 elsewhere.
	SelfPeakRSS int64 `json:"self_peak_rss"`
}

// Run decodes the spec, runs it and writes the result.
func (c *childCmd) Run(ctx context.Context) error {
	var spec childSpec
	if err := json.Unmarshal([]byte(c.Spec), &spec); err != nil {
		return usageError{fmt.Sprintf("child spec: %v", err)}
	}
	res, err := runChild(ctx, spec)
	if err != nil {
		return err
	}
	res.SelfPeakRSS = selfPeakRSS()
	return json.NewEncoder(os.Stdout).Encode(res)
}

// runChild runs spec, under a CPU profile when it asks for one.
func runChild(ctx context.Context, spec childSpec) (childResult, error) {
	if spec.CPUProfile != "" {
		f, err := os.Create(spec.CPUProfile)
		if err != nil {
			return childResult{}, fmt.Errorf("cpu profile: %w", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return childResult{}, fmt.Errorf("cpu profile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	switch spec.Kind {
	case kindGen:
		return genCorpus(spec)
	case kindEval:
		return evalJob(spec)
	case kindRead:
		return readOnly(ctx, spec.Inputs, max(spec.Workers, 2), false)
	case kindFloor:
		return readOnly(ctx, spec.Inputs, max(spec.Workers, 2), true)
	case kindJob:
		return runJob(ctx, spec)
	case kindPeer:
		return runPeer(ctx, spec)
	case kindIndexAdd:
		return indexAdd(ctx, spec)
	case kindIndexProbe:
		return indexProbe(ctx, spec)
	}
	return childResult{}, usageError{fmt.Sprintf("child spec: unknown kind %q", spec.Kind)}
}

// runJob runs the dedup job as `neardup dedup` would.
func runJob(ctx context.Context, spec childSpec) (childResult, error) {
	c, err := spec.Method.decode()
	if err != nil {
		return childResult{}, err
	}
	o := job.Options{Inputs: spec.Inputs, Out: spec.Out, Method: c, Workers: spec.Workers}
	if spec.Progress {
		o.Progress, o.Warn = os.Stderr, os.Stderr
	}
	st, err := job.Run(ctx, o)
	if err != nil {
		return childResult{}, err
	}
	skipped := 0
	for _, n := range st.Skipped {
		skipped += n
	}
	return childResult{Records: st.Read, Documents: st.Read - skipped, Skipped: skipped, Stats: &st}, nil
}

// genCorpus makes the corpus, or finds it cached.
func genCorpus(spec childSpec) (childResult, error) {
	if spec.Corpus == nil {
		return childResult{}, usageError{"child spec: gen without a corpus"}
	}
	var meter *progress.Meter
	if spec.Progress {
		meter = progress.New(os.Stderr)
	}
	cf, err := ensureCorpus(*spec.Corpus, spec.Work, os.Stderr, meter)
	if err != nil {
		return childResult{}, err
	}
	return childResult{Corpus: &cf}, nil
}

// evalJob scores a job's output.
func evalJob(spec childSpec) (childResult, error) {
	f, err := os.Open(spec.Truth)
	if err != nil {
		return childResult{}, err
	}
	defer f.Close()
	t, err := eval.ReadTruth(f, "ops")
	if err != nil {
		return childResult{}, fmt.Errorf("%s: %w", spec.Truth, err)
	}
	res, err := score(t, spec.Method.Method, spec.Out)
	if err != nil {
		return childResult{}, err
	}
	return childResult{Eval: &res}, nil
}

// readChunk is how many raw records travel together to a decoder.
const readChunk = 256

// readOnly reads the inputs with corpus.Reader (NextRaw on this goroutine,
// Decode on workers goroutines) and counts what it decoded: the floor under
// any method's time. With shingles it also hashes every word 5-gram of
// each document (kindFloor).
func readOnly(ctx context.Context, inputs []string, workers int, shingles bool) (childResult, error) {
	r, err := corpus.Open(inputs, corpus.Options{})
	if err != nil {
		return childResult{}, err
	}
	defer r.Close()
	chunks := make(chan []corpus.Raw, 2*workers)
	results := make([]childResult, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range chunks {
				for _, raw := range c {
					rec := r.Decode(raw)
					results[w].add(rec)
					if shingles && rec.Skip == core.SkipNone {
						n, sum := shingleHashes(rec.Doc.Title + "\n" + rec.Doc.Text)
						results[w].Shingles += n
						results[w].ShingleSum += sum
					}
				}
			}
		}()
	}
	err = feed(ctx, r, chunks)
	close(chunks)
	wg.Wait()
	var total childResult
	for _, p := range results {
		total.Records += p.Documents + p.Skipped
		total.Documents += p.Documents
		total.Skipped += p.Skipped
		total.TextBytes += p.TextBytes
		total.Shingles += p.Shingles
		total.ShingleSum += p.ShingleSum
	}
	return total, err
}

// feed sends the reader's raw records to chunks until the end of input.
func feed(ctx context.Context, r *corpus.Reader, chunks chan<- []corpus.Raw) error {
	c := make([]corpus.Raw, 0, readChunk)
	for {
		raw, err := r.NextRaw()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if c = append(c, raw); len(c) == readChunk {
			if err := ctx.Err(); err != nil {
				return err
			}
			chunks <- c
			c = make([]corpus.Raw, 0, readChunk)
		}
	}
	if len(c) > 0 {
		chunks <- c
	}
	return nil
}

// add counts one decoded record.
func (p *childResult) add(rec corpus.Record) {
	if rec.Skip != core.SkipNone {
		p.Skipped++
		return
	}
	p.Documents++
	p.TextBytes += int64(len(rec.Doc.Title) + len(rec.Doc.Text))
}
