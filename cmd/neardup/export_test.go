package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestExportMatchesDedupLayout pins an export that wrote the documents not
// compared (too short) into kept.jsonl, and wrote no removed.jsonl or
// rejects.jsonl: an export lists the same ids as dedup of the same
// documents in kept.jsonl, removed.jsonl and rejects.jsonl.
func TestExportMatchesDedupLayout(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, _ := writeCorpus(t, dir, 30)
	short := filepath.Join(dir, "short.jsonl")
	if err := os.WriteFile(short, []byte(`{"id":"short1","text":"tiny"}`+"\n"+`{"id":"short2","text":"also tiny text"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	batch := filepath.Join(dir, "batch")
	runOK(t, "dedup", corpus, short, "-o", batch)
	db := filepath.Join(dir, "x.db")
	runOK(t, "index", "add", "--db", db, corpus, short)
	out := filepath.Join(dir, "export")
	runOK(t, "index", "export", "--db", db, "-o", out)
	for _, tc := range []struct {
		file string
		want []string // ids that must be there, beside dedup's
	}{
		{"kept.jsonl", nil},
		{"removed.jsonl", nil},
		{"rejects.jsonl", []string{"short1", "short2"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			got, want := idsIn(t, filepath.Join(out, tc.file)), idsIn(t, filepath.Join(batch, tc.file))
			if !slices.Equal(got, want) {
				t.Errorf("export's %s: %q, dedup's %q", tc.file, got, want)
			}
			for _, id := range tc.want {
				if !slices.Contains(got, id) {
					t.Errorf("export's %s: %q, want %s in it", tc.file, got, id)
				}
			}
		})
	}
}

// idsIn returns the sorted ids of the lines of a JSONL file.
func idsIn(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var r struct{ ID, Reason string }
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		ids = append(ids, r.ID)
	}
	slices.Sort(ids)
	return ids
}

// TestOutputDirNotStdout: -o -, which names stdout wherever neardup writes
// one file, is a mistake in the command line for the commands that write
// a directory of results; index export and dedup made a directory named
// "-" and wrote the six files into it.
func TestOutputDirNotStdout(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"a.jsonl": `{"id":"a","text":"Ferry line opens on Monday."}` + "\n"})
	for _, args := range [][]string{
		{"index", "export", "--db", "news.db", "-o", "-"},
		{"dedup", "a.jsonl", "-o", "-"},
	} {
		code, _, errOut := runChildIn(t, dir, args...)
		if code != 2 || !strings.Contains(errOut, "-o -: the results are six files") {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 naming -o", args, code, errOut)
		}
		if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
			t.Errorf("%q made a directory named -", args)
		}
	}
}

// TestOutputDirThatIsAFile: -o naming a regular file or a device is a
// mistake in the command line, exit 2, as every other -o refused before
// any work is; it exited 1.
func TestOutputDirThatIsAFile(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, map[string]string{"a.jsonl": `{"id":"a","text":"Ferry line opens on Monday."}` + "\n", "afile": ""})
	for _, out := range []string{"afile", os.DevNull} {
		code, _, errOut := runChildIn(t, dir, "dedup", "a.jsonl", "-o", out)
		if code != 2 || !strings.Contains(errOut, out+": is not a directory") {
			t.Errorf("-o %s: exit %d, stderr %q; want exit 2 saying it is not a directory", out, code, errOut)
		}
	}
}

// TestExportOrdersPairsAsDedup pins an export that listed a document's
// pairs by their earlier document's place in the index, where dedup lists
// them duplicates first, then by score, highest first: the original here
// matches its three copies, stored before it, best last.
func TestExportOrdersPairsAsDedup(t *testing.T) {
	t.Parallel()
	base := []string{
		"The harbour authority said on Monday that the new ferry line to the islands would start in the spring.",
		"It will run four times a day in summer and twice a day in winter, the authority said in a statement.",
		"The line was first proposed six years ago, when the old ferry company went out of business.",
		"Local businesses have long asked for a faster crossing, saying tourists stayed away without one.",
		"The new boats carry up to two hundred passengers and forty cars each.",
		"Tickets will go on sale in March, and residents of the islands will pay half the fare.",
		"The mayor welcomed the plan and said the town would build a new car park by the quay.",
		"Critics said the fares were still too high for families and asked for a winter discount.",
		"The authority expects about three hundred thousand passengers in the first year.",
		"A decision on a second line to the northern islands is expected next year.",
	}
	// edited returns the story with k of its sentences replaced.
	edited := func(k int) string {
		s := slices.Clone(base)
		for i := range k {
			s[i*3+1] = fmt.Sprintf("Meanwhile something entirely different was said by a spokesman about other matters number %d today.", i)
		}
		return strings.Join(s, " ")
	}
	var lines strings.Builder
	for _, d := range []struct{ id, text string }{
		{"most-edited", edited(3)},
		{"least-edited", strings.Replace(edited(0), "Monday", "Tuesday", 1)},
		{"edited", edited(1)},
		{"original", edited(0)},
	} {
		line, _ := json.Marshal(map[string]string{"id": d.id, "title": "Ferry line", "text": d.text})
		lines.Write(append(line, '\n'))
	}
	dir := writeTree(t, map[string]string{"c.jsonl": lines.String()})
	in, db := filepath.Join(dir, "c.jsonl"), filepath.Join(dir, "x.db")
	runOK(t, "dedup", in, "-o", filepath.Join(dir, "batch"))
	runOK(t, "index", "add", "--db", db, in)
	runOK(t, "index", "export", "--db", db, "-o", filepath.Join(dir, "export"))
	pairs := func(path string) []string {
		data, err := os.ReadFile(filepath.Join(dir, path))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
			var p struct{ A, B, Label string }
			if err := json.Unmarshal(line, &p); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			out = append(out, p.A+"~"+p.B+" "+p.Label)
		}
		return out
	}
	got, want := pairs("export/pairs.jsonl"), pairs("batch/pairs.jsonl")
	if len(want) < 5 || !slices.Equal(got, want) {
		t.Errorf("export's pairs %q, dedup's %q", got, want)
	}
}
