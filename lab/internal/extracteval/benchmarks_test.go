package extracteval

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// pageLines renders a dataset's pages as "id url gold" for comparison.
func pageLines(ds *Dataset) []string {
	var out []string
	for _, p := range ds.Pages {
		out = append(out, p.ID+" "+p.URL+" "+p.Gold)
	}
	return out
}

func TestOpenArticleBench(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"ground-truth.json": `{"a1":{"articleBody":"The first story.\n\nIts end.","url":"https://news.example/1"},` +
			`"b2":{"articleBody":"No page for this one.","url":"https://news.example/2"},` +
			`"c3":{"articleBody":"A page not gzipped.","url":"https://blog.example/3","headline":"Not gzipped","author":"Jane Roe","datePublished":"2016-12-09T09:13:00.000Z"},` +
			`"d4":{"articleBody":"  ","url":"https://news.example/4"},` +
			`"e5":{"url":"https://news.example/5"}}`,
		"html/a1.html.gz": gzipped(t, "<p>The first story.</p><p>Its end.</p>"),
		"html/c3.html":    "<p>A page not gzipped.</p>",
		"html/d4.html.gz": gzipped(t, "<p>Empty gold.</p>"),
		"html/e5.html.gz": gzipped(t, "<p>No gold.</p>"),
	})
	ds, err := Open(dir, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// A page whose articleBody is empty or absent is a page, as the
	// benchmark's evaluate.py scores it. Regression: it was left out.
	want := []string{
		"a1 https://news.example/1 The first story.\n\nIts end.",
		"c3 https://blog.example/3 A page not gzipped.",
		"d4 https://news.example/4   ",
		"e5 https://news.example/5 ",
	}
	if diff := cmp.Diff(want, pageLines(ds)); diff != "" {
		t.Errorf("pages (-want +got)\n%s", diff)
	}
	if ds.MissingInput != 1 {
		t.Errorf("MissingInput %d, want 1", ds.MissingInput)
	}
	if ds.Pages[0].Meta != nil {
		t.Errorf("a1 records no metadata, got %+v", ds.Pages[0].Meta)
	}
	if diff := cmp.Diff(&Meta{Title: "Not gzipped", Authors: []string{"Jane Roe"}, Published: "2016-12-09T09:13:00.000Z"}, ds.Pages[1].Meta); diff != "" {
		t.Errorf("c3's metadata (-want +got)\n%s", diff)
	}
	in, err := ReadInput(ds.Pages[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(in.Body), "Its end.") {
		t.Errorf("a1's page reads %q, want it inflated", in.Body)
	}
	// evaluate.py: no recall of an empty gold; precision 0 when anything
	// is predicted, none when nothing is.
	if got := ds.Pages[2].Score("Empty gold."); got != (PR{NoRecall: true}) {
		t.Errorf("d4 with a prediction: %+v, want precision 0, no recall", got)
	}
	if got := ds.Pages[3].Score(""); got != (PR{NoPrecision: true, NoRecall: true}) {
		t.Errorf("e5 without a prediction: %+v, want neither", got)
	}
}

func TestOpenCombined(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"ground-truth/l3s-gn1.jsonl": `{"page_id":"p1","plaintext":"A story from 2008.","source":["l3s-gn1","p1"]}` + "\n\n" +
			`{"page_id":"p2","plaintext":"Another, with an address.","url":"https://news.example/p2"}` + "\n" +
			`{"page_id":"p3","plaintext":"Its page is missing."}` + "\n",
		"ground-truth/other.jsonl": `{"page_id":"q1","plaintext":"Another subset."}` + "\n",
		"html/l3s-gn1/p1.html":     "<p>A story from 2008.</p>",
		"html/l3s-gn1/p2.html":     "<p>Another, with an address.</p>",
		"html/other/q1.html":       "<p>Another subset.</p>",
	})
	ds, err := Open(filepath.Join(root, "html", "l3s-gn1"), OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"p1  A story from 2008.", "p2 https://news.example/p2 Another, with an address."}
	if diff := cmp.Diff(want, pageLines(ds)); diff != "" {
		t.Errorf("pages (-want +got)\n%s", diff)
	}
	if ds.MissingInput != 1 || ds.Name != "l3s-gn1" {
		t.Errorf("MissingInput %d, name %q; want 1, l3s-gn1", ds.MissingInput, ds.Name)
	}
	if _, err := Open(root, OpenOptions{}); err == nil || !strings.Contains(err.Error(), "l3s-gn1, other") {
		t.Errorf("the combined layout's root: error %v, want one naming its subsets", err)
	}
	ds, err = Open(filepath.Join(root, "html", "l3s-gn1"), OpenOptions{IDs: []string{"p2"}})
	if err != nil || len(ds.Pages) != 1 || ds.Pages[0].ID != "p2" {
		t.Errorf("with ids [p2]: %v, %v", pageLines(ds), err)
	}
}

func TestOpenCombinedBadLine(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"ground-truth/s.jsonl": `{"page_id":"p1","plaintext":"Fine."}` + "\n" + `{"page_id":"../x","plaintext":"Escapes."}` + "\n",
		"html/s/p1.html":       "<p>Fine.</p>",
	})
	_, err := Open(filepath.Join(root, "html", "s"), OpenOptions{})
	if err == nil || !strings.Contains(err.Error(), "s.jsonl:2") {
		t.Errorf("error %v, want one naming s.jsonl:2", err)
	}
	writeFiles(t, root, map[string]string{"ground-truth/s.jsonl": "{not json\n"})
	if _, err := Open(filepath.Join(root, "html", "s"), OpenOptions{}); err == nil || !strings.Contains(err.Error(), "s.jsonl:1") {
		t.Errorf("error %v, want one naming s.jsonl:1", err)
	}
}

func TestOpenArticleBenchBadID(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"ground-truth.json": `{"../x":{"articleBody":"Escapes.","url":"https://news.example/x"}}`,
		"html/a.html":       "<p>A page.</p>",
	})
	if _, err := Open(dir, OpenOptions{}); err == nil || !strings.Contains(err.Error(), `"../x"`) {
		t.Errorf("error %v, want one naming the id", err)
	}
	writeFiles(t, dir, map[string]string{"ground-truth.json": `{"a": `})
	if _, err := Open(dir, OpenOptions{}); err == nil || !strings.Contains(err.Error(), "ground-truth.json") {
		t.Errorf("error %v, want one naming ground-truth.json", err)
	}
}
