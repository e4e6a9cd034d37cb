package corpus

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/neardup/neardup/core"
)

// rec is a Record flattened for comparison.
type rec struct {
	ID, Title, Text, URL, Source, Date, Origin, Raw, Skip, Err string
}

func flatten(r Record) rec {
	g := rec{ID: r.Doc.ID, Title: r.Doc.Title, Text: r.Doc.Text, URL: r.Doc.URL, Source: r.Doc.Source,
		Origin: r.Doc.Origin, Raw: string(r.Doc.Raw), Skip: string(r.Skip)}
	if !r.Doc.Date.IsZero() {
		g.Date = core.FormatDate(r.Doc.Date, time.RFC3339)
	}
	if r.Err != nil {
		g.Err = r.Err.Error()
	}
	return g
}

// again rewinds r and drains it once more: the records of its next pass.
func again(t testing.TB, r *Reader) []rec {
	t.Helper()
	if err := r.Rewind(); err != nil {
		t.Fatal(err)
	}
	recs, err := drain(t, r)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// drain reads a Reader to its end and returns the records and the error
// that ended reading (nil at io.EOF).
func drain(t testing.TB, r *Reader) ([]rec, error) {
	t.Helper()
	var got []rec
	for {
		raw, err := r.NextRaw()
		if err == io.EOF {
			return got, nil
		}
		if err != nil {
			return got, err
		}
		rc := r.Decode(raw)
		if rc.Skip == "" && rc.Err != nil || rc.Skip != "" && rc.Err == nil {
			t.Fatalf("%s: skip %q with error %v", raw.Origin, rc.Skip, rc.Err)
		}
		got = append(got, flatten(rc))
	}
}

// readAll opens paths and reads them to the end.
func readAll(t testing.TB, paths []string, opts Options, cfg config) ([]rec, error) {
	t.Helper()
	r, err := open(paths, nil, opts, cfg)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return drain(t, r)
}

// writeFiles writes name → content under dir.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func gz(t testing.TB, s string) string {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// member is one file of a zip archive made by zipOf.
type member struct{ name, content string }

func zipOf(t testing.TB, members ...member) string {
	t.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for _, m := range members {
		f, err := w.Create(m.name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte(m.content)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// errString returns err's message, or "" for nil.
func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// oneShot is a stream that can be read once, like a pipe.
type oneShot struct {
	r    io.Reader
	done bool
}

func (o *oneShot) Read(p []byte) (int, error) {
	if o.done {
		return 0, errors.New("stream read after its end")
	}
	n, err := o.r.Read(p)
	if err == io.EOF {
		o.done = true
	}
	return n, err
}

func pipe(s string) io.Reader { return &oneShot{r: strings.NewReader(s)} }
