package warc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"
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
// beyond the block's own size); Truncated reports a cut. A body the block
// holds less of than its Content-Length (or chunked coding) declares is an
// error: the page was not recorded whole.
func ParseResponse(block []byte, maxBody int) (*Response, bool, error) {
	resp, err := http.ReadResponse(bufio.NewReader(asHTTP1(block)), nil)
	if err != nil {
		return nil, false, fmt.Errorf("warc: http response: %w", err)
	}
	defer resp.Body.Close()
	var body io.Reader = resp.Body
	if maxBody > 0 {
		body = io.LimitReader(resp.Body, min(int64(maxBody), math.MaxInt64-1)+1)
	}
	data, err := io.ReadAll(body)
	switch {
	case err != nil && resp.ContentLength >= 0:
		return nil, false, fmt.Errorf("warc: http body cut short: %d of the %d bytes its Content-Length declares: %w",
			len(data), resp.ContentLength, err)
	case err != nil: // a chunked body cut short
		return nil, false, fmt.Errorf("warc: http body cut short: %w", err)
	}
	truncated := maxBody > 0 && len(data) > maxBody
	if truncated {
		data = data[:maxBody]
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: data}, truncated, nil
}

// asHTTP1 reads a response recorded from an HTTP/2 or HTTP/3 fetch, whose
// status line says "HTTP/2 200" (curl's form) or "HTTP/2.0 200", as
// HTTP/1.1, which is all the HTTP reader parses: the version token is the
// only part of the recorded message that differs.
func asHTTP1(block []byte) io.Reader {
	for _, v := range []string{"HTTP/2 ", "HTTP/2.0 ", "HTTP/3 ", "HTTP/3.0 "} {
		if bytes.HasPrefix(block, []byte(v)) {
			return io.MultiReader(strings.NewReader("HTTP/1.1 "), bytes.NewReader(block[len(v):]))
		}
	}
	return bytes.NewReader(block)
}

// IsHTTP reports whether a record's block is an HTTP message: the record's
// Content-Type is application/http, or it names none and the block begins
// as an HTTP response does ("HTTP/1.1 200 OK"), as some crawlers write
// their responses.
func (r *Record) IsHTTP() bool {
	ct := strings.ToLower(strings.TrimSpace(r.Header.Get("Content-Type")))
	if ct == "" {
		return bytes.HasPrefix(r.Block, []byte("HTTP/"))
	}
	return strings.HasPrefix(ct, "application/http")
}

// HoldsPage reports whether a record holds a web page: a response record
// holding HTTP (isHTTP true) or a resource record. Request, metadata,
// warcinfo and revisit records, and responses of other protocols (DNS),
// hold none. A response too large to hold whose Content-Type names nothing
// counts as HTTP, so that it is reported too large rather than passed over.
func (r *Record) HoldsPage() (isHTTP, ok bool) {
	switch r.Type() {
	case "response":
		if r.TooLarge && strings.TrimSpace(r.Header.Get("Content-Type")) == "" {
			return true, true
		}
		return true, r.IsHTTP()
	case "resource":
		return false, true
	}
	return false, false
}

// ErrTooLarge reports a body over the limit once its content coding is
// removed.
var ErrTooLarge = errors.New("warc: body over the size limit once decoded")

// zstdMaxWindow bounds the memory a Zstandard body may ask for its window:
// 8 MiB, the most HTTP lets a sender use (RFC 9659).
const zstdMaxWindow = 8 << 20

// DecodeBody removes an HTTP Content-Encoding (gzip, x-gzip, deflate, br,
// zstd; none and identity leave the body as it is), inflating at most limit bytes: a
// body that would inflate further is ErrTooLarge, and is not inflated
// further.
func DecodeBody(body []byte, encoding string, limit int) ([]byte, error) {
	var r io.Reader
	switch enc := strings.ToLower(strings.TrimSpace(encoding)); enc {
	case "", "identity":
		return body, nil
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, fmt.Errorf("content-encoding gzip: %w", err)
		}
		defer zr.Close()
		r = zr
	case "deflate": // servers send zlib-wrapped or raw deflate under this name
		if zr, err := zlib.NewReader(bytes.NewReader(body)); err == nil {
			defer zr.Close()
			r = zr
		} else {
			fr := flate.NewReader(bytes.NewReader(body))
			defer fr.Close()
			r = fr
		}
	case "br": // what browsers ask for, and a browser's crawl records
		r = brotli.NewReader(bytes.NewReader(body))
	case "zstd":
		zr, err := zstd.NewReader(bytes.NewReader(body), zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(zstdMaxWindow))
		if err != nil {
			return nil, fmt.Errorf("content-encoding zstd: %w", err)
		}
		defer zr.Close()
		r = zr
	default:
		return nil, fmt.Errorf("unsupported content-encoding %q", enc)
	}
	out, err := io.ReadAll(io.LimitReader(r, min(int64(limit), math.MaxInt64-1)+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("content-encoding %s: %w", encoding, err)
	case len(out) > limit:
		return nil, ErrTooLarge
	}
	return out, nil
}
