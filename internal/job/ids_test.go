package job

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/internal/output"
)

// tarFile writes a tar of name, content pairs in that order at path.
func tarFile(t *testing.T, path string, members ...string) {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for i := 0; i < len(members); i += 2 {
		if err := tw.WriteHeader(&tar.Header{Name: members[i], Mode: 0o644, Size: int64(len(members[i+1])), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(members[i+1]))
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRepeatedIDTellsItsPlacesApart is the regression test of an id
// repeated by two records whose places are written alike, which the error
// named twice: two members of one name in a tar (as tar -r appends a file
// again: "a.txt", "a.txt", "./a.txt"), two JSON objects on one line. The
// later is told by its member's position, the earlier as an earlier one;
// and --id-scope file, which keeps an id its origin gives and makes one
// id of two in one file, is suggested only where it gives two ids.
func TestRepeatedIDTellsItsPlacesApart(t *testing.T) {
	rows := trainingCorpus()
	const ways = " (--on-duplicate-id skip leaves such documents out, rename renames them)"
	const scope = "; --id-scope file makes ids unique within their file only)"
	for _, tc := range []struct {
		name  string
		files map[string]string // name → content; "f.tar" is a tar of the members its content lists, "|" between
		opts  Options
		want  string // the error, or with OnDuplicateID rename the warning
	}{
		{"members of one name", map[string]string{"f.tar": "a.txt|A\n" + rows[0].Text + "|a.txt|B\n" + rows[3].Text + "|./a.txt|C\n" + rows[4].Text},
			Options{}, `DIR/f.tar/a.txt (member 2 of DIR/f.tar): id "f.tar/a.txt" repeats the id of DIR/f.tar/a.txt (an earlier member of that name)` + ways},
		{"members of one name, own ids", map[string]string{"f.tar": `a.jsonl|{"id":"0","text":"one"}` + "\n" + `|a.jsonl|{"id":"0","text":"two"}` + "\n"},
			Options{}, `DIR/f.tar/a.jsonl:1 (member 2 of DIR/f.tar): id "0" repeats the id of DIR/f.tar/a.jsonl:1 (an earlier member of that name)` + ways},
		{"members of one name, renamed", map[string]string{"f.tar": "a.txt|A\n" + rows[0].Text + "|a.txt|B\n" + rows[3].Text},
			Options{OnDuplicateID: DuplicateRename}, `warning: renamed: DIR/f.tar/a.txt (member 2 of DIR/f.tar): id "f.tar/a.txt" repeats the id of DIR/f.tar/a.txt (an earlier member of that name); it is "f.tar/a.txt#2" in the results`},
		{"two objects on one line", map[string]string{"a.json": `[{"id":"0","text":"one"},{"id":"0","text":"two"}]`},
			Options{}, `DIR/a.json:1#2: id "0" repeats the id of DIR/a.json:1` + ways},
		{"own ids of two files", map[string]string{"a.jsonl": `{"id":"0","text":"one"}`, "b.jsonl": `{"id":"0","text":"two"}`},
			Options{}, `DIR/b.jsonl:1: id "0" repeats the id of DIR/a.jsonl:1 (--on-duplicate-id skip leaves such documents out, rename renames them` + scope},
		{"an own id and one its origin gives", map[string]string{"a.jsonl": `{"id":"b.jsonl:1","text":"one"}`, "b.jsonl": `{"text":"two"}`},
			Options{}, `DIR/b.jsonl:1: id "b.jsonl:1" repeats the id of DIR/a.jsonl:1 (--on-duplicate-id skip leaves such documents out, rename renames them` + scope},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var ins []string
			for name, content := range tc.files {
				p := filepath.Join(dir, name)
				if name == "f.tar" {
					tarFile(t, p, strings.Split(content, "|")...)
				} else if err := os.WriteFile(p, []byte(content+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				ins = append(ins, p)
			}
			slices.Sort(ins)
			var warn bytes.Buffer
			o := tc.opts
			o.Inputs, o.Out, o.Warn = ins, filepath.Join(dir, "out"), &warn
			_, err := Run(t.Context(), o)
			want := strings.ReplaceAll(tc.want, "DIR", dir)
			switch {
			case o.OnDuplicateID == DuplicateRename:
				if err != nil || !strings.Contains(warn.String(), want+"\n") {
					t.Errorf("error %v, warnings %q; want the warning %q", err, warn.String(), want)
				}
			case !errors.Is(err, ErrDuplicateID) || !strings.HasSuffix(err.Error(), want):
				t.Errorf("error %v\nwant ErrDuplicateID ending %q", err, want)
			}
		})
	}
}

// TestBuiltRecordsKeptUnderTheirIDs is the regression test of a record
// that neardup builds itself (a text file, a feed item) kept under the id
// it was read with after the run gave it another (--on-duplicate-id
// rename, --id-scope file): kept.jsonl named the document that removed.jsonl
// listed as removed, and not the representative kept in its place. Every
// document is a member of a cluster, so the ids kept are the clusters'
// representatives.
func TestBuiltRecordsKeptUnderTheirIDs(t *testing.T) {
	rows := trainingCorpus()
	text, longer := rows[0].Text, rows[0].Text+" Updated."
	item := func(guid, text string) string {
		return `<item><guid>` + guid + `</guid><title>Storm</title><description>` + text + `</description></item>`
	}
	for _, tc := range []struct {
		name, file, content string
		opts                Options
	}{
		{"text files of one name, renamed", "f.tar", "a.txt|Storm\n" + text + "|a.txt|Storm\n" + longer, Options{OnDuplicateID: DuplicateRename}},
		{"feed items, renamed", "f.rss", item("g", text) + item("g", longer), Options{OnDuplicateID: DuplicateRename}},
		{"feed items, id scope file", "f.rss", item("g1", text) + item("g2", longer), Options{IDScope: "file"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, tc.file)
			if tc.file == "f.tar" {
				tarFile(t, p, strings.Split(tc.content, "|")...)
			} else {
				feed := `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>` + tc.content + `</channel></rss>`
				if err := os.WriteFile(p, []byte(feed), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			o := tc.opts
			o.Inputs, o.Out, o.Warn = []string{p}, filepath.Join(dir, "out"), io.Discard
			if _, err := Run(t.Context(), o); err != nil {
				t.Fatal(err)
			}
			ids := func(file, key string) []string {
				var got []string
				readLines(t, filepath.Join(o.Out, file), func(line []byte) {
					var v map[string]any
					if err := json.Unmarshal(line, &v); err != nil {
						t.Fatal(err)
					}
					got = append(got, fmt.Sprint(v[key]))
				})
				slices.Sort(got)
				return got
			}
			reps, kept, removed := ids(output.ClustersFile, "representative"), ids(output.KeptFile, "id"), ids(output.RemovedFile, "id")
			if len(reps) == 0 {
				t.Fatal("no cluster")
			}
			if diff := cmp.Diff(reps, kept); diff != "" {
				t.Errorf("kept ids (-representatives +kept)\n%s", diff)
			}
			for _, id := range removed {
				if slices.Contains(kept, id) {
					t.Errorf("%q is both kept and removed", id)
				}
			}
		})
	}
}
