package sweep

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"

	"github.com/neardup/neardup/internal/eval"
)

// WriteText writes the sweep as one aligned table per method, its Default
// point last, and the best thresholds by pair F1 and B-cubed F1.
func (r *Result) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	if r.Truth.Form == "pairs" {
		fmt.Fprintf(ew, "truth: %d labelled duplicate pairs; %d documents\n", r.Truth.Pairs, r.Documents)
	} else {
		fmt.Fprintf(ew, "truth: %d documents in %d clusters, %d duplicate pairs; %d documents read\n",
			r.Truth.Documents, r.Truth.Clusters, r.Truth.Pairs, r.Documents)
	}
	for _, c := range r.Curves {
		fmt.Fprintf(ew, "\n%s: threshold on the %s (%d scored pairs, %.1fs)\n", c.Name, c.Swept, c.Pairs, c.Seconds)
		tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "threshold\tpredicted\tcorrect\tprecision\trecall\tF1\tB3 prec\tB3 recall\tB3 F1\tARI\tnegatives merged\t")
		for _, p := range c.Points {
			writeRow(tw, fmt.Sprintf("%.3g", p.Threshold), &p.Result)
		}
		writeRow(tw, defaultLabel(c.Default), &c.Default.Result)
		tw.Flush()
		best := c.Best(PairF1)
		fmt.Fprintf(ew, "best F1 %.4f at %.3g", best.Pairs.F1, best.Threshold)
		if r.Truth.Form != "pairs" {
			b3 := c.Best(BCubedF1)
			fmt.Fprintf(ew, "; best B3 F1 %.4f at %.3g", b3.Clusters.BCubedF1, b3.Threshold)
		}
		fmt.Fprintln(ew)
	}
	return ew.err
}

// defaultLabel names the Default point's row: "default 0.4", or "rule".
func defaultLabel(p Point) string {
	if math.IsNaN(p.Threshold) {
		return "default (rule)"
	}
	return fmt.Sprintf("default (%.3g)", p.Threshold)
}

func writeRow(w io.Writer, label string, r *eval.Result) {
	prec := "-" // undefined: nothing predicted
	if p := precision(r); !math.IsNaN(p) {
		prec = fmt.Sprintf("%.4f", p)
	}
	fmt.Fprintf(w, "%s\t%d\t%d\t%s\t%.4f\t%.4f\t", label, r.Pairs.Predicted, r.Pairs.Correct,
		prec, r.Pairs.Recall, r.Pairs.F1)
	if c := r.Clusters; c != nil {
		fmt.Fprintf(w, "%.4f\t%.4f\t%.4f\t%.4f\t", c.BCubedPrecision, c.BCubedRecall, c.BCubedF1, c.ARI)
	} else {
		fmt.Fprint(w, "-\t-\t-\t-\t")
	}
	if n := r.Negatives; n != nil {
		fmt.Fprintf(w, "%d of %d\t\n", n.Merged, n.Total)
	} else {
		fmt.Fprint(w, "-\t\n")
	}
}

// csvHeader are the columns of WriteCSV.
var csvHeader = []string{"method", "threshold", "predicted", "correct", "truth", "precision", "recall", "f1",
	"bcubed_precision", "bcubed_recall", "bcubed_f1", "ari", "negatives_merged", "negatives"}

// WriteCSV writes one row per method and threshold, then each method's
// Default point with threshold "default" (a rule) or "default:T". Cluster
// columns are empty for a pair-form truth, and precision where nothing is
// predicted (undefined).
func (r *Result) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(csvHeader)
	for _, c := range r.Curves {
		for _, p := range c.Points {
			cw.Write(csvRow(c.Name, num(p.Threshold), &p.Result))
		}
		label := "default"
		if !math.IsNaN(c.Default.Threshold) {
			label += ":" + num(c.Default.Threshold)
		}
		cw.Write(csvRow(c.Name, label, &c.Default.Result))
	}
	cw.Flush()
	return cw.Error()
}

func csvRow(method, threshold string, r *eval.Result) []string {
	row := []string{method, threshold, strconv.FormatInt(r.Pairs.Predicted, 10), strconv.FormatInt(r.Pairs.Correct, 10),
		strconv.FormatInt(r.Pairs.Truth, 10), "", num(r.Pairs.Recall), num(r.Pairs.F1)}
	if p := r.Pairs.Precision; p != nil {
		row[5] = num(*p) // empty when nothing is predicted: undefined
	}
	if c := r.Clusters; c != nil {
		row = append(row, num(c.BCubedPrecision), num(c.BCubedRecall), num(c.BCubedF1), num(c.ARI))
	} else {
		row = append(row, "", "", "", "")
	}
	if n := r.Negatives; n != nil {
		row = append(row, strconv.Itoa(n.Merged), strconv.Itoa(n.Total))
	} else {
		row = append(row, "", "")
	}
	return row
}

// num formats a score with up to six decimals.
func num(x float64) string { return strconv.FormatFloat(math.Round(x*1e6)/1e6, 'f', -1, 64) }

// errWriter keeps the first write error so a table is written without
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
