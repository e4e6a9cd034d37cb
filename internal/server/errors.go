package server

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/neardup/neardup/internal/server/httperr"
)

// apiError is an error with its HTTP status and the request field it is
// about (see httperr.Error).
type apiError = httperr.Error

// badRequest returns a 400 about field.
func badRequest(field, msg string) *apiError {
	return &apiError{Status: http.StatusBadRequest, Msg: msg, Field: field}
}

// status maps an error to its HTTP status and the error the client sees
// (see httperr.Status); what is not the client's is logged by writeError.
func status(err error) *apiError { return httperr.Status(err) }

// writeError answers with err as JSON, logging what is not the client's:
// a request stopped at the write timeout (httperr.ErrTooLong, in place of
// the deadline's error) as a warning, the server's failures as errors.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	err = httperr.Cause(r.Context(), err)
	ae := status(err)
	switch {
	case errors.Is(err, httperr.ErrTooLong):
		s.log.Warn("request stopped", "method", r.Method, "path", r.URL.Path, "err", err)
	case ae.Status >= 500:
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	if ae.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="neardup"`)
	}
	s.writeJSON(w, r, ae.Status, ae)
}

// writeJSON answers r with v as JSON; one it cannot encode is an internal
// error, logged to the server's log.
func (s *Server) writeJSON(w http.ResponseWriter, r *http.Request, code int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		s.log.Error("encoding a response", "method", r.Method, "path", r.URL.Path, "err", err)
		code, data = http.StatusInternalServerError, []byte(`{"error":"internal error"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	w.Write(append(data, '\n'))
}
