package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/server"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/watch"
)

// TestServe runs neardup serve as the README shows it: a token file, a new
// index, a document posted with its token and its copy marked; then it
// stops as on SIGTERM and the index holds both documents.
func TestServe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db, tokens := filepath.Join(dir, "news.db"), filepath.Join(dir, "tokens.txt")
	const token = "s3cret-token-for-tests"
	if err := os.WriteFile(tokens, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, stop := context.WithCancelCause(t.Context())
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"-q", "serve", "--db", db, "--addr", addr, "--token-file", tokens, "--host", "neardup.test", "--host", "box.test"})
	}()
	base := "http://" + addr
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(base + "/readyz")
		if err == nil && resp.StatusCode == 200 {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not ready: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	text := strings.Join(enginetest.NewTextGen(3).Sentences(10), " ")
	for i, id := range []string{"a", "b"} {
		r, _ := http.NewRequest("POST", base+"/v1/documents", strings.NewReader(fmt.Sprintf(`{"id": %q, "text": %q}`, id, text)))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || (i == 1) != strings.Contains(string(body), `"label":"duplicate"`) {
			t.Errorf("post %s: %d %s", id, resp.StatusCode, body)
		}
	}
	// On a loopback address it answers its own names and those of --host,
	// and 421 to any other.
	_, port, _ := net.SplitHostPort(addr)
	for host, want := range map[string]int{"localhost:" + port: 200, "neardup.test:" + port: 200, "box.test:" + port: 200,
		"rebound.example:" + port: http.StatusMisdirectedRequest} {
		r, _ := http.NewRequest("GET", base+"/healthz", nil)
		r.Host = host
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %s: %d, want %d", host, resp.StatusCode, want)
		}
	}
	stop(stopSignal{syscall.SIGTERM}) // as SIGTERM stops it: gracefully, exit 0
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("exit code %d", c)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
	st, err := store.Open(t.Context(), db, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.View(t.Context(), func(r store.Reader) error {
		c, err := r.Counts()
		if err != nil || c.Documents != 2 || c.Clusters != 1 {
			t.Errorf("stored %+v %v", c, err)
		}
		m, _, _ := r.Meta()
		if !m.StoreText {
			t.Error("a new served index stores no texts")
		}
		return nil
	})
}

// TestServeRefusesAMissingIndexItCannotWrite: serve without --token-file,
// which takes no writes, of a SQLite index that is not there (a --db
// mistyped) fails naming it, exit 1 as index query and stats, and creates
// nothing; with --watch too, as watch refuses it. With --token-file it
// creates the index (TestServe). Regression: it created a new index, empty,
// and served it, never to be written.
func TestServeRefusesAMissingIndexItCannotWrite(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"reads", nil},
		{"watch", []string{"--watch"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "newz.db")
			cmd := child(t, append([]string{"serve", "--db", db, "--addr", "127.0.0.1:0"}, tc.args...)...)
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Read to the end, as a refusal ends the process; a server
			// that serves is stopped once its log says so.
			var errOut strings.Builder
			lines := bufio.NewScanner(stderr)
			for lines.Scan() {
				errOut.WriteString(lines.Text() + "\n")
				if strings.Contains(lines.Text(), "msg=serving") {
					cmd.Process.Kill()
					t.Errorf("serve served a new index:\n%s", errOut.String())
				}
			}
			err = cmd.Wait()
			want := "neardup: " + db + ": no index there: "
			if code := exitCodeOf(err); !t.Failed() && (code != 1 || !strings.HasPrefix(errOut.String(), want)) {
				t.Errorf("exit %d, stderr:\n%s\nwant 1 and a line beginning %q", code, errOut.String(), want)
			}
			if _, err := os.Stat(db); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s made: %v", db, err)
			}
		})
	}
}

// A server listening beyond this machine says at start what it shows
// there: open reads without --auth-reads, tokens in the clear over HTTP.
// On a loopback address it says nothing.
func TestExposure(t *testing.T) {
	for _, tc := range []struct {
		addr      string
		authReads bool
		tokens    int
		want      []string // "" for no warning
	}{
		{"127.0.0.1:8080", false, 1, nil},
		{"[::1]:8080", false, 0, nil},
		{"127.0.0.2:8080", false, 0, nil},
		{"0.0.0.0:8080", false, 0, []string{"can be read by whoever reaches it", "--auth-reads"}},
		{"[::]:8080", false, 1, []string{"can be read by whoever reaches it", "in the clear"}},
		{"192.168.1.10:8080", true, 1, []string{"in the clear"}},
	} {
		addr, err := net.ResolveTCPAddr("tcp", tc.addr)
		if err != nil {
			t.Fatal(err)
		}
		got := exposure(addr, tc.authReads, tc.tokens)
		if (got == "") != (tc.want == nil) {
			t.Errorf("%s: %q, want a warning: %v", tc.addr, got, tc.want != nil)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", tc.addr, got, w)
			}
		}
		if tc.authReads && strings.Contains(got, "can be read") {
			t.Errorf("%s with --auth-reads: %q", tc.addr, got)
		}
	}
}

// TestServeSaysWatcherStopped: an error that stops the feed watcher of
// serve --watch (its feeds cannot be read: the table is gone) is logged at
// once, the server goes on serving with neardup_watch_up 0, and serve
// ends with the error. It was said only when the server stopped.
func TestServeSaysWatcherStopped(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "news.db")
	x, err := neardup.Open(t.Context(), db, neardup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	sdb, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sdb.ExecContext(t.Context(), `DROP TABLE feeds`); err != nil {
		t.Fatal(err)
	}
	sdb.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, x, server.Options{Logger: log}, ln, true, watch.Options{Logger: log}, log)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(logs.String(), "the feed watcher stopped") {
		if time.Now().After(deadline) {
			t.Fatalf("no log line says the watcher stopped:\n%s", logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	resp, err := http.Get("http://" + ln.Addr().String() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "\nneardup_watch_up 0\n") {
		t.Errorf("metrics after the watcher stopped: %d, want neardup_watch_up 0", resp.StatusCode)
	}
	cancel()
	if err := <-done; err == nil || !strings.Contains(err.Error(), "watching feeds:") {
		t.Errorf("serve ended with %v, want the watcher's error", err)
	}
}

// TestServeFailsWithOneAfterASignal: serve's own failure, here the error
// that stopped its feed watcher, exits 1 when SIGTERM stops the serving,
// as docs/serve.md says, and so do requests cut off past the shutdown's
// grace (TestShutdownWithARequestUnderWay in internal/server).
// Regression: every error after the signal exited 143, "stopped by
// SIGTERM", the code of a batch command stopped, and the failure was not
// said.
func TestServeFailsWithOneAfterASignal(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "news.db")
	x, err := neardup.Open(t.Context(), db, neardup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	x.Close()
	sdb, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sdb.ExecContext(t.Context(), `DROP TABLE feeds`); err != nil {
		t.Fatal(err)
	}
	sdb.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, stop := context.WithCancelCause(t.Context())
	defer stop(nil)
	code := make(chan int, 1)
	go func() { code <- run(ctx, []string{"-q", "serve", "--db", db, "--addr", addr, "--watch"}) }()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the watcher was not seen to stop (neardup_watch_up 0)")
		}
		resp, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(body), "\nneardup_watch_up 0\n") {
			break
		}
	}
	stop(stopSignal{syscall.SIGTERM})
	select {
	case c := <-code:
		if c != 1 {
			t.Errorf("exit code %d, want 1", c)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestCheckAddr pins the reviewer's finding that serve --addr took
// "127.0.0.1: 18479" and "127.0.0.1:+18479" (net.LookupPort trims the one
// and reads a sign in the other) and served on port 18479, where an
// --addr that is not host:port with a port from 0 to 65535 is a mistake
// in the command line, named.
func TestCheckAddr(t *testing.T) {
	for _, tc := range []struct{ name, addr, err string }{
		{"host and port", "127.0.0.1:8080", ""},
		{"port alone", ":8080", ""},
		{"port zero", "127.0.0.1:0", ""},
		{"highest port", "127.0.0.1:65535", ""},
		{"no port", "127.0.0.1:", ""}, // port 0, as net.Listen reads it
		{"ipv6", "[::1]:8080", ""},
		{"service name", "127.0.0.1:http", ""},
		{"space before the port", "127.0.0.1: 18479", `the port " 18479" is not`},
		{"space after the port", "127.0.0.1:18479 ", `the port "18479 " is not`},
		{"plus sign", "127.0.0.1:+18479", `the port "+18479" is not`},
		{"minus sign", "127.0.0.1:-1", `the port "-1" is not`},
		{"out of range", "127.0.0.1:65536", `the port "65536" is not`},
		{"letters after digits", "127.0.0.1:8x", `the port "8x" is not`},
		{"unknown service", "127.0.0.1:no-such-service", `the port "no-such-service" is not`},
		{"not host:port", "nonsense", "want host:port"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkAddr(tc.addr)
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("checkAddr(%q) = %v, want nil", tc.addr, err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("checkAddr(%q) = %v, want an error holding %q", tc.addr, err, tc.err)
			}
		})
	}
}

// TestServeTimeoutFlagsNamed pins serve --write-timeout 0 (and a read or
// idle timeout not above 0) refused as "the timeouts must be positive",
// naming no flag, where every other flag of serve is named. Now each flag
// at fault is named with its value, and exits 2.
func TestServeTimeoutFlagsNamed(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "news.db")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"write zero", []string{"--write-timeout", "0"}, "neardup: --write-timeout must be positive, not 0s\n"},
		{"read zero", []string{"--read-timeout", "0"}, "neardup: --read-timeout must be positive, not 0s\n"},
		{"read negative", []string{"--read-timeout", "-1s"}, "neardup: --read-timeout must be positive, not -1s\n"},
		{"idle zero", []string{"--idle-timeout", "0s"}, "neardup: --idle-timeout must be positive, not 0s\n"},
		{"two at fault", []string{"--idle-timeout", "0s", "--read-timeout", "-2min"},
			"neardup: --read-timeout must be positive, not -2m; --idle-timeout must be positive, not 0s\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"serve", "--db", db, "--addr", "127.0.0.1:0"}, tc.args...)
			code, _, errOut := runChild(t, args...)
			if code != 2 || !strings.HasSuffix(errOut, tc.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant 2 and %q", code, errOut, tc.want)
			}
		})
	}
}

// TestServeWithoutWritesChoosesNoMethod: a server that takes no writes (no
// --token-file, no --watch) refuses an index of feeds alone, saying why,
// and leaves the choice of method to the first add. Regression: it chose
// its --method (or the default) for good, and index add of another
// method was then refused.
func TestServeWithoutWritesChoosesNoMethod(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "feeds.db")
	runOK(t, "feeds", "add", "--db", db, "--no-check", "http://feeds.example/rss.xml")
	cmd := child(t, "serve", "--db", db, "--method", "simhash", "--addr", "127.0.0.1:0")
	var errOut strings.Builder
	cmd.Stderr = &errOut
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if code := exitCodeOf(err); code != 1 || !strings.Contains(errOut.String(), "no method chosen yet") ||
			!strings.Contains(errOut.String(), "--token-file or --watch") {
			t.Errorf("exit %d, stderr:\n%s\nwant 1, saying no method is chosen and what chooses it", code, errOut.String())
		}
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		t.Fatalf("serve served an index of feeds alone:\n%s", errOut.String())
	}
	corpus, _ := writeCorpus(t, t.TempDir(), 6)
	runOK(t, "index", "add", "--db", db, "--method", "sentences", corpus)
}
