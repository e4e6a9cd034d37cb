package extracteval

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writeFiles creates files under dir from a name → content map.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCleanGold(t *testing.T) {
	for _, tc := range []struct {
		name string
		raw  []byte
		want string
	}{
		{"plain", []byte("Body text.\n"), "Body text.\n"},
		{"dragnet comments cut", []byte("Article.\n!@#$%^&*()  COMMENTS\nnice post"), "Article.\n"},
		{"cleaneval url line and markers", []byte("URL: http://x.test/a\n<h>Title\n<p>First para.\n  <l> item\n"),
			"Title\nFirst para.\n item\n"},
		{"windows-1252", []byte("caf\xe9 \x93quoted\x94"), "café “quoted”"},
		{"utf-16 with bom", []byte("\xff\xfeh\x00i\x00"), "hi"},
		{"utf-8 bom dropped", []byte("\xef\xbb\xbfhi"), "hi"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, CleanGold(tc.raw)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"flat/input/1.html":               "<p>one</p>",
		"flat/input/2.html":               "<p>two</p>",
		"flat/input/3.html":               "<p>no gold</p>",
		"flat/GoldStandard/1.txt":         "one",
		"flat/GoldStandard/2.txt":         "two",
		"flat/GoldStandard/9.txt":         "no input",
		"nested/dev/input/1.html":         "<p>a</p>",
		"nested/dev/GoldStandard/1.txt":   "a",
		"nested/final/input/1.htm":        "<p>b</p>",
		"nested/final/GoldStandard/1.txt": "b",
		"split.txt":                       "2\n\n",
	})
	ids := func(ds *Dataset) []string {
		var out []string
		for _, p := range ds.Pages {
			out = append(out, p.ID+"="+p.Gold)
		}
		return out
	}
	split, err := ReadIDs(filepath.Join(dir, "split.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name        string
		dir         string
		opts        OpenOptions
		want        []string
		wantMissing int
	}{
		{"flat pairs by stem", "flat", OpenOptions{}, []string{"1=one", "2=two"}, 1},
		{"split restricts", "flat", OpenOptions{IDs: split}, []string{"2=two"}, 0},
		{"nested folders prefix ids", "nested", OpenOptions{}, []string{"dev/1=a", "final/1=b"}, 0},
		{"nested split by full id", "nested", OpenOptions{IDs: []string{"final/1"}}, []string{"final/1=b"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := Open(filepath.Join(dir, tc.dir), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, ids(ds)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if ds.MissingInput != tc.wantMissing || ds.Name != tc.dir {
				t.Errorf("missing %d name %q, want %d %q", ds.MissingInput, ds.Name, tc.wantMissing, tc.dir)
			}
		})
	}
	if _, err := Open(filepath.Join(dir, "split.txt"), OpenOptions{}); err == nil {
		t.Error("Open of a file: no error")
	}
}

func TestReadInputEnvelope(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"plain.html": "<html><p>x</p></html>",
		"env.html":   "<text id=\"http://a.test/p\" title=\"T\" encoding=\"iso-8859-1\">\n<html><p>x</p></html>\n</text>\n",
		"unset.html": "<text id=\"http://a.test/q\" title=\"T\" encoding=\"unset\">\n<p>y</p></text>",
	})
	for _, tc := range []struct {
		name string
		want Input
	}{
		{"plain", Input{ID: "plain", Body: []byte("<html><p>x</p></html>")}},
		{"env", Input{ID: "env", URL: "http://a.test/p", ContentType: "text/html; charset=windows-1252",
			Body: []byte("<html><p>x</p></html>\n")}},
		{"unset", Input{ID: "unset", URL: "http://a.test/q", Body: []byte("<p>y</p>")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadInput(Page{ID: tc.name, InputPath: filepath.Join(dir, tc.name+".html")})
			if err != nil {
				t.Fatal(err)
			}
			got.Path = ""
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestPredictions(t *testing.T) {
	dir := t.TempDir()
	writeThreePages(t, dir)
	pred := filepath.Join(dir, "pred.jsonl")
	writeFiles(t, dir, map[string]string{"pred.jsonl": `{"id":"` + filepath.Join(dir, "ds/input/1.html") + `","text":"alpha beta gamma delta"}
{"id":"elsewhere/2.html","text":"alpha beta gamma delta","skipped":""}
{"id":"x/3.html","text":"wrong"}

{"id":"y/3.html","text":"alpha beta gamma delta"}
`})
	ds, err := Open(filepath.Join(dir, "ds"), OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sys, missing, err := Predictions("pred", pred, ds)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"3"}, missing); diff != "" {
		t.Errorf("missing (-want +got)\n%s", diff)
	}
	res, err := Evaluate(context.Background(), ds, sys, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Page 1 by path, page 2 by unique stem, page 3 ambiguous: empty. The
	// blank line is skipped.
	var got []PR
	for _, p := range res.Pages {
		got = append(got, p.PR)
	}
	if diff := cmp.Diff([]PR{{1, 1, false, false}, {1, 1, false, false}, {NoPrecision: true}}, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if res.Empty != 1 {
		t.Errorf("empty %d, want 1", res.Empty)
	}
	if _, _, err := Predictions("bad", filepath.Join(dir, "ds/input/1.html"), ds); err == nil {
		t.Error("non-JSON predictions: no error")
	}
}

// TestPredictionsGivenTwice: an id given twice with the same text is one
// record, and its page is scored by it; with another text it is an error
// naming both lines. Regression: the page was scored as empty.
func TestPredictionsGivenTwice(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"ds/input/1.html":       "<p>one</p>",
		"ds/GoldStandard/1.txt": "alpha beta gamma delta",
		"same.jsonl": `{"id":"1","text":"alpha beta gamma delta"}
{"id":"1","text":"alpha beta gamma delta"}
`,
		"other.jsonl": `{"id":"1","text":"alpha beta gamma delta"}
{"id":"2","text":"x"}
{"id":"1","text":"epsilon"}
`,
	})
	ds, res := scoreFile(t, filepath.Join(dir, "ds"), filepath.Join(dir, "same.jsonl"))
	if got := res.Pages[0].PR; got != (PR{Precision: 1, Recall: 1}) {
		t.Errorf("an id given twice alike: %+v, want precision and recall 1", got)
	}
	_, _, err := Predictions("other", filepath.Join(dir, "other.jsonl"), ds)
	want := filepath.Join(dir, "other.jsonl") + `:3: id "1" given again, with another text than on line 1`
	if err == nil || err.Error() != want {
		t.Errorf("an id given twice with two texts: %v, want %s", err, want)
	}
}

// TestPredictionsOfExtract: the ids `neardup extract` writes of a gold
// folder's pages, relative to the folder above the one it was given
// ("html/a1.html.gz" of `neardup extract wcxb/html`), or from further up,
// find their pages from any working directory, by the page's path relative
// to the gold folder, or by its file name without the compression's and
// the page's extensions; a page no record fits is listed as missing.
// Regression: every page of a .html.gz layout scored as empty.
func TestPredictionsOfExtract(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for _, id := range []string{"a1", "a2", "a3"} {
		files["wcxb/ground-truth/"+id+".json"] = `{"url":"https://example.com/` + id + `","_internal":{"page_type":{"primary":"article"}},"ground_truth":{"main_content":"alpha beta gamma delta"}}`
	}
	for _, id := range []string{"a1", "a2", "a3"} {
		files["wcxb/html/"+id+".html.gz"] = gzipped(t, "<p>alpha beta gamma delta</p>")
	}
	writeFiles(t, dir, files)
	ds, err := Open(filepath.Join(dir, "wcxb"), OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, pred string
		missing    []string
	}{
		{"relative to the gold folder", `{"id":"html/a1.html.gz","text":"alpha beta gamma delta"}
{"id":"html/a2.html.gz","text":"alpha beta gamma delta"}
{"id":"html/a3.html.gz","text":"alpha beta gamma delta"}
`, nil},
		{"from further up", `{"id":"data/wcxb/html/a1.html.gz","text":"alpha beta gamma delta"}
{"id":"data/wcxb/html/a2.html.gz","text":"alpha beta gamma delta"}
`, []string{"a3"}},
		{"by name", `{"id":"a1.html.gz","text":"alpha beta gamma delta"}
{"id":"x/a2.html","text":"alpha beta gamma delta"}
{"id":"a3.htm","text":"alpha beta gamma delta"}
`, nil},
		{"two of one name", `{"id":"x/a1.html.gz","text":"alpha beta gamma delta"}
{"id":"y/a1.html.gz","text":"alpha beta gamma delta"}
`, []string{"a1", "a2", "a3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pred := filepath.Join(t.TempDir(), "ext.jsonl")
			if err := os.WriteFile(pred, []byte(tc.pred), 0o644); err != nil {
				t.Fatal(err)
			}
			sys, missing, err := Predictions("ext", pred, ds)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.missing, missing); diff != "" {
				t.Errorf("missing (-want +got)\n%s", diff)
			}
			res, err := Evaluate(context.Background(), ds, sys, 1)
			if err != nil {
				t.Fatal(err)
			}
			if want := len(ds.Pages) - len(tc.missing); res.Mean.Pages-res.Empty != want {
				t.Errorf("%d pages predicted, want %d", res.Mean.Pages-res.Empty, want)
			}
		})
	}
}

// TestEmptyCountsPredictionsWithoutAWord: a set and its halves count as
// empty the predictions that hold no word, an empty text and one of
// punctuation alike. Regression: the set counted only the empty text, its
// halves both.
func TestEmptyCountsPredictionsWithoutAWord(t *testing.T) {
	dir := t.TempDir()
	writeThreePages(t, dir)
	writeFiles(t, dir, map[string]string{
		"pred.jsonl": `{"id":"1","text":""}
{"id":"2","text":" — … !"}
{"id":"3","text":"alpha beta gamma delta"}
`,
	})
	_, res := scoreFile(t, filepath.Join(dir, "ds"), filepath.Join(dir, "pred.jsonl"))
	tune, report := res.Half(Tune), res.Half(Report)
	if res.Empty != 2 || tune.Empty+report.Empty != 2 {
		t.Errorf("empty: set %d, halves %d + %d; want 2 in the set and in its halves", res.Empty, tune.Empty, report.Empty)
	}
}

// scoreFile opens the dataset in folder and scores the predictions of file
// pred on it, failing t on any error.
func scoreFile(t *testing.T, folder, pred string) (*Dataset, Result) {
	t.Helper()
	ds, err := Open(folder, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sys, _, err := Predictions("pred", pred, ds)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Evaluate(context.Background(), ds, sys, 1)
	if err != nil {
		t.Fatal(err)
	}
	return ds, res
}

// writeThreePages writes in dir/ds a dataset of the Dragnet layout: three
// pages, each of the same gold text.
func writeThreePages(t *testing.T, dir string) {
	t.Helper()
	writeFiles(t, dir, map[string]string{
		"ds/input/1.html":       "<p>one</p>",
		"ds/input/2.html":       "<p>two</p>",
		"ds/input/3.html":       "<p>three</p>",
		"ds/GoldStandard/1.txt": "alpha beta gamma delta",
		"ds/GoldStandard/2.txt": "alpha beta gamma delta",
		"ds/GoldStandard/3.txt": "alpha beta gamma delta",
	})
}
