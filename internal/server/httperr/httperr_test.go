package httperr_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/server/httperr"
	"github.com/neardup/neardup/internal/watch"
)

// TestStatus pins the one mapping of errors to statuses that the API and
// the web UI share. Two cases were answered differently by each before
// they shared it: a request its client cancelled (now 499, the client's
// doing, in both) and a write to a read-only index (now 403 in both).
func TestStatus(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	for _, tc := range []struct {
		name  string
		err   error
		want  int
		field string
		msg   string
	}{
		{"own", httperr.Errorf(http.StatusTeapot, "f", "brewing"), http.StatusTeapot, "f", "brewing"},
		{"cancelled", fmt.Errorf("adding: %w", context.Canceled), httperr.StatusClientClosed, "", "cancelled"},
		{"read-only", fmt.Errorf("adding: %w", neardup.ErrReadOnly), http.StatusForbidden, "", "cannot be written"},
		{"deadline", fmt.Errorf("adding: %w", context.DeadlineExceeded), http.StatusServiceUnavailable, "", "try again"},
		{"too long", fmt.Errorf("%w (1m0s)", httperr.ErrTooLong), http.StatusServiceUnavailable, "", "--write-timeout (1m0s)"},
		{"locked", fmt.Errorf("writing: %w", neardup.ErrLocked), http.StatusServiceUnavailable, "", "try again"},
		{"closing", httperr.ErrClosing, http.StatusServiceUnavailable, "", "shutting down"},
		{"not found", fmt.Errorf("%w: no document %q", neardup.ErrNotFound, "x"), http.StatusNotFound, "", `no document "x"`},
		{"no feed", fmt.Errorf("%w: https://a.example/rss", watch.ErrNoFeed), http.StatusNotFound, "", "https://a.example/rss"},
		{"exists", fmt.Errorf("%w: feed x", neardup.ErrExists), http.StatusConflict, "", "feed x"},
		{"query", fmt.Errorf("%w: empty", neardup.ErrQuery), http.StatusBadRequest, "q", "q: empty"},
		{"unstorable", fmt.Errorf("adding: %w", &neardup.UnstorableError{Doc: 1, ID: "a", Field: "text", Why: "is not UTF-8"}),
			http.StatusBadRequest, "text", "text is not UTF-8"},
		{"too large", &http.MaxBytesError{Limit: 10}, http.StatusRequestEntityTooLarge, "", "10 bytes"},
		{"unreachable", fmt.Errorf("failed to connect to `user=x`: dial error: %w", refused), http.StatusServiceUnavailable, "", "cannot be reached"},
		{"settings changed", fmt.Errorf("querying: %w", neardup.ErrSettingsChanged), http.StatusServiceUnavailable, "", "restarted"},
		{"other", errors.New("disk on fire at /var/x"), http.StatusInternalServerError, "", "log"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := httperr.Status(tc.err)
			if e.Status != tc.want || e.Field != tc.field || !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("%v: %d %q field %q, want %d containing %q field %q", tc.err, e.Status, e.Msg, e.Field, tc.want, tc.msg, tc.field)
			}
			if strings.Contains(e.Msg, "dial") || strings.Contains(e.Msg, "user=") || strings.Contains(e.Msg, "/var") {
				t.Errorf("%q names internals", e.Msg)
			}
		})
	}
}
