package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/dustin/go-humanize"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/job"
	"github.com/neardup/neardup/internal/methodflags"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/internal/output"
	"github.com/neardup/neardup/internal/profile"
	"github.com/neardup/neardup/internal/report"
)

// dedupCmd is `neardup dedup`: batch near-duplicate detection.
type dedupCmd struct {
	Inputs []string `type:"operands" arg:"" name:"input" help:"JSONL, JSON, CSV/TSV, Parquet, .txt/.md files, Reuters SGML (.sgm), HTML pages, WARC files, web feeds (.rss, .atom), directories, .zip, .tar, .tar.gz, .gz, .zst or .bz2 archives (nested in any way); - for stdin."`
	Out    string   `short:"o" default:"out" help:"Output directory for pairs.jsonl, clusters.jsonl, kept.jsonl, removed.jsonl, rejects.jsonl and stats.json."`
	Kept   string   `default:"kept.jsonl" enum:"${kept_names}" help:"Name of the de-duplicated corpus in the output directory; its extension says its format: ${kept_names} (Parquet inputs of one schema are copied row by row)."`

	Method          string `default:"${default_method}" enum:"${methods}" help:"Detection method: ${methods}."`
	Keep            string `default:"" enum:",longest,earliest,first,central" help:"Which member represents a cluster: longest (the most text; the default, but central for cosine), earliest (its original, the member published first), first (read first) or central (the highest mean similarity to the other members, scored as the method scores a pair; in a cluster of more than 64, to the first 64 read; of members that tie, the longest, then the one published first)."`
	Link            string `default:"any" enum:"any,anchor,majority" help:"How a document joins a cluster: any duplicate link (clusters are connected groups), a link to the cluster's first member (anchor), or links to at least half of its members, of one larger than the method's --bucket-limit half that many (majority)."`
	Profile         string `default:"news" enum:"news,corpus" help:"news: the methods' defaults, with the rules that keep apart two reports of one template (other figures, names, days) and a similar label; corpus (training data): those rules off, no similar label, no containment rule: one score at one --threshold decides every copy, and the banding follows it; a similar label given back (--similar) counts as a copy when choosing what to keep; rarewords' similar matches (below its --rule) are never copies. Method flags given win."`
	OnDuplicateID   string `name:"on-duplicate-id" default:"fail" enum:"fail,skip,rename" help:"A document whose id an earlier one has: fail stops the run at it, naming both places (the default: which of the two is meant, a run cannot tell); skip leaves it out (listed in rejects.jsonl); rename gives it the id with #2 (#3 ...) appended."`
	IDScope         string `name:"id-scope" default:"run" enum:"run,file" help:"Where ids are unique: run (every input) or file (each file numbers its own records: a document's id becomes FILE#ID, FILE the file's path relative to the directory holding the input)."`
	Memory          string `help:"Keep the run within about this much memory, e.g. 4GiB or 500MB (minhash, simhash): past half of it, sketches and band keys go to disk in the output's work folder (.OUT.work beside OUT), and matching reads them back a share at a time. The results are the same; the default is no limit. At least 64MiB; a budget the run outgrows (its live heap past 90 % of it, what cannot spill: the document table, the sketches held, the pairs) is given up with a warning, rather than the collector running without pause, and the run's end names one that would do."`
	Resume          bool   `help:"Keep checkpoints of the first reading (the sketch stage) in the output's work folder (.OUT.work beside OUT), every 100,000 records, and continue from the last one when an interrupted run of the same inputs and options left one there: give the same command again. Other inputs or options are refused. The results are those of a run never interrupted."`
	CheckpointEvery int    `name:"checkpoint-every" hidden:"" default:"${default_checkpoint_every}" help:"Records between two checkpoints of --resume."`
	MaxStream       string `name:"max-stream" default:"${default_max_stream}" help:"Stop when standard input and pipes (mkfifo, <(zcat x.gz)), which are read once and copied to temporary files (in TMPDIR) for the second pass, give more than this much together, e.g. 100GiB or 500MB: a stream that never ends would fill the disk."`
	Window          string `help:"Pair only documents dated at most this far apart, e.g. 3d, 36h, 1w, 90min, 6mo (m alone is refused: min or mo); undated documents pair with any."`
	stubFlags
	kong.Plugins

	inputFlags
	Report         string `help:"Also write an HTML report of the clusters with side-by-side diffs to this file."`
	ReportClusters int    `name:"report-clusters" default:"${default_report_clusters}" help:"Clusters the report shows, the largest first; 0 shows every one."`
	ReportMembers  int    `name:"report-members" default:"${default_report_members}" help:"Members of a cluster the report shows beside its representative; 0 shows every one."`
	TitlesCSV      string `name:"titles-csv" help:"Also write the titles of the duplicate pairs to this CSV file (a,b,score,title_a,title_b: the ids, the score and the titles)."`
	Matrix         string `help:"Also write the similarity matrix of the reported pairs to this JSON file: a row for each document in a pair, labelled with its id (at most 20000 such documents; past that the other results are written, the matrix is not, and the run exits 1)."`
	CPUProfile     string `name:"cpuprofile" hidden:"" help:"Write a CPU profile to this file."`

	flags *methodflags.Flags
}

// Validate refuses an empty -o; kong calls it after parsing.
func (c *dedupCmd) Validate() error { return checkOut(c.Out) }

// Run turns the flags into job options and runs the job.
func (c *dedupCmd) Run(g *globals, kctx *kong.Context) error {
	c.noteGiven(kctx)
	switch {
	case c.ReportClusters < 0:
		return usageError{fmt.Sprintf("--report-clusters must be 0 or more (0: all), not %d", c.ReportClusters)}
	case c.ReportMembers < 0:
		return usageError{fmt.Sprintf("--report-members must be 0 or more (0: all), not %d", c.ReportMembers)}
	}
	spec, err := methods.Lookup(c.Method)
	if err != nil {
		return usageError{err.Error()}
	}
	cfg, err := profile.Apply(spec.Defaults(), c.Profile)
	if err != nil {
		return err
	}
	if cfg, err = c.flags.Apply(cfg, methods.All); err != nil {
		return err
	}
	co, err := c.corpusOptions()
	if err != nil {
		return err
	}
	walk := inputWalk{outDir: c.Out, own: func(path string) bool { return output.Wrote(c.Out, path) || output.Earlier(path) }}
	if err := refuseInputAsOutput(c.Inputs, walk, outputFile{"--report", c.Report}, outputFile{"--titles-csv", c.TitlesCSV},
		outputFile{"--matrix", c.Matrix}, outputFile{"--cpuprofile", c.CPUProfile}); err != nil {
		return err
	}
	if err := refuseInputInOutputDir(c.Inputs, c.Out); err != nil {
		return err
	}
	window, err := parseWindow(c.Window)
	if err != nil {
		return err
	}
	memory, err := parseMemory(c.Memory)
	if err != nil {
		return err
	}
	if co.MaxStreamCopy, err = parseMaxStream(c.MaxStream); err != nil {
		return err
	}
	o := job.Options{
		Memory:          memory,
		Resume:          c.Resume,
		CheckpointEvery: c.CheckpointEvery,
		Link:            cluster.Linking(c.Link),
		Window:          window,
		MinChars:        c.minChars(),
		SimilarIsCopy:   profile.SimilarIsCopy(c.Profile, slices.Contains(c.flags.Given(), "similar")),
		Inputs:          c.Inputs,
		Out:             c.Out,
		Kept:            c.Kept,
		OnDuplicateID:   c.OnDuplicateID,
		IDScope:         c.IDScope,
		Corpus:          co,
		Method:          cfg,
		Keep:            cluster.Policy(c.Keep),
		Strict:          c.Strict,
		Workers:         c.Workers,
		Warn:            visibleLines{os.Stderr},
		MaxWarnings:     c.maxWarnings(),
		Report:          c.Report,
		ReportLimits:    report.Limits{Clusters: allIfZero(c.ReportClusters), Members: allIfZero(c.ReportMembers)},
		ReportMore:      "--report-clusters and --report-members show more (0: all).",
		TitlesCSV:       c.TitlesCSV,
		Matrix:          c.Matrix,
	}
	if !g.quiet {
		o.Progress = os.Stderr
	}
	if c.CPUProfile != "" {
		stop, err := startCPUProfile(c.CPUProfile)
		if err != nil {
			return err
		}
		defer stop()
	}
	return runDedup(g.ctx, o)
}

// parseMemory reads --memory: a size with a unit, binary (KiB, MiB, GiB)
// or decimal (kB, MB, GB); "" is no budget.
func parseMemory(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	n, err := humanize.ParseBytes(s)
	if err != nil || n == 0 || n > 1<<62 {
		return 0, usageError{fmt.Sprintf("--memory %q: want a size such as 4GiB, 512MiB or 8GB", s)}
	}
	if n < job.MinMemory {
		return 0, usageError{fmt.Sprintf("--memory %s: below the least a run needs, %s (reading buffers, one share of the spilled keys at a time, the collector's room)",
			s, humanize.IBytes(job.MinMemory))}
	}
	return int64(n), nil
}

// parseMaxStream reads --max-stream: a size with a unit, binary (KiB, MiB,
// GiB) or decimal (kB, MB, GB).
func parseMaxStream(s string) (int64, error) {
	n, err := humanize.ParseBytes(s)
	if err != nil || n == 0 || n > 1<<62 {
		return 0, usageError{fmt.Sprintf("--max-stream %q: want a size such as 32GiB, 500MiB or 100GB", s)}
	}
	return int64(n), nil
}

// allIfZero is a report limit flag as report.Limits takes it: 0 is all.
func allIfZero(n int) int {
	if n == 0 {
		return report.All
	}
	return n
}

// runDedup runs the job and prints a one-line summary on stderr.
func runDedup(ctx context.Context, o job.Options) error {
	st, err := job.Run(ctx, o)
	if err != nil && !errors.As(err, new(*job.MatrixError)) {
		return err
	}
	// A run that could not write its matrix put its other results in
	// place: the summary says what they hold, the error (exit 1) why the
	// matrix is missing.
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "%s, %d duplicate and %d similar pairs, %s, %d kept → %s\n", documentsNote(st),
			st.Pairs["duplicate"], st.Pairs["similar"], count(st.Clusters, "cluster", "clusters"), st.Kept, o.Out)
	}
	return err
}

// documentsNote says how many documents a run read and, apart, how many of
// them it did not compare and how many records it skipped while reading,
// which are no documents, each with why: "13 records: 10 documents, 2 not
// compared (2 too-short), 3 skipped (3 empty)"; "3000 documents" when
// every record was a document compared.
func documentsNote(st engine.Stats) string {
	notCompared := maps.Clone(st.Skipped)
	for r, n := range st.SkippedReading {
		notCompared[r] -= n
	}
	var b strings.Builder
	skipped, why := reasonsNote(st.SkippedReading)
	if skipped > 0 {
		fmt.Fprintf(&b, "%d records: ", st.Read)
	}
	b.WriteString(count(st.Documents, "document", "documents"))
	if n, why := reasonsNote(notCompared); n > 0 {
		fmt.Fprintf(&b, ", %d not compared (%s)", n, why)
	}
	if skipped > 0 {
		fmt.Fprintf(&b, ", %d skipped (%s)", skipped, why)
	}
	return b.String()
}

// reasonsNote returns how many skips counts holds and why, the commonest
// reason first: 3, "2 empty, 1 too-short".
func reasonsNote(counts map[core.SkipReason]int) (int, string) {
	reasons := slices.Collect(maps.Keys(counts))
	slices.SortFunc(reasons, func(a, b core.SkipReason) int {
		return cmp.Or(cmp.Compare(counts[b], counts[a]), cmp.Compare(a, b))
	})
	n, parts := 0, make([]string, 0, len(reasons))
	for _, r := range reasons {
		if k := counts[r]; k > 0 {
			n += k
			parts = append(parts, fmt.Sprintf("%d %s", k, r))
		}
	}
	return n, strings.Join(parts, ", ")
}
