package report_test

import (
	"fmt"
	"io"
	"log"
	"slices"
	"strings"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/report"
)

// A pipeline asks which documents the report shows, keeps only their texts
// while it reads the input again, and writes the page.
func Example() {
	clusters := []core.Cluster{
		{ID: 1, Representative: "a", Members: []string{"a", "b", "c"}, Why: "longest"},
	}
	lim := report.Limits{Members: 1}
	wanted := lim.Wanted(clusters)

	input := []core.Document{
		{ID: "a", Text: "Rates rose on Monday, the bank said."},
		{ID: "b", Text: "Rates rose on Monday, the central bank said."},
		{ID: "c", Text: "Rates rose on Monday."},
	}
	docs := map[string]core.Document{}
	for _, d := range input {
		if wanted[d.ID] {
			docs[d.ID] = d
		}
	}
	ids := slices.Sorted(func(yield func(string) bool) {
		for id := range docs {
			if !yield(id) {
				return
			}
		}
	})
	fmt.Println("kept texts:", strings.Join(ids, ", "))

	r := report.Report{Summary: report.Summary{Method: "minhash", Documents: 3}, Clusters: clusters, Docs: docs, Limits: lim}
	if err := report.Write(io.Discard, r); err != nil {
		log.Fatal(err)
	}
	// Output:
	// kept texts: a, b
}
