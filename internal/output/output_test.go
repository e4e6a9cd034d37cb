package output

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
)

// TestMain lets the test binary stand in for a run that writes result sets
// over and over (see TestKilledDuringSwap).
func TestMain(m *testing.M) {
	if dir := os.Getenv("NEARDUP_OUTPUT_CHILD"); dir != "" {
		extras := strings.Split(os.Getenv("NEARDUP_OUTPUT_EXTRAS"), ",")
		start, _ := strconv.Atoi(os.Getenv("NEARDUP_OUTPUT_START"))
		for gen := start; ; gen++ {
			if err := writeGeneration(dir, extras, gen); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			fmt.Printf("generation %d\n", gen)
		}
	}
	os.Exit(m.Run())
}

// long reports whether the long tests run: CI sets NEARDUP_LONG.
func long() bool { return os.Getenv("NEARDUP_LONG") != "" }

// writeGeneration writes a whole set whose every file says gen, with a
// last line that shows the file complete.
func writeGeneration(dir string, extras []string, gen int) error {
	s, err := Create(dir, extras...)
	if err != nil {
		return err
	}
	defer s.Abort()
	for i := range 50 {
		p := core.Pair{A: fmt.Sprintf("g%d-%d", gen, i), B: "end", Label: core.Duplicate}
		if err := s.Pair(&p); err != nil {
			return err
		}
	}
	if err := s.Cluster(&core.Cluster{ID: int64(gen), Members: []string{"end"}}); err != nil {
		return err
	}
	if err := s.Kept(map[string]int{"gen": gen}); err != nil {
		return err
	}
	if err := s.Stats(map[string]int{"gen": gen}); err != nil {
		return err
	}
	for _, x := range extras {
		err := s.Extra(x, func(w *bufio.Writer) error {
			_, err := fmt.Fprintf(w, "generation %d\n%s\nend %d\n", gen, strings.Repeat("x", 4096), gen)
			return err
		})
		if err != nil {
			return err
		}
	}
	return s.Commit()
}

// generation reads the set in dir and returns its generation, failing the
// test when any file is missing, incomplete or of another generation.
func generation(t *testing.T, dir string, extras []string) int {
	t.Helper()
	st, err := os.ReadFile(filepath.Join(dir, StatsFile))
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ Gen int }
	if err := json.Unmarshal(st, &v); err != nil {
		t.Fatalf("stats.json: %v: %q", err, st)
	}
	gen := v.Gen
	pairs, err := os.ReadFile(filepath.Join(dir, PairsFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(pairs)), "\n")
	if len(lines) != 50 || !strings.Contains(lines[0], fmt.Sprintf(`"g%d-0"`, gen)) || !strings.Contains(lines[49], fmt.Sprintf(`"g%d-49"`, gen)) {
		t.Fatalf("pairs.jsonl is not that of generation %d: %d lines, first %q", gen, len(lines), lines[0])
	}
	for name, want := range map[string]string{ClustersFile: fmt.Sprintf(`{"cluster":%d,`, gen), KeptFile: fmt.Sprintf(`{"gen":%d}`, gen)} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !strings.Contains(string(b), want) {
			t.Fatalf("%s: %v, %q, want generation %d", name, err, b, gen)
		}
	}
	for _, x := range extras {
		b, err := os.ReadFile(x)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(b), fmt.Sprintf("generation %d\n", gen)) || !strings.HasSuffix(string(b), fmt.Sprintf("end %d\n", gen)) {
			t.Fatalf("%s is not that of generation %d: %.20q…", x, gen, b)
		}
	}
	return gen
}

// siblings lists the entries beside dir that a set makes: its lock, new
// and replaced sets.
func siblings(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "."+filepath.Base(dir)+".") || strings.HasSuffix(e.Name(), ".tmp") {
			out = append(out, e.Name())
		}
	}
	return out
}

func TestCommitReplacesTheWholeSet(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	inside, outside := filepath.Join(dir, "report.html"), filepath.Join(root, "matrix.json")
	if err := writeGeneration(dir, []string{inside, outside}, 1); err != nil {
		t.Fatal(err)
	}
	if g := generation(t, dir, []string{inside, outside}); g != 1 {
		t.Fatalf("generation %d, want 1", g)
	}
	// The next set has no report: the old one goes with the old set.
	if err := writeGeneration(dir, []string{outside}, 2); err != nil {
		t.Fatal(err)
	}
	if g := generation(t, dir, []string{outside}); g != 2 {
		t.Fatalf("generation %d, want 2", g)
	}
	if _, err := os.Stat(inside); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the previous set's report is still there: %v", err)
	}
	if s := siblings(t, dir); len(s) > 0 {
		t.Errorf("left beside the output: %v", s)
	}
	m, err := readManifest(dir)
	if err != nil || len(m.Pending) > 0 || !slices.Equal(m.Files, files) {
		t.Errorf("manifest %+v, %v", m, err)
	}
}

// TestOmitRemovesAnEarlierExtra: an extra declared but omitted (a matrix
// too large to write) leaves no file of an earlier set at its path, so that
// none is taken for the new results'; a file at such a path that no set
// wrote is left as it is, and so is an extra inside the output directory,
// which goes with the old set.
func TestOmitRemovesAnEarlierExtra(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	ours, theirs := filepath.Join(root, "matrix.json"), filepath.Join(root, "notes.json")
	if err := writeGeneration(dir, []string{ours}, 1); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(theirs, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Create(dir, ours, theirs)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Abort()
	for _, p := range []string{ours, theirs} {
		if err := s.Omit(p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(ours); err != nil {
		t.Errorf("the earlier set's matrix was removed before the new set was in place: %v", err)
	}
	if err := errors.Join(s.Stats(map[string]int{"gen": 2}), s.Commit()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ours); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the earlier set's matrix is still there: %v", err)
	}
	if b, err := os.ReadFile(theirs); err != nil || string(b) != "mine" {
		t.Errorf("a file no set wrote: %q, %v; want it left", b, err)
	}
	if err := s.Omit(filepath.Join(root, "other.json")); err == nil {
		t.Error("Omit of a path not declared to Create: no error")
	}
}

// Regression: the output directory was created private (0700, as
// os.MkdirTemp makes it), so that no one else could read the files in it,
// which are made 0644 for that.
func TestOutputDirectoryReadable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := writeGeneration(dir, nil, 1); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Mode().Perm(); got != 0o755 {
		t.Errorf("output directory mode %v, want %v", got, os.FileMode(0o755))
	}
}

func TestAbortKeepsThePreviousSet(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	extras := []string{filepath.Join(dir, "report.html"), filepath.Join(root, "titles.csv")}
	if err := writeGeneration(dir, extras, 1); err != nil {
		t.Fatal(err)
	}
	s, err := Create(dir, extras...)
	if err != nil {
		t.Fatal(err)
	}
	s.Pair(&core.Pair{A: "a", B: "b"})
	if err := s.Extra(extras[1], func(w *bufio.Writer) error { w.WriteString("half"); return nil }); err != nil {
		t.Fatal(err)
	}
	failed := errors.New("the report failed")
	if err := s.Extra(extras[0], func(*bufio.Writer) error { return failed }); !errors.Is(err, failed) {
		t.Fatalf("Extra: %v", err)
	}
	s.Abort()
	if g := generation(t, dir, extras); g != 1 {
		t.Errorf("generation %d after an aborted run, want 1", g)
	}
	if s := siblings(t, dir); len(s) > 0 {
		t.Errorf("left beside the output: %v", s)
	}
}

func TestSecondRunIsRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	s, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Create(dir)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("another neardup run (process %d) is writing its results there", os.Getpid())) {
		t.Fatalf("second Create: %v", err)
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	s2, err := Create(dir)
	if err != nil {
		t.Fatalf("Create after the first run ended: %v", err)
	}
	s2.Abort()
	if s := siblings(t, dir); len(s) > 0 {
		t.Errorf("left beside the output: %v", s)
	}
}

// TestLockDirExcludesCreate wants LockDir to take the lock Create takes:
// while one holds it, the other fails at once naming the directory and
// that another run writes it, and once released the directory is free.
func TestLockDirExcludesCreate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	busy := fmt.Sprintf("%s: another neardup run (process %d) is writing its results there", dir, os.Getpid())
	lk, err := LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Create(dir); err == nil || !strings.HasPrefix(err.Error(), busy) {
		t.Errorf("Create while LockDir holds the lock: %v, want %q", err, busy)
	}
	if _, err := LockDir(dir); err == nil || !strings.HasPrefix(err.Error(), busy) {
		t.Errorf("second LockDir: %v, want %q", err, busy)
	}
	lk.Release()
	lk.Release()
	s, err := Create(dir)
	if err != nil {
		t.Fatalf("Create after Release: %v", err)
	}
	if _, err := LockDir(dir); err == nil || !strings.HasPrefix(err.Error(), busy) {
		t.Errorf("LockDir while Create holds the lock: %v, want %q", err, busy)
	}
	s.Abort()
	if s := siblings(t, dir); len(s) > 0 {
		t.Errorf("left beside the output: %v", s)
	}
}

// A lock file left by a run that died holds no lock: the next run goes on.
func TestStaleLock(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := os.WriteFile(lockPath(dir), []byte("999999999\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeGeneration(dir, nil, 1); err != nil {
		t.Fatalf("with a stale lock file: %v", err)
	}
}

// TestCreateChecksBeforeWork: every extra path is checked before any
// work, and a path that names what it must not (a result file, a
// directory, another extra) is a *PathError, a mistake of whoever chose
// it, where one that cannot be written is not. Regression: every refusal
// was a plain error, and neardup dedup --matrix out/pairs.jsonl exited 1
// where a mistake in the command line exits 2. A missing directory is
// named as such, not by the temporary file that could not be made.
func TestCreateChecksBeforeWork(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	if err := errors.Join(os.MkdirAll(filepath.Join(root, "adir"), 0o755), os.WriteFile(filepath.Join(root, "afile"), nil, 0o644)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		extras  []string
		want    string
		mistake bool // a *PathError: the path names what it must not
	}{
		{"missing directory", []string{filepath.Join(root, "nope", "report.html")},
			"report.html: cannot be written: no directory " + filepath.Join(root, "nope"), false},
		{"a file for a directory", []string{filepath.Join(root, "afile", "report.html")},
			"report.html: cannot be written: " + filepath.Join(root, "afile") + " is not a directory", false},
		{"a directory", []string{filepath.Join(root, "adir")}, "is a directory", true},
		{"a result file", []string{filepath.Join(dir, "pairs.jsonl")}, "is one of the result files", true},
		{"twice", []string{filepath.Join(root, "r.html"), filepath.Join(root, "r.html")}, "given for two outputs", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Create(dir, tc.extras...)
			if err == nil {
				s.Abort()
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Create: %v, want %q", err, tc.want)
			}
			if mistake := errors.As(err, new(*PathError)); mistake != tc.mistake {
				t.Errorf("Create: %v is a *PathError: %v, want %v", err, mistake, tc.mistake)
			}
			if s := siblings(t, dir); len(s) > 0 {
				t.Errorf("left beside the output: %v", s)
			}
		})
	}
}

// TestOutputDirThatIsAFile: an output directory that is a regular file or
// a device is a *PathError, a mistake of whoever chose it.
// Regression: it was a plain error, and neardup dedup -o /dev/null exited
// 1 where every other mistake in the command line exits 2.
func TestOutputDirThatIsAFile(t *testing.T) {
	root := t.TempDir()
	afile := filepath.Join(root, "afile")
	if err := os.WriteFile(afile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	paths := []string{afile}
	if _, err := os.Stat(os.DevNull); err == nil {
		paths = append(paths, os.DevNull)
	}
	for _, p := range paths {
		s, err := Create(p)
		if err == nil {
			s.Abort()
		}
		if !errors.As(err, new(*PathError)) || err.Error() != p+": is not a directory" {
			t.Errorf("Create(%s): %v, want the *PathError %q", p, err, p+": is not a directory")
		}
	}
}

// TestBeamShardsRefusedAsShards: a directory holding neardup-beam's
// shards is refused, its error saying they are neardup-beam's shards and
// how to join them; it said they were files neardup did not write. A file
// of another's among them is refused as before, the shards left out of
// its list.
func TestBeamShardsRefusedAsShards(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []string
		want  string
	}{
		{"shards", []string{"clusters-00000-of-00002.jsonl", "clusters-00001-of-00002.jsonl", "kept-00000-of-00002.jsonl.gz",
			"kept-00001-of-00002.jsonl.gz", StatsFile},
			"holds neardup-beam's results in shards (clusters-00000-of-00002.jsonl, clusters-00001-of-00002.jsonl, " +
				"kept-00000-of-00002.jsonl.gz and 1 more); join them first (neardup-beam merge OUT), into one file of each, " +
				"which a run replaces, or choose a new or empty directory"},
		{"shards and a file of another's", []string{"pairs-00000-of-00001.jsonl.zst", "notes.txt"},
			"holds files neardup did not write (notes.txt);"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "OUT")
			for _, f := range tc.files {
				if err := errors.Join(os.MkdirAll(dir, 0o755), os.WriteFile(filepath.Join(dir, f), []byte("{}\n"), 0o644)); err != nil {
					t.Fatal(err)
				}
			}
			_, err := Create(dir)
			if want := strings.ReplaceAll(tc.want, "merge OUT", "merge "+dir); err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("Create: %v, want %q", err, want)
			}
			for _, f := range tc.files {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("%s: %v", f, err)
				}
			}
		})
	}
}

// TestBeamLeftoversReplaced: what a stopped neardup-beam run leaves in its
// output directory (a result's and a shard's temporary names, its staging
// folder) is neardup's, and a run replaces it; it was refused as files
// neardup did not write. A .tmp of a name neardup never writes is still
// the user's.
func TestBeamLeftoversReplaced(t *testing.T) {
	write := func(dir string, names ...string) {
		for _, f := range names {
			p := filepath.Join(dir, f)
			if err := errors.Join(os.MkdirAll(filepath.Dir(p), 0o755), os.WriteFile(p, []byte("{}\n"), 0o644)); err != nil {
				t.Fatal(err)
			}
		}
	}
	dir := filepath.Join(t.TempDir(), "out")
	write(dir, PairsFile, PairsFile+".tmp", "clusters-00001-of-00002.jsonl.tmp", ".neardup-beam-new-ABCDEFGH/pairs.jsonl")
	if err := writeGeneration(dir, nil, 1); err != nil {
		t.Fatalf("a run over a stopped neardup-beam run's leftovers: %v", err)
	}
	for _, f := range []string{PairsFile + ".tmp", "clusters-00001-of-00002.jsonl.tmp", ".neardup-beam-new-ABCDEFGH"} {
		if _, err := os.Stat(filepath.Join(dir, f)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s stayed: %v", f, err)
		}
	}
	other := filepath.Join(t.TempDir(), "out")
	write(other, PairsFile, "notes.txt.tmp")
	if _, err := Create(other); err == nil || !strings.Contains(err.Error(), "holds files neardup did not write (notes.txt.tmp)") {
		t.Errorf("Create over notes.txt.tmp: %v, want it refused", err)
	}
}

// A directory holding anything neardup did not write is never replaced:
// -o . would otherwise swap away the working directory.
func TestForeignFilesRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Create(dir)
	if err == nil || !strings.Contains(err.Error(), "holds files neardup did not write (notes.txt)") {
		t.Fatalf("Create: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "notes.txt")); err != nil || string(b) != "mine" {
		t.Fatalf("notes.txt: %q, %v", b, err)
	}
	// A set written before manifests existed is replaced.
	old := t.TempDir()
	for _, f := range append(slices.Clone(files), ".pairs.jsonl.123.tmp") {
		os.WriteFile(filepath.Join(old, f), []byte("{}\n"), 0o644)
	}
	if err := writeGeneration(old, nil, 3); err != nil {
		t.Fatalf("over a set without a manifest: %v", err)
	}
	if _, err := os.Stat(filepath.Join(old, ".pairs.jsonl.123.tmp")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an old temporary file stayed: %v", err)
	}
}

// The working directory is never the output, even empty (which a set may
// otherwise replace): the process and its shell would be left in a removed
// directory. An empty path is refused too (it would name the same).
func TestCurrentDirectoryRefused(t *testing.T) {
	wd := t.TempDir()
	t.Chdir(wd)
	for _, dir := range []string{".", "./", wd, ""} {
		s, err := Create(dir)
		if err == nil {
			s.Abort()
			t.Errorf("Create(%q) in %s: no error", dir, wd)
		}
	}
	if got, err := os.Getwd(); err != nil || got != wd {
		t.Errorf("the working directory: %q, %v", got, err)
	}
	if entries, _ := os.ReadDir(wd); len(entries) > 0 {
		t.Errorf("left in the working directory: %v", entries)
	}
}

// Where the system cannot exchange two names, the swap is two renames; a
// run killed between them has the previous set put back by the next.
func TestSwapWithoutExchange(t *testing.T) {
	defer func(e func(a, b string) error) { exchange = e }(exchange)
	exchange = func(a, b string) error { return errNoExchange }
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	for gen := 1; gen <= 2; gen++ {
		if err := writeGeneration(dir, nil, gen); err != nil {
			t.Fatal(err)
		}
	}
	if g := generation(t, dir, nil); g != 2 {
		t.Fatalf("generation %d, want 2", g)
	}
	// Killed between the renames: the old set at .out.old-*, a complete
	// new one at .out.new-*, no out.
	if err := os.Rename(dir, filepath.Join(root, ".out.old-1")); err != nil {
		t.Fatal(err)
	}
	if err := writeGeneration(filepath.Join(root, "elsewhere"), nil, 3); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(root, "elsewhere"), filepath.Join(root, ".out.new-1")); err != nil {
		t.Fatal(err)
	}
	s, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Abort()
	if g := generation(t, dir, nil); g != 2 {
		t.Errorf("generation %d after recovery, want the previous 2", g)
	}
	if s := siblings(t, dir); len(s) > 0 {
		t.Errorf("left beside the output: %v", s)
	}
}

// A run killed after its swap but before its extras outside the directory
// were moved has them moved by the next run.
func TestPendingExtrasFinished(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	report := filepath.Join(root, "report.html")
	if err := writeGeneration(dir, []string{report}, 1); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(root, ".report.html.77.tmp")
	os.WriteFile(tmp, []byte("generation 2\nend 2\n"), 0o644)
	if err := writeManifest(dir, manifest{Files: files, Pending: []pending{{Temp: tmp, Path: report}}}); err != nil {
		t.Fatal(err)
	}
	s, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Abort()
	if b, _ := os.ReadFile(report); string(b) != "generation 2\nend 2\n" {
		t.Errorf("report %q, want the pending one", b)
	}
	if m, _ := readManifest(dir); len(m.Pending) > 0 {
		t.Errorf("still pending: %+v", m.Pending)
	}
}

func TestExcludes(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "in", "out")
	report := filepath.Join(root, "in", "report.html")
	if err := writeGeneration(dir, nil, 1); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	s, err := Create(filepath.Join(root, "link"), report)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Abort()
	for p, want := range map[string]bool{
		dir: true, filepath.Join(dir, KeptFile): true, report: true, filepath.Join(root, "link"): true,
		filepath.Join(root, "in"): false, filepath.Join(root, "in", "docs.jsonl"): false, root + "/in/out2": false,
	} {
		if got := s.Excludes(p); got != want {
			t.Errorf("Excludes(%s) = %v, want %v", p, got, want)
		}
	}
}

// TestKilledDuringSwap kills a process that writes sets over and over at
// random moments: the directory always holds one whole set, and the next
// run cleans up after the killed one.
func TestKilledDuringSwap(t *testing.T) {
	rounds := 8
	if long() {
		rounds = 150
	}
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	extras := []string{filepath.Join(dir, "report.html"), filepath.Join(dir, "m", "matrix.json"), filepath.Join(root, "titles.csv")}
	if err := writeGeneration(dir, extras, 0); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	last, advanced := 0, 0
	for round := range rounds {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "NEARDUP_OUTPUT_CHILD="+dir, "NEARDUP_OUTPUT_EXTRAS="+strings.Join(extras, ","),
			"NEARDUP_OUTPUT_START="+strconv.Itoa(last+1))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Once the child has written a set, kill it at a random moment of
		// the ones that follow.
		lines := bufio.NewScanner(stdout)
		lines.Scan()
		time.Sleep(time.Duration(rng.IntN(40_000)) * time.Microsecond)
		cmd.Process.Signal(syscall.SIGKILL)
		for lines.Scan() {
		}
		err = cmd.Wait()
		if ee, ok := err.(*exec.ExitError); !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("round %d: child ended by itself: %v\n%s", round, err, stderr.String())
		}
		// Before any recovery, the directory is one whole set (the extras
		// outside it may lag one set behind until the next run).
		gen := generation(t, dir, extras[:2])
		if gen < last {
			t.Fatalf("round %d: generation %d after %d", round, gen, last)
		}
		if gen > last {
			advanced++
		}
		last = gen
		// The next run takes over: the lock is free, leftovers go, the
		// extras outside catch up.
		s, err := Create(dir, extras...)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		s.Abort()
		if g := generation(t, dir, extras); g != gen {
			t.Fatalf("round %d: generation %d after recovery, want %d", round, g, gen)
		}
		if s := siblings(t, dir); len(s) > 0 {
			t.Fatalf("round %d: left beside the output: %v", round, s)
		}
	}
	if advanced == 0 {
		t.Errorf("no killed run got as far as replacing the set in %d rounds", rounds)
	}
	t.Logf("%d rounds, %d with a new set, last generation %d", rounds, advanced, last)
}

// evidence is a pair's evidence in the tests.
type evidence struct {
	Text  string  `json:"text"`
	Score float64 `json:"score"`
}

// Method names the method of the evidence.
func (evidence) Method() string { return "m" }

// TestPairsEncodedOnEveryCoreInOrder: pairs.jsonl holds, byte for byte,
// the lines encoding the pairs one by one gives, for counts around the
// chunk size and with evidence that needs escaping; a pair that cannot be
// encoded fails Commit, naming the file, and leaves the previous set.
func TestPairsEncodedOnEveryCoreInOrder(t *testing.T) {
	for _, n := range []int{0, 1, pairChunk - 1, pairChunk, 7*pairChunk + 17} {
		dir := filepath.Join(t.TempDir(), "out")
		s, err := Create(dir)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		for i := range n {
			p := core.Pair{A: fmt.Sprintf("a%d", i), B: fmt.Sprintf("b<%d>&\u2028", i), Method: "m", Score: float64(i) / 7,
				Label: core.Duplicate, Evidence: evidence{Text: strings.Repeat("é\"", i%5), Score: float64(i)}}
			if err := enc.Encode(&p); err != nil {
				t.Fatal(err)
			}
			if err := s.Pair(&p); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Commit(); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, PairsFile))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%d pairs: pairs.jsonl differs from the pairs encoded one by one (%d bytes against %d)", n, len(got), len(want.Bytes()))
		}
	}

	// A bad pair in the first chunk is reported by a later Pair, one in the
	// last by Commit; either way Commit fails and the old set stays.
	for _, bad := range []int{3, 4*pairChunk + 3} {
		dir := filepath.Join(t.TempDir(), "out")
		if err := writeGeneration(dir, nil, 1); err != nil {
			t.Fatal(err)
		}
		s, err := Create(dir)
		if err != nil {
			t.Fatal(err)
		}
		var perr error
		for i := range 5*pairChunk + 10 {
			p := core.Pair{A: "a", B: "b", Evidence: evidence{Score: float64(i)}}
			if i == bad {
				p.Evidence = evidence{Score: math.NaN()}
			}
			if perr = s.Pair(&p); perr != nil {
				break
			}
		}
		if bad < pairChunk && perr == nil {
			t.Errorf("a bad pair in the first chunk: no Pair reported it")
		}
		err = s.Commit()
		s.Abort()
		if err == nil || !strings.Contains(err.Error(), PairsFile) {
			t.Fatalf("Commit with pair %d that cannot be encoded: %v, want an error naming %s", bad, err, PairsFile)
		}
		if got := generation(t, dir, nil); got != 1 {
			t.Errorf("after the failed Commit the set is generation %d, want 1", got)
		}
	}
}
