package job

import (
	"bufio"
	"encoding/json"
	"fmt"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/output"
	"github.com/neardup/neardup/internal/report"
)

// wantTexts records which documents the report will show, and whose
// titles the titles file lists, before the second reading collects them.
func (run *runner) wantTexts(res *engine.Result) {
	if run.o.Report != "" {
		run.wanted = run.o.ReportLimits.Wanted(res.Clusters)
		run.docs = make(map[string]core.Document, len(run.wanted))
	}
	if run.o.TitlesCSV != "" {
		run.titles = map[string]string{}
		for _, p := range res.Pairs {
			if p.Label == core.Duplicate {
				run.titles[p.A], run.titles[p.B] = "", ""
			}
		}
	}
}

// writeReport writes the HTML report with the result set.
func (run *runner) writeReport(out *output.Set, res *engine.Result, st engine.Stats) error {
	all, skipped := 0, 0
	for _, n := range st.Skipped {
		all += n
	}
	for _, n := range st.SkippedReading {
		skipped += n
	}
	options, err := json.Marshal(run.o.Method) // as an index stores them: the reasons quote their bounds
	if err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	r := report.Report{
		Summary: report.Summary{Method: st.Method, Inputs: run.o.Inputs, Documents: st.Documents,
			NotCompared: all - skipped, Skipped: skipped,
			Duplicates: st.Pairs[core.Duplicate], Similar: st.Pairs[core.Similar], Clusters: st.Clusters,
			Clustered: st.Clustered, Kept: st.Kept, Seconds: time.Since(run.started).Seconds()},
		Clusters: res.Clusters,
		Pairs:    res.Pairs,
		Options:  string(options),
		Docs:     run.docs,
		Limits:   run.o.ReportLimits,
		More:     run.o.ReportMore,
	}
	return out.Extra(run.o.Report, func(w *bufio.Writer) error { return report.Write(w, r) })
}
