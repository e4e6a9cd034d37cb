package extract

import (
	"context"
	"fmt"
	"github.com/neardup/neardup/internal/heappeak"
	"strings"
	"testing"
	"time"
)

// bigPage returns a page of about size bytes: a menu, an article of
// paragraphs with a share bar every twenty, and a sidebar of links.
func bigPage(size int) string {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="en"><head><title>Council passes budget</title></head><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul></nav><article><h1>Council passes budget</h1>`)
	for i := 0; b.Len() < size-2000; i++ {
		fmt.Fprintf(&b, "<p>%s %s %s</p>\n", paragraph(i), paragraph(i+1), paragraph(i+2))
		if i%20 == 19 {
			b.WriteString(`<div class="share-bar"><a href="/s">Share</a> <a href="/t">Tweet</a></div>`)
		}
	}
	b.WriteString(`</article><aside class="sidebar"><ul><li><a href="/a">Most read</a></li></ul></aside></body></html>`)
	return b.String()
}

// BenchmarkPage10MB reports the time and the peak heap of extracting one
// page of 10 MB (just under DefaultMaxBytes), against the page's size,
// with the block model and without, and with the collector as `neardup
// extract` sets it (SetGC):
//
//	go test -run '^$' -bench Page10MB -benchtime 3x ./internal/extract/
func BenchmarkPage10MB(b *testing.B) {
	in := Input{URL: "https://news.example/2024/03/05/budget", Body: []byte(bigPage(DefaultMaxBytes - 1024))}
	b.SetBytes(int64(len(in.Body)))
	for _, c := range []struct {
		name     string
		keep, gc bool
	}{{"block-model", false, false}, {"no-block-model", true, false}, {"block-model-extract-gc", false, true}} {
		b.Run(c.name, func(b *testing.B) {
			if c.gc {
				defer SetGC()()
			}
			var peak uint64
			for b.Loop() {
				p := heapPeak(func() {
					a, skip, err := Page(context.Background(), in, Options{KeepBlocks: c.keep, Timeout: time.Hour})
					if err != nil || skip != "" || len(a.Text) < len(in.Body)/2 {
						b.Fatalf("err %v, skip %q, %d bytes of text", err, skip, len(a.Text))
					}
				})
				peak = max(peak, p)
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(peak)/float64(len(in.Body)), "peak-heap/page")
		})
	}
}

// heapPeak runs f and returns the most bytes of heap objects seen while it
// ran, sampled every 5 ms.
func heapPeak(f func()) uint64 {
	objects, _ := heappeak.Of(5*time.Millisecond, f)
	return objects
}
