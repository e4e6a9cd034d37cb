// Package report owns the HTML report of a de-duplication run: one
// self-contained page (inline CSS, no scripts, no external assets) with a
// summary of the run, a table of contents of the clusters shown and, for
// each cluster, its representative and, for every member shown, how it
// joined the cluster (the pair it joined through and why that pair was
// labelled as it is) and a side-by-side diff against the representative.
//
// A report shows at most Limits.Clusters clusters (the largest first) and
// Limits.Members members of each, so its size and the memory of the
// documents it needs stay bounded whatever the corpus: a caller asks
// Limits.Wanted which documents to keep, collects their texts, and calls
// Write.
package report

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/diff"
)

// The limits of a report whose Limits are zero.
const (
	DefaultClusters = 100 // clusters shown
	DefaultMembers  = 5   // members shown per cluster, besides the representative
)

// All is the limit that shows every cluster or every member.
const All = -1

// Limits bound what a report shows. The zero value means the defaults.
type Limits struct {
	// Clusters is how many clusters are shown, the largest first (ties by
	// cluster ID). Default DefaultClusters; All shows every one.
	Clusters int
	// Members is how many members of a cluster are shown besides its
	// representative, in the order of Cluster.Members. Default
	// DefaultMembers; All shows every one.
	Members int
}

func (l Limits) withDefaults() Limits {
	switch {
	case l.Clusters == All:
		l.Clusters = math.MaxInt
	case l.Clusters <= 0:
		l.Clusters = DefaultClusters
	}
	switch {
	case l.Members == All:
		l.Members = math.MaxInt
	case l.Members <= 0:
		l.Members = DefaultMembers
	}
	return l
}

// Summary describes the run at the top of the report. Zero counts are left
// out.
type Summary struct {
	Method      string   // the detection method, e.g. "minhash"
	Inputs      []string // the inputs read, as the user named them
	Documents   int      // documents read, NotCompared among them
	NotCompared int      // documents not compared (too short, ...)
	Skipped     int      // records skipped while reading, no documents (malformed, empty, ...)
	Duplicates  int      // duplicate pairs
	Similar     int      // similar pairs
	Clusters    int      // clusters found; 0 means len(Report.Clusters)
	Clustered   int      // documents in clusters
	Kept        int      // documents in the de-duplicated corpus
	Seconds     float64  // wall time of the run
}

// Report is the content of one report.
type Report struct {
	// Title heads the page. Default "neardup report".
	Title   string
	Summary Summary
	// Clusters are every cluster of the run (or those the caller wants
	// considered); Write shows the Limits.Clusters largest.
	Clusters []core.Cluster
	// Docs holds, by ID, the documents Limits.Wanted(Clusters) names. Only
	// ID, Title, Text, URL, Source and Date are used. A document missing
	// from Docs is listed by its ID without a diff. The caller need not
	// hold more than the wanted documents: at most
	// Limits.Clusters × (Limits.Members + 1).
	Docs map[string]core.Document
	// By is the unit of the diffs. Default diff.ByWord.
	By     diff.By
	Limits Limits
	// Pairs are the run's pairs, or at least those the members shown
	// joined their clusters through (Cluster.Joined): beside each member
	// the page says why its pair was labelled as it is (package reason).
	// A pair missing from Pairs leaves its reason out.
	Pairs []core.Pair
	// Options are the method's options as JSON, as an index stores them,
	// whose bounds the reasons quote; "" leaves the bounds unsaid.
	Options string
	// More says how to see what the limits leave out (the command line's
	// flags, say); the page shows it beside each note of what is not shown.
	More string
}

// Wanted returns the IDs of the documents a report of clusters shows: the
// representative and the first Members other members of each of the
// Clusters largest clusters.
func (l Limits) Wanted(clusters []core.Cluster) map[string]bool {
	ids := map[string]bool{}
	for _, c := range l.shown(clusters) {
		ids[c.Representative] = true
		for _, m := range l.members(c) {
			ids[m] = true
		}
	}
	return ids
}

// shown returns the clusters a report shows, largest first.
func (l Limits) shown(clusters []core.Cluster) []core.Cluster {
	l = l.withDefaults()
	out := slices.Clone(clusters)
	slices.SortStableFunc(out, func(a, b core.Cluster) int {
		return cmp.Or(cmp.Compare(len(b.Members), len(a.Members)), cmp.Compare(a.ID, b.ID))
	})
	return out[:min(len(out), l.Clusters)]
}

// members returns the members of c shown beside its representative.
func (l Limits) members(c core.Cluster) []string {
	l = l.withDefaults()
	var out []string
	for _, m := range c.Members {
		if m != c.Representative && len(out) < l.Members {
			out = append(out, m)
		}
	}
	return out
}

// Write writes r as one self-contained HTML page, which opens with the
// report's mark (see Wrote). Every text from the documents is escaped, so
// markup or "</script>" in a document shows as text. Write compares each
// member shown with its representative; it reports only errors of w.
func Write(w io.Writer, r Report) error {
	p := build(r)
	if err := page.Execute(w, p); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// pageStart is how every report opens: the head's first lines, with the
// generator's mark, which no page of a corpus carries.
const pageStart = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n" +
	`<meta name="generator" content="neardup report">` + "\n"

// Wrote reports whether a file that opens with head (its first bytes, at
// least HeadBytes of them when it is that long) is a report Write wrote,
// by the mark it opens with: a later run that meets it among its inputs
// leaves it out, as its own output, not a page.
func Wrote(head []byte) bool { return bytes.HasPrefix(head, []byte(pageStart)) }

// HeadBytes is how many of a file's first bytes Wrote needs.
const HeadBytes = len(pageStart)
