package output

import (
	"context"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
)

// Export writes an index as a batch run writes its results: pairs.jsonl,
// clusters.jsonl, kept.jsonl (the documents compared that are in no
// cluster and each cluster's representative, with their text when the
// index stores texts), removed.jsonl (the other members of each cluster),
// rejects.jsonl (the documents stored without being compared, with their
// reason; the index keeps no file or line of them) and stats.json, in dir,
// replacing what was there only once all is written.
func Export(ctx context.Context, x *index.Index, dir string) error {
	set, err := CreateWith(dir, Options{Removed: true, Rejects: true})
	if err != nil {
		return err
	}
	defer set.Abort()
	// The minimum length of text the documents were added under is not
	// stored: a rejects line names the method's limits alone.
	st, err := x.Export(ctx, exporter{set, LimitsOf(x.Config(), -1)})
	if err != nil {
		return err
	}
	if err := set.Stats(st); err != nil {
		return err
	}
	return set.Commit()
}

// exporter writes an index's contents to a result set.
type exporter struct {
	*Set
	lim Limits // the method's, for the rejects
}

// keptDoc is a stored document as kept.jsonl lists it.
type keptDoc struct {
	ID     string `json:"id"`
	Title  string `json:"title,omitempty"`
	Text   string `json:"text,omitempty"`
	URL    string `json:"url,omitempty"`
	Source string `json:"source,omitempty"`
	Date   string `json:"date,omitempty"`
}

func (e exporter) Kept(d *store.Doc) error {
	k := keptDoc{ID: d.ID, Title: d.Title, Text: d.Text, URL: d.URL, Source: d.Source}
	if d.Date != 0 {
		k.Date = time.Unix(d.Date, 0).UTC().Format(time.RFC3339)
	}
	return e.Set.Kept(&k)
}

func (e exporter) Rejected(d *store.Doc) error {
	return e.Set.Reject(RejectDocument(&corpus.Record{Doc: core.Document{ID: d.ID}}, d.Skip, e.lim))
}
