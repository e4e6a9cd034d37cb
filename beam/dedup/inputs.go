package dedup

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/neardup/neardup/internal/container"
)

// InputError is an input the pipeline does not read, named on the command
// line or matched by a glob: a directory, a file whose name says another
// format than JSON Lines or an archive of it, a file given twice. It is a mistake in the
// command line, found where the pipeline is built, before a runner starts.
type InputError struct {
	Path   string // the input, as given or as its glob matched it
	Reason string // why it is not read, and what to give instead
}

func (e *InputError) Error() string { return e.Path + ": " + e.Reason }

// checkInputs checks the files of the inputs before the pipeline reads
// them: each is there, is a file, is JSON Lines or a zip or tar archive by
// its name (plain or inside gzip, Zstandard or bzip2; see notRead), and is
// given once. A file that is not there is an error naming it; the others
// are InputErrors.
func checkInputs(ctx context.Context, files []string) error {
	seen := map[string]string{}
	for _, p := range files {
		if err := checkInput(ctx, p); err != nil {
			return err
		}
		key := samePath(p)
		if first, ok := seen[key]; ok {
			return &InputError{Path: p, Reason: fmt.Sprintf("given twice (as %s too): each of its records would be read twice, and be its own copy", first)}
		}
		seen[key] = p
	}
	return nil
}

// checkInput checks one file: there, not a directory, JSON Lines.
func checkInput(ctx context.Context, p string) error {
	if isLocal(p) {
		fi, err := os.Stat(p)
		if err != nil {
			return err // "stat news.jsonl: no such file or directory"
		}
		if fi.IsDir() {
			return &InputError{Path: p, Reason: fmt.Sprintf("is a directory: give its files, or a glob of them ('%s')", filepath.Join(p, "*.jsonl"))}
		}
	} else {
		fs, err := filesystem.New(ctx, p)
		if err != nil {
			return err
		}
		_, err = fs.Size(ctx, p)
		fs.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
	}
	if why := notRead(p); why != "" {
		return &InputError{Path: p, Reason: why}
	}
	return nil
}

// notRead says why the pipeline does not read a file, by its name, or is
// "" for one it reads: JSON Lines (news.jsonl, news.ndjson), a name that
// says no format (part-00000, read as JSON Lines), or a zip or tar
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
		return "is json by its name; the pipeline reads JSON Lines: write it as JSON Lines first, or name it .jsonl if it holds one object a line (neardup dedup reads it as it is)"
	default:
		return fmt.Sprintf("is %s by its name; the pipeline reads JSON Lines: write it as JSON Lines first (neardup dedup reads it as it is)", f)
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
