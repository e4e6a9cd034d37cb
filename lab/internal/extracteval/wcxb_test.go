package extracteval

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func gzipped(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestOpenWCXB(t *testing.T) {
	dir := t.TempDir()
	gt := func(url, kind, content string) string {
		return `{"schema_version":"2.0","url":"` + url + `","_internal":{"page_type":{"primary":"` + kind +
			`"}},"ground_truth":{"main_content":"` + content + `","with":["x"],"without":["y"]}}`
	}
	writeFiles(t, dir, map[string]string{
		"ground-truth/0001.json": gt("https://news.example/a", "article", `First story.\n\nIts second paragraph.`),
		"ground-truth/0002.json": gt("https://shop.example/p", "product", "A product page."),
		"ground-truth/0003.json": gt("https://news.example/b", "article", "No page for this one."),
		"ground-truth/0004.json": gt("https://news.example/c", "article", "Kept by the id list."),
		"html/0001.html.gz":      gzipped(t, "<p>First story.</p>"),
		"html/0002.html.gz":      gzipped(t, "<p>A product page.</p>"),
		"html/0004.html.gz":      gzipped(t, "<p>Kept.</p>"),
	})
	ds, err := Open(dir, OpenOptions{Name: "wcxb"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ds.Pages {
		got = append(got, p.ID+" "+p.URL+" "+p.Gold)
	}
	want := []string{
		"0001 https://news.example/a First story.\n\nIts second paragraph.",
		"0004 https://news.example/c Kept by the id list.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("articles (-want +got)\n%s", diff)
	}
	if ds.MissingInput != 1 {
		t.Errorf("MissingInput %d, want 1", ds.MissingInput)
	}
	if ds.Pages[0].Snippets() {
		t.Error("a WCXB page is scored by its snippets, want its main content")
	}
	in, err := ReadInput(ds.Pages[0])
	if err != nil {
		t.Fatal(err)
	}
	if string(in.Body) != "<p>First story.</p>" || in.URL != "https://news.example/a" {
		t.Errorf("ReadInput: body %q URL %q", in.Body, in.URL)
	}
	only, err := Open(dir, OpenOptions{IDs: []string{"0004"}})
	if err != nil || len(only.Pages) != 1 || only.Pages[0].ID != "0004" {
		t.Errorf("an id list keeps 0004 alone: %v, %v", only, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "html", "0001.html.gz"), []byte("not gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadInput(ds.Pages[0]); err == nil {
		t.Error("ReadInput of a broken .gz: no error")
	}
	if err := os.WriteFile(filepath.Join(dir, "ground-truth", "0002.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, OpenOptions{}); err == nil {
		t.Error("Open with a broken ground-truth file: no error")
	}
}
