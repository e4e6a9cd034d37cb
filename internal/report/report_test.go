package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/core"
	"golang.org/x/net/html"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// sample is a small run: a cluster of three wire copies (one member's text
// not collected), a pair whose member carries markup and "</script>", and
// a hostile URL.
func sample() Report {
	base := "Officials in Gdańsk said on Tuesday that the port will reopen next week after the storm.\n" +
		"Ships waiting offshore will be let in from Monday, the harbour master said."
	docs := []core.Document{
		{ID: "wire-1", Title: "Port to reopen", Text: base, Source: "Agency", URL: "https://example.com/a?x=1&y=2",
			Date: time.Date(2024, 3, 5, 9, 30, 0, 0, time.UTC)},
		{ID: "site-7", Title: "Gdańsk port reopens", Text: strings.Replace(base, "next week", "on Monday", 1) +
			"\nThe storm damaged two cranes."},
		{ID: "blog-3", Title: `Port <i>reopening</i> "soon"`, Text: "officials in GDAŃSK said on tuesday that the port will reopen next week " +
			"</script><script>alert(1)</script> after the storm.", URL: "javascript:alert(2)"},
		{ID: "memo-1", Title: "Budget", Text: "The council approved the budget. Spending on roads rises by 4 %."},
		{ID: "memo-2", Title: "Budget approved", Text: "The council approved the budget on Friday. Spending on roads rises by 4 %."},
	}
	r := Report{
		Summary: Summary{Method: "minhash", Inputs: []string{"news.jsonl"}, Documents: 12345, Skipped: 3,
			Duplicates: 4, Similar: 1, Clustered: 6, Kept: 12342, Seconds: 1.25},
		Clusters: []core.Cluster{
			{ID: 1, Representative: "memo-1", Members: []string{"memo-1", "memo-2"}, Why: "longest"},
			{ID: 2, Representative: "wire-1", Members: []string{"wire-1", "site-7", "blog-3", "lost-9"}, Why: "earliest"},
		},
		Docs: map[string]core.Document{},
	}
	for _, d := range docs {
		r.Docs[d.ID] = d
	}
	return r
}

// A report opens with its mark, by which a later run leaves it out of its
// inputs (Wrote): the first HeadBytes bytes of every report carry it, those
// of a page, an empty file or a report cut before its mark do not.
func TestWroteTellsReports(t *testing.T) {
	empty := sample()
	empty.Clusters, empty.Docs = nil, nil
	for _, r := range []Report{sample(), empty} {
		var b bytes.Buffer
		if err := Write(&b, r); err != nil {
			t.Fatal(err)
		}
		if !Wrote(b.Bytes()[:HeadBytes]) {
			t.Errorf("a report is not told: it opens %q", b.Bytes()[:HeadBytes])
		}
		if Wrote(b.Bytes()[:HeadBytes-1]) {
			t.Error("a report cut before the end of its mark is told")
		}
	}
	for _, page := range []string{"", `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>neardup report</title>`, `<!DOCTYPE html><html><head><meta name="generator" content="neardup report"></head><body><p>A page.</p></body></html>`} {
		if Wrote([]byte(page)) {
			t.Errorf("a page is told for a report: %q", page)
		}
	}
}

func TestWriteGolden(t *testing.T) {
	var got bytes.Buffer
	if err := Write(&got, sample()); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "report.html.golden")
	if *update {
		if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got.String()); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

// TestWriteEscapes parses the page as a browser would: documents' markup
// must come out as text, never as elements or script.
func TestWriteEscapes(t *testing.T) {
	var out bytes.Buffer
	if err := Write(&out, sample()); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(&out)
	if err != nil {
		t.Fatal(err)
	}
	var tags []string
	var text strings.Builder
	for n := range doc.Descendants() {
		switch n.Type {
		case html.ElementNode:
			tags = append(tags, n.Data)
			for _, a := range n.Attr {
				if a.Key == "href" && strings.HasPrefix(a.Val, "javascript:") {
					t.Errorf("link to %q", a.Val)
				}
			}
		case html.TextNode:
			text.WriteString(n.Data)
		}
	}
	for _, bad := range []string{"script", "i"} {
		if slices.Contains(tags, bad) {
			t.Errorf("page has a <%s> element", bad)
		}
	}
	for _, want := range []string{"</script><script>alert(1)</script>", `Port <i>reopening</i> "soon"`} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("page text lacks %q", want)
		}
	}
}

// Ids, titles, sources and URLs are isolated, so that a right-to-left
// override in one cannot turn the text around it (the summary's "of its
// words in the representative", a date). Regression: nothing was isolated.
func TestWriteIsolatesDocumentText(t *testing.T) {
	r := sample()
	d := r.Docs["site-7"]
	d.Title, d.Source = "Checked \u202eRLO title", "wire \u202eagency"
	r.Docs["site-7"] = d
	var out bytes.Buffer
	if err := Write(&out, r); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(&out)
	if err != nil {
		t.Fatal(err)
	}
	isolated := map[string]bool{}
	var meta []string
	for n := range doc.Descendants() {
		if n.Type != html.TextNode || n.Parent == nil {
			continue
		}
		if n.Parent.Data == "bdi" {
			isolated[n.Data] = true
		}
		if n.Parent.Type == html.ElementNode && slices.ContainsFunc(n.Parent.Attr, func(a html.Attribute) bool { return a.Key == "class" && a.Val == "meta" }) {
			meta = append(meta, n.Data)
		}
	}
	for _, s := range []string{"site-7", "Checked \u202eRLO title", "wire-1", "https://example.com/a?x=1&y=2"} {
		if !isolated[s] {
			t.Errorf("%q is not in a <bdi>", s)
		}
	}
	if !slices.ContainsFunc(meta, func(m string) bool { return strings.Contains(m, "\u2068wire \u202eagency\u2069 · ") }) {
		t.Errorf("the source is not isolated in the meta line: %q", meta)
	}
}

// Long words and titles wrap instead of widening the page, and the
// contents table's headers keep their words whole. Regression: a
// 500-letter title made the report 7,440 px wide at 1,280 and squeezed
// the "Documents" header to two letters a line.
func TestStyleWraps(t *testing.T) {
	rules := map[string]string{}
	for _, r := range strings.Split(pageStyle, "\n") {
		if sel, decl, ok := strings.Cut(r, "{"); ok {
			rules[sel] += decl
		}
	}
	for _, sel := range []string{".doc", "details>summary", "table.toc td"} {
		if !strings.Contains(rules[sel], "overflow-wrap:anywhere") {
			t.Errorf("%s does not wrap long words: {%s", sel, rules[sel])
		}
	}
	for sel, decl := range rules {
		if strings.Contains(sel, " th") && strings.Contains(decl, "overflow-wrap:anywhere") {
			t.Errorf("%s breaks the headers' words: {%s", sel, decl)
		}
	}
	if !strings.Contains(rules["table.toc th"], "white-space:nowrap") {
		t.Errorf("table.toc th may be squeezed: {%s", rules["table.toc th"])
	}
}

// A URL that is not http or https is shown as text, not as a link.
// Regression: "javascript:alert(2)" was a link to "#ZgotmplZ".
func TestWriteURLNotWebAsText(t *testing.T) {
	var out bytes.Buffer
	if err := Write(&out, sample()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "ZgotmplZ") {
		t.Error("the page links to #ZgotmplZ")
	}
	doc, err := html.Parse(&out)
	if err != nil {
		t.Fatal(err)
	}
	var shown, linked bool
	for n := range doc.Descendants() {
		if n.Type == html.TextNode && n.Data == "javascript:alert(2)" {
			shown = true
			for p := n.Parent; p != nil; p = p.Parent {
				linked = linked || p.Data == "a"
			}
		}
	}
	if !shown || linked {
		t.Errorf("the javascript: URL is shown %v, in a link %v; want shown as text", shown, linked)
	}
}

func TestWanted(t *testing.T) {
	clusters := []core.Cluster{
		{ID: 1, Representative: "a", Members: []string{"a", "b"}},
		{ID: 2, Representative: "e", Members: []string{"c", "d", "e", "f"}},
		{ID: 3, Representative: "g", Members: []string{"g", "h", "i"}},
		{ID: 4, Representative: "j", Members: []string{"j", "k", "l"}},
	}
	tests := []struct {
		name   string
		limits Limits
		want   []string
	}{
		{"defaults show all", Limits{}, []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}},
		{"largest clusters first, ties by ID", Limits{Clusters: 2}, []string{"c", "d", "e", "f", "g", "h", "i"}},
		{"members capped, representative kept", Limits{Clusters: 1, Members: 1}, []string{"c", "e"}},
		{"every cluster", Limits{Clusters: All, Members: 1}, []string{"a", "b", "c", "e", "g", "h", "j", "k"}},
		{"every member", Limits{Clusters: 1, Members: All}, []string{"c", "d", "e", "f"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for id := range tc.limits.Wanted(clusters) {
				got = append(got, id)
			}
			slices.Sort(got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Wanted (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWriteLimits(t *testing.T) {
	r := sample()
	r.Limits = Limits{Clusters: 1, Members: 1}
	var out bytes.Buffer
	if err := Write(&out, r); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	for _, want := range []string{"Showing the 1 largest of 2 clusters, at most 1 member each", "2 more members not shown", `id="c2"`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, `id="c1"`) || strings.Contains(page, "blog-3") {
		t.Error("page shows more than its limits")
	}
}

// TestWriteCountsInNumber: counts are written in the noun's number.
// Regression: "1 more members not shown", "at most 1 members each".
func TestWriteCountsInNumber(t *testing.T) {
	tests := []struct {
		name   string
		limits Limits
		want   []string
	}{
		{"one member each, two hidden", Limits{Clusters: 1, Members: 1}, []string{"at most 1 member each", "2 more members not shown"}},
		{"two members each, one hidden", Limits{Clusters: 1, Members: 2}, []string{"at most 2 members each", "1 more member not shown"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := sample()
			r.Limits = tc.limits
			var out bytes.Buffer
			if err := Write(&out, r); err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.want {
				if !strings.Contains(out.String(), want) {
					t.Errorf("page lacks %q", want)
				}
			}
		})
	}
}

// TestWriteReachesEveryCluster: limits of All show every cluster and
// member, and a report cut by its limits says how to see the rest.
// Regression: only the 100 largest clusters, five members each, with no
// way to see more.
func TestWriteReachesEveryCluster(t *testing.T) {
	r := sample()
	r.More = "--report-clusters 0 shows all."
	r.Limits = Limits{Clusters: 1, Members: 1}
	var out bytes.Buffer
	if err := Write(&out, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"at most 1 member each besides the representative. --report-clusters 0 shows all.",
		"2 more members not shown. --report-clusters 0 shows all."} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the cut page lacks %q", want)
		}
	}
	r.Limits = Limits{Clusters: All, Members: All}
	out.Reset()
	if err := Write(&out, r); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	for _, want := range []string{`id="c1"`, `id="c2"`, "blog-3"} {
		if !strings.Contains(page, want) {
			t.Errorf("the whole page lacks %q", want)
		}
	}
	if strings.Contains(page, "not shown") || strings.Contains(page, "Showing the") {
		t.Error("the whole page says something is not shown")
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1\u202f000", -1234567: "-1\u202f234\u202f567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// sharedEvidence is evidence as the sentences and rarewords methods write
// it: the sentences, or the rare words, that two texts share.
type sharedEvidence struct {
	Shared     *int    `json:"shared,omitempty"`
	SharedRare *int    `json:"shared_rare_words,omitempty"`
	AInB       float64 `json:"a_in_b,omitempty"`
	BInA       float64 `json:"b_in_a,omitempty"`
}

func (sharedEvidence) Method() string { return "test" }

// Each member shown says how it joined its cluster (the cluster's joined
// entry, the member it names isolated) and why the pair it joined through
// was labelled as it is, in the web UI's words (package reason), its
// documents named by id; a member whose pair the report was not given
// says only how it joined. Regression: the report showed the diff against
// the representative, never the link that made a member one.
func TestWriteSaysWhyAMemberJoined(t *testing.T) {
	three, five := 3, 5
	r := sample()
	r.Clusters[1].Linking = "majority"
	r.Clusters[1].Joined = []string{"first member", "duplicate of 1 of 1 members, best wire-1 (0.8)",
		"duplicate of 2 of 2 members, best site-7 (0.75)", "similar to wire-1 (0.3)"}
	r.Pairs = []core.Pair{
		{A: "memo-1", B: "memo-2", Method: "sentences", Score: 0.6, Label: core.Duplicate, Evidence: sharedEvidence{Shared: &three}},
		{A: "site-7", B: "blog-3", Method: "rarewords", Score: 0.75, Label: core.Duplicate,
			Evidence: sharedEvidence{SharedRare: &five, AInB: 0.8, BInA: 0.7}},
		{A: "wire-1", B: "site-7", Method: "sentences", Score: 0.8, Label: core.Duplicate, Evidence: sharedEvidence{Shared: &three}},
	}
	r.Options = `{"threshold":0.5}`
	var out bytes.Buffer
	if err := Write(&out, r); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	var got []string
	for _, m := range regexp.MustCompile(`<p class="(joined|reason)">(.*?)</p>`).FindAllStringSubmatch(page, -1) {
		got = append(got, m[1]+": "+html.UnescapeString(m[2]))
	}
	want := []string{
		"joined: Joined as duplicate of 1 of 1 members, best <bdi>wire-1</bdi> (0.8)",
		"reason: Marked duplicate by sentences: they share 3 sentences; the score 0.800 is at least the duplicate threshold 0.5.",
		"joined: Joined as duplicate of 2 of 2 members, best <bdi>site-7</bdi> (0.75)",
		"reason: Marked duplicate by rarewords: they share 5 rare words: 80% of \u2068site-7\u2069's rare words are in \u2068blog-3\u2069, " +
			"and 70% of \u2068blog-3\u2069's in \u2068site-7\u2069.",
		"joined: Joined as similar to <bdi>wire-1</bdi> (0.3)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the members' links (-want +got):\n%s\n%s", diff, page)
	}
}

// TestWriteSaysWhyOfIdsWithLineBreaks: a member joined through a document
// whose id holds a line break is told why, and a cosine pair, whose
// evidence holds no figure, by its score. Regression: the joined entry of
// such an id was shown whole, without its reason, and a cosine pair had
// none.
func TestWriteSaysWhyOfIdsWithLineBreaks(t *testing.T) {
	r := sample()
	doc := r.Docs["memo-1"]
	doc.ID = "memo\n1"
	r.Docs[doc.ID] = doc
	r.Clusters = r.Clusters[:1]
	r.Clusters[0].Representative, r.Clusters[0].Members = doc.ID, []string{doc.ID, "memo-2"}
	r.Clusters[0].Joined = []string{"first member", "duplicate of memo\n1 (0.81)"}
	r.Pairs = []core.Pair{{A: doc.ID, B: "memo-2", Method: "cosine", Score: 0.81, Label: core.Duplicate, Evidence: sharedEvidence{}}}
	r.Options = `{"threshold":0.7,"similar":0.5}`
	var out bytes.Buffer
	if err := Write(&out, r); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range regexp.MustCompile(`(?s)<p class="(joined|reason)">(.*?)</p>`).FindAllStringSubmatch(out.String(), -1) {
		got = append(got, m[1]+": "+html.UnescapeString(m[2]))
	}
	want := []string{
		"joined: Joined as duplicate of <bdi>memo\n1</bdi> (0.81)",
		"reason: Marked duplicate by cosine: their score is the cosine of their weighted words and word pairs; " +
			"the score 0.810 is at least the duplicate threshold 0.7.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the member's link (-want +got):\n%s", diff)
	}
}
