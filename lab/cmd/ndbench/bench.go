package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/neardup/neardup/internal/eval"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/internal/output"
	"github.com/neardup/neardup/internal/progress"
)

// benchCmd is the benchmark, ndbench's default command.
type benchCmd struct {
	Reuters     string   `help:"Directory of Reuters-21578 .sgm or .sgm.gz files (base texts)." type:"existingdir"`
	BBC         string   `name:"bbc" help:"BBC News full-text archive (bbc.tar.gz) or its directory (base texts)." type:"existingfile"`
	N           int      `short:"n" default:"20000" help:"Documents in the generated corpus."`
	Seed        uint64   `default:"1" help:"Seed of the generated corpus."`
	Methods     []string `default:"minhash,sentences" help:"Methods to run, comma-separated, or 'all' for every method dedup offers."`
	Set         []string `sep:"none" help:"A dedup option for every method, field=value (threshold=0.6, bucket-limit=64), or for one, method.field=value (rarewords.min-words=50). Repeatable."`
	Work        string   `help:"Work directory; generated corpora are cached here by size, seed and sources (default: a new temporary directory, removed at the end unless --keep-corpus)."`
	KeepCorpus  bool     `help:"Keep the temporary work directory (corpus and outputs) to pass to --work next time."`
	KeepOutputs bool     `help:"Keep each method's kept.jsonl (the de-duplicated corpus, as large as the input); pairs and clusters are always kept."`
	Workers     int      `help:"Sketching goroutines of each job (default: one per CPU)."`
	CPUProfile  bool     `name:"cpuprofile" help:"Write each method's CPU profile to <method>.cpu.pprof beside its output directory."`
	JSON        string   `name:"json" help:"Also write the results as JSON to this file."`
	Index       bool     `help:"Also benchmark the persistent index with the first method: the corpus but --probe documents added in bulk (against dedup of the whole corpus), the index opened, then the probes added and checked one at a time (latency percentiles)."`
	Probe       int      `default:"1000" help:"With --index: documents added one at a time after the bulk add."`
	Postgres    string   `help:"With --index: also benchmark the index in this PostgreSQL database (a schema of its own, dropped at the end)."`
	Peer        bool     `help:"Also run the Go MinHash peer, github.com/ekzhu/minhash-lsh (word 5-grams, 128 hashes, LSH at Jaccard 0.5), and print each method's speed against it."`
}

// benchOptions is what runBench needs.
type benchOptions struct {
	corpus      corpusSpec
	methods     []string
	settings    []setting
	work        string
	keepOutputs bool
	workers     int
	cpuProfile  bool
	jsonPath    string
	index       bool
	probe       int
	postgres    string
	peer        bool
	launch      launcher
	out         io.Writer // the tables
	log         io.Writer // what ndbench is doing
	meter       *progress.Meter
}

// Run turns the flags into benchmark options.
func (c *benchCmd) Run(ctx context.Context) error {
	o, err := c.options()
	if err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	o.launch = launcher{exe: exe}
	if isTerminal(os.Stderr) {
		o.launch.stderr = os.Stderr
		o.meter = progress.New(os.Stderr)
	}
	if o.work == "" {
		if o.work, err = os.MkdirTemp("", "ndbench-"); err != nil {
			return err
		}
		if !c.KeepCorpus {
			defer os.RemoveAll(o.work)
		}
		fmt.Fprintf(o.log, "ndbench: work directory %s (%s)\n", o.work, map[bool]string{
			true: "kept: pass it to --work to reuse the corpus", false: "removed at the end; --keep-corpus keeps it"}[c.KeepCorpus])
	}
	_, err = runBench(ctx, o)
	return err
}

// options checks the flags and turns them into benchOptions.
func (c *benchCmd) options() (benchOptions, error) {
	if c.Reuters == "" && c.BBC == "" {
		return benchOptions{}, usageError{"give --reuters DIR, --bbc FILE or both"}
	}
	if c.N < 1 {
		return benchOptions{}, usageError{"-n must be at least 1"}
	}
	if c.Probe < 1 || c.Probe >= c.N {
		return benchOptions{}, usageError{"--probe must be at least 1 and below -n"}
	}
	methods, err := parseMethods(c.Methods)
	if err != nil {
		return benchOptions{}, usageError{err.Error()}
	}
	sets, err := parseSettings(c.Set)
	if err != nil {
		return benchOptions{}, usageError{err.Error()}
	}
	for _, m := range methods {
		if _, err := optionsFor(m, sets); err != nil {
			return benchOptions{}, usageError{fmt.Sprintf("%s: %v", m, err)}
		}
	}
	return benchOptions{corpus: corpusSpec{Reuters: c.Reuters, BBC: c.BBC, N: c.N, Seed: c.Seed},
		methods: methods, settings: sets, work: c.Work, keepOutputs: c.KeepOutputs, workers: c.Workers,
		cpuProfile: c.CPUProfile, jsonPath: c.JSON, index: c.Index || c.Postgres != "", probe: c.Probe, postgres: c.Postgres,
		peer: c.Peer, out: os.Stdout, log: os.Stderr}, nil
}

// parseMethods checks method names; "all" means every method.
func parseMethods(names []string) ([]string, error) {
	var out []string
	for _, m := range names {
		switch {
		case m == "all":
			out = append(out, methods.Names()...)
		case slices.Contains(methods.Names(), m):
			out = append(out, m)
		default:
			return nil, fmt.Errorf("unknown method %q (want one of %v or all)", m, methods.Names())
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no method given")
	}
	return out, nil
}

// runBench builds or reuses the corpus, measures the baseline and every
// method, scores each against the truth and writes the tables (and the
// JSON file when asked). Every stage runs in a child process so that this
// one stays small (see kindGen).
func runBench(ctx context.Context, o benchOptions) (*benchReport, error) {
	rep := &benchReport{Machine: machineInfo{CPUs: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0),
		GoVersion: runtime.Version(), LoadStart: loadAverage(), Started: time.Now().UTC().Format(time.RFC3339)}}
	fmt.Fprintf(o.log, "ndbench: corpus of %d documents, seed %d, in %s\n", o.corpus.N, o.corpus.Seed, o.work)
	res, _, err := o.launch.run(ctx, childSpec{Kind: kindGen, Corpus: &o.corpus, Work: o.work})
	if err != nil {
		return nil, fmt.Errorf("generating the corpus: %w", err)
	}
	cf := *res.Corpus
	rep.Corpus = corpusInfo{corpusSpec: o.corpus, corpusFiles: cf}
	how := fmt.Sprintf("generated in %.1fs", cf.GenSeconds)
	if cf.Cached {
		how = "cached"
	}
	fmt.Fprintf(o.log, "ndbench: %s: %d documents, %.1f MB, %s\n", cf.Docs, cf.Gen.Documents, float64(cf.Bytes)/1e6, how)

	fmt.Fprintf(o.log, "ndbench: baseline (read and decode)\n")
	if rep.Baseline, err = measure(ctx, o, childSpec{Kind: kindRead, Inputs: []string{cf.Docs}}, cf.Bytes); err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	for _, m := range o.methods {
		mr := runMethod(ctx, o, m, cf, rep.Baseline)
		if mr.Error != "" {
			fmt.Fprintf(o.log, "ndbench: %s failed: %s\n", m, mr.Error)
		}
		rep.Methods = append(rep.Methods, mr)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	if o.peer {
		fmt.Fprintf(o.log, "ndbench: floor (read, decode and hash every word 5-gram)\n")
		floor, err := measure(ctx, o, childSpec{Kind: kindFloor, Inputs: []string{cf.Docs}, Workers: o.workers}, cf.Bytes)
		if err != nil {
			return nil, fmt.Errorf("floor: %w", err)
		}
		rep.Floor = &floor
		rep.Peer = runPeerRow(ctx, o, cf, rep.Baseline)
		if rep.Peer.Error != "" {
			fmt.Fprintf(o.log, "ndbench: %s failed: %s\n", peerName, rep.Peer.Error)
		}
	}
	if o.index && len(rep.Methods) > 0 && rep.Methods[0].Error == "" {
		rep.Index = runIndex(ctx, o, cf, rep.Methods[0])
	}
	rep.Machine.LoadEnd = loadAverage()
	if err := rep.writeText(o.out); err != nil {
		return rep, err
	}
	if o.jsonPath != "" {
		if err := writeFile(o.jsonPath, rep.writeJSON); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// measure runs spec in a child and turns its usage into a measurement of a
// corpus of size bytes.
func measure(ctx context.Context, o benchOptions, spec childSpec, size int64) (measurement, error) {
	load := loadAverage()
	res, u, err := o.launch.run(ctx, spec)
	m := measurement{Load: load, WallSeconds: u.Wall.Seconds(), CPUSeconds: u.CPU.Seconds(),
		PeakRSSMiB: mib(u.PeakRSS), SelfPeakRSSMiB: mib(res.SelfPeakRSS),
		Records: res.Records, Documents: res.Documents, Skipped: res.Skipped}
	if err != nil {
		return m, err
	}
	if m.WallSeconds > 0 {
		m.DocsPerSecond = float64(res.Records) / m.WallSeconds
		m.MBPerSecond = float64(size) / 1e6 / m.WallSeconds
	}
	m.Stats, m.Shingles = res.Stats, res.Shingles
	return m, nil
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

// runMethod runs one method's job and then scores its output; a failure is
// recorded in the result, not returned, so the other methods still run.
func runMethod(ctx context.Context, o benchOptions, method string, cf corpusFiles, base measurement) methodResult {
	mr := methodResult{Method: method, Out: filepath.Join(o.work, "out-"+filepath.Base(cf.Dir), method)}
	c, err := optionsFor(method, o.settings)
	if err != nil {
		mr.Error = err.Error()
		return mr
	}
	opts, err := encodeOptions(c)
	if err != nil {
		mr.Error = err.Error()
		return mr
	}
	spec := childSpec{Kind: kindJob, Inputs: []string{cf.Docs}, Out: mr.Out, Method: opts, Workers: o.workers}
	if o.cpuProfile {
		// Beside the output directory, not in it: dedup refuses to
		// replace a directory holding files it did not write.
		if err := os.MkdirAll(filepath.Dir(mr.Out), 0o755); err != nil {
			mr.Error = err.Error()
			return mr
		}
		spec.CPUProfile = mr.Out + ".cpu.pprof"
	}
	fmt.Fprintf(o.log, "ndbench: %s → %s\n", method, mr.Out)
	if mr.measurement, err = measure(ctx, o, spec, cf.Bytes); err != nil {
		mr.Error = err.Error()
		return mr
	}
	if base.WallSeconds > 0 && base.CPUSeconds > 0 {
		mr.WallRatio, mr.CPURatio = mr.WallSeconds/base.WallSeconds, mr.CPUSeconds/base.CPUSeconds
	}
	if !o.keepOutputs {
		os.Remove(filepath.Join(mr.Out, output.KeptFile))
	}
	res, _, err := o.launch.run(ctx, childSpec{Kind: kindEval, Truth: cf.Truth, Out: mr.Out, Method: opts})
	if err != nil {
		mr.Error = fmt.Sprintf("scoring: %v", err)
		return mr
	}
	mr.Eval = res.Eval
	return mr
}

// score evaluates a job's pairs (pair scores) and clusters (cluster
// scores) together as one prediction; only duplicate pairs count.
func score(t *eval.Truth, method, dir string) (eval.Result, error) {
	p := &eval.Prediction{Name: method}
	for _, name := range []string{output.PairsFile, output.ClustersFile} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			return eval.Result{}, err
		}
		q, err := eval.ReadPrediction(f, name, eval.PredictionOptions{})
		f.Close()
		if err != nil {
			return eval.Result{}, err
		}
		p.Pairs, p.Clusters = append(p.Pairs, q.Pairs...), append(p.Clusters, q.Clusters...)
		p.Skipped += q.Skipped
	}
	return eval.Evaluate(t, p), nil
}

// runPeerRow runs the peer on the corpus and scores it as a method.
func runPeerRow(ctx context.Context, o benchOptions, cf corpusFiles, base measurement) *methodResult {
	mr := &methodResult{Method: peerName, Out: filepath.Join(o.work, "out-"+filepath.Base(cf.Dir), "peer")}
	fmt.Fprintf(o.log, "ndbench: %s → %s\n", peerName, mr.Out)
	var err error
	spec := childSpec{Kind: kindPeer, Inputs: []string{cf.Docs}, Out: mr.Out, Workers: o.workers}
	if mr.measurement, err = measure(ctx, o, spec, cf.Bytes); err != nil {
		mr.Error = err.Error()
		return mr
	}
	if base.WallSeconds > 0 && base.CPUSeconds > 0 {
		mr.WallRatio, mr.CPURatio = mr.WallSeconds/base.WallSeconds, mr.CPUSeconds/base.CPUSeconds
	}
	res, _, err := o.launch.run(ctx, childSpec{Kind: kindEval, Truth: cf.Truth, Out: mr.Out, Method: methodOptions{Method: peerName}})
	if err != nil {
		mr.Error = fmt.Sprintf("scoring: %v", err)
		return mr
	}
	mr.Eval = res.Eval
	return mr
}
