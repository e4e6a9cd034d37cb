package corpus

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"testing"
)

// TestFileChangedSinceOpened pins the reading of a file given whose size
// changed since the Reader was made, before its first pass or between
// its passes: a Parquet file and a zip archive, read at random from
// their end at the size the Reader was made with, were taken as damaged
// (the error "not a Parquet file that can be read: invalid magic footer",
// the zip refused as "not a zip archive that can be read"), not as
// changed; and a file removed before the second pass failed with the
// error of opening it, not saying it was read before.
func TestFileChangedSinceOpened(t *testing.T) {
	one := parquetOf(t, []news{{ID: 1, Title: "one", Text: str("one body")}}, 8)
	two := parquetOf(t, []news{{ID: 1, Title: "one", Text: str("one body")}, {ID: 2, Title: "two", Text: str("two")}}, 8)
	zipOne := zipOf(t, member{"a.txt", "A\na body"})
	zipTwo := zipOf(t, member{"a.txt", "A\na body"}, member{"b.txt", "B\nb body"})
	for _, tc := range []struct {
		name, file, data string
		change           func(path string) error
		rewind           bool // the change comes between the passes, not before the first
		want             string
		notExist         bool // the error wraps fs.ErrNotExist
	}{
		{"parquet before the first pass", "news.parquet", one, rewrite(two), false,
			sizes("news.parquet", two, one) + " when the run began", false},
		{"parquet between the passes", "news.parquet", one, rewrite(two), true,
			sizes("news.parquet", two, one) + " at the first reading", false},
		{"parquet cut to nothing between the passes", "news.parquet", one, rewrite(""), true,
			sizes("news.parquet", "", one) + " at the first reading", false},
		{"zip between the passes", "news.zip", zipOne, rewrite(zipTwo), true,
			"reading news.zip: " + sizes("news.zip", zipTwo, zipOne) + " at the first reading", false},
		{"parquet removed between the passes", "news.parquet", one, os.Remove, true,
			"the input changed while it was read: news.parquet cannot be opened again: no such file or directory", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			writeFiles(t, ".", map[string]string{tc.file: tc.data})
			r, err := Open([]string{tc.file}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if tc.rewind {
				if _, err := drain(t, r); err != nil {
					t.Fatal(err)
				}
				if err := r.Rewind(); err != nil {
					t.Fatal(err)
				}
			}
			if err := tc.change(tc.file); err != nil {
				t.Fatal(err)
			}
			_, err = drain(t, r)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("reading: %v, want %q", err, tc.want)
			}
			if tc.notExist && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("reading: %v, want it to wrap fs.ErrNotExist", err)
			}
		})
	}
}

// rewrite returns a change that writes data as the file at path.
func rewrite(data string) func(path string) error {
	return func(path string) error { return os.WriteFile(path, []byte(data), 0o644) }
}

// sizes is the start of the error of file, now holding now, when it held
// was.
func sizes(file, now, was string) string {
	return fmt.Sprintf("the input changed while it was read: %s is %d bytes, %d", file, len(now), len(was))
}
