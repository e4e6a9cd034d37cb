package extracteval

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// Meta is what a dataset records about a page besides its text: the
// article's title, its authors, when it was published and its language. A
// field is empty when the dataset gives none for the page.
type Meta struct {
	Title   string
	Authors []string
	// Published is the date as the dataset writes it: "2025-09-04",
	// "2025-04-15 03:08:00+00:00".
	Published string
	// Lang is the ISO 639-1 code of the page's language (DAnIEL's).
	Lang string
}

// PageMeta is the metadata a system finds on a page.
type PageMeta struct {
	Title, Author, Lang string
	Date                time.Time
}

// MetaSystem is a named metadata extractor.
type MetaSystem struct {
	Name    string
	Extract func(ctx context.Context, in Input) (PageMeta, error)
}

// Tally counts one field over pages. Of the pages whose gold gives the
// field, Right found it, Wrong found something else and None found
// nothing; Spurious counts the pages whose gold gives none where the
// system found one (a date or an author on a page that has none).
type Tally struct {
	Gold, Right, Wrong, None, Spurious int
}

// add counts one page: gold says whether the dataset gives the field, found
// whether the system did, right whether they agree.
func (t *Tally) add(gold, found, right bool) {
	switch {
	case !gold:
		if found {
			t.Spurious++
		}
	case right:
		t.Gold++
		t.Right++
	case found:
		t.Gold++
		t.Wrong++
	default:
		t.Gold++
		t.None++
	}
}

// Share returns Right as a share of Gold, 0 without gold.
func (t Tally) Share() float64 {
	if t.Gold == 0 {
		return 0
	}
	return float64(t.Right) / float64(t.Gold)
}

// MetaPage is one page's metadata: what its gold records, what the system
// found, and the verdicts.
type MetaPage struct {
	ID, Site                                    string
	Gold                                        *Meta
	Found                                       PageMeta
	Failed                                      bool
	TitleRight, DateRight, AuthRight, LangRight bool
}

// MetaResult is one system's metadata scores on one dataset (or one half
// of its per-site split).
type MetaResult struct {
	Dataset, System            string
	Pages, Failed              int
	Title, Date, Authors, Lang Tally
	PerPage                    []MetaPage
}

// EvaluateMeta runs sys over the pages of ds that carry metadata and
// scores the title, date, authors and language it finds on each.
func EvaluateMeta(ctx context.Context, ds *Dataset, sys MetaSystem, workers int) (MetaResult, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var pages []Page
	for _, p := range ds.Pages {
		if p.Meta != nil {
			pages = append(pages, p)
		}
	}
	if len(pages) == 0 {
		return MetaResult{}, fmt.Errorf("extracteval: %s records no titles, authors, dates or languages", ds.Name)
	}
	sub := &Dataset{Name: ds.Name, Dir: ds.Dir, Pages: pages}
	inputs, err := readInputs(sub)
	if err != nil {
		return MetaResult{}, err
	}
	found := make([]PageMeta, len(pages))
	failed := make([]bool, len(pages))
	err = eachPage(ctx, len(inputs), workers, func(i int) {
		f, err := sys.Extract(ctx, inputs[i])
		found[i], failed[i] = f, err != nil
	})
	if err != nil {
		return MetaResult{}, err
	}
	per := make([]MetaPage, len(pages))
	for i, p := range pages {
		m, f := p.Meta, found[i]
		per[i] = MetaPage{ID: p.ID, Site: Site(inputs[i]), Gold: m, Found: f, Failed: failed[i],
			TitleRight: SameTitle(m.Title, f.Title),
			DateRight:  SameDay(m.Published, f.Date),
			AuthRight:  SameAuthors(m.Authors, f.Author),
			LangRight:  m.Lang != "" && strings.EqualFold(m.Lang, f.Lang)}
	}
	return tallyMeta(ds.Name, sys.Name, per), nil
}

// tallyMeta sums per-page verdicts.
func tallyMeta(dataset, system string, per []MetaPage) MetaResult {
	r := MetaResult{Dataset: dataset, System: system, Pages: len(per), PerPage: per}
	for _, v := range per {
		m := v.Gold
		if v.Failed {
			r.Failed++
		}
		r.Title.add(m.Title != "", v.Found.Title != "", v.TitleRight)
		r.Date.add(m.Published != "", !v.Found.Date.IsZero(), v.DateRight)
		r.Authors.add(len(m.Authors) > 0, strings.TrimSpace(v.Found.Author) != "", v.AuthRight)
		r.Lang.add(m.Lang != "", v.Found.Lang != "", v.LangRight)
	}
	return r
}

// Half returns the scores of the pages of one half of the per-site split.
func (r MetaResult) Half(h Half) MetaResult {
	var per []MetaPage
	for _, v := range r.PerPage {
		if SplitHalf(v.Site) == h {
			per = append(per, v)
		}
	}
	return tallyMeta(r.Dataset+":"+string(h), r.System, per)
}

// words returns the lower-case words of s: runs of letters, marks,
// digits and underscores in any script.
func words(s string) []string {
	return wordRE.FindAllString(strings.ToLower(s), -1)
}

var wordRE = regexp.MustCompile(`[\p{L}\p{M}\p{N}_]+`)

// SameTitle reports whether a found title is the gold one: the same words
// in the same order, case and punctuation aside. An empty gold title
// matches nothing.
func SameTitle(gold, found string) bool {
	g := words(gold)
	return len(g) > 0 && slices.Equal(g, words(found))
}

// SameDay reports whether a found date falls on the gold date's day: in the
// gold's time zone when it gives one, else in the found date's own.
func SameDay(gold string, found time.Time) bool {
	gold = strings.TrimSpace(gold)
	if len(gold) < len("2006-01-02") || found.IsZero() {
		return false
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02 15:04:05Z07:00", "2006-01-02T15:04:05.999999Z07:00", "2006-01-02 15:04:05.999999Z07:00"} {
		if t, err := time.Parse(layout, gold); err == nil {
			found = found.In(t.Location())
			break
		}
	}
	return found.Format("2006-01-02") == gold[:len("2006-01-02")]
}

// authorSep splits a list of authors: commas, semicolons, ampersands,
// slashes and "and" in a few languages.
var authorSep = regexp.MustCompile(`(?i)\s*(?:[,;&/|]|\band\b|\bund\b|\bet\b|\by\b|\bi\b|\bog\b|\boch\b|\ben\b)\s*`)

// authorNames returns the distinct names of a list of authors, each as its
// lower-case words.
func authorNames(list ...string) []string {
	var out []string
	for _, s := range list {
		for _, part := range authorSep.Split(s, -1) {
			if w := strings.Join(words(part), " "); w != "" && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	slices.Sort(out)
	return out
}

// SameAuthors reports whether a found author line names the gold authors,
// no more and no fewer, in any order.
func SameAuthors(gold []string, found string) bool {
	g := authorNames(gold...)
	return len(g) > 0 && slices.Equal(g, authorNames(found))
}

// WriteMetaTable writes one row per result: for each field, how many pages
// the gold gives it for, the share of those found right, and how many were
// wrong, missing and (dates, authors) given where the gold has none. A
// field no page of the set records is left blank.
func WriteMetaTable(w io.Writer, results []MetaResult) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "dataset\tsystem\tpages\tfailed\ttitle\tright\twrong\tnone\tdate\tright\twrong\tnone\tspurious\tauthors\tright\twrong\tnone\tspurious\tlang\tright\twrong\tnone\t")
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t", r.Dataset, r.System, r.Pages, r.Failed)
		for _, f := range []struct {
			t        Tally
			spurious bool
		}{{r.Title, false}, {r.Date, true}, {r.Authors, true}, {r.Lang, false}} {
			switch {
			case f.t.Gold == 0 && f.spurious:
				fmt.Fprint(tw, "0\t\t\t\t\t")
			case f.t.Gold == 0:
				fmt.Fprint(tw, "0\t\t\t\t")
			case f.spurious:
				fmt.Fprintf(tw, "%d\t%.3f\t%d\t%d\t%d\t", f.t.Gold, f.t.Share(), f.t.Wrong, f.t.None, f.t.Spurious)
			default:
				fmt.Fprintf(tw, "%d\t%.3f\t%d\t%d\t", f.t.Gold, f.t.Share(), f.t.Wrong, f.t.None)
			}
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
