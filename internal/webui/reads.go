package webui

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/server/browse"
)

// storedDocs returns the stored documents of ids with their texts (when
// the index stores texts) and marks, by id; ids not stored are left out.
func (u *ui) storedDocs(ctx context.Context, ids []string) (map[string]browse.Document, error) {
	out := map[string]browse.Document{}
	for _, id := range ids {
		if _, ok := out[id]; ok {
			continue
		}
		d, err := u.x.Document(ctx, id)
		if errors.Is(err, neardup.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out[id] = d
	}
	return out, nil
}

// matchRows returns the marks of a document as rows, each with the link
// to its diff (the earlier document on the left).
func matchRows(ms []browse.Mark) []matchRow {
	rows := make([]matchRow, 0, len(ms))
	for _, m := range ms {
		row := matchRow{ID: m.A, Score: m.Score, Label: m.Label, Method: m.Method, Diff: diffLink(m.A, m.B)}
		if o := m.Other; o != nil {
			row.ID, row.Title, row.Source, row.URL, row.Date, row.Earlier = o.ID, o.Title, o.Source, o.URL, o.Date, o.ID == m.A
		}
		row.Role = role(m.Original, row.ID)
		rows = append(rows, row)
	}
	return rows
}

// role is the role of document other in a pair whose original is
// original: "original" when it is, "copy" when the pair has an original
// and it is not, "" when the pair has none (a similar pair).
func role(original, other string) string {
	switch original {
	case "":
		return ""
	case other:
		return "original"
	}
	return "copy"
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
