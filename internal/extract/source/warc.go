package source

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/neardup/neardup/internal/extract/warc"
)

// warc reads the response and resource records of a WARC stream; other
// record types (request, metadata, warcinfo, revisit …) are not pages.
func (w *walker) warc(id string, r io.Reader) error {
	wr, err := warc.NewReader(r)
	if err != nil {
		return w.fail(id, err)
	}
	wr.MaxBlock = int64(w.opts.MaxBytes) + 64<<10 // room for the HTTP header
	for n := 1; ; n++ {
		rec, err := wr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return w.fail(fmt.Sprintf("%s#%d", id, n), err)
		}
		p, ok := w.record(rec)
		if !ok {
			continue
		}
		p.ID = fmt.Sprintf("%s#%d", id, n)
		if err := w.emit(p); err != nil {
			return err
		}
	}
}

// record turns a WARC record into a page; ok is false for records that do
// not hold one.
func (w *walker) record(rec *warc.Record) (p Page, ok bool) {
	p.URL = rec.TargetURI()
	switch rec.Type() {
	case "response":
		if !rec.IsHTTP() {
			return p, false // e.g. a DNS response
		}
	case "resource":
		p.ContentType = rec.Header.Get("Content-Type")
	default:
		return p, false
	}
	if rec.TooLarge {
		p.TooLarge = true
		return p, true
	}
	if rec.Type() == "resource" {
		p.Body = rec.Block
		return p, true
	}
	resp, truncated, err := warc.ParseResponse(rec.Block, w.opts.MaxBytes)
	if err != nil {
		p.Err = err
		return p, true
	}
	p.Status, p.ContentType = resp.Status, resp.Header.Get("Content-Type")
	if truncated {
		p.TooLarge = true
		return p, true
	}
	p.Body, p.Err = decodeContent(resp.Body, resp.Header.Get("Content-Encoding"), w.opts.MaxBytes)
	if errors.Is(p.Err, errTooLarge) {
		p.Body, p.Err, p.TooLarge = nil, nil, true
	}
	return p, true
}

// decodeContent removes an HTTP Content-Encoding.
func decodeContent(body []byte, encoding string, limit int) ([]byte, error) {
	var r io.Reader
	switch enc := strings.ToLower(strings.TrimSpace(encoding)); enc {
	case "", "identity":
		return body, nil
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, fmt.Errorf("content-encoding gzip: %w", err)
		}
		r = zr
	case "deflate":
		// Servers send zlib-wrapped or raw deflate under this name.
		if zr, err := zlib.NewReader(bytes.NewReader(body)); err == nil {
			r = zr
		} else {
			r = flate.NewReader(bytes.NewReader(body))
		}
	default:
		return nil, fmt.Errorf("unsupported content-encoding %q", enc)
	}
	out, err := readLimited(r, int64(limit))
	if err != nil && !errors.Is(err, errTooLarge) {
		return nil, fmt.Errorf("content-encoding %s: %w", encoding, err)
	}
	return out, err
}
