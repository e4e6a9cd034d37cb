package server

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/neardup/neardup/internal/server/httperr"
)

// pool lets a bounded number of heavy requests (the open reads that
// sketch and compare a posted text, POST /v1/query and the web UI's check,
// and those that diff two stored texts, GET /v1/diff and the web UI's
// /diff) run at once, and a bounded number wait for their turn; the others are
// answered 503 with Retry-After at once. Waiting requests have not read
// their bodies, so the memory heavy requests take is bounded by the
// workers, not by the clients.
type pool struct {
	slots   chan struct{}
	queue   int64         // the most that wait
	maxWait time.Duration // the longest one waits
	waiting atomic.Int64
}

func newPool(workers, queue int, maxWait time.Duration) *pool {
	return &pool{slots: make(chan struct{}, workers), queue: int64(queue), maxWait: maxWait}
}

// errBusy is the answer to a heavy request that found the queue full or
// waited too long.
func (p *pool) errBusy(why string) error {
	return &apiError{Status: http.StatusServiceUnavailable, Msg: why + ": try again shortly (see Retry-After)"}
}

// full says how many heavy requests run, and how many wait, when the pool
// is full: "1 heavy request runs and 1 waits", "4 heavy requests run and 8
// wait", "2 heavy requests run and none wait".
func full(run int, wait int64) string {
	runs := fmt.Sprintf("%d heavy requests run", run)
	if run == 1 {
		runs = "1 heavy request runs"
	}
	switch wait {
	case 0:
		return runs + " and none wait"
	case 1:
		return runs + " and 1 waits"
	}
	return fmt.Sprintf("%s and %d wait", runs, wait)
}

// acquire waits for a turn; release ends it.
func (p *pool) acquire(ctx context.Context) (release func(), err error) {
	select {
	case p.slots <- struct{}{}:
		return p.release, nil
	default:
	}
	if p.waiting.Add(1) > p.queue {
		p.waiting.Add(-1)
		return nil, p.errBusy("the server is busy: " + full(cap(p.slots), p.queue))
	}
	defer p.waiting.Add(-1)
	t := time.NewTimer(p.maxWait)
	defer t.Stop()
	select {
	case p.slots <- struct{}{}:
		return p.release, nil
	case <-t.C:
		return nil, p.errBusy(fmt.Sprintf("the server is busy: no turn within %s", p.maxWait))
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *pool) release() { <-p.slots }

// heavy runs next in the pool's turn with the body bounded by
// MaxQueryBytes and a context that ends at the write timeout, when its
// answer could no longer be written, if its client has not gone before
// (its cause httperr.ErrTooLong); a request refused by the pool gets 503
// and Retry-After, as JSON.
func (s *Server) heavy(next http.Handler) http.Handler {
	return s.turn(next, nil, func(w http.ResponseWriter, r *http.Request, err error) {
		s.writeJSON(w, r, status(err).Status, status(err)) // a refusal, not a failure to log
	})
}

// heavyUI is heavy for the web UI's pages that compare texts: a request
// the UI refuses on its headers (a token it lacks) is refused before it
// takes a turn, and every refusal is the UI's error page.
func (s *Server) heavyUI(ui UI) http.Handler {
	return s.turn(ui, ui.Admit, ui.Fail)
}

// turn is heavy with admit, when not nil, asked first and fail answering
// a refusal, admit's or the pool's.
func (s *Server) turn(next http.Handler, admit func(*http.Request) error, fail func(http.ResponseWriter, *http.Request, error)) http.Handler {
	retry := strconv.Itoa(max(1, int(s.o.QueryWait.Seconds()/4)))
	tooLong := fmt.Errorf("%w (%s)", httperr.ErrTooLong, s.o.WriteTimeout)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if admit != nil {
			if err := admit(r); err != nil {
				fail(w, r, err)
				return
			}
		}
		ctx, cancel := context.WithTimeoutCause(r.Context(), s.o.WriteTimeout, tooLong)
		defer cancel()
		r = r.WithContext(ctx)
		release, err := s.pool.acquire(r.Context())
		if err != nil {
			w.Header().Set("Retry-After", retry)
			fail(w, r, httperr.Cause(ctx, err))
			return
		}
		defer release()
		r.Body = http.MaxBytesReader(w, r.Body, s.o.MaxQueryBytes)
		next.ServeHTTP(w, r)
	})
}
