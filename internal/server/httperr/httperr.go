// Package httperr is the one place where errors become HTTP statuses, for
// the JSON API and the web UI alike: an *Error says its own status and the
// request field it is about; the index's errors map to theirs; anything
// else is a 500 whose message names no internals (the caller logs it).
package httperr

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/watch"
	"github.com/neardup/neardup/method/rarewords"
)

// Error is an error with its HTTP status and the request field it is
// about; what an API client sees as {"error": ..., "field": ...}.
type Error struct {
	Status int    `json:"-"`
	Msg    string `json:"error"`
	Field  string `json:"field,omitempty"`
}

func (e *Error) Error() string { return e.Msg }

// Errorf returns an *Error of status about field.
func Errorf(status int, field, format string, args ...any) *Error {
	return &Error{Status: status, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// ErrClosing is the error of a request that arrives after the server began
// to shut down.
var ErrClosing = errors.New("server: shutting down")

// ErrTooLong is the cause of the end of a request's context at the
// server's write timeout (--write-timeout), past which its answer could
// no longer be written: what a diff or a check that took too long is
// answered with, rather than "busy" (see Cause).
var ErrTooLong = errors.New("the request took longer than the server's --write-timeout")

// Cause returns the cause ctx was ended with (ErrTooLong) in place of
// err when err is the end of ctx's deadline, else err: context.DeadlineExceeded
// says only that a deadline passed, not whose.
func Cause(ctx context.Context, err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		if c := context.Cause(ctx); c != nil && !errors.Is(c, context.DeadlineExceeded) && !errors.Is(c, context.Canceled) {
			return c
		}
	}
	return err
}

// StatusClientClosed answers a request its client cancelled (nginx's 499):
// nobody reads the answer, but logs and metrics show it as the client's
// doing, not as the server's failure.
const StatusClientClosed = 499

// Status maps err to the *Error a client sees.
func Status(err error) *Error {
	var e *Error
	var mbe *http.MaxBytesError
	var ue *neardup.UnstorableError
	var se *rarewords.SourceError
	switch {
	case errors.As(err, &e):
		return e
	case errors.As(err, &mbe):
		return Errorf(http.StatusRequestEntityTooLarge, "", "the body is larger than %d bytes", mbe.Limit)
	case errors.As(err, &ue):
		return Errorf(http.StatusBadRequest, ue.Field, "%s %s", ue.Field, ue.Why)
	case errors.As(err, &se):
		return Errorf(http.StatusBadRequest, "source", "rarewords compares documents of different sources, and no document "+
			"of the index would have a source: give each document its \"source\" (or a \"url\" to take the host from), "+
			"or compare within one source in an index made with --same-source")
	case errors.Is(err, neardup.ErrNotFound):
		return Errorf(http.StatusNotFound, "", "%s", after(err, neardup.ErrNotFound))
	case errors.Is(err, watch.ErrNoFeed):
		return Errorf(http.StatusNotFound, "", "%s", after(err, watch.ErrNoFeed))
	case errors.Is(err, neardup.ErrQuery):
		return Errorf(http.StatusBadRequest, "q", "q: %s", after(err, neardup.ErrQuery))
	case errors.Is(err, neardup.ErrExists):
		return Errorf(http.StatusConflict, "", "%s", strings.TrimPrefix(err.Error(), "store: "))
	case errors.Is(err, ErrTooLong):
		return Errorf(http.StatusServiceUnavailable, "", "%s; it was stopped", err)
	case errors.Is(err, context.Canceled):
		return Errorf(StatusClientClosed, "", "the request was cancelled")
	case errors.Is(err, neardup.ErrLocked), errors.Is(err, ErrClosing), errors.Is(err, context.DeadlineExceeded):
		return Errorf(http.StatusServiceUnavailable, "", "the index is busy or shutting down; try again")
	case errors.Is(err, neardup.ErrSettingsChanged):
		return Errorf(http.StatusServiceUnavailable, "", "the index was empty, of no method, when the server opened it, and another "+
			"process has given it one since: the server must be restarted to read it")
	case errors.Is(err, neardup.ErrReadOnly):
		return Errorf(http.StatusForbidden, "", "the index cannot be written")
	case neardup.Unreachable(err):
		return Errorf(http.StatusServiceUnavailable, "", "the index's database cannot be reached; try again")
	}
	return Errorf(http.StatusInternalServerError, "", "internal error; the server's log has the details")
}

// after returns the message of err after that of sentinel, which names a
// package: what a client reads.
func after(err, sentinel error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, sentinel.Error()+": "); i >= 0 {
		return msg[i+len(sentinel.Error())+2:]
	}
	return msg
}
