package webui

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/server/browse"
	"github.com/neardup/neardup/internal/watch"
)

// Counts are written with the noun's number: "1 match", "2 matches";
// dates without a time of day have none shown ("2026-11-20", never
// "2026-11-20 00:00 UTC"); the clusters page lists and labels the time
// its latest member was stored.
func TestPluralsAndDates(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	orig, reprint := f.story(14)
	day := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC) // a date without a time
	f.add(core.Document{ID: "wire-1", Title: "Storm closes the harbour bridge", Source: "wire", Date: day, Text: orig})
	f.add(core.Document{ID: "daily/7", Title: "Harbour bridge shut by storm", Source: "daily", Date: day.Add(9*time.Hour + 30*time.Minute), Text: reprint})
	doc := f.get("/documents/wire-1", false)
	doc.want(t, "document", http.StatusOK, ">1 match<", "2026-11-20 09:30 UTC")
	// The date's own day, not the time it was stored, which may be 00:00.
	for _, bad := range []string{"1 matches", "2026-11-20 00:00 UTC"} {
		if strings.Contains(doc.body, bad) {
			t.Errorf("the document page says %q", bad)
		}
	}
	latest := f.get("/", false)
	latest.want(t, "latest", http.StatusOK, "2 documents stored", "1 duplicate and 0 similar pairs marked, 1 cluster.", ">2026-11-20<")
	if strings.Contains(latest.body, "2026-11-20 00:00 UTC") || strings.Contains(latest.body, "1 clusters") {
		t.Errorf("the latest page:\n%s", latest.body)
	}
	clusters := f.get("/clusters", false)
	clusters.want(t, "clusters", http.StatusOK, ">Last added</th>")
	stored, _ := f.x.Document(t.Context(), "daily/7")
	if added := stored.Added.UTC().Format("2006-01-02 15:04 UTC"); !strings.Contains(clusters.body, added) && !strings.Contains(clusters.body, stored.Added.UTC().Format("2006-01-02")) {
		t.Errorf("the clusters page lacks the time the latest member was stored, %s", added)
	}
	if strings.Contains(clusters.body, `<th scope="col">Latest</th>`) {
		t.Errorf("the clusters page still has its Latest column")
	}
	f.get(fmt.Sprint("/clusters/", stored.Cluster), false).want(t, "cluster", http.StatusOK, "2 documents")
	for _, tc := range []struct {
		t    time.Time
		want string
	}{
		{time.Time{}, ""},
		{day, "2026-11-20"},
		{day.Add(time.Second), "2026-11-20 00:00 UTC"},
		{day.Add(9*time.Hour + 30*time.Minute), "2026-11-20 09:30 UTC"},
	} {
		if got := formatDate(tc.t); got != tc.want {
			t.Errorf("formatDate(%v) = %q, want %q", tc.t, got, tc.want)
		}
	}
	if plural(1, "match", "matches") != "match" || plural(0, "match", "matches") != "matches" || plural(2, "match", "matches") != "matches" {
		t.Error("plural")
	}
}

// The diff page says in words why a pair is marked: what share of each
// text the other holds and the bound that admitted the pair.
func TestDiffReason(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	orig, reprint := f.story(14)
	f.add(core.Document{ID: "wire-1", Title: "Storm", Text: orig}, core.Document{ID: "daily/7", Title: "Storm again", Text: reprint})
	a := f.get("/diff?a=wire-1&b=daily%2F7", false)
	a.want(t, "diff", http.StatusOK, `<p class="reason">Marked duplicate by minhash: `, "of the left text&#39;s shingles appear in the right text",
		"is at least the duplicate threshold")
	swapped := f.get("/diff?a=daily%2F7&b=wire-1", false)
	swapped.want(t, "swapped diff", http.StatusOK, "of the right text&#39;s shingles appear in the left text")

	for _, tc := range []struct {
		name string
		m    browse.Mark
		opts string
		want string
	}{
		{"containment", browse.Mark{A: "a", B: "b", Method: "minhash", Label: core.Duplicate, Score: 0.377,
			Evidence: json.RawMessage(`{"jaccard":0.377,"containment_ab":0.41,"containment_ba":0.93}`)}, `{"threshold":0.5,"containment":0.9}`,
			"Marked duplicate by minhash: 41% of the left text's shingles appear in the right text, and 93% of the right text's in the left text (Jaccard 0.38): the right text is 93% inside the other, at least the containment bound of 90%."},
		// Regression: 290 of 291 words shared read "100%".
		{"nearly all", browse.Mark{A: "a", B: "b", Method: "minhash", Label: core.Duplicate, Score: 0.989,
			Evidence: json.RawMessage(`{"measure":"containment","jaccard":0.989,"containment_ab":0.9966,"containment_ba":1}`)}, `{"threshold":0.995,"containment":0.7}`,
			"99.7% of the left text's shingles appear in the right text, and 100% of the right text's in the left text (Jaccard 0.99): the right text is 100% inside the other"},
		{"similar", browse.Mark{A: "a", B: "b", Method: "minhash", Label: core.Similar, Score: 0.42,
			Evidence: json.RawMessage(`{"jaccard":0.42,"containment_ab":0.57,"containment_ba":0.65}`)}, `{"threshold":0.5,"similar":0.3}`,
			"is at least the similar bound 0.3, below the duplicate threshold 0.5."},
		// A mark of an index whose evidence lacks what gave its label.
		{"rule not in the evidence", browse.Mark{A: "a", B: "b", Method: "minhash", Label: core.Duplicate, Score: 0.38,
			Evidence: json.RawMessage(`{"jaccard":0.38,"containment_ab":0.55,"containment_ba":0.54}`)}, `{"threshold":0.45}`,
			"(Jaccard 0.38); a duplicate by a rule of the method that the evidence stored does not show (the Jaccard index 0.380, the duplicate threshold 0.45)."},
		{"slug", browse.Mark{Method: neardup.ExactMethod, Label: core.Duplicate, Score: 1,
			Evidence: json.RawMessage(`{"by":"slug","slug":"storm-hits-the-coast"}`)}, `{}`,
			"Marked duplicate by exact: an exact copy: both URLs carry the article slug “storm-hits-the-coast”."},
		{"url of a document removed", browse.Mark{Method: neardup.ExactMethod, Label: core.Duplicate, Score: 1,
			Evidence: json.RawMessage(`{"by":"url","removed":true}`)}, `{}`,
			"Marked duplicate by exact: an exact copy of a document since removed, whose place the other took: the URL it is stored under was that document's."},
		// Regression: it said "both were found at one URL", which a mark made
		// before the watcher stopped storing a page under the URL it names as
		// its own (rel=canonical) is not: they are stored under one URL.
		{"url", browse.Mark{Method: neardup.ExactMethod, Label: core.Duplicate, Score: 1,
			Evidence: json.RawMessage(`{"by":"url"}`)}, `{}`,
			"Marked duplicate by exact: an exact copy: both are stored under one URL, taken for one page fetched twice, their texts not compared."},
		{"tfidf", browse.Mark{Method: "tfidf", Label: core.Duplicate, Score: 0.8,
			Evidence: json.RawMessage(`{"title_cosine":0.31,"body_cosine":0.72,"rule":"title>=0.1 & body>=0.7"}`)}, `{}`,
			"their titles have a cosine of 0.31 and their bodies 0.72, which meets the rule's clause title>=0.1 & body>=0.7."},
		{"rarewords", browse.Mark{Method: "rarewords", Label: core.Duplicate, Score: 0.6,
			Evidence: json.RawMessage(`{"shared_rare_words":12,"a_in_b":0.6,"b_in_a":0.4}`)}, `{}`,
			"they share 12 rare words: 60% of the left text's rare words are in the right text, and 40% of the right text's in the left text."},
		// Regression: shares of 0.69997, similar under "min>=0.7", were
		// written 70%, beside "Marked similar".
		{"rarewords below its rule's bound", browse.Mark{Method: "rarewords", Label: core.Similar, Score: 0.69997,
			Evidence: json.RawMessage(`{"shared_rare_words":2333,"a_in_b":0.69997,"b_in_a":0.69997}`)}, `{"threshold":0.1,"rule":"min>=0.7"}`,
			"Marked similar by rarewords: they share 2333 rare words: 69.997% of the left text's rare words are in the right text, and 69.997% of"},
		{"rarewords above its rule's bound", browse.Mark{Method: "rarewords", Label: core.Duplicate, Score: 0.70003,
			Evidence: json.RawMessage(`{"shared_rare_words":7001,"a_in_b":0.70003,"b_in_a":0.70003}`)}, `{"threshold":0.1,"rule":"min>0.7"}`,
			"70.003% of the left text's rare words are in the right text, and 70.003% of"},
		{"rarewords above its threshold", browse.Mark{Method: "rarewords", Label: core.Similar, Score: 0.50005,
			Evidence: json.RawMessage(`{"shared_rare_words":5001,"a_in_b":0.50005,"b_in_a":0.4}`)}, `{"threshold":0.5,"rule":"min>=0.7"}`,
			"50.01% of the left text's rare words are in the right text, and 40% of"},
		{"rarewords whole where that tells", browse.Mark{Method: "rarewords", Label: core.Duplicate, Score: 0.7003,
			Evidence: json.RawMessage(`{"shared_rare_words":2334,"a_in_b":0.7003,"b_in_a":0.7003}`)}, `{"threshold":0.1,"rule":"min>=0.7"}`,
			"70% of the left text's rare words are in the right text, and 70% of"},
		{"sentences", browse.Mark{Method: "sentences", Label: core.Duplicate, Score: 0.6,
			Evidence: json.RawMessage(`{"shared":1}`)}, `{"threshold":0.5}`, "they share 1 sentence; the score 0.600 is at least the duplicate threshold 0.5."},
	} {
		if got := reason(tc.m, true, tc.opts); !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q\nwant it to hold %q", tc.name, got, tc.want)
		}
	}
}

// A share is a whole percentage, but never 100% or 0% unless it is all or
// nothing. Regression: the diff of two texts of 291 words, one changed,
// said "100% of its 291 words are in the other" above a table that said
// 99.7% and showed the word changed.
func TestPercent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		f    float64
		want string
	}{
		{"all", 1, "100%"},
		{"none", 0, "0%"},
		{"half", 0.5, "50%"},
		{"rounds up", 0.994, "99%"},
		{"290 of 291", 0.9966, "99.7%"},
		{"1 of 3,000 left out", 2999.0 / 3000, "99.9%"},
		{"1 of 100,000 left out", 0.99999, "99.9%"},
		{"1 of 1,000", 0.001, "0.1%"},
		{"1 of 100,000", 0.00001, "0.1%"},
		{"a half percent", 0.005, "0.5%"},
	} {
		if got := percent(tc.f); got != tc.want {
			t.Errorf("%s: percent(%v) = %q, want %q", tc.name, tc.f, got, tc.want)
		}
	}
}

// TestDecimal: a score or Jaccard that rounds to 1 or 0 and is not is never
// written so ("Jaccard 1.00" of two texts a word apart).
func TestDecimal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		f      float64
		digits int
		want   string
	}{
		{1, 2, "1.00"},
		{0, 2, "0.00"},
		{0.5, 2, "0.50"},
		{0.994, 2, "0.99"},
		{0.996, 2, "0.996"},
		{0.9999, 2, "0.999"},
		{0.9996, 3, "0.9996"},
		{0.99999, 3, "0.9999"},
		{0.004, 2, "0.004"},
		{0.0001, 2, "0.001"},
		{0.8171, 3, "0.817"},
	} {
		if got := decimal(tc.f, tc.digits); got != tc.want {
			t.Errorf("decimal(%v, %d) = %q, want %q", tc.f, tc.digits, got, tc.want)
		}
	}
}

// A feed's duplicate item links to the document it duplicates and to the
// diff of the two, not only to itself.
func TestFeedItemLinksWhatItDuplicates(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{})
	orig, reprint := f.story(14)
	f.add(core.Document{ID: "https://wire.example/storm", Title: "Storm closes the harbour bridge", Source: "wire.example", Text: orig},
		core.Document{ID: "https://daily.example/storm", Title: "Harbour bridge shut", Source: "daily.example", Text: reprint})
	if _, err := watch.AddFeed(t.Context(), f.x, watch.Feed{URL: "https://daily.example/rss", Interval: watch.Duration(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	err := f.x.UpdateFeeds(t.Context(), func(w neardup.FeedWriter) error {
		return w.SaveItems([]neardup.FeedItem{{Feed: 1, Item: "https://daily.example/storm", Seen: time.Now().Unix(), Outcome: watch.OutcomeDuplicate,
			Doc: "https://daily.example/storm"}})
	})
	if err != nil {
		t.Fatal(err)
	}
	f.get("/feeds/1", true).want(t, "feed page", http.StatusOK, ">Marked against</th>",
		`<a class="of" href="/documents/https:%2F%2Fwire.example%2Fstorm">Storm closes the harbour bridge</a>`,
		`href="/diff?a=https%3A%2F%2Fwire.example%2Fstorm&amp;b=https%3A%2F%2Fdaily.example%2Fstorm">diff</a>`)
}
