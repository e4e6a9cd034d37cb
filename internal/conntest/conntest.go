// Package conntest counts the connections a test's HTTP server holds open,
// for tests that check a client closes what it opened.
package conntest

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
)

// Counter counts the open connections of one server.
type Counter struct {
	mu   sync.Mutex
	open map[net.Conn]bool
}

// Track counts the connections of srv, an unstarted server: it sets its
// ConnState.
func Track(srv *httptest.Server) *Counter {
	c := &Counter{open: map[net.Conn]bool{}}
	srv.Config.ConnState = func(conn net.Conn, st http.ConnState) {
		c.mu.Lock()
		defer c.mu.Unlock()
		switch st {
		case http.StateNew:
			c.open[conn] = true
		case http.StateClosed, http.StateHijacked:
			delete(c.open, conn)
		}
	}
	return c
}

// Open returns how many connections are open.
func (c *Counter) Open() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.open)
}

// Settle waits up to d for at most n connections to be open, and returns
// how many are: a server sees a connection closed only when it reads its
// end.
func (c *Counter) Settle(n int, d time.Duration) int {
	for deadline := time.Now().Add(d); c.Open() > n && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	return c.Open()
}
