package report

import (
	"fmt"
	"html/template"
	"slices"
	"strconv"
	"strings"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/diff"
)

// view is what the page template shows.
type view struct {
	Title    string
	CSS      template.CSS
	Legend   template.HTML
	Stats    []stat
	Inputs   string
	Note     string
	More     string // how to see what the limits leave out
	Clusters []clusterView
}

// stat is one figure of the run summary.
type stat struct{ Label, Value string }

type clusterView struct {
	ID      int64
	Size    int
	Why     string
	Rep     docView
	Members []memberView
	Hidden  int    // members not shown
	Shared  string // range of the members' shares of words found in the representative
}

type docView struct {
	ID, Title, URL string
	Source, Date   string
	Words          int
	Missing        bool // not in Report.Docs
}

// Link reports whether the URL is one to link to: an http or https URL.
// Another (a "javascript:" URL of an input) is shown as text.
func (d docView) Link() bool { return core.WebURL(d.URL) }

// Meta returns the source, date and word count, joined by " · ". The
// source is isolated (FIRST STRONG ISOLATE ... POP DIRECTIONAL ISOLATE), so
// that its direction cannot turn the date and count around.
func (d docView) Meta() string {
	var parts []string
	if d.Source != "" {
		parts = append(parts, "\u2068"+d.Source+"\u2069")
	}
	if d.Date != "" {
		parts = append(parts, d.Date)
	}
	if d.Words > 0 {
		parts = append(parts, thousands(d.Words)+" words")
	}
	return strings.Join(parts, " · ")
}

type memberView struct {
	Doc       docView
	Shared    string // share of the member's words found in the representative
	RepShared string // share of the representative's words found in the member
	Diff      template.HTML
	Open      bool
	Link      linkView // how it joined the cluster
}

// build turns a Report into the view the template shows.
func build(r Report) *view {
	v := &view{Title: r.Title, CSS: template.CSS(pageStyle + "\n" + diff.HTMLStyle), Legend: template.HTML(diff.HTMLLegend)}
	if v.Title == "" {
		v.Title = "neardup report"
	}
	v.Stats, v.Inputs = stats(r.Summary, len(r.Clusters)), strings.Join(r.Summary.Inputs, ", ")
	v.More = r.More
	lim := r.Limits.withDefaults()
	shown := lim.shown(r.Clusters)
	if len(shown) < len(r.Clusters) {
		v.Note = fmt.Sprintf("Showing the %d largest of %s clusters, at most %d %s each besides the representative.",
			len(shown), thousands(len(r.Clusters)), lim.Members, plural(lim.Members, "member", "members"))
	}
	joined := links(r, lim, shown)
	for _, c := range shown {
		v.Clusters = append(v.Clusters, buildCluster(r, lim, c, joined))
	}
	return v
}

func buildCluster(r Report, lim Limits, c core.Cluster, joined map[string]linkView) clusterView {
	rep, repOK := r.Docs[c.Representative]
	cv := clusterView{ID: c.ID, Size: len(c.Members), Why: c.Why, Rep: docOf(c.Representative, rep, repOK)}
	members := lim.members(c)
	cv.Hidden = len(c.Members) - len(members) - 1
	if !slices.Contains(c.Members, c.Representative) {
		cv.Hidden++ // a representative outside Members is not counted in it
	}
	lo, hi := 2.0, -1.0
	for i, id := range members {
		doc, ok := r.Docs[id]
		mv := memberView{Doc: docOf(id, doc, ok), Open: i == 0, Link: joined[id]}
		if ok && repOK {
			d := diff.Compare(rep.Text, doc.Text, diff.Options{By: r.By})
			d.A.ID, d.A.Title = "representative: "+rep.ID, rep.Title
			d.B.ID, d.B.Title = doc.ID, doc.Title
			var b strings.Builder
			diff.WriteHTMLFragment(&b, d) // a strings.Builder does not fail
			mv.Diff = template.HTML(b.String())
			mv.Shared, mv.RepShared = percent(d.B.Overlap()), percent(d.A.Overlap())
			mv.Doc.Words, cv.Rep.Words = d.B.Words, d.A.Words
			lo, hi = min(lo, d.B.Overlap()), max(hi, d.B.Overlap())
		}
		cv.Members = append(cv.Members, mv)
	}
	if hi >= 0 {
		cv.Shared = percent(hi)
		if l := percent(lo); l != cv.Shared {
			cv.Shared = strings.TrimSuffix(l, "%") + "–" + cv.Shared
		}
	}
	return cv
}

func docOf(id string, d core.Document, ok bool) docView {
	v := docView{ID: id, Missing: !ok}
	if ok {
		v.Title, v.Source, v.URL = d.Title, d.Source, d.URL
		if !d.Date.IsZero() {
			v.Date = d.Date.Format("2006-01-02 15:04")
		}
	}
	return v
}

// stats lists the non-zero figures of s.
func stats(s Summary, clusters int) []stat {
	if s.Clusters == 0 {
		s.Clusters = clusters
	}
	var out []stat
	if s.Method != "" {
		out = append(out, stat{"method", s.Method})
	}
	for _, f := range []struct {
		label string
		n     int
	}{{"documents", s.Documents}, {"not compared", s.NotCompared}, {"skipped", s.Skipped}, {"duplicate pairs", s.Duplicates},
		{"similar pairs", s.Similar}, {"clusters", s.Clusters}, {"documents in clusters", s.Clustered},
		{"kept", s.Kept}} {
		if f.n != 0 {
			out = append(out, stat{f.label, thousands(f.n)})
		}
	}
	if s.Seconds > 0 {
		out = append(out, stat{"seconds", strconv.FormatFloat(s.Seconds, 'f', 1, 64)})
	}
	return out
}

// plural returns one when n is 1 and many otherwise: "1 member", "2
// members".
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func percent(x float64) string { return diff.Percent(x) }

// thousands formats n with a thin space between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	start := 0
	if n < 0 {
		start = 1
	}
	for i := len(s) - 3; i > start; i -= 3 {
		s = s[:i] + "\u202f" + s[i:]
	}
	return s
}
