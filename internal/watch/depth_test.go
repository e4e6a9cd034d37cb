package watch

import (
	"errors"
	"runtime"
	"strings"
	"testing"
)

// An XML feed nested deeper than maxFeedDepth is no feed, refused as the
// parser reaches that depth: 10 MiB of open elements took 470 MB to
// parse (the decoder's stack of open elements, then the parser's), per
// feed polled at once. A feed whose items nest XHTML as deep as real
// content does is read.
func TestFeedNesting(t *testing.T) {
	head := `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><link>http://x/</link><description>d</description>`
	nested := func(n int) string {
		return head + "<item><title>a</title><link>http://x/a</link><description>" +
			strings.Repeat("<div>", n) + "text" + strings.Repeat("</div>", n) + "</description></item></channel></rss>"
	}
	if f, _, err := parseFeed([]byte(nested(100)), "", 0); err != nil || len(f.Items) != 1 {
		t.Errorf("100 levels in an item: %v", err)
	}
	if _, _, err := parseFeed([]byte(nested(maxFeedDepth)), "", 0); !errors.Is(err, ErrNotFeed) || !strings.Contains(err.Error(), "nested deeper than") {
		t.Errorf("%d levels: %v, want not a feed: nested too deep", maxFeedDepth, err)
	}
	deep := []byte(head + strings.Repeat("<a>", (10<<20)/3))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, err := parseFeed(deep, "", 0)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrNotFeed) {
		t.Errorf("10 MiB of open elements: %v, want not a feed", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 16<<20 {
		t.Errorf("refusing 10 MiB of open elements allocated %d MiB", n>>20)
	}
}
