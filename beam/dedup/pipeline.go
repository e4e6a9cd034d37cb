package dedup

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local paths
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"

	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/container"
)

func init() {
	for _, t := range []any{input{}, doc{}, member{}, keyed{}, half{}, found{}, node{}, link{}, clusterOut{}, labelPair{}, line{}, count{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	register.DoFn7x1[context.Context, input, func(int64, doc), func(int64, []byte), func(string, keyed), func(line), func(string, int64), error](&readFn{})
	register.Function3x0(spreadKeys)
	register.DoFn5x0[string, func(*keyed) bool, func(int64, member), func(int64, int64), func(string, int64)](&copiesFn{})
	register.DoFn3x0[int64, func(*member) bool, func(int64, int64)](&bucketFn{})
	register.Function5x0(laterFn)
	register.DoFn5x1[int64, func(*half) bool, func(*doc) bool, func(found), func(string, int64), error](&verifyFn{})
	register.Function3x0(bothWays)
	register.Function3x0(largeStar)
	register.Function3x0(smallStar)
	register.Function4x0(labelFn)
	register.Function6x0(crossFn)
	register.Function3x0(rootsFn)
	register.Function4x0(relabelFn)
	register.Function2x2(withoutDetail)
	register.Function4x0(withDoc)
	register.Function4x0(withRoot)
	register.DoFn5x1[int64, func(*node) bool, func(*link) bool, func(clusterOut), func(int64, bool), error](&clusterFn{})
	register.DoFn2x0[found, func(found)](&linkingFn{})
	register.Function2x0(dupLink)
	register.Function2x0(linkEnds)
	register.Function3x0(idOf)
	register.DoFn2x1[string, func(*int64) bool, error](&repeatedIDFn{})
	register.Function1x1(pairLine)
	register.Function4x0(keptLine)
	register.Function3x0(recordsCount)
	register.Function2x0(emptyLine)
	register.Function2x0(emptyCluster)
	register.Function2x1(shardOf)
	register.DoFn3x0[line, func(*int64, *int64) bool, func(int, line)](&shardFn{})
	register.DoFn3x0[clusterOut, func(*int64, *int64) bool, func(int, clusterOut)](&shardClusterFn{})
	register.DoFn3x1[context.Context, int, func(*line) bool, error](&writeFn{})
	register.DoFn4x1[context.Context, int, func(*clusterOut) bool, func(*int, *int) bool, error](&clustersFn{})
	register.DoFn3x1[context.Context, int, func(*count) bool, error](&statsFn{})
	register.Function2x0(clusterCounts)
	register.Function3x0(notKeptCount)
	register.Function2x1(toCount)
	register.Function1x2(oneKey)
	register.Emitter2[int64, doc]()
	register.Emitter2[int64, []byte]()
	register.Emitter2[int64, member]()
	register.Emitter2[string, int64]()
	register.Emitter2[int64, int64]()
	register.Emitter2[int64, half]()
	register.Emitter1[found]()
	register.Emitter1[labelPair]()
	register.Emitter2[int64, node]()
	register.Emitter2[int64, link]()
	register.Emitter1[clusterOut]()
	register.Emitter2[int64, bool]()
	register.Emitter1[line]()
	register.Emitter2[int, line]()
	register.Emitter2[int, clusterOut]()
	register.Iter1[member]()
	register.Iter1[int64]()
	register.Iter1[doc]()
	register.Iter1[half]()
	register.Iter1[node]()
	register.Iter1[link]()
	register.Iter1[bool]()
	register.Iter1[[]byte]()
	register.Iter1[labelPair]()
	register.Iter1[line]()
	register.Iter1[clusterOut]()
	register.Iter1[count]()
	register.Iter2[int64, int64]()
	register.Iter2[int, int]()
}

// Expand lists the files of the inputs, in the order the batch reads them:
// the inputs in turn, the files a glob matches in byte order of their
// names. An input that is the name of a file is that file, whatever
// characters it holds (a[1].jsonl, d?.jsonl); another that holds *, ? or [
// is a glob, whose matches leave out, as a shell's do, the files and
// directories whose names start with a dot where the glob's element does
// not (Spark's .part-00000.crc, the lock .out.lock), and the output
// directory out, its result files (pairs.jsonl ... stats.json, their
// shards and temporary files) and the run's stage: what a run into a
// directory its glob reads wrote there is not read by the next. It runs
// where the pipeline is built; an input that matches no file, or a file
// that is not there, is an error naming it, and a directory, a file whose
// name says another format than JSON Lines (news.csv, news.parquet), a
// file whose name says no format (part-00000) and whose first bytes say
// another (corpus.Sniff, which tells CSV by the column fields.Text) or a
// file given twice is an *InputError.
func Expand(ctx context.Context, inputs []string, out string, fields Fields) ([]string, error) {
	var files, from []string // from: the input each file is of, as given
	for _, in := range inputs {
		if !strings.ContainsAny(in, "*?[") || isFile(ctx, in) {
			files, from = append(files, in), append(from, in)
			continue
		}
		fs, err := filesystem.New(ctx, in)
		if err != nil {
			return nil, err
		}
		matched, err := fs.List(ctx, in)
		fs.Close()
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", in, err)
		}
		matched = slices.DeleteFunc(matched, func(m string) bool { return hidden(in, m) || ofOutput(m, out) })
		if len(matched) == 0 {
			return nil, fmt.Errorf("%s matches no file", in)
		}
		slices.Sort(matched)
		for _, m := range matched {
			files, from = append(files, m), append(from, in)
		}
	}
	if err := checkInputs(ctx, files, from, fields.Text); err != nil {
		return nil, err
	}
	return files, nil
}

// isFile reports whether p names a file (or a directory) as it is
// written, so that it is read as that file rather than as a glob.
func isFile(ctx context.Context, p string) bool {
	if isLocal(p) {
		_, err := os.Stat(p)
		return err == nil
	}
	fs, err := filesystem.New(ctx, p)
	if err != nil {
		return false
	}
	defer fs.Close()
	_, err = fs.Size(ctx, p)
	return err == nil
}

// hidden reports whether the glob's match m is a hidden file, or in a
// hidden directory, that a shell's glob leaves out: an element of its path
// starts with a dot where the glob's element does not.
func hidden(glob, m string) bool {
	if isLocal(glob) { // the local file system returns its matches cleaned ("./d/*" gives "d/x")
		glob, m = filepath.Clean(glob), filepath.Clean(m)
	}
	g, e := strings.Split(filepath.ToSlash(glob), "/"), strings.Split(filepath.ToSlash(m), "/")
	if len(g) != len(e) { // a file system whose * crosses a /: its name alone
		g, e = g[len(g)-1:], e[len(e)-1:]
	}
	for i := range e {
		if strings.HasPrefix(e[i], ".") && !strings.HasPrefix(g[i], ".") && e[i] != "." && e[i] != ".." {
			return true
		}
	}
	return false
}

// ofOutput reports whether the glob's match m is of the run into out: out
// itself, its lock (.out.lock beside it), a result file in it (isResult),
// or a stage in it (NewStage).
func ofOutput(m, out string) bool {
	if out == "" {
		return false
	}
	sm, so := samePath(m), samePath(out)
	if sm == so || isLocal(out) && sm == samePath(filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".lock")) {
		return true
	}
	i := strings.LastIndex(sm, "/")
	if i < 0 || strings.TrimSuffix(so, "/") != sm[:i] {
		return false
	}
	name := sm[i+1:]
	return isResult(name) || strings.HasPrefix(name, stagePrefix)
}

// Build adds the pipeline of o to scope s. o.Inputs are files (see
// Expand). The job writes its files into o.Stage when it is set, else
// into o.Out.
func Build(s beam.Scope, o Options) error {
	o, err := o.withDefaults()
	if err != nil {
		return err
	}
	mc, err := configOf(o.Method)
	if err != nil {
		return err
	}
	st, err := mc.stages()
	if err != nil {
		return err
	}
	ins := make([]input, len(o.Inputs))
	names := container.IDNames(o.Inputs)
	for i, p := range o.Inputs {
		ins[i] = input{Index: int64(i), Path: p, IDName: names[i]}
	}
	if len(ins) >= 1<<(63-ordBits) {
		return fmt.Errorf("dedup: %d inputs; at most %d", len(ins), 1<<(63-ordBits)-1)
	}
	files := beam.Reshuffle(s, beam.CreateList(s, ins))
	// Many copies of a document are matched as the batch matches them
	// under cluster.Any linking (engine.Method.Copies).
	copies := o.Link == cluster.Any && st.bucketLimit() > 0
	docs, lines, keyed, rejects, counts := beam.ParDo5(s,
		&readFn{Method: mc, Fields: o.Fields, MaxBytes: o.MaxBytes, MinChars: o.MinChars, Copies: copies}, files)

	// candidates → distinct pairs joined to both details → verified pairs
	var inBuckets, firsts beam.PCollection
	if copies {
		var copyCounts beam.PCollection
		inBuckets, firsts, copyCounts = beam.ParDo3(s, &copiesFn{Limit: st.bucketLimit()}, beam.GroupByKey(s, keyed))
		counts = beam.Flatten(s, counts, copyCounts)
	} else {
		inBuckets = beam.ParDo(s, spreadKeys, keyed)
	}
	byLater := beam.ParDo(s, &bucketFn{Limit: st.bucketLimit()}, beam.GroupByKey(s, inBuckets))
	if copies {
		byLater = beam.Flatten(s, byLater, firsts)
	}
	halves := beam.ParDo(s, laterFn, beam.CoGroupByKey(s, byLater, docs))
	pairs, verifyCounts := beam.ParDo2(s, &verifyFn{Method: mc, Window: int64(o.Window.Seconds())},
		beam.CoGroupByKey(s, halves, docs))

	// connected components → clusters by the linking and keep policies
	linking := beam.ParDo(s, &linkingFn{SimilarIsCopy: o.SimilarIsCopy}, pairs)
	roots := components(s, beam.ParDo(s, linkEnds, linking), o.Rounds)
	// An id two documents hold fails the job, as neardup dedup refuses it.
	beam.ParDo0(s, &repeatedIDFn{Inputs: o.Inputs}, beam.GroupByKey(s, beam.ParDo(s, idOf, docs)))
	members := docs
	if o.Keep != cluster.Central { // the only policy that reads sketches
		members = beam.ParDo(s, withoutDetail, docs)
	}
	nodes := beam.ParDo(s, withDoc, beam.CoGroupByKey(s, roots, members))
	links := beam.ParDo(s, withRoot, beam.CoGroupByKey(s, beam.ParDo(s, dupLink, linking), roots))
	clusters, notKept := beam.ParDo2(s, &clusterFn{Method: mc, Keep: string(o.Keep), Link: string(o.Link)},
		beam.CoGroupByKey(s, nodes, links))
	kept := beam.ParDo(s, keptLine, beam.CoGroupByKey(s, lines, notKept))

	dir := o.Out
	if o.Stage != "" {
		dir = o.Stage
	}
	out := outputs{dir: dir, shards: o.Shards, records: beam.ParDo(s, recordsCount, counts)}
	out.lines(s, pairsFile, beam.ParDo(s, pairLine, pairs))
	out.lines(s, o.Kept, kept)
	out.lines(s, rejectsFile, rejects)
	out.clusters(s, clusters)
	all := beam.Flatten(s, counts, verifyCounts, beam.ParDo(s, clusterCounts, clusters), beam.ParDo(s, notKeptCount, notKept))
	one := beam.ParDo(s, oneKey, beam.Flatten(s, beam.ParDo(s, toCount, stats.SumPerKey(s, all)), beam.Create(s, count{})))
	beam.ParDo0(s, &statsFn{Path: outPath(dir, statsFile), Method: mc}, beam.GroupByKey(s, one))
	return nil
}
