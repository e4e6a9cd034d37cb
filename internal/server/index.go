package server

import (
	"context"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/server/browse"
)

// Index is what the server uses of an index (*index.Index has it): checks
// and adds of sketched documents, removals, and its read model.
type Index interface {
	NewSketcher() *index.Sketcher
	AddSketched(ctx context.Context, docs []core.Document, sks []index.Sketch, o index.AddOptions) ([]index.Match, error)
	QuerySketched(ctx context.Context, docs []core.Document, sks []index.Sketch) ([]index.Match, error)
	Remove(ctx context.Context, ids []string) ([]string, error)

	Document(ctx context.Context, id string) (browse.Document, error)
	Latest(ctx context.Context, f index.DocFilter, p index.Page) ([]browse.Summary, bool, error)
	Clusters(ctx context.Context, f index.ClusterFilter, p index.Page) ([]browse.ClusterSummary, bool, error)
	Cluster(ctx context.Context, id int64) (browse.Cluster, error)
	Search(ctx context.Context, q string, p index.Page) (browse.SearchResult, error)

	Meta() index.Meta
	Stats(ctx context.Context) (index.IndexStats, error)
	RecentStats(ctx context.Context) (index.IndexStats, error)
	CountInBackground()
	Ping(ctx context.Context) error
}
