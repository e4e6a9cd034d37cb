package corpus

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/tempfile"
	"golang.org/x/text/encoding"
)

// Reader yields the records of a list of inputs, in order. NextRaw, Next,
// Rewind and Close are for one goroutine at a time; Decode and Progress are
// safe to call from any goroutine at any time.
type Reader struct {
	opts  Options
	cfg   config
	names [nFields]string
	keys  [nFields][]byte
	// paths holds, for a field named by a dotted path into a JSON record
	// ("_source.title"), the keys after the first, which keys holds.
	paths   [nFields][][]byte
	nested  bool // some field has a path
	inputs  []*input
	given   []string // the paths given (PathName), each the root of its ids (idOf)
	raw     []string // the paths given, as given (container.IDNames)
	idNames []string // the name each path given stands for in ids
	givenAt givenSet // the inputs given, to tell one given twice

	next int               // the index of the next input to open
	walk *container.Walker // the open input's walk, nil between inputs
	cur  source            // the open leaf stream, nil between streams
	// curRead counts the records of the open leaf stream, curOrigin names
	// it; limitIn names the stream that stopped at a decompression bound
	// ("" when none did) and limitRead its records, for the refusal the
	// walk gives next.
	curRead, limitRead int
	curOrigin, limitIn string
	curAt              *place      // where the open leaf stream's records are read, beyond their origin
	curReady           func() bool // container.Member.Ready of the open leaf stream
	emptyDirs          []string    // see EmptyDirs
	in                 *input      // the open input's description
	err                error       // the fatal error that ended this pass
	closed             bool
	pages              int               // web pages yielded this pass, numbering them for memo
	kinds              atomic.Uint32     // the Kinds of the records yielded
	records            int               // records yielded this pass, numbering them (Raw.seq)
	memo               pageMemo          // how each web page turned out (memo.go)
	seen               seenFields        // the field names of the first records (fields.go)
	enc                encoding.Encoding // Options.Charset; nil when not set

	// unlisted counts the files and archive members not read for their
	// names (see Unlisted); rewound stops the count after the first pass.
	unlisted      int
	firstUnlisted string
	rewound       bool
	// cutWARCs counts the WARC files cut short between records (see
	// CutWARCs), with the first; the first pass only.
	cutWARCs int
	firstCut string
	// damagedWARCs counts the WARC files holding bytes that start no
	// record (see DamagedWARCs), with the first; the first pass only.
	damagedWARCs struct {
		strays
		last string // the origin counted last: a file's damage counts once
	}
	// gzipStrays and bzip2Strays count the gzip and bzip2 streams that
	// end in stray bytes after their last whole member or stream (see
	// StrayBytes), with the first; the first pass only.
	gzipStrays, bzip2Strays strays
	// detected counts the text, CSV and TSV files read in the charset
	// detected from their bytes (see Detected), with the first and that
	// charset; the first pass only.
	detected strays

	dates unreadDates // date values no layout reads (date.go)
	// misses counts the pages on which a site rule's body selector matched
	// nothing, with the first (html.go); the first pass only.
	misses unreadDates

	// shareLines lets a JSONL line's bytes stay in the read buffer (see
	// NextRawShared).
	shareLines bool
	// lineBuf, when not nil, is where a JSONL line's bytes are copied if
	// they fit its spare capacity (see NextRawIn).
	lineBuf []byte

	// stop, when not nil, ends the reads of standard input and of the
	// pipes that wait for input (see StopWith).
	stop context.Context

	copied   int64        // bytes of the streams' copies (Options.MaxStreamCopy)
	copyErr  error        // what stopped a stream's copy (a *StreamCopyError, a full disk); fatal
	finished atomic.Int64 // bytes of the inputs done this pass
	reading  atomic.Int64 // bytes read of the open input
	total    atomic.Int64 // bytes of all inputs; -1 until known
	// reread is the bytes this pass reads twice (zip members checked
	// before they are read: container.Options.Reread), counted in the
	// total; inReread those of the open input.
	reread   atomic.Int64
	inReread int64
	known    int64 // bytes of the inputs whose size is known
	unknown  int   // inputs whose size is not known yet
}

// config holds what tests change.
type config struct {
	stdin   io.Reader // what "-" reads
	bufSize int       // the read buffer of line formats (and, under 4 KiB, of CSV)
	slack   int       // bytes a line or file may hold beyond MaxBytes (tests)
}

const defaultBufSize = 1 << 20

// input is one file or stream named by the caller (or found in a directory).
type input struct {
	path   string    // the file to open; a stream's copy once drained
	origin string    // names its records and errors
	id     string    // the id of a whole-file record: relative path or base name
	size   int64     // bytes; -1 while unknown
	stream io.Reader // nil for a file, and for a stream once copied whole
	// tee is the copy of stream: being made while stream is read, read in
	// its place once whole; its name is gone from the temporary folder
	// from the start where the system allows (package tempfile), and
	// Close frees it.
	tee   *tempfile.File
	sink  io.Writer // tee, bounded by Options.MaxStreamCopy
	err   error     // why a file met in a directory cannot be read (container.File.Err)
	given bool      // a file named on the command line itself, not met in a directory
	stdin bool      // standard input ("-")
	file  *os.File  // the file while it is read
	// pipe marks a path given that can be read once only (a named pipe,
	// a device, /dev/fd/N: container.File.Stream) and is not opened yet:
	// opened, it is read as a stream, held, and copied aside as standard
	// input is.
	pipe bool
	held *os.File // the pipe opened as stream, closed once copied whole
	// ready, of a stream read once (Options.SinglePass) that may pause,
	// says whether bytes have arrived that no read took yet
	// (container.Arrived); nil for a file, and a stream never asked.
	ready func() bool
}

// source yields the records of one opened input.
type source interface {
	next() (Raw, error) // io.EOF at the end
	close()
}

// Open returns a Reader of paths, read in order. "-" is standard input; a
// path given that is no regular file (a named pipe, a character device, a
// shell's process substitution, /dev/fd/N) is opened when reading reaches
// it and read as standard input is: once, copied aside for Rewind. A
// directory is walked in lexical order for the files whose extensions the
// table of formats names (package container: .jsonl, .csv, .txt, .html,
// .warc, .sgm, .zip, .tar, .gz ...), skipping names that start with "."; a
// file given directly is read whatever its extension. Archives and gzip
// nest in any order (.tar.gz, a .zip of .jsonl.gz). Errors name the path at
// fault. Files are opened one at a time, as reading reaches them.
//
// Origins use the path as given, joined with the path under a directory
// and in archives ("news.jsonl:17", "dir/sub/a.txt", "dir/b.zip/c.jsonl:3").
// A record without an id takes its origin as id, except that a whole-file
// record (a text file) takes its path relative to the directory given, or
// its base name ("sub/a.txt", "a.txt"), and inside an archive its origin,
// qualified by the archive's path ("dir/b.zip/c.txt"). A web page's id is
// its origin, as `neardup extract` names it: "dir/sub/a.html",
// "dir/b.zip/c.html", "crawl.warc.gz#17" for the 17th record of a WARC
// file. A member of an archive that is refused (a name leaving the
// archive, too deep a nesting, a decompression bomb) is a record skipped
// as core.SkipRefused that says why, and so is a file met in a directory
// that cannot be reached (a symbolic link to nothing, a loop of links, a
// directory walked already through another link, a directory or file not
// readable, a file gone since the directory was walked). Symbolic links
// met in a directory are followed, to files and to directories.
func Open(paths []string, opts Options) (*Reader, error) {
	return open(paths, nil, opts, config{stdin: os.Stdin})
}

// StopWith makes the reads of standard input and of the pipes among the
// inputs (a named pipe, /dev/fd/N: read once, as standard input is) give
// up when ctx ends, with context.Cause(ctx) as their error, which is
// context.Canceled too (container.Interruptible), rather than wait for
// input that may not come (a terminal, a writer that holds the pipe open
// and writes nothing): NextRaw then fails with it, so that a run
// stopped by a signal ends at once. The read left under way goes on, on a
// goroutine of its own, and what it reads is dropped
// (container.Interruptible); the opening of a named pipe that no writer
// opens yet is given up too, and so is the check of a large zip member,
// read through before any record of it (container.Options.Stop). Files
// are not affected otherwise: their reads end. Call
// it once, before reading; the stream of OpenReader, the caller's, is read
// as given.
func (r *Reader) StopWith(ctx context.Context) {
	r.stop = ctx
	for _, in := range r.inputs {
		if in.stdin && in.stream != nil {
			in.stream = container.Interruptible(ctx, in.stream)
		}
	}
}

// OpenReader returns a Reader of one stream. name stands for it in origins
// and ids, and its extension, if any, chooses the format ("upload.jsonl.gz").
// A record without an id of its own takes its origin relative to the
// directory holding name, as Open names it ("a.jsonl:17" of a stream named
// "/data/a.jsonl"). Unless opts.SinglePass is set, the Reader copies r to a
// temporary file as it reads, for Rewind; it does not close r.
func OpenReader(name string, r io.Reader, opts Options) (*Reader, error) {
	return OpenReaderNamed(name, filepath.Base(name), r, opts)
}

// OpenReaderNamed is OpenReader with the name its records' ids start with
// in place of name's base name: idName is what container.IDNames gives of
// name among the inputs of a run ("d1/x.jsonl" of "/data/d1/x.jsonl"
// beside "/data/d2/x.jsonl"), so that a stream read apart from the others
// (each input of a Beam pipeline on a worker of its own) names a record
// without an id as Open names it, reading them all: "d1/x.jsonl:3".
func OpenReaderNamed(name, idName string, r io.Reader, opts Options) (*Reader, error) {
	origin := container.PathName(name) // as Open writes a path given
	rd, err := open(nil, &input{origin: origin, id: idName, stream: &onceEOF{r: r}, size: -1, ready: arrived(r)}, opts, config{})
	if err == nil && name != "" && name != "-" {
		rd.given, rd.raw, rd.idNames = []string{origin}, []string{name}, []string{idName}
	}
	return rd, err
}

func open(paths []string, stream *input, opts Options, cfg config) (*Reader, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if cfg.bufSize == 0 {
		cfg.bufSize = defaultBufSize
	}
	r := &Reader{opts: opts, cfg: cfg, names: opts.names()}
	if opts.Charset != "" {
		if r.enc, err = lookupCharset(opts.Charset); err != nil {
			return nil, err
		}
	}
	for f, n := range r.names {
		r.keys[f] = []byte(n)
		if head, rest, ok := strings.Cut(n, "."); ok && head != "" && rest != "" {
			r.keys[f], r.nested = []byte(head), true
			for k := range strings.SplitSeq(rest, ".") {
				r.paths[f] = append(r.paths[f], []byte(k))
			}
		}
	}
	if stream != nil {
		r.inputs = append(r.inputs, stream)
	}
	if len(paths) > 1 {
		r.givenAt.listed = map[container.FileKey]listedBy{}
	}
	for _, p := range paths {
		if err := r.add(p); err != nil {
			return nil, err
		}
	}
	r.givenAt.listed = nil               // checked: not held through the run
	r.idNames = container.IDNames(r.raw) // once: a name depends on every other input's
	for _, in := range r.inputs {
		r.sized(in, in.size)
	}
	return r, nil
}

// sized counts an input of size bytes (-1: unknown) in the total.
func (r *Reader) sized(in *input, size int64) {
	if size < 0 {
		r.unknown++
	} else {
		r.known += size
	}
	if r.unknown == 0 {
		r.total.Store(r.known)
	} else {
		r.total.Store(-1)
	}
}

// ErrGivenTwice is the error of an input given twice (one file or
// directory, however its path is written): every record would repeat
// itself.
var ErrGivenTwice = errors.New("corpus: an input is given twice")

// CheckGiven returns an error wrapping ErrGivenTwice, as Open's, when two
// of paths are one input: "-" twice, or one file or directory however its
// path is written, or when two of them list one file (a directory and a
// file in it). files[i] holds the files the caller listed of paths[i] (as
// container.List lists them; none for "-" or a path not listed), which it
// goes on to read: no directory is walked here. A path that is not there
// is no error here. It is the check of a command that reads paths without
// a Reader (`neardup extract`).
func CheckGiven(paths []string, files [][]container.File) error {
	var g givenSet
	if len(paths) > 1 {
		g.listed = map[container.FileKey]listedBy{}
	}
	for i, p := range paths {
		if err := g.add(p); err != nil {
			return err
		}
		if g.listed == nil || p == "-" {
			continue
		}
		if err := g.list(p, files[i]); err != nil {
			return err
		}
	}
	return nil
}

// givenSet holds the inputs given, to tell one given twice.
type givenSet struct {
	stdin bool                    // "-" is given
	at    map[fileKey][]givenFile // the paths given that are there
	// listed holds, when more than one path is given, each file their
	// walks list, by its device and inode, with the path given that
	// listed it: a file listed by two (a directory and a file in it)
	// would be read twice.
	listed map[container.FileKey]listedBy
}

// listedBy is a file a path given lists, and that path.
type listedBy struct {
	file, given string
}

// list notes the files that the path given lists, or refuses one that
// another path given listed already (ErrGivenTwice).
func (g *givenSet) list(given string, files []container.File) error {
	for _, f := range files {
		if f.Err != nil || f.Stream {
			continue
		}
		if prev, ok := g.listed[f.Key]; ok { // one walk lists a file once (container.ListedError)
			return fmt.Errorf("%w: %s, read from %s and from %s", ErrGivenTwice, prev.file, prev.given, given)
		}
		g.listed[f.Key] = listedBy{f.Path, given}
	}
	return nil
}

// add notes the input p, or refuses it (ErrGivenTwice) when an earlier one
// is the same: standard input, or one file or directory (os.SameFile,
// through links), however its path is written.
func (g *givenSet) add(p string) error {
	if p == "-" {
		if g.stdin {
			return fmt.Errorf("%w: standard input (-)", ErrGivenTwice)
		}
		g.stdin = true
		return nil
	}
	st, err := os.Stat(p)
	if err != nil {
		return nil // not there: reading it says so
	}
	k := fileKey{st.Size(), st.ModTime().UnixNano()}
	for _, q := range g.at[k] {
		if os.SameFile(st, q.info) {
			// Every record would repeat itself: ids repeated, each
			// pair found twice.
			return fmt.Errorf("%w: %s (as %s too)", ErrGivenTwice, p, q.path)
		}
	}
	if g.at == nil {
		g.at = map[fileKey][]givenFile{}
	}
	g.at[k] = append(g.at[k], givenFile{p, st})
	return nil
}

// add appends the inputs a path names.
func (r *Reader) add(p string) error {
	if p == "-" {
		if err := r.givenAt.add(p); err != nil {
			return err
		}
		r.inputs = append(r.inputs, &input{origin: "stdin", id: "stdin", stream: &onceEOF{r: r.cfg.stdin}, size: -1, stdin: true,
			ready: arrived(r.cfg.stdin)})
		return nil
	}
	unlisted := func(path string) { r.noteUnlisted(container.PathName(path)) }
	files, err := container.List(p, container.ListOptions{Exclude: r.opts.Exclude, Unlisted: unlisted})
	if nf := (*container.NoFilesError)(nil); errors.As(err, &nf) {
		// Told (EmptyDirs), not fatal: the other inputs are read, and a
		// run that reads no record at all fails as any without documents.
		r.emptyDirs, err = append(r.emptyDirs, nf.Error()), nil
	}
	if err != nil {
		return err
	}
	if err := r.givenAt.add(p); err != nil {
		return err
	}
	if r.givenAt.listed != nil {
		if err := r.givenAt.list(p, files); err != nil {
			return err
		}
	}
	r.given, r.raw = append(r.given, container.PathName(p)), append(r.raw, p)
	// A whole-file record is named by its path as found (as a page, or an
	// archive's member, is): two inputs holding files of one name, say
	// d1/a.txt and d2/a.txt, give two ids.
	for _, f := range files {
		name := container.PathName(f.Path) // a name not UTF-8 (Latin-1) in origins and ids
		r.inputs = append(r.inputs, &input{path: f.Path, origin: name, id: name, size: f.Size, err: f.Err,
			given: f.Path == p, pipe: f.Stream})
	}
	return nil
}

// EmptyDirs returns, for each directory given that holds no file to read
// (none, or only files of names not read, which Unlisted counts), what it
// lacks: "empty: no .jsonl, … or .parquet files". Reading goes on without
// it.
func (r *Reader) EmptyDirs() []string { return r.emptyDirs }

// noteUnlisted counts a file or archive member not read for its name, once
// (the first pass); origin is as container.PathName writes it.
func (r *Reader) noteUnlisted(origin string) {
	if r.rewound {
		return
	}
	if r.unlisted == 0 {
		r.firstUnlisted = origin
	}
	r.unlisted++
}

// strays counts the files of one kind, with the first of them: of one
// compressed format that end in stray bytes, or WARC files holding bytes
// that start no record.
type strays struct {
	n     int
	first string // "news.jsonl.gz, 512 bytes"
}

// noteReread counts n bytes of the open input, which are read twice, in
// the pass's total (see Progress).
func (r *Reader) noteReread(n int64) {
	r.inReread += n
	r.reread.Add(n)
}

// noteStray counts a gzip or bzip2 stream that ends in n stray bytes
// after its last whole member or stream, once (the first pass).
func (r *Reader) noteStray(origin string, f container.Format, n int64) {
	s := &r.gzipStrays
	if f == container.Bzip2 {
		s = &r.bzip2Strays
	}
	if r.rewound {
		return
	}
	if s.n == 0 {
		unit := "bytes"
		if n == 1 {
			unit = "byte"
		}
		s.first = fmt.Sprintf("%s, %d %s", origin, n, unit)
	}
	s.n++
}

// StrayBytes returns how many files of the compressed format f (Gzip or
// Bzip2; streams inside archives too) the first pass read to an end in
// bytes after their last whole gzip member, or bzip2 stream, that start
// no other (zero padding from a tape or disk copy, a line end, junk), and
// the first with how many bytes it holds ("news.jsonl.gz, 512 bytes").
// Their records are read, every one of their whole members or streams,
// and those bytes ignored, as gzip(1) and bzip2(1) do; a member or stream
// cut short is an error. Of another format, it returns 0 and "".
func (r *Reader) StrayBytes(f container.Format) (n int, first string) {
	switch f {
	case container.Gzip:
		return r.gzipStrays.n, r.gzipStrays.first
	case container.Bzip2:
		return r.bzip2Strays.n, r.bzip2Strays.first
	}
	return 0, ""
}

// Detected returns how many text, CSV and TSV files (members of archives
// too) the first pass read in a charset detected from their bytes, being
// neither UTF-8 nor given by Options.Charset nor a byte-order mark, and the
// first with its charset ("notes.csv, windows-1250"). Detection is unsure
// on a short text between Latin charsets (a Polish file in Windows-1250
// may read as Windows-1252), so a run says so.
func (r *Reader) Detected() (n int, first string) { return r.detected.n, r.detected.first }

// StrayWarning is the warning, without a line end, of n files of the
// compressed format f (Gzip or Bzip2) that end in stray bytes, the first
// being first (as StrayBytes returns them): "warning: gzip files with
// stray bytes after their last member: 2 (e.g. news.jsonl.gz, 512
// bytes); ...".
func StrayWarning(f container.Format, n int, first string) string {
	part, tool := "member", "gzip -d"
	if f == container.Bzip2 {
		part, tool = "stream", "bzip2 -d"
	}
	return fmt.Sprintf("warning: %s files with stray bytes after their last %s: %d (e.g. %s); every record of their "+
		"whole %ss is read, and the bytes after them, which start no %s (padding, junk), are ignored, as %s ignores them",
		f, part, n, first, part, part, tool)
}

// Unlisted returns how many files of the directories and members of the
// archives read were left unread because their names are not of a format
// the Reader reads (container's table of formats; with
// Options.FormatOnly, of Options.Format), and the first of them. A file
// named by its own path is read whatever its name, but under FormatOnly.
func (r *Reader) Unlisted() (n int, first string) {
	return r.unlisted, r.firstUnlisted
}

// NextRaw returns the next record undecoded, or io.EOF after the last. A
// fatal error (an input that cannot be opened or read to its end) names the
// file and how far reading got; it ends the pass and is returned again by
// later calls until Rewind.
func (r *Reader) NextRaw() (Raw, error) {
	raw, err := r.nextRaw()
	if err == nil {
		raw.seq = r.records
		r.records++
		r.kinds.Store(r.kinds.Load() | uint32(raw.sourceKind()))
	}
	return raw, err
}

// Kinds says which kinds of records the Reader has yielded (NextRaw), by
// where each could take a source from: a message that asks for documents'
// sources names what each kind has. Safe to call while another goroutine
// reads.
func (r *Reader) Kinds() Kinds { return Kinds(r.kinds.Load()) }

// Kinds is a set of kinds of records, by where each takes its document's
// source from.
type Kinds uint32

// The kinds of records.
const (
	KindFields   Kinds = 1 << iota // a JSON object, a CSV or Parquet row: a field or column (Options.SourceField)
	KindMarkdown                   // a Markdown file: its front matter's source: or url:
	KindPage                       // a web page without a URL of its own: its og:site_name, else the host of the URL it declares
	KindOther                      // another record (a plain text file, a Reuters-21578 story, a feed's item, a WARC record's page): no source to give it but its own
)

// sourceKind is the kind of record raw is (Kinds); 0 for one that is no
// document (too large, binary, malformed, refused).
func (raw *Raw) sourceKind() Kinds {
	switch raw.kind {
	case rawJSON, rawCSV, rawParquet:
		return KindFields
	case rawText:
		if raw.md {
			return KindMarkdown
		}
		return KindOther
	case rawPage:
		if raw.page != nil && raw.page.url != "" {
			return KindOther
		}
		return KindPage
	case rawSGML, rawItem:
		return KindOther
	}
	return 0
}

func (r *Reader) nextRaw() (Raw, error) {
	if r.closed {
		return Raw{}, errors.New("corpus: NextRaw after Close")
	}
	for r.err == nil {
		if r.copyErr != nil {
			r.err = r.copyErr // however the stream's reader took it
			r.closeInput()
			break
		}
		if r.walk == nil {
			if r.next >= len(r.inputs) {
				return Raw{}, io.EOF
			}
			r.in = r.inputs[r.next]
			r.next++
			if r.in.err != nil { // met in a directory, not reachable: skipped, the rest read
				return Raw{Origin: r.in.origin, kind: rawRefused, id: r.in.id, note: r.in.err.Error()}, nil
			}
			w, err := r.openInput(r.in)
			if pe := (*fs.PathError)(nil); err != nil && !r.in.given && errors.As(err, &pe) {
				// Met in a directory and not to be opened (not readable,
				// gone since the walk): skipped as one not reachable.
				r.finished.Add(max(r.in.size, 0))
				return Raw{Origin: r.in.origin, kind: rawRefused, id: r.in.id, note: err.Error()}, nil
			}
			if err != nil {
				r.err = plainCut(err)
				break
			}
			r.walk = w
		}
		if r.cur == nil {
			m, err := r.walk.Next()
			switch {
			case err == io.EOF:
				r.err = r.endInput()
				continue
			case err != nil:
				r.err = plainCut(err)
				r.closeInput()
				continue
			case m.Skip != nil:
				return Raw{Origin: m.Origin, kind: rawRefused, id: m.ID, note: r.refusal(m.Skip)}, nil
			}
			src, err := r.openMember(m)
			if err != nil {
				r.err = plainCut(err)
				r.closeInput()
				continue
			}
			r.cur, r.curRead, r.curOrigin, r.limitIn, r.curAt = src, 0, m.Origin, "", placeOf(r.in, m)
			r.curReady = m.Ready
		}
		raw, err := r.cur.next()
		if err == nil {
			r.curRead++
			raw.at = r.curAt
			return raw, nil
		}
		r.cur.close()
		r.cur, r.curReady = nil, nil
		stopped := container.IsLimit(err) || container.IsDamage(err)
		if stopped {
			r.limitIn, r.limitRead = r.curOrigin, r.curRead
		}
		if err != io.EOF && !stopped { // the walk reports a stream stopped at a limit, or cut short in an archive
			r.err = plainCut(err)
			r.closeInput()
		}
	}
	if r.copyErr != nil {
		r.err = r.copyErr // not "reading stdin: … after line 9": the copy, not the stream, ended it
	}
	return Raw{}, r.err
}

// refusal is the note of a stream the walk refused: its reason, and for
// one stopped part-way at a decompression bound, or at the end of a tar
// archive cut short inside it, how far it was read: its records up to
// there were read, the rest were not (and are counted nowhere: they were
// never seen).
func (r *Reader) refusal(skip error) string {
	in := r.limitIn
	r.limitIn = ""
	if in == "" || !container.IsLimit(skip) && !container.IsDamage(skip) {
		return skip.Error()
	}
	where := " in " + in // a member of the archive the bound refused
	if le := (*container.LimitError)(nil); errors.As(skip, &le) && le.Origin == in {
		where = ""
	}
	if de := (*container.DamageError)(nil); errors.As(skip, &de) && de.Origin == in {
		where = ""
	}
	if r.limitRead == 0 {
		return fmt.Sprintf("%s; reading stopped%s before its first record: none of it is read", skip.Error(), where)
	}
	return fmt.Sprintf("%s; reading stopped%s after its record %d: the records up to there are read, the rest of it is not", skip.Error(), where, r.limitRead)
}

// NextRawShared is NextRaw for a caller that is done with each record
// before it asks for the next: the bytes of a JSONL line (Raw.JSONLine) are
// not copied out of the Reader's buffers, so they are valid only until the
// next call of NextRaw or NextRawShared, and Decode of that Raw is valid only
// until then too. Records of other kinds are as NextRaw gives them.
func (r *Reader) NextRawShared() (Raw, error) {
	r.shareLines = true
	defer func() { r.shareLines = false }()
	return r.NextRaw()
}

// NextRawIn is NextRaw with a JSONL line's bytes copied into the spare
// capacity of buf when they fit there, rather than into memory of their
// own: it returns buf extended by them, or buf unchanged. The caller may
// write over buf's memory once it no longer uses the Raw, the Record
// Decode makes of it and its Doc.Raw: a batch of records read into one
// buffer again and again takes no allocation a line. Records of other
// kinds, and lines that do not fit, are as NextRaw gives them.
func (r *Reader) NextRawIn(buf []byte) (Raw, []byte, error) {
	r.lineBuf = buf
	raw, err := r.NextRaw()
	buf, r.lineBuf = r.lineBuf, nil
	return raw, buf, err
}

// closeInput closes the open input, if any. Inputs are only read, so closing
// loses nothing; a reading error has been reported by then.
func (r *Reader) closeInput() {
	if r.cur != nil {
		r.cur.close()
		r.cur, r.curReady = nil, nil
	}
	if r.walk != nil {
		r.walk.Close()
		r.walk = nil
	}
	if r.in != nil && r.in.file != nil {
		r.in.file.Close()
		r.in.file = nil
	}
}

// Pending reports whether the next record is at hand: NextRaw returns it
// (or the end) without waiting for a stream read once (standard input, a
// pipe, with Options.SinglePass) that gives nothing for now. It is true
// of a file. A caller that gathers records in batches hands on what it
// holds when it is false, rather than hold them until the stream goes on
// (`neardup index add` of a live stream). It costs a call of no system
// call for a file; call it from the goroutine that reads.
func (r *Reader) Pending() bool {
	if r.curReady == nil {
		return true
	}
	if b, ok := r.cur.(interface{ buffered() bool }); ok && b.buffered() {
		return true
	}
	return r.curReady()
}

// arrived returns container.Arrived of a stream that is a file (standard
// input, a pipe), nil of any other reader.
func arrived(rd io.Reader) func() bool {
	if f, ok := rd.(*os.File); ok {
		return container.Arrived(f)
	}
	return nil
}

// Next returns the next record decoded: Decode(NextRaw()).
func (r *Reader) Next() (Record, error) {
	raw, err := r.NextRaw()
	if err != nil {
		return Record{}, err
	}
	return r.Decode(raw), nil
}

// endInput closes the open input; a stream is read to its end so the copy
// for the next pass is whole.
func (r *Reader) endInput() error {
	r.closeInput()
	in := r.in
	var err error
	if in.stream != nil && !r.opts.SinglePass {
		err = r.drain(in)
	}
	if in.size >= 0 {
		r.finished.Add(in.size + r.inReread)
	} else {
		r.finished.Add(r.reading.Load())
	}
	r.reading.Store(0)
	r.inReread = 0
	return err
}

// Progress returns the bytes of the inputs consumed so far in this pass
// (compressed bytes for .gz and .zip) and their total, -1 while unknown (a
// stream on its first pass). A zip member checked before it is read (one
// over 16 MiB: see container.Options.Reread) counts twice in both, once
// for each read, once its check starts. It is safe to call while another
// goroutine reads.
func (r *Reader) Progress() (done, total int64) {
	done = r.finished.Load() + r.reading.Load()
	total = r.total.Load()
	if total >= 0 {
		total += r.reread.Load()
	}
	if total >= 0 && done > total {
		done = total
	}
	return done, total
}

// Rewind restarts reading from the first input; the next pass yields the
// same records in the same order. A stream not read to its end yet is
// copied to its end first.
func (r *Reader) Rewind() error {
	if r.closed {
		return errors.New("corpus: Rewind after Close")
	}
	r.closeInput()
	var err error
	for _, in := range r.inputs {
		if (in.stream != nil || in.pipe) && r.opts.SinglePass {
			return fmt.Errorf("corpus: Rewind of %s, opened with SinglePass", in.origin)
		}
		if in.stream != nil {
			if derr := r.drain(in); err == nil {
				err = derr
			}
		}
	}
	r.next, r.in, r.err, r.pages, r.records = 0, nil, nil, 0, 0
	r.rewound = true
	r.finished.Store(0)
	r.reading.Store(0)
	r.reread.Store(0)
	r.inReread = 0
	return err
}

// Close ends reading and removes temporary files. It does not close
// standard input or a stream given to OpenReader. It is safe to call twice.
func (r *Reader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	r.closeInput()
	errs := []error{r.memo.close()}
	for _, in := range r.inputs {
		if in.held != nil {
			errs = append(errs, in.held.Close())
			in.held = nil
		}
		if in.tee != nil {
			errs = append(errs, in.tee.Close())
			in.tee = nil
		}
	}
	return errors.Join(errs...)
}

// idOf returns the id of a record named by its origin (a whole file, an
// archive's member, a line or a WARC record without an id of its own): the
// origin relative to the directory holding the input given, which keeps
// the input's own name ("bbc.tar.gz/bbc/tech/132.txt" for an input given
// as /data/bbc.tar.gz). An id of the record's own, or one from stdin, is
// returned as it is.
func (r *Reader) idOf(origin string) string {
	for i := len(r.given) - 1; i >= 0; i-- {
		if id := container.RelativeID(r.given[i], r.idNames[i], origin); id != origin {
			return id
		}
	}
	return origin
}

// FileID returns the name the ids of r give the file (or archive member)
// at path, as an origin names it: relative to the directory holding the
// input given, as the id of a record named by its origin is
// ("sh/shard-01.jsonl" of "/data/sh/shard-01.jsonl", for an input given
// as /data/sh or as sh from /data); path as it is when no input holds it.
func (r *Reader) FileID(path string) string { return r.idOf(path) }

// NamedByOrigin reports whether d, read by r, has no id of its own: it is
// named by where it was read (its file, archive member, line or record;
// see docs/outputs.md, "Ids"), relative to the inputs given, so that a
// file of the same name read in another run names its documents alike.
func (r *Reader) NamedByOrigin(d *core.Document) bool {
	// An id its origin gives ends with the origin's last element ("x.jsonl:5",
	// "1.txt", "a.warc#3"): most ids of their own do not, and are told at
	// once, without looking through the inputs given.
	last := d.Origin[strings.LastIndexAny(d.Origin, "/"+string(filepath.Separator))+1:]
	return d.Origin != "" && strings.HasSuffix(d.ID, last) && d.ID == r.idOf(d.Origin)
}

// fileKey groups files that may be one file: same size and modification
// time (os.SameFile then tells).
type fileKey struct {
	size int64
	mod  int64
}

// givenFile is a path given and what it names.
type givenFile struct {
	path string
	info os.FileInfo
}
