package output

import (
	"context"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
)

// Export writes an index as a batch run writes its results: pairs.jsonl,
// clusters.jsonl, kept.jsonl (the documents compared that are in no
// cluster and each cluster's representative, an exact copy too, with their
// text when the index stores texts), removed.jsonl (the other members of
// each cluster), rejects.jsonl (the documents the method skipped and the
// exact copies in no cluster, with their reason; the index keeps no file
// or line of them) and stats.json, in dir, replacing what was there
// only once all is written.
func Export(ctx context.Context, x *index.Index, dir string) error {
	set, err := CreateWith(dir, Options{Removed: true, Rejects: true})
	if err != nil {
		return err
	}
	defer set.Abort()
	// The minimum length of text the documents were added under is not
	// stored: a rejects line names it as the one they were added with.
	e := exporter{Set: set, lim: LimitsOf(x.Config(), -1)}
	e.lim.MinTextUnknown, e.lim.TextUnknown = true, !x.Meta().StoreText
	if x.Meta().StoreText {
		// The method, sketching a stored text without the minimum
		// length, tells its own minimum from that one.
		b, err := x.Spec().NewBatchWith(x.Config(), engine.Grouping{MinChars: -1})
		if err != nil {
			return err
		}
		defer b.Close()
		e.method = b.NewSketcher()
	}
	st, err := x.Export(ctx, e)
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
	lim    Limits           // the method's, for the rejects
	method *engine.Sketcher // the method without a minimum length of text; nil when the index stores no texts
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
	if t := store.DateTime(d.Date); !t.IsZero() {
		k.Date = t.Format(time.RFC3339)
	}
	return e.Set.Kept(&k)
}

func (e exporter) Rejected(d *store.Doc) error {
	doc := core.Document{ID: d.ID, Title: d.Title, Text: d.Text, URL: d.URL, Source: d.Source}
	return e.Set.Reject(RejectDocument(&corpus.Record{Doc: doc}, d.Skip, e.limits(&doc, d.Skip)))
}

// limits returns the limits to name for doc, stored without being
// compared for the reason skip: of a text too short and stored, the one
// of the method (--min-words) when the method skips the text, else the
// --min-text it was added with.
func (e exporter) limits(doc *core.Document, skip core.SkipReason) Limits {
	l := e.lim
	if skip != core.SkipTooShort || e.method == nil {
		return l
	}
	if e.method.Sketch(doc).Skip() == core.SkipTooShort {
		l.MinTextUnknown = false
	} else {
		l.MinWords = 0
	}
	return l
}
