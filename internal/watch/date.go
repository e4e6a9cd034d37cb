package watch

import (
	"time"

	"github.com/mmcdole/gofeed"

	"github.com/neardup/neardup/core"

	"github.com/neardup/neardup/internal/extract"
)

// itemDate is an item's date, when it was published, else updated, in the
// zone its text names, as extract.FeedDate reads it (the zone's name kept
// where gofeed gives RSS dates in UTC, for the page's or the feed's
// language to say which CST it is: see extract.WithLanguageZone); zero
// when it gives neither in a form gofeed or package extract reads, or a
// placeholder (core.NoDate).
func itemDate(it *gofeed.Item) time.Time {
	t := extract.FeedDate(it.Published, it.PublishedParsed, it.Updated, it.UpdatedParsed)
	if core.NoDate(t) {
		return time.Time{} // a placeholder (year 1, the Unix epoch): no date
	}
	return t
}
