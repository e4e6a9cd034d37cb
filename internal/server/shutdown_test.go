package server

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestShutdownGrace: the shutdown waits by default as long as the
// timeouts let a request take, the longer of the read timeout and the
// headers' 10 s plus the write timeout, so that a request begun before the
// stop can be answered whatever the timeouts given. Regression: it waited
// 30 s whatever they were, and cut off a slow upload under
// --read-timeout 3min.
func TestShutdownGrace(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
		want time.Duration
	}{
		{"defaults", Options{}, 70 * time.Second},
		{"a long write timeout", Options{ReadTimeout: 3 * time.Minute, WriteTimeout: 5 * time.Minute}, 5*time.Minute + 10*time.Second},
		{"a long read timeout", Options{ReadTimeout: 10 * time.Minute, WriteTimeout: time.Minute}, 10 * time.Minute},
		{"short timeouts", Options{ReadTimeout: time.Second, WriteTimeout: time.Second}, 11 * time.Second},
		{"given", Options{ReadTimeout: 10 * time.Minute, ShutdownTimeout: time.Second}, time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.o.withDefaults().ShutdownTimeout; got != tc.want {
				t.Errorf("grace %v, want %v", got, tc.want)
			}
		})
	}
}

// TestShutdownWithARequestUnderWay: a server told to stop while a client
// is still sending a document answers it when it comes within the grace,
// and returns nil; past the grace it cuts the request off, logs how many
// it cut off and returns a *CutOffError saying so. Regression: a request
// cut off was told by nothing but the context's "deadline exceeded".
func TestShutdownWithARequestUnderWay(t *testing.T) {
	for _, tc := range []struct {
		name   string
		grace  time.Duration // 0: the default, as the timeouts let a request take
		cutOff bool
	}{
		{"answered within the grace", 0, false},
		{"cut off past the grace", 50 * time.Millisecond, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs lockedBuffer
			ts := newTestServer(t, "sqlite", Options{ShutdownTimeout: tc.grace, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			ctx, stop := context.WithCancel(t.Context())
			defer stop()
			served := make(chan error, 1)
			go func() { served <- ts.Serve(ctx, ln) }()

			// The client sends the document's first half, then waits.
			body, rest := io.Pipe()
			defer rest.Close()
			r, _ := http.NewRequest("POST", "http://"+ln.Addr().String()+"/v1/documents", body)
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Authorization", "Bearer "+token)
			type answer struct {
				code int
				data []byte
				err  error
			}
			answered := make(chan answer, 1)
			go func() {
				resp, err := http.DefaultClient.Do(r)
				if err != nil {
					answered <- answer{err: err}
					return
				}
				defer resp.Body.Close()
				data, err := io.ReadAll(resp.Body)
				answered <- answer{resp.StatusCode, data, err}
			}()
			doc := docJSON("slow", story(1, 8), "")
			if _, err := io.WriteString(rest, doc[:len(doc)/2]); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the request under way", func() bool { return ts.active.count() == 1 })
			stop()
			waitFor(t, "the listener closed", func() bool {
				c, err := net.Dial("tcp", ln.Addr().String())
				if err == nil {
					c.Close()
				}
				return err != nil
			})
			if !tc.cutOff {
				if _, err := io.WriteString(rest, doc[len(doc)/2:]); err != nil {
					t.Fatal(err)
				}
				rest.Close()
				if a := <-answered; a.err != nil || a.code != 200 || !strings.Contains(string(a.data), `"status":"added"`) {
					t.Errorf("the request under way: %d %s %v, want it added", a.code, a.data, a.err)
				}
				if err := <-served; err != nil {
					t.Errorf("serve: %v, want nil", err)
				}
				if st, err := ts.x.Stats(t.Context()); err != nil || st.Documents != 1 {
					t.Errorf("stored %d documents (%v), want 1", st.Documents, err)
				}
				return
			}
			err = <-served
			var co *CutOffError
			if !errors.As(err, &co) || co.Requests != 1 || co.Grace != tc.grace ||
				!strings.Contains(err.Error(), "1 request under way cut off unanswered when the shutdown's grace of 50ms ended") {
				t.Errorf("serve: %v, want 1 request cut off after 50ms", err)
			}
			if !strings.Contains(logs.String(), `requests under way cut off, unanswered" requests=1 grace=50ms`) {
				t.Errorf("no log line says a request was cut off:\n%s", logs.String())
			}
			rest.Close()
			if a := <-answered; a.err == nil {
				t.Errorf("the request cut off was answered: %d %s", a.code, a.data)
			}
		})
	}
}

// waitFor waits up to 30 s for done, naming what it waits for when it
// does not come.
func waitFor(t *testing.T, what string, done func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !done(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited in vain for %s", what)
		}
	}
}

// lockedBuffer is a bytes.Buffer that a server's log and a test may use at
// once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
