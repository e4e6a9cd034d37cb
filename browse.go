package neardup

import (
	"context"

	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/server/browse"
	"github.com/neardup/neardup/internal/store"
)

// The read model of a stored index: what Index.Document, Latest, Clusters,
// Cluster and Search return, the shapes the HTTP API answers and the web UI
// shows.
type (
	// StoredDocument is a stored document with its marks.
	StoredDocument = browse.Document
	// DocumentSummary is a stored document in a list, with its best mark.
	DocumentSummary = browse.Summary
	// ClusterSummary is a cluster in a list.
	ClusterSummary = browse.ClusterSummary
	// StoredCluster is a cluster with its members and the marks between
	// them.
	StoredCluster = browse.Cluster
	// SearchResult is a page of the documents a search matches.
	SearchResult = browse.SearchResult
	// Doc is a stored document as the lists show it, without its text:
	// what StoredDocument, DocumentSummary and Hit embed, a Mark's Other,
	// a ClusterSummary's First and Original, a StoredCluster's Members.
	Doc = browse.Doc
	// Mark is a stored pair, A the earlier document, with its evidence:
	// StoredDocument.Marks, DocumentSummary.Best, StoredCluster.Marks.
	Mark = browse.Mark
	// Hit is a document a search found, with its rank and snippet:
	// SearchResult.Hits.
	Hit = browse.Hit
	// DocFilter selects the documents Latest lists; its zero value selects
	// every one.
	DocFilter = store.DocFilter
	// ClusterFilter selects the clusters Clusters lists; its zero value
	// selects every one.
	ClusterFilter = store.ClusterFilter
	// Page selects a part of a list: Offset rows skipped, Limit rows at
	// most (0 means DefaultPage; above MaxPage means MaxPage).
	Page = store.Page
	// IndexMeta is what an index stores of itself: its method, options,
	// sketch format, whether it keeps texts, its linking policy, when it
	// was created.
	IndexMeta = store.Meta
)

// Page sizes of the read model, and the longest query Search runs, in
// bytes.
const (
	DefaultPage    = index.DefaultPage
	MaxPage        = index.MaxPage
	MaxSearchBytes = store.MaxQueryBytes
)

// The errors of an index its callers tell apart (with errors.Is).
var (
	// ErrNotFound: no document, cluster or feed of the name given.
	ErrNotFound = store.ErrNotFound
	// ErrFeedGone: a write to a feed removed meanwhile (an ErrNotFound).
	ErrFeedGone = store.ErrFeedGone
	// ErrExists: a feed of that URL is stored already.
	ErrExists = store.ErrExists
	// ErrQuery: a search query that cannot be run.
	ErrQuery = store.ErrQuery
	// ErrReadOnly: the index cannot be written (a read-only file or
	// database user).
	ErrReadOnly = store.ErrReadOnly
	// ErrClosed: a call on an Index after its Close.
	ErrClosed = store.ErrClosed
	// ErrNoMethod: Open with Options.Existing of a store that holds no
	// index yet, only feeds.
	ErrNoMethod = index.ErrNoMethod
	// ErrSettingsChanged: a call on an Index opened with Options.Existing
	// on a store that held nothing, once another process's first add gave
	// it a method: open it again to read what it holds.
	ErrSettingsChanged = index.ErrSettingsChanged
	// ErrNoIndex: Open with Options.Existing of a PostgreSQL database or
	// an empty SQLite file that holds none of the index's tables.
	ErrNoIndex = store.ErrNoIndex
)

// Unreachable reports whether err says the index's database cannot be
// reached (a PostgreSQL server down or restarting): a caller may try
// again later.
func Unreachable(err error) bool { return index.Unreachable(err) }

// Document returns the stored document of the given ID with its marks; an
// error wrapping ErrNotFound when there is none. It reads without waiting
// for writers.
func (x *Index) Document(ctx context.Context, id string) (StoredDocument, error) {
	return x.x.Document(ctx, id)
}

// Latest returns a page of the documents f selects, the latest added
// first, each with its best mark; more says whether more follow.
func (x *Index) Latest(ctx context.Context, f DocFilter, p Page) (docs []DocumentSummary, more bool, err error) {
	return x.x.Latest(ctx, f, p)
}

// Clusters returns a page of the clusters f selects, the one with the
// latest added member first; more says whether more follow.
func (x *Index) Clusters(ctx context.Context, f ClusterFilter, p Page) (cs []ClusterSummary, more bool, err error) {
	return x.x.Clusters(ctx, f, p)
}

// Cluster returns the cluster of the given number; an error wrapping
// ErrNotFound when it has no members.
func (x *Index) Cluster(ctx context.Context, id int64) (StoredCluster, error) {
	return x.x.Cluster(ctx, id)
}

// Search returns a page of the stored documents whose title or text match
// q, the best first of the newest 10,000 matches; an error wrapping
// ErrQuery for a query that cannot be run.
//
// q is words and "quoted phrases", each required, and -word or -"phrase"
// to exclude; case is ignored (and accents, in SQLite). Nothing else is
// syntax, on SQLite and PostgreSQL alike: *, title:, AND, OR, NEAR and
// other marks are plain text (rate* finds the word rate; title:rates the
// words title and rates in a row), so a pasted headline is searched as
// written. A q of marks only, with no word or number (a lone ", *, -), is
// an ErrQuery naming it; a blank q finds nothing.
func (x *Index) Search(ctx context.Context, q string, p Page) (SearchResult, error) {
	return x.x.Search(ctx, q, p)
}

// Meta returns what the index stores of itself.
func (x *Index) Meta() IndexMeta { return x.x.Meta() }

// RecentStats returns Stats for a page or a metrics scrape to show: an
// index that takes more than a tenth of a second to count gives its last
// counts at once, counted again in the background when older than ten
// seconds; a smaller one is counted afresh.
func (x *Index) RecentStats(ctx context.Context) (IndexStats, error) { return x.x.RecentStats(ctx) }

// CountInBackground starts the first count for RecentStats in the
// background, as a server does when it starts; it does nothing once the
// index was counted or while a count runs.
func (x *Index) CountInBackground() { x.x.CountInBackground() }

// Ping reads the index's head: an error when its database cannot answer,
// or ErrSettingsChanged when the Index was opened with Options.Existing
// on an index that held nothing and another process's first add has given
// it a method since (it must be opened again to read it).
func (x *Index) Ping(ctx context.Context) error { return x.x.Ping(ctx) }
