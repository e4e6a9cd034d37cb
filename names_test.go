package neardup_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/neardup/neardup"
)

// The read model's parts are named by the package, so that a caller can
// write a function of them. Regression: StoredDocument.Marks,
// DocumentSummary.Best, SearchResult.Hits, ClusterSummary.First and
// IndexStats' counts were of types of internal packages, which no caller
// could name.
func markIDs(m neardup.Mark) [2]string               { return [2]string{m.A, m.B} }
func hitID(h neardup.Hit) string                     { return h.ID }
func docID(d neardup.Doc) string                     { return d.ID }
func documents(c neardup.Counts) int                 { return c.Documents }
func bestOf(s neardup.DocumentSummary) *neardup.Mark { return s.Best }

// TestReadModelTypesAreNamed reads each named part of an index of two
// copies of a story.
func TestReadModelTypesAreNamed(t *testing.T) {
	ctx := t.Context()
	x, err := neardup.Open(ctx, filepath.Join(t.TempDir(), "news.db"), neardup.Options{StoreText: true})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	day := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	if _, err := x.Add(ctx, neardup.Document{ID: "a", Text: story, Date: day},
		neardup.Document{ID: "b", Text: "NORTHPORT (Wire) - " + story, Date: day.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	d, err := x.Document(ctx, "b")
	if err != nil || len(d.Marks) != 1 || markIDs(d.Marks[0]) != [2]string{"a", "b"} {
		t.Errorf("Document(b): %+v, %v; want its mark with a", d, err)
	}
	sums, _, err := x.Latest(ctx, neardup.DocFilter{}, neardup.Page{})
	if err != nil || len(sums) != 2 || bestOf(sums[0]) == nil || docID(sums[0].Doc) != "b" {
		t.Errorf("Latest: %+v, %v; want b first, with its best mark", sums, err)
	}
	cs, _, err := x.Clusters(ctx, neardup.ClusterFilter{}, neardup.Page{})
	if err != nil || len(cs) != 1 || docID(cs[0].First) != "a" || docID(cs[0].Original) != "a" {
		t.Errorf("Clusters: %+v, %v; want one, first and original a", cs, err)
	}
	res, err := x.Search(ctx, "harbour", neardup.Page{})
	if err != nil || len(res.Hits) != 2 || hitID(res.Hits[0]) == "" {
		t.Errorf("Search: %+v, %v; want both documents", res, err)
	}
	st, err := x.Stats(ctx)
	if err != nil || documents(st.Counts) != 2 {
		t.Errorf("Stats: %+v, %v; want 2 documents", st, err)
	}
}
