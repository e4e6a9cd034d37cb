package server

import (
	"context"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/server/browse"
)

// Index is what the server uses of an index (*neardup.Index has it):
// checks and adds of sketched documents, removals, and its read model.
type Index interface {
	NewSketcher() *neardup.Sketcher
	AddSketched(ctx context.Context, docs []core.Document, sks []neardup.Sketch, o neardup.AddOptions) ([]neardup.Match, error)
	Remove(ctx context.Context, ids ...string) ([]string, error)

	Document(ctx context.Context, id string) (browse.Document, error)
	Latest(ctx context.Context, f neardup.DocFilter, p neardup.Page) ([]browse.Summary, bool, error)
	Clusters(ctx context.Context, f neardup.ClusterFilter, p neardup.Page) ([]browse.ClusterSummary, bool, error)
	Cluster(ctx context.Context, id int64) (browse.Cluster, error)
	Search(ctx context.Context, q string, p neardup.Page) (browse.SearchResult, error)

	Meta() neardup.IndexMeta
	Stats(ctx context.Context) (neardup.IndexStats, error)
	RecentStats(ctx context.Context) (neardup.IndexStats, error)
	CountInBackground()
	Ping(ctx context.Context) error
}
