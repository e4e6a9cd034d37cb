package main

import (
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
