package output

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/flagopts"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// writeDuring is a store whose next read, once armed, lets write store
// documents after its own reads and before it ends, as another process
// adding to the index meanwhile does.
type writeDuring struct {
	store.Store
	write func() error
}

func (s *writeDuring) View(ctx context.Context, fn func(r store.Reader) error) error {
	return s.Store.View(ctx, func(r store.Reader) error {
		if err := fn(r); err != nil {
			return err
		}
		if w := s.write; w != nil {
			s.write = nil
			return w()
		}
		return nil
	})
}

// The stats.json of an export counts the documents, marks and clusters
// its other files hold, however many another process adds meanwhile (a
// server or a watcher adding as it runs). They were read in a transaction
// of their own after the rest, and counted the documents stored since:
// "documents": 24000 beside 22000 in kept.jsonl and removed.jsonl.
func TestExportStatsMatchFiles(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(engine, func(t *testing.T) {
			dsn := storetest.DSN(t, engine)
			docs := enginetest.Copies(enginetest.NewTextGen(5), 40, 6)
			first, err := index.Open(t.Context(), dsn, store.Options{Sync: "normal"}, methods.All, index.OpenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer first.Close()
			if _, err := first.Add(t.Context(), docs[:30], index.AddOptions{}); err != nil {
				t.Fatal(err)
			}
			st, err := store.Open(t.Context(), dsn, store.Options{Sync: "normal"})
			if err != nil {
				t.Fatal(err)
			}
			during := &writeDuring{Store: st}
			x, err := index.OpenIndex(t.Context(), during, methods.All, index.OpenOptions{Existing: true})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			defer x.Close()
			during.write = func() error {
				_, err := first.Add(context.WithoutCancel(t.Context()), docs[30:], index.AddOptions{})
				return err
			}
			dir := filepath.Join(t.TempDir(), "out")
			if err := Export(t.Context(), x, dir); err != nil {
				t.Fatal(err)
			}
			var stats struct {
				Documents int            `json:"documents"`
				Marks     map[string]int `json:"marks"`
				Clusters  int            `json:"clusters"`
			}
			data, err := os.ReadFile(filepath.Join(dir, "stats.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &stats); err != nil {
				t.Fatal(err)
			}
			docsIn := countLines(t, dir, "kept.jsonl") + countLines(t, dir, "removed.jsonl") + countLines(t, dir, "rejects.jsonl")
			marks := 0
			for _, n := range stats.Marks {
				marks += n
			}
			if stats.Documents != docsIn || marks != countLines(t, dir, "pairs.jsonl") || stats.Clusters != countLines(t, dir, "clusters.jsonl") {
				t.Errorf("stats.json counts %d documents, %d marks and %d clusters; the files hold %d, %d and %d",
					stats.Documents, marks, stats.Clusters, docsIn, countLines(t, dir, "pairs.jsonl"), countLines(t, dir, "clusters.jsonl"))
			}
			if docsIn != 30 {
				t.Errorf("%d documents exported, want the 30 stored when the export began", docsIn)
			}
		})
	}
}

// countLines counts the lines of the file name in dir.
func countLines(t *testing.T, dir, name string) int {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); {
		n++
	}
	return n
}

// TestExportRejectsNameTheLimitTheyFellUnder: an export blamed rarewords'
// --min-words for a document of eight one-letter words that the 30
// characters of --min-text had skipped, and sentences'
// --min-sentence-chars for a line of symbols, which has no words. With its
// text stored the method tells its limit from the others; without, each
// that may be is named.
func TestExportRejectsNameTheLimitTheyFellUnder(t *testing.T) {
	const (
		words     = "not compared: fewer than 3 words (--min-words)"
		minText   = "not compared: a text shorter than the --min-text it was added with (30 characters by default, white space not counted)"
		either    = "not compared: fewer than 3 words (--min-words), or a text shorter than the --min-text it was added with (30 characters by default, white space not counted)"
		sentences = "not compared: no sentence of 20 characters or more (--min-sentence-chars), as in a table or a list of short lines"
		noWords   = "not compared: no words left to compare once the text is analysed (punctuation, numbers or stop words only)"
		orNoWords = sentences + ", or no words left to compare once the text is analysed (punctuation, numbers or stop words only)"
	)
	var prices []string
	for i := range 12 {
		prices = append(prices, fmt.Sprintf("Item %d. $4.%d0.", i, i%10))
	}
	// Of two sources: rarewords refuses an add after which no document it
	// compares has one.
	docs := []core.Document{
		{ID: "stub8", Source: "wire", Text: "a b c d e f g h"},
		{ID: "two", Source: "site", Text: "Supercalifragilisticexpialidocious antidisestablishmentarianism"},
		{ID: "rule", Source: "wire", Text: strings.Repeat("=", 46)},
		{ID: "prices", Source: "site", Text: strings.Join(prices, "\n\n")},
		{ID: "long", Source: "wire", Text: "The harbour bridge closed on Tuesday after inspectors found cracks."},
	}
	for _, tc := range []struct {
		name, method string
		minWords     int
		storeText    bool
		want         map[string]string
	}{
		{"rarewords texts stored", "rarewords", 3, true, map[string]string{"stub8": minText, "two": words, "rule": words}},
		{"rarewords no texts", "rarewords", 3, false, map[string]string{"stub8": either, "two": either, "rule": either}},
		{"sentences texts stored", "sentences", 0, true, map[string]string{"stub8": minText, "rule": noWords, "prices": sentences}},
		{"sentences no texts", "sentences", 0, false, map[string]string{"stub8": minText, "rule": orNoWords, "prices": orNoWords}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec, _ := methods.Lookup(tc.method)
			c := spec.Defaults()
			if tc.minWords > 0 {
				var err error
				if c, err = flagopts.Set(c, "min-words", tc.minWords); err != nil {
					t.Fatal(err)
				}
			}
			x, err := index.Open(t.Context(), filepath.Join(t.TempDir(), "index.db"), store.Options{}, methods.All,
				index.OpenOptions{Method: c, StoreText: tc.storeText})
			if err != nil {
				t.Fatal(err)
			}
			defer x.Close()
			if _, err := x.Add(t.Context(), docs, index.AddOptions{}); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), "out")
			if err := Export(t.Context(), x, dir); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join(dir, RejectsFile))
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for l := range strings.Lines(string(data)) {
				var r Reject
				if err := json.Unmarshal([]byte(l), &r); err != nil {
					t.Fatal(err)
				}
				got[r.ID] = r.Error
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("rejects.jsonl errors (-want +got)\n%s", diff)
			}
		})
	}
}

// TestExportListsExactCopiesWithTheirClusters: an exact copy (stored
// without being compared, as watch and serve add) chosen as its cluster's
// representative, dated before its original under --keep earliest or
// longer under --keep longest, was left out of kept.jsonl, the story lost
// from the de-duplicated corpus; and every exact copy was in rejects.jsonl
// besides kept.jsonl or removed.jsonl. A copy is a member of its cluster:
// kept when it represents it, else removed, never a reject.
func TestExportListsExactCopiesWithTheirClusters(t *testing.T) {
	g := enginetest.NewTextGen(7)
	day := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	story := g.Text(600)
	a := core.Document{ID: "a", Title: "Bridge approved", Text: story, URL: "https://news.example/bridge", Date: day}
	sameEarlier := a
	sameEarlier.ID, sameEarlier.Date = "b", day.Add(-time.Hour)
	longerByURL := a
	longerByURL.ID, longerByURL.Text = "b", story+" "+g.Text(300)
	others := []core.Document{
		{ID: "other", Title: "Ferry", Text: g.Text(600), Date: day},
		{ID: "stub", Text: "too short"},
	}
	for _, tc := range []struct {
		name string
		keep cluster.Policy
		copy core.Document
		want map[string][]string // file → ids
	}{
		{"earliest keeps the copy dated first", cluster.Earliest, sameEarlier,
			map[string][]string{KeptFile: {"b", "other"}, RemovedFile: {"a"}, RejectsFile: {"stub"}}},
		{"longest keeps the longer copy by URL", cluster.Longest, longerByURL,
			map[string][]string{KeptFile: {"b", "other"}, RemovedFile: {"a"}, RejectsFile: {"stub"}}},
		{"first removes the copy", cluster.First, sameEarlier,
			map[string][]string{KeptFile: {"a", "other"}, RemovedFile: {"b"}, RejectsFile: {"stub"}}},
	} {
		for _, engine := range storetest.Engines {
			t.Run(tc.name+"/"+engine, func(t *testing.T) {
				x, err := index.Open(t.Context(), storetest.DSN(t, engine), store.Options{}, methods.All,
					index.OpenOptions{Keep: tc.keep, StoreText: true})
				if err != nil {
					t.Fatal(err)
				}
				defer x.Close()
				for _, d := range append([]core.Document{a, tc.copy}, others...) {
					ms, err := x.Add(t.Context(), []core.Document{d}, index.AddOptions{Exact: true})
					if err != nil {
						t.Fatal(err)
					}
					if d.ID == "b" && ms[0].Skip != core.SkipExactCopy {
						t.Fatalf("b stored %q, want an exact copy", ms[0].Skip)
					}
				}
				got, _ := exportedIDs(t, x)
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("ids by file (-want +got)\n%s", diff)
				}
			})
		}
	}
}

// TestExportRejectsCopiesOfASkippedDocument: a document the method
// skipped (too short) and a later one of the same title and text, added
// with Exact as watch and serve add, are both rejects, as dedup of the two
// makes them. The second was stored as an exact copy of the first, the
// two were a cluster, and the export wrote the first to kept.jsonl, the
// second to removed.jsonl and neither to rejects.jsonl. A copy of a
// document the method skipped is added as any document: skipped too
// short in its turn, in no cluster.
func TestExportRejectsCopiesOfASkippedDocument(t *testing.T) {
	docs := []core.Document{{ID: "stub", Title: "Brief", Text: "too short"}, {ID: "stub2", Title: "Brief", Text: "too short"}}
	want := map[string][]string{KeptFile: nil, RemovedFile: nil, RejectsFile: {"stub", "stub2"}}
	for _, link := range []cluster.Linking{cluster.Any, cluster.Majority} {
		for _, engine := range storetest.Engines {
			t.Run(string(link)+"/"+engine, func(t *testing.T) {
				x, err := index.Open(t.Context(), storetest.DSN(t, engine), store.Options{}, methods.All,
					index.OpenOptions{StoreText: true, Link: link})
				if err != nil {
					t.Fatal(err)
				}
				defer x.Close()
				for _, d := range docs {
					ms, err := x.Add(t.Context(), []core.Document{d}, index.AddOptions{Exact: true})
					if err != nil {
						t.Fatal(err)
					}
					if ms[0].Skip != core.SkipTooShort || ms[0].Cluster != 0 {
						t.Errorf("%s stored %q in cluster %d, want too short in none", d.ID, ms[0].Skip, ms[0].Cluster)
					}
				}
				got, dir := exportedIDs(t, x)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("ids by file (-want +got)\n%s", diff)
				}
				if n := countLines(t, dir, ClustersFile); n != 0 {
					t.Errorf("%d clusters exported, want none", n)
				}
			})
		}
	}
}

// TestExportRejectsASkippedDocumentInACluster: a document the method
// skipped that a store holds in a cluster, with an exact copy of it (as
// an index stored such copies when it took them for copies), is a reject,
// never kept: the export wrote it to kept.jsonl as its cluster's
// representative, a document never compared in the de-duplicated corpus.
func TestExportRejectsASkippedDocumentInACluster(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(engine, func(t *testing.T) {
			dsn := storetest.DSN(t, engine)
			x, err := index.Open(t.Context(), dsn, store.Options{}, methods.All, index.OpenOptions{StoreText: true})
			if err != nil {
				t.Fatal(err)
			}
			defer x.Close()
			if _, err := x.Add(t.Context(), []core.Document{{ID: "stub", Title: "Brief", Text: "too short"}},
				index.AddOptions{Exact: true}); err != nil {
				t.Fatal(err)
			}
			st, err := store.Open(t.Context(), dsn, store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			err = st.Update(t.Context(), func(w store.Writer) error {
				stub, err := w.Doc("stub")
				if err != nil {
					return err
				}
				copied := stub
				copied.ID, copied.Skip = "stub2", core.SkipExactCopy
				ord, err := w.Insert(&copied, nil)
				if err != nil {
					return err
				}
				if err := w.AddMarks([]store.Mark{{A: stub.Ord, B: ord, Method: index.ExactMethod, Score: 1,
					Label: core.Duplicate, Evidence: []byte(`{"by":"content"}`)}}); err != nil {
					return err
				}
				c, err := w.NewCluster()
				if err != nil {
					return err
				}
				return w.SetCluster([]int64{stub.Ord, ord}, c)
			})
			if err != nil {
				t.Fatal(err)
			}
			got, _ := exportedIDs(t, x)
			want := map[string][]string{KeptFile: nil, RemovedFile: {"stub2"}, RejectsFile: {"stub"}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("ids by file (-want +got)\n%s", diff)
			}
		})
	}
}

// exportedIDs exports x into a new directory and returns the ids of its
// kept, removed and rejects files, by file, in order, and the directory.
func exportedIDs(t *testing.T, x *index.Index) (map[string][]string, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "out")
	if err := Export(t.Context(), x, dir); err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, name := range []string{KeptFile, RemovedFile, RejectsFile} {
		got[name] = idsIn(t, dir, name)
	}
	return got, dir
}

// idsIn returns the ids of the lines of the file name in dir, in order.
func idsIn(t *testing.T, dir, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for l := range strings.Lines(string(data)) {
		var v struct{ ID string }
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, v.ID)
	}
	return ids
}
