package extracteval

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestScoreSnippets(t *testing.T) {
	with := []string{"the ferry  returns", "on Monday"}
	without := []string{"Subscribe", "Impressum"}
	for _, tc := range []struct {
		name string
		pred string
		want PR
	}{
		{"all with, none without", "So the ferry\nreturns on Monday.", PR{Precision: 1, Recall: 1}},
		{"one with, one without", "The ferry returns on Tuesday. Subscribe now", PR{Precision: 0, Recall: 0}},
		{"half", "the ferry returns. Subscribe", PR{Precision: 0.5, Recall: 0.5}},
		{"nothing found", "unrelated text", PR{NoPrecision: true}},
		{"empty", "", PR{NoPrecision: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ScoreSnippets(with, without, tc.pred)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	// Soft hyphens are invisible: a passage copied with them is found in a
	// text without them, and the other way round.
	if got := ScoreSnippets([]string{"Mit\u00adtel\u00adal\u00adter", "Wein\u00adbau"}, nil, "Im Mittelalter: Wein\u00adbau."); got.Recall != 1 {
		t.Errorf("soft hyphens: recall %v, want 1", got.Recall)
	}
	// Regression: passages and texts are compared in Unicode normalization
	// form C, as the shingle metric compares them: a passage written with a
	// letter and a combining mark ("u" and U+0308) is found in a text with
	// the one code point ("ü"), and the other way round.
	if got := ScoreSnippets([]string{"Gru\u0308ße aus Mu\u0308nchen", "Zürich"}, nil, "Grüße aus München, Zu\u0308rich."); got.Recall != 1 {
		t.Errorf("NFC: recall %v, want 1", got.Recall)
	}
	if got := ScoreSnippets(nil, []string{"x y"}, "a b"); !got.NoRecall || !got.NoPrecision {
		t.Errorf("no with passages: got %+v, want no recall", got)
	}
}

func TestOpenOtherLayouts(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"np/html/a.html":   "<p>alpha</p>",
		"np/html/b.html":   "<p>no gold</p>",
		"np/txt/a.txt":     "alpha",
		"tr/eval/one.html": "<p>one</p>",
		"tr/eval/two.html": "<p>two</p>",
		"tr/evaldata.json": `{"https://b.example/2": {"file": "two.html", "with": ["two"], "without": ["menu"]},
			"https://a.example/1": {"file": "one.html", "with": ["one"], "without": []},
			"https://c.example/3": {"file": "gone.html", "with": ["three"], "without": []},
			"https://d.example/4": {"file": "one.html", "with": [], "without": []}}`,
		"bad/evaldata.json": `{"https://x.example/": {"file": "../escape.html", "with": ["x"]}}`,
	})
	np, err := Open(filepath.Join(dir, "np"), OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Page{{ID: "a", InputPath: filepath.Join(dir, "np/html/a.html"), Gold: "alpha"}}, np.Pages); diff != "" {
		t.Errorf("html/ + txt/ layout (-want +got)\n%s", diff)
	}
	tr, err := Open(filepath.Join(dir, "tr"), OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Page{
		{ID: "one.html", InputPath: filepath.Join(dir, "tr/eval/one.html"), URL: "https://a.example/1", With: []string{"one"}, Without: []string{}},
		{ID: "two.html", InputPath: filepath.Join(dir, "tr/eval/two.html"), URL: "https://b.example/2", With: []string{"two"}, Without: []string{"menu"}},
	}
	if diff := cmp.Diff(want, tr.Pages); diff != "" {
		t.Errorf("snippet layout (-want +got)\n%s", diff)
	}
	if tr.MissingInput != 1 {
		t.Errorf("MissingInput = %d, want 1", tr.MissingInput)
	}
	if pr := tr.Pages[1].Score("two and a menu"); pr.Precision != 0.5 || pr.Recall != 1 {
		t.Errorf("snippet page scored %+v, want precision 0.5, recall 1", pr)
	}
	in, err := ReadInput(tr.Pages[0])
	if err != nil {
		t.Fatal(err)
	}
	if in.URL != "https://a.example/1" || Site(in) != "a.example" {
		t.Errorf("input URL %q, site %q: want the URL of evaldata.json", in.URL, Site(in))
	}
	if _, err := Open(filepath.Join(dir, "bad"), OpenOptions{}); err == nil {
		t.Error("a file outside eval/ was accepted")
	}
	if err := os.WriteFile(filepath.Join(dir, "bad/evaldata.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(filepath.Join(dir, "bad"), OpenOptions{}); err == nil {
		t.Error("malformed evaldata.json was accepted")
	}
}
