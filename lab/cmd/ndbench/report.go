package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/eval"
)

// benchReport is everything one benchmark run measured; --json writes it.
type benchReport struct {
	Machine  machineInfo `json:"machine"`
	Corpus   corpusInfo  `json:"corpus"`
	Baseline measurement `json:"baseline"`
	// Floor is the baseline that also hashes every word 5-gram (kindFloor),
	// measured with --peer.
	Floor   *measurement   `json:"floor,omitempty"`
	Methods []methodResult `json:"methods"`
	Peer    *methodResult  `json:"peer,omitempty"` // the Go MinHash peer, with --peer
	Index   []indexResult  `json:"index,omitempty"`
}

// machineInfo says what the numbers were measured on and how busy it was.
type machineInfo struct {
	CPUs       int    `json:"cpus"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	GoVersion  string `json:"go_version"`
	Started    string `json:"started"`              // RFC 3339, UTC
	LoadStart  string `json:"load_start,omitempty"` // 1, 5 and 15 minute load averages
	LoadEnd    string `json:"load_end,omitempty"`
}

// corpusInfo is the corpus measured on.
type corpusInfo struct {
	corpusSpec
	corpusFiles
}

// measurement is the cost of one child run.
type measurement struct {
	Records     int     `json:"records"`   // records read
	Documents   int     `json:"documents"` // records used
	Skipped     int     `json:"skipped"`
	WallSeconds float64 `json:"wall_seconds"`
	CPUSeconds  float64 `json:"cpu_seconds"`  // user + system
	PeakRSSMiB  float64 `json:"peak_rss_mib"` // rusage of the child as its parent sees it
	// SelfPeakRSSMiB is the child's own VmHWM (Linux); it leaves out the
	// parent's memory that rusage counts from before exec.
	SelfPeakRSSMiB float64       `json:"self_peak_rss_mib,omitempty"`
	DocsPerSecond  float64       `json:"docs_per_second"` // records / wall
	MBPerSecond    float64       `json:"mb_per_second"`   // corpus file MB (1e6 bytes) / wall
	Load           string        `json:"load_before"`     // load averages when it started
	Stats          *engine.Stats `json:"job_stats,omitempty"`
	Shingles       int64         `json:"shingles,omitempty"` // the floor's word 5-grams hashed
}

// methodResult is one method's measurement and scores.
type methodResult struct {
	Method string `json:"method"`
	Out    string `json:"out"` // its output directory
	measurement
	WallRatio float64      `json:"wall_ratio_to_baseline"`
	CPURatio  float64      `json:"cpu_ratio_to_baseline"`
	Eval      *eval.Result `json:"eval,omitempty"`
	Error     string       `json:"error,omitempty"`
}

func (rep *benchReport) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// writeText writes the header lines, the main table, recall by op and
// the job's stage times.
func (rep *benchReport) writeText(w io.Writer) error {
	ew := &errWriter{w: w}
	c := rep.Corpus
	fmt.Fprintf(ew, "corpus: %d documents (%d originals, %d synthesised, %d copies, %d templated negatives), %.1f MB, seed %d, from %s\n",
		c.Gen.Documents, c.Gen.Originals, c.Gen.Synthesised, c.Gen.Copies, c.Gen.TemplateNegatives,
		float64(c.Bytes)/1e6, c.Seed, sources(c.corpusSpec))
	fmt.Fprintf(ew, "        %s\n", c.Docs)
	m := rep.Machine
	fmt.Fprintf(ew, "machine: %d CPUs, GOMAXPROCS %d, %s; load average %s at start, %s at end\n\n",
		m.CPUs, m.GOMAXPROCS, m.GoVersion, orUnknown(m.LoadStart), orUnknown(m.LoadEnd))
	rep.writeMain(ew)
	rep.writeIndex(ew)
	rep.writeByOp(ew)
	rep.writeStages(ew)
	return ew.err
}

func sources(s corpusSpec) string {
	var out []string
	if s.Reuters != "" {
		out = append(out, "Reuters "+s.Reuters)
	}
	if s.BBC != "" {
		out = append(out, "BBC "+s.BBC)
	}
	return strings.Join(out, " and ")
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// writeMain writes one row for the baseline and one per method.
func (rep *benchReport) writeMain(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "method\tdocs\twall s\tdocs/s\tMB/s\tCPU s\tpeak RSS MiB\twall/base\tCPU/base\tprecision\trecall\tF1\tB3 F1\tload before\t")
	b := rep.Baseline
	fmt.Fprintf(tw, "(read+decode)\t%d\t%s\t1.00\t1.00\t\t\t\t\t%s\t\n", b.Records, costCells(b), firstField(b.Load))
	if f := rep.Floor; f != nil {
		fmt.Fprintf(tw, "(+5-gram hashes)\t%d\t%s\t%s\t\t\t\t\t%s\t\n", f.Records, costCells(*f), ratioCells(*f, b), firstField(f.Load))
	}
	for _, r := range rep.Methods {
		if r.Error != "" && r.WallSeconds == 0 {
			fmt.Fprintf(tw, "%s\tfailed\t\t\t\t\t\t\t\t\t\t\t\t\t\n", r.Method)
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%.2f\t%.2f\t%s\t%s\t\n", r.Method, r.Records, costCells(r.measurement),
			r.WallRatio, r.CPURatio, qualityCells(r.Eval), firstField(r.Load))
	}
	if r := rep.Peer; r != nil && !(r.Error != "" && r.WallSeconds == 0) {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%.2f\t%.2f\t%s\t%s\t\n", r.Method, r.Records, costCells(r.measurement),
			r.WallRatio, r.CPURatio, qualityCells(r.Eval), firstField(r.Load))
	}
	tw.Flush()
	for _, r := range append(rep.Methods, rep.peerRows()...) {
		if r.Error != "" {
			fmt.Fprintf(w, "%s: %s\n", r.Method, r.Error)
		}
	}
	if p := rep.Peer; p != nil && p.Error == "" {
		if f := rep.Floor; f != nil && f.WallSeconds > 0 && f.CPUSeconds > 0 {
			fmt.Fprintf(w, "the floor (reading, decoding, hashing %d word 5-grams) against %s, same run: %.1f× faster by wall time, %.1f× by CPU time: no method that reads every word can be faster than that\n",
				f.Shingles, peerName, p.WallSeconds/f.WallSeconds, p.CPUSeconds/f.CPUSeconds)
		}
		for _, r := range rep.Methods {
			if r.Error == "" && r.WallSeconds > 0 && r.CPUSeconds > 0 {
				fmt.Fprintf(w, "%s against %s, same run: %.1f× faster by wall time, %.1f× by CPU time\n",
					r.Method, peerName, p.WallSeconds/r.WallSeconds, p.CPUSeconds/r.CPUSeconds)
			}
		}
	}
	fmt.Fprintln(w)
}

// peerRows is the peer's row, if it ran.
func (rep *benchReport) peerRows() []methodResult {
	if rep.Peer == nil {
		return nil
	}
	return []methodResult{*rep.Peer}
}

// ratioCells are the wall/base and CPU/base cells of m against base.
func ratioCells(m, base measurement) string {
	if base.WallSeconds <= 0 || base.CPUSeconds <= 0 {
		return "\t"
	}
	return fmt.Sprintf("%.2f\t%.2f", m.WallSeconds/base.WallSeconds, m.CPUSeconds/base.CPUSeconds)
}

// costCells are the wall, docs/s, MB/s, CPU and RSS cells of m.
func costCells(m measurement) string {
	return fmt.Sprintf("%.2f\t%.0f\t%.2f\t%.2f\t%.0f", m.WallSeconds, m.DocsPerSecond, m.MBPerSecond,
		m.CPUSeconds, m.PeakRSSMiB)
}

// qualityCells are the precision, recall, F1 and B-cubed F1 cells.
func qualityCells(r *eval.Result) string {
	if r == nil {
		return "\t\t\t"
	}
	b3 := ""
	if r.Clusters != nil {
		b3 = fmt.Sprintf("%.4f", r.Clusters.BCubedF1)
	}
	prec := "-" // undefined: nothing predicted
	if p := r.Pairs.Precision; p != nil {
		prec = fmt.Sprintf("%.4f", *p)
	}
	return fmt.Sprintf("%s\t%.4f\t%.4f\t%s", prec, r.Pairs.Recall, r.Pairs.F1, b3)
}

func firstField(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

// writeByOp writes pair recall per edit op, a column per method, and the
// templated negatives each method merged.
func (rep *benchReport) writeByOp(w io.Writer) {
	var scored []methodResult
	ops := map[string]int64{}
	for _, r := range rep.Methods {
		if r.Eval == nil {
			continue
		}
		scored = append(scored, r)
		for _, b := range r.Eval.By {
			ops[b.Value] = b.Truth
		}
	}
	if len(scored) == 0 {
		return
	}
	names := make([]string, 0, len(ops))
	for op := range ops {
		names = append(names, op)
	}
	sort.Strings(names)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "recall by op\ttruth pairs\t")
	for _, r := range scored {
		fmt.Fprintf(tw, "%s\t", r.Method)
	}
	fmt.Fprintln(tw)
	for _, op := range names {
		fmt.Fprintf(tw, "%s\t%d\t", op, ops[op])
		for _, r := range scored {
			fmt.Fprintf(tw, "%s\t", recallOf(r.Eval.By, op))
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprint(tw, "negatives merged\t\t")
	for _, r := range scored {
		if n := r.Eval.Negatives; n != nil {
			fmt.Fprintf(tw, "%d/%d\t", n.Merged, n.Total)
		} else {
			fmt.Fprint(tw, "-\t")
		}
	}
	fmt.Fprintln(tw)
	tw.Flush()
	fmt.Fprintln(w)
}

func recallOf(by []eval.Recall, value string) string {
	i := slices.IndexFunc(by, func(r eval.Recall) bool { return r.Value == value })
	if i < 0 {
		return "-"
	}
	return fmt.Sprintf("%.4f", by[i].Recall)
}

// writeStages writes each job's own stage times and counts.
func (rep *benchReport) writeStages(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "method\tread+sketch s\tmatch s\twrite s\tcandidates\tduplicate pairs\tsimilar pairs\tclusters\tskipped\t")
	some := false
	for _, r := range rep.Methods {
		st := r.Stats
		if st == nil {
			continue
		}
		some = true
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%.2f\t%d\t%d\t%d\t%d\t%d\t\n", r.Method,
			st.Seconds["read_and_sketch"], st.Seconds["candidates_verify_group"], st.Seconds["write"],
			st.Candidates, st.Pairs["duplicate"], st.Pairs["similar"], st.Clusters, r.Skipped)
	}
	if some {
		tw.Flush()
	}
}

// errWriter keeps the first write error and drops later writes.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return len(p), nil
	}
	_, e.err = e.w.Write(p)
	return len(p), nil
}
