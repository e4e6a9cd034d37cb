package main

import (
	"context"
	"net"
	"net/http"
	"syscall"
	"testing"
	"time"
)

// serveInProcess runs `neardup -q serve` with args and --addr a free
// loopback port, in this process, and waits until /readyz answers 200. It
// returns the server's base URL and stop, which stops it as SIGTERM does
// and returns its exit code.
func serveInProcess(t *testing.T, args ...string) (base string, stop func() int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancelCause(t.Context())
	code := make(chan int, 1)
	go func() { code <- run(ctx, append(append([]string{"-q", "serve"}, args...), "--addr", addr)) }()
	base = "http://" + addr
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			cancel(stopSignal{syscall.SIGTERM})
			<-code
			t.Fatal("serve not ready")
		}
	}
	return base, func() int {
		cancel(stopSignal{syscall.SIGTERM})
		return <-code
	}
}
