package server

import (
	"context"
	"errors"
	"sync"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/server/httperr"
)

// errClosing is returned for an add that arrives after the server began
// to shut down.
var errClosing = httperr.ErrClosing

// adder is the index's one writer: it takes the documents of concurrent
// requests, already sketched, and adds those waiting together in one
// transaction, which costs about what one request's would. A request's
// documents are all stored or none; a batch that fails is retried a
// request at a time, so that one request's failure is its own.
type adder struct {
	x       Index
	maxDocs int
	reqs    chan *addReq

	mu     sync.Mutex // guards closed and the sends on reqs
	closed bool
	done   chan struct{}
}

// addReq is one request's documents and where its answer goes.
type addReq struct {
	docs    []core.Document
	sks     []neardup.Sketch
	replace bool
	out     chan addAnswer // buffered: the adder never waits for a reader
}

type addAnswer struct {
	matches []neardup.Match
	err     error
}

func newAdder(x Index, maxDocs int) *adder {
	a := &adder{x: x, maxDocs: maxDocs, reqs: make(chan *addReq, 256), done: make(chan struct{})}
	go a.run()
	return a
}

// add stores docs (sketched as sks) and returns their matches.
func (a *adder) add(ctx context.Context, docs []core.Document, sks []neardup.Sketch, replace bool) ([]neardup.Match, error) {
	req := &addReq{docs: docs, sks: sks, replace: replace, out: make(chan addAnswer, 1)}
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return nil, errClosing
	}
	// The send holds mu so that close never closes reqs under it; the
	// channel's buffer keeps it short.
	a.reqs <- req
	a.mu.Unlock()
	// The answer is awaited even when the client goes: its documents may
	// be stored, and the answer is what says so.
	ans := <-req.out
	return ans.matches, ans.err
}

// close stops taking adds and returns once those taken are done.
func (a *adder) close() {
	a.mu.Lock()
	if !a.closed {
		a.closed = true
		close(a.reqs)
	}
	a.mu.Unlock()
	<-a.done
}

func (a *adder) run() {
	defer close(a.done)
	for first := range a.reqs {
		batch, n := []*addReq{first}, len(first.docs)
	more:
		for n < a.maxDocs {
			select {
			case r, ok := <-a.reqs:
				if !ok {
					break more
				}
				batch, n = append(batch, r), n+len(r.docs)
			default:
				break more
			}
		}
		var plain, replace []*addReq
		for _, r := range batch {
			if r.replace {
				replace = append(replace, r)
			} else {
				plain = append(plain, r)
			}
		}
		// After a failure of the index's (another process's lock held
		// past the wait), the batch's other runs are answered with it, not
		// tried each after as long a wait.
		failed := a.commit(plain, false)
		for _, reqs := range apart(replace) {
			if failed != nil {
				for _, r := range reqs {
					r.out <- addAnswer{err: failed}
				}
				continue
			}
			failed = a.commit(reqs, true)
		}
	}
}

// apart cuts reqs, in order, into runs in which no two requests give a
// document of one id: a replacing request's documents are stored in
// another transaction than those of an earlier request that it replaces,
// so that each request's results say what its own transaction stored,
// and a document is reported superseded (index.Superseded) only by a
// later one of its own request.
func apart(reqs []*addReq) [][]*addReq {
	var out [][]*addReq
	ids := map[string]bool{} // of the run being made
	start := 0
	for i, r := range reqs {
		shares := false
		for _, d := range r.docs {
			shares = shares || ids[d.ID]
		}
		if shares {
			out, start = append(out, reqs[start:i]), i
			clear(ids)
		}
		for _, d := range r.docs {
			ids[d.ID] = true
		}
	}
	if start < len(reqs) {
		out = append(out, reqs[start:])
	}
	return out
}

// commit adds the documents of reqs in one transaction, or, when that
// fails for a reason of its documents, each request's in its own. It
// returns the error of a failure of the index's (indexWide), which it
// answered every request with.
func (a *adder) commit(reqs []*addReq, replace bool) error {
	if len(reqs) == 0 {
		return nil
	}
	var docs []core.Document
	var sks []neardup.Sketch
	for _, r := range reqs {
		docs, sks = append(docs, r.docs...), append(sks, r.sks...)
	}
	// Not the requests' contexts: a client that goes does not undo the
	// others' adds. Shutdown waits for this transaction.
	ms, err := a.x.AddSketched(context.Background(), docs, sks, neardup.AddOptions{Replace: replace})
	if err != nil && len(reqs) > 1 && !indexWide(err) {
		for i, r := range reqs {
			if failed := a.commit([]*addReq{r}, replace); failed != nil {
				for _, rest := range reqs[i+1:] {
					rest.out <- addAnswer{err: failed}
				}
				return failed
			}
		}
		return nil
	}
	for _, r := range reqs {
		if err != nil {
			r.out <- addAnswer{err: err}
			continue
		}
		r.out <- addAnswer{matches: ms[:len(r.docs):len(r.docs)]}
		ms = ms[len(r.docs):]
	}
	if err != nil && indexWide(err) {
		return err
	}
	return nil
}

// indexWide reports whether err, of an add, is the index's and not its
// documents': another process holding the writer lock past the wait, the
// database out of reach, an index that cannot be written or is closed.
// Each request's add alone would fail alike, after as long a wait.
func indexWide(err error) bool {
	return errors.Is(err, neardup.ErrLocked) || neardup.Unreachable(err) ||
		errors.Is(err, neardup.ErrReadOnly) || errors.Is(err, neardup.ErrClosed)
}
