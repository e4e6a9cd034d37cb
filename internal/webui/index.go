package webui

import (
	"context"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/server/browse"
	"github.com/neardup/neardup/internal/watch"
)

// Index is what the web UI uses of an index (*neardup.Index has it):
// checks and adds, removals, its read model, and its feed tables.
type Index interface {
	Add(ctx context.Context, docs ...core.Document) ([]neardup.Match, error)
	Query(ctx context.Context, docs ...core.Document) ([]neardup.Match, error)
	Remove(ctx context.Context, ids ...string) ([]string, error)

	Document(ctx context.Context, id string) (browse.Document, error)
	Latest(ctx context.Context, f neardup.DocFilter, p neardup.Page) ([]browse.Summary, bool, error)
	Clusters(ctx context.Context, f neardup.ClusterFilter, p neardup.Page) ([]browse.ClusterSummary, bool, error)
	Cluster(ctx context.Context, id int64) (browse.Cluster, error)
	Search(ctx context.Context, q string, p neardup.Page) (browse.SearchResult, error)

	Meta() neardup.IndexMeta
	Writable() error
	RecentStats(ctx context.Context) (neardup.IndexStats, error)
	watch.Tables
}
