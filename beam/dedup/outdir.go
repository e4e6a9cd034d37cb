package dedup

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/neardup/neardup/internal/output"
)

// Lock takes the lock of the local output directory out for the life of a
// run: the lock neardup dedup takes (output.LockDir, a lock file beside
// out), so that while one run of either writes out, another fails at once
// naming out and saying that another run writes its results there. Under
// it no other live run has a stage in out (NewStage): RemoveEarlier takes
// those there for a killed run's. Call release once the run has published
// its files or removed its stage. A directory of another file system
// (gs://, s3://) has no lock: release does nothing.
func Lock(out string) (release func(), err error) {
	if !isLocal(out) {
		return func() {}, nil
	}
	lk, err := output.LockDir(out)
	if err != nil {
		return nil, err
	}
	return lk.Release, nil
}

// RemoveEarlier removes from o.Out the result files of an earlier run that
// the run of o does not write over, so that the directory holds one run's
// results: the shards of every file when o writes one file of each (Merge
// would join them over this run's files), the one files and shards of
// another count when o writes shards, a kept file of another name
// (kept.jsonl.gz or kept.parquet beside kept.jsonl), the temporary files
// of a run stopped while writing, the files of the stages (NewStage) in
// o.Out but o's, which no live run holds when o.Out is local and its
// caller holds its lock (Lock): those of runs killed, and every file of
// the result set of neardup dedup a local o.Out holds (a report too, as
// its manifest lists them: output.SetFiles), its manifest last. Other
// files, and the inputs (o.Inputs, files as Expand lists them:
// out/kept.jsonl.gz read again), are left as they are.
// Call it once the pipeline of o has succeeded and its files are in o.Out
// (Publish does), so that a run that fails leaves the earlier run's files
// in place; it returns the paths removed. A file system that cannot
// remove files (filesystem.Remover) is an error naming what is left.
func RemoveEarlier(ctx context.Context, o Options) ([]string, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	fs, err := filesystem.New(ctx, o.Out)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	all, err := fs.List(ctx, outPath(o.Out, "*"))
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", o.Out, err)
	}
	writes := map[string]bool{}
	for _, name := range o.files() {
		writes[name] = true
	}
	inputs := map[string]bool{}
	var local []os.FileInfo // the local inputs, which a link may name otherwise
	for _, p := range o.Inputs {
		inputs[samePath(p)] = true
		if isLocal(p) {
			if fi, err := os.Stat(p); err == nil {
				local = append(local, fi)
			}
		}
	}
	isInput := func(p string) bool {
		if inputs[samePath(p)] {
			return true
		}
		fi, err := os.Stat(p)
		return isLocal(p) && err == nil && slices.ContainsFunc(local, func(in os.FileInfo) bool { return os.SameFile(fi, in) })
	}
	stale, err := staleStages(ctx, fs, o)
	if err != nil {
		return nil, err
	}
	set, manifest, err := earlierSet(o.Out)
	if err != nil {
		return nil, err
	}
	earlier := map[string]bool{}
	for _, p := range all {
		if name := path.Base(p); isResult(name) && !writes[name] {
			earlier[p] = true
		}
	}
	for name, p := range set {
		if !writes[name] {
			earlier[p] = true
		}
	}
	for p := range earlier {
		if !isInput(p) {
			stale = append(stale, p)
		}
	}
	slices.Sort(stale)
	if manifest != "" {
		// Last: it names the files of its set to a run stopped before
		// they are all removed.
		stale = append(stale, manifest)
	}
	rm, ok := fs.(filesystem.Remover)
	if !ok && len(stale) > 0 {
		return nil, fmt.Errorf("%s holds, beside this run's results, files of an earlier run (%s) that its file system cannot remove here: remove them by hand, so that it holds this run's alone", o.Out, strings.Join(stale, ", "))
	}
	for i, p := range stale {
		if err := rm.Remove(ctx, p); err != nil {
			return stale[:i], fmt.Errorf("removing %s, of an earlier run: %w", p, err)
		}
	}
	if isLocal(o.Out) { // the stages' directories, and those of files of the set, now empty
		dirs, _ := filepath.Glob(outPath(o.Out, stagePrefix+"*"))
		for _, d := range dirs {
			if o.Stage == "" || samePath(d) != samePath(o.Stage) {
				os.Remove(d)
			}
		}
		for name, p := range set {
			for range strings.Count(name, "/") {
				p = filepath.Dir(p)
				if fi, err := os.Lstat(p); err != nil || !fi.IsDir() {
					break // a link is the user's, whatever it names
				}
				os.Remove(p) // when empty
			}
		}
	}
	return stale, nil
}

// earlierSet lists the files of the result set of neardup dedup that the
// local directory out holds, as its manifest lists them
// (output.SetFiles), each there and a file: the files of an earlier run,
// whatever their names (kept.parquet, a report), by their names in its
// manifest ("sub/report.html"), with their paths in out. manifest is the
// manifest's path, "" when out holds none. A directory of another file
// system holds none: neardup dedup writes local directories alone.
func earlierSet(out string) (files map[string]string, manifest string, err error) {
	if !isLocal(out) {
		return nil, "", nil
	}
	names, err := output.SetFiles(out)
	if err != nil {
		return nil, "", err
	}
	manifest = filepath.Join(out, output.ManifestFile)
	if _, err := os.Lstat(manifest); err != nil {
		return nil, "", nil
	}
	real, err := filepath.EvalSymlinks(out)
	if err != nil {
		return nil, "", err
	}
	files = map[string]string{}
	for _, name := range names {
		if !filepath.IsLocal(filepath.FromSlash(name)) {
			continue // no file of out
		}
		p := filepath.Join(out, filepath.FromSlash(name))
		if fi, err := os.Lstat(p); err == nil && !fi.IsDir() && within(real, filepath.Dir(p)) {
			files[name] = p
		}
	}
	return files, manifest, nil
}

// within reports whether directory dir, through its symbolic links, lies
// in directory real (a path without links) or is it: a name a manifest
// lists through a link to another directory ("sub/report.html", sub a
// link) is no file of the output directory.
func within(real, dir string) bool {
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(real, d)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// staleStages lists the files in o.Out of the stages (NewStage) but o's
// own: those a run killed outright left, or a worker still writing when
// its job failed wrote after the stage was removed. Under o.Out's lock
// (Lock) no live run holds another stage there.
func staleStages(ctx context.Context, fs filesystem.Interface, o Options) ([]string, error) {
	files, err := fs.List(ctx, outPath(o.Out, stagePrefix+"*/*"))
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", o.Out, err)
	}
	var stale []string
	for _, p := range files {
		stage := path.Dir(p)
		if strings.HasPrefix(path.Base(stage), stagePrefix) && (o.Stage == "" || samePath(stage) != samePath(o.Stage)) {
			stale = append(stale, p)
		}
	}
	return stale, nil
}

// files are the names of the files the run of o writes (o filled by
// withDefaults), stats.json last: each JSON Lines file, or its shards.
func (o Options) files() []string {
	var names []string
	for _, name := range []string{pairsFile, clustersFile, removedFile, rejectsFile, o.Kept} {
		for k := range max(o.Shards, 1) {
			names = append(names, path.Base(shardPath(o.Out, name, k, o.Shards)))
		}
	}
	return append(names, statsFile)
}

// isResult reports whether name is a file a run writes into its output
// directory, or neardup dedup into its own: a result file (a kept file of
// any name either writes: kept.parquet too), a shard of one, or the
// temporary name of either.
func isResult(name string) bool {
	name = strings.TrimSuffix(name, ".tmp")
	if m := shardName.FindStringSubmatch(name); m != nil {
		name = m[1] + "." + m[4]
	}
	switch name {
	case pairsFile, clustersFile, removedFile, rejectsFile, statsFile:
		return true
	}
	// A kept.parquet is an earlier run's only as its manifest lists it
	// (earlierSet): neardup dedup writes one only beside a manifest, and
	// neardup-beam writes none, so one standing alone is the user's.
	format, ok := output.KeptFormat(name)
	return ok && format != "parquet" && name == "kept."+format
}

// samePath is p as two names of one local file compare: absolute, clean
// and through its symbolic links (when it is there); a URL as it is.
func samePath(p string) string {
	if isLocal(p) {
		if abs, err := filepath.Abs(p); err == nil {
			if real, err := filepath.EvalSymlinks(abs); err == nil {
				return real
			}
			return abs
		}
	}
	return p
}
