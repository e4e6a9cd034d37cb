package profile

import (
	"testing"

	"github.com/neardup/neardup/internal/flagopts"
	"github.com/neardup/neardup/internal/methods"
)

// TestCorpusProfile: --profile corpus turns the news rules, the similar
// label and containment off for the methods that have them, and news
// leaves the defaults; it applies to every method.
func TestCorpusProfile(t *testing.T) {
	type option struct {
		name       string
		news, corp any
	}
	rules := []option{ // the template rules, on by default, off in corpus for every method that applies them
		{"number-agreement", 0.5, -1.0}, {"date-apart", 72.0, 0.0}, {"names", true, false}, {"template", true, false}, {"slots", true, false},
	}
	want := map[string][]option{
		"minhash": append([]option{{"similar", 0.3, 0.0}, {"containment", 0.7, 2.0}, {"threshold", 0.45, 0.45},
			{"follow-up", true, false}, {"story-title", 0.25, 0.0}}, rules...),
		"simhash": rules, "sentences": rules, "cosine": rules, "tfidf": nil, "rarewords": nil,
	}
	for m, options := range want {
		spec, err := methods.Lookup(m)
		if err != nil {
			t.Fatal(err)
		}
		news, err := Apply(spec.Defaults(), News)
		if err != nil {
			t.Fatal(err)
		}
		corpus, err := Apply(spec.Defaults(), Corpus)
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		for _, o := range options {
			if got, _ := flagopts.Get(news, o.name); got != o.news {
				t.Errorf("%s: news --%s = %v, want %v", m, o.name, got, o.news)
			}
			if got, _ := flagopts.Get(corpus, o.name); got != o.corp {
				t.Errorf("%s: corpus --%s = %v, want %v", m, o.name, got, o.corp)
			}
		}
	}
}

// TestUnknownProfile wants a name that is no profile refused, naming the
// profiles, and "" taken as news: a command line that does not check the
// name against an enum (neardup-beam's flag package) must not run news
// for a misspelt corpus.
func TestUnknownProfile(t *testing.T) {
	spec, err := methods.Lookup("minhash")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(spec.Defaults(), "corpsu"); err == nil || err.Error() != `profile: unknown profile "corpsu" (want news or corpus)` {
		t.Errorf("Apply corpsu: %v, want it refused naming the profiles", err)
	}
	if c, err := Apply(spec.Defaults(), ""); err != nil || c != spec.Defaults() {
		t.Errorf(`Apply "": %v, %v; want the defaults`, c, err)
	}
	for _, tc := range []struct {
		name    string
		similar bool
		want    bool
	}{{News, false, false}, {News, true, false}, {Corpus, false, false}, {Corpus, true, true}} {
		if got := SimilarIsCopy(tc.name, tc.similar); got != tc.want {
			t.Errorf("SimilarIsCopy(%s, %v) = %v, want %v", tc.name, tc.similar, got, tc.want)
		}
	}
}
