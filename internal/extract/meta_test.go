package extract

import (
	"testing"
	"time"
)

func TestPageDate(t *testing.T) {
	day := func(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }
	for _, tc := range []struct {
		name, html, url string
		want            time.Time
	}{
		{"meta property", `<meta property="article:published_time" content="2024-03-05T10:00:00Z">`, "", time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)},
		{"meta name any case", `<meta name="DC.date.issued" content="2012-07-24">`, "", day(2012, 7, 24)},
		{"published time before others", `<time datetime="2020-01-01">x</time><time pubdate datetime="2019-05-06">y</time>`, "", day(2019, 5, 6)},
		{"first time element", `<p><time datetime="2018-02-03">Feb 3</time></p>`, "", day(2018, 2, 3)},
		{"url date", `<p>x</p>`, "https://news.example/2012/07/24/story", day(2012, 7, 24)},
		{"url date with dashes", `<p>x</p>`, "https://news.example/story-2011-12-31.html", day(2011, 12, 31)},
		{"unparsable meta falls through", `<meta name="date" content="soon"><time datetime="2017-08-09">x</time>`, "", day(2017, 8, 9)},
		{"implausible year", `<meta name="date" content="1900-01-01">`, "", time.Time{}},
		{"nothing", `<p>2012-07-24 in text is not declared</p>`, "https://x.example/a", time.Time{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := pageDate(parse(t, tc.html), tc.url); !got.Equal(tc.want) {
				t.Errorf("pageDate = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCleanByline(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Jane Roe", "Jane Roe"},
		{"By Jane Roe", "Jane Roe"},
		{"by  Lance Whitney July 24, 2012 4:00 AM PDT", "Lance Whitney"},
		{"Posted by: Bob Walsh", "Bob Walsh"},
		{"By: Shacknews", "Shacknews"},
		{"By NFL.com Staff |", "NFL.com Staff"},
		{"Author:Erika Riggs", "Erika Riggs"},
		{"View all posts by Sue Waters", "Sue Waters"},
		{"Jane Roe and John Doe, Reuters", "Jane Roe and John Doe, Reuters"},
		{"Jane Roe - Staff Writer", "Jane Roe"},
		{"Monday, November 12, 2012", ""},
		{"12/11/2012", ""},
		{"", ""},
		{"This is a very long paragraph that a byline heuristic picked up by mistake and is not a person's name at all.", ""},
	} {
		t.Run(tc.in, func(t *testing.T) {
			if got := cleanByline(tc.in); got != tc.want {
				t.Errorf("cleanByline(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
