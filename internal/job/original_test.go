package job

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/internal/output"
)

// TestOriginalIsPublishedFirst reads a wire story after two of its copies:
// the original of its cluster and of each of its duplicate pairs is the
// one published first, whatever the order read; two of one date are taken
// in the order read, and undated copies by the order read.
func TestOriginalIsPublishedFirst(t *testing.T) {
	g := enginetest.NewTextGen(35)
	story, other := g.Sentences(10), g.Sentences(10)
	edit := func(s []string, i int) string {
		c := append([]string(nil), s...)
		c[i] = g.Sentence()
		return strings.Join(c, " ")
	}
	dir := t.TempDir()
	var b strings.Builder
	for _, r := range []map[string]string{
		{"id": "copy-noon", "date": "2024-03-01T12:00:00Z", "text": edit(story, 2)},
		{"id": "copy-half-past", "date": "2024-03-01T10:30:00Z", "text": edit(story, 5)},
		{"id": "wire", "date": "2024-03-01T10:00:00Z", "text": strings.Join(story, " ")},
		{"id": "also-noon", "date": "2024-03-01T12:00:00Z", "text": edit(story, 7)},
		{"id": "undated-first", "text": strings.Join(other, " ")},
		{"id": "undated-second", "text": edit(other, 4)},
	} {
		line, _ := json.Marshal(r)
		b.Write(append(line, '\n'))
	}
	in := filepath.Join(dir, "news.jsonl")
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, err := methods.Lookup("minhash")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if _, err := Run(t.Context(), Options{Inputs: []string{in}, Out: out, Method: spec.Defaults(), Keep: cluster.Earliest}); err != nil {
		t.Fatal(err)
	}
	var clusters []core.Cluster
	for _, l := range lines(t, filepath.Join(out, output.ClustersFile)) {
		var c core.Cluster
		if err := json.Unmarshal([]byte(l), &c); err != nil {
			t.Fatal(err)
		}
		clusters = append(clusters, c)
	}
	originals := map[string]string{} // first member → original
	for _, c := range clusters {
		originals[c.Members[0]] = c.Original
		if c.Representative != c.Original {
			t.Errorf("cluster %d: --keep earliest kept %s, not its original %s", c.ID, c.Representative, c.Original)
		}
	}
	if diff := cmp.Diff(map[string]string{"copy-noon": "wire", "undated-first": "undated-first"}, originals); diff != "" {
		t.Errorf("originals by first member (-want +got)\n%s", diff)
	}
	want := map[string]string{ // "a~b" → original
		"copy-noon~copy-half-past":     "copy-half-past",
		"copy-noon~wire":               "wire",
		"copy-half-past~wire":          "wire",
		"copy-noon~also-noon":          "copy-noon", // one date: the first read
		"copy-half-past~also-noon":     "copy-half-past",
		"wire~also-noon":               "wire",
		"undated-first~undated-second": "undated-first",
	}
	got := map[string]string{}
	for _, l := range lines(t, filepath.Join(out, output.PairsFile)) {
		var p struct {
			A, B, Original string
			Label          core.Label
		}
		if err := json.Unmarshal([]byte(l), &p); err != nil {
			t.Fatal(err)
		}
		if p.Label != core.Duplicate {
			if p.Original != "" {
				t.Errorf("similar pair %s~%s names an original", p.A, p.B)
			}
			continue
		}
		got[p.A+"~"+p.B] = p.Original
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("originals of the duplicate pairs (-want +got)\n%s", diff)
	}
	removed := strings.Join(lines(t, filepath.Join(out, output.RemovedFile)), "\n")
	if strings.Contains(removed, `"id":"wire"`) || !strings.Contains(removed, `"id":"copy-noon","cluster":1,"kept":"wire"`) {
		t.Errorf("removed.jsonl does not keep the original:\n%s", removed)
	}
}

// TestCentralKeepsTheFullerOfTwo runs cosine, whose default policy is
// central, over a story and its shortened reprint, in both orders read. Two
// members have one mean similarity, each the other's; the tie goes to the
// longer, the original. Regression: the copy read first was kept.
func TestCentralKeepsTheFullerOfTwo(t *testing.T) {
	g := enginetest.NewTextGen(36)
	story := g.Sentences(12)
	full := map[string]string{"id": "wire-full", "date": "2024-03-01T10:00:00Z", "text": strings.Join(story, " ")}
	short := map[string]string{"id": "reprint-short", "date": "2024-03-02T10:00:00Z", "text": strings.Join(story[:9], " ")}
	spec, err := methods.Lookup("cosine")
	if err != nil {
		t.Fatal(err)
	}
	for _, order := range [][]map[string]string{{short, full}, {full, short}} {
		t.Run(order[0]["id"]+" first", func(t *testing.T) {
			dir := t.TempDir()
			var b strings.Builder
			for _, r := range order {
				line, _ := json.Marshal(r)
				b.Write(append(line, '\n'))
			}
			in := filepath.Join(dir, "news.jsonl")
			if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out")
			if _, err := Run(t.Context(), Options{Inputs: []string{in}, Out: out, Method: spec.Defaults()}); err != nil {
				t.Fatal(err)
			}
			got := lines(t, filepath.Join(out, output.ClustersFile))
			var c core.Cluster
			if len(got) != 1 || json.Unmarshal([]byte(got[0]), &c) != nil {
				t.Fatalf("want one cluster, got %q", got)
			}
			if c.Representative != "wire-full" || !strings.Contains(c.Why, "tied; the longest") {
				t.Errorf("kept %s (%s), want wire-full, the longer of a tie", c.Representative, c.Why)
			}
		})
	}
}
