package extracteval

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestOpenDaniel(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"reference/20111128_www.regnum.ru_2fa9d5": "<p>Заголовок статьи</p>\n<p>Первый абзац &amp; второй.</p>\n",
		"html/20111128_www.regnum.ru_2fa9d5":      "<html><body><h1>Заголовок статьи</h1><p>Первый абзац &amp; второй.</p></body></html>",
		"reference/20111121_www.biolog.pl_9980d6": "<p>Tylko odniesienie.</p>",
		"reference/20120112_ibnlive.in.com_4de5c": "<p>Story.</p>",
		"html/20120112_ibnlive.in.com_4de5c":      "<p>Story.</p>",
		"doc_lg.json":                             `{"20111128_www.regnum.ru_2fa9d5": "Russian", "20120112_ibnlive.in.com_4de5c": "Klingon"}`,
	})
	ds, err := Open(dir, OpenOptions{Name: "daniel"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ds.Pages {
		got = append(got, p.ID+" "+p.URL+" "+strings.TrimSpace(p.Gold))
	}
	want := []string{
		"20111128_www.regnum.ru_2fa9d5 http://www.regnum.ru/ Заголовок статьи\n\n\nПервый абзац & второй.", // the line break between the two <p> is text too
		"20120112_ibnlive.in.com_4de5c http://ibnlive.in.com/ Story.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pages (-want +got)\n%s", diff)
	}
	if ds.MissingInput != 1 {
		t.Errorf("MissingInput %d, want 1", ds.MissingInput)
	}
	if m := ds.Pages[0].Meta; m == nil || m.Lang != "ru" || ds.Pages[1].Meta != nil {
		t.Errorf("languages %+v, %+v: want ru from doc_lg.json, none for a language it does not know", m, ds.Pages[1].Meta)
	}
	in, err := ReadInput(ds.Pages[0])
	if err != nil || Site(in) != "regnum.ru" {
		t.Errorf("site %q, %v: want the host of the file's name", Site(in), err)
	}

	// Predictions by name: the names hold dots, and two share a "stem".
	writeFiles(t, dir, map[string]string{
		"html/20111128_www.regnum.ru_77aa01":      "<p>Другая статья.</p>",
		"reference/20111128_www.regnum.ru_77aa01": "<p>Другая статья.</p>",
		"pred.jsonl": `{"id":"20111128_www.regnum.ru_2fa9d5","text":"Заголовок статьи\n\nПервый абзац & второй."}` + "\n" +
			`{"id":"20111128_www.regnum.ru_77aa01","text":"Другая статья."}` + "\n",
	})
	_, res := scoreFile(t, dir, filepath.Join(dir, "pred.jsonl"))
	exact := 0
	for _, p := range res.Pages {
		if p.Precision == 1 && p.Recall == 1 {
			exact++
		}
	}
	if exact != 2 || res.Empty != 1 {
		t.Errorf("predictions by name: %d pages matched exactly, want 2; %d empty, want 1 (the page without a record)", exact, res.Empty)
	}

	// Only the ids asked for.
	ds, err = Open(dir, OpenOptions{IDs: []string{"20120112_ibnlive.in.com_4de5c"}})
	if err != nil || len(ds.Pages) != 1 || ds.Pages[0].ID != "20120112_ibnlive.in.com_4de5c" {
		t.Errorf("ids: %v %+v", err, ds)
	}

	// A reference whose name is not a page's is named.
	writeFiles(t, dir, map[string]string{"reference/notes.txt": "x"})
	if _, err := Open(dir, OpenOptions{}); err == nil || !strings.Contains(err.Error(), filepath.Join("reference", "notes.txt")) {
		t.Errorf("bad name: %v", err)
	}
}
