package dedup

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/corpus"
)

// InputError is an input the pipeline does not read, named on the command
// line or matched by a glob: standard input (-), a directory, a pipe, FIFO
// or device (not a regular file), a file whose name says another format
// than JSON Lines or an archive of it, a file whose name says no format and
// whose first bytes say another, a file given twice. It is a mistake in the
// command line, found where the pipeline is built, before a runner starts.
type InputError struct {
	Path   string // the input, as given or as its glob matched it
	Reason string // why it is not read, and what to give instead
}

func (e *InputError) Error() string { return e.Path + ": " + e.Reason }

// checkInputs checks the files of the inputs before the pipeline reads
// them: each is there, is a file, is JSON Lines or a zip or tar archive by
// its name (plain or inside gzip, Zstandard or bzip2; see notRead), or by
// its first bytes when its name says no format (notReadByContent), and is
// given once. A file that is not there is an error naming it; the others
// are InputErrors. from[i] is the input files[i] is of, as given (a glob
// that matched it), which an error names. textField names the text column, by which a CSV file is
// told (corpus.Sniff). A local file is told from another as neardup dedup
// tells it, by its device and inode (inputKey): under two names, through
// a symbolic or a hard link, it is given twice.
func checkInputs(ctx context.Context, files, from []string, textField string) error {
	seen := map[inputKey]int{}
	for i, p := range files {
		key, err := checkInput(ctx, p, textField)
		if err != nil {
			return err
		}
		if first, ok := seen[key]; ok {
			this := ""
			if files[i] != from[i] {
				this = fmt.Sprintf("matched by '%s', and ", from[i])
			}
			return &InputError{Path: p, Reason: fmt.Sprintf("given twice (%s%s too): each of its records would be read twice, and be its own copy",
				this, givenAs(files[first], from[first]))}
		}
		seen[key] = i
	}
	return nil
}

// givenAs says how a file was given: by its name, or matched by a glob.
func givenAs(file, input string) string {
	if file == input {
		return "as " + file
	}
	return fmt.Sprintf("as %s, matched by '%s'", file, input)
}

// inputKey tells one input file from another, whatever path names it: a
// local file by its device and inode (container.KeyOf), a file of another
// file system by its URL.
type inputKey struct {
	file container.FileKey
	url  string
}

// checkInput checks one file: not standard input, there, a regular file
// (not a directory, pipe, FIFO or device: readTwice), JSON Lines. It
// returns the file's key.
func checkInput(ctx context.Context, p, textField string) (inputKey, error) {
	key := inputKey{url: p}
	if p == "-" {
		return key, &InputError{Path: p, Reason: "standard input is not read: " + readTwice + " (./- for a file named -)"}
	}
	if isLocal(p) {
		fi, err := os.Stat(p)
		if err != nil {
			return key, err // "stat news.jsonl: no such file or directory"
		}
		if fi.IsDir() {
			return key, &InputError{Path: p, Reason: fmt.Sprintf("is a directory: give its files, or a glob of them ('%s')", filepath.Join(p, "*.jsonl"))}
		}
		if !fi.Mode().IsRegular() {
			return key, &InputError{Path: p, Reason: "is not a regular file but " + container.FileKind(fi.Mode()) + ": " + readTwice}
		}
		key = inputKey{file: container.KeyOf(p, fi)}
	} else {
		fs, err := filesystem.New(ctx, p)
		if err != nil {
			return key, err
		}
		_, err = fs.Size(ctx, p)
		fs.Close()
		if err != nil {
			return key, fmt.Errorf("%s: %w", p, err)
		}
	}
	if why := notRead(p); why != "" {
		return key, &InputError{Path: p, Reason: why}
	}
	if leafFormat(p) != container.Unknown {
		return key, nil
	}
	why, err := notReadByContent(ctx, p, textField)
	if err != nil {
		return key, err
	}
	if why != "" {
		return key, &InputError{Path: p, Reason: why}
	}
	return key, nil
}

// readTwice says why an input must be a regular file: its first bytes are
// read before the job starts when its name says no format, and the job's
// workers open it again by its path, each from its start, so that the
// records a pipe gave the first read are lost to the job, and a pipe no
// process writes into any more keeps a worker waiting.
const readTwice = "the pipeline's workers open each input again by its path and read it from its start, " +
	"which a pipe or a device cannot give: write it to a file first and give that"

// headLimit bounds the bytes of a file notReadByContent reads: enough for
// the first SniffLen bytes of what a compressed stream holds.
const headLimit = 1 << 20

// notReadByContent says why the pipeline does not read a file whose name
// says no format (part-00000, Hive's 000000_0, part-00000.gz), by its
// first bytes, inside any compression, as neardup dedup tells the format
// of such a file (corpus.Sniff): a Parquet, WARC, CSV or HTML file, a feed,
// a PDF document. It is "" for JSON Lines, an empty file, and a zip or tar
// archive (whose JSON Lines members are read, the others counted as files
// not read); and for a file that cannot be read to its SniffLen bytes, which
// the pipeline fails on, saying why. Read as JSON Lines, each line of such
// a file was a malformed record; the pipeline's reader skipped a Parquet,
// WARC or feed file whole as an archive member not read.
func notReadByContent(ctx context.Context, p, textField string) (string, error) {
	f, err := openRead(ctx, p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	br := bufio.NewReader(io.LimitReader(f, headLimit))
	if head, _ := br.Peek(512); container.Magic(head) == container.Zip || container.Magic(head) == container.Tar {
		return "", nil // not spooled: a zip archive is read from its end
	}
	w := container.New(container.Top{Origin: p, ID: p, Name: p, R: br, Size: -1}, container.Options{BufSize: corpus.SniffLen})
	defer w.Close()
	m, err := w.Next()
	switch {
	case err != nil, m.Origin != p: // no leaf, or an archive's member
		return "", nil
	case container.IsDamage(m.Skip): // an archive in the head read, cut at headLimit: read whole, it may be none
		return "", nil
	case m.Skip != nil: // "p: refused: a PDF document, which is not read: ..."
		return "is, by its content, " + strings.TrimPrefix(m.Skip.Error(), p+": refused: "), nil
	}
	k := m.Format
	if k == container.Unknown {
		head, err := m.R.Peek(corpus.SniffLen)
		k = corpus.Sniff(head, err == io.EOF, textField)
	}
	switch k {
	case container.JSONL, container.Unknown:
		return "", nil
	case container.Text:
		return "is text by its content (its first line is no JSON object); the pipeline reads JSON Lines: " +
			"name it .jsonl if it is JSON Lines, each line not a JSON object then a malformed record, " +
			"or write it as JSON Lines first: neardup convert writes it as neardup dedup reads it (one text document)", nil
	}
	return fmt.Sprintf("is %s by its content; the pipeline reads JSON Lines: write it as JSON Lines first: "+
		"neardup convert writes it as neardup dedup reads it", k), nil
}

// openRead opens a file of any file system Beam has.
func openRead(ctx context.Context, p string) (io.ReadCloser, error) {
	if isLocal(p) {
		return os.Open(p)
	}
	fs, err := filesystem.New(ctx, p)
	if err != nil {
		return nil, err
	}
	r, err := fs.OpenRead(ctx, p)
	if err != nil {
		fs.Close()
		return nil, fmt.Errorf("reading %s: %w", p, err)
	}
	return closeBoth{r, fs}, nil
}

// closeBoth is a file read from a file system, closed with it.
type closeBoth struct {
	io.ReadCloser
	fs filesystem.Interface
}

func (c closeBoth) Close() error { return errors.Join(c.ReadCloser.Close(), c.fs.Close()) }

// notRead says why the pipeline does not read a file, by its name, or is
// "" for one it reads: JSON Lines (news.jsonl, news.ndjson), a name that
// says no format (part-00000: read as JSON Lines unless its first bytes
// say another format, notReadByContent), or a zip or tar
// archive, each plain or inside gzip, Zstandard or bzip2 (news.jsonl.gz,
// news.tar.gz). Of an archive, the members whose names say JSON Lines are
// read, the others counted as files not read (corpus.Options.FormatOnly).
// Every other name is refused, also those of formats neardup dedup reads:
// the pipeline would read each of their lines as a malformed JSON line.
func notRead(name string) string {
	switch f := leafFormat(name); {
	case f == container.JSONL, f == container.Unknown, f == container.Zip, f == container.Tar:
		return ""
	case container.Refusal(f) != "": // xz, 7z, RAR: neardup dedup reads none of them either
		return "is " + container.Refusal(f)
	case f == container.JSON:
		return "is json by its name; the pipeline reads JSON Lines: name it .jsonl if it holds one object a line, " +
			"or write it as JSON Lines first: neardup convert writes it as neardup dedup reads it"
	default:
		return fmt.Sprintf("is %s by its name; the pipeline reads JSON Lines: write it as JSON Lines first: "+
			"neardup convert writes it as neardup dedup reads it", f)
	}
}

// leafFormat is the format a file's name says of what it holds, inside any
// compression: csv of news.csv.gz.
func leafFormat(name string) container.Format {
	for {
		switch f := container.ByName(name); f {
		case container.Gzip, container.Zstd, container.Bzip2:
			inner := container.Inner(name)
			if inner == name {
				return f
			}
			name = inner
		default:
			return f
		}
	}
}

// isLocal reports whether p is a path of the local file system, not a URL
// of another (gs://, s3://).
func isLocal(p string) bool { return !strings.Contains(p, "://") }
