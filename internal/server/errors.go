package server

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/neardup/neardup/internal/index"
)

// apiError is an error with its HTTP status and the request field it is
// about; what a client sees as {"error": ..., "field": ...}.
type apiError struct {
	Status int    `json:"-"`
	Msg    string `json:"error"`
	Field  string `json:"field,omitempty"`
}

func (e *apiError) Error() string { return e.Msg }

// badRequest returns a 400 about field.
func badRequest(field, msg string) *apiError {
	return &apiError{Status: http.StatusBadRequest, Msg: msg, Field: field}
}

// status maps an error to its HTTP status and the error the client sees.
// Errors that are not the client's become a 500 (503 for a busy or
// closing index, or one whose database cannot be reached) whose message
// names no internals; they are logged.
func status(err error) *apiError {
	var ae *apiError
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.Is(err, index.ErrNotFound):
		return &apiError{Status: http.StatusNotFound, Msg: after(err, index.ErrNotFound)}
	case errors.Is(err, index.ErrQuery):
		return &apiError{Status: http.StatusBadRequest, Msg: "q: " + after(err, index.ErrQuery), Field: "q"}
	case errors.Is(err, index.ErrLocked), errors.Is(err, errClosing), errors.Is(err, context.Canceled),
		errors.Is(err, context.DeadlineExceeded):
		return &apiError{Status: http.StatusServiceUnavailable, Msg: "the index is busy or shutting down; try again"}
	case errors.Is(err, index.ErrReadOnly):
		return &apiError{Status: http.StatusForbidden, Msg: "the index cannot be written"}
	case index.Unreachable(err):
		return &apiError{Status: http.StatusServiceUnavailable, Msg: "the index's database cannot be reached; try again"}
	}
	return &apiError{Status: http.StatusInternalServerError, Msg: "internal error; the server's log has the details"}
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

// writeError answers with err as JSON, logging what is not the client's.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	ae := status(err)
	if ae.Status >= 500 {
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	if ae.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="neardup"`)
	}
	writeJSON(w, ae.Status, ae)
}

// writeJSON answers with v as JSON.
func writeJSON(w http.ResponseWriter, code int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		slog.Error("encoding a response", "err", err)
		code, data = http.StatusInternalServerError, []byte(`{"error":"internal error"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	w.Write(append(data, '\n'))
}
