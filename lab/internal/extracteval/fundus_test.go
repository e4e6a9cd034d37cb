package extracteval

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestOpenFundus(t *testing.T) {
	dir := t.TempDir()
	body := func(summary, headline, para string) string {
		return `{"authors":["A","B"],"title":"T ` + headline + `","publishing_date":"2024-01-05 09:00:00+01:00","body":{"summary":["` + summary + `"],"sections":[{"headline":[],"paragraphs":["` +
			para + `"]},{"headline":["` + headline + `"],"paragraphs":["More."]}]}}`
	}
	writeFiles(t, dir, map[string]string{
		"de/meta.info": `{"Port_2024_01_05.html.gz":{"url":"https://port.example/a","crawl_date":"2024-01-05 10:00:00"},` +
			`"Port_2025_11_20.html.gz":{"url":"https://port.example/b","crawl_date":"2025-11-20 10:00:00"},` +
			`"Quay_2024_03_01.html.gz":{"url":"https://quay.example/c","crawl_date":"2024-03-01 10:00:00"}}`,
		// Versions listed out of order; V1_1 comes between V1 and V2.
		"de/Port.json": `{"V2":` + body("Newest.", "H2", "Late.") + `,"V1":` + body("Oldest.", "H1", "Early.") +
			`,"V1_1":` + body("Middle.", "H11", "Between.") + `}`,
		"de/Port_2024_01_05.html.gz":      gzipped(t, "<p>Oldest.</p>"),
		"de/Port_2024_09_09.html.gz":      gzipped(t, "<p>Middle.</p>"),
		"de/Port_2025_11_20.html.gz":      gzipped(t, "<p>Newest.</p>"),
		"de/Quay.json":                    `{"V1":{"title":"No body"}}`,
		"de/Quay_2024_03_01.html.gz":      gzipped(t, "<p>No body.</p>"),
		"de/PortLocal.json":               `{"V1":` + body("Local.", "HL", "Town.") + `}`,
		"de/PortLocal_2024_02_02.html.gz": gzipped(t, "<p>Local.</p>"),
	})
	ds, err := Open(dir, OpenOptions{Name: "fundus"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ds.Pages {
		got = append(got, p.ID+" "+p.URL+" "+strings.ReplaceAll(p.Gold, "\n\n", "|"))
	}
	want := []string{
		"de/Port_2024_01_05 https://port.example/a Oldest.|Early.|H1|More.",
		"de/Port_2024_09_09  Middle.|Between.|H11|More.",
		"de/Port_2025_11_20 https://port.example/b Newest.|Late.|H2|More.",
		"de/PortLocal_2024_02_02  Local.|Town.|HL|More.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pages (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff(&Meta{Title: "T H1", Authors: []string{"A", "B"}, Published: "2024-01-05 09:00:00+01:00"}, ds.Pages[0].Meta); diff != "" {
		t.Errorf("the oldest version's metadata (-want +got)\n%s", diff)
	}
	in, err := ReadInput(ds.Pages[0])
	if err != nil {
		t.Fatal(err)
	}
	if string(in.Body) != "<p>Oldest.</p>" {
		t.Errorf("ReadInput: body %q", in.Body)
	}
	only, err := Open(dir, OpenOptions{IDs: []string{"de/Port_2025_11_20"}})
	if err != nil || len(only.Pages) != 1 {
		t.Errorf("Open with an id list: %v, %v", only, err)
	}

	writeFiles(t, dir, map[string]string{"de/Port_2026_01_01.html.gz": gzipped(t, "<p>A page with no version.</p>")})
	if _, err := Open(dir, OpenOptions{}); err == nil || !strings.Contains(err.Error(), "Port.json: 3 parser versions but 4 pages") {
		t.Errorf("a page more than versions: error %v, want one naming Port.json", err)
	}
}
