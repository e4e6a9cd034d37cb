package job

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/internal/output"
)

// writeCopies appends to path n exact copies of one story (copy0 …), then
// the story with one sentence changed ("edited") and the story again under
// another date ("dated").
func writeCopies(t *testing.T, path string, n int) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := rand.New(rand.NewPCG(5, 5))
	sents := make([]string, 24)
	for i := range sents {
		w := make([]string, 10+r.IntN(6))
		for j := range w {
			w[j] = words[r.IntN(len(words))]
		}
		sents[i] = strings.Join(w, " ") + "."
	}
	rec := func(id, text, date string) {
		r := map[string]string{"id": id, "title": "Council votes to close ferry terminal", "text": text}
		if date != "" {
			r["date"] = date
		}
		line, _ := json.Marshal(r)
		fmt.Fprintf(f, "%s\n", line)
	}
	for i := range n {
		rec(fmt.Sprint("copy", i), strings.Join(sents, " "), "")
	}
	edited := append([]string(nil), sents...)
	edited[5] = "a different sentence stands here now."
	rec("edited", strings.Join(edited, " "), "")
	rec("dated", strings.Join(sents, " "), "2025-06-01T10:00:00Z")
}

// TestManyCopies pins how a batch bounds the work of many exact copies of a
// document (equal title, text and date): a copy with as many earlier copies
// as the bucket limit or more is paired with the first copy alone, while
// the copies before it, a near copy and the same text under another date
// are matched as any document; a run that spills gives the same results,
// and under anchor linking every copy is matched.
func TestManyCopies(t *testing.T) {
	const copies, limit = 100, 32 // the methods' default bucket limit
	dir := t.TempDir()
	in := writeCorpus(t, dir)
	writeCopies(t, in, copies)
	for _, name := range []string{"minhash", "simhash"} {
		t.Run(name, func(t *testing.T) {
			spec, err := methods.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			run := func(memory int64, link cluster.Linking) ([]string, int) {
				out := filepath.Join(dir, fmt.Sprintf("out-%s-%d-%s", name, memory, link))
				st, err := Run(t.Context(), Options{Inputs: []string{in}, Out: out, Memory: memory, Link: link, Method: spec.Defaults()})
				if err != nil {
					t.Fatal(err)
				}
				return readResults(t, out), st.Copies
			}
			got, folded := run(0, "")
			if want := copies - limit; folded != want {
				t.Errorf("%d copies checked against the first alone, want %d", folded, want)
			}
			pairs := pairsByB(t, got[0])
			for i := range copies {
				b := fmt.Sprint("copy", i)
				switch {
				case i >= limit && (len(pairs[b]) != 1 || pairs[b][0] != "copy0"):
					t.Errorf("%s paired with %v, want copy0 alone", b, pairs[b])
				case i > 0 && i < limit && len(pairs[b]) != i:
					t.Errorf("%s paired with %d documents, want its %d earlier copies", b, len(pairs[b]), i)
				}
			}
			for _, b := range []string{"edited", "dated"} {
				if len(pairs[b]) < limit {
					t.Errorf("%s paired with %d documents, want it matched as any document", b, len(pairs[b]))
				}
			}
			clustered := false
			for line := range strings.Lines(got[1]) {
				if !strings.Contains(line, `"copy0"`) {
					continue
				}
				clustered = true
				for _, id := range []string{"copy1", "copy99", "edited", "dated"} {
					if !strings.Contains(line, `"`+id+`"`) {
						t.Errorf("%s is not in copy0's cluster", id)
					}
				}
			}
			if !clustered {
				t.Error("copy0 is in no cluster")
			}

			spilled, _ := run(1, "")
			sameResults(t, spilled, got)

			anchored, folded := run(0, cluster.Anchor)
			if folded != 0 {
				t.Errorf("under anchor linking %d copies checked against the first alone, want none", folded)
			}
			if n := len(pairsByB(t, anchored[0])["copy99"]); n <= 1 {
				t.Errorf("under anchor linking copy99 paired with %d documents, want it matched", n)
			}
		})
	}
}

// pairsByB returns the earlier document of each pair of pairs.jsonl's
// contents, by the later.
func pairsByB(t *testing.T, data string) map[string][]string {
	t.Helper()
	by := map[string][]string{}
	for line := range strings.Lines(data) {
		var p struct{ A, B string }
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatalf("%s: %v", output.PairsFile, err)
		}
		by[p.B] = append(by[p.B], p.A)
	}
	return by
}
