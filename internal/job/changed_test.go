package job

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/internal/engine"
)

// changingBatch changes the input file between the two readings: when the
// batch is finished (after the first reading, before the second) it
// writes the file again with its third line's text changed, the records
// as many as before.
type changingBatch struct {
	engine.Batch
	path string
	err  error
}

func (b *changingBatch) Finish(ctx context.Context, progress func(done int)) error {
	data, err := os.ReadFile(b.path)
	if err != nil {
		b.err = err
		return err
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	lines[2] = bytes.Replace(lines[2], []byte(`"text":"`), []byte(`"text":"REPLACED `), 1)
	if b.err = os.WriteFile(b.path, bytes.Join(lines, nil), 0o644); b.err != nil {
		return b.err
	}
	return b.Batch.Finish(ctx, progress)
}

// TestInputChangedBetweenReadings pins a run that wrote kept.jsonl from a
// second reading of an input whose record changed since the first, its
// count the same: the kept file held a text never compared, and the run
// ended well. It fails, naming the record, and puts no results in place;
// so with the kept lines only copied and with the records decoded again
// (a report).
func TestInputChangedBetweenReadings(t *testing.T) {
	for _, tc := range []struct {
		name   string
		report bool
	}{
		{"lines copied", false},
		{"records decoded", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := writeCorpus(t, dir)
			out := filepath.Join(dir, "out")
			o := Options{Inputs: []string{in}, Out: out}
			if tc.report {
				o.Report = filepath.Join(dir, "report.html")
			}
			if _, err := Run(t.Context(), o); err != nil {
				t.Fatal(err)
			}
			before := readTree(t, dir)
			b := &changingBatch{path: in}
			o.wrapBatch = func(inner engine.Batch) engine.Batch { b.Batch = inner; return b }
			_, err := Run(t.Context(), o)
			if b.err != nil {
				t.Fatal(b.err)
			}
			want := "the input changed while it was read: " + in + ":3 is not the record it was"
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("Run: %v, want an error saying %q", err, want)
			}
			// The earlier run's results stay as they were, and nothing
			// else is left.
			after := readTree(t, dir)
			delete(before, "corpus.jsonl")
			delete(after, "corpus.jsonl")
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("the files after the failed run (-before +after):\n%s", diff)
			}
		})
	}
}

// readTree returns the files under dir, by their path in it, and their
// contents.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// rewritingBatch writes data to path when the batch is finished: between
// the two readings.
type rewritingBatch struct {
	engine.Batch
	path string
	data string
}

func (b *rewritingBatch) Finish(ctx context.Context, progress func(done int)) error {
	if err := os.WriteFile(b.path, []byte(b.data), 0o644); err != nil {
		return err
	}
	return b.Batch.Finish(ctx, progress)
}

// TestInputHeaderChangedBetweenReadings pins a run whose CSV file's header
// changed between the readings, its rows the same ("id,text,title" become
// "id,title,text"): the sums held, and kept.jsonl wrote each title as
// the text, never compared. It fails, naming the first row.
func TestInputHeaderChangedBetweenReadings(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "a.csv")
	rows := "1,one two three four five six seven eight nine ten,Head\n" +
		"2,alpha beta gamma delta epsilon zeta eta theta iota kappa,Head2\n"
	if err := os.WriteFile(in, []byte("id,text,title\n"+rows), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	b := &rewritingBatch{path: in, data: "id,title,text\n" + rows}
	o := Options{Inputs: []string{in}, Out: out, MinChars: 1}
	o.wrapBatch = func(inner engine.Batch) engine.Batch { b.Batch = inner; return b }
	_, err := Run(t.Context(), o)
	want := "the input changed while it was read: " + in + ":2 is not the record it was"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("Run: %v, want an error saying %q", err, want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("-o after the failed run: %v, want it not made", err)
	}
}

// TestInputChangedLeavesNoOut: a run that fails because its input changed
// between the readings, its -o not there before, leaves no -o and nothing
// else beside its input (no temporary folder).
func TestInputChangedLeavesNoOut(t *testing.T) {
	dir := t.TempDir()
	in := writeCorpus(t, dir)
	out := filepath.Join(dir, "out")
	b := &changingBatch{path: in}
	o := Options{Inputs: []string{in}, Out: out}
	o.wrapBatch = func(inner engine.Batch) engine.Batch { b.Batch = inner; return b }
	_, err := Run(t.Context(), o)
	if b.err != nil {
		t.Fatal(b.err)
	}
	if err == nil || !strings.Contains(err.Error(), "the input changed while it was read") {
		t.Fatalf("Run: %v, want an error saying the input changed", err)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{filepath.Base(in)}, names); diff != "" {
		t.Errorf("the folder after the failed run (-want +got):\n%s", diff)
	}
}

// betweenBatch calls between when the batch is finished: after the first
// reading, before the second.
type betweenBatch struct {
	engine.Batch
	between func() error
	err     error
}

func (b *betweenBatch) Finish(ctx context.Context, progress func(done int)) error {
	if b.err = b.between(); b.err != nil {
		return b.err
	}
	return b.Batch.Finish(ctx, progress)
}

// TestParquetChangedBetweenReadings pins a run whose Parquet file changed
// between the readings: one whose size changed (rows appended, or the
// file cut to nothing) failed with the Parquet library's footer error
// (the second reading looked for the footer at the first reading's
// size), and one removed with the error of opening it, neither saying the
// input changed. Each change fails the run naming the file, or the first
// row that differs (its size the same), and no -o is made.
func TestParquetChangedBetweenReadings(t *testing.T) {
	rows := trainingCorpus()
	for _, tc := range []struct {
		name     string
		between  func(t *testing.T, in string) error
		want     string // after "the input changed while it was read: " + in
		sameSize bool   // the change keeps the file's size
	}{
		{"rows appended", func(t *testing.T, in string) error {
			writeParquet(t, in, append(slices.Clone(rows), article{"h", "one more row of text here", "en", 0.5}))
			return nil
		}, " is %d bytes, %d at the first reading", false},
		{"rows changed, its size the same", func(t *testing.T, in string) error {
			changed := slices.Clone(rows)
			changed[0].Score = 0.95 // was 0.9: 8 bytes either way
			writeParquet(t, in, changed)
			return nil
		}, ":1 is not the record it was", true},
		{"cut to nothing", func(t *testing.T, in string) error {
			return os.Truncate(in, 0)
		}, " is %d bytes, %d at the first reading", false},
		{"removed", func(t *testing.T, in string) error {
			return os.Remove(in)
		}, " cannot be opened again", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "train.parquet")
			writeParquet(t, in, rows)
			before, err := os.Stat(in)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out")
			var after int64
			b := &betweenBatch{between: func() error {
				if err := tc.between(t, in); err != nil {
					return err
				}
				if st, err := os.Stat(in); err == nil {
					after = st.Size()
				}
				return nil
			}}
			o := Options{Inputs: []string{in}, Out: out, MinChars: 1}
			o.wrapBatch = func(inner engine.Batch) engine.Batch { b.Batch = inner; return b }
			_, err = Run(t.Context(), o)
			if b.err != nil {
				t.Fatal(b.err)
			}
			if tc.sameSize && after != before.Size() {
				t.Fatalf("the file rewritten is %d bytes, want the %d it was", after, before.Size())
			}
			want := "the input changed while it was read: " + in + tc.want
			if strings.Contains(tc.want, "%d") {
				want = fmt.Sprintf(want, after, before.Size())
			}
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("Run: %v, want an error saying %q", err, want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("-o after the failed run: %v, want it not made", err)
			}
		})
	}
}
