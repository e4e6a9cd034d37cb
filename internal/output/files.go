package output

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// WriteAtomic writes a file through write: to a temporary name in the same
// directory first, renamed to path only when everything is written, so a
// failed run never leaves a partial file. An error of write is returned as
// it is (it may be no writing's: an input that cannot be read); those of
// the file itself name path.
//
// A path that names a device or a pipe (/dev/stdout, /dev/null) is written
// in place: a rename would replace the device with a file. A symbolic link
// is followed, so the file it points to is replaced, not the link.
func WriteAtomic(path string, write func(w *bufio.Writer) error) error {
	if Special(path) {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		w := bufio.NewWriterSize(f, 1<<20)
		if err := write(w); err != nil {
			f.Close()
			return err
		}
		if err = errors.Join(w.Flush(), f.Close()); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		return nil
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	removeDeadTemps(path)
	f, err := createTemp(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // of the temporary name, which the caller never gave
		}
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(f.Name())
	w := bufio.NewWriterSize(f, 1<<20)
	if err := write(w); err != nil {
		f.Close()
		return err
	}
	err = f.Chmod(0o644) // CreateTemp makes it private; this is an output for the user
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		// Renamed while open and locked: a run that removes dead runs'
		// files would take an unlocked one for theirs.
		err = os.Rename(f.Name(), path)
	}
	if err = errors.Join(err, f.Close()); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// createTemp creates WriteAtomic's temporary file beside path
// (".NAME.123.tmp") and locks it (lockTemp) until it is closed: a file
// locked or removed by another run's cleanup between its creation and its
// lock is created again.
func createTemp(path string) (*os.File, error) {
	for {
		f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
		if err != nil {
			return nil, err
		}
		if err := lockTemp(f); err != nil {
			f.Close()
			if errors.Is(err, errTempTaken) {
				continue // another run's cleanup took it between its creation and its lock, to remove it
			}
			return nil, err
		}
		fst, err1 := f.Stat()
		pst, err2 := os.Stat(f.Name())
		if err1 == nil && err2 == nil && os.SameFile(fst, pst) {
			return f, nil
		}
		f.Close()
	}
}

// removeDeadTemps removes the temporary files of path (".NAME.123.tmp")
// that runs killed while writing it left (kill -9, a power cut), and
// leaves those of runs still writing it: each holds its file's lock.
func removeDeadTemps(path string) {
	temps, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "."+globEscape(filepath.Base(path))+".*.tmp"))
	for _, t := range temps {
		// os.CreateTemp's names alone: digits between the dots, not a
		// user's ".NAME.notes.tmp".
		mid := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(t), "."+filepath.Base(path)+"."), ".tmp")
		if mid != "" && strings.Trim(mid, "0123456789") == "" {
			removeDead(t)
		}
	}
}

// globEscape escapes the characters filepath.Match gives a meaning to.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Special reports whether path names something that exists and is neither
// a regular file nor a directory (a device such as /dev/stdout or
// /dev/null, a named pipe, a socket), following symbolic links: such a
// path must be written in place, never replaced by a rename.
func Special(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.Mode().IsRegular() && !fi.IsDir()
}

// TitleRow is a row of the titles file: a pair's ids, score and titles.
type TitleRow struct {
	A, B           string  // the ids, as pairs.jsonl names them
	Score          float64 // the pair's score
	TitleA, TitleB string
}

// Titles returns the writer of a CSV file of the titles of pairs: a header
// a, b, score, title_a, title_b, then a row a pair, each cell as a sheet
// holds it (see sheetCell). Pass it to Set.Extra.
func Titles(rows []TitleRow) func(w *bufio.Writer) error {
	return func(w *bufio.Writer) error {
		sw := newSheet(w)
		if err := sw.write("a", "b", "score", "title_a", "title_b"); err != nil {
			return err
		}
		for _, r := range rows {
			if err := sw.write(r.A, r.B, strconv.FormatFloat(r.Score, 'f', -1, 64), r.TitleA, r.TitleB); err != nil {
				return err
			}
		}
		return sw.flush()
	}
}

// matrixHead is the JSON of a similarity matrix file but its rows: a sparse
// symmetric matrix over the documents of the reported pairs. Row i lists
// [j, score] for every other document j paired with document i, by
// increasing j; absent entries are below the lowest score the method
// reports, and the diagonal, 1, is left out. IDs label rows and columns.
type matrixHead struct {
	Format string   `json:"format"`
	Method string   `json:"method"`
	IDs    []string `json:"ids"`
}

// MatrixPair is a reported pair of a similarity matrix: its documents by
// their rows (positions in the matrix's ids) and its score.
type MatrixPair struct {
	A, B  int32
	Score float64
}

// Matrix returns the writer of the similarity matrix of pairs over the
// documents ids, one row a line, so that a reader sees the structure and a
// large file streams. Pass it to Set.Extra.
func Matrix(method string, ids []string, pairs []MatrixPair) func(w *bufio.Writer) error {
	rows := make([][][2]float64, len(ids))
	for _, p := range pairs {
		rows[p.A] = append(rows[p.A], [2]float64{float64(p.B), p.Score})
		rows[p.B] = append(rows[p.B], [2]float64{float64(p.A), p.Score})
	}
	for i := range rows {
		slices.SortFunc(rows[i], func(x, y [2]float64) int { return int(x[0] - y[0]) })
	}
	return func(w *bufio.Writer) error {
		head, err := json.Marshal(matrixHead{Format: "sparse-rows", Method: method, IDs: ids})
		if err != nil {
			return err
		}
		w.Write(head[:len(head)-1])
		w.WriteString(`,"matrix":[` + "\n")
		var line []byte
		for i, row := range rows {
			line = append(line[:0], '[')
			for k, e := range row {
				if k > 0 {
					line = append(line, ',')
				}
				line = append(line, '[')
				line = strconv.AppendInt(line, int64(e[0]), 10)
				line = append(line, ',')
				line = strconv.AppendFloat(line, e[1], 'g', -1, 64)
				line = append(line, ']')
			}
			line = append(line, ']')
			if i+1 < len(rows) {
				line = append(line, ',')
			}
			line = append(line, '\n')
			if _, err := w.Write(line); err != nil {
				return err
			}
		}
		_, err = w.WriteString("]}\n")
		return err
	}
}
