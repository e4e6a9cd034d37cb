package dedup

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/output"
)

// line is a line of an output file with the place it takes in the file:
// lines are written in the order of (Key, Sub), the batch's order.
type line struct {
	Key, Sub int64
	// Rank and Score order a later document's pairs as the batch lists
	// them (engine.LabelRank: duplicates first, then by score, highest
	// first) before Sub; other files' lines leave them zero.
	Rank  int
	Score float64
	Line  []byte
}

// pairLine places a pair by its later document, then as the batch lists
// that document's pairs: duplicates first, then by score, then by the
// earlier document, the order in which the batch finds them.
func pairLine(f found) line {
	return line{Key: f.B, Sub: f.A, Rank: engine.LabelRank(core.Label(f.Label)), Score: f.Score, Line: f.Line}
}

// keptLine is the JSON line of a document no cluster left out.
func keptLine(ord int64, lines func(*[]byte) bool, notKept func(*bool) bool, emit func(line)) {
	var out bool
	if notKept(&out) {
		return
	}
	var l []byte
	if lines(&l) {
		emit(line{Key: ord, Line: append(l, '\n')})
	}
}

// outputs write the JSON Lines files of a run into dir: each as one file
// (shards 0) or as shards of it, each shard a range of the documents in
// input order, balanced by the number of records each input holds.
type outputs struct {
	dir     string
	shards  int
	records beam.PCollection // KV<int64, int64>: an input's index, its records
}

// count returns how many shards the files are written in: 1 for one file.
func (out outputs) count() int { return max(out.shards, 1) }

// lines writes the lines col, sorted into the batch's order, to the file
// name, or its shards.
func (out outputs) lines(s beam.Scope, name string, col beam.PCollection) {
	s = s.Scope("write " + name)
	sharded := beam.ParDo(s, &shardFn{Shards: out.count()}, col, beam.SideInput{Input: out.records})
	empty := beam.ParDo(s, emptyLine, beam.CreateList(s, out.ids()))
	beam.ParDo0(s, &writeFn{Dir: out.dir, Name: name, Shards: out.shards},
		beam.GroupByKey(s, beam.Flatten(s, sharded, empty)))
}

// clusters writes clusters.jsonl and removed.jsonl, or their shards, the
// clusters numbered from 1 across the shards in the order of their first
// members.
func (out outputs) clusters(s beam.Scope, clusters beam.PCollection) {
	s = s.Scope("write " + clustersFile)
	sharded := beam.ParDo(s, &shardClusterFn{Shards: out.count()}, clusters, beam.SideInput{Input: out.records})
	sizes := stats.Count(s, beam.ParDo(s, shardOf, sharded))
	empty := beam.ParDo(s, emptyCluster, beam.CreateList(s, out.ids()))
	beam.ParDo0(s, &clustersFn{Dir: out.dir, Shards: out.shards},
		beam.GroupByKey(s, beam.Flatten(s, sharded, empty)), beam.SideInput{Input: sizes})
}

// ids are the numbers of the shards.
func (out outputs) ids() []int {
	ids := make([]int, out.count())
	for i := range ids {
		ids[i] = i
	}
	return ids
}

// emptyLine and emptyCluster give each shard a value that writes nothing,
// so that its file is written when no line falls in it.
func emptyLine(shard int, emit func(int, line))          { emit(shard, line{Key: -1}) }
func emptyCluster(shard int, emit func(int, clusterOut)) { emit(shard, clusterOut{First: -1}) }

// shardOf is the shard of a cluster, to count the clusters of each.
func shardOf(shard int, _ clusterOut) int { return shard }

// recordsCount keeps, of the run's counts, the records of each input.
func recordsCount(name string, n int64, emit func(int64, int64)) {
	if i, ok := strings.CutPrefix(name, countRecords); ok {
		in, err := strconv.ParseInt(i, 10, 64)
		if err == nil {
			emit(in, n)
		}
	}
}

// placer places a document among the shards: the inputs' records in
// input order are cut into shards of (nearly) equal numbers of records.
type placer struct {
	start []int64 // the records of the inputs before each
	total int64
}

// newPlacer reads the records of each input.
func newPlacer(records func(*int64, *int64) bool) *placer {
	n := map[int64]int64{}
	var in, recs int64
	for records(&in, &recs) {
		n[in] += recs
	}
	p := &placer{}
	for i := range int64(len(n)) {
		p.start = append(p.start, p.total)
		p.total += n[i]
	}
	return p
}

// shard returns the shard of the document of ordinal ord among shards.
func (p *placer) shard(ord int64, shards int) int {
	in, rec := ord>>ordBits, ord&(1<<ordBits-1)
	if p.total == 0 || in >= int64(len(p.start)) {
		return 0
	}
	return int(min((p.start[in]+rec)*int64(shards)/p.total, int64(shards-1)))
}

// shardFn keys each line by its shard.
type shardFn struct {
	Shards int

	p *placer
}

func (fn *shardFn) ProcessElement(l line, records func(*int64, *int64) bool, emit func(int, line)) {
	if fn.p == nil {
		fn.p = newPlacer(records)
	}
	emit(fn.p.shard(l.Key, fn.Shards), l)
}

// shardClusterFn keys each cluster by the shard of its first member.
type shardClusterFn struct {
	Shards int

	p *placer
}

func (fn *shardClusterFn) ProcessElement(c clusterOut, records func(*int64, *int64) bool, emit func(int, clusterOut)) {
	if fn.p == nil {
		fn.p = newPlacer(records)
	}
	emit(fn.p.shard(c.First, fn.Shards), c)
}

// writeFn writes one output file, or one shard of it, from all its lines,
// on one worker: to a temporary name, renamed when complete where the file
// system can; compressed when its name says so.
type writeFn struct {
	Dir, Name string
	Shards    int // 0: one file
}

func (fn *writeFn) ProcessElement(ctx context.Context, shard int, lines func(*line) bool) error {
	var ls []line
	var l line
	for lines(&l) {
		if l.Key >= 0 { // not an empty shard's value
			ls = append(ls, l)
		}
	}
	slices.SortFunc(ls, func(a, b line) int {
		if c := cmpInt(a.Key, b.Key); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Rank, b.Rank); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmpInt(a.Sub, b.Sub)
	})
	return writeFile(ctx, shardPath(fn.Dir, fn.Name, shard, fn.Shards), func(w io.Writer) error {
		for _, l := range ls {
			if _, err := w.Write(l.Line); err != nil {
				return err
			}
		}
		return nil
	})
}

// clustersFn writes clusters.jsonl and removed.jsonl, or a shard of each,
// numbering the clusters in the order of their first members from 1, as
// the batch does: a shard's first cluster follows those of the shards
// before it.
type clustersFn struct {
	Dir    string
	Shards int // 0: one file
}

func (fn *clustersFn) ProcessElement(ctx context.Context, shard int, clusters func(*clusterOut) bool, sizes func(*int, *int) bool) error {
	var cs []clusterOut
	var c clusterOut
	for clusters(&c) {
		if c.First >= 0 { // not an empty shard's value
			cs = append(cs, c)
		}
	}
	slices.SortFunc(cs, func(a, b clusterOut) int { return cmpInt(a.First, b.First) })
	var before int64
	var k, n int
	for sizes(&k, &n) {
		if k < shard {
			before += int64(n)
		}
	}
	for i := range cs {
		cs[i].Cluster.ID = before + int64(i) + 1
	}
	err := writeFile(ctx, shardPath(fn.Dir, clustersFile, shard, fn.Shards), func(w io.Writer) error {
		for i := range cs {
			b, err := encodeLine(&cs[i].Cluster)
			if err != nil {
				return err
			}
			if _, err := w.Write(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return writeFile(ctx, shardPath(fn.Dir, removedFile, shard, fn.Shards), func(w io.Writer) error {
		var buf []byte
		for i := range cs {
			c := &cs[i].Cluster
			for j, m := range c.Members {
				if j == cs[i].Rep { // by place: a copy may have the representative's id
					continue
				}
				buf = output.AppendRemoved(buf[:0], m, c)
				if _, err := w.Write(buf); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// statsFn writes stats.json from the run's counts: the batch's statistics
// but its timings and memory, which a pipeline's runner reports.
type statsFn struct {
	Path   string
	Method methodConfig
}

// oneKey keys a value for a transform that must see every value on one
// worker.
func oneKey(c count) (int, count) { return 0, c }

// count is a named count of statistics.
type count struct {
	Name string
	N    int64
}

func (fn *statsFn) ProcessElement(ctx context.Context, _ int, counts func(*count) bool) error {
	ms, err := fn.Method.stages()
	if err != nil {
		return err
	}
	st := engine.Stats{Method: ms.name(), Skipped: map[core.SkipReason]int{}, Pairs: map[core.Label]int{}}
	ms.report(&st)
	var c count
	var notKept int
	var firstUnlisted, firstDate, firstGzipStray, firstBzip2Stray string // exampleOf names
	for counts(&c) {
		n := int(c.N)
		switch name := c.Name; {
		case name == countRead:
			st.Read += n
		case name == countDocuments:
			st.Documents += n
		case name == countUnreadDates:
			st.UnreadDates += n
		case name == countUnlisted:
			st.Unlisted += n
		case strings.HasPrefix(name, exampleUnlisted):
			firstUnlisted = least(firstUnlisted, name)
		case strings.HasPrefix(name, exampleUnreadDate):
			firstDate = least(firstDate, name)
		case name == countGzipStray:
			st.GzipStrayBytes += n
		case strings.HasPrefix(name, exampleGzipStray):
			firstGzipStray = least(firstGzipStray, name)
		case name == countBzip2Stray:
			st.Bzip2StrayBytes += n
		case strings.HasPrefix(name, exampleBzip2Stray):
			firstBzip2Stray = least(firstBzip2Stray, name)
		case name == countCandidates:
			st.Candidates += n
		case name == countCopies:
			st.Copies += int(n)
		case name == countClusters:
			st.Clusters += n
		case name == countClustered:
			st.Clustered += n
		case name == countNotKept:
			notKept += n
		case strings.HasPrefix(name, countSkipped):
			st.Skipped[core.SkipReason(strings.TrimPrefix(name, countSkipped))] += n
		case strings.HasPrefix(name, countPairs):
			st.Pairs[core.Label(strings.TrimPrefix(name, countPairs))] += n
		}
	}
	st.Kept = st.Documents - notKept
	st.UnlistedExample, st.UnreadDatesExample = exampleText(firstUnlisted), exampleText(firstDate)
	st.GzipStrayBytesExample, st.Bzip2StrayBytesExample = exampleText(firstGzipStray), exampleText(firstBzip2Stray)
	for _, k := range slices.Collect(maps.Keys(st.Skipped)) {
		if st.Skipped[k] == 0 {
			delete(st.Skipped, k)
		}
	}
	return writeFile(ctx, fn.Path, func(w io.Writer) error {
		b, err := json.MarshalIndent(st, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	})
}

// least returns the lesser of two names, "" standing for none.
func least(a, b string) string {
	if a == "" || b < a {
		return b
	}
	return a
}

// ReadStats reads the stats.json a run wrote into dir: its counts, which
// the caller checks (documents read, files not read).
func ReadStats(ctx context.Context, dir string) (engine.Stats, error) {
	var st engine.Stats
	p := outPath(dir, statsFile)
	fs, err := filesystem.New(ctx, p)
	if err != nil {
		return st, err
	}
	defer fs.Close()
	b, err := filesystem.Read(ctx, fs, p)
	if err == nil {
		err = json.Unmarshal(b, &st)
	}
	if err != nil {
		return st, fmt.Errorf("reading %s: %w", p, err)
	}
	return st, nil
}

// Counter names of the clusters' statistics.
const (
	countClusters  = "clusters"
	countClustered = "clustered"
	countNotKept   = "not-kept"
)

// clusterCounts counts a cluster and its members.
func clusterCounts(c clusterOut, emit func(string, int64)) {
	emit(countClusters, 1)
	emit(countClustered, int64(len(c.Cluster.Members)))
}

// notKeptCount counts a document left out of kept.jsonl.
func notKeptCount(_ int64, _ bool, emit func(string, int64)) { emit(countNotKept, 1) }

// toCount makes a summed count a value.
func toCount(name string, n int64) count { return count{Name: name, N: n} }

// writeFile writes path through write, compressed when its name ends in
// .gz or .zst (output.Compressor); see writeRaw.
func writeFile(ctx context.Context, path string, write func(w io.Writer) error) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	return writeRaw(ctx, fs, path, func(w io.Writer) error {
		zw, err := output.Compressor(path, w)
		if err != nil {
			return err
		}
		if zw == nil {
			return write(w)
		}
		return errors.Join(write(zw), zw.Close())
	})
}

// writeRaw writes path in fs through write: to path plus ".tmp", then
// renamed to path, where the file system renames; else to path itself.
func writeRaw(ctx context.Context, fs filesystem.Interface, path string, write func(w io.Writer) error) error {
	commit, err := writeTemp(ctx, fs, path, write)
	if err != nil {
		return err
	}
	return commit()
}

// writeTemp writes path in fs through write, to path plus ".tmp" where the
// file system renames, and returns the func that renames it to path; where
// it does not, it writes path itself, and the func does nothing.
func writeTemp(ctx context.Context, fs filesystem.Interface, path string, write func(w io.Writer) error) (func() error, error) {
	rn, renames := fs.(filesystem.Renamer)
	tmp := path
	if renames {
		tmp = path + ".tmp"
	}
	f, err := fs.OpenWrite(ctx, tmp)
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	return func() error {
		if !renames {
			return nil
		}
		if err := rn.Rename(ctx, tmp, path); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		return nil
	}, nil
}

// outPath joins the output directory and a file name, in any file system.
func outPath(dir, name string) string {
	return strings.TrimSuffix(dir, "/") + "/" + name
}

// The output files, named as the batch names them.
var (
	pairsFile    = output.PairsFile
	clustersFile = output.ClustersFile
	keptFile     = output.KeptFile
	statsFile    = output.StatsFile
	removedFile  = output.RemovedFile
	rejectsFile  = output.RejectsFile
)
