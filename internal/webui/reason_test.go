package webui

import (
	"html"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
)

// reasonDocs are pairs of documents the engine marks by each rule of a
// method, the later document second.
var reasonDocs = map[string]func() [2]core.Document{
	// The same desk's rewrite of a story, dated two and a half hours
	// later: a duplicate by --rewrite, its Jaccard index below the
	// threshold.
	"rewrite": func() [2]core.Document {
		at := time.Date(1987, 5, 4, 10, 0, 0, 0, time.UTC)
		return [2]core.Document{
			{ID: "a", Title: "PORT TO BUILD TERMINAL", Date: at, Text: "HALIFAX, May 4 - The port authority said it plans to build a container terminal " +
				"on the north shore at a cost of 412 mln dlrs, with work to start next spring. Chairman Anna Keller said the terminal would double " +
				"the port's capacity and create about 900 jobs. The board approved the design after four years of debate, she said."},
			{ID: "b", Title: "PORT AUTHORITY PLANS TERMINAL", Date: at.Add(150 * time.Minute), Text: "HALIFAX, May 4 - The port authority will build " +
				"a container terminal on the north shore at a cost of 412 mln dlrs, its chairman Anna Keller said, and construction would begin " +
				"next spring. The terminal would double the port's capacity and create about 900 jobs, she told reporters. Local shipping lines " +
				"welcomed the plan."},
		}
	},
	// A copy with ten of its 22 sentences rewritten, its figures kept: a
	// duplicate because its figures agree, its Jaccard index and
	// containment below the threshold and the containment bound.
	"figures": func() [2]core.Document {
		at := time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)
		g := enginetest.NewTextGen(5)
		s := g.Sentences(22)
		cp := append([]string(nil), s...)
		for i := range 10 {
			cp[21-i] = g.Sentence()
		}
		fig := "The company said sales rose 12.5 pct to 341 mln dlrs in 1987 and profit 27 mln dlrs. "
		return [2]core.Document{{ID: "a", Title: "Sales up", Date: at, Text: fig + strings.Join(s, " ")},
			{ID: "b", Title: "Sales", Date: at.Add(30 * time.Hour), Text: fig + strings.Join(cp, " ")}}
	},
	// One story by two newsrooms: titles naming it in the same words over
	// texts that share two sentences, similar by --story-title.
	"story title": func() [2]core.Document {
		shared := strings.Join(enginetest.NewTextGen(31).Sentences(2), " ")
		story := func(seed uint64, who string) string {
			own := enginetest.NewTextGen(seed).Sentences(12)
			return "The club said on Monday that Wolves chose " + who + " would be unveiled as manager. " +
				strings.Join(own[:6], " ") + " " + shared + " " + strings.Join(own[6:], " ") + " Fans of Wolves chose " + who + " cheered."
		}
		return [2]core.Document{{ID: "a", Title: "Wolves appoint Hoddle as manager", Text: story(1, "Hoddle")},
			{ID: "b", Title: "Hoddle appointed Wolves manager", Text: story(2, "Hoddle")}}
	},
	// One notice of two companies: nearly every shingle shared, refused as
	// a duplicate by the template rules and similar.
	"refused": func() [2]core.Document {
		at := time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)
		body := strings.Join(enginetest.NewTextGen(5).Sentences(10), " ")
		notice := func(who string) string {
			return who + " said on Monday its board approved a dividend. " + who + " chairman Ann Lee said the payout showed confidence. " + body
		}
		return [2]core.Document{{ID: "a", Title: "Northwind Traders sets dividend", Date: at, Text: notice("Northwind Traders")},
			{ID: "b", Title: "Contoso Holdings sets dividend", Date: at.Add(2 * time.Hour), Text: notice("Contoso Holdings")}}
	},
}

// reasonOf returns the diff page's reason for the pair a, b of f's index,
// its markup taken out.
func reasonOf(t *testing.T, f *fixture) string {
	t.Helper()
	page := f.get("/diff?a=a&b=b", false)
	m := regexp.MustCompile(`<p class="reason">(.*?)</p>`).FindStringSubmatch(page.body)
	if m == nil {
		t.Fatalf("the diff page has no reason:\n%s", page.body)
	}
	return html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(m[1], ""))
}

// The diff page names the rule that gave a minhash pair its label, with
// the figures it compares, as the method decides it
// (minhash.Options.Decide), for pairs the engine marks: a duplicate by the
// same-day rewrite rule, or because its figures agree, below the
// threshold and the containment bound; a pair similar by its titles'
// words, below the similar bound; a pair above the threshold that a
// template rule refused. Regression: each said its score met a bound it
// did not (that the duplicate threshold 0.45 admitted a Jaccard index of
// 0.38; that a copy 61% inside the other met the containment bound of
// 70%; that a score of 0.286 met the similar bound 0.3; that a refused
// pair of Jaccard 0.84 was below the duplicate threshold).
func TestDiffReasonNamesTheRule(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		label core.Label
		want  []string
		not   []string
	}{
		{"rewrite", core.Duplicate, []string{"is below the duplicate threshold 0.45 but at least the rewrite bound 0.35 (--rewrite)", "at most 12"},
			[]string{"is at least the duplicate threshold"}},
		{"figures", core.Duplicate, []string{"their figures agree", "at least the duplicate threshold 0.45", "below the threshold"},
			[]string{"at least the containment bound"}},
		{"story title", core.Similar, []string{"similar as one story rewritten: their titles share", "at least the same-story bound of 25% (--story-title)", "is below the similar bound 0.3"},
			[]string{"is at least the similar bound"}},
		{"refused", core.Similar, []string{"is at least the duplicate threshold 0.45, but", "refuses as a duplicate: similar, the Jaccard index"},
			[]string{"below the duplicate threshold"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, Options{})
			docs := reasonDocs[tc.name]()
			ms := f.add(docs[:]...)
			if len(ms[1].Pairs) != 1 || ms[1].Pairs[0].Label != tc.label {
				t.Fatalf("the engine marked %+v, want one pair %s: the case tests nothing", ms[1].Pairs, tc.label)
			}
			got := reasonOf(t, f)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q\nwant it to hold %q", got, w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(got, w) {
					t.Errorf("%q\nholds %q", got, w)
				}
			}
		})
	}
}

// The sentences method's pair above the threshold that a template rule
// refused says so, not that its score is below the threshold.
func TestDiffReasonOfARefusedPairOfSentences(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "s.db")
	x, err := neardup.Open(t.Context(), db, neardup.Options{MethodName: "sentences", StoreText: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	f := &fixture{t: t, x: x, db: db, h: New(x, Options{Authorized: func(string) bool { return false }})}
	docs := reasonDocs["refused"]()
	if ms := f.add(docs[:]...); len(ms[1].Pairs) != 1 || ms[1].Pairs[0].Label != core.Similar {
		t.Fatalf("the engine marked %+v, want one similar pair: the case tests nothing", ms[1].Pairs)
	}
	got := reasonOf(t, f)
	if !strings.Contains(got, "is at least the duplicate threshold 0.35, but") || !strings.Contains(got, "refuses as a duplicate; it is at least the similar bound") ||
		strings.Contains(got, "below the duplicate threshold") {
		t.Errorf("%q\nwant it to say that a rule refused the pair above the threshold", got)
	}
}
