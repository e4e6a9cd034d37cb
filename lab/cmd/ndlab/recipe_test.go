package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/method/rarewords"
	"github.com/neardup/neardup/method/tfidf"
)

func TestCompare(t *testing.T) {
	want := []match{{"a", "b"}, {"a", "c"}, {"b", "d"}, {"a", "b"}}
	got := []match{{"a", "b"}, {"c", "d"}, {"a", "c"}, {"c", "d"}, {"e", "f"}}
	a := compare(want, got)
	if a.recipe != 3 || a.method != 4 || a.both != 2 {
		t.Errorf("counts %+v, want recipe 3, method 4, both 2", a)
	}
	if diff := cmp.Diff([]match{{"b", "d"}}, a.missed, cmp.AllowUnexported(match{})); diff != "" {
		t.Errorf("missed (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]match{{"c", "d"}, {"e", "f"}}, a.extra, cmp.AllowUnexported(match{})); diff != "" {
		t.Errorf("extra (-want +got)\n%s", diff)
	}
	if f, m := a.found(), a.more(); f != 2.0/3 || m != 2.0/3 {
		t.Errorf("found %v more %v, want 2/3 and 2/3", f, m)
	}
}

func TestMethodMatches(t *testing.T) {
	pairs := []core.Pair{
		{A: "y", B: "x", Label: core.Duplicate, Evidence: tfidf.Evidence{Body: 0.9}},
		{A: "p", B: "q", Label: core.Similar, Evidence: tfidf.Evidence{Body: 0.4}},
		{A: "a", B: "b", Label: core.Similar, Evidence: rarewords.Evidence{BestFor: "a"}},
		{A: "c", B: "d", Label: core.Duplicate, Evidence: rarewords.Evidence{BestFor: "b"}},
		{A: "e", B: "f", Label: core.Similar, Evidence: rarewords.Evidence{BestFor: "both"}},
	}
	want := []match{{"x", "y"}, {"a", "b"}, {"d", "c"}, {"e", "f"}, {"f", "e"}}
	if diff := cmp.Diff(want, methodMatches(pairs), cmp.AllowUnexported(match{})); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestReadRecipeOutputs(t *testing.T) {
	dir := t.TempDir()
	tm := filepath.Join(dir, "tm.jsonl")
	os.WriteFile(tm, []byte(`{"a":"b/2","b":"a/1","score":0.9}`+"\n\n"+`{"a":3,"b":4,"score":0.2}`+"\n"), 0o644)
	got, err := readTMPairs(tm)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]match{{"a/1", "b/2"}, {"3", "4"}}, got, cmp.AllowUnexported(match{})); diff != "" {
		t.Errorf("tm pairs (-want +got)\n%s", diff)
	}
	rw := filepath.Join(dir, "rw.tsv")
	os.WriteFile(rw, []byte("u1\tv1\r\nu2\tv2\n"), 0o644)
	got, err = readMatches(rw)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]match{{"u1", "v1"}, {"u2", "v2"}}, got, cmp.AllowUnexported(match{})); diff != "" {
		t.Errorf("matches (-want +got)\n%s", diff)
	}
	for name, body := range map[string]string{
		"bad.jsonl": `{"a":"x","b":{}}` + "\n",
		"bad.tsv":   "u1\tv1\nonly-one\n",
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		read := readTMPairs
		if strings.HasSuffix(name, ".tsv") {
			read = readMatches
		}
		if _, err := read(p); err == nil || !strings.Contains(err.Error(), p+" line") {
			t.Errorf("%s: error %v, want one naming the file and line", name, err)
		}
	}
}

// TestRunRecipeCompare runs both methods over a few documents and compares
// them with recipe outputs written here: a copy whose pair both find, and a
// recipe pair the method does not.
func TestRunRecipeCompare(t *testing.T) {
	story := strings.Repeat("The harbour board approved a new ferry terminal on Monday after a long dispute with residents. ", 14)
	var docs []core.Document
	for i, src := range []string{"wire", "site"} {
		docs = append(docs, core.Document{ID: src + "/copy", Source: src, Title: "Ferry terminal approved", Text: story})
		for k := range 30 {
			words := enginetest.Words(i*2000+k*40, 40)
			docs = append(docs, core.Document{ID: fmt.Sprintf("%s/%02d", src, k), Source: src,
				Title: strings.Join(words[:4], " "), Text: strings.Repeat(strings.Join(words, " ")+" ", 6)})
		}
	}
	runs := []recipeRun{
		{recipe: "tm", want: []match{{"site/copy", "wire/copy"}, {"site/01", "wire/02"}}, configs: []engine.Config{tfidf.Defaults()}},
		{recipe: "rarewords", want: []match{{"wire/copy", "site/copy"}, {"site/copy", "wire/copy"}}, configs: []engine.Config{rarewords.Defaults()}},
	}
	var out bytes.Buffer
	if err := runRecipeCompare(context.Background(), docs, runs, 5, &out, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"tm         tfidf --terms tm --weighting tm  2         1         1     50.0 %   0.0 %",
		"rarewords  rarewords --tokens whitespace    2         2         2     100.0 %  0.0 %",
		"tm, tfidf --terms tm --weighting tm: in the recipe only (1):\n  site/01 wire/02",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
