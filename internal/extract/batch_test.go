package extract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	nurl "net/url"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/extract/source"
	"golang.org/x/net/html"
)

// pages returns a walk over the given pages.
func pages(ps ...source.Page) func(func(source.Page) error) error {
	return func(fn func(source.Page) error) error {
		for _, p := range ps {
			if err := fn(p); err != nil {
				return err
			}
		}
		return nil
	}
}

func TestBatchRun(t *testing.T) {
	article := []byte(newsPage(6))
	var in []source.Page
	for i := range 40 {
		in = append(in, source.Page{ID: fmt.Sprint(i), Body: article})
	}
	in[3] = source.Page{ID: "3", Err: errors.New("unreadable")}
	in[5] = source.Page{ID: "5", TooLarge: true}
	in[7] = source.Page{ID: "7", Status: 404, Body: article}
	in[9] = source.Page{ID: "9", Body: []byte("\x00\x01binary")}
	// A slow engine on some pages makes workers finish out of order.
	slow := func(doc *html.Node, u *nurl.URL) Found {
		if strings.HasSuffix(u.Path, "1") {
			time.Sleep(5 * time.Millisecond)
		}
		return Readeck(doc, u)
	}
	for i := range in {
		in[i].URL = "https://news.example/a/" + in[i].ID
	}
	var got []string
	var st Stats
	b := Batch{Options: Options{Engine: slow}, Workers: 4}
	err := b.Run(context.Background(), pages(in...), func(r Result) error {
		got = append(got, r.ID+":"+string(r.Skip))
		st.Add(r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := range 40 {
		skip := map[int]core.SkipReason{3: SkipFailed, 5: SkipTooLarge, 7: SkipHTTPStatus, 9: SkipNotHTML}[i]
		want = append(want, fmt.Sprintf("%d:%s", i, skip))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if s := st.String(); s != "40 pages: 36 articles, 1 failed, 1 http-status, 1 not-html, 1 too-large" {
		t.Errorf("stats %q", s)
	}
}

func TestBatchStops(t *testing.T) {
	stop := errors.New("stop")
	var in []source.Page
	for i := range 100 {
		in = append(in, source.Page{ID: fmt.Sprint(i), Body: []byte("<p>x</p>")})
	}
	n := 0
	err := Batch{Workers: 2}.Run(context.Background(), pages(in...), func(Result) error {
		n++
		if n == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 3 {
		t.Errorf("err %v after %d results", err, n)
	}
	walkErr := errors.New("walk failed")
	err = Batch{}.Run(context.Background(), func(fn func(source.Page) error) error {
		fn(source.Page{ID: "a", Body: []byte("<p>x</p>")})
		return walkErr
	}, func(Result) error { return nil })
	if !errors.Is(err, walkErr) {
		t.Errorf("err %v, want the walk's", err)
	}
}

func TestRecordJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    Result
		want string
	}{
		{"article", Result{ID: "a.html", URL: "https://x.example/a", Article: Article{Title: "T", Text: "Body.",
			Author: "A", Lang: "en", Date: time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)}},
			`{"id":"a.html","url":"https://x.example/a","title":"T","text":"Body.","date":"2024-03-05T10:00:00Z","author":"A","lang":"en"}`},
		{"skipped keeps metadata, drops text", Result{ID: "b", Article: Article{Title: "Gallery", Text: "short"}, Skip: SkipTooShort},
			`{"id":"b","url":"","title":"Gallery","text":"","date":"","author":"","lang":"","skipped":"too-short"}`},
		{"failed", Result{ID: "c", Skip: SkipFailed, Err: ErrTimeout},
			`{"id":"c","url":"","title":"","text":"","date":"","author":"","lang":"","skipped":"failed","error":"extract: page timed out"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(tc.r.Record())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestBatchCancelledPagesAreNotFailures pins that a page cut off by a
// cancelled run is not emitted (it used to be a failed record, "context
// canceled", counted as a failure), nor any page after it. Its time is
// synctest's: the engine's hour passes once all else waits.
func TestBatchCancelledPagesAreNotFailures(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		engine := func(doc *html.Node, u *nurl.URL) Found {
			if u.Path == "/a/1" {
				cancel() // as Ctrl-C would, while this page is extracted
				time.Sleep(time.Hour)
			}
			return Readeck(doc, u)
		}
		var in []source.Page
		for i := range 4 {
			in = append(in, source.Page{ID: fmt.Sprint(i), URL: fmt.Sprintf("https://news.example/a/%d", i), Body: []byte(newsPage(6))})
		}
		var got []string
		err := Batch{Options: Options{Engine: engine, Timeout: 2 * time.Hour}, Workers: 1}.Run(ctx, pages(in...), func(r Result) error {
			got = append(got, r.ID+":"+string(r.Skip))
			return nil
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err %v, want context.Canceled", err)
		}
		if diff := cmp.Diff([]string{"0:"}, got); diff != "" {
			t.Errorf("(-want +got)\n%s", diff)
		}
		time.Sleep(time.Hour) // the cancelled page's work, given up, ends before the bubble does
	})
}

// TestBatchTimedOutPagesHoldTheirWorker pins that pages past their time
// are never more in work than Batch.Workers: a timed-out page's work went
// on in the background while its worker took the next page, and each bad
// page added its memory (4 GB at -j 1). Its time is synctest's: an
// engine's hour passes once all else waits, long after the timeout.
func TestBatchTimedOutPagesHoldTheirWorker(t *testing.T) {
	for _, workers := range []int{1, 3} {
		t.Run(fmt.Sprint(workers, " workers"), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var mu sync.Mutex
				inWork, most := 0, 0
				engine := func(doc *html.Node, u *nurl.URL) Found {
					mu.Lock()
					inWork++
					most = max(most, inWork)
					mu.Unlock()
					time.Sleep(time.Second + stopGrace/2) // past the timeout, stopped at the checkpoint after the engine
					mu.Lock()
					inWork--
					mu.Unlock()
					return Readeck(doc, u)
				}
				var in []source.Page
				for i := range 10 {
					in = append(in, source.Page{ID: fmt.Sprint(i), URL: fmt.Sprintf("https://news.example/a/%d", i), Body: []byte(newsPage(6))})
				}
				var got []string
				b := Batch{Options: Options{Engine: engine, Timeout: time.Second}, Workers: workers}
				err := b.Run(context.Background(), pages(in...), func(r Result) error {
					if !errors.Is(r.Err, ErrTimeout) {
						t.Errorf("page %s: err %v, want ErrTimeout", r.ID, r.Err)
					}
					got = append(got, r.ID)
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(in) {
					t.Errorf("%d results, want %d", len(got), len(in))
				}
				if most > workers {
					t.Errorf("%d pages in work at once, more than the %d workers", most, workers)
				}
			})
		})
	}
}

// TestPageReturnsWithoutACheckpoint: a page whose work reaches no
// checkpoint (an engine, or a site rule's selector, that runs for an hour)
// is given up stopGrace after its timeout, and after its context's end:
// the caller (a request of the web UI, the watcher, a signal) is not held
// for the hour. Regression: Page waited for the work to stop, however
// long it ran.
func TestPageReturnsWithoutACheckpoint(t *testing.T) {
	for _, cancelled := range []bool{false, true} {
		t.Run(fmt.Sprint("cancelled ", cancelled), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				engine := func(doc *html.Node, u *nurl.URL) Found {
					time.Sleep(time.Hour)
					return Readeck(doc, u)
				}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				timeout := time.Minute
				if cancelled {
					time.AfterFunc(time.Second, cancel)
				}
				start := time.Now()
				_, _, err := Page(ctx, Input{URL: "https://news.example/a/1", Body: []byte(newsPage(6))}, Options{Engine: engine, Timeout: timeout})
				want, took := timeout+stopGrace, time.Since(start)
				if cancelled {
					want = time.Second + stopGrace
				}
				if err == nil || took != want {
					t.Errorf("Page returned %v after %v, want an error after %v", err, took, want)
				}
				time.Sleep(time.Hour) // the engine's goroutine ends before the bubble does
			})
		})
	}
}
