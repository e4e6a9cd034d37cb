package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/server"
)

// largestQueries is the --largest-queries case: o.clients clients each
// send POST /v1/query with the largest body the server takes
// (server.DefaultMaxQueryBytes, one document), again and again for
// o.duration, first to a server with the default pool of heavy requests
// (GOMAXPROCS at once, 64 waiting), then to one whose pool lets every
// client run at once (the baseline: what the pool saves). For each it
// prints the peak of the memory the Go runtime holds from the OS, sampled
// every 10 ms, and what the clients were answered.
func largestQueries(ctx context.Context, o options, x *neardup.Index, sample []jsonDoc) error {
	body, err := largestBody(sample, server.DefaultMaxQueryBytes)
	if err != nil {
		return err
	}
	fmt.Printf("largest queries: %d clients, each POST /v1/query of %d bytes (the limit, one document), %s each run\n",
		o.clients, len(body), o.duration)
	var peaks []uint64
	for _, run := range []struct {
		name string
		so   server.Options
	}{
		{"default pool", server.Options{}},
		{"no pool (baseline)", server.Options{QueryWorkers: o.clients, QueryQueue: o.clients}},
	} {
		run.so.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
		run.so.ShutdownTimeout = 10 * time.Minute // the queries under way at the end finish, and count
		peak, answers, err := queryRun(ctx, o, x, run.so, body)
		if err != nil {
			return err
		}
		peaks = append(peaks, peak)
		fmt.Printf("  %-20s peak %5d MiB held from the OS; answers %v\n", run.name+":", peak>>20, answers)
	}
	fmt.Printf("  peak with the pool / without: %.2f\n", float64(peaks[0])/float64(peaks[1]))
	return nil
}

// largestBody is a query body of one document whose text is the sample's
// texts end to end, as long as fits in limit bytes.
func largestBody(sample []jsonDoc, limit int) ([]byte, error) {
	var text strings.Builder
	for i := 0; text.Len() < limit; i++ {
		if len(sample) == 0 {
			return nil, fmt.Errorf("no documents to make a query of")
		}
		text.WriteString(sample[i%len(sample)].Text)
		text.WriteString("\n\n")
	}
	t := text.String()
	for {
		b, err := json.Marshal(jsonDoc{ID: "largest", Text: t})
		if err != nil {
			return nil, err
		}
		if len(b) <= limit {
			return b, nil
		}
		t = strings.ToValidUTF8(t[:len(t)-(len(b)-limit)-8], "")
	}
}

// queryRun serves x with so and sends body from o.clients clients for
// o.duration; it returns the peak memory held, until the server has
// finished the queries under way, and the answers by status.
func queryRun(ctx context.Context, o options, x *neardup.Index, so server.Options, body []byte) (uint64, map[int]int, error) {
	s, err := server.New(x, so)
	if err != nil {
		return 0, nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, nil, err
	}
	sctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(sctx, ln) }()
	runtime.GC()
	debug.FreeOSMemory()

	var peak atomic.Uint64
	sampled := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(sampled)
		ms := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(ms)
			if held := ms[0].Value.Uint64() - ms[1].Value.Uint64(); held > peak.Load() {
				peak.Store(held)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	url := "http://" + ln.Addr().String() + "/v1/query"
	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: o.clients}, Timeout: 2 * time.Minute}
	var mu sync.Mutex
	answers := map[int]int{}
	lctx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	var wg sync.WaitGroup
	for range o.clients {
		wg.Go(func() {
			for lctx.Err() == nil {
				code := post(lctx, c, url, body)
				mu.Lock()
				answers[code]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	stop() // the server finishes the queries under way, sampled still
	err = <-served
	close(done)
	<-sampled
	return peak.Load(), answers, err
}

// post sends body and returns the status, 0 for a failure to send (the
// run's end cutting a request short included).
func post(ctx context.Context, c *http.Client, url string, body []byte) int {
	r, err := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(body))
	if err != nil {
		return 0
	}
	r.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(r)
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}
