// Command ndwatchbench measures neardup watch end to end on local news
// sites made from real texts: N article pages on S sites (one feed each,
// in every feed format, five page layouts, a few with site rules), served
// by local HTTP servers. The pages are originals, edited reprints on other
// sites, whole copies (some naming the original as canonical), teasers too
// short to be articles, gallery and video URLs, PDFs, broken, hanging and
// oversized pages, in set shares. One watch pass polls every feed; the
// report gives items per second, what became of each kind of page, the
// duplicate pairs marked against the truth of how the pages were made,
// and how well the article text was extracted. Two baselines measured in
// the same run put the pass's time in proportion: extracting every page in
// process, and adding the stored articles to a fresh index.
//
//	cd lab && go run ./cmd/ndwatchbench ../../shared/data/bbc-news-fulltext/bbc.tar.gz
//
// The source articles are the archive's, less every article that the
// minhash or sentence method pairs with an earlier one: the pages made
// from different articles are unrelated, so each marked pair is right or
// wrong by construction.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/alecthomas/kong"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/watch"
)

type benchCmd struct {
	BBC       string        `arg:"" type:"existingfile" help:"The BBC News archive, e.g. ../shared/data/bbc-news-fulltext/bbc.tar.gz."`
	Pages     int           `default:"2000" help:"Pages in all."`
	Sites     int           `default:"20" help:"Sites, one feed each."`
	Seed      uint64        `default:"1" help:"Seed of the generated sites."`
	Workers   int           `default:"8" help:"Feeds polled at once."`
	HostDelay time.Duration `name:"host-delay" default:"0s" help:"The watcher's least time between two requests to one host."`
	Timeout   time.Duration `default:"2s" help:"The watcher's request timeout (the hanging pages outlast it)."`
	Dir       string        `help:"Work directory for the indexes (default: a temporary one, removed)."`
	JSON      string        `name:"json" help:"Also write the report as JSON to this file."`
	Hanging   int           `default:"-1" help:"Pages that hang past the timeout (default: 0.5 % of the pages)."`
	Show      int           `help:"Print this many stored texts that differ from their page's article, with the article (stderr)."`
	Gold      string        `help:"Write the article pages (originals, reprints and copies) with their article text as an extraction gold folder (DIR/input/ID.html, DIR/GoldStandard/ID.txt) and exit."`
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var c benchCmd
	kctx := kong.Parse(&c, kong.Name("ndwatchbench"),
		kong.Description("Benchmark neardup watch on local news sites made from real texts: items/s, outcomes by page kind, duplicates against the truth."))
	kctx.FatalIfErrorf(c.run(ctx))
}

// report is what the benchmark measured.
type report struct {
	Articles       int                       `json:"source_articles"`
	Distinct       int                       `json:"distinct_articles"`
	Pages          int                       `json:"pages"`
	Sites          int                       `json:"sites"`
	Kinds          map[string]int            `json:"pages_by_kind"`
	Workers        int                       `json:"workers"`
	HostDelay      string                    `json:"host_delay"`
	PassSeconds    float64                   `json:"pass_seconds"`
	ItemsPerSec    float64                   `json:"items_per_second"`
	Requests       int64                     `json:"requests"`
	SecondPass     float64                   `json:"second_pass_seconds"`
	SecondNew      int                       `json:"second_pass_new_items"`
	SecondOutcomes map[string]int            `json:"second_pass_outcomes"`
	ExtractSecs    float64                   `json:"baseline_extract_seconds"`
	AddSecs        float64                   `json:"baseline_add_seconds"`
	Stored         int                       `json:"articles_stored"`
	Outcomes       map[string]map[string]int `json:"outcomes_by_kind"`
	Correct        map[string]float64        `json:"expected_outcome_share"`
	Pairs          pairScore                 `json:"pairs"`
	TextExact      float64                   `json:"text_exact_share"`
	TextTokenF1    float64                   `json:"text_token_f1"`
	LayoutPages    map[string]int            `json:"pages_by_layout"`
	LayoutExact    map[string]int            `json:"exact_by_layout"`
	LoadAverage    string                    `json:"load_average"`
}

// pairScore scores marked pairs against the truth.
type pairScore struct {
	Truth        int     `json:"truth_pairs"`
	Duplicate    int     `json:"marked_duplicate"`
	DupTrue      int     `json:"marked_duplicate_true"`
	Any          int     `json:"marked_any"`
	AnyTrue      int     `json:"marked_any_true"`
	DupPrecision float64 `json:"duplicate_precision"`
	DupRecall    float64 `json:"duplicate_recall"`
	AnyPrecision float64 `json:"any_precision"`
	AnyRecall    float64 `json:"any_recall"`
	ClusterPrec  float64 `json:"cluster_pair_precision"`
	ClusterRec   float64 `json:"cluster_pair_recall"`
}

// The kinds of an article page by publication: the page of its article
// published first among those the index stored (its original, whenever it
// arrived), or a copy of it.
const (
	kindFirst = "article, original"
	kindLater = "article, copy"
)

// expected is the outcome each kind of page should have.
var expected = map[string][]string{
	kindFirst:     {watch.OutcomeAdded},
	kindLater:     {watch.OutcomeDuplicate, watch.OutcomeSimilar},
	kindTeaser:    {string(core.SkipTooShort)},
	kindGallery:   {watch.OutcomeGallery},
	kindBinary:    {string(extract.SkipNotHTML)},
	kindBroken:    {watch.OutcomeError},
	kindSlowBroke: {watch.OutcomeError},
	kindHuge:      {string(core.SkipTooLarge)},
}

func (c *benchCmd) run(ctx context.Context) error {
	dir := c.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "ndwatchbench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	arts, err := readBBC(c.BBC)
	if err != nil {
		return err
	}
	pool, err := distinct(ctx, arts)
	if err != nil {
		return err
	}
	w, err := build(pool, c.Pages, c.Sites, c.Seed, c.Hanging)
	if err != nil {
		return err
	}
	w.start(c.Timeout)
	defer w.stop()
	if c.Gold != "" {
		return w.writeGold(c.Gold)
	}
	rep := &report{Articles: len(arts), Distinct: len(pool), Pages: len(w.pages), Sites: len(w.sites), Kinds: map[string]int{},
		Workers: c.Workers, HostDelay: c.HostDelay.String()}
	for _, p := range w.pages {
		rep.Kinds[p.kind]++
	}
	fmt.Fprintf(os.Stderr, "%d pages on %d sites from %d distinct articles (of %d)\n", len(w.pages), len(w.sites), len(pool), len(arts))

	db := filepath.Join(dir, "watch.db")
	os.Remove(db)
	x, err := neardup.Open(ctx, db, neardup.Options{StoreText: true})
	if err != nil {
		return err
	}
	defer x.Close()
	for _, s := range w.sites {
		if _, err := watch.AddFeed(ctx, x, watch.Feed{URL: s.srv.URL + "/feed", Rule: s.rule}); err != nil {
			return err
		}
	}
	hd := c.HostDelay
	if hd == 0 {
		hd = -1
	}
	// The sites are local (httptest on 127.0.0.1): the outbound rule
	// refuses loopback addresses unless allowed.
	o := watch.Options{Workers: c.Workers, HostDelay: hd, Timeout: c.Timeout, MaxBytes: 4 << 20,
		AllowPrivate: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")},
		Logger:       slog.New(slog.NewTextHandler(io.Discard, nil))}
	wr, err := watch.New(x, o)
	if err != nil {
		return err
	}
	start := time.Now()
	res, err := wr.Once(ctx)
	if err != nil {
		return err
	}
	rep.PassSeconds = time.Since(start).Seconds()
	items := 0
	for _, r := range res {
		items += r.New
		if r.Status != "ok" {
			fmt.Fprintf(os.Stderr, "feed %s: %s %v\n", r.Feed, r.Status, r.Err)
		}
	}
	rep.ItemsPerSec = float64(items) / rep.PassSeconds
	for _, s := range w.sites {
		rep.Requests += s.hits.Load()
	}
	start = time.Now()
	res, err = wr.Once(ctx)
	if err != nil {
		return err
	}
	rep.SecondPass = time.Since(start).Seconds()
	rep.SecondOutcomes = map[string]int{}
	for _, r := range res {
		rep.SecondNew += r.New
		for o, n := range r.Outcomes {
			rep.SecondOutcomes[o] += n
		}
	}

	if err := c.score(ctx, db, w, rep); err != nil {
		return err
	}
	if err := c.baselines(ctx, db, w, dir, rep); err != nil {
		return err
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		rep.LoadAverage = strings.Join(strings.Fields(string(b))[:3], " ")
	}
	print(os.Stdout, rep)
	if c.JSON != "" {
		data, _ := json.MarshalIndent(rep, "", "  ")
		return os.WriteFile(c.JSON, append(data, '\n'), 0o644)
	}
	return nil
}

// score compares what the pass stored with how the pages were made.
func (c *benchCmd) score(ctx context.Context, watched string, w *world, rep *report) error {
	byURL := map[string]*page{}
	for _, p := range w.pages {
		byURL[watch.Canonical(p.url())] = p
	}
	rep.Outcomes = map[string]map[string]int{}
	var docs []store.Doc
	var marks []store.Mark
	// The stored page of each article published first is its original
	// (of one date, the first stored), whatever the order the pages
	// arrived in: the others are its copies, whatever their kind.
	first := map[int]string{}
	firstDate := map[int]time.Time{}
	err := viewStore(ctx, watched, func(r store.Reader) error {
		if err := r.EachDoc(false, func(d *store.Doc) error {
			if p := byURL[d.ID]; p != nil && p.src >= 0 {
				if at, ok := firstDate[p.src]; !ok || p.date.Before(at) {
					first[p.src], firstDate[p.src] = d.ID, p.date
				}
			}
			return nil
		}); err != nil {
			return err
		}
		feeds, err := r.Feeds()
		if err != nil {
			return err
		}
		for _, f := range feeds {
			items, err := r.RecentItems(f.ID, 1<<30)
			if err != nil {
				return err
			}
			for _, it := range items {
				kind := "unknown"
				if p := byURL[it.Item]; p != nil {
					kind = p.kind
					if p.src >= 0 && p.kind != kindTeaser {
						kind = kindFirst
						if it.Doc != "" && first[p.src] != it.Doc {
							kind = kindLater
						}
					}
				}
				if rep.Outcomes[kind] == nil {
					rep.Outcomes[kind] = map[string]int{}
				}
				rep.Outcomes[kind][it.Outcome]++
			}
		}
		if err := r.EachDoc(true, func(d *store.Doc) error {
			docs = append(docs, *d)
			return nil
		}); err != nil {
			return err
		}
		return r.EachMark(func(m *store.Mark) error {
			marks = append(marks, *m)
			return nil
		})
	})
	if err != nil {
		return err
	}
	rep.Correct = map[string]float64{}
	for kind, outs := range rep.Outcomes {
		n, ok := 0, 0
		for o, k := range outs {
			n += k
			if slices.Contains(expected[kind], o) {
				ok += k
			}
		}
		rep.Correct[kind] = float64(ok) / float64(n)
	}
	rep.Stored = len(docs)
	rep.LayoutPages, rep.LayoutExact = map[string]int{}, map[string]int{}

	// Pairs: two stored pages made from one article.
	pageOf := map[int64]*page{}
	bySrc := map[int]int{}
	cluster := map[int64]int64{}
	var f1Sum float64
	var exact, texts int
	for _, d := range docs {
		p := byURL[d.ID]
		if p == nil {
			continue
		}
		pageOf[d.Ord] = p
		cluster[d.Ord] = d.Cluster
		if p.src >= 0 {
			bySrc[p.src]++
		}
		if p.paras != nil {
			want := strings.Join(p.paras, "\n\n")
			texts++
			layout := fmt.Sprintf("layout %d", p.site.tmpl)
			if p.site.rule != nil {
				layout += " with a site rule"
			}
			rep.LayoutPages[layout]++
			if d.Text == want {
				exact++
				rep.LayoutExact[layout]++
			} else if c.Show > 0 {
				c.Show--
				fmt.Fprintf(os.Stderr, "--- %s (%s)\n%s\n--- want\n%s\n", d.ID, layout, d.Text, want)
			}
			f1Sum += tokenF1(d.Text, want)
		}
	}
	if texts > 0 {
		rep.TextExact, rep.TextTokenF1 = float64(exact)/float64(texts), f1Sum/float64(texts)
	}
	ps := &rep.Pairs
	for _, k := range bySrc {
		ps.Truth += k * (k - 1) / 2
	}
	same := func(a, b int64) bool {
		pa, pb := pageOf[a], pageOf[b]
		return pa != nil && pb != nil && pa.src >= 0 && pa.src == pb.src
	}
	seen := map[[2]int64]bool{}
	for _, m := range marks {
		k := [2]int64{min(m.A, m.B), max(m.A, m.B)}
		if seen[k] {
			continue
		}
		seen[k] = true
		ps.Any++
		if same(m.A, m.B) {
			ps.AnyTrue++
		}
		if m.Label == core.Duplicate {
			ps.Duplicate++
			if same(m.A, m.B) {
				ps.DupTrue++
			}
		}
	}
	members := map[int64][]int64{}
	for ord, cl := range cluster {
		if cl != 0 {
			members[cl] = append(members[cl], ord)
		}
	}
	var clPairs, clTrue int
	for _, ords := range members {
		for i := range ords {
			for j := i + 1; j < len(ords); j++ {
				clPairs++
				if same(ords[i], ords[j]) {
					clTrue++
				}
			}
		}
	}
	ratio := func(a, b int) float64 {
		if b == 0 {
			return 0
		}
		return float64(a) / float64(b)
	}
	ps.DupPrecision, ps.DupRecall = ratio(ps.DupTrue, ps.Duplicate), ratio(ps.DupTrue, ps.Truth)
	ps.AnyPrecision, ps.AnyRecall = ratio(ps.AnyTrue, ps.Any), ratio(ps.AnyTrue, ps.Truth)
	ps.ClusterPrec, ps.ClusterRec = ratio(clTrue, clPairs), ratio(clTrue, ps.Truth)
	return nil
}

// tokenF1 is the F1 of the words of got against those of want, as bags.
func tokenF1(got, want string) float64 {
	count := map[string]int{}
	for _, w := range strings.Fields(want) {
		count[w]++
	}
	g := strings.Fields(got)
	common := 0
	for _, w := range g {
		if count[w] > 0 {
			count[w]--
			common++
		}
	}
	if common == 0 {
		return 0
	}
	p, r := float64(common)/float64(len(g)), float64(common)/float64(len(strings.Fields(want)))
	return 2 * p * r / (p + r)
}

// baselines measure, in this run, what the pass is made of: extracting
// every fetched page in process, and adding the stored articles to a fresh
// index in the watcher's chunks.
func (c *benchCmd) baselines(ctx context.Context, watched string, w *world, dir string, rep *report) error {
	var bodies []extract.Input
	for _, p := range w.pages {
		if p.paras != nil {
			bodies = append(bodies, extract.Input{URL: p.url(), ContentType: "text/html; charset=utf-8", Body: []byte(p.site.render(p))})
		}
	}
	start := time.Now()
	for _, in := range bodies {
		if _, _, err := extract.Page(ctx, in, extract.Options{}); err != nil {
			return err
		}
	}
	rep.ExtractSecs = time.Since(start).Seconds()

	var docs []core.Document
	err := viewStore(ctx, watched, func(r store.Reader) error {
		return r.EachDoc(true, func(d *store.Doc) error {
			docs = append(docs, core.Document{ID: d.ID, Title: d.Title, Text: d.Text, URL: d.URL, Source: d.Source, Date: time.Unix(d.Date, 0)})
			return nil
		})
	})
	if err != nil {
		return err
	}
	db := filepath.Join(dir, "baseline.db")
	os.Remove(db)
	y, err := neardup.Open(ctx, db, neardup.Options{StoreText: true})
	if err != nil {
		return err
	}
	defer y.Close()
	start = time.Now()
	for lo := 0; lo < len(docs); lo += watch.DefaultChunk {
		if _, err := y.AddSketched(ctx, docs[lo:min(lo+watch.DefaultChunk, len(docs))], nil, neardup.AddOptions{Exact: true}); err != nil {
			return err
		}
	}
	rep.AddSecs = time.Since(start).Seconds()
	return nil
}

func print(out io.Writer, r *report) {
	fmt.Fprintf(out, "ndwatchbench: %d pages on %d sites (one feed each) from %d distinct BBC articles (of %d); %d CPUs, load %s\n\n",
		r.Pages, r.Sites, r.Distinct, r.Articles, runtime.NumCPU(), r.LoadAverage)
	fmt.Fprintf(out, "watch pass:        %.2f s, %.0f items/s, %d requests (workers %d, host delay %s)\n", r.PassSeconds, r.ItemsPerSec, r.Requests, r.Workers, r.HostDelay)
	fmt.Fprintf(out, "second pass:       %.2f s, %d items tried again (pages that failed for a reason that may pass): %v\n", r.SecondPass, r.SecondNew, r.SecondOutcomes)
	fmt.Fprintf(out, "baseline extract:  %.2f s for the %d article pages (%.2f× the pass)\n", r.ExtractSecs, r.Kinds[kindOriginal]+r.Kinds[kindReprint]+r.Kinds[kindCanonical]+r.Kinds[kindCopy]+r.Kinds[kindTeaser], r.ExtractSecs/r.PassSeconds)
	fmt.Fprintf(out, "baseline add:      %.2f s for the %d stored articles (%.2f× the pass)\n\n", r.AddSecs, r.Stored, r.AddSecs/r.PassSeconds)

	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "page\titems\texpected\tas expected\toutcomes")
	kinds := make([]string, 0, len(r.Outcomes))
	for k := range r.Outcomes {
		kinds = append(kinds, k)
	}
	total := func(k string) int {
		n := 0
		for _, v := range r.Outcomes[k] {
			n += v
		}
		return n
	}
	sort.Slice(kinds, func(i, j int) bool { return total(kinds[i]) > total(kinds[j]) })
	for _, k := range kinds {
		var outs []string
		for o, n := range r.Outcomes[k] {
			outs = append(outs, fmt.Sprintf("%s %d", o, n))
		}
		sort.Strings(outs)
		fmt.Fprintf(tw, "%s\t%d\t%s\t%.1f %%\t%s\n", k, total(k), strings.Join(expected[k], "|"), 100*r.Correct[k], strings.Join(outs, ", "))
	}
	tw.Flush()
	p := r.Pairs
	fmt.Fprintf(out, "\npairs of stored pages made from one article: %d\n", p.Truth)
	fmt.Fprintf(out, "marked duplicate:            %d, precision %.3f, recall %.3f\n", p.Duplicate, p.DupPrecision, p.DupRecall)
	fmt.Fprintf(out, "marked duplicate or similar: %d, precision %.3f, recall %.3f\n", p.Any, p.AnyPrecision, p.AnyRecall)
	fmt.Fprintf(out, "pairs within clusters:       precision %.3f, recall %.3f\n", p.ClusterPrec, p.ClusterRec)
	fmt.Fprintf(out, "article text: %.1f %% extracted exactly, token F1 %.3f; exactly, by layout:", 100*r.TextExact, r.TextTokenF1)
	layouts := make([]string, 0, len(r.LayoutPages))
	for l := range r.LayoutPages {
		layouts = append(layouts, l)
	}
	sort.Strings(layouts)
	for _, l := range layouts {
		fmt.Fprintf(out, " %s %.0f %%;", l, 100*float64(r.LayoutExact[l])/float64(r.LayoutPages[l]))
	}
	fmt.Fprintln(out)
}

// viewStore reads the store at db through a handle of its own: what the
// index hands its clients does not reach the documents' rows.
func viewStore(ctx context.Context, db string, fn func(r store.Reader) error) error {
	st, err := store.Open(ctx, db, store.DefaultOptions())
	if err != nil {
		return err
	}
	defer st.Close()
	return st.View(ctx, fn)
}
