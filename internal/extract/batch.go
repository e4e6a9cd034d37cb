package extract

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/extract/source"
)

// More skip reasons, for pages that never reach the extractor.
const (
	SkipHTTPStatus core.SkipReason = "http-status" // a WARC response whose status is not 2xx
	SkipFailed     core.SkipReason = "failed"      // unreadable, undecodable, timed out or crashed: see Result.Err
)

// Result is one page's outcome.
type Result struct {
	// ID and URL identify the page as its source named it.
	ID, URL string
	// Article is what was found; only metadata when the page was skipped.
	Article Article
	// Skip says why the page has no article; empty for an article.
	Skip core.SkipReason
	// Err is set when Skip is SkipFailed.
	Err error
}

// Batch extracts many pages concurrently. The zero value works.
type Batch struct {
	// Options apply to every page.
	Options Options
	// Workers is the number of pages extracted at once; 0 means GOMAXPROCS.
	Workers int
}

// Run extracts every page walk yields and calls emit with each result in
// the order walk yielded the pages, from the calling goroutine. walk is
// typically a source.Walk with its inputs bound. Run returns walk's error,
// emit's first error or the context's; a page that fails does not stop it.
// When ctx is cancelled, the pages it cut off are not emitted, nor any
// after them: the results emitted are those of the first pages in order.
func (b Batch) Run(ctx context.Context, walk func(func(source.Page) error) error, emit func(Result) error) error {
	workers := b.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &run{
		jobs:    make(chan job),
		results: make(chan done, workers),
		window:  make(chan struct{}, 4*workers),
	}
	go r.produce(ctx, walk)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range r.jobs {
				res := b.one(ctx, j.p)
				// A page cut off by the run's end did not fail: it is not emitted.
				stopped := res.Err != nil && ctx.Err() != nil && errors.Is(res.Err, ctx.Err())
				r.results <- done{j.seq, res, stopped}
			}
		}()
	}
	go func() { wg.Wait(); close(r.results) }()
	if err := r.emitInOrder(emit, cancel); err != nil {
		return err
	}
	if r.walkErr != nil {
		return r.walkErr
	}
	return ctx.Err()
}

// job is a page with its place in the input.
type job struct {
	seq int
	p   source.Page
}

// done is a result with its place in the input.
type done struct {
	seq     int
	r       Result
	stopped bool // cut off by the cancelled run: neither a result nor a failure
}

// run is the plumbing of one Batch.Run.
type run struct {
	jobs    chan job
	results chan done
	window  chan struct{} // pages read but not yet emitted, bounding memory
	walkErr error         // written before jobs closes
}

// produce feeds the walk's pages to the workers, numbered.
func (r *run) produce(ctx context.Context, walk func(func(source.Page) error) error) {
	defer close(r.jobs)
	seq := 0
	r.walkErr = walk(func(p source.Page) error {
		select {
		case r.window <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		}
		r.jobs <- job{seq, p}
		seq++
		return nil
	})
}

// emitInOrder hands results to emit in input order until the workers are
// done; after emit fails it cancels the run and drains the rest. Results
// stop at the first page the cancelled run cut off, so that what was
// emitted is every page of the input up to a point.
func (r *run) emitInOrder(emit func(Result) error, cancel func()) error {
	pending := map[int]done{}
	next := 0
	var err error
	stopped := false
	for d := range r.results {
		pending[d.seq] = d
		for p, ok := pending[next]; ok && err == nil && !stopped; p, ok = pending[next] {
			delete(pending, next)
			next++
			<-r.window
			if stopped = p.stopped; stopped {
				break
			}
			if err = emit(p.r); err != nil {
				cancel()
			}
		}
	}
	return err
}

// one extracts a single page read by package source.
func (b Batch) one(ctx context.Context, p source.Page) Result {
	r := Result{ID: p.ID, URL: p.URL}
	switch {
	case p.Err != nil:
		r.Skip, r.Err = SkipFailed, p.Err
	case p.TooLarge:
		limit := b.Options.MaxBytes
		if limit <= 0 {
			limit = DefaultMaxBytes
		}
		r.Skip, r.Article.Limit = SkipTooLarge, fmt.Sprintf("over %d bytes (--max-bytes)", limit)
	case p.Status != 0 && (p.Status < 200 || p.Status > 299):
		r.Skip = SkipHTTPStatus
	default:
		var err error
		r.Article, r.Skip, err = Page(ctx, Input{URL: p.URL, ContentType: p.ContentType, Body: p.Body}, b.Options)
		if err != nil {
			r.Skip, r.Err = SkipFailed, err
		}
	}
	return r
}

// Stats counts results by outcome. The zero value is empty and ready.
type Stats struct {
	Pages    int
	Articles int
	Skipped  map[core.SkipReason]int
	// RuleMisses counts the pages on which a site rule's body selector
	// matched nothing (Article.RuleMiss).
	RuleMisses int
}

// Add counts one result.
func (s *Stats) Add(r Result) {
	if s.Skipped == nil {
		s.Skipped = map[core.SkipReason]int{}
	}
	s.Pages++
	if r.Article.RuleMiss != "" {
		s.RuleMisses++
	}
	if r.Skip == "" {
		s.Articles++
		return
	}
	s.Skipped[r.Skip]++
}

// String summarises the counts: "120 pages: 100 articles, 15 too-short, 5 not-html".
func (s *Stats) String() string {
	parts := []string{fmt.Sprintf("%d articles", s.Articles)}
	reasons := make([]string, 0, len(s.Skipped))
	for r := range s.Skipped {
		reasons = append(reasons, string(r))
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		parts = append(parts, fmt.Sprintf("%d %s", s.Skipped[core.SkipReason(r)], r))
	}
	if s.RuleMisses > 0 {
		parts = append(parts, fmt.Sprintf("%d where the site rule's body matched nothing", s.RuleMisses))
	}
	return fmt.Sprintf("%d pages: %s", s.Pages, strings.Join(parts, ", "))
}
