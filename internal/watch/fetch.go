package watch

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/neardup/neardup/internal/outbound"
)

// Errors of a fetch, wrapped with details.
var (
	ErrTooLarge     = errors.New("watch: body over the size limit")
	ErrStatus       = errors.New("watch: unexpected HTTP status")
	ErrTooManyHops  = errors.New("watch: too many redirects")
	ErrRetryLater   = errors.New("watch: the server asked to retry later")
	errBadEncoding  = errors.New("watch: content encoding not supported")
	errNoHostInURL  = errors.New("watch: URL without a host")
	errUnsupportedS = errors.New("watch: URL scheme is not http or https")
)

// statusError is an HTTP status other than 2xx, or a 304 to a request
// that was not conditional.
type statusError struct {
	code int
	url  string
	note string // what more to say of it, "" when nothing
}

func (e *statusError) Error() string {
	msg := fmt.Sprintf("HTTP %d %s from %s", e.code, http.StatusText(e.code), ShownURL(e.url))
	if e.note != "" {
		msg += " " + e.note
	}
	return msg
}

// unaskedNotModified is the note of a 304 to a request that sent no
// validator: nothing can be not modified, and the answer has no body.
const unaskedNotModified = "to a request that sent no ETag or Last-Modified (If-None-Match, If-Modified-Since)"

// Is makes a statusError ErrStatus.
func (e *statusError) Is(target error) bool { return target == ErrStatus }

// retryLater is a server's Retry-After, or the pause it asked for that a
// request met before it went out (unasked).
type retryLater struct {
	what    string // the URL asked, as shown (ShownURL), or the host paused
	host    string // the host paused, as the host gate keys it
	wait    time.Duration
	until   time.Time // the end of the host's pause
	unasked bool      // no request went out: the host's pause refused it
}

func (e *retryLater) Error() string {
	return fmt.Sprintf("%s asked to retry in %s", e.what, e.wait.Round(time.Second))
}

// Is makes a retryLater ErrRetryLater.
func (e *retryLater) Is(target error) bool { return target == ErrRetryLater }

// request is what to fetch and how: the conditional headers of a feed's
// last answer, and which User-Agent to present.
type request struct {
	url          string
	etag         string
	lastModified string
	browser      bool // present BrowserUserAgent
}

// response is what a fetch brought back, the body decoded from its
// transfer compression.
type response struct {
	url          string // after redirects
	status       int
	notModified  bool
	conditional  bool // the request answered sent If-None-Match or If-Modified-Since
	body         []byte
	contentType  string
	etag         string
	lastModified string
	browser      bool // BrowserUserAgent was needed (the other was refused with 403)
}

// fetcher gets feeds and pages over HTTP: one request at a time per host,
// a delay between two to the same host, Retry-After respected, bodies
// bounded before and after decompression.
type fetcher struct {
	client       *http.Client
	timeout      time.Duration // Options.Timeout: the time a request's hops may take, their turns' waits aside
	userAgent    string
	browserUA    string
	maxBytes     int64
	maxRedirects int
	gate         *hostGate
}

func newFetcher(o *Options) *fetcher {
	proxy := o.proxy
	if proxy == nil {
		proxy = http.ProxyFromEnvironment
	}
	policy := &outbound.Policy{Allow: o.AllowPrivate}
	transport := policy.Transport(o.ConnectTimeout, proxy)
	transport.ResponseHeaderTimeout = o.Timeout
	transport.DisableCompression = true // the fetcher decodes, within its limits
	transport.MaxIdleConnsPerHost = 2
	f := &fetcher{timeout: o.Timeout, userAgent: o.UserAgent, browserUA: o.BrowserUserAgent, maxBytes: int64(o.MaxBytes),
		maxRedirects: o.MaxRedirects, gate: newHostGate(o.HostDelay)}
	// No Client.Timeout: its clock would run while a redirect waits for its
	// host's turn (see turn).
	f.client = &http.Client{Transport: transport, CheckRedirect: f.redirect}
	return f
}

// close closes the connections the fetcher's transport keeps idle, and
// those that become idle after it (a connection a cancelled request's dial
// still made), until its next request. A fetcher made for one trial or
// check (Try, CheckFeed) is closed when it ends: each kept its connections
// for the idle timeout (90 s), so that a client trying rules in a loop
// held a socket a trial.
func (f *fetcher) close() { f.client.CloseIdleConnections() }

// turn is the host gate's turn a request holds: that of its URL's host,
// then that of each redirect's host in turn (see fetcher.redirect); and
// the request's clock, which stops while a redirect waits for its host's
// turn: Options.Timeout bounds the hops and the body read, not the waits.
// A redirect to a site another request was being answered by waited for
// it within the timeout, and failed with "Client.Timeout exceeded" though
// each hop was quick. The client calls CheckRedirect in the goroutine of
// Do, the request's own.
type turn struct {
	release func() // nil when no turn is held

	timeout time.Duration           // the whole of the clock
	left    time.Duration           // what is left of it when it was last started
	started time.Time               // when it was last started
	clock   *time.Timer             // cancels the request when left has run out; nil when stopped
	cancel  context.CancelCauseFunc // cancels the request's context
}

// timeoutError is the cause of a request cancelled by its clock: it is a
// timeout (net.Error) and context.DeadlineExceeded, as the client's own
// timeout was.
type timeoutError struct{ d time.Duration }

func (e *timeoutError) Error() string   { return fmt.Sprintf("no answer within %s", e.d) }
func (e *timeoutError) Timeout() bool   { return true }
func (e *timeoutError) Temporary() bool { return true }

// Is makes a timeoutError context.DeadlineExceeded.
func (e *timeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// bodyTimeoutError is a timeoutError that cut off the body of an answer
// that had come: the server sent it too slowly (a page trickled a byte at
// a time), which "no answer" did not say.
type bodyTimeoutError struct{ timeoutError }

func (e *bodyTimeoutError) Error() string {
	return fmt.Sprintf("the body was cut off: not read whole within %s", e.d)
}

// ranOutError is the error of a request cut off by its caller's deadline
// (a rule's trial in the web UI, a feed's check), said as feeds test says a
// trial's item cut off. It is context.DeadlineExceeded.
type ranOutError struct{}

func (ranOutError) Error() string { return "cut off when time ran out" }

// Is makes a ranOutError context.DeadlineExceeded.
func (ranOutError) Is(target error) bool { return target == context.DeadlineExceeded }

// timedOut is err, a request's to url, or when the request ran out of
// time, that said: the caller's deadline passed (ranOutError), or, once the
// answer had come (body true), the request's clock ran out as its body was
// read (bodyTimeoutError).
func timedOut(ctx context.Context, err error, url string, body bool) error {
	var te *timeoutError
	switch {
	case err == nil:
		return nil
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%s: %w", ShownURL(url), ranOutError{})
	case body && errors.As(err, &te):
		return fmt.Errorf("%s: %w", ShownURL(url), &bodyTimeoutError{*te})
	}
	return err
}

// start starts the clock with what is left of it.
func (t *turn) start() {
	if t.timeout <= 0 {
		return
	}
	t.started = time.Now()
	t.clock = time.AfterFunc(t.left, func() { t.cancel(&timeoutError{t.timeout}) })
}

// stop stops the clock, and reports whether time was left.
func (t *turn) stop() bool {
	if t.clock == nil {
		return true
	}
	stopped := t.clock.Stop()
	t.clock = nil
	t.left -= time.Since(t.started)
	return stopped && t.left > 0
}

// turnKey is the key of a request's *turn in its context.
type turnKey struct{}

// end gives the turn back, if one is held.
func (t *turn) end() {
	if t.release != nil {
		t.release()
		t.release = nil
	}
}

// redirect is the client's CheckRedirect: the redirects' rule (at most
// maxRedirects, to http and https alone), then the next hop's turn at its
// host's gate, the last hop's given back first. Every hop waits for its
// host's turn and its delay, and meets its host's pause, as a first
// request does: a feed proxy's or a short link's redirect reached the site
// it names outside its turn, the gate taken for the first host alone.
func (f *fetcher) redirect(req *http.Request, via []*http.Request) error {
	if len(via) > f.maxRedirects {
		return fmt.Errorf("%w (%d)", ErrTooManyHops, len(via))
	}
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return fmt.Errorf("%w: a redirect to %q", errUnsupportedS, ShownURL(req.URL.String()))
	}
	t, ok := req.Context().Value(turnKey{}).(*turn)
	if !ok {
		panic("watch: a request without its turn at the host gate") // once gives every request one
	}
	if !t.stop() {
		return &timeoutError{t.timeout}
	}
	t.end()
	release, err := f.gate.acquire(req.Context(), hostKey(req.URL))
	if err != nil {
		return err
	}
	t.release = release
	t.start()
	return nil
}

// get fetches r. A 403 to the configured User-Agent is retried once with
// the browser-like one. A 429 or 503 with Retry-After is ErrRetryLater, and
// the host is left alone until then.
func (f *fetcher) get(ctx context.Context, r request) (*response, error) {
	resp, err := f.once(ctx, r)
	if err == nil && resp.status == http.StatusForbidden && !r.browser && f.browserUA != "" {
		r.browser = true
		resp, err = f.once(ctx, r)
	}
	if err != nil {
		return nil, err
	}
	switch {
	case resp.notModified && !resp.conditional:
		return resp, &statusError{code: resp.status, url: resp.url, note: unaskedNotModified}
	case resp.notModified:
	case resp.status < 200 || resp.status > 299:
		return resp, &statusError{code: resp.status, url: resp.url}
	}
	return resp, nil
}

// once makes one request, each of its hops under its host's gate (see
// redirect). A Retry-After pauses the host that answered, a redirect's
// target rather than the host first asked.
func (f *fetcher) once(ctx context.Context, r request) (*response, error) {
	hctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	t := &turn{timeout: f.timeout, left: f.timeout, cancel: cancel}
	defer t.end()
	defer t.stop()
	req, err := f.build(context.WithValue(hctx, turnKey{}, t), r)
	if err != nil {
		return nil, err
	}
	if t.release, err = f.gate.acquire(ctx, hostKey(req.URL)); err != nil {
		return nil, timedOut(ctx, err, r.url, false) // cut off waiting for the host's turn
	}
	t.start()
	hr, err := f.client.Do(req)
	if err != nil {
		var rl *retryLater
		if errors.As(err, &rl) {
			return nil, rl // a redirect's host is paused
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			// The client shows a password as "***"; the watcher's
			// messages show it as ShownURL does, "xxxxx".
			ue.URL = ShownURL(ue.URL)
		}
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, timedOut(ctx, err, r.url, false)
		}
		return nil, refused(redirectFailed(err, r.url), req.URL.String())
	}
	defer hr.Body.Close()
	resp, err := f.handle(hr)
	err = timedOut(ctx, err, hr.Request.URL.String(), true)
	if resp != nil {
		resp.browser = r.browser
		if wait, ok := retryAfter(hr); ok && (hr.StatusCode == http.StatusTooManyRequests || hr.StatusCode == http.StatusServiceUnavailable) {
			until, host := time.Now().Add(wait), hostKey(hr.Request.URL)
			f.gate.notBefore(host, until)
			return resp, &retryLater{what: ShownURL(resp.url), host: host, wait: wait, until: until}
		}
	}
	return resp, err
}

// refused is err, or when it is a refusal of the outbound rule, that
// refusal with the URL asked, and the redirect's target refused when it
// was one ("http://a.example/x: redirected to http://10.0.0.5/y: refused:
// ..."), and nothing of the connection: neither the address a name
// resolved to nor anything from it reaches the stored detail. It named
// the redirect's target alone, which said not which item's link it was.
// A host name that does not resolve is said so too ("http://a.example/x:
// the host name does not resolve"), without the resolver's address that
// Go's error named.
func refused(err error, asked string) error {
	var re *outbound.RefusedError
	var nr *outbound.UnresolvedError
	var cause error
	switch {
	case errors.As(err, &re):
		cause = re
	case errors.As(err, &nr):
		cause = nr
	default:
		return err
	}
	var ue *url.Error
	switch shown := ShownURL(asked); {
	case !errors.As(err, &ue):
		return cause
	case ue.URL != shown:
		return fmt.Errorf("%s: redirected to %s: %w", shown, ue.URL, cause)
	default:
		return fmt.Errorf("%s: %w", shown, cause)
	}
}

// redirectFailed is err, or when the redirects' rule stopped the request
// (too many, another scheme), that error after the URL asked for, as
// shown (ShownURL): the client's error named the last Location header as
// sent, a relative one as it stood (Get "/feed": watch: too many
// redirects), which said neither which feed nor where.
func redirectFailed(err error, asked string) error {
	var ue *url.Error
	if !errors.As(err, &ue) || !(errors.Is(err, ErrTooManyHops) || errors.Is(err, errUnsupportedS)) {
		return err
	}
	return fmt.Errorf("%s: %w", ShownURL(asked), ue.Err)
}

// build makes the request: the User-Agent, the encodings the fetcher
// decodes, and the conditional headers of the last answer.
func (f *fetcher) build(ctx context.Context, r request) (*http.Request, error) {
	u, err := url.Parse(r.url)
	switch {
	case err != nil:
		return nil, fmt.Errorf("watch: %q: %w", ShownURL(r.url), parseError(r.url))
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("%w: %q", errUnsupportedS, ShownURL(r.url))
	case u.Host == "":
		return nil, fmt.Errorf("%w: %q", errNoHostInURL, ShownURL(r.url))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.url, nil)
	if err != nil {
		return nil, err
	}
	ua := f.userAgent
	if r.browser {
		ua = f.browserUA
	}
	req.Header.Set("User-Agent", ua)
	req.Header.Set("Accept-Encoding", "gzip, deflate, br")
	req.Header.Set("Accept", "application/rss+xml, application/atom+xml, application/feed+json, application/xml, text/html;q=0.9, */*;q=0.8")
	if r.etag != "" {
		req.Header.Set("If-None-Match", r.etag)
	}
	if r.lastModified != "" {
		req.Header.Set("If-Modified-Since", r.lastModified)
	}
	return req, nil
}

// handle reads a response: its validators, and its body bounded before
// and after decompression.
func (f *fetcher) handle(hr *http.Response) (*response, error) {
	resp := &response{url: hr.Request.URL.String(), status: hr.StatusCode, contentType: hr.Header.Get("Content-Type"),
		etag: hr.Header.Get("ETag"), lastModified: hr.Header.Get("Last-Modified")}
	if hr.StatusCode == http.StatusNotModified {
		resp.notModified = true
		resp.conditional = hr.Request.Header.Get("If-None-Match") != "" || hr.Request.Header.Get("If-Modified-Since") != ""
		return resp, nil
	}
	if hr.ContentLength > f.maxBytes {
		return resp, fmt.Errorf("%w: %s declares %d bytes, the limit is %d", ErrTooLarge, ShownURL(resp.url), hr.ContentLength, f.maxBytes)
	}
	body, err := decoder(&capReader{r: hr.Body, limit: f.maxBytes}, hr.Header.Get("Content-Encoding"))
	if err == nil {
		resp.body, err = readLimited(body, f.maxBytes)
	}
	if err != nil {
		return resp, fmt.Errorf("%s: %w", ShownURL(resp.url), err)
	}
	return resp, nil
}

// capReader reads r, and fails with ErrTooLarge once it has more than
// limit bytes to give: a body over the limit as sent, told apart from one
// cut short. A limit that merely ended the reading (io.LimitReader) left
// an over-long compressed body cut in the middle of its stream, which the
// decompressor reported as "unexpected EOF", an error tried again, rather
// than a body too large, whose outcome is final.
type capReader struct {
	r     io.Reader
	limit int64 // the most bytes it gives
	n     int64 // the bytes read, one more than limit once it failed
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.n > c.limit {
		return 0, c.tooLarge()
	}
	if int64(len(p)) > c.limit-c.n+1 {
		p = p[:c.limit-c.n+1] // a byte past the limit tells an over-long body
	}
	n, err := c.r.Read(p)
	if c.n += int64(n); c.n > c.limit {
		return n - 1, c.tooLarge()
	}
	return n, err
}

func (c *capReader) tooLarge() error {
	return fmt.Errorf("%w of %d bytes as sent", ErrTooLarge, c.limit)
}

// readLimited reads r whole, failing past limit bytes.
func readLimited(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%w of %d bytes", ErrTooLarge, limit)
	}
	return b, nil
}

// maxEncodings is the most content encodings a body may list (curl's
// limit): a server compresses once, twice by mistake. Each one is a
// decompressor of tens of kilobytes, made before a byte is read, so that a
// header of 10 MB of "deflate, deflate, ..." was a million of them, and
// gigabytes, from one answer.
const maxEncodings = 5

// decoder undoes a body's content encodings as it is read, the last
// applied first. The caller bounds what it reads of the result, so that a
// small compressed body that inflates to gigabytes is read only up to the
// limit: inflating as it reads, the fetcher never holds more. More than
// maxEncodings encodings are refused before any decompressor is made.
func decoder(r io.Reader, encoding string) (io.Reader, error) {
	if n := strings.Count(encoding, ",") + 1; n > maxEncodings { // counted before any is split out
		return nil, fmt.Errorf("%w: %d encodings, more than %d", errBadEncoding, n, maxEncodings)
	}
	encs := strings.Split(encoding, ",")
	for i := len(encs) - 1; i >= 0; i-- {
		switch e := strings.ToLower(strings.TrimSpace(encs[i])); e {
		case "", "identity":
		case "gzip", "x-gzip":
			zr, err := gzip.NewReader(r)
			if err != nil {
				return nil, fmt.Errorf("inflating: %w", err)
			}
			r = zr
		case "deflate":
			zr, err := inflater(r)
			if err != nil {
				return nil, fmt.Errorf("inflating: %w", err)
			}
			r = zr
		case "br":
			r = brotli.NewReader(r)
		default:
			return nil, fmt.Errorf("%w %q", errBadEncoding, e)
		}
	}
	return r, nil
}

// inflater undoes "deflate": a zlib stream, as HTTP defines it (RFC 9110,
// 8.4.1.2), or a raw deflate stream, as many servers send it; browsers
// take both. A zlib stream starts with a header of two bytes whose
// compression method is 8 and which, read as a big-endian number, is a
// multiple of 31 (and no preset dictionary, which HTTP does not use); a
// raw stream can start so only by chance, and seldom.
func inflater(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	if h, err := br.Peek(2); err == nil && h[0]&0x0f == 8 && h[0]>>4 <= 7 && h[1]&0x20 == 0 && (uint16(h[0])<<8|uint16(h[1]))%31 == 0 {
		return zlib.NewReader(br)
	}
	return flate.NewReader(br), nil
}

// maxRetryAfter bounds the pause a Retry-After asks for: a longer one (a
// date years ahead, by a server's mistake, or more seconds than a
// time.Duration holds) is taken for a day, so that it cannot stop a host
// and its feeds for good.
const maxRetryAfter = 24 * time.Hour

// retryAfter reads a Retry-After header: seconds or an HTTP date, at most
// maxRetryAfter ahead.
func retryAfter(hr *http.Response) (time.Duration, bool) {
	v := strings.TrimSpace(hr.Header.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseUint(v, 10, 64); err == nil || errors.Is(err, strconv.ErrRange) { // out of range: the largest
		return time.Duration(min(s, uint64(maxRetryAfter/time.Second))) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(time.Until(t), 0), maxRetryAfter), true
	}
	return 0, false
}

// hostGate lets one request at a time go to each host, delay after the
// previous one ended, and none before a time a host asked for. It forgets
// a host once nothing of it is left to keep (no request out or waiting,
// its delay and Retry-After passed), so that feeds linking to ever new
// hosts do not grow it for as long as the watcher runs.
type hostGate struct {
	delay   time.Duration
	mu      sync.Mutex
	hosts   map[string]*hostState
	sweepAt int // the number of hosts at which the next sweep is made
}

type hostState struct {
	busy  chan struct{} // holds a token while a request is out
	next  time.Time     // no request before
	until time.Time     // Retry-After
	refs  int           // acquires under way, under hostGate.mu
}

// minSweep is the fewest hosts a hostGate holds before it forgets idle
// ones; it sweeps again when the hosts it kept have doubled, so that a
// sweep costs a constant time per host added.
const minSweep = 1024

func newHostGate(delay time.Duration) *hostGate {
	return &hostGate{delay: delay, hosts: map[string]*hostState{}, sweepAt: minSweep}
}

// state returns the host's state, made if need be, held until done.
func (g *hostGate) state(host string) *hostState {
	g.mu.Lock()
	defer g.mu.Unlock()
	h := g.lookup(host)
	h.refs++
	return h
}

// lookup returns the host's state, made if need be; g.mu is held.
func (g *hostGate) lookup(host string) *hostState {
	h, ok := g.hosts[host]
	if !ok {
		if len(g.hosts) >= g.sweepAt {
			g.sweep(time.Now())
			g.sweepAt = max(2*len(g.hosts), minSweep)
		}
		h = &hostState{busy: make(chan struct{}, 1)}
		g.hosts[host] = h
	}
	return h
}

// sweep forgets the hosts no acquire holds whose delay and Retry-After
// have passed: their state is what a new one would be. g.mu is held.
func (g *hostGate) sweep(now time.Time) {
	for host, h := range g.hosts {
		if h.refs == 0 && !now.Before(h.next) && !now.Before(h.until) {
			delete(g.hosts, host)
		}
	}
}

// done ends what state began.
func (g *hostGate) done(h *hostState) {
	g.mu.Lock()
	h.refs--
	g.mu.Unlock()
}

// acquire waits for the host's turn; release ends it.
func (g *hostGate) acquire(ctx context.Context, host string) (release func(), err error) {
	h := g.state(host)
	select {
	case h.busy <- struct{}{}:
	case <-ctx.Done():
		g.done(h)
		return nil, ctx.Err()
	}
	g.mu.Lock()
	until := h.until
	wait, later := time.Until(h.next), time.Until(until)
	g.mu.Unlock()
	if later > maxPauseWait { // the host asked for a pause: come back next pass
		<-h.busy
		g.done(h)
		return nil, &retryLater{what: host, host: host, wait: later, until: until, unasked: true}
	}
	if wait = max(wait, later); wait > 0 { // the end of a pause is waited for
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			<-h.busy
			g.done(h)
			return nil, ctx.Err()
		}
	}
	return func() {
		g.mu.Lock()
		h.next = time.Now().Add(g.delay)
		g.mu.Unlock()
		<-h.busy
		g.done(h)
	}, nil
}

// maxPauseWait is the longest rest of a host's pause (Retry-After) a
// request waits for; a longer one refuses it, to be tried on a later pass.
const maxPauseWait = 10 * time.Second

// notBefore keeps requests away from host until t.
func (g *hostGate) notBefore(host string, t time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if h := g.lookup(host); t.After(h.until) {
		h.until = t
	}
}
