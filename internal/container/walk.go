package container

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"golang.org/x/text/encoding/charmap"

	"github.com/neardup/neardup/internal/tempfile"
)

// MaxDepth bounds how many containers may nest around one stream, so that
// a crafted file cannot recurse without end.
const MaxDepth = 4

// Options control a walk. The zero value works.
type Options struct {
	// MaxInflate bounds the bytes one compressed stream (a .gz, a zip
	// member) may inflate to; 0 means DefaultMaxInflate.
	MaxInflate int64
	// MaxRatio bounds how many times its compressed size a stream may
	// inflate to, once past 1 MiB; it bounds the sum over all the streams
	// of one input against the input's size too, what refused streams
	// inflated counted: once the sum passes it, every stream of the input
	// read after is refused before any byte of it is inflated. The compressed size is
	// the whole stream's when known (a file, an archive member); of a
	// stream of unknown size (standard input, a stream in a stream) it is
	// the bytes read so far, counted as at least 4 MiB. 0 means
	// DefaultMaxRatio.
	MaxRatio int64
	// AnyName reads every member of an archive; else only those whose
	// names are in the table of formats (as in a directory).
	AnyName bool
	// Unlisted, when set, is called with the origin of each member of an
	// archive not read because its name is not in the table of formats
	// (not for hidden ones).
	Unlisted func(origin string)
	// BufSize is the read buffer of a leaf stream; 0 means 64 KiB.
	BufSize int
	// StrayBytes, when set, is called with the origin of each gzip stream
	// read to its end whose last whole member is followed by bytes that
	// start no other (zero padding, a line end, junk), its format (Gzip)
	// and how many there are: the stream ends at that member, as gzip(1)
	// reads it, and the bytes are ignored. The same, with Bzip2, of a
	// bzip2 file whose last whole stream is followed by bytes that start
	// no other (no bzip2 header, "BZh" and a block size), as bzip2(1)
	// reads it.
	StrayBytes func(origin string, f Format, n int64)
	// DamagedMembers, when set, is called with the origin of a gzip
	// stream of WARC records (a .warc.gz) for each stretch of it skipped:
	// a damaged member, or bytes between members that start none, skipped
	// up to the next member (see MemberDamage); each member of such a
	// stream is then held until it ends whole. Without it, such a stream
	// ends at the damage, as any gzip stream does.
	DamagedMembers func(origin string, d MemberDamage)
	// Stop, when set, ends the reading Next does on its own, not the
	// caller's reading of a member: the check of a zip member too large to
	// hold (read through to its end before any byte of it is given; see
	// zipFrame.checked) gives up once Stop ends, and Next returns
	// context.Cause(Stop), so that a run stopped by a signal ends at once,
	// not when a member of gigabytes is inflated. nil never ends.
	Stop context.Context
	// Reread, when set, is called with the compressed size of each member
	// of a zip read through Top.At (the input's own bytes, not a copy of
	// them) that is read twice, once to check it and once to read it (see
	// zipFrame.checked), before the check: what a count of the bytes read
	// of the input adds to the input's size, so that a share of it read
	// is a share of the work.
	Reread func(n int64)
}

// The defaults of Options. Text inflates three to ten times; a stream
// inflating a hundred times its size is all but certainly a decompression
// bomb, and the ratio is what stops one early.
const (
	DefaultMaxInflate int64 = 8 << 30
	DefaultMaxRatio   int64 = 100
	// ratioFloor is how far any stream may inflate before its ratio counts:
	// a short, very repetitive file is no bomb.
	ratioFloor int64 = 1 << 20
	// unsizedFloor is the least compressed size the ratio of a stream of
	// unknown size (standard input, a stream inside another) is measured
	// against, while the bytes read of it are fewer: such a stream may
	// inflate to MaxRatio times 4 MiB (400 MiB) before the bytes read so
	// far count. A file whose opening compresses far better than the rest
	// (hundreds of lines of one boilerplate: 1 MiB from 8 KiB) is read whole,
	// and a bomb is still stopped within a bounded inflation.
	unsizedFloor int64 = 4 << 20
)

func (o Options) withDefaults() Options {
	if o.MaxInflate <= 0 {
		o.MaxInflate = DefaultMaxInflate
	}
	if o.MaxRatio <= 0 {
		o.MaxRatio = DefaultMaxRatio
	}
	if o.BufSize <= 0 {
		o.BufSize = 64 << 10
	}
	return o
}

// Top is one input to walk: a file or a stream.
type Top struct {
	Origin string // names it in origins and errors: the path as given, "stdin"
	ID     string // the id of a whole-file record read from it
	Name   string // the name whose extension tells its format
	R      io.Reader
	Size   int64 // bytes; -1 when unknown
	// At gives random access to the input, for a zip archive; nil copies
	// the stream to a temporary file when it is one.
	At func() (io.ReaderAt, int64, error)
	// Ready, when set, reports whether R, a stream that may pause
	// (standard input, a pipe), has bytes that no read took yet (see
	// Arrived): the peek at its start that tells its format looks at what
	// has arrived, not waiting for more, and its leaf, when it is one, is
	// given it as Member.Ready. nil: R never pauses (a file).
	Ready func() bool
}

// Member is one leaf stream of an input.
type Member struct {
	// Origin names it: the input's origin, then the path in each archive
	// ("news.zip/a/b.jsonl"); a gzip stream takes its file's origin.
	Origin string
	// ID is the id of a whole-file record: the input's ID, or inside an
	// archive the member's Origin (qualified by the archive's path).
	ID string
	// Name is the name whose extension tells the format ("b.jsonl" for
	// "b.jsonl.gz").
	Name string
	// Format is what Name says, or else what Magic finds; Unknown when
	// neither says.
	Format Format
	// R reads the member; valid until the next call to Next.
	R *bufio.Reader
	// Size is the member's size in bytes when known and not compressed,
	// else -1.
	Size int64
	// At, when set, gives random access to the member (a file given as
	// input, not compressed): what a Parquet reader needs. nil for a
	// compressed stream or an archive's member, which a reader that needs
	// random access copies to a temporary file.
	At func() (io.ReaderAt, int64, error)
	// Skip, when set, says why the member is refused; R is nil.
	Skip error
	// Ready is Top.Ready for the input's own stream, when it is the leaf
	// (not compressed, no archive): what R has at hand is what it holds
	// buffered and what Ready says has arrived. nil for any other.
	Ready func() bool
	// Index is the position of the member among the entries of the
	// archive that holds it (a tar's headers, a zip's files, in the order
	// `tar tv` and `unzip -l` list them), from 1, and Archive that
	// archive's origin; 0 and "" for a stream in no archive. Two members
	// of one name (a file appended again by `tar -r`) have one Origin and
	// two Indexes.
	Index   int
	Archive string
}

// LimitError reports a compressed stream that inflated past a bound.
type LimitError struct {
	Origin     string
	Inflated   int64 // bytes inflated when reading stopped
	Compressed int64 // the compressed size the ratio was measured against (see Options.MaxRatio)
	Max        int64 // the bound on Inflated, or 0 when the ratio stopped it
	Ratio      int64 // the ratio bound, when it stopped it
	// Input, when set, names the input whose streams inflated, together,
	// past the ratio against its size: Inflated and Compressed are the
	// input's, not Origin's. Origin is the stream that passed the bound, or
	// one after it, refused before it was read.
	Input string
}

func (e *LimitError) Error() string {
	if e.Input != "" {
		return fmt.Sprintf("%s: refused: the compressed streams of %s inflate to over %d times its size together (%d bytes from %d; a decompression bomb?)",
			e.Origin, e.Input, e.Ratio, e.Inflated, e.Compressed)
	}
	if e.Max > 0 {
		return fmt.Sprintf("%s: refused: inflates past %d bytes (the limit on one compressed stream)", e.Origin, e.Max)
	}
	return fmt.Sprintf("%s: refused: inflates to over %d times its compressed size (%d bytes from %d; a decompression bomb?)",
		e.Origin, e.Ratio, e.Inflated, e.Compressed)
}

// HeaderCutError is the error of every read of a gzip stream that ends
// before its first member's header is whole, nothing of what it compresses
// read (see pushGzip); Read is 0 for an empty file. Its text says so of
// the gzip stream, in the one wording every command gives ("not a complete
// gzip stream: it ends after 5 bytes, inside the gzip header"), the reader
// of the stream it compresses telling what a cut means in its format;
// Origin names the gzip file, for a reader that says it of the file. It
// wraps io.ErrUnexpectedEOF.
type HeaderCutError struct {
	Origin string
	Read   int64 // the bytes of the file there are, all of them its header's
}

func (e *HeaderCutError) Error() string {
	if e.Read == 0 {
		return "an empty file (0 bytes), not a complete gzip stream"
	}
	return fmt.Sprintf("not a complete gzip stream: it ends after %d bytes, inside the gzip header", e.Read)
}

// Unwrap returns io.ErrUnexpectedEOF.
func (e *HeaderCutError) Unwrap() error { return io.ErrUnexpectedEOF }

// CutAfter returns err, met reading a whole stream (a page, a text file)
// after n bytes of it, saying where: "unexpected EOF after 226 bytes", the
// one wording every command gives of such a stream cut short. A
// HeaderCutError is returned as it is: nothing of the stream was read.
func CutAfter(err error, n int64) error {
	var cut *HeaderCutError
	if errors.As(err, &cut) {
		return err
	}
	return fmt.Errorf("%w after %d bytes", err, n)
}

// IsLimit reports whether err is, or wraps, a LimitError.
func IsLimit(err error) bool {
	var le *LimitError
	return errors.As(err, &le)
}

// Walker yields the leaf streams of one input. Next and Close are for one
// goroutine.
type Walker struct {
	opts   Options
	top    Top
	topN   countReader // counts the bytes read of the input
	frames []frame
	cur    *leafState // the member handed out last
	begun  bool
	total  int64 // bytes inflated by every stream of the input
	// over is set once total passed the ratio against the input's size:
	// every stream read after is refused.
	over bool
	bufs []*bufio.Reader
}

// New returns a Walker of top.
func New(top Top, opts Options) *Walker {
	w := &Walker{opts: opts.withDefaults(), top: top}
	w.topN.r = top.R
	return w
}

// node is a stream found in the walk, before it is known to be a container.
type node struct {
	origin, id, name string
	depth            int // containers around it
	size             int64
	// bound, when size is not known, is about the most the stream may
	// hold (0 when nothing bounds it): it sizes the read buffer.
	bound     int64
	at        func() (io.ReaderAt, int64, error)
	ready     func() bool // Top.Ready, of the input's own stream only
	inArchive bool
	// index and archive are Member.Index and Member.Archive of the
	// archive member the stream is, or is compressed in.
	index   int
	archive string
}

// frame is an open container.
type frame interface {
	// next returns the next member, io.EOF after the last.
	next() (entry, error)
	close()
}

// entry is a member of a container.
type entry struct {
	n    node
	r    io.Reader
	skip error
}

// leafState is what Next handed out and closes at the next call.
type leafState struct {
	br *bufio.Reader
}

// Next returns the next leaf stream, or io.EOF after the last. An error
// other than io.EOF names the container that could not be read (a stream
// that is no gzip, a damaged archive); the walk may go on with the next
// call, past that container. A compressed stream of a leaf cut short is no
// error of the walk: the leaf's reads fail (io.ErrUnexpectedEOF) where the
// cut falls, at the first of them when it is in the first gzip header; an
// archive inside one (a .tar.gz) fails as the walk's error.
func (w *Walker) Next() (Member, error) {
	w.release()
	if !w.begun {
		w.begun = true
		n := node{origin: w.top.Origin, id: w.top.ID, name: w.top.Name, size: w.top.Size, at: w.top.At, ready: w.top.Ready}
		m, ok, err := w.open(n, &w.topN)
		if ok || err != nil {
			return m, err
		}
	}
	for len(w.frames) > 0 {
		f := w.frames[len(w.frames)-1]
		e, err := f.next()
		switch {
		case err == io.EOF:
			w.pop()
			continue
		case err != nil && IsLimit(err):
			w.pop() // the stream under it stopped; its own frame reports it
			continue
		case err != nil:
			w.pop()
			return Member{}, err
		case e.skip != nil:
			return Member{Origin: e.n.origin, ID: e.n.id, Name: e.n.name, Skip: e.skip, Index: e.n.index, Archive: e.n.archive}, nil
		}
		m, ok, err := w.open(e.n, e.r)
		if ok || err != nil {
			return m, err
		}
	}
	return Member{}, io.EOF
}

// Close closes every open container and removes temporary files.
func (w *Walker) Close() error {
	w.release()
	for len(w.frames) > 0 {
		w.pop()
	}
	return nil
}

func (w *Walker) pop() {
	f := w.frames[len(w.frames)-1]
	w.frames = w.frames[:len(w.frames)-1]
	f.close()
}

// release takes back the buffer of the member handed out last.
func (w *Walker) release() {
	if w.cur != nil {
		w.cur.br.Reset(nil)
		w.bufs = append(w.bufs, w.cur.br)
		w.cur = nil
	}
}

// minBufSize is the smallest read buffer of a stream: room for the look
// at its first bytes that tells its format.
const minBufSize = 4 << 10

// inflateBound is how many times its compressed size an inflated stream
// is taken to hold at most when its read buffer is sized; a stream that
// holds more is still read whole, through a buffer that is not.
const inflateBound = 16

// buffer returns a read buffer of r, a stream of size bytes (-1 when not
// known): BufSize, or less for a stream known to be smaller. A directory of
// small files opens a walk a file, and a buffer of BufSize (1 MiB for the
// corpus reader) for each was most of the time of reading them.
func (w *Walker) buffer(r io.Reader, size int64) *bufio.Reader {
	want := w.opts.BufSize
	if size >= 0 && size < int64(want) {
		want = max(int(size)+1, min(minBufSize, want))
	}
	for i := len(w.bufs) - 1; i >= 0; i-- {
		if br := w.bufs[i]; br.Size() >= want {
			w.bufs = slices.Delete(w.bufs, i, i+1)
			br.Reset(r)
			return br
		}
	}
	return bufio.NewReaderSize(r, want)
}

// open looks at a stream: a container is pushed as a frame (ok false), a
// leaf is returned as a Member (ok true).
func (w *Walker) open(n node, r io.Reader) (Member, bool, error) {
	hint := n.size
	if hint < 0 && n.bound > 0 {
		hint = n.bound
	}
	br := w.buffer(r, hint)
	// A read error is left for the reader of the stream to meet again
	// (the readers under it repeat their errors) and report in its terms.
	head, _ := PeekArrived(br, 512, n.ready)
	byName, magic := ByName(n.name), Magic(head)
	f := byName
	if !f.IsContainer() && magic.IsContainer() {
		f = magic // content that is a container wins over a record format's name
	}
	if f.IsContainer() && n.depth >= MaxDepth {
		w.putBack(br)
		return Member{Origin: n.origin, ID: n.id, Name: n.name,
			Skip: fmt.Errorf("%s: refused: containers nested more than %d deep", n.origin, MaxDepth)}, true, nil
	}
	switch f {
	case Gzip:
		return Member{}, false, w.pushGzip(n, br)
	case Zstd:
		return Member{}, false, w.pushZstd(n, br)
	case Bzip2:
		return Member{}, false, w.pushBzip2(n, br, head)
	case Zip:
		refused, err := w.pushZip(n, br)
		switch {
		case refused != nil:
			return Member{Origin: n.origin, ID: n.id, Name: n.name, Skip: refused, Index: n.index, Archive: n.archive}, true, nil
		case IsDamage(err):
			// The damage of the archive the zip is read from (a tar cut
			// inside it), which that archive's frame reports, once.
			return Member{}, false, nil
		}
		return Member{}, false, err
	case Tar:
		t := &tarFrame{w: w, n: n, br: br, src: &countReader{r: br}}
		t.tr = tar.NewReader(t.src)
		w.frames = append(w.frames, t)
		return Member{}, false, nil
	}
	if f == Unknown {
		f = magic
	}
	if why := Refusal(f); why != "" {
		w.putBack(br)
		return Member{Origin: n.origin, ID: n.id, Name: n.name, Skip: fmt.Errorf("%s: refused: %s", n.origin, why)}, true, nil
	}
	w.cur = &leafState{br: br}
	return Member{Origin: n.origin, ID: n.id, Name: n.name, Format: f, R: br, Size: n.size, At: n.at,
		Index: n.index, Archive: n.archive, Ready: n.ready}, true, nil
}

func (w *Walker) putBack(br *bufio.Reader) {
	br.Reset(nil)
	w.bufs = append(w.bufs, br)
}

// child names a member found at path p inside the archive n, the index-th
// of its entries.
func child(n node, p string, size int64, index int) node {
	origin := n.origin + "/" + p
	return node{origin: origin, id: origin, name: p, depth: n.depth + 1, size: size, inArchive: true,
		index: index, archive: n.origin}
}

// --- gzip, Zstandard and bzip2 ---

// streamFrame yields the one stream a gzip, Zstandard or bzip2 file
// compresses.
type streamFrame struct {
	n    node
	end  func() // closes the decompressor
	lim  *limiter
	br   *bufio.Reader
	w    *Walker
	done bool
}

// pushGzip opens a gzip stream, read member after member up to bytes that
// start no other (see gzipMembers). One that ends in its first member's
// header, or holds no byte at all, is handed on as the stream it
// compresses, which fails with a HeaderCutError on every read: its
// reader tells what that means in its format, as it does of a cut further
// on (a WARC file that ends before its first record is a failed page, a
// JSON Lines file cut short cannot be read). A stream that is no gzip is
// an error of its own.
func (w *Walker) pushGzip(n node, br *bufio.Reader) error {
	if head, _ := br.Peek(len(gzipMagic)); !bytes.HasPrefix(gzipMagic, head) {
		// A few bytes that are no gzip (a failed download's "Error"):
		// no stream cut short, but none at all.
		w.putBack(br)
		return fmt.Errorf("reading %s: gzip header: %w", n.origin, gzip.ErrHeader)
	}
	cr := &countReader{r: br}
	named := strings.HasSuffix(strings.ToLower(n.name), ".warc.gz")
	zr, err := newGzipMembers(cr, n.origin, named, w.opts.StrayBytes, w.opts.DamagedMembers)
	var r io.Reader = zr
	end := func() {}
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		r = failedReader{&HeaderCutError{Origin: n.origin, Read: cr.n}}
	case err != nil:
		w.putBack(br)
		return fmt.Errorf("reading %s: gzip header: %w", n.origin, err)
	default:
		end = func() { zr.Close() }
	}
	lim := w.limiter(n.origin, r, streamSize(n, &cr.n))
	if zr != nil {
		zr.discard = lim.discarded
	}
	w.frames = append(w.frames, &streamFrame{n: n, end: end, lim: lim, br: br, w: w})
	return nil
}

// gzipMagic is how a gzip stream starts: its two magic bytes and the
// deflate method, the only one gzip defines.
var gzipMagic = []byte{0x1f, 0x8b, 0x08}

// failedReader fails every read with its error.
type failedReader struct{ err error }

func (f failedReader) Read([]byte) (int, error) { return 0, f.err }

// pushBzip2 opens a bzip2 stream, read stream after stream up to bytes
// that start no other (see bzip2Streams). One that does not start with a
// bzip2 header (a file named .bz2 that is empty, cut inside its header,
// or holds something else) is an error of its own, as a gzip file's is.
func (w *Walker) pushBzip2(n node, br *bufio.Reader, head []byte) error {
	if !bzip2Header(head) {
		_, err := br.Peek(4) // a read error, not the bytes read, says why head is short
		w.putBack(br)
		if err != nil && err != io.EOF {
			return fmt.Errorf("reading %s: %w", n.origin, err)
		}
		return bzip2HeaderError(n.origin, head)
	}
	zr := newBzip2Streams(br, n.origin, w.opts.StrayBytes)
	lim := w.limiter(n.origin, zr, streamSize(n, &zr.br.n))
	w.frames = append(w.frames, &streamFrame{n: n, end: func() {}, lim: lim, br: br, w: w})
	return nil
}

// zstdMaxWindow bounds the memory a Zstandard stream may ask for its
// window: 256 MiB, what "zstd --long=28" writes; the default levels use 8
// MiB at most.
const zstdMaxWindow = 256 << 20

func (w *Walker) pushZstd(n node, br *bufio.Reader) error {
	cr := &countReader{r: br}
	zr, err := zstd.NewReader(cr, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxWindow(zstdMaxWindow))
	if err != nil {
		w.putBack(br)
		return fmt.Errorf("reading %s: zstd: %w", n.origin, err)
	}
	lim := w.limiter(n.origin, zr, streamSize(n, &cr.n))
	w.frames = append(w.frames, &streamFrame{n: n, end: zr.Close, lim: lim, br: br, w: w})
	return nil
}

func (g *streamFrame) next() (entry, error) {
	if g.done {
		if g.lim.err != nil {
			err := g.lim.err
			g.lim.err = nil
			return entry{n: g.n, skip: err}, nil
		}
		return entry{}, io.EOF
	}
	g.done = true
	inner := g.n
	inner.name = Inner(g.n.name)
	inner.depth++
	inner.size, inner.bound = -1, 0
	if g.n.size > 0 {
		// Text inflates 3 to 10 times: a small compressed file is read
		// through a small buffer (the buffer grows nothing, it only holds).
		inner.bound = min(g.n.size, 1<<30) * inflateBound
	}
	inner.at = nil
	return entry{n: inner, r: g.lim}, nil
}

func (g *streamFrame) close() {
	g.end()
	g.w.putBack(g.br)
}

// --- tar ---

// tarFrame yields the regular files of a tar stream.
type tarFrame struct {
	w       *Walker
	n       node
	tr      *tar.Reader
	br      *bufio.Reader
	src     *countReader // the stream under the archive, its error kept
	entries int          // the headers read
	// damage is the refusal of the member the archive ends inside, or of
	// the archive, once met; done, the archive has no more to read.
	damage *DamageError
	done   bool
}

func (t *tarFrame) next() (entry, error) {
	if t.done {
		if de := t.damage; de != nil {
			t.damage = nil
			return entry{n: node{origin: de.Origin, id: de.Origin}, skip: de}, nil
		}
		return entry{}, io.EOF
	}
	for {
		h, err := t.tr.Next()
		switch {
		case err == io.EOF:
			return entry{}, io.EOF
		case err != nil && IsLimit(err):
			return entry{}, err
		case err != nil && t.src.err == nil:
			// The archive's own bytes, the stream under it whole: what the
			// members before gave is read, the next input too.
			t.done = true
			return entry{n: node{origin: t.n.origin, id: t.n.id, index: t.n.index, archive: t.n.archive},
				skip: t.tarDamage(err)}, nil
		case err != nil:
			return entry{}, fmt.Errorf("reading %s: tar archive: %w", t.n.origin, err)
		}
		t.entries++
		if h.Typeflag == tar.TypeSymlink || h.Typeflag == tar.TypeLink {
			// A link a file's name would be read under is said, not passed
			// over in silence (a file it names in the archive is read under
			// its own name).
			if e, ok := t.w.member(t.n, h.Name, 0, t.entries); ok {
				if e.skip == nil {
					e.skip = fmt.Errorf("%s: refused: a link to %q, which is not followed", e.n.origin, h.Linkname)
				}
				return e, nil
			}
			continue
		}
		if h.Typeflag != tar.TypeReg { // the reader reports the old TypeRegA as TypeReg
			continue
		}
		if e, ok := t.w.member(t.n, h.Name, h.Size, t.entries); ok {
			if e.skip == nil {
				e.r = &tarData{t: t, origin: e.n.origin, size: h.Size}
			}
			return e, nil
		}
	}
}

func (t *tarFrame) close() { t.w.putBack(t.br) }

// member decides about an archive member called name, the index-th entry
// of the archive n: refused (an entry with skip), not read (ok false:
// hidden, or a name not in the table), or read.
func (w *Walker) member(n node, name string, size int64, index int) (entry, bool) {
	if !SafeName(name) {
		c := node{origin: n.origin + "/" + name, id: n.origin + "/" + name, name: name, index: index, archive: n.origin}
		return entry{n: c, skip: fmt.Errorf("%s: refused: the member name %q is absolute or holds \"..\", which could leave the archive", n.origin, name)}, true
	}
	name = PathName(strings.TrimPrefix(path.Clean(strings.ReplaceAll(name, `\`, "/")), "./"))
	if hidden(name) {
		return entry{}, false
	}
	if !w.opts.AnyName && !Listed(name) {
		if w.opts.Unlisted != nil { // directories never get here (zip and tar skip them)
			w.opts.Unlisted(n.origin + "/" + name)
		}
		return entry{}, false
	}
	return entry{n: child(n, name, size, index)}, true
}

// --- zip ---

// zipFrame yields the files of a zip archive in the archive's order.
type zipFrame struct {
	w       *Walker
	n       node
	files   []*zip.File
	entries int // the files taken from files
	cur     io.ReadCloser
	lim     *limiter
	clean   func()
	buf     bytes.Buffer // a member held while its checksum is checked
}

// pushZip opens the zip archive n, read from br, as a frame. refused is
// the archive's own refusal, when it cannot be read as a zip (see
// zipUnreadable); err is the failure of reading it from the stream under
// it, a *DamageError of that stream's included (a tar cut inside the
// zip), which is that stream's to report.
func (w *Walker) pushZip(n node, br *bufio.Reader) (refused *DamageError, err error) {
	var ra io.ReaderAt
	var size int64
	var clean func()
	if n.at != nil {
		ra, size, err = n.at()
		if c, ok := ra.(io.Closer); ok && err == nil {
			clean = func() { c.Close() }
		}
	} else {
		ra, size, clean, err = w.spool(n, br)
	}
	w.putBack(br)
	if err != nil {
		if IsLimit(err) {
			return nil, err
		}
		return nil, fmt.Errorf("reading %s: %w", n.origin, err)
	}
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		if clean != nil {
			clean()
		}
		return zipUnreadable(n, size, err), nil
	}
	zr.RegisterDecompressor(zip.Deflate, func(rd io.Reader) io.ReadCloser { return flate.NewReader(rd) })
	w.frames = append(w.frames, &zipFrame{w: w, n: n, files: zr.File, clean: clean})
	return nil, nil
}

// spool copies a zip archive met in a stream to a temporary file, for
// random access.
func (w *Walker) spool(n node, r io.Reader) (io.ReaderAt, int64, func(), error) {
	f, err := tempfile.Create("", "neardup-zip-*")
	if err != nil {
		return nil, 0, nil, err
	}
	clean := func() { f.Close() }
	size, err := io.Copy(f, io.LimitReader(r, min(w.opts.MaxInflate, math.MaxInt64-1)+1))
	if err == nil && size > w.opts.MaxInflate {
		err = &LimitError{Origin: n.origin, Inflated: size, Max: w.opts.MaxInflate}
	}
	if err != nil {
		clean()
		return nil, 0, nil, err
	}
	return f, size, clean, nil
}

func (z *zipFrame) next() (entry, error) {
	if z.cur != nil {
		z.cur.Close()
		z.cur = nil
		if err := z.lim.err; err != nil {
			return entry{n: node{origin: err.Origin, id: err.Origin}, skip: err}, nil
		}
	}
	for len(z.files) > 0 {
		f := z.files[0]
		z.files = z.files[1:]
		z.entries++
		if f.FileInfo().IsDir() {
			continue
		}
		if f.Mode()&fs.ModeSymlink != 0 {
			// As a tar's links: said, not read as a file of its target's name.
			if e, ok := z.w.member(z.n, zipName(f), 0, z.entries); ok {
				if e.skip == nil {
					e.skip = fmt.Errorf("%s: refused: a link to %q, which is not followed", e.n.origin, zipLinkTarget(f))
				}
				return e, nil
			}
			continue
		}
		size := int64(f.UncompressedSize64)
		if f.UncompressedSize64 > 1<<62 {
			size = -1
		}
		e, ok := z.w.member(z.n, zipName(f), size, z.entries)
		if !ok {
			continue
		}
		if e.skip != nil {
			return e, nil
		}
		if z.w.over { // the archive's members inflated past the bound together: none more is
			return entry{n: e.n, skip: z.w.sumError(e.n.origin)}, nil
		}
		if f.Flags&zipEncrypted != 0 { // this member only: its bytes are not its data
			return entry{n: e.n, skip: fmt.Errorf("%s: refused: encrypted (a password-protected zip member), not read", e.n.origin)}, nil
		}
		if f.Method == zip.Deflate && f.UncompressedSize64 > uint64(z.w.opts.MaxInflate) {
			return entry{n: e.n, skip: &LimitError{Origin: e.n.origin, Inflated: size, Max: z.w.opts.MaxInflate}}, nil
		}
		rc, err := f.Open()
		if errors.Is(err, zip.ErrAlgorithm) { // Deflate64, bzip2, LZMA …: this member only
			return entry{n: e.n, skip: fmt.Errorf("%s: refused: compression method %d: %w", e.n.origin, f.Method, err)}, nil
		}
		comp := int64(f.CompressedSize64)
		if err == nil {
			rc, err = z.checked(f, rc, e.n.origin, comp)
		} else {
			err = zipDamage(e.n.origin, err) // its local header: this member only
		}
		if stop := z.w.opts.Stop; err != nil && stop != nil && stop.Err() != nil {
			return entry{}, context.Cause(stop)
		}
		if err != nil {
			return entry{n: e.n, skip: err}, nil
		}
		z.cur = rc
		z.lim = z.w.limiter(e.n.origin, rc, func() int64 { return comp })
		e.r = z.lim
		return e, nil
	}
	return entry{}, io.EOF
}

// zipEncrypted is the bit of a zip member's general purpose flags that
// says its data is encrypted (traditional PKWARE or WinZip AES).
const zipEncrypted = 0x1

// zipName returns the name of a zip member in UTF-8: as stored when its
// UTF-8 flag (bit 11) is set or it is UTF-8, else decoded from code page
// 437, the zip format's own charset, which Windows' built-in zip and older
// tools write ("R\x82sum\x82.txt" is "Résumé.txt").
func zipName(f *zip.File) string {
	if f.Flags&0x800 != 0 || utf8.ValidString(f.Name) {
		return f.Name
	}
	name, err := charmap.CodePage437.NewDecoder().String(f.Name)
	if err != nil {
		return f.Name
	}
	return name
}

// zipLinkTarget returns what a zip's symbolic link names: the member's
// data, its first 1,024 bytes; "" when it cannot be read.
func zipLinkTarget(f *zip.File) string {
	rc, err := f.Open()
	if err != nil {
		return ""
	}
	defer rc.Close()
	target, _ := io.ReadAll(io.LimitReader(rc, 1024))
	return string(target)
}

func (z *zipFrame) close() {
	if z.cur != nil {
		z.cur.Close()
		z.cur = nil
	}
	if z.clean != nil {
		z.clean()
	}
}

// --- bounds ---

// limiter stops a decompressed stream that inflates past the bounds.
type limiter struct {
	w      *Walker
	origin string
	r      io.Reader
	n      int64
	comp   func() int64 // the compressed size the ratio is measured against (see streamSize)
	err    *LimitError
}

func (w *Walker) limiter(origin string, r io.Reader, comp func() int64) *limiter {
	return &limiter{w: w, origin: origin, r: r, comp: comp}
}

func (l *limiter) Read(p []byte) (int, error) {
	if l.err == nil && l.w.over {
		l.err = l.w.sumError(l.origin) // a stream after the input's sum passed its bound
	}
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	l.count(int64(n))
	if l.err != nil {
		// What a refused stream inflated counts against the others: an
		// archive of many members, each refused after inflating a little,
		// is held to the sum's bound as one of members read whole.
		return n, l.err
	}
	return n, err
}

// count counts n bytes inflated against the bounds, setting err once
// they are passed.
func (l *limiter) count(n int64) {
	l.n += n
	l.w.total += n
	o := l.w.opts
	switch c := l.comp(); {
	case l.err != nil:
	case l.n > o.MaxInflate:
		l.err = &LimitError{Origin: l.origin, Inflated: l.n, Compressed: c, Max: o.MaxInflate}
	case l.n > ratioFloor && l.n > o.MaxRatio*max(c, 1):
		l.err = &LimitError{Origin: l.origin, Inflated: l.n, Compressed: c, Ratio: o.MaxRatio}
	case l.w.total > ratioFloor && l.w.total > o.MaxRatio*max(l.w.inputBytes(), 1):
		l.w.over = true
		l.err = l.w.sumError(l.origin)
	}
}

// discarded counts n bytes inflated and thrown away (gzipMembers.discard)
// against the bounds, and returns the refusal once they are passed.
func (l *limiter) discarded(n int64) error {
	l.count(n)
	if l.err != nil {
		return l.err
	}
	return nil
}

// sumError is the refusal of the stream origin once the streams of the
// input, together, inflated past the ratio against its size.
func (w *Walker) sumError(origin string) *LimitError {
	return &LimitError{Origin: origin, Inflated: w.total, Compressed: w.inputBytes(), Ratio: w.opts.MaxRatio, Input: w.top.Origin}
}

// inputBytes is the size of the input, or what has been read of it but
// at least unsizedFloor.
func (w *Walker) inputBytes() int64 {
	if w.top.Size > 0 {
		return w.top.Size
	}
	return max(w.topN.n, unsizedFloor)
}

// streamSize returns the compressed size the ratio of the stream n
// (of which *read bytes are read) is measured against: its whole size when
// known (a file, an archive's member), else the bytes read of it so far
// but at least unsizedFloor. The same for gzip, Zstandard and bzip2.
func streamSize(n node, read *int64) func() int64 {
	if n.size > 0 {
		size := n.size
		return func() int64 { return max(size, *read) }
	}
	return func() int64 { return max(*read, unsizedFloor) }
}

// countReader counts the bytes read through it, and keeps the first error
// but io.EOF its reader returned.
type countReader struct {
	r   io.Reader
	n   int64
	err error
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF && c.err == nil {
		c.err = err
	}
	return n, err
}
