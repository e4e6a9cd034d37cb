package neardup_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/method/minhash"
)

// TestIndexOriginal: through the public API, a reprint is stored before
// the story it copies, which was published first; when the story is
// added, its Match names it the original of its cluster and of the pair.
func TestIndexOriginal(t *testing.T) {
	ctx := t.Context()
	x, err := neardup.Open(ctx, filepath.Join(t.TempDir(), "news.db"), neardup.Options{Method: minhash.Defaults()})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	day := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	if _, err := x.Add(ctx, neardup.Document{ID: "reprint", Text: "NORTHPORT (Wire) - " + story, Date: day.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	ms, err := x.Add(ctx, neardup.Document{ID: "wire", Text: story, Date: day})
	if err != nil {
		t.Fatal(err)
	}
	if m := ms[0]; m.Cluster == 0 || m.Original != "wire" || len(m.Pairs) != 1 || m.Pairs[0].Original != "wire" || m.Pairs[0].Copy() != "reprint" {
		t.Errorf("the late original: %+v", m)
	}
}
