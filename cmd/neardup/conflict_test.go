package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/store/storetest"
)

// TestIndexAddReportsIDsStoredWithOtherContent: two daily files of one
// name, their records without ids, are named alike (news.jsonl:1 ...); the
// second day's different articles, added in a run of their own, are
// reported "conflict" with the fields that differ, each warned of naming
// its id and where it was read, counted in the summary, and not stored,
// the other documents of the run stored, and the run ends with a warning
// that says how to store them, exit 0: an upgrade that reads a page
// otherwise makes a routine re-add report its unchanged files so, which
// exit 1 made a failure. Adding a
// file twice stays idempotent: "exists", exit 0. A run of records without
// ids warns once that they are named by file and line. Regression
// (reviewer's finding): the second day's articles were reported "exists",
// silently not stored, exit 0, with no word of the ids.
func TestIndexAddReportsIDsStoredWithOtherContent(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dir := t.TempDir()
			db := storetest.DSN(t, e)
			g := enginetest.NewTextGen(51)
			for d, day := range []string{"day1", "day2"} {
				var b strings.Builder
				n := 3 + d // the second day has one more article
				for i := range n {
					line, _ := json.Marshal(map[string]string{"title": fmt.Sprintf("%s story %d", day, i),
						"text": strings.Join(g.Sentences(10), " "), "date": fmt.Sprintf("2024-03-0%dT10:00:00Z", d+1)})
					b.Write(append(line, '\n'))
				}
				if err := os.MkdirAll(filepath.Join(dir, day), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, day, "news.jsonl"), []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			day1, day2 := filepath.Join(dir, "day1", "news.jsonl"), filepath.Join(dir, "day2", "news.jsonl")
			code, _, stderr := runChild(t, "index", "add", "--db", db, day1)
			if code != 0 || strings.Count(stderr, "warning: documents without an id of their own: 3, named by where they were read (e.g. news.jsonl:1)") != 1 ||
				!strings.Contains(stderr, "--id-col") {
				t.Fatalf("the first add: exit code %d, want 0 and one warning of the ids\n%s", code, stderr)
			}
			code, _, stderr = runChild(t, "index", "add", "--db", db, day1)
			if code != 0 || !strings.Contains(stderr, "0 documents added, 3 already stored;") || strings.Contains(stderr, "warning: conflict") {
				t.Errorf("the same file again: exit code %d, want 0 and 3 already stored\n%s", code, stderr)
			}
			code, stdout, stderr := runChild(t, "index", "add", "--db", db, day2)
			if code != 0 {
				t.Errorf("the second day: exit code %d, want 0 (warned of)", code)
			}
			for i := 1; i <= 3; i++ {
				want := fmt.Sprintf(`{"id":"news.jsonl:%d","status":"conflict","matches":[],"differs":["title","date","text"]}`, i)
				if !strings.Contains(stdout, want+"\n") {
					t.Errorf("the second day's output lacks %s:\n%s", want, stdout)
				}
				warn := fmt.Sprintf(`warning: conflict: %s:%d: id "news.jsonl:%d": a document of this id is stored already`, day2, i, i)
				if !strings.Contains(stderr, warn) {
					t.Errorf("no warning %q:\n%s", warn, stderr)
				}
			}
			for _, want := range []string{`{"id":"news.jsonl:4","status":"added"`} {
				if !strings.Contains(stdout, want) {
					t.Errorf("the second day's output lacks %s:\n%s", want, stdout)
				}
			}
			for _, want := range []string{"1 document added, 3 not stored: their ids are stored with other content;",
				"warning: 3 documents not stored: stored already under their ids with other content (see the warnings above); --replace replaces the stored ones"} {
				if !strings.Contains(stderr, want) {
					t.Errorf("the second day's messages lack %q:\n%s", want, stderr)
				}
			}
			code, _, _ = runChild(t, "-q", "index", "export", "--db", db, "-o", filepath.Join(dir, "out"))
			kept, err := os.ReadFile(filepath.Join(dir, "out", "kept.jsonl"))
			if code != 0 || err != nil {
				t.Fatalf("export: exit code %d, %v", code, err)
			}
			for _, want := range []string{"day1 story 0", "day1 story 2", "day2 story 3"} {
				if !strings.Contains(string(kept), want) {
					t.Errorf("the index lacks %q:\n%s", want, kept)
				}
			}
			if strings.Contains(string(kept), "day2 story 0") {
				t.Errorf("a conflicting document was stored:\n%s", kept)
			}
			// index query reports them so too, with no cluster or
			// original of the stored documents, and says that add would
			// not store them. Regression: "exists", with the stored
			// document's cluster and original, "3 already stored".
			code, stdout, stderr = runChild(t, "index", "query", "--db", db, day2)
			for i, line := range strings.SplitN(stdout, "\n", 4)[:3] {
				var m struct {
					ID, Status, Original string
					Cluster              int64
					Differs              []string
				}
				if err := json.Unmarshal([]byte(line), &m); err != nil || m.ID != fmt.Sprintf("news.jsonl:%d", i+1) || m.Status != "conflict" ||
					strings.Join(m.Differs, ",") != "title,date,text" || m.Cluster != 0 || m.Original != "" {
					t.Errorf("query of the second day, line %d: %s (%v); want conflict, differs title, date and text, no cluster or original", i+1, line, err)
				}
			}
			for _, want := range []string{"index add would not store it", "0 documents checked, 1 already stored, 3 whose ids are stored with other content;",
				"warning: 3 documents that index add would not store: stored already under their ids with other content"} {
				if code != 0 || !strings.Contains(stderr, want) {
					t.Errorf("query of the second day: exit code %d, messages lack %q:\n%s", code, want, stderr)
				}
			}
			// Records with ids of their own: no warning of the ids.
			withIDs := filepath.Join(dir, "ids.jsonl")
			os.WriteFile(withIDs, []byte(`{"id":"a1","title":"t","text":"`+strings.Join(g.Sentences(10), " ")+`"}`+"\n"), 0o644)
			if code, _, stderr = runChild(t, "index", "add", "--db", db, withIDs); code != 0 || strings.Contains(stderr, "without an id") {
				t.Errorf("records with ids: exit code %d, want 0 and no warning of the ids\n%s", code, stderr)
			}
		})
	}
}

// TestConflictWithinOneAdd: a file that gives one id twice, with other
// content the second time, warns of the second as a conflict and says the
// first may have been stored by the same add. Regression (a tester's
// finding): the warning said "by an earlier add", though it was this one.
func TestConflictWithinOneAdd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	g := enginetest.NewTextGen(7)
	in := filepath.Join(dir, "news.jsonl")
	line := func(text string) string { return `{"id":"e3","title":"t","text":"` + text + `"}` + "\n" }
	if err := os.WriteFile(in, []byte(line(strings.Join(g.Sentences(10), " "))+line(strings.Join(g.Sentences(10), " "))), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runChild(t, "index", "add", "--db", filepath.Join(dir, "news.db"), in)
	if code != 0 || !strings.Contains(stderr, `news.jsonl:2: id "e3": a document of this id is stored already (by an earlier add, or earlier in this one;`) {
		t.Errorf("exit code %d, want 0 and the conflict warned of:\n%s", code, stderr)
	}
}

// TestConflictAdviceFitsTheID: the warnings of a document not stored
// because its id is stored with other content advise by where the id came
// from: an id made of where the record was read (no id of its own) is told
// to take one of its own (--id-col); a record's own id, which names the
// stored document, to replace it (--replace) if it is a new version, else
// to take an id no other document has. Regression (a tester's finding):
// two records of "id":"x" were told to "give it an id of its own", and
// that "records of ids of their own (--id-col) do not collide".
func TestConflictAdviceFitsTheID(t *testing.T) {
	t.Parallel()
	const (
		takeOwn   = "give it an id of its own (--id-col names the field that holds ids)"
		newVer    = "add it with --replace if it is a new version of the stored one; if it is another document"
		ownNoCol  = "--replace replaces the stored ones, and records of ids of their own (--id-col) do not collide"
		ownSum    = "--replace replaces the stored ones where these are new versions of them; a document that is another needs an id"
		mixedSum  = "the 1 named by where they were read would not collide with ids of their own (--id-col), and a document whose own id"
		unnamedID = ""
	)
	g := enginetest.NewTextGen(86)
	for _, tc := range []struct {
		name     string
		ids      []string // of the records of each day's file ("" none)
		want     []string
		dontWant []string
	}{
		{name: "own ids", ids: []string{"x"}, want: []string{newVer, ownSum}, dontWant: []string{takeOwn, ownNoCol, "--id-col"}},
		{name: "named by where read", ids: []string{unnamedID}, want: []string{takeOwn, ownNoCol}, dontWant: []string{newVer, ownSum}},
		{name: "both", ids: []string{unnamedID, "x"}, want: []string{takeOwn, newVer, mixedSum}, dontWant: []string{ownNoCol, ownSum}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			var files []string
			for _, day := range []string{"day1", "day2"} {
				var b strings.Builder
				for _, id := range tc.ids {
					rec := map[string]string{"title": day + " story", "text": strings.Join(g.Sentences(10), " ")}
					if id != "" {
						rec["id"] = id
					}
					line, _ := json.Marshal(rec)
					b.Write(append(line, '\n'))
				}
				path := filepath.Join(dir, day, "news.jsonl")
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				files = append(files, path)
			}
			db := filepath.Join(dir, "x.db")
			runOK(t, "index", "add", "--db", db, "--only-matches", files[0])
			code, _, stderr := runChild(t, "index", "add", "--db", db, files[1])
			if code != 0 || strings.Count(stderr, "warning: conflict: ") != len(tc.ids) {
				t.Fatalf("exit code %d, want 0 and %d conflicts warned of:\n%s", code, len(tc.ids), stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("no %q in:\n%s", w, stderr)
				}
			}
			for _, w := range tc.dontWant {
				if strings.Contains(stderr, w) {
					t.Errorf("%q in:\n%s", w, stderr)
				}
			}
		})
	}
}
