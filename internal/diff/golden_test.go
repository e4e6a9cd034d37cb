package diff

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// The texts of the golden tests: an agency story and a site's rewrite of
// it, with a new headline word, a dropped sentence, an added one, changed
// case and punctuation, and markup-like text that every format must escape.
const (
	storyA = `Harbour bridge to close for repairs

The city council said on Monday that the Old Harbour bridge will close for six weeks from 3 March while engineers replace corroded cables.
Traffic will be diverted through the Eastern tunnel, where tolls will be waived during the works. "We know this is disruptive," said councillor Maria Nowak.

The bridge carries about 40,000 vehicles a day. Its last major repair, in 2009, took four months & cost €12m.
Cyclists may still cross on the north footpath <except at night>.`

	storyB = `Harbour Bridge closing for repairs

The city council said on Monday that the Old Harbour Bridge will close for eight weeks from 3 March while engineers replace corroded cables!
Traffic will be diverted through the Eastern tunnel, where tolls will be waived during the works. "We know this is disruptive," said Councillor Maria Nowak.

The bridge carries about 40,000 vehicles a day.
Cyclists may still cross on the north footpath </script><b>at all hours</b>.
Ferry services will run every ten minutes instead of every half hour.`
)

func TestGolden(t *testing.T) {
	tests := []struct {
		name  string
		by    By
		write func(*bytes.Buffer, *Diff) error
	}{
		{"word.txt", ByWord, func(b *bytes.Buffer, d *Diff) error { return WriteText(b, d, TextOptions{}) }},
		{"word.ansi", ByWord, func(b *bytes.Buffer, d *Diff) error { return WriteText(b, d, TextOptions{Color: true}) }},
		{"sentence.txt", BySentence, func(b *bytes.Buffer, d *Diff) error { return WriteText(b, d, TextOptions{}) }},
		{"line.txt", ByLine, func(b *bytes.Buffer, d *Diff) error { return WriteText(b, d, TextOptions{}) }},
		{"word.html", ByWord, func(b *bytes.Buffer, d *Diff) error { return WriteHTML(b, d) }},
		{"sentence.html", BySentence, func(b *bytes.Buffer, d *Diff) error { return WriteHTML(b, d) }},
		{"word.json", ByWord, func(b *bytes.Buffer, d *Diff) error { return WriteJSON(b, d) }},
		{"sentence.json", BySentence, func(b *bytes.Buffer, d *Diff) error { return WriteJSON(b, d) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := Compare(storyA, storyB, Options{By: tc.by})
			d.A.ID, d.A.Title = "agency/1042", "Harbour bridge to close"
			d.B.ID = "site/<b>bridge</b>"
			var got bytes.Buffer
			if err := tc.write(&got, d); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Join("testdata", tc.name+".golden"), got.Bytes())
		})
	}
}

// checkGolden compares got with the golden file, or rewrites it with -update.
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}
