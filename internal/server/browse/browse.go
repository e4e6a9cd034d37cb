// Package browse is the read model of the HTTP API and the web UI: what they
// show of stored documents, their marks, clusters and search hits, as JSON
// and in pages. Package index fills it in from its store; the server and
// the web UI show it. It imports nothing of the project but core.
package browse

import (
	"encoding/json"
	"time"

	"github.com/neardup/neardup/core"
)

// Doc is a stored document as the browsing pages show it, without its
// text.
type Doc struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Source string `json:"source,omitempty"`
	URL    string `json:"url,omitempty"`
	// Date is the document's own date; zero when it gave none.
	Date time.Time `json:"date,omitzero"`
	// Added is when it was stored.
	Added time.Time `json:"added"`
	Lang  string    `json:"lang,omitempty"`
	// Length is the text's length in bytes.
	Length int `json:"length"`
	// Skip is why the method did not compare it, if it did not.
	Skip core.SkipReason `json:"skipped,omitempty"`
	// Cluster is its cluster of duplicates; 0 for none.
	Cluster int64 `json:"cluster,omitempty"`
}

// Mark is a stored pair: A the earlier document, B the later, with the
// method's evidence as it stored it.
type Mark struct {
	A      string     `json:"a"`
	B      string     `json:"b"`
	Method string     `json:"method"`
	Score  float64    `json:"score"`
	Label  core.Label `json:"label"`
	// Original is, in a duplicate pair, the ID of the one of A and B
	// published first, of which the other is the copy (see core.Pair).
	Original string          `json:"original,omitempty"`
	Evidence json.RawMessage `json:"evidence,omitempty"`
	// At is when the pair was found.
	At time.Time `json:"at"`
	// Other is the document at the other end of the pair from the one
	// asked about; nil in a cluster's marks.
	Other *Doc `json:"other,omitempty"`
}

// Document is a stored document with its text (when the index stores
// texts) and its marks, the best first.
type Document struct {
	Doc
	// Original is, for a document in a cluster, the cluster's original:
	// its member published first, the document itself or the one it is a
	// copy of.
	Original *Doc   `json:"original,omitempty"`
	Text     string `json:"text,omitempty"`
	Marks    []Mark `json:"marks"`
}

// Summary is a stored document in a list: its best mark and how many
// marks of each label it has.
type Summary struct {
	Doc
	Best       *Mark `json:"best,omitempty"`
	Duplicates int   `json:"duplicates"`
	Similar    int   `json:"similar"`
}

// ClusterSummary is a cluster in a list.
type ClusterSummary struct {
	ID   int64 `json:"id"`
	Size int   `json:"size"`
	// First is its earliest added member.
	First Doc `json:"first"`
	// Original is its member published first (the earliest date, a dated
	// member before an undated one, then the first stored), of which the
	// others are copies.
	Original Doc `json:"original"`
	// Latest is the latest date of its members (their own, else when they
	// were stored).
	Latest time.Time `json:"latest"`
	// LastAdded is when its latest added member was stored: clusters are
	// listed by it, the latest first.
	LastAdded time.Time `json:"last_added"`
}

// Cluster is a cluster of duplicates: its members in the order added, its
// original (the member published first), its representative (chosen by
// the index's policy) and why, and the marks between its members, which
// say why each is in.
type Cluster struct {
	ID             int64  `json:"id"`
	Original       string `json:"original"`
	Representative string `json:"representative"`
	Why            string `json:"why"`
	Members        []Doc  `json:"members"`
	Marks          []Mark `json:"marks"`
}

// Hit is a document a full-text search found.
type Hit struct {
	Doc
	// Rank orders the hits of one search: higher is better.
	Rank float64 `json:"rank"`
	// Snippet is a passage of the text (of the title for a document
	// stored without text) around the words matched, or, for a text
	// longer than 20,000 bytes in SQLite, of its title when the title
	// holds a word matched, else its opening; SnippetHTML is the same,
	// HTML-escaped, with each matched word in a <mark> element.
	Snippet     string `json:"snippet"`
	SnippetHTML string `json:"snippet_html"`
}

// SearchResult is a page of a search's hits.
type SearchResult struct {
	// Query is the search as understood (see store.ParseQuery).
	Query string `json:"query"`
	// Total counts every document that matches.
	Total int `json:"total"`
	// Ranked is how many of the matches the pages hold, ranked: all of
	// them, or the newest index.SearchNewest when more match.
	Ranked int   `json:"ranked"`
	Hits   []Hit `json:"hits"`
}
