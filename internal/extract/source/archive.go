package source

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"path"
	"strings"
)

// gzip inflates a stream and reads what it holds. The id loses its .gz
// suffix only when the content is a single page, so a page keeps the name
// of the file it came from.
func (w *walker) gzip(id string, r io.Reader) error {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return w.fail(id, fmt.Errorf("gzip: %w", err))
	}
	defer zr.Close()
	return w.nested(id, bufio.NewReaderSize(zr, 64<<10))
}

// maxDepth bounds how deeply containers nest, so that a crafted file
// cannot recurse without end.
const maxDepth = 4

// nested reads a stream found inside a container.
func (w *walker) nested(id string, br *bufio.Reader) error {
	if w.depth >= maxDepth {
		return w.fail(id, fmt.Errorf("containers nested more than %d deep", maxDepth))
	}
	w.depth++
	defer func() { w.depth-- }()
	return w.stream(id, br)
}

// zip reads every file of a zip archive, in the archive's order.
func (w *walker) zip(id string, ra io.ReaderAt, size int64) error {
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		return w.fail(id, fmt.Errorf("zip archive: %w", err))
	}
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		inner := path.Join(id, strings.TrimLeft(f.Name, "/"))
		if err := w.zipEntry(inner, f); err != nil {
			return err
		}
	}
	return nil
}

func (w *walker) zipEntry(id string, f *zip.File) error {
	rc, err := f.Open()
	if err != nil {
		return w.fail(id, err)
	}
	defer rc.Close()
	return w.nested(id, bufio.NewReaderSize(rc, 64<<10))
}

// tar reads every regular file of a tar stream.
func (w *walker) tar(id string, r io.Reader) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return w.fail(id, fmt.Errorf("tar archive: %w", err))
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		inner := path.Join(id, strings.TrimLeft(h.Name, "/"))
		if err := w.nested(inner, bufio.NewReaderSize(tr, 64<<10)); err != nil {
			return err
		}
	}
}
