package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/beam/dedup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/flagopts"
	"github.com/neardup/neardup/internal/job"
	"github.com/neardup/neardup/internal/output"
	"github.com/neardup/neardup/internal/profile"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/simhash"
)

// TestCommandLineMistakesExit2 wants each mistake in the command line of
// `neardup-beam dedup` refused by parse, before any runner starts, with
// exit code 2, as neardup's commands refuse theirs; they exited 1, and a
// bad --keep or --link only once the output directory was made.
func TestCommandLineMistakesExit2(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	tests := []struct {
		name string
		args []string
	}{
		{"unknown flag", []string{"in.jsonl", "-o", out, "--bogus"}},
		{"no input", []string{"-o", out}},
		{"-o - (a stream, as neardup dedup refuses it)", []string{"in.jsonl", "-o", "-"}},
		{"no output", []string{"in.jsonl"}},
		{"method the pipeline does not run", []string{"--method", "tfidf", "in.jsonl", "-o", out}},
		{"threshold out of range", []string{"--threshold", "2", "in.jsonl", "-o", out}},
		{"simhash option out of range", []string{"--method", "simhash", "--bucket-limit", "-3", "in.jsonl", "-o", out}},
		{"unknown keep policy", []string{"--keep", "bogus", "in.jsonl", "-o", out}},
		{"unknown linking", []string{"--link", "bogus", "in.jsonl", "-o", out}},
		{"parquet kept file", []string{"--kept", "kept.parquet", "in.jsonl", "-o", out}},
		{"negative shards", []string{"--shards", "-1", "in.jsonl", "-o", out}},
		{"negative window", []string{"--window", "-3h", "in.jsonl", "-o", out}},
		{"window of a bare m", []string{"--window", "3m", "in.jsonl", "-o", out}},
		{"window under a second", []string{"--window", "1ms", "in.jsonl", "-o", out}},
		{"max-bytes 0", []string{"--max-bytes", "0", "in.jsonl", "-o", out}},
		{"negative min-text", []string{"--min-text", "-5", "in.jsonl", "-o", out}},
		{"negative rounds", []string{"--rounds", "-1", "in.jsonl", "-o", out}},
		{"similar above the threshold", []string{"--similar", "0.95", "in.jsonl", "-o", out}},
		{"simhash's similar above its threshold", []string{"--method", "simhash", "--threshold", "0.6", "--similar", "0.7", "in.jsonl", "-o", out}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := flag.NewFlagSet("neardup-beam", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			_, err := parse(fs, tt.args)
			if err == nil {
				t.Fatalf("parse(%q) = nil, want a mistake", tt.args)
			}
			if code := exitCode(err); code != 2 {
				t.Errorf("parse(%q) = %v: exit code %d, want 2", tt.args, err, code)
			}
		})
	}
	fs := flag.NewFlagSet("neardup-beam", flag.ContinueOnError)
	if _, err := parse(fs, []string{"in.jsonl", "--keep", "central", "-o", out, "--method", "simhash", "--threshold", "0.8"}); err != nil {
		t.Errorf("parse of a good command line: %v", err)
	}
	// --similar above the threshold marked no pair below it and left out
	// the duplicates a rule refuses under it, taken silently; now refused,
	// as neardup dedup refuses it, naming both. At the threshold it stands.
	fs = flag.NewFlagSet("neardup-beam", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if _, err := parse(fs, []string{"in.jsonl", "-o", out, "--similar", "0.95"}); err == nil ||
		!strings.HasPrefix(err.Error(), "--similar 0.95 is above --threshold 0.45: ") {
		t.Errorf("--similar 0.95: %v, want it named above --threshold 0.45", err)
	}
	fs = flag.NewFlagSet("neardup-beam", flag.ContinueOnError)
	if _, err := parse(fs, []string{"in.jsonl", "-o", out, "--similar", "0.45", "--threshold", "0.45"}); err != nil {
		t.Errorf("--similar at the threshold: %v", err)
	}
	// Of --method given twice, the last is the method, as in neardup
	// dedup; the options that follow it are its own. The first was taken
	// for the method's options and the last for the method, and the run
	// refused with "--method simhash: the pipeline runs minhash and
	// simhash".
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--method", "minhash", "--method", "simhash"}, simhash.Name},
		{[]string{"--method", "minhash", "--method", "simhash", "--distance", "4"}, simhash.Name},
		{[]string{"--method=simhash", "--method=minhash", "--bands", "16x4"}, minhash.Name},
	} {
		fs = flag.NewFlagSet("neardup-beam", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		c, err := parse(fs, append([]string{"in.jsonl", "-o", out}, tc.args...))
		if err != nil || c.Method == nil || c.Method.Method() != tc.want {
			t.Errorf("parse(%q): %v; want the method %s", tc.args, err, tc.want)
		}
	}
	// A negative --min-text is refused in neardup's words; it was taken,
	// as 0 is, for "compare every document".
	fs = flag.NewFlagSet("neardup-beam", flag.ContinueOnError)
	want := "--min-text: want 0 or more characters (0 compares every document), not -5"
	if _, err := parse(fs, []string{"in.jsonl", "-o", out, "--min-text", "-5"}); err == nil || err.Error() != want {
		t.Errorf("--min-text -5: %v, want %q", err, want)
	}
	// --window takes days, as neardup's --window does; Go's flag.Duration
	// refused 3d (time: unknown unit "d").
	fs = flag.NewFlagSet("neardup-beam", flag.ContinueOnError)
	if c, err := parse(fs, []string{"in.jsonl", "-o", out, "--window", "3d"}); err != nil || c.Window != 72*time.Hour {
		t.Errorf("--window 3d: window %v, %v; want 72h", c.Window, err)
	}
}

// TestRoundsZeroRunsNone is the regression test of --rounds 0, which ran
// the default 4 rounds (Options.Rounds 0 is the default): the command
// line's 0 runs none, its default is the flag's (dedup.DefaultRounds).
func TestRoundsZeroRunsNone(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int // Options.Rounds
	}{
		{nil, dedup.DefaultRounds},
		{[]string{"--rounds", "0"}, -1},
		{[]string{"--rounds", "1"}, 1},
	} {
		fs := flag.NewFlagSet("neardup-beam", flag.ContinueOnError)
		c, err := parse(fs, append([]string{"in.jsonl", "-o", "out"}, tc.args...))
		if err != nil || c.Rounds != tc.want {
			t.Errorf("parse(%q): rounds %d, %v; want %d", tc.args, c.Rounds, err, tc.want)
		}
	}
}

// TestAsyncRefused is the regression test of --async (and Dataflow's
// --execute_async, which sets the same option of Beam's): the runner
// returned once the job was submitted, so that an earlier run's results
// were removed while the job might yet fail, and printing the counts of a
// job not done panicked (a nil pointer), exit 2. Now either is refused as
// a mistake in the command line, exit 2, naming the flag; false is no
// mistake. The flags are Beam's, on flag.CommandLine, which parse is
// given: the test gives its FlagSet the two, sharing one value.
func TestAsyncRefused(t *testing.T) {
	for _, name := range []string{"async", "execute_async"} {
		if flag.CommandLine.Lookup(name) == nil {
			t.Fatalf("Beam's flag --%s is not on flag.CommandLine", name)
		}
	}
	out := filepath.Join(t.TempDir(), "out")
	for _, tc := range []struct {
		arg, refused string
	}{
		{"--async", "async"},
		{"--async=true", "async"},
		{"--execute_async", "execute_async"},
		{"--async=false", ""},
	} {
		t.Run(tc.arg, func(t *testing.T) {
			fs := flag.NewFlagSet("neardup-beam", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			async := fs.Bool("async", false, "")
			fs.BoolVar(async, "execute_async", false, "")
			_, err := parse(fs, []string{"in.jsonl", "-o", out, tc.arg})
			switch {
			case tc.refused == "" && err != nil:
				t.Fatalf("parse: %v", err)
			case tc.refused == "":
			case err == nil:
				t.Fatal("parse = nil, want a mistake")
			case exitCode(err) != 2 || !strings.HasPrefix(err.Error(), "--"+tc.refused+": neardup-beam waits for its job to end"):
				t.Errorf("parse = %v, exit code %d; want exit code 2 and --%s refused", err, exitCode(err), tc.refused)
			}
		})
	}
}

// TestDryRunRefused is the regression test of --dry_run, a flag of Beam's
// (the Dataflow runner's, on flag.CommandLine) that -h lists as "Just print
// the job, but don't submit it": prism and the other runners ignore it, and
// the run ran the job and replaced the results in -o. Now it is refused
// as a mistake in the command line, exit 2, before anything is made;
// false is no mistake.
func TestDryRunRefused(t *testing.T) {
	if flag.CommandLine.Lookup("dry_run") == nil {
		t.Fatal("Beam's flag --dry_run is not on flag.CommandLine")
	}
	out := filepath.Join(t.TempDir(), "out")
	for _, tc := range []struct {
		arg     string
		refused bool
	}{
		{"--dry_run", true},
		{"--dry_run=true", true},
		{"--dry_run=false", false},
	} {
		t.Run(tc.arg, func(t *testing.T) {
			fs := flag.NewFlagSet("neardup-beam", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			fs.Bool("dry_run", false, "")
			_, err := parse(fs, []string{"in.jsonl", "-o", out, tc.arg})
			switch {
			case !tc.refused && err != nil:
				t.Fatalf("parse: %v", err)
			case !tc.refused:
			case err == nil:
				t.Fatal("parse = nil, want a mistake")
			case exitCode(err) != 2 || !strings.HasPrefix(err.Error(), "--dry_run: neardup-beam has no dry run"):
				t.Errorf("parse = %v, exit code %d; want exit code 2 and --dry_run refused", err, exitCode(err))
			}
		})
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("-o %s: %v, want it not made", out, err)
	}
}

// TestUnknownRunnerRefused is the regression test of a --runner the
// binary lacks: Beam's registry of runners ended the process at it (exit
// 1, with one log line, which -q left out), leaving the output directory
// the run had made. Now parse refuses it, exit code 2, before anything is
// made, naming the runners there are; so are Beam's dot and vet runners,
// which run no job. A runner's name, or Beam's other name of it, passes.
func TestUnknownRunnerRefused(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	const want = "not a runner of neardup-beam, which runs its job on prism (the default), flink, spark, dataflow, universal or direct"
	for _, tc := range []struct {
		runner string
		ok     bool
	}{
		{"bogus", false}, {"dot", false}, {"vet", false}, {"Prism", false},
		{"", true}, {"prism", true}, {"PrismRunner", true}, {"flink", true}, {"FlinkRunner", true}, {"spark", true},
		{"dataflow", true}, {"DataflowRunner", true}, {"universal", true}, {"portable", true}, {"direct", true},
	} {
		t.Run("runner="+tc.runner, func(t *testing.T) {
			fs := flag.NewFlagSet("neardup-beam", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			fs.String("runner", "", "Pipeline runner.") // Beam's, on flag.CommandLine
			c, err := parse(fs, []string{"in.jsonl", "-o", out, "--runner=" + tc.runner})
			switch {
			case tc.ok && err != nil:
				t.Fatalf("parse: %v", err)
			case tc.ok && c.Runner != tc.runner:
				t.Errorf("runner %q, want %q", c.Runner, tc.runner)
			case tc.ok:
			case err == nil:
				t.Fatal("parse = nil, want the runner refused")
			case exitCode(err) != 2 || err.Error() != "--runner "+tc.runner+": "+want:
				t.Errorf("parse = %v, exit code %d; want exit code 2 and %q", err, exitCode(err), "--runner "+tc.runner+": "+want)
			}
		})
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("-o %s: %v, want it not made", out, err)
	}
}

// TestRunnerFailureRemovesOutput runs with -q into an output directory not
// there before, on runners that fail once the run has made it, and wants
// the runner's error returned (main prints it), exit code 1, nothing on
// stderr and no directory left. A runner's panic (Beam's runners panic on
// some values of their flags, here --resource_hints without =) ended the
// process with a stack trace, exit 2, leaving the directory.
func TestRunnerFailureRemovesOutput(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	in := filepath.Join(t.TempDir(), "in.jsonl")
	text := strings.Repeat("The central bank left its rate unchanged on Thursday, citing inflation. ", 6)
	if err := os.WriteFile(in, []byte(`{"id":"a","text":"`+text+`"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hints, endpoint := jobopts.ResourceHints, *jobopts.Endpoint
	t.Cleanup(func() { jobopts.ResourceHints, *jobopts.Endpoint = hints, endpoint })
	for _, tc := range []struct {
		name, runner, want string
		set                func()
	}{
		{"a runner's panic", "prism", `pipeline: runner prism: unparsable resource hint: "bogus"`,
			func() { jobopts.ResourceHints = append(hints[:0:0], "bogus") }},
		{"a runner's error", "flink", "pipeline: no job service endpoint specified. Use --endpoint=<endpoint>",
			func() { *jobopts.Endpoint = "" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			jobopts.ResourceHints, *jobopts.Endpoint = hints, endpoint
			tc.set()
			out := filepath.Join(t.TempDir(), "out")
			c := command{Options: dedup.Options{Inputs: []string{in}, Out: out}, Runner: tc.runner, Quiet: true}
			stderr, err := stderrOf(t, func() error { return run(context.Background(), c) })
			if err == nil || err.Error() != tc.want || exitCode(err) != 1 {
				t.Errorf("run: %v, exit code %d; want %q, exit code 1", err, exitCode(err), tc.want)
			}
			if stderr != "" {
				t.Errorf("stderr %q, want nothing (the error is main's to print)", stderr)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("-o %s, not there before the run: %v, want it not there", out, err)
			}
		})
	}
}

// TestProfile is the regression test of --profile, which neardup-beam
// refused ("flag provided but not defined: -profile") though it gives
// neardup dedup's results: --profile corpus sets the method's options as
// neardup dedup's does (package profile), the method options given win
// wherever they are on the command line, and a similar label given back
// (--similar) counts as a copy under corpus alone. The results are
// TestSameAsBatch's (package dedup).
func TestProfile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	corpus := func(c engine.Config) engine.Config {
		c, err := profile.Apply(c, profile.Corpus)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	set := func(c engine.Config, name string, v any) engine.Config {
		c, err := flagopts.Set(c, name, v)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for _, tc := range []struct {
		name          string
		args          []string
		method        engine.Config
		similarIsCopy bool
	}{
		{"news by default", nil, minhash.Defaults(), false},
		{"news", []string{"--profile", "news", "--similar", "0.2"}, set(minhash.Defaults(), "similar", 0.2), false},
		{"corpus", []string{"--profile", "corpus"}, corpus(minhash.Defaults()), false},
		{"corpus, simhash", []string{"--method", "simhash", "--profile=corpus"}, corpus(simhash.Defaults()), false},
		{"corpus, an option given after", []string{"--profile", "corpus", "--containment", "0.7"},
			set(corpus(minhash.Defaults()), "containment", 0.7), false},
		{"corpus, an option given before", []string{"--containment", "0.7", "--threshold", "0.8", "--profile", "corpus"},
			set(set(corpus(minhash.Defaults()), "containment", 0.7), "threshold", 0.8), false},
		{"corpus, similar given back", []string{"--similar", "0.3", "--profile", "corpus"},
			set(corpus(minhash.Defaults()), "similar", 0.3), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("neardup-beam", flag.ContinueOnError)
			c, err := parse(fs, append([]string{"in.jsonl", "-o", out}, tc.args...))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(optionsOf(tc.method), optionsOf(c.Method)); diff != "" {
				t.Errorf("method options (-want +got):\n%s", diff)
			}
			if c.SimilarIsCopy != tc.similarIsCopy {
				t.Errorf("SimilarIsCopy %v, want %v", c.SimilarIsCopy, tc.similarIsCopy)
			}
		})
	}
	fs := flag.NewFlagSet("neardup-beam", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if _, err := parse(fs, []string{"in.jsonl", "-o", out, "--profile", "corpsu"}); err == nil ||
		err.Error() != "--profile corpsu: want news or corpus" || exitCode(err) != 2 {
		t.Errorf("--profile corpsu: %v, exit code %d; want it refused naming the profiles, exit code 2", err, exitCode(err))
	}
}

// optionsOf returns a method's name and options, by their flag names.
func optionsOf(c engine.Config) map[string]any {
	m := map[string]any{"method": c.Method()}
	for _, f := range flagopts.Fields(c) {
		m[f.Name] = f.Value
	}
	return m
}

// TestRunLeavesNoTemporaryFile runs a small job on prism, as
// `neardup-beam dedup` does, and wants the temporary directory as it was:
// each run left an empty beamloopbackworker-* file there, the worker
// binary's name Beam's runner makes for an in-process job.
func TestRunLeavesNoTemporaryFile(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	text := strings.Repeat("The central bank left its rate unchanged on Thursday, citing inflation. ", 6)
	recs := `{"id":"a","text":"` + text + `"}` + "\n" + `{"id":"b","text":"` + text + `Markets rose."}` + "\n"
	if err := os.WriteFile(in, []byte(recs), 0o644); err != nil {
		t.Fatal(err)
	}
	o := dedup.Options{Inputs: []string{in}, Out: filepath.Join(dir, "out")}
	if err := run(context.Background(), command{Options: o}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(o.Out, "pairs.jsonl")); err != nil || !strings.Contains(string(b), `"a":"a","b":"b"`) {
		t.Fatalf("pairs.jsonl = %q, %v; want the pair a, b", b, err)
	}
	left, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		t.Errorf("left in the temporary directory: %s", e.Name())
	}
}

// TestQuietLeavesOutRunnerLog runs a small job as `neardup-beam dedup -q`
// does and wants nothing on stderr: prism wrote a dozen INFO lines a run
// ("Serving JobManagement", "pipeline done!" ...), and neardup-beam had no
// flag to quiet them.
func TestQuietLeavesOutRunnerLog(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	text := strings.Repeat("The central bank left its rate unchanged on Thursday, citing inflation. ", 6)
	if err := os.WriteFile(in, []byte(`{"id":"a","text":"`+text+`"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"-q", "--quiet"} {
		t.Run(q, func(t *testing.T) {
			fs := flag.NewFlagSet("neardup-beam", flag.ContinueOnError)
			c, err := parse(fs, []string{q, in, "-o", filepath.Join(t.TempDir(), "out")})
			if err != nil {
				t.Fatal(err)
			}
			level := beamlog.LogLevel
			t.Cleanup(func() { beamlog.LogLevel = level })
			stderr, err := os.CreateTemp(t.TempDir(), "stderr")
			if err != nil {
				t.Fatal(err)
			}
			saved := os.Stderr
			os.Stderr = stderr
			err = run(context.Background(), c)
			os.Stderr = saved
			if err != nil {
				t.Fatal(err)
			}
			if b, err := os.ReadFile(stderr.Name()); err != nil || len(b) > 0 {
				t.Errorf("stderr of a run with %s: %q, %v; want nothing", q, b, err)
			}
		})
	}
}

// TestFailedJobSaysItsError is the regression test of the errors that
// arise inside the pipeline: with -q, stderr held 5 to 30 KB of the
// runner's ERROR lines, each with the plan of the bundle that failed, and
// the error repeated, the step's error at the end of neardup-beam's own
// message, without neardup dedup's hint. Now the runner's ERROR lines are
// left out with -q, and the error is the step's, its hint on the line after.
// An output that is a file is refused before the pipeline starts, in
// neardup dedup's words and with its exit code, 2 (a mistake in the
// command line): the job failed at its end ("mkdir out: not a directory").
func TestFailedJobSaysItsError(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dir := t.TempDir()
	in := filepath.Join(dir, "c2.jsonl")
	text := strings.Repeat("The central bank left its rate unchanged on Thursday, citing inflation. ", 6)
	if err := os.WriteFile(in, []byte(`{"id":"a","text":"`+text+`"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	afile := filepath.Join(dir, "afile")
	if err := os.WriteFile(afile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		o    dedup.Options
		want string
		code int
	}{
		{"unknown text field", dedup.Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), Fields: dedup.Fields{Text: "body"}},
			in + `: its one record has no field "body" (the text); fields seen: "id", "text"` + "\n" +
				"--text-col NAME reads the text from the field or column NAME", 1},
		{"output a file", dedup.Options{Inputs: []string{in}, Out: afile}, afile + ": is not a directory", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stderr, err := stderrOf(t, func() error { return run(context.Background(), command{Options: tc.o, Quiet: true}) })
			if err == nil || err.Error() != tc.want || stderr != "" {
				t.Errorf("run: %v, stderr %d bytes:\n%s\nwant the error %q and nothing on stderr", err, len(stderr), stderr, tc.want)
			}
			if code := exitCode(err); code != tc.code {
				t.Errorf("exit code %d, want %d", code, tc.code)
			}
		})
	}
}

// TestFailedRunKeepsEarlierResults runs into the directory of an earlier
// run with shards an input cut short, which fails the run, and wants the
// earlier run's files as they were: they were removed before the run
// began, so that a run that failed left neither the old results nor new
// ones. A run that succeeds then removes them.
func TestFailedRunKeepsEarlierResults(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", t.TempDir())
	text := strings.Repeat("The central bank left its rate unchanged on Thursday, citing inflation. ", 6)
	good, cut := filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "cut.jsonl.gz")
	var recs, zipped bytes.Buffer
	for i := range 200 {
		fmt.Fprintf(&recs, `{"id":"%d","text":"%s %d"}`+"\n", i, text, i)
	}
	zw := gzip.NewWriter(&zipped)
	if _, err := zw.Write(recs.Bytes()); err != nil || zw.Close() != nil {
		t.Fatal("gzip failed")
	}
	out := filepath.Join(dir, "out")
	earlier := []string{"kept-00000-of-00002.jsonl", "kept-00001-of-00002.jsonl", "pairs-00000-of-00002.jsonl",
		"pairs-00001-of-00002.jsonl", "stats.json"}
	for name, b := range map[string][]byte{good: recs.Bytes(), cut: zipped.Bytes()[:zipped.Len()/2]} {
		if err := os.WriteFile(name, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range earlier {
		if err := os.WriteFile(filepath.Join(out, name), []byte("earlier\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := run(context.Background(), command{Options: dedup.Options{Inputs: []string{good, cut}, Out: out}}); err == nil {
		t.Fatal("a run of an input cut short succeeded")
	}
	for _, name := range earlier {
		if b, err := os.ReadFile(filepath.Join(out, name)); err != nil || string(b) != "earlier\n" {
			t.Errorf("after a failed run, %s = %q, %v; want the earlier run's", name, b, err)
		}
	}
	if err := run(context.Background(), command{Options: dedup.Options{Inputs: []string{good}, Out: out}}); err != nil {
		t.Fatal(err)
	}
	left, err := filepath.Glob(filepath.Join(out, "*-of-*"))
	if err != nil || len(left) > 0 {
		t.Errorf("after a run that succeeded, the earlier run's shards %v are left (%v)", left, err)
	}
}

// TestSecondRunIntoOneDirectoryRefused is the regression test of two runs
// into one output directory: the one that ended first took the other's
// stage for a killed run's and removed its files, and the other failed at
// its end ("the job wrote no pairs.jsonl into out/.neardup-beam-new-...").
// Now a run holds the directory's lock, neardup dedup's, for its life: a
// second run, of neardup-beam or neardup dedup, fails at once naming the
// directory, exit 1, leaving the first's stage; a stage no run holds is a
// killed run's, and the next run that succeeds removes it.
func TestSecondRunIntoOneDirectoryRefused(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", t.TempDir())
	in, out := filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "out")
	text := strings.Repeat("The central bank left its rate unchanged on Thursday, citing inflation. ", 6)
	if err := os.WriteFile(in, []byte(`{"id":"a","text":"`+text+`"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := command{Options: dedup.Options{Inputs: []string{in}, Out: out}, Quiet: true}
	busy := fmt.Sprintf("%s: another neardup run (process %d) is writing its results there", out, os.Getpid())

	set, err := output.Create(out) // a neardup dedup run
	if err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), c); err == nil || !strings.HasPrefix(err.Error(), busy) || exitCode(err) != 1 {
		t.Errorf("run beside neardup dedup's: %v, exit code %d; want %q, exit code 1", err, exitCode(err), busy)
	}
	set.Abort()

	release, err := dedup.Lock(out) // a neardup-beam run, its job writing its stage
	if err != nil {
		t.Fatal(err)
	}
	staged := filepath.Join(dedup.NewStage(out), "pairs.jsonl")
	if err := os.MkdirAll(filepath.Dir(staged), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(staged, []byte("first run\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), c); err == nil || !strings.HasPrefix(err.Error(), busy) || exitCode(err) != 1 {
		t.Errorf("second run: %v, exit code %d; want %q, exit code 1", err, exitCode(err), busy)
	}
	if b, err := os.ReadFile(staged); err != nil || string(b) != "first run\n" {
		t.Errorf("the first run's staged file after the second run: %q, %v; want it as written", b, err)
	}
	if _, err := os.Stat(filepath.Join(out, "stats.json")); !os.IsNotExist(err) {
		t.Errorf("the second run wrote stats.json (%v), want nothing written", err)
	}

	release() // the first run killed: its stage is no live run's
	if err := run(context.Background(), c); err != nil {
		t.Fatalf("run after the first ended: %v", err)
	}
	if _, err := os.Stat(filepath.Dir(staged)); !os.IsNotExist(err) {
		t.Errorf("the stage of a run killed is left (%v), want it removed", err)
	}
}

// TestStoppedBySignal sends the process SIGTERM while a run is set to
// start and wants the run stopped, its temporary directory removed, and
// exit code 143, as neardup's batch commands exit; SIGTERM ended the
// process at once, leaving the run's temporary directory, and SIGINT
// exited 1 saying "context canceled".
func TestStoppedBySignal(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	ctx, stopped := onStop(context.Background())
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-ctx.Done()
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(in, []byte(`{"id":"a","text":"one story"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := run(ctx, command{Options: dedup.Options{Inputs: []string{in}, Out: filepath.Join(dir, "out")}})
	if err == nil {
		t.Fatal("run after SIGTERM succeeded")
	}
	if sig := stopped(); sig != syscall.SIGTERM {
		t.Fatalf("stopped() = %v, want SIGTERM", sig)
	}
	if code := exitCode(stopError{sig: stopped()}); code != 143 {
		t.Errorf("exit code %d, want 143", code)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left in the temporary directory: %v", left)
	}
}

// TestWarnsOfArchiveMembersNotRead runs on a .tar.gz holding a JSON Lines
// file and a CSV file, with -q, and wants a warning on stderr that counts
// the member not read: the pipeline read the CSV file's lines as
// malformed JSON lines, and said nothing.
func TestWarnsOfArchiveMembersNotRead(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dir := t.TempDir()
	text := strings.Repeat("The central bank left its rate unchanged on Thursday, citing inflation. ", 6)
	var tgz bytes.Buffer
	zw := gzip.NewWriter(&tgz)
	tw := tar.NewWriter(zw)
	for _, m := range []struct{ name, body string }{
		{"news/a.jsonl", `{"id":"a","text":"` + text + `"}` + "\n"},
		{"news/b.csv", "id,text\nb," + text + "\n"},
	} {
		if err := tw.WriteHeader(&tar.Header{Name: m.name, Mode: 0o644, Size: int64(len(m.body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(m.body)); err != nil {
			t.Fatal(err)
		}
	}
	in := filepath.Join(dir, "news.tar.gz")
	if err := errors.Join(tw.Close(), zw.Close(), os.WriteFile(in, tgz.Bytes(), 0o644)); err != nil {
		t.Fatal(err)
	}
	stderr, err := stderrOf(t, func() error {
		return run(context.Background(), command{Options: dedup.Options{Inputs: []string{in}, Out: filepath.Join(dir, "out")}, Quiet: true})
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "warning: files not read: 1, archive members whose names are not of JSON Lines, the one format neardup-beam reads " +
		"(e.g. " + filepath.Join(in, "news/b.csv") + "; stats.json counts them: files_not_read)\n"
	if stderr != want {
		t.Errorf("stderr = %q, want %q", stderr, want)
	}
}

// TestWarnsOfGzipStrayBytes runs on a .jsonl.gz followed by zero padding,
// with -q, and wants the records read and a warning on stderr that names
// the file and its bytes: the pipeline failed ("gzip: invalid header").
func TestWarnsOfGzipStrayBytes(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dir := t.TempDir()
	text := strings.Repeat("The central bank left its rate unchanged on Thursday, citing inflation. ", 6)
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	fmt.Fprintf(zw, `{"id":"a","text":"%s"}`+"\n"+`{"id":"b","text":"%s"}`+"\n", text, text)
	zw.Close()
	b.Write(make([]byte, 512))
	in := filepath.Join(dir, "news.jsonl.gz")
	if err := os.WriteFile(in, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr, err := stderrOf(t, func() error {
		return run(context.Background(), command{Options: dedup.Options{Inputs: []string{in}, Out: filepath.Join(dir, "out")}, Quiet: true})
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "warning: gzip files with stray bytes after their last member: 1 (e.g. " + in + ", 512 bytes); every record of " +
		"their whole members is read, and the bytes after them, which start no member (padding, junk), are ignored, " +
		"as gzip -d ignores them\n"
	if stderr != want {
		t.Errorf("stderr = %q, want %q", stderr, want)
	}
}

// stderrOf returns what f writes on stderr, and f's error.
func stderrOf(t *testing.T, f func() error) (string, error) {
	t.Helper()
	level := beamlog.LogLevel
	t.Cleanup(func() { beamlog.LogLevel = level })
	w, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = w
	err = f()
	os.Stderr = saved
	b, rerr := os.ReadFile(w.Name())
	if rerr != nil {
		t.Fatal(rerr)
	}
	return string(b), err
}

// TestFailedWriteKeepsEarlierResults runs into a directory holding an
// earlier run's results, on a file system where writing pairs.jsonl fails,
// and wants the earlier results as they were and nothing else: each
// writer renamed its file into -o when whole, so that a run that failed
// while writing left the new clusters, kept and removed files and
// stats.json beside the earlier pairs.jsonl. Then a run that succeeds,
// with shards, replaces them and removes the stage a run killed outright
// left, and merge joins its shards.
func TestFailedWriteKeepsEarlierResults(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	in := filepath.Join(t.TempDir(), "in.jsonl")
	text := strings.Repeat("The central bank left its rate unchanged on Thursday, citing inflation. ", 6)
	recs := `{"id":"a","text":"` + text + `"}` + "\n" + `{"id":"b","text":"` + text + `Markets rose."}` + "\n"
	if err := os.WriteFile(in, []byte(recs), 0o644); err != nil {
		t.Fatal(err)
	}
	fs := newFailFS(t)
	earlier := map[string]string{}
	for _, name := range []string{"pairs.jsonl", "clusters.jsonl", "kept.jsonl", "removed.jsonl", "rejects.jsonl", "stats.json"} {
		earlier["failfs://out/"+name] = "earlier\n"
	}
	fs.set(earlier, "pairs.jsonl")
	o := dedup.Options{Inputs: []string{in}, Out: "failfs://out"}
	if err := run(context.Background(), command{Options: o, Quiet: true}); err == nil {
		t.Fatal("a run whose pairs.jsonl could not be written succeeded")
	}
	// A writer still at work when the job failed may write into the
	// stage after it was removed: the next run that succeeds removes it.
	now := fs.all()
	maps.DeleteFunc(now, func(p, _ string) bool { return strings.HasPrefix(p, "failfs://out/.neardup-beam-new-") })
	if diff := cmp.Diff(earlier, now); diff != "" {
		t.Errorf("after a run that failed while writing (-earlier run's +now):\n%s", diff)
	}

	earlier["failfs://out/.neardup-beam-new-KILLED/kept.jsonl.tmp"] = "a run killed outright\n"
	fs.set(earlier, "")
	o.Shards = 2
	if err := run(context.Background(), command{Options: o, Quiet: true}); err != nil {
		t.Fatal(err)
	}
	var names []string
	for p := range fs.all() {
		names = append(names, strings.TrimPrefix(p, "failfs://out/"))
	}
	slices.Sort(names)
	want := []string{"clusters-00000-of-00002.jsonl", "clusters-00001-of-00002.jsonl", "kept-00000-of-00002.jsonl",
		"kept-00001-of-00002.jsonl", "pairs-00000-of-00002.jsonl", "pairs-00001-of-00002.jsonl", "rejects-00000-of-00002.jsonl",
		"rejects-00001-of-00002.jsonl", "removed-00000-of-00002.jsonl", "removed-00001-of-00002.jsonl", "stats.json"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("after a run with shards that succeeded (-want +got):\n%s", diff)
	}
	if _, err := dedup.Merge(context.Background(), "failfs://out"); err != nil {
		t.Fatal(err)
	}
	if pairs := fs.all()["failfs://out/pairs.jsonl"]; !strings.Contains(pairs, `"a":"a","b":"b"`) {
		t.Errorf("merged pairs.jsonl = %q, want the pair a, b", pairs)
	}
}

// failFS is a file system in memory (failfs://) whose writes of the files
// of one name fail, the others written: a job that fails while writing.
type failFS struct {
	mu    sync.Mutex
	files map[string]string
	fail  string // the name of the file whose writes fail (or of its temporary file); "" for none
}

var (
	theFailFS    = &failFS{}
	registerFail sync.Once
)

func newFailFS(t *testing.T) *failFS {
	registerFail.Do(func() {
		filesystem.Register("failfs", func(context.Context) filesystem.Interface { return theFailFS })
	})
	t.Cleanup(func() { theFailFS.set(nil, "") })
	return theFailFS
}

// set replaces the files and the name whose writes fail.
func (f *failFS) set(files map[string]string, fail string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.files, f.fail = maps.Clone(files), fail
	if f.files == nil {
		f.files = map[string]string{}
	}
}

// all returns the files and their contents.
func (f *failFS) all() map[string]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return maps.Clone(f.files)
}

func (f *failFS) List(_ context.Context, glob string) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var ps []string
	for p := range f.files {
		if ok, err := path.Match(glob, p); err != nil {
			return nil, err
		} else if ok {
			ps = append(ps, p)
		}
	}
	slices.Sort(ps)
	return ps, nil
}

func (f *failFS) OpenRead(_ context.Context, p string) (io.ReadCloser, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b, ok := f.files[p]
	if !ok {
		return nil, os.ErrNotExist
	}
	return io.NopCloser(strings.NewReader(b)), nil
}

func (f *failFS) OpenWrite(_ context.Context, p string) (io.WriteCloser, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != "" && strings.TrimSuffix(path.Base(p), ".tmp") == f.fail {
		return nil, fmt.Errorf("%s: %w", p, os.ErrPermission)
	}
	return &failFSWriter{fs: f, path: p}, nil
}

func (f *failFS) Size(_ context.Context, p string) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b, ok := f.files[p]
	if !ok {
		return 0, os.ErrNotExist
	}
	return int64(len(b)), nil
}

func (f *failFS) Remove(_ context.Context, p string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.files, p)
	return nil
}

func (f *failFS) Rename(_ context.Context, from, to string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	b, ok := f.files[from]
	if !ok {
		return os.ErrNotExist
	}
	f.files[to] = b
	delete(f.files, from)
	return nil
}

func (f *failFS) Close() error { return nil }

// failFSWriter writes a file of a failFS when closed.
type failFSWriter struct {
	fs   *failFS
	path string
	buf  bytes.Buffer
}

func (w *failFSWriter) Write(p []byte) (int, error) { return w.buf.Write(p) }

func (w *failFSWriter) Close() error {
	w.fs.mu.Lock()
	defer w.fs.mu.Unlock()
	w.fs.files[w.path] = w.buf.String()
	return nil
}

// TestNoDocumentsFails runs on inputs that hold no document, into a
// directory holding an earlier run's results and into one not there, and
// wants the batch's error (but the fields it saw, which the pipeline does
// not gather), exit code 1, and the directory as it was: the run
// succeeded, writing empty results over the earlier ones, where neardup
// dedup fails and leaves -o alone.
func TestNoDocumentsFails(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dir := t.TempDir()
	for _, tc := range []struct{ name, recs string }{
		{"empty file", ""},
		{"every record skipped", `{"id":"a","text":""}` + "\n" + `{"id": "b", "text": "no end` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := filepath.Join(t.TempDir(), "in.jsonl")
			if err := os.WriteFile(in, []byte(tc.recs), 0o644); err != nil {
				t.Fatal(err)
			}
			_, berr := job.Run(context.Background(), job.Options{Inputs: []string{in}, Out: filepath.Join(dir, "batch"), Link: cluster.Any, MaxWarnings: -1})
			if berr == nil {
				t.Fatal("the batch succeeded")
			}
			want, _, _ := strings.Cut(berr.Error(), "; fields seen")
			out := filepath.Join(t.TempDir(), "out")
			if err := os.MkdirAll(out, 0o755); err != nil {
				t.Fatal(err)
			}
			earlier := filepath.Join(out, "stats.json")
			if err := os.WriteFile(earlier, []byte("earlier\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			missing := filepath.Join(t.TempDir(), "missing")
			for _, o := range []string{out, missing} {
				err := run(context.Background(), command{Options: dedup.Options{Inputs: []string{in}, Out: o}, Quiet: true})
				if err == nil || err.Error() != want || exitCode(err) != 1 {
					t.Errorf("-o %s: %v, exit code %d; want %q, exit code 1", o, err, exitCode(err), want)
				}
			}
			if entries, err := os.ReadDir(out); err != nil || len(entries) != 1 {
				t.Errorf("-o %s holds %v (%v), want the earlier stats.json alone", out, entries, err)
			}
			if b, err := os.ReadFile(earlier); err != nil || string(b) != "earlier\n" {
				t.Errorf("the earlier stats.json = %q, %v", b, err)
			}
			if _, err := os.Stat(missing); !os.IsNotExist(err) {
				t.Errorf("-o %s, not there before the run: %v, want it not there", missing, err)
			}
		})
	}
}

// TestHelpPutsRunOptionsFirst wants `neardup-beam dedup --help` to list the
// options of a run before the flags of the Beam runners: flag.PrintDefaults
// mixed the two in one alphabetical list of about a hundred, -o among
// Dataflow's flags.
func TestHelpPutsRunOptionsFirst(t *testing.T) {
	fs := flag.NewFlagSet("neardup-beam", flag.ContinueOnError)
	flag.CommandLine.VisitAll(func(f *flag.Flag) { fs.Var(f.Value, f.Name, f.Usage) }) // Beam's
	var b strings.Builder
	fs.SetOutput(&b)
	if _, err := parse(fs, []string{"--help"}); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("parse(--help) = %v, want flag.ErrHelp", err)
	}
	help := b.String()
	runners := strings.Index(help, "Flags of the Beam runners")
	for _, name := range []string{"\n  -o string", "\n  -method string", "\n  -threshold value", "\n  -shards int"} {
		if i := strings.Index(help, name); i < 0 || i > runners {
			t.Errorf("%q at %d, want it before the runners' flags (at %d)", name, i, runners)
		}
	}
	if i := strings.Index(help, "\n  -runner string"); i < runners {
		t.Errorf("-runner at %d, want it among the runners' flags (from %d)", i, runners)
	}
}

// TestMistakeNotDrownedInUsage wants a mistake in the command line said
// with one line of hint after it: the flag package printed every flag of
// the Beam runners after it, about two hundred lines. The error carries
// both lines, which main prints, each after neardup-beam's name.
func TestMistakeNotDrownedInUsage(t *testing.T) {
	fs := flag.NewFlagSet("neardup-beam", flag.ContinueOnError)
	flag.CommandLine.VisitAll(func(f *flag.Flag) { fs.Var(f.Value, f.Name, f.Usage) }) // Beam's
	var b strings.Builder
	fs.SetOutput(&b)
	_, err := parse(fs, []string{"in.jsonl", "-o", "out", "--window", "2m"})
	if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), "-window") {
		t.Fatalf("parse(--window 2m) = %v, want a usage error naming -window", err)
	}
	if lines := strings.Split(err.Error(), "\n"); len(lines) != 2 || !strings.Contains(lines[1], "neardup-beam dedup --help") || b.Len() > 0 {
		t.Errorf("parse(--window 2m) = %q, printing %q; want the mistake and a hint to --help, printed once, by main", err, b.String())
	}
}

// merge holds the output directory's lock, as a run does: beside a run
// writing there it fails at once, its shards left as they are; it joined
// them, or the shards of two runs. Then it merges.
func TestMergeHoldsTheLock(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	shards := []string{filepath.Join(dir, "pairs-00000-of-00002.jsonl"), filepath.Join(dir, "pairs-00001-of-00002.jsonl")}
	for _, p := range shards {
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	release, err := dedup.Lock(dir) // a run, moving its files in
	if err != nil {
		t.Fatal(err)
	}
	busy := fmt.Sprintf("%s: another neardup run (process %d) is writing its results there", dir, os.Getpid())
	if _, err := merge(context.Background(), dir); err == nil || !strings.HasPrefix(err.Error(), busy) {
		t.Errorf("merge beside a run: %v, want %q", err, busy)
	}
	for _, p := range shards {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("a shard after the merge refused: %v", err)
		}
	}
	release()
	if files, err := merge(context.Background(), dir); err != nil || len(files) != 1 {
		t.Errorf("merge: %v, %v; want pairs.jsonl", files, err)
	}
}

// TestCommandMistakes is the regression test of a command line naming no
// run: neardup-beam alone, neardup-beam bogus and neardup-beam merge
// without its directory printed 130 lines of usage whose options were the
// runners' flags alone, and merge did not say its directory was missing.
// Each now says what is wrong, and points to --help on the line after.
func TestCommandMistakes(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		flagErr error
		want    string
	}{
		{"no command", nil, nil, "no command: give dedup INPUT... -o DIR (a run) or merge DIR"},
		{"not a command", []string{"bogus"}, nil, "bogus: not a command: dedup (a run) or merge"},
		{"merge without its directory", []string{"merge"}, nil, "merge: no directory: give the output directory whose shards to join (neardup-beam merge DIR)"},
		{"merge of two", []string{"merge", "a", "b"}, nil, "merge: one directory, not 2 arguments (a b)"},
		{"unknown flag", []string{"--bogus"}, errors.New("flag provided but not defined: -bogus"), "unknown flag --bogus"},
		// Regression: a flag before the command was "--runner=direct: not
		// a command", or a run's own flag before dedup "unknown flag
		// --quiet".
		{"a Beam flag before the command", []string{"--runner=direct", "merge", "out"}, nil,
			"--runner=direct comes before the command: flags follow it (neardup-beam merge --runner=direct ...)"},
		{"a run's flag before dedup", []string{"--quiet", "dedup", "in.jsonl"}, errors.New("flag provided but not defined: -quiet"),
			"--quiet comes before the command: flags follow it (neardup-beam dedup --quiet ...)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want + "\nRun neardup-beam --help for its commands."
			if got := commandMistake(tt.args, tt.flagErr); got != want {
				t.Errorf("commandMistake(%q) = %q, want %q", tt.args, got, want)
			}
		})
	}
}

// TestFlagMistakes is the regression test of a flag parse refused as the
// flag package says it, without neardup-beam's name: --bands with --method
// simhash was "flag provided but not defined: -bands", where neardup dedup
// says whose option it is.
func TestFlagMistakes(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"option of the other method", []string{"in.jsonl", "--bands", "10x2", "--method", "simhash", "-o", out},
			"--bands is an option of minhash, not of simhash"},
		{"option of the other method, default minhash", []string{"in.jsonl", "--distance", "3", "-o", out},
			"--distance is an option of simhash, not of minhash"},
		{"unknown flag", []string{"in.jsonl", "--bogus", "-o", out},
			"unknown flag --bogus\nRun neardup-beam dedup --help for the options of a run."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := flag.NewFlagSet("neardup-beam", flag.ContinueOnError)
			var printed strings.Builder
			fs.SetOutput(&printed)
			_, err := parse(fs, tt.args)
			if err == nil || err.Error() != tt.want || exitCode(err) != 2 {
				t.Fatalf("parse(%q) = %v, want %q, exit 2", tt.args, err, tt.want)
			}
			if printed.Len() > 0 {
				t.Errorf("parse(%q) printed %q, want the error alone", tt.args, printed.String())
			}
		})
	}
}

// TestCrossCompileFailureNamesWorkerBinary wants a runner's failure to
// compile the workers' binary, which a built neardup-beam run outside the
// module's source meets on every portable runner ("go.mod file not
// found"), to name --worker_binary, the flag that avoids it.
func TestCrossCompileFailureNamesWorkerBinary(t *testing.T) {
	err := jobError{errors.New("failed to cross-compile /src/beam/cmd/neardup-beam/, see https://beam.apache.org/documentation/sdks/go-cross-compilation/ for details: exit status 1\ngo: go.mod file not found")}
	if got := err.Error(); !strings.Contains(got, "\n--worker_binary PATH") {
		t.Errorf("jobError = %q; want a hint naming --worker_binary on a line of its own", got)
	}
	if got := (jobError{errors.New("no job service endpoint specified")}).Error(); strings.Contains(got, "worker_binary") {
		t.Errorf("jobError = %q; want no --worker_binary hint for another failure", got)
	}
}

// TestSummaryCounts wants the line a run ends with to count its input
// files in words ("1 input file", not "1 input files") and to give what
// stats.json counts.
func TestSummaryCounts(t *testing.T) {
	st := engine.Stats{Documents: 100, Clusters: 1, Kept: 98}
	st.Pairs = map[core.Label]int{core.Duplicate: 2, core.Similar: 1}
	if got, want := summary(1, "p", st), "1 input file → p: 100 documents, 3 pairs, 1 cluster, 98 kept"; got != want {
		t.Errorf("summary = %q, want %q", got, want)
	}
}

// TestMergeMissingDirectory wants merge of a directory not there to say
// so, not that it "holds no shards" (and to leave no lock file behind).
func TestMergeMissingDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nodir")
	_, err := merge(context.Background(), dir)
	if err == nil || !strings.Contains(err.Error(), "no such file or directory") {
		t.Errorf("merge(%s) = %v; want it to say there is no such directory", dir, err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), ".nodir.lock")); err == nil {
		t.Errorf("merge(%s) left a lock file beside it", dir)
	}
}

// TestRepeatedIDFailsTheJob wants a run whose inputs hold one id twice to
// fail, as neardup dedup refuses it, naming the id and both records, and
// to leave no results: it wrote a pair of the id with itself, a cluster
// listing it twice, and kept.jsonl holding two documents of it.
func TestRepeatedIDFailsTheJob(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dir := t.TempDir()
	in := filepath.Join(dir, "dupid.jsonl")
	text := strings.Repeat("The central bank left its rate unchanged on Thursday, citing inflation. ", 6)
	other := strings.Repeat("The harvest was late this year, and the price of wheat rose in the spring. ", 6)
	lines := `{"id":"d1","text":"` + text + `"}` + "\n" + `{"id":"d2","text":"` + other + `"}` + "\n" +
		`{"id":"d1","text":"` + text + `"}` + "\n"
	if err := os.WriteFile(in, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	_, err := stderrOf(t, func() error {
		return run(context.Background(), command{Options: dedup.Options{Inputs: []string{in}, Out: out}, Quiet: true})
	})
	want := in + `, record 3: id "d1" repeats the id of ` + in + ", record 1"
	if err == nil || !strings.HasPrefix(err.Error(), want) || exitCode(err) != 1 {
		t.Errorf("run: %v; want an error starting %q, exit 1", err, want)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("run left %s", out)
	}
}
