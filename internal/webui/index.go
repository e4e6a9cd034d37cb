package webui

import (
	"context"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/server/browse"
	"github.com/neardup/neardup/internal/watch"
)

// Index is what the web UI uses of an index (*index.Index has it): checks
// and adds, removals, its read model, and its feed tables.
type Index interface {
	Add(ctx context.Context, docs []core.Document, o index.AddOptions) ([]index.Match, error)
	Query(ctx context.Context, docs []core.Document) ([]index.Match, error)
	Remove(ctx context.Context, ids []string) ([]string, error)

	Document(ctx context.Context, id string) (browse.Document, error)
	Latest(ctx context.Context, f index.DocFilter, p index.Page) ([]browse.Summary, bool, error)
	Clusters(ctx context.Context, f index.ClusterFilter, p index.Page) ([]browse.ClusterSummary, bool, error)
	Cluster(ctx context.Context, id int64) (browse.Cluster, error)
	Search(ctx context.Context, q string, p index.Page) (browse.SearchResult, error)

	Meta() index.Meta
	RecentStats(ctx context.Context) (index.IndexStats, error)
	watch.Tables
}
