package watch

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
)

func testFetcher(mut func(*Options)) *fetcher {
	o := testOptions()
	if mut != nil {
		mut(&o)
	}
	o = o.withDefaults()
	return newFetcher(&o)
}

// TestContentEncodings covers each encoding the fetcher asks for, and
// "deflate" both as HTTP defines it, a zlib stream (RFC 9110), and as
// servers often send it, raw: the zlib stream was "flate: corrupt input
// before offset 5", the feed's failure or the page's error.
func TestContentEncodings(t *testing.T) {
	s := newSite(t)
	body := strings.Repeat("<p>The same paragraph, over and over.</p>\n", 200)
	encoders := map[string]struct {
		header string
		enc    func(io.Writer) io.WriteCloser
	}{
		"gzip":        {"gzip", func(w io.Writer) io.WriteCloser { return gzip.NewWriter(w) }},
		"deflate":     {"deflate", func(w io.Writer) io.WriteCloser { fw, _ := flate.NewWriter(w, flate.BestSpeed); return fw }},
		"zlibDeflate": {"deflate", func(w io.Writer) io.WriteCloser { return zlib.NewWriter(w) }},
		"br":          {"br", func(w io.Writer) io.WriteCloser { return brotli.NewWriter(w) }},
	}
	f := testFetcher(nil)
	for name, e := range encoders {
		s.handle("/"+name, func(rw http.ResponseWriter, r *http.Request) {
			if !strings.Contains(r.Header.Get("Accept-Encoding"), e.header) {
				t.Errorf("Accept-Encoding %q lacks %s", r.Header.Get("Accept-Encoding"), e.header)
			}
			rw.Header().Set("Content-Encoding", e.header)
			zw := e.enc(rw)
			io.WriteString(zw, body)
			zw.Close()
		})
		resp, err := f.get(t.Context(), request{url: s.URL + "/" + name})
		if err != nil || string(resp.body) != body {
			t.Errorf("%s: %v, %+v", name, err, resp)
		}
	}
}

// zeros is an endless reader of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

func TestDecompressionBomb(t *testing.T) {
	s := newSite(t)
	sent := make(chan int64, 1)
	// Ten gigabytes of zeros, gzip-compressed as they are sent: the
	// fetcher must stop reading at its limit, not inflate them all.
	s.handle("/bomb", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/html")
		rw.Header().Set("Content-Encoding", "gzip")
		rw.WriteHeader(http.StatusOK)
		rw.(http.Flusher).Flush() // the headers at once: compressing to the first flush is slow under -race
		cw := &countWriter{w: rw}
		zw, _ := gzip.NewWriterLevel(cw, gzip.BestCompression)
		io.Copy(zw, io.LimitReader(zeros{}, 10<<30))
		zw.Close()
		sent <- cw.n
	})
	f := testFetcher(func(o *Options) { o.MaxBytes = 1 << 20 })
	start := time.Now()
	_, err := f.get(t.Context(), request{url: s.URL + "/bomb"})
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("got %v, want ErrTooLarge", err)
	}
	if n := <-sent; n > 64<<20 {
		t.Errorf("the server sent %d compressed bytes before the fetcher stopped", n)
	}
	t.Logf("stopped after %s", time.Since(start))
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func TestSizeLimits(t *testing.T) {
	s := newSite(t)
	big := strings.Repeat("x", 2<<20)
	s.serve("/declared", "text/html", big) // with a Content-Length
	s.handle("/chunked", func(rw http.ResponseWriter, r *http.Request) {
		for range 4 {
			io.WriteString(rw, big[:1<<20])
			rw.(http.Flusher).Flush()
		}
	})
	f := testFetcher(func(o *Options) { o.MaxBytes = 1 << 20 })
	for _, p := range []string{"/declared", "/chunked"} {
		if _, err := f.get(t.Context(), request{url: s.URL + p}); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: %v, want ErrTooLarge", p, err)
		}
	}
}

// TestCompressedOverLimitWithoutLength pins the reviewer's finding that a
// compressed body over the limit as sent, without a Content-Length, was
// "unexpected EOF", an error tried again on the next passes, where the
// same body with one was too large, final: the raw body was cut at the
// limit before it was inflated, and the inflater saw a truncated stream.
// A body that is cut short is still an error, not too large.
func TestCompressedOverLimitWithoutLength(t *testing.T) {
	const limit = 64 << 10
	noise := make([]byte, 3*limit) // incompressible: larger than the limit as sent too
	rand.NewChaCha8([32]byte{1}).Read(noise)
	compress := func(enc string, b []byte) []byte {
		var buf bytes.Buffer
		var zw io.WriteCloser
		switch enc {
		case "gzip":
			zw = gzip.NewWriter(&buf)
		case "deflate":
			zw = zlib.NewWriter(&buf)
		case "br":
			zw = brotli.NewWriter(&buf)
		}
		zw.Write(b)
		zw.Close()
		return buf.Bytes()
	}
	s := newSite(t)
	for _, enc := range []string{"gzip", "deflate", "br"} {
		whole, small := compress(enc, noise), compress(enc, noise[:limit/2])
		s.handle("/"+enc+"/over", func(rw http.ResponseWriter, r *http.Request) {
			rw.Header().Set("Content-Encoding", enc)
			for b := whole; len(b) > 0; b = b[min(len(b), 4096):] { // chunked: no Content-Length
				rw.Write(b[:min(len(b), 4096)])
				rw.(http.Flusher).Flush()
			}
		})
		s.handle("/"+enc+"/cut", func(rw http.ResponseWriter, r *http.Request) {
			rw.Header().Set("Content-Encoding", enc)
			rw.Header().Set("Content-Length", fmt.Sprint(len(small)))
			rw.Write(small[:len(small)/2]) // the connection closes before the rest
		})
	}
	f := testFetcher(func(o *Options) { o.MaxBytes = limit })
	for _, enc := range []string{"gzip", "deflate", "br"} {
		t.Run(enc, func(t *testing.T) {
			if _, err := f.get(t.Context(), request{url: s.URL + "/" + enc + "/over"}); !errors.Is(err, ErrTooLarge) {
				t.Errorf("over the limit as sent, no Content-Length: %v, want ErrTooLarge", err)
			}
			if _, err := f.get(t.Context(), request{url: s.URL + "/" + enc + "/cut"}); err == nil || errors.Is(err, ErrTooLarge) {
				t.Errorf("cut short: %v, want an error, not ErrTooLarge", err)
			}
		})
	}
}

func TestRedirects(t *testing.T) {
	s := newSite(t)
	for i := range 8 {
		s.handle(fmt.Sprintf("/r%d", i), func(rw http.ResponseWriter, r *http.Request) {
			http.Redirect(rw, r, fmt.Sprintf("/r%d", i+1), http.StatusMovedPermanently)
		})
	}
	s.serve("/r8", "text/html", "<p>here</p>")
	f := testFetcher(nil)
	if _, err := f.get(t.Context(), request{url: s.URL + "/r3"}); err != nil {
		t.Errorf("five redirects: %v", err)
	}
	resp, err := f.get(t.Context(), request{url: s.URL + "/r0"})
	if !errors.Is(err, ErrTooManyHops) {
		t.Errorf("eight redirects: %v, %+v", err, resp)
	}
	// The error names the URL asked for; it named the last relative
	// Location as sent: Get "/r6": watch: too many redirects (6).
	if want := s.URL + "/r0: "; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("eight redirects: %v, want it to start %q", err, want)
	}
	resp, err = f.get(t.Context(), request{url: s.URL + "/r7"})
	if err != nil || resp.url != s.URL+"/r8" {
		t.Errorf("the final URL: %+v %v", resp, err)
	}
}

// A redirect to another scheme than http or https (file:, ftp:, gopher:)
// is the fetch's final failure naming the scheme's rule, as a link of that
// scheme is, and never followed. It was the client's "unsupported protocol
// scheme", which the watcher took for a failure that may pass and tried on
// the next two passes.
func TestRedirectToOtherScheme(t *testing.T) {
	s := newSite(t)
	for _, to := range []string{"file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://127.0.0.1:70/x", "javascript:alert(1)"} {
		s.handle("/hop", func(rw http.ResponseWriter, r *http.Request) {
			rw.Header().Set("Location", to)
			rw.WriteHeader(http.StatusFound)
		})
		_, err := testFetcher(nil).get(t.Context(), request{url: s.URL + "/hop"})
		if !errors.Is(err, errUnsupportedS) || transient(err) {
			t.Errorf("a redirect to %s: %v (transient %v), want a final errUnsupportedS", to, err, transient(err))
		}
	}
}

func TestTimeouts(t *testing.T) {
	t.Parallel() // waits on timers
	s := newSite(t)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	s.handle("/headers", func(rw http.ResponseWriter, r *http.Request) { // never answers
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	s.handle("/trickle", func(rw http.ResponseWriter, r *http.Request) { // a byte now and then, forever
		for {
			if _, err := io.WriteString(rw, "<p>"); err != nil {
				return
			}
			rw.(http.Flusher).Flush()
			select {
			case <-release:
				return
			case <-r.Context().Done():
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	})
	f := testFetcher(func(o *Options) { o.Timeout = 300 * time.Millisecond })
	for _, p := range []string{"/headers", "/trickle"} {
		start := time.Now()
		_, err := f.get(t.Context(), request{url: s.URL + p})
		if err == nil || !transient(err) || time.Since(start) > 5*time.Second {
			t.Errorf("%s: %v after %s", p, err, time.Since(start))
		}
	}
}

func TestHostGate(t *testing.T) {
	t.Parallel() // waits on timers
	s := newSite(t)
	var active, most int
	s.handle("/p", func(rw http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		active++
		most = max(most, active)
		s.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
		s.mu.Lock()
		active--
		s.mu.Unlock()
	})
	f := testFetcher(func(o *Options) { o.HostDelay = 30 * time.Millisecond })
	start := time.Now()
	done := make(chan error)
	for range 4 {
		go func() {
			_, err := f.get(t.Context(), request{url: s.URL + "/p"})
			done <- err
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
	// Four requests one at a time, 20 ms each, 30 ms apart: at least
	// 4×20 + 3×30 ms.
	if took := time.Since(start); most != 1 || took < 170*time.Millisecond {
		t.Errorf("%d requests at once; four took %s", most, took)
	}
}

// The gate forgets the hosts it has nothing left to keep of, and keeps
// those it has: a host's Retry-After, a request out. It kept every host
// ever asked, so that feeds linking to ever new hosts (a subdomain an
// item) grew it for as long as the watcher ran.
func TestHostGateForgets(t *testing.T) {
	g := newHostGate(0)
	g.notBefore("paused.example", time.Now().Add(time.Hour))
	held, err := g.acquire(t.Context(), "held.example")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 * minSweep {
		release, err := g.acquire(t.Context(), fmt.Sprintf("h%d.example", i))
		if err != nil {
			t.Fatal(err)
		}
		release()
	}
	g.mu.Lock()
	n, paused, busy := len(g.hosts), g.hosts["paused.example"], g.hosts["held.example"]
	g.mu.Unlock()
	if n > 2*minSweep {
		t.Errorf("the gate holds %d hosts after %d came and went", n, 20*minSweep)
	}
	if paused == nil || busy == nil {
		t.Errorf("the gate forgot a host's Retry-After (%v) or a host with a request out (%v)", paused != nil, busy != nil)
	}
	if _, err := g.acquire(t.Context(), "paused.example"); !errors.Is(err, ErrRetryLater) {
		t.Errorf("a paused host: %v, want ErrRetryLater", err)
	}
	held()
}

func TestRequestHeaders(t *testing.T) {
	s := newSite(t)
	var got http.Header
	s.handle("/h", func(rw http.ResponseWriter, r *http.Request) { got = r.Header.Clone() })
	f := testFetcher(func(o *Options) { o.UserAgent = "test-bot/2" })
	if _, err := f.get(t.Context(), request{url: s.URL + "/h", etag: `"e1"`, lastModified: "Sun, 01 Nov 2026 08:00:00 GMT"}); err != nil {
		t.Fatal(err)
	}
	if got.Get("User-Agent") != "test-bot/2" || got.Get("If-None-Match") != `"e1"` || got.Get("If-Modified-Since") != "Sun, 01 Nov 2026 08:00:00 GMT" {
		t.Errorf("headers %v", got)
	}
	for _, bad := range []string{"ftp://x/y", "http:///nohost", "::"} {
		if _, err := f.get(t.Context(), request{url: bad}); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestDecodeUnknownEncoding(t *testing.T) {
	if _, err := decoder(strings.NewReader("x"), "compress"); !errors.Is(err, errBadEncoding) {
		t.Errorf("an unknown encoding: %v", err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	io.WriteString(zw, "hello")
	zw.Close()
	r, err := decoder(&buf, "gzip, identity")
	if err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(r); err != nil || string(b) != "hello" {
		t.Errorf("gzip, identity: %q %v", b, err)
	}
}

// A body's encodings are undone up to maxEncodings deep; a longer list is
// refused before any decompressor is made. It was a decompressor for each
// name of the header, made before reading: an answer whose header listed
// "deflate" a million times took gigabytes and killed the process, a feed
// watcher or a server running one.
func TestEncodingChain(t *testing.T) {
	s := newSite(t)
	body := strings.Repeat("<p>The same paragraph, over and over.</p>\n", 200)
	nested := func(n int) []byte {
		b := []byte(body)
		for range n {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write(b)
			zw.Close()
			b = buf.Bytes()
		}
		return b
	}
	for _, n := range []int{maxEncodings, maxEncodings + 1} {
		s.handle(fmt.Sprint("/gzip", n), func(rw http.ResponseWriter, r *http.Request) {
			rw.Header().Set("Content-Encoding", strings.Repeat("gzip, ", n-1)+"gzip")
			rw.Write(nested(n))
		})
	}
	s.handle("/chain", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Encoding", strings.Repeat("deflate, ", 100000)+"deflate")
		rw.Write([]byte("x"))
	})
	f := testFetcher(nil)
	if resp, err := f.get(t.Context(), request{url: fmt.Sprint(s.URL, "/gzip", maxEncodings)}); err != nil || string(resp.body) != body {
		t.Errorf("%d encodings: %v, want the body", maxEncodings, err)
	}
	for _, path := range []string{fmt.Sprint("/gzip", maxEncodings+1), "/chain"} {
		if _, err := f.get(t.Context(), request{url: s.URL + path}); !errors.Is(err, errBadEncoding) {
			t.Errorf("%s: %v, want errBadEncoding", path, err)
		}
	}
	header := strings.Repeat("deflate, ", 100000) + "deflate"
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	decoder(strings.NewReader("x"), header)
	runtime.ReadMemStats(&after)
	// One decompressor a name took about 40 KB each, gigabytes in all.
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Errorf("refusing 100,001 encodings allocated %d bytes", n)
	}
}

// TestHostGateWaitsOutAShortPause: a request to a host at the end of its
// pause (Retry-After) waits for the pause to end, where it was refused and
// counted as a failure.
func TestHostGateWaitsOutAShortPause(t *testing.T) {
	s := newSite(t)
	s.serve("/page", "text/html", "<p>hi</p>")
	f := testFetcher(nil)
	host := strings.TrimPrefix(s.URL, "http://")
	f.gate.notBefore(host, time.Now().Add(300*time.Millisecond))
	start := time.Now()
	if _, err := f.get(t.Context(), request{url: s.URL + "/page"}); err != nil {
		t.Fatalf("a request 300 ms before its host's pause ends: %v", err)
	}
	if took := time.Since(start); took < 250*time.Millisecond {
		t.Errorf("the request went %s after it was made, before the pause ended", took)
	}
	f.gate.notBefore(host, time.Now().Add(time.Hour))
	if _, err := f.get(t.Context(), request{url: s.URL + "/page"}); !errors.Is(err, ErrRetryLater) {
		t.Errorf("a request an hour before the pause ends: %v, want ErrRetryLater", err)
	}
}

// TestRetryAfterBounded: a Retry-After is read as seconds or a date, at
// most maxRetryAfter (a day) ahead. A date decades ahead paused the host,
// and put off the feed's next poll, for decades; more seconds than a
// time.Duration holds overflowed into a pause in the past, and more than
// 64 bits hold were no Retry-After at all: the host was asked again at once.
func TestRetryAfterBounded(t *testing.T) {
	s := newSite(t)
	for _, c := range []struct {
		name, header string
		want         time.Duration // -1: no Retry-After
	}{
		{"seconds", "120", 2 * time.Minute},
		{"zero", "0", 0},
		{"1000 days", "86400000", maxRetryAfter},
		{"past a Duration", "10000000000", maxRetryAfter},
		{"past 64 bits", "99999999999999999999999", maxRetryAfter},
		{"date in 2100", "Fri, 01 Jan 2100 00:00:00 GMT", maxRetryAfter},
		{"date passed", "Mon, 01 Jan 2001 00:00:00 GMT", 0},
		{"not a time", "soon", -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := "/" + strings.ReplaceAll(c.name, " ", "-")
			s.handle(path, func(rw http.ResponseWriter, r *http.Request) {
				rw.Header().Set("Retry-After", c.header)
				http.Error(rw, "slow down", http.StatusTooManyRequests)
			})
			_, err := testFetcher(nil).get(t.Context(), request{url: s.URL + path})
			var rl *retryLater
			switch {
			case c.want < 0:
				if errors.As(err, &rl) || !errors.Is(err, ErrStatus) {
					t.Errorf("Retry-After %q: %v, want a plain 429", c.header, err)
				}
			case !errors.As(err, &rl):
				t.Errorf("Retry-After %q: %v, want ErrRetryLater", c.header, err)
			case rl.wait < c.want-time.Minute || rl.wait > c.want:
				t.Errorf("Retry-After %q: a pause of %s, want %s", c.header, rl.wait, c.want)
			}
		})
	}
}

// TestRedirectWaitsForItsHostsTurn: a redirect to another host (a feed
// proxy's, a short link's) is made in that host's turn, after the request
// that host is answering. The gate was taken for the first URL's host
// alone: the redirect reached the other site while it was busy.
func TestRedirectWaitsForItsHostsTurn(t *testing.T) {
	short, target := newSite(t), newSite(t)
	var active, most int
	count := func(h http.HandlerFunc) http.HandlerFunc {
		return func(rw http.ResponseWriter, r *http.Request) {
			target.mu.Lock()
			active++
			most = max(most, active)
			target.mu.Unlock()
			h(rw, r)
			target.mu.Lock()
			active--
			target.mu.Unlock()
		}
	}
	slow := make(chan struct{})
	target.handle("/slow", count(func(rw http.ResponseWriter, r *http.Request) { <-slow }))
	target.handle("/page", count(func(rw http.ResponseWriter, r *http.Request) { io.WriteString(rw, "<p>here</p>") }))
	short.handle("/s", func(rw http.ResponseWriter, r *http.Request) {
		http.Redirect(rw, r, target.URL+"/page", http.StatusFound)
	})
	f := testFetcher(nil)
	done := make(chan error, 2)
	go func() {
		_, err := f.get(t.Context(), request{url: target.URL + "/slow"})
		done <- err
	}()
	target.waitHit("/slow", 2*time.Second)
	go func() {
		resp, err := f.get(t.Context(), request{url: short.URL + "/s"})
		if err == nil && resp.url != target.URL+"/page" {
			err = fmt.Errorf("the final URL %s", resp.url)
		}
		done <- err
	}()
	short.waitHit("/s", 2*time.Second)
	target.waitHit("/page", 300*time.Millisecond) // the redirect, had it not waited
	close(slow)
	for range 2 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
	if most != 1 || target.hit("/page") != 1 {
		t.Errorf("%d requests at once to the redirect's host, %d of its page", most, target.hit("/page"))
	}
}

// TestRedirectToAPausedHost: a redirect to a host that asked for a pause
// (Retry-After) is refused before it goes out, as a request to that host
// is, and says so (unasked: no try of the item is counted). It went out.
func TestRedirectToAPausedHost(t *testing.T) {
	short, target := newSite(t), newSite(t)
	short.handle("/s", func(rw http.ResponseWriter, r *http.Request) {
		http.Redirect(rw, r, target.URL+"/page", http.StatusFound)
	})
	target.serve("/page", "text/html", "<p>here</p>")
	f := testFetcher(nil)
	host := strings.TrimPrefix(target.URL, "http://")
	f.gate.notBefore(host, time.Now().Add(time.Hour))
	_, err := f.get(t.Context(), request{url: short.URL + "/s"})
	var rl *retryLater
	if !errors.As(err, &rl) || !rl.unasked || rl.host != host || target.hit("/page") != 0 {
		t.Errorf("%v (%+v), %d requests of the paused host, want its pause's refusal and none", err, rl, target.hit("/page"))
	}
}

// TestRedirectWaitIsNotTimed: the time a redirect waits for its host's
// turn is not the request's: Options.Timeout bounds the hops and the body
// read. The client's timeout ran on while the redirect waited for a site
// busy with another request, so a page whose hops each took well under
// the timeout failed with "Client.Timeout exceeded"; a hop that takes
// longer still fails, saying so.
func TestRedirectWaitIsNotTimed(t *testing.T) {
	short, target := newSite(t), newSite(t)
	target.handle("/slow", func(rw http.ResponseWriter, r *http.Request) {
		time.Sleep(1200 * time.Millisecond)
		io.WriteString(rw, "<p>slow</p>")
	})
	target.handle("/page", func(rw http.ResponseWriter, r *http.Request) {
		time.Sleep(500 * time.Millisecond)
		io.WriteString(rw, "<p>here</p>")
	})
	target.handle("/hangs", func(rw http.ResponseWriter, r *http.Request) {
		rw.WriteHeader(http.StatusOK)
		rw.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	short.handle("/s", func(rw http.ResponseWriter, r *http.Request) {
		http.Redirect(rw, r, target.URL+"/page", http.StatusFound)
	})
	short.handle("/h", func(rw http.ResponseWriter, r *http.Request) {
		http.Redirect(rw, r, target.URL+"/hangs", http.StatusFound)
	})
	f := testFetcher(func(o *Options) { o.Timeout = 1500 * time.Millisecond })
	done := make(chan error, 1)
	go func() {
		_, err := f.get(t.Context(), request{url: target.URL + "/slow"})
		done <- err
	}()
	target.waitHit("/slow", 2*time.Second)
	resp, err := f.get(t.Context(), request{url: short.URL + "/s"}) // waits about 1.2 s for the target's turn
	if err != nil || string(resp.body) != "<p>here</p>" {
		t.Errorf("a redirect that waited for its host's turn: %v", err)
	}
	if err := <-done; err != nil {
		t.Error(err)
	}
	start := time.Now()
	_, err = f.get(t.Context(), request{url: short.URL + "/h"}) // the body never ends
	if took := time.Since(start); !errors.Is(err, context.DeadlineExceeded) || took > 3*time.Second {
		t.Errorf("a page whose body hangs: %v after %s, want a timeout after 1.5 s", err, took)
	}
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() || !transient(err) {
		t.Errorf("%v: not a timeout that may pass", err)
	}
}

// TestTimeoutsSaid pins what a request that ran out of time says: a page
// that sent its headers then trickled its body was "no answer within 2s",
// as one that never answered is (see TestTimeouts), and a request cut off
// by its caller's deadline (the web UI's rule trial) gave Go's "context
// deadline exceeded", where feeds test says "cut off when time ran out",
// before the headers, in the body, and waiting for its host's turn (the
// host asked a moment before, the next turn an hour later). The servers
// never finish, whatever the clock; 2s is ample time for the trickled
// page's headers.
func TestTimeoutsSaid(t *testing.T) {
	t.Parallel()
	s := newSite(t)
	s.handle("/headers", func(rw http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	s.handle("/trickle", func(rw http.ResponseWriter, r *http.Request) { // headers and a byte, then nothing
		io.WriteString(rw, "<")
		rw.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	s.handle("/first", func(rw http.ResponseWriter, r *http.Request) { io.WriteString(rw, "<p>first</p>") })
	short := testFetcher(func(o *Options) { o.Timeout = 2 * time.Second })
	long := testFetcher(func(o *Options) { o.Timeout = time.Hour })
	gated := testFetcher(func(o *Options) { o.Timeout, o.HostDelay = time.Hour, time.Hour })
	for _, tc := range []struct {
		name     string
		f        *fetcher
		first    string // a path asked first, without a deadline
		path     string
		deadline bool // the caller's context ends first
		want     string
	}{
		{"body trickled", short, "", "/trickle", false, s.URL + "/trickle: the body was cut off: not read whole within 2s"},
		{"caller's deadline before the headers", long, "", "/headers", true, s.URL + "/headers: cut off when time ran out"},
		{"caller's deadline in the body", long, "", "/trickle", true, s.URL + "/trickle: cut off when time ran out"},
		{"caller's deadline waiting for the host's turn", gated, "/first", "/headers", true,
			s.URL + "/headers: cut off when time ran out"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.first != "" {
				if _, err := tc.f.get(t.Context(), request{url: s.URL + tc.first}); err != nil {
					t.Fatalf("%s: %v", tc.first, err)
				}
			}
			ctx := t.Context()
			if tc.deadline {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, 300*time.Millisecond)
				defer cancel()
			}
			_, err := tc.f.get(ctx, request{url: s.URL + tc.path})
			if err == nil || !strings.HasSuffix(err.Error(), tc.want) || !errors.Is(err, context.DeadlineExceeded) || !transient(err) {
				t.Errorf("%v, want it to end %q, a timeout that may pass", err, tc.want)
			}
		})
	}
}
