package extract

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkPagesInDir extracts every page of the folder NEARDUP_PAGES
// (HTML files, gzip-compressed or not: WCXB's html/ folder) once per
// iteration; with -cpuprofile it shows where extraction spends its time on
// real pages. It is skipped without the variable: the tests need no data.
//
//	NEARDUP_PAGES=/tmp/data/wcxb/dev/html go test -run '^$' -bench PagesInDir -benchtime 2x -cpuprofile cpu.prof ./internal/extract/
func BenchmarkPagesInDir(b *testing.B) {
	dir := os.Getenv("NEARDUP_PAGES")
	if dir == "" {
		b.Skip("NEARDUP_PAGES names no folder of pages")
	}
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(files) == 0 {
		b.Fatalf("%s: no pages (%v)", dir, err)
	}
	var pages [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		if filepath.Ext(f) == ".gz" {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				b.Fatalf("%s: %v", f, err)
			}
			if data, err = io.ReadAll(zr); err != nil {
				b.Fatalf("%s: %v", f, err)
			}
		}
		pages = append(pages, data)
	}
	b.ResetTimer()
	for b.Loop() {
		for _, p := range pages {
			if _, _, err := Page(context.Background(), Input{URL: "https://example.com/page", Body: p}, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*len(pages)), "ms/page")
}
