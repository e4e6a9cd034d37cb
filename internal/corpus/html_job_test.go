package corpus_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/job"
	"github.com/neardup/neardup/internal/output"
	"github.com/neardup/neardup/method/minhash"
)

// TestDedupPages runs a whole dedup job on web pages: a story on one site,
// its reprint on another with other menus and boilerplate, a third copy in
// a crawl, and pages that are not articles.
func TestDedupPages(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"pages/a.html":       corpus.SitePageForTest("Ferry back in service", corpus.StoryForTest),
		"pages/b.html":       corpus.ReprintPageForTest("Ferry back in service", corpus.StoryForTest),
		"pages/gallery.html": corpus.GalleryForTest,
		"pages/crawl.warc":   corpus.WARCForTest(t),
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	st, err := job.Run(t.Context(), job.Options{Inputs: []string{"pages"}, Out: "out", Method: minhash.Defaults()})
	if err != nil {
		t.Fatal(err)
	}
	wantSkipped := map[core.SkipReason]int{"too-short": 2, "http-status": 1}
	for reason, n := range st.Skipped {
		if n == 0 {
			delete(st.Skipped, reason)
		}
	}
	if diff := cmp.Diff(wantSkipped, st.Skipped); diff != "" || st.Read != 7 || st.Documents != 4 {
		t.Errorf("read %d, %d documents, want 7, 4; skipped (-want +got)\n%s", st.Read, st.Documents, diff)
	}
	var clusters []core.Cluster
	readJSONL(t, "out/"+output.ClustersFile, func(b []byte) {
		var c core.Cluster
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatal(err)
		}
		slices.Sort(c.Members)
		clusters = append(clusters, c)
	})
	if len(clusters) != 1 || !slices.Equal(clusters[0].Members, []string{"pages/a.html", "pages/b.html", "pages/crawl.warc#3"}) {
		t.Errorf("clusters %+v, want one of a.html, b.html and crawl.warc#3", clusters)
	}
	var kept []string
	readJSONL(t, "out/"+output.KeptFile, func(b []byte) {
		var rec map[string]string
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatalf("kept record %s: %v", b, err)
		}
		if len(rec) != 7 || rec["text"] == "" {
			t.Errorf("kept record %s, want id, url, title, text, date, author and lang", b)
		}
		kept = append(kept, rec["id"])
	})
	if len(kept) != 2 || kept[1] != "pages/crawl.warc#5" {
		t.Errorf("kept %q, want one of the story's copies and crawl.warc#5", kept)
	}
}

func readJSONL(t *testing.T, path string, fn func([]byte)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fn(sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}
