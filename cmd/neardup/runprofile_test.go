package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/flagopts"
	"github.com/neardup/neardup/internal/methods"
)

// TestCorpusProfile: --profile corpus turns the news rules, the similar
// label and containment off for the methods that have them, and news
// leaves the defaults.
func TestCorpusProfile(t *testing.T) {
	spec, err := methods.Lookup("minhash")
	if err != nil {
		t.Fatal(err)
	}
	news, err := withProfile(spec.Defaults(), profileNews)
	if err != nil {
		t.Fatal(err)
	}
	corpus, err := withProfile(spec.Defaults(), profileCorpus)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		news, corp any
	}{
		{"similar", 0.3, 0.0}, {"containment", 0.7, 2.0}, {"number-agreement", 0.5, -1.0},
		{"date-apart", 72.0, 0.0}, {"names", true, false}, {"template", true, false}, {"threshold", 0.45, 0.45},
		{"follow-up", true, false}, {"story-title", 0.25, 0.0},
	} {
		if got, _ := flagopts.Get(news, tc.name); got != tc.news {
			t.Errorf("news --%s = %v, want %v", tc.name, got, tc.news)
		}
		if got, _ := flagopts.Get(corpus, tc.name); got != tc.corp {
			t.Errorf("corpus --%s = %v, want %v", tc.name, got, tc.corp)
		}
	}
	for _, m := range []string{"sentences", "tfidf", "rarewords", "cosine", "simhash"} {
		spec, err := methods.Lookup(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := withProfile(spec.Defaults(), profileCorpus); err != nil {
			t.Errorf("%s: %v", m, err)
		}
	}
}

// TestCorpusProfileKeepsOneOfSimilar pins that under --profile corpus a
// similar pair counts as a copy when choosing what to keep: with the
// similar label given back (--similar), its documents form a cluster and
// one is kept, where --profile news keeps both. The pair keeps its label.
func TestCorpusProfileKeepsOneOfSimilar(t *testing.T) {
	dir := t.TempDir()
	words := strings.Fields("the harbour board met on tuesday to weigh a plan for new cranes at the eastern quay " +
		"which shipping firms say would cut waiting times while residents fear more lorries on the coast road " +
		"and the council asked for a study of noise before any vote next spring")
	edited := slices.Clone(words)
	for i := 0; i < len(edited); i += 4 {
		edited[i] = strings.ToUpper(edited[i][:1]) + "x" + edited[i]
	}
	other := "An unrelated report about the weather in the mountains, with snow expected by the weekend and roads closed."
	var b strings.Builder
	for _, d := range []struct{ id, text string }{{"a", strings.Join(words, " ")}, {"b", strings.Join(edited, " ")}, {"c", other}} {
		line, _ := json.Marshal(map[string]string{"id": d.id, "text": d.text})
		b.Write(append(line, '\n'))
	}
	in := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		profile string
		kept    []string
	}{
		{"news", []string{"a", "b", "c"}},
		{"corpus", []string{"a", "c"}},
	} {
		t.Run(tc.profile, func(t *testing.T) {
			out := filepath.Join(dir, tc.profile)
			runOK(t, "dedup", in, "-o", out, "--profile", tc.profile, "--threshold", "0.9", "--similar", "0.2", "--containment", "2", "--keep", "first")
			var pair struct{ A, B, Label string }
			if err := json.Unmarshal(mustRead(t, filepath.Join(out, "pairs.jsonl")), &pair); err != nil {
				t.Fatal(err)
			}
			if pair.A != "a" || pair.B != "b" || pair.Label != "similar" {
				t.Fatalf("pair %+v, want a and b similar", pair)
			}
			var kept []string
			for _, l := range strings.Split(strings.TrimSpace(string(mustRead(t, filepath.Join(out, "kept.jsonl")))), "\n") {
				var d struct{ ID string }
				if err := json.Unmarshal([]byte(l), &d); err != nil {
					t.Fatal(err)
				}
				kept = append(kept, d.ID)
			}
			if !slices.Equal(kept, tc.kept) {
				t.Errorf("kept %q, want %q", kept, tc.kept)
			}
			if tc.profile == "corpus" {
				// The cluster says how b joined: by a similar pair.
				var c struct{ Joined []string }
				if err := json.Unmarshal(mustRead(t, filepath.Join(out, "clusters.jsonl")), &c); err != nil {
					t.Fatal(err)
				}
				if len(c.Joined) != 2 || !strings.HasPrefix(c.Joined[1], "similar to a (") {
					t.Errorf("joined %q, want b similar to a", c.Joined)
				}
			}
		})
	}
}

// TestCorpusProfileRarewordsSimilarIsNoCopy pins that rarewords' similar
// label, a best match in another source that its rule does not make a
// duplicate (here a third of the rare words), is no copy under --profile
// corpus: it has no --similar to give back, and removing a document for
// sharing a tenth of its rare words with another would empty a corpus of
// stories on one subject.
func TestCorpusProfileRarewordsSimilarIsNoCopy(t *testing.T) {
	dir := t.TempDir()
	word := func(prefix string, i int) string {
		return fmt.Sprintf("%s%c%c%c", prefix, 'a'+i%26, 'a'+i/26%26, 'a'+i/676%26)
	}
	var a, b []string
	for i := range 240 {
		a = append(a, word("w", i))
		if i%3 == 0 {
			b = append(b, word("w", i))
		} else {
			b = append(b, word("v", i))
		}
	}
	var in strings.Builder
	for _, d := range []struct{ id, source, text string }{{"a", "one", strings.Join(a, " ")}, {"b", "two", strings.Join(b, " ")}} {
		line, _ := json.Marshal(map[string]string{"id": d.id, "source": d.source, "text": d.text})
		in.Write(append(line, '\n'))
	}
	file := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(file, []byte(in.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	runOK(t, "dedup", file, "-o", out, "--method", "rarewords", "--profile", "corpus")
	var pair struct{ A, B, Label string }
	if err := json.Unmarshal(mustRead(t, filepath.Join(out, "pairs.jsonl")), &pair); err != nil {
		t.Fatal(err)
	}
	if pair.Label != "similar" {
		t.Fatalf("pair %+v, want a similar best match", pair)
	}
	if got := strings.TrimSpace(string(mustRead(t, filepath.Join(out, "clusters.jsonl")))); got != "" {
		t.Errorf("clusters %s, want none", got)
	}
	if got := strings.Count(string(mustRead(t, filepath.Join(out, "kept.jsonl"))), "\n"); got != 2 {
		t.Errorf("%d kept, want both", got)
	}
}
