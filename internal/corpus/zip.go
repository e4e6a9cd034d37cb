package corpus

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/flate"
)

// noRandomAccess is the random access of a stream read once.
func noRandomAccess() (io.ReaderAt, int64, error) {
	return nil, 0, errors.New("a zip archive cannot be read from a single-pass stream; give it as a file")
}

// openZip reads the members of a zip archive in archive order.
func (r *Reader) openZip(l leaf) (source, error) {
	if l.depth >= maxNesting || l.at == nil {
		return nil, fmt.Errorf("reading %s: a zip archive inside gzip or zip is not supported", l.origin)
	}
	ra, size, err := l.at()
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", l.origin, err)
	}
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		return nil, fmt.Errorf("reading %s (%d bytes): %w", l.origin, size, err)
	}
	zr.RegisterDecompressor(zip.Deflate, func(rd io.Reader) io.ReadCloser { return flate.NewReader(rd) })
	src := &zipSource{r: r, l: l, files: zr.File}
	if c, ok := ra.(io.Closer); ok {
		return withClose(src, c), nil
	}
	return src, nil
}

// zipSource yields the records of an archive's members, one after another.
type zipSource struct {
	r     *Reader
	l     leaf
	files []*zip.File
	cur   source
}

func (z *zipSource) next() (Raw, error) {
	for {
		if z.cur == nil {
			if len(z.files) == 0 {
				return Raw{}, io.EOF
			}
			f := z.files[0]
			z.files = z.files[1:]
			if !zipListed(f) {
				continue
			}
			src, err := z.openMember(f)
			if err != nil {
				return Raw{}, err
			}
			z.cur = src
		}
		raw, err := z.cur.next()
		if err != io.EOF {
			return raw, err
		}
		z.close()
	}
}

// zipListed reports whether an archive member is read: a file with a known
// extension other than .zip, not hidden and not macOS metadata.
func zipListed(f *zip.File) bool {
	name := f.Name
	if f.FileInfo().IsDir() || strings.HasPrefix(name, "__MACOSX/") {
		return false
	}
	for part := range strings.SplitSeq(name, "/") {
		if strings.HasPrefix(part, ".") {
			return false
		}
	}
	k := kindOf(name)
	return k != kUnknown && k != kZip
}

func (z *zipSource) openMember(f *zip.File) (source, error) {
	origin := z.l.origin + "/" + f.Name
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", origin, err)
	}
	m := leaf{origin: origin, id: z.l.id + "/" + f.Name, name: f.Name, depth: z.l.depth + 1, size: int64(f.UncompressedSize64)}
	if f.UncompressedSize64 > 1<<62 {
		m.size = -1
	}
	src, err := z.r.openLeaf(m, rc)
	if err != nil {
		rc.Close()
		return nil, err
	}
	return withClose(src, rc), nil
}

func (z *zipSource) close() {
	if z.cur != nil {
		z.cur.close()
		z.cur = nil
	}
}
