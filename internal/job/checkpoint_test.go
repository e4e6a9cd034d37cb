package job

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/extract/rules"
	"github.com/neardup/neardup/internal/output"
	"github.com/neardup/neardup/method/cosine"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/rarewords"
	"github.com/neardup/neardup/method/sentences"
	"github.com/neardup/neardup/method/simhash"
	"github.com/neardup/neardup/method/tfidf"
)

// writeResumeCorpus writes many copies with bad records early and late: a
// malformed line, an empty text, a repeated id and a short text.
func writeResumeCorpus(t *testing.T, dir string) string {
	t.Helper()
	in := writeManyCopies(t, dir, 200)
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	bad := []string{"{not json\n", `{"id":"e1","text":""}` + "\n", lines[3], `{"id":"s1","text":"Short."}` + "\n"}
	var b strings.Builder
	// Exact copies of one story past the bucket limit, before the
	// interruption and after it: the journal keeps what matches them.
	copies := func(from int) {
		text := strings.Repeat("The harbour council voted again on the ferry terminal's future. ", 8)
		for i := range 40 {
			fmt.Fprintf(&b, `{"id":"copy%d","text":%q}`+"\n", from+i, text)
		}
	}
	for i, l := range lines {
		if i == 40 || i == len(lines)-10 {
			copies(i)
		}
		if i == 120 || i == len(lines)-3 {
			for _, x := range bad {
				b.WriteString(x)
			}
		}
		b.WriteString(l)
	}
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return in
}

// interrupt runs o until its first warning (an early bad record) and
// cancels it there, leaving its checkpoints; it returns how many records
// the last checkpoint holds.
func interrupt(t *testing.T, o Options) int {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	o.Warn = cancelOn{"warning", cancel}
	if _, err := Run(ctx, o); !errors.Is(err, context.Canceled) {
		t.Fatalf("run: %v, want it cancelled", err)
	}
	data, err := os.ReadFile(filepath.Join(filepath.Dir(o.Out), "."+filepath.Base(o.Out)+".work", "checkpoint", "checkpoint.json"))
	if err != nil {
		t.Fatalf("no checkpoint left: %v", err)
	}
	var ck checkpointFile
	if err := json.Unmarshal(data, &ck); err != nil {
		t.Fatal(err)
	}
	if ck.Done || ck.Records == 0 {
		t.Fatalf("checkpoint %+v: want one of part of the reading", ck)
	}
	return ck.Records
}

// TestResumeSameResults pins that a run interrupted during its first
// reading and resumed from its checkpoint gives, byte for byte, the
// results of a run never interrupted: the records replayed from the
// journal (documents, bad records, a repeated id renamed) and those read
// after it alike; under a memory budget too.
func TestResumeSameResults(t *testing.T) {
	dir := t.TempDir()
	in := writeResumeCorpus(t, dir)
	for _, memory := range []int64{0, 1} {
		t.Run(fmt.Sprint("memory ", memory), func(t *testing.T) {
			base := Options{Inputs: []string{in}, OnDuplicateID: DuplicateRename, Memory: memory}
			whole := base
			whole.Out = filepath.Join(dir, fmt.Sprint("whole", memory))
			wantStats, err := Run(t.Context(), whole)
			if err != nil {
				t.Fatal(err)
			}
			resumed := base
			resumed.Out, resumed.Resume, resumed.CheckpointEvery = filepath.Join(dir, fmt.Sprint("resumed", memory)), true, 50
			records := interrupt(t, resumed)
			if records >= wantStats.Read {
				t.Fatalf("the checkpoint holds %d records of %d: nothing left to read", records, wantStats.Read)
			}
			if wantStats.Copies == 0 {
				t.Fatal("no copy checked against the first alone: the corpus does not exercise it")
			}
			var progress bytes.Buffer
			resumed.Progress = &progress
			gotStats, err := Run(t.Context(), resumed)
			if err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf("%d records read before", records); !strings.Contains(progress.String(), want) {
				t.Errorf("progress does not say %q:\n%s", want, progress.String())
			}
			for _, name := range append(resultFiles, output.StatsFile) {
				want, err := os.ReadFile(filepath.Join(whole.Out, name))
				if err != nil {
					t.Fatal(err)
				}
				got, err := os.ReadFile(filepath.Join(resumed.Out, name))
				if err != nil {
					t.Fatal(err)
				}
				if name == output.StatsFile {
					want, got = stableStats(t, want), stableStats(t, got)
				}
				if !bytes.Equal(want, got) {
					t.Errorf("%s differs from the run never interrupted:\n%s\nwant:\n%s", name, got, want)
				}
			}
			if gotStats.Read != wantStats.Read || gotStats.Documents != wantStats.Documents {
				t.Errorf("stats %d read, %d documents; want %d, %d", gotStats.Read, gotStats.Documents, wantStats.Read, wantStats.Documents)
			}
			if _, err := os.Stat(filepath.Join(dir, "."+filepath.Base(resumed.Out)+".work")); !os.IsNotExist(err) {
				t.Errorf("the work folder is left after the run: %v", err)
			}
		})
	}
}

// TestResumeDirectoryLinks: a run resumed over a directory holding a
// symbolic link to another directory checks the files the reading lists,
// as a run never interrupted reads them: the linked directory's files (a
// change to one is refused), not hidden files or names not read (a change
// to one is no reason to refuse). Regression: the checkpoint's listing did
// not follow links to directories and listed every file, so a changed
// file behind a link was resumed over, records of its old text replayed,
// and an editor's hidden file refused the resumption.
func TestResumeDirectoryLinks(t *testing.T) {
	setup := func(t *testing.T) (in, linked, hidden string) {
		dir := t.TempDir()
		other := filepath.Join(dir, "other")
		if err := os.Mkdir(other, 0o755); err != nil {
			t.Fatal(err)
		}
		linked = writeResumeCorpus(t, other) // read first: "linked" < "z.jsonl"
		data, err := os.ReadFile(linked)
		if err != nil {
			t.Fatal(err)
		}
		in = filepath.Join(dir, "in")
		if err := os.Mkdir(in, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(other, filepath.Join(in, "linked")); err != nil {
			t.Fatal(err)
		}
		// Copies, under other ids, of the linked file's first stories.
		lines := strings.SplitAfter(string(data), "\n")[:30]
		z := strings.ReplaceAll(strings.Join(lines, ""), `{"id":"`, `{"id":"z`)
		hidden = filepath.Join(in, ".z.jsonl.swp")
		for p, text := range map[string]string{filepath.Join(in, "z.jsonl"): z, hidden: "swap", filepath.Join(in, "notes.bin"): "x"} {
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return in, filepath.Join(in, "linked", filepath.Base(linked)), hidden
	}
	later := time.Now().Add(time.Hour)
	t.Run("same results", func(t *testing.T) {
		in, _, hidden := setup(t)
		out := filepath.Dir(in)
		whole := Options{Inputs: []string{in}, Out: filepath.Join(out, "whole"), OnDuplicateID: DuplicateRename}
		wantStats, err := Run(t.Context(), whole)
		if err != nil {
			t.Fatal(err)
		}
		resumed := whole
		resumed.Out, resumed.Resume, resumed.CheckpointEvery = filepath.Join(out, "resumed"), true, 50
		interrupt(t, resumed)
		if err := os.WriteFile(hidden, []byte("swap, saved again"), 0o644); err != nil {
			t.Fatal(err)
		}
		gotStats, err := Run(t.Context(), resumed)
		if err != nil {
			t.Fatalf("resume: %v", err)
		}
		want, got := readResults(t, whole.Out), readResults(t, resumed.Out)
		for i, name := range resultFiles {
			if got[i] != want[i] {
				t.Errorf("%s differs from the run never interrupted:\n%s\nwant:\n%s", name, got[i], want[i])
			}
		}
		if gotStats.Read != wantStats.Read || wantStats.Read < 230 {
			t.Errorf("read %d records, the run never interrupted %d: want the linked directory's and z.jsonl's", gotStats.Read, wantStats.Read)
		}
	})
	t.Run("a file behind the link changed", func(t *testing.T) {
		in, linked, _ := setup(t)
		o := Options{Inputs: []string{in}, Out: filepath.Join(filepath.Dir(in), "out"), OnDuplicateID: DuplicateRename, Resume: true, CheckpointEvery: 50}
		interrupt(t, o)
		if err := os.Chtimes(linked, later, later); err != nil {
			t.Fatal(err)
		}
		_, err := Run(t.Context(), o)
		if want := linked + " changed since the checkpoint"; err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("resume: %v, want a refusal saying %q", err, want)
		}
	})
}

// TestResumeRefusesPipe: a named pipe, read once, cannot be resumed, as
// standard input cannot; the run says so before it reads. Regression: it
// was listed as an empty file, and a resumed run read the pipe again.
func TestResumeRefusesPipe(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "news.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	// A writer, as a shell's would be; it waits for a reader, which the
	// cleanup gives it if the run is not one.
	go func() {
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			fmt.Fprintln(w, `{"id":"a","text":"A story of more than thirty characters, told once."}`)
			w.Close()
		}
	}()
	t.Cleanup(func() {
		if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			time.Sleep(10 * time.Millisecond)
			r.Close()
		}
	})
	o := Options{Inputs: []string{fifo}, Out: filepath.Join(dir, "out"), Resume: true}
	_, err := Run(t.Context(), o)
	if want := fifo + " is a pipe, read once, and cannot be resumed"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("run: %v, want a refusal saying %q", err, want)
	}
}

// TestResumeRefuses pins that a checkpoint is not resumed from with other
// options, changed inputs or a damaged journal, each refusal saying why,
// and that the checkpoint is left as it was.
func TestResumeRefuses(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, o *Options, ckDir string)
		want   string
	}{
		// Regression: the refusal named the options that differ, not
		// their values ("other options (method_options)").
		{"other options", func(t *testing.T, o *Options, _ string) { o.MinChars = 100 }, "other options (then → now: min_text 0 → 100)"},
		{"another threshold", func(t *testing.T, o *Options, _ string) {
			m := minhash.Defaults()
			m.Threshold = 0.5
			o.Method = m
		}, fmt.Sprintf("other options (then → now: threshold %v → 0.5)", minhash.Defaults().Threshold)},
		{"another limit and threshold", func(t *testing.T, o *Options, _ string) {
			m := minhash.Defaults()
			m.Threshold = 0.5
			o.Method, o.Corpus.MaxBytes = m, 5000
		}, fmt.Sprintf("other options (then → now: max_bytes 0 → 5000, threshold %v → 0.5)", minhash.Defaults().Threshold)},
		{"another method", func(t *testing.T, o *Options, _ string) { o.Method = tfidf.Defaults() }, `other options (then → now: method "minhash" → "tfidf")`},
		{"input modified", func(t *testing.T, o *Options, _ string) {
			later := time.Now().Add(time.Hour)
			if err := os.Chtimes(o.Inputs[0], later, later); err != nil {
				t.Fatal(err)
			}
		}, "changed since the checkpoint"},
		{"input added", func(t *testing.T, o *Options, _ string) {
			p := filepath.Join(filepath.Dir(o.Inputs[0]), "more.jsonl")
			if err := os.WriteFile(p, []byte(`{"id":"x","text":"A story of more than thirty characters."}`+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			o.Inputs = append(o.Inputs, p)
		}, "was not an input of the interrupted run"},
		{"journal damaged", func(t *testing.T, _ *Options, ckDir string) {
			p := filepath.Join(ckDir, "journal")
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			data[len(data)/3] ^= 0xff
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}, "damaged"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := writeResumeCorpus(t, dir)
			o := Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), OnDuplicateID: DuplicateRename, Resume: true, CheckpointEvery: 50}
			interrupt(t, o)
			ckDir := filepath.Join(dir, ".out.work", "checkpoint")
			tc.change(t, &o, ckDir)
			_, err := Run(t.Context(), o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("resume: %v, want a refusal saying %q", err, tc.want)
			}
			if _, err := os.Stat(filepath.Join(ckDir, "checkpoint.json")); err != nil {
				t.Errorf("the checkpoint is gone after a refusal: %v", err)
			}
			if _, err := os.Stat(o.Out); !os.IsNotExist(err) {
				t.Errorf("results written by a refused run: %v", err)
			}
			// Run without --resume, as the refusal says, the run starts
			// again; once its results are in place, the checkpoint it
			// did not resume from is gone with the work folder.
			o.Resume = false
			if _, err := Run(t.Context(), o); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(dir, ".out.work")); !os.IsNotExist(err) {
				t.Errorf("an earlier run's checkpoint is left after a run without --resume: %v", err)
			}
		})
	}
}

// TestResumeOtherFormat: a checkpoint whose journal holds sketches of
// another format than the method now makes (written by another version of
// neardup) is refused as such, not as damaged.
func TestResumeOtherFormat(t *testing.T) {
	dir := t.TempDir()
	in := writeResumeCorpus(t, dir)
	old, ok := tfidf.Spec.Older(2, tfidf.Defaults())
	if !ok {
		t.Fatal("tfidf makes no format 2")
	}
	o := Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), OnDuplicateID: DuplicateRename, Resume: true, CheckpointEvery: 50,
		Method: old}
	interrupt(t, o)
	o.Method = tfidf.Defaults()
	_, err := Run(t.Context(), o)
	if err == nil || !strings.Contains(err.Error(), "sketches another version of neardup made") || strings.Contains(err.Error(), "damaged") {
		t.Fatalf("resume: %v, want a refusal naming another version's sketches", err)
	}
}

// Regression (reviewer's finding): the checkpoint of a run of the build
// before sketch formats minhash 13, simhash 9, sentences and cosine 6 was
// resumed by this one without a word, its journal's sketches (of formats
// this binary still reads for an index) mixed with new ones under other
// rules: a checkpoint whose run made another sketch format, or one that
// says none (as those builds wrote it), is refused.
func TestResumeCheckpointOfAnotherFormat(t *testing.T) {
	for _, m := range []engine.Config{minhash.Defaults(), simhash.Defaults(), sentences.Defaults(), cosine.Defaults()} {
		t.Run(m.Method(), func(t *testing.T) {
			dir := t.TempDir()
			in := writeResumeCorpus(t, dir)
			o := Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), OnDuplicateID: DuplicateRename, Resume: true,
				CheckpointEvery: 50, Method: m}
			interrupt(t, o)
			run := filepath.Join(dir, ".out.work", "checkpoint", "run.json")
			data, err := os.ReadFile(run)
			if err != nil {
				t.Fatal(err)
			}
			var fields map[string]json.RawMessage
			if err := json.Unmarshal(data, &fields); err != nil {
				t.Fatal(err)
			}
			delete(fields, "sketch_format") // as the build before wrote it
			if data, err = json.Marshal(fields); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(run, data, 0o644)
			_, err = Run(t.Context(), o)
			if err == nil || !strings.Contains(err.Error(), "sketches of format 0") || !strings.Contains(err.Error(), "another version of neardup") {
				t.Fatalf("resume: %v, want a refusal naming another version's sketches", err)
			}
		})
	}
}

// TestResumeCheckpointOfEarlierVersion: a checkpoint an earlier version
// wrote is refused, naming the folder to remove: version 5 (its documents'
// entries say nothing of why one is not compared, which the texts told and
// the journal does not hold), not resumed with other rejects than a run
// never interrupted writes; version 6 (sketches and dates of pages and
// Markdown files read without their sources, front-matter dates and URLs).
func TestResumeCheckpointOfEarlierVersion(t *testing.T) {
	for _, version := range []string{"5", "6"} {
		t.Run("version "+version, func(t *testing.T) { testResumeCheckpointOfVersion(t, version) })
	}
}

// testResumeCheckpointOfVersion checks a checkpoint made to say it is of
// version is refused, the folder left as it was.
func testResumeCheckpointOfVersion(t *testing.T, version string) {
	dir := t.TempDir()
	in := writeResumeCorpus(t, dir)
	o := Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), OnDuplicateID: DuplicateRename, Resume: true, CheckpointEvery: 50}
	interrupt(t, o)
	ckDir := filepath.Join(dir, ".out.work", "checkpoint")
	for _, name := range []string{"checkpoint.json", "run.json"} {
		p := filepath.Join(ckDir, name)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(data, &fields); err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprint(checkpointVersion); string(fields["version"]) != want {
			t.Fatalf("%s: version %s, want %s", name, fields["version"], want)
		}
		fields["version"] = json.RawMessage(version)
		if data, err = json.Marshal(fields); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := dirFiles(t, ckDir)
	_, err := Run(t.Context(), o)
	if err == nil || !strings.Contains(err.Error(), "not a checkpoint of this version of neardup; remove "+ckDir) {
		t.Fatalf("resume: %v, want a refusal naming %s to remove", err, ckDir)
	}
	after := dirFiles(t, ckDir)
	for _, name := range []string{"checkpoint.json", "run.json", "journal"} {
		if _, ok := before[name]; !ok {
			t.Errorf("no %s in the checkpoint before resuming", name)
		}
	}
	for name, data := range before {
		if got, ok := after[name]; !ok || got != data {
			t.Errorf("%s is not left as it was after the refusal (there: %v)", name, ok)
		}
	}
	if len(after) != len(before) {
		t.Errorf("the checkpoint holds %d files after the refusal, %d before", len(after), len(before))
	}
}

// dirFiles returns the files of dir, by name, with their contents.
func dirFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = string(data)
	}
	return files
}

// TestResumeCheckpointOfAnotherHashVersion: a checkpoint whose run hashed
// words by another scheme (analysis.HashVersion), of the same sketch format,
// is refused as one of another format is: its journal's sketches cannot be
// compared with this binary's. A newer hash version and none (a run.json
// without the field, as builds before wrote it; the hash version is the
// first) are each refused, naming the version.
func TestResumeCheckpointOfAnotherHashVersion(t *testing.T) {
	for _, tc := range []struct{ name, version string }{
		{"newer", fmt.Sprint(analysis.HashVersion + 1)},
		{"none", ""},
	} {
		version := tc.version
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := writeResumeCorpus(t, dir)
			o := Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), OnDuplicateID: DuplicateRename, Resume: true,
				CheckpointEvery: 50, Method: minhash.Defaults()}
			interrupt(t, o)
			run := filepath.Join(dir, ".out.work", "checkpoint", "run.json")
			data, err := os.ReadFile(run)
			if err != nil {
				t.Fatal(err)
			}
			var fields map[string]json.RawMessage
			if err := json.Unmarshal(data, &fields); err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprint(analysis.HashVersion); string(fields["hash_version"]) != want {
				t.Fatalf("run.json: hash_version %s, want %s", fields["hash_version"], want)
			}
			if version == "" {
				delete(fields, "hash_version")
			} else {
				fields["hash_version"] = json.RawMessage(version)
			}
			if data, err = json.Marshal(fields); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(run, data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = Run(t.Context(), o)
			want := "hash version " + version
			if version == "" {
				want = "hash version 0"
			}
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "another version of neardup") {
				t.Fatalf("resume: %v, want a refusal naming another version's %s", err, want)
			}
		})
	}
}

// TestResumeParquetRows pins that a run of a Parquet file resumed from its
// checkpoint places the records replayed from the journal by their row in
// rejects.jsonl, as a run never interrupted does: a journal that kept no
// word of it placed them by line.
func TestResumeParquetRows(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(writeManyCopies(t, dir, 200))
	if err != nil {
		t.Fatal(err)
	}
	var rows []article
	for l := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
		var a article
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, a)
		switch len(rows) {
		case 20: // replayed from the journal
			rows = append(rows, article{ID: "e1"}, article{ID: "s1", Text: "Short."})
		case 120: // read after the checkpoint; the run is stopped at it
			rows = append(rows, article{ID: "e2"})
		}
	}
	in := filepath.Join(dir, "news.parquet")
	writeParquet(t, in, rows)
	whole := Options{Inputs: []string{in}, Out: filepath.Join(dir, "whole")}
	if _, err := Run(t.Context(), whole); err != nil {
		t.Fatal(err)
	}
	resumed := Options{Inputs: []string{in}, Out: filepath.Join(dir, "resumed"), Resume: true, CheckpointEvery: 50}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	stopped := resumed
	stopped.Warn = cancelOn{"news.parquet:121:", cancel}
	if _, err := Run(ctx, stopped); !errors.Is(err, context.Canceled) {
		t.Fatalf("run: %v, want it cancelled", err)
	}
	if _, err := Run(t.Context(), resumed); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(whole.Out, output.RejectsFile))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(resumed.Out, output.RejectsFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(want, []byte(`"row":21,`)) || !bytes.Contains(want, []byte(`"row":22,`)) {
		t.Fatalf("rejects.jsonl of the whole run places rows 21 and 22 by row:\n%s", want)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("rejects.jsonl of the resumed run:\n%s\nwant:\n%s", got, want)
	}
}

// TestResumeSameStats pins that a run interrupted during its first reading
// and resumed writes the stats.json, and the warnings, of a run never
// interrupted, on inputs with what the reading counts besides records:
// dates not read and pages a site rule's body matched nothing on, before
// the checkpoint and after it, a gzip file with stray bytes and a file not
// read for its name. Regression: the dates not read were counted of the
// records decoded in the resumed process only, those replayed from the
// journal left out, so that dates_not_read and its example said fewer and
// a later line.
func TestResumeSameStats(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(writeResumeCorpus(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	var lines strings.Builder
	for i, l := range strings.SplitAfter(string(data), "\n") {
		if rest, ok := strings.CutPrefix(l, `{"id":`); ok {
			date := "2024-01-02"
			if i%3 == 0 {
				date = "someday"
			}
			l = `{"date":"` + date + `","id":` + rest
		}
		lines.WriteString(l)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(`{"id":"g1","date":"the day before","text":"` + strings.Repeat("A story of the gzip file, told at length. ", 6) + `"}` + "\n"))
	zw.Close()
	gz.Write(make([]byte, 16)) // stray bytes
	para := "<p>" + strings.Repeat("The council approved the new budget for the river bridge on Monday after a long debate. ", 4) + "</p>"
	page := func(topic string) string {
		return "<html><head><title>" + topic + "</title></head><body><article><h1>" + topic + "</h1>" +
			strings.ReplaceAll(para, "budget", topic) + para + para + "</article></body></html>"
	}
	for name, text := range map[string]string{"a.html": page("harbour"), "b.html": page("school"), "c.jsonl.gz": gz.String(),
		"d.jsonl": lines.String(), "e.png": "\x89PNG"} {
		if err := os.WriteFile(filepath.Join(in, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := rules.Parse([]byte("version: 1\nrules:\n  - name: daily\n    body: '.story-body'\n"), "rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	base := Options{Inputs: []string{in}, OnDuplicateID: DuplicateRename}
	base.Corpus.Extract.Rules = rs
	whole := base
	var wantWarn, gotWarn bytes.Buffer
	whole.Out, whole.Warn = filepath.Join(dir, "whole"), &wantWarn
	if _, err := Run(t.Context(), whole); err != nil {
		t.Fatal(err)
	}
	resumed := base
	resumed.Out, resumed.Resume, resumed.CheckpointEvery = filepath.Join(dir, "resumed"), true, 50
	interrupt(t, resumed)
	resumed.Warn = &gotWarn
	if _, err := Run(t.Context(), resumed); err != nil {
		t.Fatal(err)
	}
	want := stableStats(t, mustRead(t, filepath.Join(whole.Out, output.StatsFile)))
	for _, key := range []string{`"dates_not_read": `, `"dates_not_read_example": "\"the day before\" at `, `"files_not_read": 1`,
		`"gzip_files_with_stray_bytes": 1`} {
		if !bytes.Contains(want, []byte(key)) {
			t.Fatalf("the run never interrupted has no %s: the inputs do not exercise it\n%s", key, want)
		}
	}
	if !strings.Contains(wantWarn.String(), "a site rule's body matched nothing: 2") {
		t.Fatalf("the run never interrupted does not warn of the rule's misses:\n%s", &wantWarn)
	}
	if got := stableStats(t, mustRead(t, filepath.Join(resumed.Out, output.StatsFile))); !bytes.Equal(got, want) {
		t.Errorf("stats.json differs from the run never interrupted:\n%s\nwant:\n%s", got, want)
	}
	if gotWarn.String() != wantWarn.String() {
		t.Errorf("the warnings differ from the run never interrupted's:\n%s\nwant:\n%s", &gotWarn, &wantWarn)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestResumeKeepsRejectReasons: documents of the checkpoint that the method
// does not compare for a reason their texts told keep it in rejects.jsonl
// when the run is resumed, as a run never interrupted writes it.
// Regression: a resumed run replayed them without their texts and rejected
// them as "a text of fewer than 30 characters" (rarewords' --min-words) or
// "no words left" (sentences' --min-sentence-chars).
func TestResumeKeepsRejectReasons(t *testing.T) {
	rare := rarewords.Defaults()
	rare.MinWords = 30
	for _, tc := range []struct {
		method engine.Config
		want   []string // in rejects.jsonl
	}{
		{rare, []string{`"id":"few-words","reason":"too-short","error":"not compared: fewer than 30 words (--min-words)"`,
			`"id":"short-lines","reason":"too-short","error":"not compared: fewer than 30 words (--min-words)"`}},
		{sentences.Defaults(), []string{`"id":"short-lines","reason":"no-units","error":"not compared: no sentence of 20 characters or more (--min-sentence-chars)`}},
	} {
		t.Run(tc.method.Method(), func(t *testing.T) {
			dir := t.TempDir()
			in := writeResumeCorpus(t, dir)
			// Documents of enough characters for --min-text that the
			// method does not compare, first: in the checkpoint.
			notCompared := `{"id":"few-words","source":"x","text":"A story told in some forty characters and nine words."}` + "\n" +
				`{"id":"short-lines","source":"x","text":"Milk. Eggs. Bread. Butter. Flour. Sugar. Apples. Tea."}` + "\n"
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(in, append([]byte(notCompared), data...), 0o644); err != nil {
				t.Fatal(err)
			}
			whole := Options{Inputs: []string{in}, Out: filepath.Join(dir, "whole"), OnDuplicateID: DuplicateRename, Method: tc.method}
			if _, err := Run(t.Context(), whole); err != nil {
				t.Fatal(err)
			}
			resumed := whole
			resumed.Out, resumed.Resume, resumed.CheckpointEvery = filepath.Join(dir, "resumed"), true, 50
			interrupt(t, resumed)
			if _, err := Run(t.Context(), resumed); err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(whole.Out, "rejects.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(resumed.Out, "rejects.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(got), w) {
					t.Errorf("rejects.jsonl of the resumed run does not hold %s:\n%s", w, got)
				}
			}
			if !bytes.Equal(got, want) {
				t.Errorf("rejects.jsonl differs from the run never interrupted:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestOptionsDiffOfFieldsReordered: options that differ only in the order
// of their fields name the group, not nothing. Regression: the refusal
// read "(then → now: )".
func TestOptionsDiffOfFieldsReordered(t *testing.T) {
	got := optionsDiff([]byte(`{"method":"minhash","method_options":{"a":1,"b":2}}`), []byte(`{"method":"minhash","method_options":{"b":2,"a":1}}`))
	if got != "method_options (its fields in another order)" {
		t.Errorf("optionsDiff = %q", got)
	}
}
