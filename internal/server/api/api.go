// Package api is the wire shape of what the index answers for a document
// added or checked: the JSON the HTTP API returns and `neardup index add`
// and `index query` print, one shape for both.
package api

import (
	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
)

// Result is what became of one document: its status, its cluster and its
// matches among the stored documents, the best first.
type Result struct {
	ID      string          `json:"id"`
	Status  neardup.Status  `json:"status"`
	Skip    core.SkipReason `json:"skipped,omitempty"`
	Cluster int64           `json:"cluster,omitempty"`
	// Original is the ID of its cluster's original, the member published
	// first: its own ID when it is the original, else the document it is a
	// copy of.
	Original string  `json:"original,omitempty"`
	Matches  []Match `json:"matches"`
	// Differs, for a document of status conflict (its id is stored with
	// other content), names the fields that differ: title, url, source,
	// date, text.
	Differs []string `json:"differs,omitempty"`
}

// Match is a stored document a document matches, and why.
type Match struct {
	// ID is the stored document's.
	ID string `json:"id"`
	// A and B are the pair's two documents as index export writes it:
	// A the one placed first (the match, unless the document is stored
	// and placed before it: a new version where the version it replaced
	// stood, a stored document queried), whose side the evidence reads
	// first (containment_ab ...).
	A      string     `json:"a"`
	B      string     `json:"b"`
	Score  float64    `json:"score"`
	Label  core.Label `json:"label"`
	Method string     `json:"method"`
	// Original is, for a duplicate, the ID of the one of the two published
	// first, of which the other is the copy: the match's ID, or the
	// document's own when the stored match copies it.
	Original string        `json:"original,omitempty"`
	Evidence core.Evidence `json:"evidence,omitempty"`
}

// ResultOf returns m in its wire shape.
func ResultOf(m *neardup.Match) Result {
	r := Result{ID: m.ID, Status: m.Status, Skip: m.Skip, Cluster: m.Cluster, Original: m.Original, Matches: make([]Match, len(m.Pairs)),
		Differs: m.Differs}
	for j, p := range m.Pairs {
		r.Matches[j] = Match{ID: p.Other(m.ID), A: p.A, B: p.B, Score: p.Score, Label: p.Label, Method: p.Method,
			Original: p.Original, Evidence: p.Evidence}
	}
	return r
}
