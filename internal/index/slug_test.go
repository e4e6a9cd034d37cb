package index_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store/storetest"
	"github.com/neardup/neardup/internal/watch"
)

// TestSlugTakenByANewStory: a site's headline repeated a week on heads a
// new story (b), no copy of the first (a); the copies of b to come under
// the slug are b's, in the same add and in later ones. Regression: the
// slug's key stayed a's, the first stored, so that every later copy was
// checked against a, too far in time, and was no copy by its slug.
func TestSlugTakenByANewStory(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			x := open(t, storetest.DSN(t, e), index.OpenOptions{})
			g := enginetest.NewTextGen(25)
			doc := func(id string, day int) core.Document {
				d := enginetest.Doc(id, g.Sentences(8))
				d.URL = fmt.Sprintf("https://site.example/news/weather-forecast-for-tuesday-%d", 1000+int(id[0]-'a')) // an id of digits
				d.Title = "Weather forecast for tuesday"
				d.Date = time.Date(2026, 11, day, 9, 0, 0, 0, time.UTC)
				return d
			}
			o := index.AddOptions{Exact: true, Slug: watch.Slug}
			add := func(docs ...core.Document) []index.Match {
				ms, err := x.Add(t.Context(), docs, o)
				if err != nil {
					t.Fatal(err)
				}
				return ms
			}
			add(doc("a", 1))
			ms := add(doc("b", 8), doc("c", 9))
			later := add(doc("d", 9))
			if ms[0].Skip == core.SkipExactCopy {
				t.Errorf("b, a week after a, is a's exact copy: %+v", ms[0])
			}
			for _, m := range []index.Match{ms[1], later[0]} {
				if m.Skip != core.SkipExactCopy || len(m.Pairs) != 1 || m.Pairs[0].A != "b" || m.Pairs[0].Evidence != (index.ExactEvidence{By: "slug", Slug: "weather-forecast-for-tuesday"}) {
					t.Errorf("%s: %+v; want an exact copy of b by its slug", m.ID, m)
				}
			}
		})
	}
}
