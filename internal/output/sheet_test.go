package output

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTitlesCSVInjection writes a titles file of ids and titles that a
// spreadsheet would run as formulas, and checks that each such cell starts
// with a single quote, and that taking one leading quote off gives every
// cell back as it was.
func TestTitlesCSVInjection(t *testing.T) {
	rows := []TitleRow{
		{A: "=1+2", B: "b", Score: 1, TitleA: `=HYPERLINK("http://example.com","x")`, TitleB: "@SUM(A1)"},
		{A: "+7", B: "-3", Score: 0.5, TitleA: "\tTabbed", TitleB: "\rReturned"},
		{A: "'quoted", B: "plain", Score: 0.25, TitleA: "'Tis the season", TitleB: "Rates rise = news"},
		{A: "c", B: "d", Score: 0.75, TitleA: "", TitleB: "Mid-term -1"},
	}
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	if err := Titles(rows)(w); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	got, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"a", "b", "score", "title_a", "title_b"},
		{"'=1+2", "b", "1", `'=HYPERLINK("http://example.com","x")`, "'@SUM(A1)"},
		{"'+7", "'-3", "0.5", "'\tTabbed", "'\rReturned"},
		{"''quoted", "plain", "0.25", "''Tis the season", "Rates rise = news"},
		{"c", "d", "0.75", "", "Mid-term -1"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("titles CSV (-want +got)\n%s", diff)
	}
	for i, r := range rows {
		back := got[i+1]
		for j := range back {
			back[j] = strings.TrimPrefix(back[j], "'")
		}
		if orig := []string{r.A, r.B, back[2], r.TitleA, r.TitleB}; !cmp.Equal(orig, back) {
			t.Errorf("row %d read back: %q, want %q", i+1, back, orig)
		}
	}
}
