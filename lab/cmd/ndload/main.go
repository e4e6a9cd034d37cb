// Command ndload measures `neardup serve` under load: it builds (or reuses)
// an index of N documents through the engine directly, serves it with the
// server package on a loopback port, and drives the HTTP API with C
// concurrent clients for a while, each adding new documents
// (POST /v1/documents) or checking stored ones (POST /v1/query) in the
// proportion given. It prints adds/s, queries/s and the latency
// percentiles of each. With --largest-queries every client instead sends
// the largest query the server takes, and the peak memory is printed, with
// the server's pool of heavy requests and without it.
//
//	cd lab && go run ./cmd/ndload --docs corpus.jsonl --db /tmp/load.db --build 100000 --clients 64 --duration 60s
//
// The documents are JSON Lines with id, title, text, url, source and date
// (what ndlab gen writes); the first N are stored, the rest are what the
// clients add. A second run on the same --db reuses what is stored (it
// builds only the missing part). Clients and server share the machine's
// cores, as a crawler on the same host would.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/server"
)

type options struct {
	docs, db         string
	build            int
	clients          int
	duration, warmup time.Duration
	adds             float64
	batch            int
	sync             string
	cpuprofile       string
	mutexprofile     string
	timeline         bool
	direct           bool
	largest          bool
}

func main() {
	var o options
	flag.StringVar(&o.docs, "docs", "", "JSON Lines documents: the first --build are stored, the rest added by the clients")
	flag.StringVar(&o.db, "db", "", "the index (SQLite file or PostgreSQL URL); reused when it holds documents")
	flag.IntVar(&o.build, "build", 100000, "documents stored before the load starts")
	flag.IntVar(&o.clients, "clients", 64, "concurrent clients")
	flag.DurationVar(&o.duration, "duration", 60*time.Second, "how long the load runs after the warm-up (0: only build the index)")
	flag.DurationVar(&o.warmup, "warmup", 5*time.Second, "load not counted, first")
	flag.Float64Var(&o.adds, "adds", 0.5, "share of requests that add (the rest check a stored document)")
	flag.IntVar(&o.batch, "batch", 1, "documents a request adds or checks")
	flag.StringVar(&o.sync, "sync", "full", "SQLite synchronous setting: full or normal")
	flag.BoolVar(&o.direct, "direct", false, "call the engine from the clients directly, one transaction a request, without HTTP or the server's batching: the baseline")
	flag.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the load (not the build) to this file")
	flag.StringVar(&o.mutexprofile, "mutexprofile", "", "write a profile of the load's lock contention to this file")
	flag.BoolVar(&o.timeline, "timeline", false, "also print each second's requests, p99 and slowest request")
	flag.BoolVar(&o.largest, "largest-queries", false, "instead of the mixed load: every client sends the largest query the server takes, with the server's pool of heavy requests and without it, and the peak memory of each is printed")
	flag.Parse()
	if o.docs == "" || o.db == "" || o.clients < 1 || o.adds < 0 || o.adds > 1 || o.batch < 1 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "ndload:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options) error {
	f, err := os.Open(o.docs)
	if err != nil {
		return err
	}
	defer f.Close()
	docs := newDocReader(f)
	x, err := neardup.Open(ctx, o.db, neardup.Options{StoreText: true, Sync: o.sync})
	if err != nil {
		return err
	}
	defer x.Close()
	sample, err := build(ctx, x, docs, o.build)
	if err != nil {
		return err
	}
	st, err := x.Stats(ctx)
	if err != nil {
		return err
	}
	fmt.Printf("index: %d documents stored (%s, method %s), %d marks\n", st.Documents, o.db, st.Method,
		st.Marks[core.Duplicate]+st.Marks[core.Similar])

	if o.duration <= 0 {
		return nil // --duration 0: only build
	}
	if o.largest {
		return largestQueries(ctx, o, x, sample)
	}
	token := "ndload-token-0123456789"
	s, err := server.New(x, server.Options{Tokens: server.NewTokens(token), MaxBatch: max(1000, o.batch),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	sctx, stopServer := context.WithCancel(context.Background())
	defer stopServer()
	served := make(chan error, 1)
	go func() { served <- s.Serve(sctx, ln) }()
	if o.cpuprofile != "" {
		pf, err := os.Create(o.cpuprofile)
		if err != nil {
			return err
		}
		defer pf.Close()
		if err := pprof.StartCPUProfile(pf); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if o.mutexprofile != "" {
		runtime.SetMutexProfileFraction(10)
		defer writeProfile("mutex", o.mutexprofile)
	}
	do := httpDo(o, "http://"+ln.Addr().String(), token)
	if o.direct {
		do = directDo(x)
	}
	res, err := load(ctx, o, do, docs, sample)
	stopServer()
	if serr := <-served; err == nil {
		err = serr
	}
	if err != nil {
		return err
	}
	res.print(o)
	return nil
}

// docReader reads documents one after another from JSON Lines.
type docReader struct {
	mu  sync.Mutex
	sc  *bufio.Scanner
	n   int
	err error
}

func newDocReader(r io.Reader) *docReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	return &docReader{sc: sc}
}

// jsonDoc is a line of the documents file, also what a client posts.
type jsonDoc struct {
	ID     string `json:"id"`
	Title  string `json:"title,omitempty"`
	Text   string `json:"text"`
	URL    string `json:"url,omitempty"`
	Source string `json:"source,omitempty"`
	Date   string `json:"date,omitempty"`
}

// next returns the next document; io.EOF at the end.
func (r *docReader) next() (jsonDoc, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var d jsonDoc
	if r.err != nil {
		return d, r.err
	}
	for r.sc.Scan() {
		r.n++
		line := r.sc.Bytes()
		if len(strings.TrimSpace(string(line))) == 0 {
			continue
		}
		if err := json.Unmarshal(line, &d); err != nil {
			r.err = fmt.Errorf("line %d: %w", r.n, err)
			return d, r.err
		}
		return d, nil
	}
	r.err = r.sc.Err()
	if r.err == nil {
		r.err = io.EOF
	}
	return d, r.err
}

func (d jsonDoc) document() core.Document {
	doc := core.Document{ID: d.ID, Title: d.Title, Text: d.Text, URL: d.URL, Source: d.Source}
	if t, err := time.Parse(time.RFC3339, d.Date); err == nil {
		doc.Date = t
	}
	return doc
}

// build stores documents until the index holds n (skipping as many of the
// file's as are stored already), 1,000 a transaction, and returns a sample
// of those it read to check during the load. The clients then add the
// documents that follow.
func build(ctx context.Context, x *neardup.Index, docs *docReader, n int) ([]jsonDoc, error) {
	stored, err := x.Stats(ctx)
	if err != nil {
		return nil, err
	}
	var sample []jsonDoc
	start, added := time.Now(), 0
	chunk := make([]core.Document, 0, 1000)
	flush := func() error {
		if len(chunk) == 0 {
			return nil
		}
		_, err := x.Add(ctx, chunk...)
		added += len(chunk)
		chunk = chunk[:0]
		if added%100000 == 0 {
			fmt.Fprintf(os.Stderr, "built %d documents, %.0f/s\n", stored.Documents+added, float64(added)/time.Since(start).Seconds())
		}
		return err
	}
	// A second run skips what the first stored, its load's adds included:
	// the file is read in the same order every time.
	n = max(n, stored.Documents)
	for i := range n {
		d, err := docs.next()
		if err != nil {
			return nil, fmt.Errorf("reading document %d: %w", i+1, err)
		}
		if i%max(n/10000, 1) == 0 {
			sample = append(sample, d)
		}
		if i < stored.Documents {
			continue
		}
		chunk = append(chunk, d.document())
		if len(chunk) == cap(chunk) {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if added > 0 {
		el := time.Since(start)
		fmt.Printf("built: %d documents added in %.1f s (%.0f/s)\n", added, el.Seconds(), float64(added)/el.Seconds())
	}
	return sample, nil
}

// result is what the load measured.
type result struct {
	elapsed        time.Duration
	cpu            time.Duration   // the process's CPU time (server and clients) while counting
	adds, queries  []time.Duration // latency of each counted request
	gcs            uint32          // garbage collections while counting
	gcPause        time.Duration   // their stop-the-world pauses, all told
	gcMaxPause     time.Duration   // the longest
	heap           uint64          // the heap in use at the end
	seconds        []second        // each counted second (--timeline)
	docsAdded      int
	errors, status map[string]int
}

func (r *result) print(o options) {
	how := "through the HTTP API"
	if o.direct {
		how = "calling the engine directly (baseline)"
	}
	fmt.Printf("load %s: %d clients, %.0f%% adds, %d document(s) a request, %s counted after %s warm-up\n",
		how, o.clients, 100*o.adds, o.batch, o.duration, o.warmup)
	secs := r.elapsed.Seconds()
	fmt.Printf("  adds:    %7.1f requests/s  %7.1f documents/s  p50 %6.1f ms  p99 %6.1f ms  max %6.1f ms  (%d)\n",
		float64(len(r.adds))/secs, float64(r.docsAdded)/secs, ms(pct(r.adds, 50)), ms(pct(r.adds, 99)), ms(pct(r.adds, 100)), len(r.adds))
	fmt.Printf("  queries: %7.1f requests/s                        p50 %6.1f ms  p99 %6.1f ms  max %6.1f ms  (%d)\n",
		float64(len(r.queries))/secs, ms(pct(r.queries, 50)), ms(pct(r.queries, 99)), ms(pct(r.queries, 100)), len(r.queries))
	all := append(append([]time.Duration(nil), r.adds...), r.queries...)
	fmt.Printf("  all:     %7.1f requests/s                        p50 %6.1f ms  p99 %6.1f ms\n",
		float64(len(all))/secs, ms(pct(all, 50)), ms(pct(all, 99)))
	if n := len(all); n > 0 {
		per := r.cpu / time.Duration(n)
		fmt.Printf("  CPU:     %.1f s of %.1f s wall, %.2f ms a request (server and clients): %.0f requests/s on 2 idle cores at most\n",
			r.cpu.Seconds(), secs, ms(per), 2/per.Seconds())
	}
	fmt.Printf("  GC:      %d collections, %.1f ms paused all told, longest %.2f ms; heap in use %d MiB\n",
		r.gcs, ms(r.gcPause), ms(r.gcMaxPause), r.heap>>20)
	if o.timeline {
		for i, s := range r.seconds {
			fmt.Printf("  second %3d: %5d requests  p99 %6.1f ms  max %6.1f ms\n", i+1, s.reqs, ms(pct(s.lat, 99)), ms(pct(s.lat, 100)))
		}
	}
	if len(r.errors) > 0 || len(r.status) > 0 {
		fmt.Printf("  failures: %v %v\n", r.errors, r.status)
	}
}

// second is what one second of the load measured.
type second struct {
	reqs int
	lat  []time.Duration
}

// writeProfile writes the runtime profile name to path.
func writeProfile(name, path string) {
	f, err := os.Create(path)
	if err == nil {
		err = pprof.Lookup(name).WriteTo(f, 0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ndload:", err)
	}
}

// cpuTime returns the process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

func pct(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(p / 100 * float64(len(s)-1))
	return s[i]
}

// doFunc sends one request of a client: an add or a query of docs. It
// returns the HTTP status (200 for a direct call that succeeded).
type doFunc func(ctx context.Context, client int, add bool, docs []jsonDoc) (int, error)

// httpDo posts requests to the server at url.
func httpDo(o options, url, token string) doFunc {
	tr := &http.Transport{MaxIdleConnsPerHost: o.clients, MaxConnsPerHost: o.clients}
	c := &http.Client{Transport: tr, Timeout: time.Minute}
	return func(ctx context.Context, _ int, add bool, docs []jsonDoc) (int, error) {
		path := "/v1/query"
		if add {
			path = "/v1/documents"
		}
		return send(ctx, c, url+path, token, docs)
	}
}

// directDo calls the index, each client sketching with a sketcher of its
// own, as the server's handlers do.
func directDo(x *neardup.Index) doFunc {
	var mu sync.Mutex
	sketchers := map[int]*neardup.Sketcher{}
	return func(ctx context.Context, client int, add bool, body []jsonDoc) (int, error) {
		mu.Lock()
		sk := sketchers[client]
		if sk == nil {
			sk = x.NewSketcher()
			sketchers[client] = sk
		}
		mu.Unlock()
		docs := make([]core.Document, len(body))
		sks := make([]neardup.Sketch, len(body))
		for i, d := range body {
			docs[i] = d.document()
			if docs[i].ID == "" {
				docs[i].ID = fmt.Sprint("#", i+1)
			}
			sks[i] = sk.Sketch(&docs[i])
		}
		var err error
		if add {
			_, err = x.AddSketched(context.WithoutCancel(ctx), docs, sks, neardup.AddOptions{})
		} else {
			_, err = x.AddSketched(context.WithoutCancel(ctx), docs, sks, neardup.AddOptions{Query: true})
		}
		if err != nil {
			return 0, err
		}
		return 200, nil
	}
}

// load runs the clients for the warm-up and the duration.
func load(ctx context.Context, o options, do doFunc, docs *docReader, sample []jsonDoc) (*result, error) {
	res := &result{errors: map[string]int{}, status: map[string]int{}}
	var mu sync.Mutex
	var counting atomic.Bool
	var exhausted atomic.Bool
	var start0 atomic.Value // when counting began
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for w := range o.clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for ctx.Err() == nil {
				add := rng.Float64() < o.adds
				var body []jsonDoc
				for range o.batch {
					if add {
						d, err := docs.next()
						if err != nil {
							exhausted.Store(true)
							cancel()
							return
						}
						body = append(body, d)
					} else {
						q := sample[rng.IntN(len(sample))]
						q.ID = ""
						body = append(body, q)
					}
				}
				path := "query"
				if add {
					path = "add"
				}
				start := time.Now()
				code, err := do(ctx, w, add, body)
				took := time.Since(start)
				if !counting.Load() {
					continue
				}
				mu.Lock()
				if o.timeline && err == nil && code == 200 {
					i := int(time.Since(start0.Load().(time.Time)) / time.Second)
					for len(res.seconds) <= i {
						res.seconds = append(res.seconds, second{})
					}
					res.seconds[i].reqs++
					res.seconds[i].lat = append(res.seconds[i].lat, took)
				}
				switch {
				case err != nil && ctx.Err() != nil:
				case err != nil:
					res.errors[err.Error()]++
				case code != 200:
					res.status[fmt.Sprintf("%s %d", path, code)]++
				case add:
					res.adds = append(res.adds, took)
					res.docsAdded += len(body)
				default:
					res.queries = append(res.queries, took)
				}
				mu.Unlock()
			}
		}()
	}
	select {
	case <-time.After(o.warmup):
	case <-ctx.Done():
	}
	var m0 runtime.MemStats
	runtime.ReadMemStats(&m0)
	start0.Store(time.Now())
	counting.Store(true)
	start, cpu0 := time.Now(), cpuTime()
	select {
	case <-time.After(o.duration):
	case <-ctx.Done():
	}
	res.elapsed, res.cpu = time.Since(start), cpuTime()-cpu0
	var m1 runtime.MemStats
	runtime.ReadMemStats(&m1)
	res.gcs, res.heap = m1.NumGC-m0.NumGC, m1.HeapInuse
	res.gcPause = time.Duration(m1.PauseTotalNs - m0.PauseTotalNs)
	for i := m0.NumGC; i < m1.NumGC && m1.NumGC-i <= 256; i++ {
		res.gcMaxPause = max(res.gcMaxPause, time.Duration(m1.PauseNs[i%256]))
	}
	cancel()
	wg.Wait()
	if exhausted.Load() {
		fmt.Fprintln(os.Stderr, "ndload: the documents file ran out; the load stopped early")
	}
	if errors.Is(ctx.Err(), context.Canceled) && res.elapsed < o.duration/2 && !exhausted.Load() {
		return nil, ctx.Err()
	}
	return res, nil
}

// send posts docs as a JSON array and returns the status.
func send(ctx context.Context, c *http.Client, url, token string, docs []jsonDoc) (int, error) {
	data, err := json.Marshal(docs)
	if err != nil {
		return 0, err
	}
	r, err := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(string(data)))
	if err != nil {
		return 0, err
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Authorization", "Bearer "+token)
	resp, err := c.Do(r)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, nil
}
