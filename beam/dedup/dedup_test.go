package dedup

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/flagopts"
	"github.com/neardup/neardup/internal/job"
	"github.com/neardup/neardup/internal/output"
	"github.com/neardup/neardup/internal/profile"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/simhash"
)

// TestMain runs the tests on prism, with a temporary directory of their
// own as TMPDIR, removed at the end: the runner leaves a file in the
// temporary directory for each job it runs.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "neardup-beam-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("TMPDIR", dir)
	code := ptest.MainRetWithDefault(m, "prism")
	os.RemoveAll(dir)
	os.Exit(code)
}

// TestSameAsBatch runs the pipeline on prism and `neardup dedup`'s batch
// (package job) on the same generated corpus, near-duplicates, reprints,
// templated reports with other figures and bad records among them, and
// wants the same files: pairs, clusters, kept corpus, removed copies and
// rejected records byte for byte, and the same counts in stats.json. The
// bad records (malformed JSON, invalid UTF-8, binary, empty, too short)
// are skipped, counted and listed, and the job does not fail.
func TestSameAsBatch(t *testing.T) {
	dir := t.TempDir()
	inputs := expand(t, writeCorpus(t, dir, 3000, 1))
	smallBuckets := minhash.Defaults()
	smallBuckets.BucketLimit, smallBuckets.Similar = 3, 0.2
	// neardup dedup --profile corpus [--similar X]
	corpus := func(c engine.Config, similar float64) engine.Config {
		c, err := profile.Apply(c, profile.Corpus)
		if err == nil && similar > 0 {
			c, err = flagopts.Set(c, "similar", similar)
		}
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	tests := []struct {
		name   string
		o      Options
		docs   int  // the first docs documents of the corpus; 0 for all
		copies bool // with many exact copies of one story beside the first 600
		// similar wants members joined by a similar pair (SimilarIsCopy)
		similar bool
	}{
		{name: "defaults", o: Options{}},
		{name: "no rounds", o: Options{Rounds: -1}, docs: 600},
		{name: "one round", o: Options{Rounds: 1}, docs: 600},
		{name: "anchor, earliest, window", o: Options{Link: cluster.Anchor, Keep: cluster.Earliest, Window: 48 * time.Hour}, docs: 600},
		{name: "majority, central, small buckets", o: Options{Link: cluster.Majority, Keep: cluster.Central,
			Method: smallBuckets}, docs: 600},
		{name: "simhash", o: Options{Method: simhash.Defaults()}},
		{name: "simhash, central, window", o: Options{Method: simhash.Defaults(), Keep: cluster.Central, Window: 48 * time.Hour}, docs: 600},
		{name: "shards, gzip", o: Options{Shards: 3, Kept: "kept.jsonl.gz"}, docs: 600},
		{name: "many copies", copies: true},
		{name: "many copies, simhash", o: Options{Method: simhash.Defaults()}, copies: true},
		{name: "many copies, anchor", o: Options{Link: cluster.Anchor}, copies: true},
		{name: "many copies, majority", o: Options{Link: cluster.Majority}, copies: true},
		{name: "profile corpus", o: Options{Method: corpus(minhash.Defaults(), 0)}, docs: 600},
		{name: "profile corpus, similar is copy", o: Options{Method: corpus(minhash.Defaults(), 0.3), SimilarIsCopy: true},
			docs: 600, similar: true},
		{name: "profile corpus, similar is copy, anchor, earliest", o: Options{Method: corpus(minhash.Defaults(), 0.25),
			SimilarIsCopy: true, Link: cluster.Anchor, Keep: cluster.Earliest}, docs: 600, similar: true},
		{name: "profile corpus, simhash", o: Options{Method: corpus(simhash.Defaults(), 0)}, docs: 600},
	}
	small := expand(t, writeCorpus(t, filepath.Join(dir, "small"), 600, 2))
	withCopies := append(slices.Clone(small), writeCopies(t, filepath.Join(dir, "copies.jsonl"), 80))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := tt.o
			o.Inputs = inputs
			if tt.docs > 0 {
				o.Inputs = small
			}
			if tt.copies {
				o.Inputs = withCopies
			}
			batch, beamOut := filepath.Join(t.TempDir(), "batch"), filepath.Join(t.TempDir(), "beam")
			runBatch(t, o, batch)
			o.Out = beamOut
			runPipeline(t, o)
			if o.Shards > 0 {
				checkShards(t, beamOut, o.Shards)
			}
			kept := keptFile
			if o.Kept != "" {
				kept = o.Kept
			}
			for _, name := range []string{pairsFile, clustersFile, kept, removedFile, rejectsFile} {
				want, got := readFile(t, batch, name), readFile(t, beamOut, name)
				if !bytes.Equal(want, got) {
					t.Errorf("%s differs (-batch +pipeline):\n%s", name, cmp.Diff(lines(want), lines(got)))
				}
			}
			want, got := counts(t, batch), counts(t, beamOut)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("stats.json differs (-batch +pipeline):\n%s", diff)
			}
			if joined := bytes.Count(readFile(t, batch, clustersFile), []byte(`"similar to `)); tt.similar != (joined > 0) {
				t.Errorf("%d members joined by a similar pair, want some: %v", joined, tt.similar)
			}
			if n, _ := want["copies_checked_against_first"].(float64); tt.copies && (n == 0) != (o.Link == cluster.Anchor || o.Link == cluster.Majority) {
				t.Errorf("%v copies checked against the first alone under %s linking", n, o.Link)
			}
			if want["pairs"] == nil || len(lines(readFile(t, batch, clustersFile))) < 10 {
				t.Fatalf("the corpus made too few pairs and clusters to compare: %v", want)
			}
			skipped, _ := got["skipped"].(map[string]any)
			for _, reason := range []string{"malformed", "invalid-utf8", "binary", "empty", "too-short"} {
				if skipped[reason] == nil {
					t.Errorf("stats.json counts no record skipped as %s: %v", reason, skipped)
				}
			}
		})
	}
}

// writeCopies writes to path n exact copies of one story, dated alike,
// the story again under another date, and n copies of a text whose sample
// is empty, and returns path.
func writeCopies(t *testing.T, path string, n int) string {
	t.Helper()
	text := strings.Repeat("The harbour council voted to close the old ferry terminal by the end of the year. ", 3) +
		"Operators asked for two more years to move their ticket offices, and residents want a market hall there."
	var b strings.Builder
	for i := range n + 1 {
		date := "2024-03-01T09:00:00Z"
		if i == n {
			date = "2024-03-02T09:00:00Z"
		}
		fmt.Fprintf(&b, `{"id":"copy%d","title":"Council closes ferry terminal","text":%q,"date":%q}`+"\n", i, text, date)
	}
	// Copies whose sample is empty (minhash: no shingle of these
	// characters): sketched, but searching for no candidate.
	for i := range n {
		fmt.Fprintf(&b, `{"id":"signs%d","text":%q,"date":"2024-03-01T09:00:00Z"}`+"\n", i, strings.Repeat("\u09f4\u09f5 ", 30))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkShards checks that each JSON Lines file of dir is written as n
// shards, that the pairs and kept documents are spread over them, and
// merges them into one file of each.
func checkShards(t *testing.T, dir string, n int) {
	t.Helper()
	for _, name := range []string{"pairs", "clusters", "kept", "removed", "rejects"} {
		shards, err := filepath.Glob(filepath.Join(dir, name+"-*-of-*"))
		if err != nil || len(shards) != n {
			t.Fatalf("%s: shards %v (%v), want %d", name, shards, err, n)
		}
		if name != "pairs" {
			continue
		}
		for _, p := range shards {
			if st, err := os.Stat(p); err != nil || st.Size() == 0 {
				t.Errorf("shard %s is empty (%v): the pairs are not spread", p, err)
			}
		}
	}
	merged, err := Merge(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(merged) != 5 {
		t.Errorf("merged %v, want 5 files", merged)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*-of-*")); len(left) > 0 {
		t.Errorf("shards left after the merge: %v", left)
	}
}

// TestMergeRefusesMissingShard wants Merge to refuse a file whose shards
// are not all there, and to leave the directory as it is: the shards of
// every file, and no merged file. It merged the files before that one in
// name order (clusters.jsonl before pairs.jsonl), and removed their
// shards, leaving a mix of merged files and shards.
func TestMergeRefusesMissingShard(t *testing.T) {
	dir := t.TempDir()
	shards := []string{shardPath(dir, clustersFile, 0, 2), shardPath(dir, clustersFile, 1, 2),
		shardPath(dir, pairsFile, 0, 3), shardPath(dir, pairsFile, 2, 3)}
	for _, p := range shards {
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := Merge(context.Background(), dir)
	if err == nil || !strings.Contains(err.Error(), "2 of its 3 shards") {
		t.Fatalf("Merge = %v, want an error naming the missing shard", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, filepath.Join(dir, e.Name()))
	}
	if diff := cmp.Diff(shards, got); diff != "" {
		t.Errorf("after a merge refused (-the shards +now):\n%s", diff)
	}
}

// runBatch runs `neardup dedup` on o's inputs and options into out.
func runBatch(t *testing.T, o Options, out string) {
	t.Helper()
	jo := job.Options{Inputs: o.Inputs, Out: out, Keep: o.Keep, Link: o.Link, Window: o.Window, SimilarIsCopy: o.SimilarIsCopy,
		MaxWarnings: -1}
	if jo.Link == "" {
		jo.Link = cluster.Any // as `neardup dedup` gives it
	}
	jo.Method, jo.Kept = o.Method, o.Kept
	if _, err := job.Run(context.Background(), jo); err != nil {
		t.Fatal(err)
	}
}

// runPipeline runs the pipeline of o on prism.
func runPipeline(t *testing.T, o Options) {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, o); err != nil {
		t.Fatal(err)
	}
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
}

// expand lists the files of inputs, a file and a glob, for both runs: the
// batch reads no glob (a shell expands them).
func expand(t *testing.T, inputs []string) []string {
	t.Helper()
	files, err := Expand(context.Background(), inputs, "", Fields{})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 {
		t.Fatalf("%v are %d files, want 2", inputs, len(files))
	}
	return files
}

// readFile reads a file of dir, decompressed when it is gzip: a merged
// file of shards is a gzip stream of several members, the batch's of one.
func readFile(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(name, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

func lines(b []byte) []string { return strings.SplitAfter(string(b), "\n") }

// counts reads stats.json but for what only a process measures.
func counts(t *testing.T, dir string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(readFile(t, dir, statsFile), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"seconds", "cpu_seconds", "peak_rss_bytes"} {
		delete(m, k)
	}
	return m
}

// writeCorpus writes n generated news-like documents, and a few bad
// records, as two JSON Lines files in dir, and returns their paths: a file
// and a glob. Stories come in families: a story, its reprints with a few
// words changed or cut short, rewrites that keep half its words, and
// templated reports that fill the story's figures with others.
func writeCorpus(t *testing.T, dir string, n int, seed uint64) []string {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "more"), 0o755); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	words := make([]string, 3000)
	for i := range words {
		var b strings.Builder
		for range 3 + rng.IntN(7) {
			b.WriteByte(byte('a' + rng.IntN(26)))
		}
		words[i] = b.String()
	}
	start := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	type story struct{ title, text string }
	var family []story
	var recs [][]byte
	for i := range n {
		var s story
		switch r := rng.IntN(10); {
		case len(family) > 0 && r < 4: // a reprint: a few words changed, maybe cut
			f := family[rng.IntN(len(family))]
			s = story{f.title, edit(rng, words, f.text, 0.03)}
			if rng.IntN(4) == 0 {
				ws := strings.Fields(s.text)
				s.text = strings.Join(ws[:len(ws)*3/4], " ")
			}
		case len(family) > 0 && r < 6: // a rewrite
			f := family[rng.IntN(len(family))]
			s = story{f.title + " update", edit(rng, words, f.text, 0.35)}
		case len(family) > 0 && r < 7: // a templated report with other figures
			f := family[rng.IntN(len(family))]
			s = story{f.title, refill(rng, f.text)}
		default: // a new story
			var b strings.Builder
			for j := range 80 + rng.IntN(200) {
				if j%17 == 5 {
					fmt.Fprintf(&b, "%d.%d ", rng.IntN(900)+10, rng.IntN(10))
				}
				b.WriteString(words[rng.IntN(len(words))])
				b.WriteString(" ")
			}
			s = story{fmt.Sprintf("%s %s", words[rng.IntN(len(words))], words[rng.IntN(len(words))]), b.String()}
			if len(family) > 40 {
				family = family[1:]
			}
			family = append(family, s)
		}
		rec := map[string]any{"id": fmt.Sprintf("d%05d", i), "title": s.title, "text": s.text}
		if rng.IntN(5) > 0 {
			rec["date"] = start.Add(time.Duration(rng.IntN(30*24)) * time.Hour).Format(time.RFC3339)
		}
		b, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, b)
	}
	bad := [][]byte{
		[]byte(`{"id": "broken", "text": "no end`),
		[]byte(`{"id": "empty", "text": ""}`),
		[]byte(`{"id": "nul", "text": "a\u0000b"}`),
		[]byte("{\"id\": \"latin1\", \"text\": \"caf\xe9\"}"),
		[]byte(`{"id": "short", "text": "?!"}`),
		[]byte(`[1, 2, 3]`),
	}
	for i, b := range bad {
		at := (i + 1) * len(recs) / (len(bad) + 1)
		recs = append(recs[:at], append([][]byte{b}, recs[at:]...)...)
	}
	half := len(recs) / 2
	files := []string{filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "more", "b.jsonl")}
	for i, part := range [][][]byte{recs[:half], recs[half:]} {
		if err := os.WriteFile(files[i], append(bytes.Join(part, []byte("\n")), '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return []string{files[0], filepath.Join(dir, "more", "*.jsonl")}
}

// edit replaces share of the words of text with others.
func edit(rng *rand.Rand, words []string, text string, share float64) string {
	ws := strings.Fields(text)
	for i := range ws {
		if rng.Float64() < share {
			ws[i] = words[rng.IntN(len(words))]
		}
	}
	return strings.Join(ws, " ")
}

// refill replaces every figure of text with another.
func refill(rng *rand.Rand, text string) string {
	ws := strings.Fields(text)
	for i, w := range ws {
		if w[0] >= '0' && w[0] <= '9' {
			ws[i] = fmt.Sprintf("%d.%d", rng.IntN(900)+10, rng.IntN(10))
		}
	}
	return strings.Join(ws, " ")
}

// TestSecondRunReplacesEarlierResults runs the pipeline twice into one
// directory, first with shards and a gzip kept file, then with one file of
// each, and wants the directory to hold the second run's files alone: the
// first run's shards were left beside them, and Merge then wrote them over
// the second run's pairs.jsonl, clusters.jsonl and removed.jsonl, which no
// longer matched its stats.json. A file of the user's stays; the stage a
// run killed outright left goes.
func TestSecondRunReplacesEarlierResults(t *testing.T) {
	inputs := expand(t, writeCorpus(t, t.TempDir(), 300, 3))
	out := filepath.Join(t.TempDir(), "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	// a user's; a stopped run's; a killed run's stage
	for _, name := range []string{"notes.txt", "pairs.jsonl.tmp", ".neardup-beam-new-KILLED/stats.json.tmp"} {
		p := filepath.Join(out, name)
		if err := errors.Join(os.MkdirAll(filepath.Dir(p), 0o755), os.WriteFile(p, []byte("x\n"), 0o644)); err != nil {
			t.Fatal(err)
		}
	}
	for _, o := range []Options{{Shards: 2, Kept: "kept.jsonl.gz"}, {}} {
		o.Inputs, o.Out = inputs, out
		runPipeline(t, o)
		if _, err := RemoveEarlier(context.Background(), o); err != nil {
			t.Fatal(err)
		}
	}
	got := dirNames(t, out)
	want := []string{clustersFile, keptFile, "notes.txt", pairsFile, rejectsFile, removedFile, statsFile}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the output directory after two runs (-want +got):\n%s", diff)
	}
	if _, err := Merge(context.Background(), out); err == nil {
		t.Error("Merge found shards to merge after a run without shards")
	}

	// The kept corpus of a run read again, into the same directory, by a
	// run that writes another kept file: the input is not removed.
	again := filepath.Join(out, "kept.jsonl.gz")
	if err := os.WriteFile(again, []byte{}, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := RemoveEarlier(context.Background(), Options{Inputs: []string{again}, Out: out}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(again); err != nil {
		t.Errorf("the input %s was removed as a file of an earlier run: %v", again, err)
	}
	// The same, with the input or the directory named through a symbolic
	// link (or a hard one): the input is the same file, and stays.
	link := filepath.Join(t.TempDir(), "out-link")
	if err := os.Symlink(out, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(filepath.Dir(out), "kept-again.jsonl.gz")
	if err := os.Link(again, hard); err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{
		{Inputs: []string{filepath.Join(link, "kept.jsonl.gz")}, Out: out},
		{Inputs: []string{again}, Out: link},
		{Inputs: []string{hard}, Out: out},
	} {
		if _, err := RemoveEarlier(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(again); err != nil {
			t.Fatalf("the input %s, read as %s into %s, was removed as a file of an earlier run: %v", again, o.Inputs[0], o.Out, err)
		}
	}
}

// TestRunReplacesBatchResults runs neardup dedup with a Parquet kept
// file, a report and a titles file in a folder of the output directory,
// then the pipeline into the same directory, and wants the directory to
// hold the pipeline's files alone: kept.parquet, the report and the
// batch's manifest, which listed them, were left beside them. Without the
// manifest nothing tells them a run's: a kept.parquet, which neardup dedup
// writes only beside one, is the user's and stays.
func TestRunReplacesBatchResults(t *testing.T) {
	inputs := expand(t, writeCorpus(t, t.TempDir(), 300, 3))
	for _, tc := range []struct {
		name     string
		manifest bool
		want     []string
	}{
		{"a set with a manifest", true, nil},
		{"files no manifest lists", false, []string{"kept.parquet", "report.html", "sub"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			_, err := job.Run(context.Background(), job.Options{Inputs: inputs, Out: out, Kept: "kept.parquet",
				Report: filepath.Join(out, "report.html"), TitlesCSV: filepath.Join(out, "sub", "titles.csv")})
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"kept.parquet", "report.html", "sub/titles.csv", output.ManifestFile} {
				if _, err := os.Stat(filepath.Join(out, name)); err != nil {
					t.Fatalf("the batch wrote no %s: %v", name, err)
				}
			}
			if !tc.manifest {
				if err := os.Remove(filepath.Join(out, output.ManifestFile)); err != nil {
					t.Fatal(err)
				}
			}
			o := Options{Inputs: inputs, Out: out}
			runPipeline(t, o)
			if _, err := RemoveEarlier(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			got := dirNames(t, out)
			want := append([]string{clustersFile, keptFile, pairsFile, rejectsFile, removedFile}, tc.want...)
			want = append(want, statsFile)
			slices.Sort(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("the output directory after the batch and the pipeline (-want +got):\n%s", diff)
			}
		})
	}
}

// noRemoverFS is a file system that cannot remove files (no
// filesystem.Remover), holding an earlier run's shard.
type noRemoverFS struct{}

func (noRemoverFS) List(context.Context, string) ([]string, error) {
	return []string{"noremover://out/pairs-00000-of-00002.jsonl"}, nil
}
func (noRemoverFS) OpenRead(context.Context, string) (io.ReadCloser, error) {
	return nil, os.ErrNotExist
}
func (noRemoverFS) OpenWrite(context.Context, string) (io.WriteCloser, error) {
	return nil, os.ErrPermission
}
func (noRemoverFS) Size(context.Context, string) (int64, error) { return 0, os.ErrNotExist }
func (noRemoverFS) Close() error                                { return nil }

var registerNoRemover sync.Once

// TestRemoveEarlierWhereFilesCannotBeRemoved wants the error of a file
// system that cannot remove an earlier run's files to say they are left
// beside this run's results, as RemoveEarlier runs once the pipeline has
// written them; it said "remove them first", from when it ran before.
func TestRemoveEarlierWhereFilesCannotBeRemoved(t *testing.T) {
	registerNoRemover.Do(func() {
		filesystem.Register("noremover", func(context.Context) filesystem.Interface { return noRemoverFS{} })
	})
	_, err := RemoveEarlier(context.Background(), Options{Inputs: []string{"in.jsonl"}, Out: "noremover://out"})
	want := "noremover://out holds, beside this run's results, files of an earlier run (noremover://out/pairs-00000-of-00002.jsonl) " +
		"that its file system cannot remove here: remove them by hand, so that it holds this run's alone"
	if err == nil || err.Error() != want {
		t.Errorf("RemoveEarlier: %v, want %q", err, want)
	}
}

// TestRepeatedIDFails runs the pipeline on two copies of one story under
// one id, and wants the job to fail naming the id and both records, as
// neardup dedup refuses a repeated id: it read them as two documents, and
// wrote a pair of the id with itself, a cluster listing it twice, and
// kept.jsonl with the id in it once, or twice when the texts differed.
func TestRepeatedIDFails(t *testing.T) {
	dir := t.TempDir()
	text := strings.Repeat("The central bank left its rate unchanged on Thursday, citing inflation. ", 6)
	in := filepath.Join(dir, "in.jsonl")
	recs := `{"id":"x","text":"` + text + `"}` + "\n" + `{"id":"y","text":"Markets rose on Friday as traders weighed the outlook for growth and the price of oil."}` + "\n" +
		`{"id":"x","text":"` + text + `"}` + "\n"
	if err := os.WriteFile(in, []byte(recs), 0o644); err != nil {
		t.Fatal(err)
	}
	o := Options{Inputs: []string{in}, Out: filepath.Join(dir, "out")}
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, o); err != nil {
		t.Fatal(err)
	}
	err := ptest.Run(p)
	if want := in + `, record 3: id "x" repeats the id of ` + in + ", record 1"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("the job: %v; want it failed saying %q", err, want)
	}
}

// TestPublishRefusesAnIncompleteStage wants Publish to move nothing from a
// stage that lacks a file the run writes, to remove the stage, and to
// leave the earlier run's files as they were.
func TestPublishRefusesAnIncompleteStage(t *testing.T) {
	out := t.TempDir()
	o := Options{Inputs: []string{"in.jsonl"}, Out: out, Stage: NewStage(out)}
	for _, p := range []string{outPath(out, pairsFile), outPath(out, statsFile), outPath(o.Stage, pairsFile),
		outPath(o.Stage, clustersFile), outPath(o.Stage, keptFile), outPath(o.Stage, removedFile), outPath(o.Stage, rejectsFile)} {
		if err := errors.Join(os.MkdirAll(filepath.Dir(p), 0o755), os.WriteFile(p, []byte(filepath.Base(filepath.Dir(p))), 0o644)); err != nil {
			t.Fatal(err)
		}
	}
	_, err := Publish(context.Background(), o)
	if err == nil || !strings.Contains(err.Error(), "the job wrote no stats.json") {
		t.Fatalf("Publish = %v, want an error saying the stage holds no stats.json", err)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(out, e.Name()))
		got = append(got, e.Name()+" "+string(b))
	}
	want := []string{"pairs.jsonl " + filepath.Base(out), "stats.json " + filepath.Base(out)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the output directory after Publish refused (-want +got):\n%s", diff)
	}
}

// dirNames returns the names of what directory dir holds, sorted.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestRemoveEarlierStaysInsideOut: a manifest that names a file through a
// symbolic link in the output directory ("sub/report.html", sub a link to
// another directory) makes RemoveEarlier remove neither that file, which
// is not the output directory's, nor the user's link.
func TestRemoveEarlierStaysInsideOut(t *testing.T) {
	inputs := expand(t, writeCorpus(t, t.TempDir(), 30, 3))
	base := t.TempDir()
	out, elsewhere := filepath.Join(base, "out"), filepath.Join(base, "elsewhere")
	victim := filepath.Join(elsewhere, "report.html")
	if err := errors.Join(os.MkdirAll(out, 0o755), os.MkdirAll(elsewhere, 0o755),
		os.WriteFile(victim, []byte("the user's own"), 0o644),
		os.Symlink(elsewhere, filepath.Join(out, "sub")),
		os.WriteFile(filepath.Join(out, output.ManifestFile), []byte(`{"files":["pairs.jsonl","sub/report.html"]}`), 0o644)); err != nil {
		t.Fatal(err)
	}
	if _, err := RemoveEarlier(context.Background(), Options{Inputs: inputs, Out: out}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(victim); err != nil {
		t.Errorf("a file outside the output directory, named through a link in it, was removed: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(out, "sub")); err != nil {
		t.Errorf("the user's link in the output directory was removed: %v", err)
	}
}
