package webui

import (
	"cmp"
	"context"
	"errors"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/store"
)

// storedDoc is a stored document as the pages show it.
type storedDoc struct {
	ID, Title, Source, URL, Lang, Text string
	Date, Added                        time.Time
	Length                             int
	Cluster                            int64
	Skip                               core.SkipReason
}

// storedDocs returns the stored documents of ids, with their texts when
// the index stores texts, by id; ids not stored are left out.
func (u *ui) storedDocs(ctx context.Context, ids []string) (map[string]storedDoc, error) {
	out := map[string]storedDoc{}
	err := u.x.Store().View(ctx, func(r store.Reader) error {
		for _, id := range ids {
			if _, ok := out[id]; ok {
				continue
			}
			d, err := r.Doc(id)
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			out[id] = fromStore(&d)
		}
		return nil
	})
	return out, err
}

func fromStore(d *store.Doc) storedDoc {
	return storedDoc{ID: d.ID, Title: d.Title, Source: d.Source, URL: d.URL, Lang: d.Lang, Text: d.Text,
		Date: unixTime(d.Date), Added: unixTime(d.Added), Length: d.Length, Cluster: d.Cluster, Skip: d.Skip}
}

// pathEscape escapes a document id as one segment of a path: slashes
// included, and "." and ".." which a path would lose.
func pathEscape(id string) string {
	s := url.PathEscape(id)
	if strings.Trim(s, ".") == "" {
		s = strings.ReplaceAll(s, ".", "%2E")
	}
	return s
}

// docMarks returns a stored document and its matches, best first.
func (u *ui) docMarks(ctx context.Context, id string) (storedDoc, []matchRow, error) {
	var doc storedDoc
	var rows []matchRow
	err := u.x.Store().View(ctx, func(r store.Reader) error {
		d, err := r.Doc(id)
		if err != nil {
			return err
		}
		doc = fromStore(&d)
		ms, err := r.MarksOf(d.Ord)
		if err != nil {
			return err
		}
		others := make([]int64, len(ms))
		for i, m := range ms {
			others[i] = m.A
			if m.A == d.Ord {
				others[i] = m.B
			}
		}
		ds, err := r.Docs(others)
		if err != nil {
			return err
		}
		byOrd := map[int64]*store.Doc{}
		for i := range ds {
			byOrd[ds[i].Ord] = &ds[i]
		}
		for i, m := range ms {
			o := byOrd[others[i]]
			if o == nil {
				continue
			}
			rows = append(rows, matchRow{ID: o.ID, Title: o.Title, Source: o.Source, URL: o.URL, Date: unixTime(o.Date),
				Score: m.Score, Label: m.Label, Method: m.Method, Earlier: m.B == d.Ord})
		}
		return nil
	})
	slices.SortStableFunc(rows, func(a, b matchRow) int { return cmp.Compare(b.Score, a.Score) })
	return doc, rows, err
}

// urlValues encodes key, value pairs as a query, leaving out empty values.
func urlValues(kv ...string) string {
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			q.Set(kv[i], kv[i+1])
		}
	}
	return q.Encode()
}
