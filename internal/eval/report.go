package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/neardup/neardup/internal/diff"
)

// Report is the evaluation of one or more predictions against one truth.
type Report struct {
	Truth   TruthSummary `json:"truth"`
	Results []Result     `json:"results"`
}

// TruthSummary describes the truth a report scored against.
type TruthSummary struct {
	Form      string   `json:"form"`                // "clusters" or "pairs"
	Documents int      `json:"documents,omitempty"` // cluster form
	Clusters  int      `json:"clusters,omitempty"`  // cluster form, singletons included
	Pairs     int64    `json:"pairs"`               // duplicate pairs
	By        string   `json:"by,omitempty"`
	Direct    bool     `json:"direct,omitempty"`  // the breakdown counts only pairs with a member without values
	Without   []string `json:"without,omitempty"` // documents with these values are left out of the breakdown
}

// NewReport evaluates every prediction against t.
func NewReport(t *Truth, preds []*Prediction) *Report {
	rep := &Report{Truth: TruthSummary{Form: "clusters", Documents: t.Documents(), Clusters: t.Clusters(), By: t.by,
		Direct: t.direct, Without: t.withoutNames()}}
	if t.Pairs() {
		rep.Truth = TruthSummary{Form: "pairs", By: t.by}
	}
	for _, p := range preds {
		r := Evaluate(t, p)
		rep.Truth.Pairs = r.Pairs.Truth
		rep.Results = append(rep.Results, r)
	}
	return rep
}

// WriteJSON writes the report as indented JSON.
func (rep *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// WriteText writes the report as aligned tables for a terminal.
func (rep *Report) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	t := rep.Truth
	if t.Form == "pairs" {
		fmt.Fprintf(ew, "truth: %s\n\n", plural(int(t.Pairs), "labelled duplicate pair", "labelled duplicate pairs"))
	} else {
		fmt.Fprintf(ew, "truth: %s in %s, %s\n\n", plural(t.Documents, "document", "documents"),
			plural(t.Clusters, "cluster", "clusters"), plural(int(t.Pairs), "duplicate pair", "duplicate pairs"))
	}
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "prediction\tkind\tpredicted\tcorrect\tprecision\trecall\tF1\tARI\tB3 prec\tB3 recall\tB3 F1\t")
	for _, r := range rep.Results {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.4f\t%.4f\t%s\t", shown(r.Name), r.Kind, commas(r.Pairs.Predicted),
			commas(r.Pairs.Correct), undefined(r.Pairs.Precision), r.Pairs.Recall, r.Pairs.F1, optional(r.Clusters, func(c *ClusterScores) float64 { return c.ARI }))
		fmt.Fprintf(tw, "%s\t%s\t%s\t\n", optional(r.Clusters, func(c *ClusterScores) float64 { return c.BCubedPrecision }),
			optional(r.Clusters, func(c *ClusterScores) float64 { return c.BCubedRecall }),
			optional(r.Clusters, func(c *ClusterScores) float64 { return c.BCubedF1 }))
	}
	tw.Flush()
	rep.writeNotes(ew)
	rep.writeWeighted(ew)
	if t.By != "" {
		rep.writeBreakdown(ew)
	}
	return ew.err
}

// writeNotes explains the numbers a reader might misread.
func (rep *Report) writeNotes(w io.Writer) {
	for _, r := range rep.Results {
		var notes []string
		if r.ComponentClusters && r.Clusters != nil {
			notes = append(notes, "cluster scores use connected components of the pairs")
		}
		if r.Negatives != nil {
			notes = append(notes, fmt.Sprintf("%d of %d must-not-link pairs (templated negatives) merged", r.Negatives.Merged, r.Negatives.Total))
		}
		if r.UnknownIDs > 0 {
			notes = append(notes, plural(r.UnknownIDs, "distinct id", "distinct ids")+" not in the truth ignored")
		}
		if r.Overlaps > 0 {
			notes = append(notes, plural(r.Overlaps, "document", "documents")+" in two clusters (first kept)")
		}
		if r.SkippedSimilar > 0 {
			notes = append(notes, plural(r.SkippedSimilar, "similar pair", "similar pairs")+" not counted (--include-similar counts them)")
		}
		if len(notes) > 0 {
			fmt.Fprintf(w, "%s: %s\n", shown(r.Name), strings.Join(notes, "; "))
		}
	}
}

// writeWeighted writes the weighted estimates of a pair-form truth, one
// row per prediction.
func (rep *Report) writeWeighted(w io.Writer) {
	if len(rep.Results) == 0 || rep.Results[0].Weighted == nil {
		return
	}
	first := rep.Results[0].Weighted
	fmt.Fprintf(w, "\nweighted: %s in %s, each counting its weight (Horvitz-Thompson totals);\n"+
		"95 %% intervals by linearisation of each ratio%s\n", plural(first.Pairs, "labelled pair", "labelled pairs"), plural(first.Strata, "stratum", "strata"),
		map[bool]string{true: ", within strata", false: ""}[first.Strata > 1])
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "prediction\tpredicted\tduplicates\tcorrect\tprecision\trecall\tF1\t")
	for _, r := range rep.Results {
		x := r.Weighted
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", shown(r.Name), weight(x.Predicted), weight(x.Truth), weight(x.Correct),
			optionalInterval(x.Precision), interval(x.Recall), interval(x.F1))
	}
	tw.Flush()
	for _, r := range rep.Results {
		if note := narrowNote(r.Weighted.Narrow); note != "" {
			fmt.Fprintf(w, "%s: intervals too narrow: %s\n", shown(r.Name), note)
		}
	}
}

// narrowNote says which intervals are too narrow and why, naming the
// strata: first those of no width, then those resting on strata of a
// single pair; estimates with the same strata are named together.
func narrowNote(ns []NarrowInterval) string {
	var parts []string
	for _, g := range groupStrata(ns, func(n NarrowInterval) []string { return n.NoWidth }) {
		where := ""
		if !slices.Equal(g.strata, []string{noneValue}) { // strata given
			where = " within " + map[bool]string{true: "stratum ", false: "strata "}[len(g.strata) == 1] + joinShown(g.strata, ", ")
		}
		parts = append(parts, fmt.Sprintf("%s of no width, its pairs not varying%s", and(g.estimates), where))
	}
	single := func(n NarrowInterval) []string {
		if n.NoWidth != nil {
			return nil // said as of no width
		}
		return n.Single
	}
	for _, g := range groupStrata(ns, single) {
		on := "strata of a single pair, which add no variance"
		if len(g.strata) == 1 {
			on = "a stratum of a single pair, which adds no variance"
		}
		parts = append(parts, fmt.Sprintf("%s resting in part on %s: %s", and(g.estimates), on, joinShown(g.strata, ", ")))
	}
	return strings.Join(parts, "; ")
}

// strataGroup is estimates named together in a note, for their strata.
type strataGroup struct{ estimates, strata []string }

// groupStrata groups the estimates of ns by the strata that strata picks
// of each, leaving out those it picks none of.
func groupStrata(ns []NarrowInterval, strata func(NarrowInterval) []string) []strataGroup {
	var gs []strataGroup
	for _, n := range ns {
		st := strata(n)
		if st == nil {
			continue
		}
		name := n.Estimate
		if name == "f1" {
			name = "F1" // as the table's head writes it
		}
		i := slices.IndexFunc(gs, func(g strataGroup) bool { return slices.Equal(g.strata, st) })
		if i < 0 {
			gs = append(gs, strataGroup{strata: st})
			i = len(gs) - 1
		}
		gs[i].estimates = append(gs[i].estimates, name)
	}
	return gs
}

// and joins words as a list: "a", "a and b", "a, b and c".
func and(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// interval formats an estimate with its interval.
func interval(i Interval) string { return fmt.Sprintf("%.4f (%.4f-%.4f)", i.Value, i.Low, i.High) }

// optionalInterval writes an interval, "-" for none (a precision of
// nothing predicted).
func optionalInterval(i *Interval) string {
	if i == nil {
		return "-"
	}
	return interval(*i)
}

// undefined writes a score, "-" for none (a precision of nothing
// predicted), as the breakdown writes it.
func undefined(x *float64) string {
	if x == nil {
		return "-"
	}
	return fmt.Sprintf("%.4f", *x)
}

// weight formats a sum of weights: whole with separators, else with one
// decimal.
func weight(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return commas(int64(x))
	}
	return fmt.Sprintf("%.1f", x)
}

// plural returns n and the noun for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return commas(int64(n)) + " " + many
}

// writeBreakdown writes recall per value of the breakdown field, one column
// per prediction; on labelled pairs precision too, a second column each.
func (rep *Report) writeBreakdown(w io.Writer) {
	labelled := rep.Truth.Form == "pairs"
	if labelled {
		fmt.Fprintf(w, "\nrecall and precision by %s", shown(rep.Truth.By))
	} else {
		fmt.Fprintf(w, "\nrecall by %s", shown(rep.Truth.By))
	}
	if rep.Truth.Direct {
		fmt.Fprintf(w, ", pairs of a member with and a member without %s only", shown(rep.Truth.By))
	}
	if len(rep.Truth.Without) > 0 {
		fmt.Fprintf(w, ", documents with %s left out", joinShown(rep.Truth.Without, " or "))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, shown(rep.Truth.By)+"\ttruth pairs\t")
	for _, r := range rep.Results {
		if labelled {
			fmt.Fprint(tw, shown(r.Name)+" recall\tprecision\t")
		} else {
			fmt.Fprint(tw, shown(r.Name)+"\t")
		}
	}
	fmt.Fprintln(tw)
	var order []string
	truth := map[string]int64{}
	for _, r := range rep.Results {
		for _, b := range r.By {
			if _, ok := truth[b.Value]; !ok {
				order = append(order, b.Value)
			}
			truth[b.Value] = b.Truth
		}
	}
	if labelled {
		slices.SortFunc(order, func(a, b string) int {
			if (a == noneValue) != (b == noneValue) {
				if a == noneValue {
					return 1
				}
				return -1
			}
			return strings.Compare(a, b)
		})
	}
	for _, v := range order {
		fmt.Fprintf(tw, "%s\t%s\t", shown(v), commas(truth[v]))
		for _, r := range rep.Results {
			recall, precision := "-", "-"
			for _, b := range r.By {
				if b.Value != v {
					continue
				}
				if b.Truth > 0 {
					recall = fmt.Sprintf("%.4f (%s)", b.Recall, commas(b.Found))
				}
				if b.Precision != nil {
					precision = fmt.Sprintf("%.4f (%s of %s)", *b.Precision, commas(b.Found), commas(b.Predicted))
				}
			}
			fmt.Fprint(tw, recall+"\t")
			if labelled {
				fmt.Fprint(tw, precision+"\t")
			}
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// shown is a value of the inputs (a file's name, a field's value) as the
// text report writes it: the characters a terminal would act on escaped,
// and tabs and line ends too, which would break its tables
// (diff.VisibleLine).
func shown(s string) string { return diff.VisibleLine(s) }

// joinShown joins the values vs, each shown, with sep.
func joinShown(vs []string, sep string) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = shown(v)
	}
	return strings.Join(out, sep)
}

func optional(c *ClusterScores, f func(*ClusterScores) float64) string {
	if c == nil {
		return "-"
	}
	return fmt.Sprintf("%.4f", f(c))
}

// commas formats n with thousands separators.
func commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 {
		return "-" + commas(-n)
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// errWriter keeps the first write error so a report is written without
// checking every line.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
