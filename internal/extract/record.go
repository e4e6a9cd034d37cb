package extract

import (
	"time"

	"github.com/neardup/neardup/core"
)

// Record is one line of `neardup extract` output (JSON). Every field but
// Skipped and Error is always present; Date is RFC 3339 (without an
// offset when the page names no zone: core.FormatDate) or empty.
type Record struct {
	ID      string          `json:"id"`
	URL     string          `json:"url"`
	Title   string          `json:"title"`
	Text    string          `json:"text"`
	Date    string          `json:"date"`
	Author  string          `json:"author"`
	Lang    string          `json:"lang"`
	Skipped core.SkipReason `json:"skipped,omitempty"`
	Error   string          `json:"error,omitempty"`
	// RuleMiss is Article.RuleMiss: the page's site rule selected nothing.
	RuleMiss string `json:"rule_miss,omitempty"`
}

// Record returns the output record of a result. A skipped page keeps its
// metadata but no text: only articles carry text.
func (r Result) Record() Record {
	rec := Record{
		ID:       r.ID,
		URL:      r.URL,
		Title:    r.Article.Title,
		Author:   r.Article.Author,
		Lang:     r.Article.Lang,
		Skipped:  r.Skip,
		RuleMiss: r.Article.RuleMiss,
	}
	if !r.Article.Date.IsZero() {
		rec.Date = core.FormatDate(r.Article.Date, time.RFC3339)
	}
	if r.Skip == "" {
		rec.Text = r.Article.Text
	}
	if r.Err != nil {
		rec.Error = r.Err.Error()
	}
	return rec
}
