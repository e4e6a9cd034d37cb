package job

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/internal/output"
)

// writeManyCopies writes n originals and about as many edited, truncated
// or exact copies of them, in a shuffled order, to dir/many.jsonl: enough
// documents and pairs that matching runs in many blocks.
func writeManyCopies(t *testing.T, dir string, n int) string {
	t.Helper()
	r := rand.New(rand.NewPCG(11, 3))
	vocab := make([]string, 20000) // made-up words, drawn Zipf-distributed
	for i := range vocab {
		b := make([]byte, 3+r.IntN(7))
		for j := range b {
			b[j] = byte('a' + r.IntN(26))
		}
		vocab[i] = string(b)
	}
	zipf := rand.NewZipf(r, 1.1, 2, uint64(len(vocab)-1))
	sentence := func() string {
		w := make([]string, 8+r.IntN(8))
		for i := range w {
			w[i] = vocab[zipf.Uint64()]
		}
		return strings.ToUpper(w[0][:1]) + strings.Join(w, " ")[1:] + "."
	}
	type doc struct{ id, title, text, source string }
	var docs []doc
	for i := range n {
		s := make([]string, 16+r.IntN(10))
		for j := range s {
			s[j] = sentence()
		}
		docs = append(docs, doc{fmt.Sprint("o", i), fmt.Sprint("Story ", i), strings.Join(s, " "), "wire"})
		for c := range r.IntN(3) {
			e := append([]string(nil), s...)
			switch r.IntN(3) {
			case 0:
				e[r.IntN(len(e))] = sentence()
			case 1:
				e = e[:max(1, len(e)*2/3)]
			}
			docs = append(docs, doc{fmt.Sprint("o", i, "-c", c), fmt.Sprint("Story ", i), strings.Join(e, " "), fmt.Sprint("paper", c)})
		}
	}
	r.Shuffle(len(docs), func(i, j int) { docs[i], docs[j] = docs[j], docs[i] })
	var b bytes.Buffer
	for _, d := range docs {
		rec, _ := json.Marshal(map[string]string{"id": d.id, "title": d.title, "text": d.text, "source": d.source})
		b.Write(append(rec, '\n'))
	}
	path := filepath.Join(dir, "many.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRunSameOutputAnyGOMAXPROCS pins that a run's outputs are the same
// bytes whatever the number of threads: parallel matching keeps the serial
// order of pairs, clusters and kept documents.
func TestRunSameOutputAnyGOMAXPROCS(t *testing.T) {
	dir := t.TempDir()
	n, procsList := 200, []int{1, 4}
	if os.Getenv("NEARDUP_LONG") != "" {
		n, procsList = 600, []int{1, 2, 5}
	}
	in := writeManyCopies(t, dir, n)
	for _, method := range methods.Names() {
		t.Run(method, func(t *testing.T) {
			spec, err := methods.Lookup(method)
			if err != nil {
				t.Fatal(err)
			}
			var first map[string][]byte
			for _, procs := range procsList {
				out := filepath.Join(dir, fmt.Sprint(method, procs))
				prev := runtime.GOMAXPROCS(procs)
				_, err := Run(t.Context(), Options{Inputs: []string{in}, Out: out, Method: spec.Defaults()})
				runtime.GOMAXPROCS(prev)
				if err != nil {
					t.Fatal(err)
				}
				got := map[string][]byte{}
				for _, name := range []string{output.PairsFile, output.ClustersFile, output.KeptFile, output.StatsFile} {
					data, err := os.ReadFile(filepath.Join(out, name))
					if err != nil {
						t.Fatal(err)
					}
					if name == output.StatsFile {
						data = stableStats(t, data)
					}
					got[name] = data
				}
				if procs == 1 {
					first = got
					if bytes.Count(got[output.PairsFile], []byte("\n")) < 100 {
						t.Fatalf("only %d pairs: the corpus does not exercise matching", bytes.Count(got[output.PairsFile], []byte("\n")))
					}
					continue
				}
				for name, want := range first {
					if !bytes.Equal(want, got[name]) {
						t.Errorf("GOMAXPROCS %d: %s differs from GOMAXPROCS 1", procs, name)
					}
				}
			}
		})
	}
}

// TestOrderedRecyclesChunks: over many chunks, which the consumer gives
// back for reuse, every result reaches consume once, in input order, and
// work always fills a zero result.
func TestOrderedRecyclesChunks(t *testing.T) {
	type result struct {
		i      int
		origin string
	}
	const n = 20*chunkSize + 7
	read := 0
	next := func() (corpus.Raw, error) {
		if read == n {
			return corpus.Raw{}, io.EOF
		}
		read++
		return corpus.Raw{Origin: fmt.Sprint("r", read-1)}, nil
	}
	var dirty atomic.Int32
	work := func(_, i int, raw corpus.Raw, out *result) {
		if *out != (result{}) {
			dirty.Add(1)
		}
		*out = result{i, raw.Origin}
	}
	want := 0
	err := ordered(context.Background(), unbuffered(next), 3, work, func(r *result) error {
		if r.i != want || r.origin != fmt.Sprint("r", want) {
			return fmt.Errorf("result %+v, want record %d", *r, want)
		}
		want++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want != n {
		t.Errorf("%d results consumed, want %d", want, n)
	}
	if d := dirty.Load(); d > 0 {
		t.Errorf("work was given %d results not zeroed", d)
	}
}

// TestOrderedStopsAtConsumeError: an error of consume ends the run with
// it, and no result after it is consumed.
func TestOrderedStopsAtConsumeError(t *testing.T) {
	read := 0
	next := func() (corpus.Raw, error) {
		read++
		return corpus.Raw{}, nil // endless
	}
	stop := errors.New("stop")
	consumed := 0
	err := ordered(context.Background(), unbuffered(next), 2, func(_, i int, _ corpus.Raw, out *int) { *out = i }, func(i *int) error {
		consumed++
		if *i == 3*chunkSize {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || consumed != 3*chunkSize+1 {
		t.Errorf("ordered = %v after %d results, want %v after %d", err, consumed, stop, 3*chunkSize+1)
	}
}

// TestOrderedLinesInChunkBuffers: JSONL lines read into the chunks'
// buffers, which later chunks reuse, reach the workers and the consumer
// intact, long and short, and decode to their own documents.
func TestOrderedLinesInChunkBuffers(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	var b bytes.Buffer
	var lines []string
	for i := range 12 * chunkSize {
		text := strings.Repeat("word ", 1+rng.IntN(60))
		if i%500 == 7 {
			text = strings.Repeat("long ", 50000) // larger than any buffer so far
		}
		line, _ := json.Marshal(map[string]string{"id": fmt.Sprint("d", i), "text": text})
		lines = append(lines, string(line))
		b.Write(append(line, '\n'))
	}
	path := filepath.Join(t.TempDir(), "lines.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := corpus.Open([]string{path}, corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	type result struct {
		id   string
		line string // as the worker saw it
	}
	work := func(_, _ int, raw corpus.Raw, out *result) {
		rec := r.Decode(raw)
		*out = result{rec.Doc.ID, string(raw.JSONLine())}
	}
	n := 0
	err = ordered(context.Background(), r.NextRawIn, 2, work, func(res *result) error {
		if want := fmt.Sprint("d", n); res.id != want || res.line != lines[n] {
			return fmt.Errorf("record %d: id %q, line of %d bytes; want %q, %d bytes", n, res.id, len(res.line), want, len(lines[n]))
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != len(lines) {
		t.Errorf("%d records, want %d", n, len(lines))
	}
}

// BenchmarkOrderedLines reads JSONL lines through ordered into the chunks'
// buffers and gives each worker's result to the consumer, with no decoding:
// the allocations a record costs the plumbing of the first reading.
func BenchmarkOrderedLines(b *testing.B) {
	var buf bytes.Buffer
	for i := range 20000 {
		fmt.Fprintf(&buf, "{\"id\":\"d%d\",\"text\":%q}\n", i, strings.Repeat("some words of text ", 60))
	}
	path := filepath.Join(b.TempDir(), "lines.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r, err := corpus.Open([]string{path}, corpus.Options{})
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		err = ordered(context.Background(), r.NextRawIn, 2, func(_, _ int, raw corpus.Raw, out *int) { *out = len(raw.JSONLine()) },
			func(*int) error { n++; return nil })
		r.Close()
		if err != nil || n != 20000 {
			b.Fatalf("%d records, %v", n, err)
		}
	}
}

// TestOrderedLiveHandsOnWhenNotPending: orderedLive hands on the records
// read once pending says the next one is not at hand, however few: the
// next record here comes only after the first is consumed, as a stream's
// writer that sends one record and waits for its answer. Regression: a
// chunk was handed on only with chunkSize records, or at the end, and the
// run waited for ever.
func TestOrderedLiveHandsOnWhenNotPending(t *testing.T) {
	consumed := make(chan struct{})
	read := 0
	next := func() (corpus.Raw, error) {
		switch read++; read {
		case 1:
			return corpus.Raw{Origin: "r0"}, nil
		case 2:
			<-consumed // the stream waits for an answer to its first record
			return corpus.Raw{Origin: "r1"}, nil
		}
		return corpus.Raw{}, io.EOF
	}
	pending := func() bool { return read != 1 } // after the first, nothing has arrived
	var got []string
	done := make(chan error, 1)
	go func() {
		done <- orderedLive(context.Background(), unbuffered(next), pending, nil, 2,
			func(_, _ int, raw corpus.Raw, out *string) { *out = raw.Origin },
			func(o *string) error {
				if got = append(got, *o); len(got) == 1 {
					close(consumed)
				}
				return nil
			})
	}()
	select {
	case err := <-done:
		if err != nil || strings.Join(got, " ") != "r0 r1" {
			t.Errorf("orderedLive = %v, consumed %q; want nil, [r0 r1]", err, got)
		}
	case <-time.After(time.Minute):
		t.Fatal("the first record was not consumed in a minute while the stream waited")
	}
}

// TestOrderedLivePausedAfterFullChunk: paused is called before the last
// record read ahead of a wait is consumed, also when that record fills a
// chunk (chunkSize records arrived, then the stream waited): the consumer
// hands them on. Regression (reviewer's stream of 256 records): a full
// chunk was never asked whether the stream waited after it, and its
// records were stored only when more came.
func TestOrderedLivePausedAfterFullChunk(t *testing.T) {
	for _, n := range []int{1, chunkSize - 1, chunkSize, chunkSize + 1} {
		read := 0
		next := func() (corpus.Raw, error) {
			if read++; read > n {
				return corpus.Raw{}, io.EOF
			}
			return corpus.Raw{Origin: fmt.Sprint(read)}, nil
		}
		pending := func() bool { return read < n } // after the n-th, nothing has arrived for now
		var pausedAt []int
		consumed := 0
		err := orderedLive(context.Background(), unbuffered(next), pending, func() { pausedAt = append(pausedAt, consumed+1) }, 2,
			func(_, _ int, raw corpus.Raw, out *string) { *out = raw.Origin },
			func(*string) error { consumed++; return nil })
		if err != nil || consumed != n || len(pausedAt) != 1 || pausedAt[0] != n {
			t.Errorf("%d records, then a wait: %v, %d consumed, paused before record %v; want paused before record %d", n, err, consumed, pausedAt, n)
		}
	}
}
