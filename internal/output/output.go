// Package output owns the files of a run's results: pairs.jsonl,
// clusters.jsonl, kept.jsonl and stats.json in one directory, with the
// report, titles and matrix files asked for beside them, replaced as one
// set. A new set is written into a directory beside the output directory
// and swapped in with a single rename, so that a failed, interrupted or
// killed run leaves either the whole previous set or the whole new one,
// never a mix. A lock file beside the output directory keeps two runs from
// writing into it at once.
package output

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The files of a result set.
const (
	PairsFile    = "pairs.jsonl"
	ClustersFile = "clusters.jsonl"
	KeptFile     = "kept.jsonl"
	StatsFile    = "stats.json"
	// RemovedFile lists each document removed as a copy: its id, its
	// cluster and the id of the document kept in its place (Options.Removed).
	RemovedFile = "removed.jsonl"
	// RejectsFile lists each record not compared, with where it is and why
	// (Options.Rejects).
	RejectsFile = "rejects.jsonl"
	// ManifestFile lists the files of the set in the output directory, so
	// a later run knows which files it may replace.
	ManifestFile = ".neardup-set.json"
)

var files = []string{PairsFile, ClustersFile, KeptFile, StatsFile}

// manifest is the content of ManifestFile.
type manifest struct {
	Files []string `json:"files"` // paths inside the directory, slash-separated
	// Pending are extra files outside the directory that were written with
	// the set and are moved into place right after the swap; a run that
	// finds some (the previous one was killed between the two) moves them.
	Pending []pending `json:"pending,omitempty"`
	// Extras are the absolute paths of the extra files outside the
	// directory written with the set (see Wrote): a later run may replace
	// them, and leaves them out of its reading when they lie in an input
	// directory. Absent from the manifests of older versions.
	Extras []string `json:"extras,omitempty"`
}

// pending is an extra file outside the output directory: written to Temp,
// to be renamed to Path.
type pending struct {
	Temp string `json:"temp"`
	Path string `json:"path"`
}

// Set is a result set being written. Create it, write each part (the
// main files and the extras declared to Create), then Commit; Abort (a
// no-op after Commit but for releasing the lock) removes what was written.
// Each main file has one writer at a time: pairs and clusters may be
// written on one goroutine while kept.jsonl is written on another, and
// Finish makes a file durable as soon as it is whole.
type Set struct {
	opts    Options
	names   []string // the main files of this set, in the order they are written
	dir     string   // the output directory, absolute
	tmp     string   // the new set's directory beside dir; "" once swapped in
	lock    *lock
	files   map[string]*file // the main files, by name; not changed after Create
	pairs   pairLines
	extras  map[string]*extra // by absolute path
	members []string          // paths in dir of the new set's files
	same    []os.FileInfo     // the output directory and extras as they exist, for Excludes
	// omitted are the extras outside dir that this set does not write and
	// an earlier set wrote: Commit removes them (see Omit).
	omitted []string
	done    bool
}

// file is one of the main files of a set being written. Each has one
// writer at a time: a file may be written (or finished) on one goroutine
// while another writes a different file.
type file struct {
	f      *os.File
	w      *blockWriter
	out    io.Writer     // where lines go: w, or a compressor writing into it
	z      io.Closer     // the compressor of a .gz or .zst kept file; nil when none
	pq     *parquetKept  // the writer of a .parquet kept file; nil when none
	buf    []byte        // a line being encoded (removed.jsonl)
	enc    *json.Encoder // nil for pairs.jsonl, encoded in chunks (pairLines)
	closed bool          // flushed, synced and closed by Finish
	err    error         // Finish's error, returned by Commit
}

// finish flushes the file, syncs it to disk and closes it, once; prior is
// an error of writing it that came before (nil for none), kept with any
// of these.
func (f *file) finish(name string, prior error) error {
	if f.closed {
		return f.err
	}
	f.closed = true
	if f.pq != nil {
		prior = errors.Join(prior, f.pq.close())
	}
	if f.z != nil {
		prior = errors.Join(prior, f.z.Close())
	}
	if err := errors.Join(f.w.Flush(), f.f.Chmod(0o644), f.f.Sync(), f.f.Close()); err != nil {
		prior = errors.Join(prior, fmt.Errorf("writing %s: %w", name, err))
	}
	f.err = prior
	return f.err
}

// extra is a file asked for beside the result set (report, titles,
// matrix).
type extra struct {
	path   string // absolute destination
	inside string // its path inside the output directory; "" when outside
	temp   string // outside: the temporary file written; "" until written
}

// Create starts a result set for dir. It takes dir's lock (failing at once
// with a clear message when another run holds it), finishes or cleans up
// after a run that was killed, and checks that dir holds nothing but the
// results of an earlier run (it is replaced as a whole) and that every
// extra path can be written: all before any work is done. dir is created
// when missing.
func Create(dir string, extras ...string) (*Set, error) {
	return CreateWith(dir, Options{}, extras...)
}

// CreateWith is Create with the kept file's name and the optional files
// Options choose.
func CreateWith(dir string, o Options, extras ...string) (*Set, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	if dir == "" {
		return nil, errors.New("no output directory: the path is empty")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if wd, err := os.Getwd(); err == nil && abs == wd {
		// The set replaces the directory whole: the process and the shell
		// it was started from would be left in a removed directory.
		return nil, fmt.Errorf("%s: the output directory is the current directory, which a run replaces whole; name one inside it (out/)", dir)
	}
	if st, err := os.Stat(abs); err == nil && !st.IsDir() {
		// Refused before a lock file is made beside it (/dev/.null.lock).
		return nil, &PathError{dir, "is not a directory"}
	}
	abs, lk, err := lockAt(abs, dir)
	if err != nil {
		return nil, err
	}
	s := &Set{opts: o, names: o.names(), dir: abs, lock: lk, files: map[string]*file{}, extras: map[string]*extra{}}
	if err := s.start(dir, extras); err != nil {
		s.Abort()
		return nil, err
	}
	return s, nil
}

// lockAt takes the lock of the output directory dir, whose absolute path
// is abs: it resolves abs through its symbolic links (the directory a link
// points to is the one written, and locked), creates its parent when
// missing and takes the lock file beside it. It returns abs resolved.
func lockAt(abs, dir string) (string, *lock, error) {
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real // swap the directory a symbolic link points to, not the link
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return "", nil, fmt.Errorf("creating output directory: %w", err)
	}
	lk, err := acquire(lockPath(abs), dir)
	if err != nil {
		return "", nil, err
	}
	return abs, lk, nil
}

// Lock is the lock of an output directory that Create takes, held by a
// program that writes the directory without a Set (neardup-beam, whose job
// writes the files): while it is held, Create and LockDir of the directory
// fail at once.
type Lock struct{ l *lock }

// LockDir takes the lock of the output directory dir, as Create does (a
// lock file beside dir, whose parent is created when missing), or fails at
// once naming dir and the process that holds it. dir itself is neither
// created nor checked. Release it once the directory is written.
func LockDir(dir string) (*Lock, error) {
	if dir == "" {
		return nil, errors.New("no output directory: the path is empty")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	_, lk, err := lockAt(abs, dir)
	if err != nil {
		return nil, err
	}
	return &Lock{lk}, nil
}

// Release drops the lock and removes its file; it may be called more than
// once.
func (l *Lock) Release() {
	if l != nil {
		l.l.release()
	}
}

// start does Create's work under the lock.
func (s *Set) start(dir string, extras []string) error {
	if err := recoverDir(s.dir); err != nil {
		return fmt.Errorf("%s: finishing an interrupted run: %w", dir, err)
	}
	old, err := checkDir(s.dir, dir)
	if err != nil {
		return err
	}
	s.tmp, err = os.MkdirTemp(filepath.Dir(s.dir), "."+filepath.Base(s.dir)+".new-")
	if err == nil {
		// MkdirTemp makes it private (0700); it becomes the output
		// directory, whose files are the user's to share (0644).
		err = os.Chmod(s.tmp, 0o755)
	}
	if err != nil {
		return fmt.Errorf("%s: creating the new results beside it: %w", dir, err)
	}
	for _, p := range extras {
		if Special(p) {
			return &PathError{p, "is not a regular file (a device or a pipe): this output is written as a file, swapped in with the others"}
		}
		if err := s.declare(p, old); err != nil {
			return err
		}
	}
	for _, p := range append([]string{s.dir}, extras...) {
		if st, err := os.Stat(p); err == nil {
			s.same = append(s.same, st)
		}
	}
	for _, name := range s.names {
		f, direct, err := openDirect(filepath.Join(s.tmp, name))
		if err != nil {
			return fmt.Errorf("creating %s: %w", filepath.Join(dir, name), err)
		}
		w := newBlockWriter(f, direct, 1<<20)
		mf := &file{f: f, w: w, out: w}
		if name == s.opts.kept() {
			if err := mf.keptFormat(name); err != nil {
				f.Close()
				return err
			}
		}
		if name != PairsFile { // pairs are encoded in chunks (pairLines)
			mf.enc = json.NewEncoder(mf.out)
			mf.enc.SetEscapeHTML(false)
		}
		s.files[name] = mf
		s.members = append(s.members, name)
	}
	return nil
}

// PathError is a path Create refuses for what it names, not for what
// befell it: an output directory that is a file or a device; an extra
// path that is one of the result files, a directory, a device or a pipe,
// or a path given for two outputs. Whoever chose the path made the
// mistake (a command line that gives it is wrong), where a path that
// cannot be written (a missing directory, no permission) is a failure.
type PathError struct {
	Path    string // as given
	Problem string // what is wrong with it: "is a directory"
}

// Error says the path and its problem: "out/pairs.jsonl: is one of the
// result files; choose another name".
func (e *PathError) Error() string { return e.Path + ": " + e.Problem }

// declare checks an extra file's path before any work: inside the output
// directory it joins the set; outside, its directory must exist and take a
// new file, and the path must not be a directory.
func (s *Set) declare(path string, old map[string]bool) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	if _, dup := s.extras[abs]; dup {
		return &PathError{path, "given for two outputs"}
	}
	x := &extra{path: abs}
	rel, err := filepath.Rel(s.dir, abs)
	if err == nil && rel == "." {
		// The output directory itself, made or not yet: the run would end
		// in a rename over it, and leave the directory stuck.
		return &PathError{path, "is the output directory"}
	}
	if err == nil && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && rel != ".." {
		rel = filepath.ToSlash(rel)
		if slices.Contains(s.names, rel) || rel == ManifestFile {
			return &PathError{path, "is one of the result files; choose another name"}
		}
		if st, err := os.Stat(abs); err == nil && st.IsDir() && !old[rel] {
			return &PathError{path, "is a directory"}
		}
		x.inside = rel
	} else {
		if st, err := os.Stat(abs); err == nil && st.IsDir() {
			return &PathError{path, "is a directory"}
		}
		s.extras[abs] = x
		f, err := s.createOutside(x)
		if err != nil {
			// The temporary file's name would only mislead: the error
			// names the path given, and its directory where that is what
			// is wrong.
			st, serr := os.Stat(filepath.Dir(abs))
			var pe *fs.PathError
			switch {
			case errors.Is(serr, os.ErrNotExist):
				return fmt.Errorf("%s: cannot be written: no directory %s", path, filepath.Dir(path))
			case serr == nil && !st.IsDir():
				return fmt.Errorf("%s: cannot be written: %s is not a directory", path, filepath.Dir(path))
			case errors.As(err, &pe):
				return fmt.Errorf("%s: cannot be written: %w", path, pe.Err)
			}
			return fmt.Errorf("%s: cannot be written: %w", path, err)
		}
		f.Close()
		os.Remove(x.temp)
		x.temp = ""
	}
	s.extras[abs] = x
	return nil
}

// KeptRaw writes a line of kept.jsonl: a record as read, a JSON object.
// A kept file in Parquet takes records through Keep.
func (s *Set) KeptRaw(raw []byte) error {
	f := s.files[s.opts.kept()]
	if f.pq != nil {
		return fmt.Errorf("output: %s is Parquet: a record is written with Keep", s.opts.kept())
	}
	f.out.Write(raw)
	if _, err := f.out.Write(newline); err != nil {
		return fmt.Errorf("writing %s: %w", s.opts.kept(), err)
	}
	return nil
}

var newline = []byte{'\n'}

// Kept writes a line of kept.jsonl encoding v.
func (s *Set) Kept(v any) error { return s.line(s.opts.kept(), v) }

// Stats writes stats.json, indented.
func (s *Set) Stats(v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err == nil {
		_, err = s.files[StatsFile].w.Write(append(data, '\n'))
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", StatsFile, err)
	}
	return nil
}

func (s *Set) line(name string, v any) error {
	if err := s.files[name].enc.Encode(v); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}

// Extra writes the extra file at path, one declared to Create, through
// write. It is put in place with the set: a failure here leaves the
// previous results as they were.
func (s *Set) Extra(path string, write func(w *bufio.Writer) error) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	x, ok := s.extras[abs]
	if !ok {
		return fmt.Errorf("output: %s was not declared to Create", path)
	}
	var f *os.File
	if x.inside != "" {
		p := filepath.Join(s.tmp, filepath.FromSlash(x.inside))
		if err = os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
			f, err = os.Create(p)
		}
		if err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	} else {
		if f, err = s.createOutside(x); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = f.Chmod(0o644) // CreateTemp makes it private; this is an output for the user
	if err == nil {
		err = write(w)
	}
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if err = errors.Join(err, f.Close()); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if x.inside != "" {
		s.members = append(s.members, x.inside)
	}
	return nil
}

// Omit says that the extra file at path, one declared to Create, is not
// written with this set. Commit then removes a file at path that an
// earlier set wrote (one its manifest lists), so that no file of an
// earlier run is left beside the new results as if it were one of them;
// any other file there is left as it is. An extra inside the output
// directory needs nothing: the set replaces the directory whole.
func (s *Set) Omit(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	x, ok := s.extras[abs]
	if !ok {
		return fmt.Errorf("output: %s was not declared to Create", path)
	}
	if x.inside == "" && Wrote(s.dir, abs) {
		s.omitted = append(s.omitted, abs)
	}
	return nil
}

// Finish flushes the named main files (PairsFile, ClustersFile, KeptFile,
// StatsFile) to disk and closes them: nothing more is written to them, and
// a file written in full is made durable while others are still being
// written. It may run on one goroutine while another writes other files
// of the set. Commit finishes the files not finished.
func (s *Set) Finish(names ...string) error {
	var errs []error
	for _, name := range names {
		f, ok := s.files[name]
		if !ok {
			errs = append(errs, fmt.Errorf("output: %s is not a file of the set", name))
			continue
		}
		var prior error
		if name == PairsFile && !f.closed {
			prior = s.flushPairs()
		}
		errs = append(errs, f.finish(name, prior))
	}
	return errors.Join(errs...)
}

// Commit flushes every file to disk (those not finished yet at once, each
// on its own goroutine) and swaps the new set in for the old one with a
// single rename; extras outside the output directory are renamed into
// place right after (a run that finds them not yet moved moves them). It
// releases the lock.
func (s *Set) Commit() error {
	if s.done {
		return errors.New("output: set committed twice")
	}
	if err := s.Finish(PairsFile); err != nil {
		return err
	}
	var wg sync.WaitGroup
	for _, name := range s.names {
		wg.Go(func() { s.files[name].finish(name, nil) })
	}
	wg.Wait()
	for _, name := range s.names {
		if err := s.files[name].err; err != nil {
			return err
		}
	}
	m := manifest{Files: s.members, Pending: s.pending()}
	for _, p := range m.Pending {
		m.Extras = append(m.Extras, p.Path)
	}
	if err := writeManifest(s.tmp, m); err != nil {
		return err
	}
	if err := syncDir(s.tmp); err != nil {
		return err
	}
	old, err := swap(s.tmp, s.dir)
	if err != nil {
		return fmt.Errorf("putting the results in place in %s: %w", s.dir, err)
	}
	s.tmp, s.done = "", true
	err = finishPending(s.dir, m)
	for _, p := range s.omitted {
		if rerr := os.Remove(p); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			err = errors.Join(err, fmt.Errorf("removing the earlier run's %s: %w", p, rerr))
		}
	}
	if old != "" {
		err = errors.Join(err, os.RemoveAll(old))
	}
	s.lock.release()
	return err
}

// Abort removes what was written and releases the lock; after Commit it
// only makes sure the lock is released.
func (s *Set) Abort() {
	s.waitPairs()
	for _, f := range s.files {
		if !f.closed {
			f.closed = true
			f.f.Close()
		}
	}
	if s.tmp != "" {
		os.RemoveAll(s.tmp)
		s.tmp = ""
	}
	if !s.done {
		for _, x := range s.extras {
			if x.temp != "" {
				os.Remove(x.temp)
				x.temp = ""
			}
		}
	}
	s.lock.release()
}

// Excludes reports whether path is the output directory, its work folder
// or one of the extra files: what a run must not read as its input (a directory
// excluded is not walked).
func (s *Set) Excludes(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	for _, d := range []string{s.dir, workPath(s.dir)} {
		if abs == d || strings.HasPrefix(abs, d+string(filepath.Separator)) {
			return true
		}
	}
	if _, ok := s.extras[abs]; ok {
		return true
	}
	if len(s.same) == 0 {
		return false
	}
	st, err := os.Stat(path) // the same files by other names: symbolic links
	if err != nil {
		return false
	}
	for _, o := range s.same {
		if os.SameFile(st, o) {
			return true
		}
	}
	return false
}

// Wrote reports whether path is an extra file outside the output
// directory dir that was written with the result set dir holds (its
// manifest lists it): a file a later run of dir may replace, where any
// other file of an input directory is an input. A dir that does not exist,
// or holds no manifest or a damaged one, wrote none.
func Wrote(dir, path string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real // as Create resolves it
	}
	st, err := os.Stat(path)
	if err != nil {
		return false
	}
	m, err := readManifest(abs)
	// The same file however either path names it (a link to a directory,
	// ./x/../x).
	return err == nil && slices.ContainsFunc(m.Extras, func(e string) bool {
		es, err := os.Stat(e)
		return err == nil && os.SameFile(es, st)
	})
}

// SetFiles returns the files inside dir of the result set dir holds, as
// its manifest (ManifestFile) lists them: slash-separated paths relative
// to dir, the manifest not among them. A program that writes dir without
// a Set (neardup-beam) removes those it does not write over, and the
// manifest, which no longer tells the set dir holds. A dir that holds no
// manifest (written before manifests, or by such a program) lists none; a
// damaged manifest is an error.
func SetFiles(dir string) ([]string, error) {
	m, err := readManifest(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return m.Files, nil
}

// createOutside creates the temporary file of the extra x outside the
// output directory, beside its destination. The file is listed in the new
// set's manifest before it is created, so that a run that finds this set
// unfinished removes it.
func (s *Set) createOutside(x *extra) (*os.File, error) {
	x.temp = filepath.Join(filepath.Dir(x.path), "."+filepath.Base(x.path)+"."+strconv.FormatUint(rand.Uint64(), 36)+".tmp")
	if err := writeManifest(s.tmp, manifest{Pending: s.pending()}); err != nil {
		x.temp = ""
		return nil, err
	}
	f, err := os.OpenFile(x.temp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		x.temp = ""
		return nil, err
	}
	return f, nil
}

// pending lists the extras outside the output directory written so far.
func (s *Set) pending() []pending {
	var out []pending
	for _, x := range s.extras {
		if x.inside == "" && x.temp != "" {
			out = append(out, pending{Temp: x.temp, Path: x.path})
		}
	}
	slices.SortFunc(out, func(a, b pending) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// WorkDir returns the run's work folder, created if missing: beside the
// output directory (".out.work" for "out"), where a run keeps what it
// spills to disk and the checkpoints it resumes from. Like the lock, it
// is not part of the result set: a Commit leaves it, and the run removes
// what it no longer needs.
func (s *Set) WorkDir() (string, error) {
	dir := workPath(s.dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("creating the work folder: %w", err)
	}
	return dir, nil
}

// WorkPath returns the run's work folder (see WorkDir) without creating it.
func (s *Set) WorkPath() string { return workPath(s.dir) }

func workPath(dir string) string {
	return filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".work")
}

// lockPath is the lock file of the output directory dir: beside it, so it
// stays in place when the directory is swapped.
func lockPath(dir string) string {
	return filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".lock")
}

// checkDir checks that dir, when it exists, is a directory holding only
// what neardup writes there: the files of a set (those its manifest lists,
// or the four main files of a set written before manifests), the manifest,
// and temporary files of older versions. It returns the previous set's
// files.
func checkDir(dir, name string) (map[string]bool, error) {
	st, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, &PathError{name, "is not a directory"}
	}
	known := map[string]bool{ManifestFile: true, RemovedFile: true, RejectsFile: true}
	for _, f := range files {
		known[f] = true
	}
	for _, f := range keptNames {
		known[f] = true
	}
	if m, err := readManifest(dir); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	} else {
		for _, f := range m.Files {
			known[f] = true
		}
	}
	var foreign []string
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(rel, beamStage) {
				return filepath.SkipDir
			}
			for f := range known {
				if strings.HasPrefix(f, rel+"/") {
					return nil
				}
			}
		} else if known[rel] || isOldTemp(rel) || isBeamTemp(rel, known) {
			return nil
		}
		foreign = append(foreign, rel)
		if d.IsDir() {
			return filepath.SkipDir
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	shards := slices.DeleteFunc(slices.Clone(foreign), func(f string) bool { return !beamShard.MatchString(f) })
	foreign = slices.DeleteFunc(foreign, beamShard.MatchString)
	if len(foreign) > 0 {
		return nil, fmt.Errorf("%s: holds files neardup did not write (%s); the results replace the whole directory, so choose a new or empty directory, or one neardup wrote",
			name, fewOf(foreign))
	}
	if len(shards) > 0 {
		return nil, fmt.Errorf("%s: holds neardup-beam's results in shards (%s); join them first (neardup-beam merge %s), "+
			"into one file of each, which a run replaces, or choose a new or empty directory", name, fewOf(shards), name)
	}
	return known, nil
}

// beamShard matches the name of a shard of a result file as neardup-beam
// writes them (its --shards): pairs-00000-of-00004.jsonl,
// kept-00003-of-00004.jsonl.gz.
var beamShard = regexp.MustCompile(`^(pairs|clusters|kept|removed|rejects)-[0-9]{5}-of-[0-9]{5}\.jsonl(\.gz|\.zst)?$`)

// fewOf lists the first three names of names, and how many more there are.
func fewOf(names []string) string {
	if len(names) > 3 {
		return fmt.Sprintf("%s and %d more", strings.Join(names[:3], ", "), len(names)-3)
	}
	return strings.Join(names, ", ")
}

// beamStage begins the name of the folder neardup-beam writes a run's
// files into before it moves them into place (.neardup-beam-new-…): one a
// stopped run left is its own, not the user's.
const beamStage = ".neardup-beam-new-"

// isBeamTemp reports whether name is a result file's temporary name as
// neardup-beam writes it (pairs.jsonl.tmp, a shard's
// pairs-00000-of-00004.jsonl.tmp), which a stopped run leaves.
func isBeamTemp(name string, known map[string]bool) bool {
	f, ok := strings.CutSuffix(name, ".tmp")
	return ok && (known[f] || beamShard.MatchString(f))
}

// isOldTemp reports whether name is a temporary file an earlier version
// left in the output directory (.pairs.jsonl.123.tmp).
func isOldTemp(name string) bool {
	return !strings.Contains(name, "/") && strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".tmp")
}

func readManifest(dir string) (manifest, error) {
	var m manifest
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if errors.Is(err, os.ErrNotExist) {
		return m, nil
	}
	if err == nil {
		err = json.Unmarshal(data, &m)
	}
	if err != nil {
		return m, fmt.Errorf("reading %s: %w", ManifestFile, err)
	}
	return m, nil
}

// writeManifest writes dir's manifest under a temporary name and renames
// it into place.
func writeManifest(dir string, m manifest) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, ManifestFile+".tmp")
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("writing %s: %w", ManifestFile, err)
	}
	_, err = f.Write(append(data, '\n'))
	if err = errors.Join(err, f.Sync(), f.Close()); err == nil {
		err = os.Rename(tmp, filepath.Join(dir, ManifestFile))
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", ManifestFile, err)
	}
	return nil
}

// finishPending moves the pending extras of dir's manifest into place and
// writes the manifest without them.
func finishPending(dir string, m manifest) error {
	if len(m.Pending) == 0 {
		return nil
	}
	for _, p := range m.Pending {
		if err := os.Rename(p.Temp, p.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("putting %s in place: %w", p.Path, err)
		}
		if err := syncDir(filepath.Dir(p.Path)); err != nil {
			return err
		}
	}
	m.Pending = nil
	return writeManifest(dir, m)
}

// recoverDir, under dir's lock, finishes what a killed run left: the
// previous set restored if the run died between the two renames of a swap
// without an atomic exchange, the extras of a swapped set moved into
// place, and the directories of unfinished or replaced sets removed.
func recoverDir(dir string) error {
	parent, base := filepath.Dir(dir), filepath.Base(dir)
	ents, err := os.ReadDir(parent)
	if err != nil {
		return err
	}
	var stale []string
	for _, e := range ents {
		n := e.Name()
		if strings.HasPrefix(n, "."+base+".new-") || strings.HasPrefix(n, "."+base+".old-") {
			stale = append(stale, filepath.Join(parent, n))
		}
	}
	if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
		for i, p := range stale {
			if strings.HasPrefix(filepath.Base(p), "."+base+".old-") {
				if err := os.Rename(p, dir); err != nil {
					return err
				}
				stale = slices.Delete(stale, i, i+1)
				break
			}
		}
	}
	for _, p := range stale {
		// An unfinished set lists the extras it wrote outside the
		// directory; a replaced set lists none not yet in place.
		if m, err := readManifest(p); err == nil {
			for _, x := range m.Pending {
				os.Remove(x.Temp)
			}
		}
		if err := os.RemoveAll(p); err != nil {
			return err
		}
	}
	m, err := readManifest(dir)
	if err != nil || len(m.Pending) == 0 {
		return nil // a damaged manifest is reported by checkDir
	}
	return finishPending(dir, m)
}

// swap puts the directory tmp in place at dir, replacing what is there as
// one step, and returns where the replaced directory went ("" when there
// was none).
func swap(tmp, dir string) (string, error) {
	parent := filepath.Dir(dir)
	if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(tmp, dir); err != nil {
			return "", err
		}
		return "", syncDir(parent)
	}
	err := exchange(tmp, dir)
	if err == nil {
		return tmp, syncDir(parent)
	}
	if !errors.Is(err, errNoExchange) {
		return "", err
	}
	// Two renames: a run killed between them leaves the old set at
	// .DIR.old-*, which the next run (recoverDir) puts back.
	old := filepath.Join(parent, "."+filepath.Base(dir)+".old-"+filepath.Base(tmp)[len(filepath.Base(dir))+6:])
	if err := os.Rename(dir, old); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.Rename(old, dir)
		return "", err
	}
	return old, syncDir(parent)
}

// exchange swaps two names atomically where the system can (a variable so
// that tests can take the other way).
var exchange = renameExchange

// errNoExchange is exchange's answer where the file system or the system
// cannot exchange two names atomically.
var errNoExchange = errors.New("atomic exchange not supported")

// syncDir makes the entries of dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if errors.Is(err, os.ErrInvalid) {
		err = nil // some systems cannot sync a directory
	}
	return errors.Join(err, d.Close())
}
