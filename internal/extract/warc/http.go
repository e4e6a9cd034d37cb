package warc

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Response is an HTTP response held in a response record.
type Response struct {
	// Status is the HTTP status code.
	Status int
	// Header is the response's header.
	Header http.Header
	// Body is the payload with any chunked transfer coding removed; a
	// Content-Encoding (gzip) is left for the consumer.
	Body []byte
}

// ParseResponse parses the block of a response record whose Content-Type is
// application/http. The body is read up to maxBody bytes (0: no limit
// beyond the block's own size); Truncated reports a cut.
func ParseResponse(block []byte, maxBody int) (*Response, bool, error) {
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(block)), nil)
	if err != nil {
		return nil, false, fmt.Errorf("warc: http response: %w", err)
	}
	defer resp.Body.Close()
	var body io.Reader = resp.Body
	if maxBody > 0 {
		body = io.LimitReader(resp.Body, int64(maxBody)+1)
	}
	data, err := io.ReadAll(body)
	if err != nil && len(data) == 0 {
		return nil, false, fmt.Errorf("warc: http body: %w", err)
	}
	truncated := maxBody > 0 && len(data) > maxBody
	if truncated {
		data = data[:maxBody]
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: data}, truncated, nil
}

// IsHTTP reports whether a record's block is an HTTP message (the record's
// Content-Type is application/http).
func (r *Record) IsHTTP() bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(r.Header.Get("Content-Type"))), "application/http")
}
