// Package server owns neardup's HTTP API over a stored index: adding and
// checking documents, reading documents, clusters and diffs, full-text
// search, health and Prometheus metrics, and the OpenAPI document that
// describes them. Writes need a bearer token; every body is bounded. The
// web UI is another package's handler (see UI) that the server mounts at "/".
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/neardup/neardup/internal/watch"
)

// UI is the web UI a Server serves at "/" (package webui's Handler). Its
// pages that compare texts, POST /check and GET /diff, take their turn
// among the query workers as the API's queries and diffs do (see
// Options.QueryWorkers).
type UI interface {
	http.Handler
	// Admit returns the error the UI answers r with on its headers alone
	// (a page that needs a token it lacks), nil when it may serve r: a
	// request refused takes no turn.
	Admit(r *http.Request) error
	// Fail answers r with err as the UI answers its own errors: the
	// pool's refusals, a request stopped at the write timeout.
	Fail(w http.ResponseWriter, r *http.Request, err error)
}

// Options configure a Server. The zero value works: reads open, writes
// refused (no tokens), the limits below.
type Options struct {
	// Tokens may write (POST /v1/documents, DELETE); nil or empty: no one
	// may.
	Tokens *Tokens
	// AuthReads makes every route but /healthz and /readyz need a token
	// too.
	AuthReads bool
	// MaxBodyBytes bounds a request's body. Default 10 MiB.
	MaxBodyBytes int64
	// MaxBatch bounds the documents of one request. Default 1000.
	MaxBatch int
	// MaxQueryBytes bounds the body of an open read that carries a text
	// to compare (POST /v1/query, the web UI's POST /check), as sent and
	// inflated. Default 1 MiB.
	MaxQueryBytes int64
	// QueryWorkers is how many of those requests run at once; the others
	// wait. Default GOMAXPROCS.
	QueryWorkers int
	// QueryQueue is how many wait at most, and QueryWait how long one
	// waits at most; past either a request is answered 503 with
	// Retry-After. Defaults 64 and 10 s.
	QueryQueue int
	QueryWait  time.Duration
	// Hosts are the names, besides localhost, 127.0.0.1 and [::1], that
	// a Host header may name when Serve listens on a loopback address;
	// requests naming another host get 421 (a page of another site whose
	// name a DNS rebinding points at this machine is not served). A
	// server on any other address answers every Host.
	Hosts []string
	// ReadTimeout, WriteTimeout and IdleTimeout are the http.Server's.
	// Defaults 30 s, 60 s and 120 s.
	ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// ShutdownTimeout bounds how long Serve waits, once its context is
	// done, for the requests under way. Default: as long as the timeouts
	// let a request take, the longer of ReadTimeout and HeaderTimeout
	// plus WriteTimeout (70 s with their defaults), so that every request
	// begun can still be answered. A request under way past it is cut
	// off unanswered, and Serve returns a *CutOffError.
	ShutdownTimeout time.Duration
	// UI serves every path outside /v1/, /healthz, /readyz, /metrics and
	// /openapi.json, and checks its own tokens (a browser sends no bearer
	// header: see Tokens.Valid); nil serves a short page saying there is
	// no UI.
	UI UI
	// Watcher, when not nil, gives the counters of a feed watcher running
	// on the same index, shown in /metrics.
	Watcher func() watch.Totals
	// Logger logs failures and the server's start and stop; nil:
	// slog.Default().
	Logger *slog.Logger
}

// DefaultOptions returns the options the server uses for those left zero:
// the defaults, stated here only (the CLI's flags show them).
func DefaultOptions() Options { return Options{}.withDefaults() }

func (o Options) withDefaults() Options {
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = 10 << 20
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = 1000
	}
	if o.MaxQueryBytes <= 0 {
		o.MaxQueryBytes = DefaultMaxQueryBytes
	}
	if o.QueryWorkers <= 0 {
		o.QueryWorkers = runtime.GOMAXPROCS(0)
	}
	if o.QueryQueue <= 0 {
		o.QueryQueue = 64
	}
	if o.QueryWait <= 0 {
		o.QueryWait = 10 * time.Second
	}
	if o.ReadTimeout <= 0 {
		o.ReadTimeout = 30 * time.Second
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = 60 * time.Second
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = 120 * time.Second
	}
	if o.ShutdownTimeout <= 0 {
		o.ShutdownTimeout = max(o.ReadTimeout, HeaderTimeout+o.WriteTimeout)
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// DefaultMaxQueryBytes is Options.MaxQueryBytes when it is 0.
const DefaultMaxQueryBytes = 1 << 20

// HeaderTimeout is the longest a client may take to send a request's
// headers; the write timeout runs from their end.
const HeaderTimeout = 10 * time.Second

// CutOffError is Serve's error when its shutdown's grace
// (Options.ShutdownTimeout) ended with requests still under way: they
// were cut off, unanswered.
type CutOffError struct {
	// Requests is how many were under way.
	Requests int
	// Grace is how long Serve waited for them.
	Grace time.Duration
}

func (e *CutOffError) Error() string {
	what := "1 request"
	if e.Requests != 1 {
		what = fmt.Sprintf("%d requests", e.Requests)
	}
	return fmt.Sprintf("server: %s under way cut off unanswered when the shutdown's grace of %s ended", what, e.Grace)
}

// Server serves the API of one index. Make it with New; Handler serves
// it, Serve also listens and shuts down; Close stops its writer.
type Server struct {
	x    Index
	o    Options
	log  *slog.Logger
	add  *adder
	pool *pool
	met  *metrics
	// loopback is the port of a loopback address Serve listens on, and
	// hosts the Host headers it answers then; "" for any other address
	// (or Handler alone): every Host is answered.
	loopback string
	hosts    map[string]bool
	handler  http.Handler
	// sketchers are the index's sketchers, one a goroutine at a time.
	sketchers sync.Pool
	draining  atomic.Bool
	active    activeConns
}

// New returns a Server of x. The caller closes x after the Server.
func New(x Index, o Options) (*Server, error) {
	o = o.withDefaults()
	if o.MaxBatch > 100000 {
		return nil, fmt.Errorf("server: a batch of %d documents is too many (at most 100,000)", o.MaxBatch)
	}
	s := &Server{x: x, o: o, log: o.Logger, add: newAdder(x, max(o.MaxBatch, 500)),
		pool: newPool(o.QueryWorkers, o.QueryQueue, o.QueryWait)}
	s.sketchers.New = func() any { return x.NewSketcher() }
	s.met = newMetrics(x, o.Watcher)
	s.handler = s.routes()
	return s, nil
}

// Authorized reports whether r carries a write token (see Tokens).
func (s *Server) Authorized(r *http.Request) bool { return s.o.Tokens.Authorized(r) }

// Handler returns the server's handler: every route, with metrics, body
// limits and recovery.
func (s *Server) Handler() http.Handler { return s.handler }

// Close stops taking adds and returns once those taken are stored. Serve
// calls it.
func (s *Server) Close() { s.add.close() }

// Serve answers on ln until ctx is done, then stops taking requests,
// waits for those under way (at most ShutdownTimeout) and closes the
// server. It returns nil after a shutdown asked for by ctx, or a
// *CutOffError, logged, when requests were still under way at the end of
// the wait. The index's first count for the front page and the metrics
// starts with it.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	s.guardHosts(ln.Addr())
	s.x.CountInBackground()
	hs := &http.Server{Handler: s.handler, ReadHeaderTimeout: HeaderTimeout, ReadTimeout: s.o.ReadTimeout,
		WriteTimeout: s.o.WriteTimeout, IdleTimeout: s.o.IdleTimeout, MaxHeaderBytes: 64 << 10,
		ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelWarn), ConnState: s.active.track}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	var err error
	select {
	case err = <-errc:
	case <-ctx.Done():
		s.draining.Store(true)
		s.log.Info("shutting down: finishing the requests under way", "grace", s.o.ShutdownTimeout)
		sctx, cancel := context.WithTimeout(context.Background(), s.o.ShutdownTimeout)
		err = hs.Shutdown(sctx)
		cancel()
		if err != nil {
			n := s.active.count()
			hs.Close()
			switch {
			case errors.Is(err, context.DeadlineExceeded) && n > 0:
				err = &CutOffError{Requests: n, Grace: s.o.ShutdownTimeout}
				s.log.Error("shutting down: the grace ended; requests under way cut off, unanswered", "requests", n, "grace", s.o.ShutdownTimeout)
			case errors.Is(err, context.DeadlineExceeded):
				err = nil // connections that sent no request yet
			}
		}
		if e := <-errc; !errors.Is(e, http.ErrServerClosed) && err == nil {
			err = e
		}
	}
	s.Close()
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// activeConns counts the connections of an http.Server with a request
// under way (http.StateActive): from its first byte read to its answer
// written.
type activeConns struct {
	mu    sync.Mutex
	conns map[net.Conn]bool
}

// track is the http.Server's ConnState.
func (a *activeConns) track(c net.Conn, st http.ConnState) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if st != http.StateActive {
		delete(a.conns, c)
		return
	}
	if a.conns == nil {
		a.conns = map[net.Conn]bool{}
	}
	a.conns[c] = true
}

// count is how many connections have a request under way.
func (a *activeConns) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.conns)
}
