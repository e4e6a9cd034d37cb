package main

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"text/tabwriter"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // to make and drop the benchmark's schema

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/job"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/internal/store"
)

// The child runs of the index benchmark.
const (
	kindIndexAdd   = "index-add"   // add the corpus but its last Probe documents to a new index
	kindIndexProbe = "index-probe" // open that index, add the last Probe documents one at a time
)

// indexResult is one store engine's index benchmark.
type indexResult struct {
	Store string `json:"store"` // "sqlite" or "postgres"
	// Add is the bulk add of all documents but the probes.
	Add measurement `json:"bulk_add"`
	// AddRatio is Add's wall time over the batch run's of the same method
	// on the whole corpus, measured in the same run.
	AddRatio float64 `json:"bulk_add_wall_ratio_to_dedup"`
	// BytesPerDoc is the index's size on disk per document stored (SQLite).
	BytesPerDoc float64     `json:"bytes_per_document,omitempty"`
	Probe       probeResult `json:"probe"`
	Error       string      `json:"error,omitempty"`
}

// probeResult is what the probe child measured.
type probeResult struct {
	Stored      int     `json:"stored"`       // documents in the index when it opened
	OpenSeconds float64 `json:"open_seconds"` // opening it and loading its in-memory index
	Adds        latency `json:"add"`          // adding one document: check, store, commit
	Queries     latency `json:"query"`        // checking one document without storing it
	Removes     latency `json:"remove"`       // removing one document: its rows, marks, cluster
	PeakRSSMiB  float64 `json:"peak_rss_mib"`
}

// latency summarises the times of single operations, in milliseconds.
type latency struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50_ms"`
	P90 float64 `json:"p90_ms"`
	P99 float64 `json:"p99_ms"`
	Max float64 `json:"max_ms"`
}

func summarise(ds []time.Duration) latency {
	if len(ds) == 0 {
		return latency{}
	}
	slices.Sort(ds)
	at := func(q float64) float64 {
		return float64(ds[min(len(ds)-1, int(q*float64(len(ds))))].Microseconds()) / 1000
	}
	return latency{N: len(ds), P50: at(0.5), P90: at(0.9), P99: at(0.99), Max: at(1)}
}

// runIndex benchmarks the persistent index of a method on each store
// engine asked for.
func runIndex(ctx context.Context, o benchOptions, cf corpusFiles, batch methodResult) []indexResult {
	var out []indexResult
	stores := []string{"sqlite"}
	if o.postgres != "" {
		stores = append(stores, "postgres")
	}
	for _, s := range stores {
		r := indexResult{Store: s}
		if err := runIndexOn(ctx, o, cf, batch, &r); err != nil {
			r.Error = err.Error()
			fmt.Fprintf(o.log, "ndbench: index on %s failed: %v\n", s, err)
		}
		out = append(out, r)
	}
	return out
}

func runIndexOn(ctx context.Context, o benchOptions, cf corpusFiles, batch methodResult, r *indexResult) error {
	c, err := optionsFor(o.methods[0], o.settings)
	if err != nil {
		return err
	}
	opts, err := encodeOptions(c)
	if err != nil {
		return err
	}
	dsn := filepath.Join(o.work, "index-"+filepath.Base(cf.Dir)+".db")
	if r.Store == "postgres" {
		var drop func()
		if dsn, drop, err = freshSchema(ctx, o.postgres); err != nil {
			return err
		}
		defer drop()
	} else {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(dsn + suffix)
		}
	}
	n := cf.Gen.Documents - o.probe
	fmt.Fprintf(o.log, "ndbench: index on %s: adding %d documents\n", r.Store, n)
	spec := childSpec{Kind: kindIndexAdd, Inputs: []string{cf.Docs}, DB: dsn, Method: opts, Limit: n, Workers: o.workers}
	if r.Add, err = measure(ctx, o, spec, cf.Bytes); err != nil {
		return err
	}
	if batch.WallSeconds > 0 {
		r.AddRatio = r.Add.WallSeconds / batch.WallSeconds
	}
	if r.Store == "sqlite" {
		if fi, err := os.Stat(dsn); err == nil && r.Add.Documents > 0 {
			r.BytesPerDoc = float64(fi.Size()) / float64(r.Add.Documents)
		}
	}
	fmt.Fprintf(o.log, "ndbench: index on %s: opening it and adding %d documents one at a time\n", r.Store, o.probe)
	res, u, err := o.launch.run(ctx, childSpec{Kind: kindIndexProbe, Inputs: []string{cf.Docs}, DB: dsn, Skip: n, Limit: o.probe})
	if err != nil {
		return err
	}
	r.Probe = *res.Probe
	r.Probe.PeakRSSMiB = mib(max(u.PeakRSS, res.SelfPeakRSS))
	return nil
}

// freshSchema makes a schema of its own for the run in the database at
// base and returns the URL that selects it and a function that drops it.
func freshSchema(ctx context.Context, base string) (string, func(), error) {
	db, err := sql.Open("pgx", base)
	if err != nil {
		return "", nil, err
	}
	schema := fmt.Sprintf("ndbench_%d", time.Now().UnixNano())
	if _, err := db.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		db.Close()
		return "", nil, fmt.Errorf("PostgreSQL: %w", err)
	}
	u, err := url.Parse(base)
	if err != nil {
		db.Close()
		return "", nil, err
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), func() {
		db.Exec("DROP SCHEMA " + schema + " CASCADE")
		db.Close()
	}, nil
}

// indexAdd is the bulk add child: `neardup index add` of the first Limit
// documents into a new index.
func indexAdd(ctx context.Context, spec childSpec) (childResult, error) {
	c, err := spec.Method.decode()
	if err != nil {
		return childResult{}, err
	}
	x, err := neardup.Open(ctx, spec.DB, neardup.Options{Method: c})
	if err != nil {
		return childResult{}, err
	}
	defer x.Close()
	r, err := job.OpenFeed(spec.Inputs, corpus.Options{})
	if err != nil {
		return childResult{}, err
	}
	defer r.Close()
	o := job.FeedOptions{Limit: spec.Limit, Workers: spec.Workers}
	o.Add = func(ctx context.Context, docs iter.Seq2[core.Document, error], onMatch func(*neardup.Match) error, waiting func() bool) error {
		return x.AddSeq(ctx, docs, neardup.AddOptions{Workers: spec.Workers, Waiting: waiting, OnMatch: func(m neardup.Match) error { return onMatch(&m) }})
	}
	if spec.Progress {
		o.Progress, o.Warn = os.Stderr, os.Stderr
	}
	st, err := job.Feed(ctx, r, o)
	if err != nil {
		return childResult{}, err
	}
	skipped := 0
	for _, n := range st.Skipped {
		skipped += n
	}
	return childResult{Records: st.Read, Documents: st.Added, Skipped: skipped}, x.Close()
}

// indexProbe is the latency child: it opens the index, then adds the
// documents after the first Skip, one a transaction, timing each, checks
// as many again (their copies under new ids) without storing them, and
// removes the documents it added, one at a time.
func indexProbe(ctx context.Context, spec childSpec) (childResult, error) {
	docs, err := readRange(spec.Inputs, spec.Skip, spec.Limit)
	if err != nil {
		return childResult{}, err
	}
	start := time.Now()
	x, err := index.Open(ctx, spec.DB, store.DefaultOptions(), methods.All, index.OpenOptions{})
	if err != nil {
		return childResult{}, err
	}
	defer x.Close()
	p := probeResult{OpenSeconds: time.Since(start).Seconds(), Stored: x.Len()}
	var adds, queries []time.Duration
	for i := range docs {
		t := time.Now()
		if _, err := x.Add(ctx, docs[i:i+1], index.AddOptions{}); err != nil {
			return childResult{}, err
		}
		adds = append(adds, time.Since(t))
	}
	for i := range docs {
		d := docs[i]
		d.ID += "/query"
		t := time.Now()
		if _, err := x.Query(ctx, []core.Document{d}); err != nil {
			return childResult{}, err
		}
		queries = append(queries, time.Since(t))
	}
	var removes []time.Duration
	for i := range docs {
		t := time.Now()
		if _, err := x.Remove(ctx, []string{docs[i].ID}); err != nil {
			return childResult{}, err
		}
		removes = append(removes, time.Since(t))
	}
	p.Adds, p.Queries, p.Removes = summarise(adds), summarise(queries), summarise(removes)
	return childResult{Records: len(docs), Documents: len(docs), Probe: &p}, x.Close()
}

// readRange reads the documents after the first skip records, at most n.
func readRange(inputs []string, skip, n int) ([]core.Document, error) {
	r, err := corpus.Open(inputs, corpus.Options{SinglePass: true})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var docs []core.Document
	for i := 0; len(docs) < n; i++ {
		if i < skip {
			if _, err := r.NextRaw(); err != nil {
				return nil, err
			}
			continue
		}
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if rec.Skip == core.SkipNone {
			docs = append(docs, rec.Doc)
		}
	}
	return docs, nil
}

// writeIndex writes the index table.
func (rep *benchReport) writeIndex(w io.Writer) {
	if len(rep.Index) == 0 {
		return
	}
	fmt.Fprintf(w, "\npersistent index (%s, the first %d documents added in bulk, then %d added, checked and removed one at a time)\n",
		rep.Methods[0].Method, rep.Index[0].Add.Documents, rep.Index[0].Probe.Adds.N)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "store\tbulk add s\tdocs/s\tCPU s\tpeak RSS MiB\twall/dedup\tbytes/doc\topen s\tadd p50 ms\tp99 ms\tquery p50 ms\tp99 ms\tremove p50 ms\tp99 ms\tprobe RSS MiB\t")
	for _, r := range rep.Index {
		if r.Error != "" {
			fmt.Fprintf(tw, "%s\tfailed: %s\t\t\t\t\t\t\t\t\t\t\t\t\t\t\n", r.Store, r.Error)
			continue
		}
		a, p := r.Add, r.Probe
		fmt.Fprintf(tw, "%s\t%.1f\t%.0f\t%.1f\t%.0f\t%.2f\t%s\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.0f\t\n", r.Store, a.WallSeconds,
			a.DocsPerSecond, a.CPUSeconds, a.PeakRSSMiB, r.AddRatio, cmp.Or(fmt.Sprintf("%.0f", r.BytesPerDoc), ""),
			p.OpenSeconds, p.Adds.P50, p.Adds.P99, p.Queries.P50, p.Queries.P99, p.Removes.P50, p.Removes.P99, p.PeakRSSMiB)
	}
	tw.Flush()
}
