package corpus

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// benchWords is a vocabulary for generated articles, with some escapes and
// non-ASCII words as real news has.
var benchWords = strings.Fields(`the a of to in and said on for that with by was is at from
	government minister police year percent market company people told reporters officials
	Reuters "quoted" économie Zürich Kraków Москва новости inflation election court shares
	rose fell billion million week Monday Tuesday report president city state national`)

// writeBenchJSONL writes about size bytes of JSONL news articles of 1–3 KB
// to a file in dir and returns its path and record count.
func writeBenchJSONL(b *testing.B, dir string, size int) (string, int) {
	b.Helper()
	p := filepath.Join(dir, "bench.jsonl")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	rng := rand.New(rand.NewPCG(1, 2))
	words := func(n int) string {
		var sb strings.Builder
		for i := range n {
			if i > 0 {
				sb.WriteByte(' ')
				if rng.IntN(40) == 0 {
					sb.WriteString(".\n")
				}
			}
			sb.WriteString(benchWords[rng.IntN(len(benchWords))])
		}
		return sb.String()
	}
	type article struct {
		ID     string `json:"id"`
		Title  string `json:"title"`
		Text   string `json:"text"`
		URL    string `json:"url"`
		Source string `json:"source"`
		Date   string `json:"date"`
	}
	n, written := 0, 0
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for written < size {
		a := article{ID: fmt.Sprintf("doc-%d", n), Title: words(8), Text: words(150 + rng.IntN(300)),
			URL: fmt.Sprintf("https://news.example/%d", n), Source: "example", Date: "2024-03-05T10:20:30Z"}
		before := w.Buffered()
		if err := enc.Encode(a); err != nil {
			b.Fatal(err)
		}
		written += w.Buffered() - before
		if w.Available() < 64<<10 {
			w.Flush()
		}
		n++
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return p, n
}

const benchSize = 20 << 20

// benchRead runs read over a fresh Reader of a generated 20 MB JSONL file
// per iteration and reports MB/s and documents/s.
func benchRead(b *testing.B, read func(b *testing.B, r *Reader) int) {
	p, n := writeBenchJSONL(b, b.TempDir(), benchSize)
	info, _ := os.Stat(p)
	b.SetBytes(info.Size())
	b.ReportAllocs()
	for b.Loop() {
		r, err := Open([]string{p}, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if got := read(b, r); got != n {
			b.Fatalf("%d records, want %d", got, n)
		}
		r.Close()
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkNextRaw measures cutting records alone: the work of the one
// reading goroutine.
func BenchmarkNextRaw(b *testing.B) {
	benchRead(b, func(b *testing.B, r *Reader) int {
		n := 0
		for {
			_, err := r.NextRaw()
			if err == io.EOF {
				return n
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
	})
}

// BenchmarkNextRawDecode measures reading and decoding on one goroutine.
func BenchmarkNextRawDecode(b *testing.B) {
	benchRead(b, func(b *testing.B, r *Reader) int {
		n := 0
		for {
			raw, err := r.NextRaw()
			if err == io.EOF {
				return n
			}
			if err != nil {
				b.Fatal(err)
			}
			if rec := r.Decode(raw); rec.Skip != "" {
				b.Fatal(rec.Err)
			}
			n++
		}
	})
}

// BenchmarkNextRawDecodeWorkers measures reading on one goroutine with
// decoding on two workers, the shape of the pipeline.
func BenchmarkNextRawDecodeWorkers(b *testing.B) {
	benchRead(b, func(b *testing.B, r *Reader) int {
		batches := make(chan []Raw, 8)
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() {
				for batch := range batches {
					for _, raw := range batch {
						if rec := r.Decode(raw); rec.Skip != "" {
							panic(rec.Err)
						}
					}
				}
			})
		}
		n := 0
		batch := make([]Raw, 0, 256)
		for {
			raw, err := r.NextRaw()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
			if batch = append(batch, raw); len(batch) == cap(batch) {
				batches <- batch
				batch = make([]Raw, 0, 256)
			}
		}
		batches <- batch
		close(batches)
		wg.Wait()
		return n
	})
}

// BenchmarkDecode measures Decode alone over records cut beforehand.
func BenchmarkDecode(b *testing.B) {
	raws, r, size := benchRaws(b)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, raw := range raws {
			if rec := r.Decode(raw); rec.Skip != "" {
				b.Fatal(rec.Err)
			}
		}
	}
	b.ReportMetric(float64(len(raws)*b.N)/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkUnmarshalStruct is the yardstick Decode is compared with:
// encoding/json into a struct of string fields, with no validation.
func BenchmarkUnmarshalStruct(b *testing.B) {
	raws, _, size := benchRaws(b)
	b.SetBytes(size)
	b.ReportAllocs()
	var a struct{ ID, Title, Text, URL, Source, Date string }
	for b.Loop() {
		for _, raw := range raws {
			if err := json.Unmarshal(raw.data, &a); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(raws)*b.N)/b.Elapsed().Seconds(), "docs/s")
}

func benchRaws(b *testing.B) ([]Raw, *Reader, int64) {
	p, _ := writeBenchJSONL(b, b.TempDir(), benchSize)
	info, _ := os.Stat(p)
	r, err := Open([]string{p}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { r.Close() })
	var raws []Raw
	for {
		raw, err := r.NextRaw()
		if err == io.EOF {
			return raws, r, info.Size()
		}
		if err != nil {
			b.Fatal(err)
		}
		raws = append(raws, raw)
	}
}

// BenchmarkSmallFiles measures reading a directory of 2,000 text files of
// about a kilobyte each, as they are and gzipped: one walk, and one read
// buffer (two for a gzipped file), a file.
func BenchmarkSmallFiles(b *testing.B) {
	for _, gzipped := range []bool{false, true} {
		name := "txt"
		if gzipped {
			name = "txt.gz"
		}
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			total := 0
			for i := range 2000 {
				text := fmt.Sprintf("Story %d\n%s", i, strings.Repeat(fmt.Sprintf("Sentence %d of a short story. ", i), 30))
				total += len(text)
				data := []byte(text)
				if gzipped {
					var z bytes.Buffer
					zw := gzip.NewWriter(&z)
					zw.Write(data)
					zw.Close()
					data = z.Bytes()
				}
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%04d.%s", i, name)), data, 0o644); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(total))
			b.ReportAllocs()
			readEach(b, []string{dir}, 2000, true)
			b.ReportMetric(float64(2000*b.N)/b.Elapsed().Seconds(), "docs/s")
		})
	}
}

// BenchmarkJSONArray measures cutting the records of a pretty-printed JSON
// array (the 20 MB of benchRead as one file), each object compacted onto
// one line: the work of the one reading goroutine.
func BenchmarkJSONArray(b *testing.B) {
	dir := b.TempDir()
	p, n := writeBenchJSONL(b, dir, benchSize)
	lines, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	var objs []json.RawMessage
	for _, l := range bytes.Split(bytes.TrimSpace(lines), []byte("\n")) {
		objs = append(objs, l)
	}
	array, err := json.MarshalIndent(objs, "", "  ")
	if err != nil {
		b.Fatal(err)
	}
	a := filepath.Join(dir, "articles.json")
	if err := os.WriteFile(a, array, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(array)))
	readEach(b, []string{a}, n, false)
}

// readEach reads inputs through a fresh Reader per iteration, every
// record cut (and decoded when decode), and fails unless there are want.
func readEach(b *testing.B, inputs []string, want int, decode bool) {
	for b.Loop() {
		r, err := Open(inputs, Options{})
		if err != nil {
			b.Fatal(err)
		}
		got := 0
		for {
			raw, err := r.NextRaw()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if decode {
				r.Decode(raw)
			}
			got++
		}
		if got != want {
			b.Fatalf("%d records, want %d", got, want)
		}
		r.Close()
	}
}

// BenchmarkCSVNextRawDecode measures reading and decoding a generated 20 MB
// CSV file on one goroutine, its texts holding quotes, commas and line
// breaks inside quoted fields.
func BenchmarkCSVNextRawDecode(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "bench.csv")
	rng := rand.New(rand.NewPCG(3, 3))
	vocab := []string{"the", "council", `"said"`, "harbour,", "vote", "ferry", "budget", "terminal", "year", "market"}
	var sb strings.Builder
	sb.WriteString("id,title,text\n")
	n := 0
	for sb.Len() < benchSize {
		w := make([]string, 150+rng.IntN(300))
		for i := range w {
			w[i] = vocab[rng.IntN(len(vocab))]
			if i%40 == 39 {
				w[i] += "\n"
			}
		}
		fmt.Fprintf(&sb, "doc-%d,Title %d,\"%s\"\n", n, n, strings.ReplaceAll(strings.Join(w, " "), `"`, `""`))
		n++
	}
	if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(sb.Len()))
	readEach(b, []string{p}, n, true)
}

// BenchmarkParquetRowOverLimit measures what reading a Parquet row over
// Options.MaxBytes costs before it is skipped as too large: the three
// rows of a file whose second holds a text of 16 MiB are read, the file
// written with package parquet-go's defaults (each page's statistics and
// its column chunk's, in the footer, keep the longest value whole) and
// without statistics, zstd-compressed. alloc-B/row-B is the bytes
// allocated for each byte of the row skipped.
func BenchmarkParquetRowOverLimit(b *testing.B) {
	type row struct {
		ID   string `parquet:"id"`
		Text string `parquet:"text"`
	}
	const size = 16 << 20
	var big strings.Builder
	for i := 0; big.Len() < size; i++ {
		fmt.Fprintf(&big, "The minister announced a new plan for the railways of the north, costing %d billions. ", i)
	}
	rows := []row{{ID: "a", Text: "A short text."}, {ID: "big", Text: big.String()}, {ID: "b", Text: "Another short text."}}
	for _, tc := range []struct {
		name string
		opts []parquet.WriterOption
	}{
		{name: "statistics", opts: nil},
		{name: "no statistics, zstd", opts: []parquet.WriterOption{parquet.SkipPageBounds("text"),
			parquet.SkipPageStatistics("text"), parquet.Compression(&zstd.Codec{})}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var buf bytes.Buffer
			w := parquet.NewGenericWriter[row](&buf, tc.opts...)
			if _, err := w.Write(rows); err != nil {
				b.Fatal(err)
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
			p := filepath.Join(b.TempDir(), "big.parquet")
			if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				r, err := Open([]string{p}, Options{})
				if err != nil {
					b.Fatal(err)
				}
				var kinds []rawKind
				for {
					raw, err := r.NextRaw()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					kinds = append(kinds, raw.kind)
				}
				r.Close()
				if len(kinds) != 3 || kinds[1] != rawTooLarge {
					b.Fatalf("rows read as %v, want the second too large", kinds)
				}
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(len(rows[1].Text)), "alloc-B/row-B")
			b.ReportMetric(float64(buf.Len())/float64(len(rows[1].Text)), "file-B/row-B")
		})
	}
}
