package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/server"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/watch"
	"github.com/neardup/neardup/internal/webui"
)

// serveCmd is `neardup serve`.
type serveCmd struct {
	dbFlags
	stubFlags
	Addr      string `default:"127.0.0.1:8080" help:"Address to listen on (host:port). The default answers this machine only."`
	TokenFile string `name:"token-file" type:"existingfile" help:"Bearer tokens that may write (add, remove), one a line. Without it the server takes no writes, and an index that is not there is refused (with it, created)."`
	AuthReads bool   `name:"auth-reads" help:"Reads need a token too (all but /healthz and /readyz)."`
	Method    string `help:"Detection method of a new index, with its default options: ${methods} (default ${default_method}). An existing index keeps its own; naming another is an error."`
	linkFlag
	MaxBody      byteSize       `name:"max-body" default:"${default_max_body}" help:"The largest request body, in bytes or a size such as 32MiB."`
	MaxBatch     int            `name:"max-batch" default:"${default_max_batch}" help:"The most documents one request may add or check."`
	MaxQuery     byteSize       `name:"max-query-bytes" default:"${default_max_query_bytes}" help:"The largest body of POST /v1/query and of the web UI's check, in bytes or a size such as 1MiB: the text an open read may ask to compare."`
	QueryWorkers int            `name:"query-workers" help:"Queries, checks and diffs (of the API and the web UI) that run at once (default: the number of CPUs); the others wait their turn."`
	QueryQueue   int            `name:"query-queue" default:"${default_query_queue}" help:"Queries, checks and diffs that may wait; past it, or after ${default_query_wait} of waiting, a request is answered 503 with Retry-After."`
	Hosts        []string       `name:"host" placeholder:"NAME" help:"A name this server answers as when it listens on a loopback address, besides localhost, 127.0.0.1 and [::1] (repeatable); requests for other hosts get 421."`
	ReadTimeout  watch.Duration `name:"read-timeout" default:"${default_read_timeout}" help:"The longest a client may take to send a request: 10s, 2min (the forms of feeds add --interval; m is minutes)."`
	WriteTimeout watch.Duration `name:"write-timeout" default:"${default_write_timeout}" help:"The longest a request may take, answer included: 2min (the forms of feeds add --interval; m is minutes). On SIGINT or SIGTERM the requests under way are waited for as long as this and --read-timeout let them take."`
	IdleTimeout  watch.Duration `name:"idle-timeout" default:"${default_idle_timeout}" help:"How long an idle connection is kept open: 2min (the forms of feeds add --interval; m is minutes)."`
	Watch        bool           `help:"Also poll the index's feeds (see neardup feeds) and add their articles, as neardup watch does."`
	WatchWorkers int            `name:"watch-workers" default:"${default_watch_workers}" help:"With --watch: feeds polled at once."`
	MaxItems     int            `name:"watch-max-items" default:"${default_max_items}" help:"With --watch: the most items of a feed a poll takes, the newest, as neardup watch --max-items (a rule trial tries the pages of those alone)."`
	fetchFlags
}

func (c *serveCmd) Run(g *globals) error {
	switch {
	case c.MaxBody < 1024:
		return usageError{"--max-body must be at least 1024 bytes"}
	case c.MaxBatch < 1 || c.MaxBatch > 100000:
		return usageError{"--max-batch must be from 1 to 100000"}
	case c.timeoutError() != "":
		return usageError{c.timeoutError()}
	case c.WatchWorkers < 1:
		return usageError{"--watch-workers must be at least 1"}
	case c.MaxItems < 1:
		return usageError{"--watch-max-items must be at least 1"}
	case c.MaxQuery < 1024:
		return usageError{"--max-query-bytes must be at least 1024 bytes"}
	case c.QueryWorkers < 0 || c.QueryQueue < 1:
		return usageError{"--query-workers must not be negative, and --query-queue must be at least 1"}
	}
	if err := checkAddr(c.Addr); err != nil {
		return usageError{fmt.Sprintf("--addr %q: %v", c.Addr, err)}
	}
	level := slog.LevelInfo
	if g.quiet {
		level = slog.LevelWarn
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	o := server.Options{AuthReads: c.AuthReads, MaxBodyBytes: int64(c.MaxBody), MaxBatch: c.MaxBatch, MaxQueryBytes: int64(c.MaxQuery),
		QueryWorkers: c.QueryWorkers, QueryQueue: c.QueryQueue, Hosts: c.Hosts,
		ReadTimeout: time.Duration(c.ReadTimeout), WriteTimeout: time.Duration(c.WriteTimeout), IdleTimeout: time.Duration(c.IdleTimeout), Logger: log}
	if c.TokenFile != "" {
		toks, err := server.LoadTokens(c.TokenFile)
		if err != nil {
			return err
		}
		o.Tokens = toks
	}
	if c.AuthReads && o.Tokens.Len() == 0 {
		return usageError{"--auth-reads needs --token-file"}
	}
	// The watcher's options serve the UI too, which tries site rules.
	wo, err := c.options(g)
	if err != nil {
		return err
	}
	wo.Workers, wo.MaxItems, wo.Logger = c.WatchWorkers, c.MaxItems, log
	if err := c.checkServed(); err != nil {
		return err
	}
	if c.TokenFile == "" {
		log.Warn("no --token-file: the server takes no writes")
	}
	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", c.Addr, err)
	}
	defer ln.Close()
	x, err := c.openServed(g.ctx)
	if err != nil {
		return err
	}
	defer x.Close()
	o.UI = webui.New(x.Index, webui.Options{Authorized: o.Tokens.Valid, AuthReads: c.AuthReads, Rules: wo.Rules,
		Watch: wo, MaxBytes: int64(c.MaxBody), Logger: log})
	return runServe(g.ctx, x.Index, o, ln, c.Watch, wo, log)
}

// timeoutError names each timeout flag whose value is not positive, with
// its value ("--write-timeout must be positive, not 0s"), joined by "; ";
// "" when every one is positive.
func (c *serveCmd) timeoutError() string {
	var bad []string
	for _, t := range []struct {
		flag string
		d    watch.Duration
	}{{"--read-timeout", c.ReadTimeout}, {"--write-timeout", c.WriteTimeout}, {"--idle-timeout", c.IdleTimeout}} {
		if t.d <= 0 {
			bad = append(bad, t.flag+" must be positive, not "+t.d.String())
		}
	}
	return strings.Join(bad, "; ")
}

// checkAddr checks the form of a listening address, host:port with a port
// from 0 to 65535 written in digits, or a service name (see portForm);
// whether the host can be listened on is the listener's to say.
func checkAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return errors.New("want host:port, such as 127.0.0.1:8080 or :8080")
	}
	if _, err := net.LookupPort("tcp", port); err != nil || !portForm(port) {
		return fmt.Errorf("the port %q is not a number from 0 to 65535 or a service name", port)
	}
	return nil
}

// portForm reports whether port is written as a port may be: digits, or a
// service name (letters, digits and hyphens, starting with a letter:
// "http"), or nothing (port 0, as net.Listen reads it). net.LookupPort
// alone took " 18479" and "+18479" for 18479, so a pasted space served
// where a mistake should have been named.
func portForm(port string) bool {
	if port == "" {
		return true
	}
	digits, name := true, port[0] >= 'a' && port[0] <= 'z' || port[0] >= 'A' && port[0] <= 'Z'
	for _, c := range []byte(port) {
		isDigit := c >= '0' && c <= '9'
		digits = digits && isDigit
		name = name && (isDigit || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')
	}
	return digits || name
}

// exposure says what a server listening on addr beyond this machine
// shows to whoever reaches it, or "" on a loopback address: its reads are
// open without --auth-reads, and tokens cross the network as plain HTTP.
func exposure(addr net.Addr, authReads bool, tokens int) string {
	if ta, ok := addr.(*net.TCPAddr); !ok || ta.IP.IsLoopback() {
		return ""
	}
	var says []string
	if !authReads {
		says = append(says, "every stored document and its text can be read by whoever reaches it (--auth-reads makes reads need a token)")
	}
	if tokens > 0 {
		says = append(says, "tokens cross the network in the clear unless TLS is put in front")
	}
	if len(says) == 0 {
		return ""
	}
	return "listening beyond this machine: " + strings.Join(says, "; ")
}

// checkServed refuses a SQLite index that is not there when the server
// takes no writes (no --token-file): it would serve a new index, empty,
// that nothing could write (a --db mistyped), where with writes it is
// created. --watch alone writes only what the index's feeds give, of which
// a new index has none; `neardup watch` refuses a missing index too.
func (c *serveCmd) checkServed() error {
	if c.TokenFile != "" || store.IsPostgres(c.DB) {
		return nil
	}
	if _, err := os.Stat(c.DB); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: no index there: %w (serve creates one when it takes writes, with --token-file; "+
			"neardup index add creates one)", c.DB, err)
	}
	return nil
}

// openServed opens the index, creating it when missing with texts stored:
// diffs and search need them. A server that takes no writes (no
// --token-file, no --watch) adds no document, so it chooses no method:
// it opens only an index that holds one (store.Open migrates an older
// index), refusing one of feeds alone and a PostgreSQL database without
// the index's tables.
func (c *serveCmd) openServed(ctx context.Context) (*apiIndex, error) {
	existing := c.TokenFile == "" && !c.Watch
	x, err := c.openKeeping(ctx, c.Method, &c.linkFlag, c.minChars(), existing)
	switch {
	case existing && errors.Is(err, neardup.ErrNoMethod):
		return nil, fmt.Errorf("%w: serve chooses it only when it takes writes, with --token-file or --watch "+
			"(neardup index add and watch choose it too)", err)
	case existing && errors.Is(err, neardup.ErrNoIndex):
		return nil, fmt.Errorf("%w (serve creates one when it takes writes, with --token-file; neardup index add creates one)", err)
	}
	return x, err
}

// runServe serves x on ln until ctx is done, with a feed watcher on the
// same index when watching; then it stops the watcher and the server,
// each finishing what it has under way. A failure once serving began,
// the server's or the watcher's, is an ownFailure: a signal stopped the
// serving, not the failure.
func runServe(ctx context.Context, x *neardup.Index, o server.Options, ln net.Listener, watching bool, wo watch.Options, log *slog.Logger) error {
	readOnly := x.Writable()
	if readOnly != nil && watching {
		// The watcher stores what it fetches: every poll would fail.
		return fmt.Errorf("--watch: %w", readOnly)
	}
	var w *watch.Watcher
	if watching {
		var err error
		if w, err = watch.New(x, wo); err != nil {
			return usageError{err.Error()}
		}
		o.Watcher = w.Totals
	}
	s, err := server.New(x, o)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	var watchErr error
	if w != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			watchErr = w.Run(ctx)
			if watchErr != nil && ctx.Err() == nil {
				// Said at once: the server goes on serving what is
				// stored, and exits 1 with the error when it stops.
				log.Error("the feed watcher stopped; serving goes on without it (neardup_watch_up 0)", "error", watchErr)
			}
		}()
	}
	log.Info("serving", "addr", "http://"+ln.Addr().String(), "method", x.Meta().Method, "store_text", x.Meta().StoreText,
		"tokens", o.Tokens.Len(), "auth_reads", o.AuthReads, "watch", watching)
	if msg := exposure(ln.Addr(), o.AuthReads, o.Tokens.Len()); msg != "" {
		log.Warn(msg)
	}
	if readOnly != nil {
		log.Warn("this process may not write the index: serving reads only; writes answer 403", "reason", readOnly)
	}
	err = s.Serve(ctx, ln)
	wg.Wait()
	if err == nil && watchErr != nil && !errors.Is(watchErr, context.Canceled) {
		err = fmt.Errorf("watching feeds: %w", watchErr)
	}
	if err != nil {
		return ownFailure{err}
	}
	log.Info("stopped")
	return nil
}
