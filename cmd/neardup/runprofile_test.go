package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/profile"
)

// TestProfilesOfTemplatedBulletins: two weather bulletins of one template,
// alike but for the city and two figures, and two eurobond notices alike
// but for the issuer and the amount (refused by --slots alone), are not
// duplicates under --profile news for the methods that apply the template
// rules, and are under --profile corpus, which turns the rules off (near
// copies for training data).
func TestProfilesOfTemplatedBulletins(t *testing.T) {
	notice := func(id, issuer, amount string) map[string]string {
		return map[string]string{"id": id, "title": strings.ToUpper(issuer) + " ISSUES WARRANT BOND", "date": "2024-06-03T09:00:00Z",
			"text": "LONDON, June 3 - " + issuer + " is issuing a " + amount + " mln dlr equity warrant eurobond due June 30, 1999 " +
				"paying an indicated coupon of 2-1/4 pct and priced at par, lead manager Harlow Securities said.\n\n" +
				"    The issue is guaranteed by Tessaly Trust Bank and is available in denominations of 5,000 dlrs. The selling " +
				"concession is 1-1/2 pct while management and underwriting combined pays 3/4 pct. The payment date is June 30 " +
				"and listing will be in Luxembourg.\n\n    Final terms will be fixed on June 10. The warrants are exercisable from July 14 " +
				"until the bond matures, and each entitles its holder to shares at a premium to be set with the final terms. " +
				"The bonds will be issued in bearer form, and the lead manager said demand from investors in Europe and Asia " +
				"had been strong since the market for equity warrant issues reopened after the spring holidays."}
	}
	dir := t.TempDir()
	var b strings.Builder
	for _, d := range []map[string]string{weatherBulletin("Tucson", "24", "30"), weatherBulletin("Raleigh", "26", "35"),
		notice("orvell", "Orvell Marine Kogyo", "80"), notice("castellan", "Castellan Foods Holdings", "60")} {
		line, _ := json.Marshal(d)
		b.Write(append(line, '\n'))
	}
	in := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"minhash", "simhash", "sentences", "cosine"} {
		for _, tc := range []struct {
			profile string
			dup     bool
		}{{profile.News, false}, {profile.Corpus, true}} {
			t.Run(m+"/"+tc.profile, func(t *testing.T) {
				out := filepath.Join(dir, m+"-"+tc.profile)
				runOK(t, "dedup", in, "-o", out, "--method", m, "--profile", tc.profile)
				dups := map[string]bool{}
				for l := range strings.Lines(string(mustRead(t, filepath.Join(out, "pairs.jsonl")))) {
					var p struct{ A, B, Label string }
					if err := json.Unmarshal([]byte(l), &p); err != nil {
						t.Fatal(err)
					}
					dups[p.A+"~"+p.B] = p.Label == "duplicate"
				}
				for _, pair := range []string{"tucson~raleigh", "orvell~castellan"} {
					if dups[pair] != tc.dup {
						t.Errorf("%s: duplicate %v, want %v", pair, dups[pair], tc.dup)
					}
				}
			})
		}
	}
}

// weatherBulletin is one city's forecast of a template: two cities' are
// duplicates by their scores, which the template rules refuse (other
// names, other figures), and so similar under --profile news.
func weatherBulletin(city, high, rain string) map[string]string {
	return map[string]string{"id": strings.ToLower(city), "title": city + " weather: high of " + high + "C on Thursday",
		"date": "2024-05-02T06:00:00Z",
		"text": strings.ToUpper(city) + ", May 2 (Weather Desk) - The forecast for " + city + " for Thursday: morning sunshine " +
			"will give way to clouds by the afternoon. The high will reach " + high + " degrees Celsius, with an overnight low of 14 degrees.\n\n" +
			"Winds will blow from the west at 21 kilometres per hour, with gusts of up to 40 kilometres per hour on exposed ground. " +
			"The chance of rain is " + rain + " percent.\n\nHumidity will be around 45 percent in the afternoon. The UV index will be 5, " +
			"and residents are advised to use sun protection around midday.\n\nLooking ahead, the weather will stay unsettled over the " +
			"next two days, with highs between 22 and 27 degrees. Drivers should expect crosswinds on bridges and elevated roads.\n\n" +
			"Pollen counts will be moderate, with grass pollen at 31 grains per cubic metre. Visibility will be good at 18 kilometres. " +
			"The sea temperature off the coast is 17 degrees.\n\nSunrise is at 5:52 a.m. and sunset at 8:16 p.m. " +
			"The weather desk updates its forecasts every six hours."}
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
