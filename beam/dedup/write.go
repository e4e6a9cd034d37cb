package dedup

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/output"
	"github.com/neardup/neardup/method/minhash"
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

// writeFn writes one output file from all its lines, on one worker: to a
// temporary name, renamed when complete where the file system can.
type writeFn struct {
	Path string
}

func (fn *writeFn) ProcessElement(ctx context.Context, _ int, lines func(*line) bool) error {
	var ls []line
	var l line
	for lines(&l) {
		ls = append(ls, l)
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
	return writeFile(ctx, fn.Path, func(w *bufio.Writer) error {
		for _, l := range ls {
			if _, err := w.Write(l.Line); err != nil {
				return err
			}
		}
		return nil
	})
}

// clustersFn writes clusters.jsonl, numbering the clusters in the order of
// their first members from 1, as the batch does.
type clustersFn struct {
	Path string
}

func (fn *clustersFn) ProcessElement(ctx context.Context, _ int, clusters func(*clusterOut) bool) error {
	var cs []clusterOut
	var c clusterOut
	for clusters(&c) {
		if c.First >= 0 { // not write's empty value
			cs = append(cs, c)
		}
	}
	slices.SortFunc(cs, func(a, b clusterOut) int { return cmpInt(a.First, b.First) })
	return writeFile(ctx, fn.Path, func(w *bufio.Writer) error {
		for i := range cs {
			cs[i].Cluster.ID = int64(i + 1)
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
}

// statsFn writes stats.json from the run's counts: the batch's statistics
// but its timings and memory, which a pipeline's runner reports.
type statsFn struct {
	Path  string
	Bands string
}

// count is a named count of statistics.
type count struct {
	Name string
	N    int64
}

func (fn *statsFn) ProcessElement(ctx context.Context, _ int, counts func(*count) bool) error {
	st := engine.Stats{Method: minhash.Name, Skipped: map[core.SkipReason]int{}, Pairs: map[core.Label]int{}, Bands: fn.Bands}
	var c count
	var notKept int
	for counts(&c) {
		n := int(c.N)
		switch name := c.Name; {
		case name == countRead:
			st.Read += n
		case name == countDocuments:
			st.Documents += n
		case name == countUnreadDates:
			st.UnreadDates += n
		case name == countCandidates:
			st.Candidates += n
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
	for _, k := range slices.Collect(maps.Keys(st.Skipped)) {
		if st.Skipped[k] == 0 {
			delete(st.Skipped, k)
		}
	}
	return writeFile(ctx, fn.Path, func(w *bufio.Writer) error {
		b, err := json.MarshalIndent(st, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	})
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

// writeFile writes path through write: to path plus ".tmp", then renamed to
// path, where the file system renames; else to path itself.
func writeFile(ctx context.Context, path string, write func(w *bufio.Writer) error) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	rn, renames := fs.(filesystem.Renamer)
	tmp := path
	if renames {
		tmp = path + ".tmp"
	}
	f, err := fs.OpenWrite(ctx, tmp)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && renames {
		err = rn.Rename(ctx, tmp, path)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
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
)
