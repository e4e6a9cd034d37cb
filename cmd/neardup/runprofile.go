package main

import (
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/flagopts"
)

// The profiles of `dedup --profile`.
const (
	// profileNews is the methods' defaults, measured on news: the rules
	// that keep apart two reports of one template (other figures, other
	// names, datelines days apart) and a "similar" label below the
	// threshold.
	profileNews = "news"
	// profileCorpus is for de-duplicating training data: the news rules
	// off, no "similar" label, and no containment rule, so that one
	// measure (the method's score, Jaccard for minhash) at one threshold
	// (--threshold) decides every copy, and the automatic banding is
	// chosen from that threshold. A similar label given back with
	// --similar counts as a copy: the documents of a similar pair are then
	// clustered, and one is kept (job.Options.SimilarIsCopy). A method
	// whose similar label is no option of that name (rarewords: a best
	// match its rule does not make a duplicate) keeps it, and its similar
	// pairs are not copies.
	profileCorpus = "corpus"
)

// corpusProfile is what profileCorpus changes in a method's options, by
// flag name; an option the method lacks is left alone.
var corpusProfile = []struct {
	name  string
	value any
}{
	{"similar", 0.0},
	{"containment", 2.0},
	{"number-agreement", -1.0},
	{"date-apart", 0.0},
	{"names", false},
	{"template", false},
	{"slots", false},
	{"follow-up", false},
	{"story-title", 0.0},
	{"rewrite", 0.0},
}

// withProfile returns c with the options of profile; flags given on the
// command line are applied after it, and win.
func withProfile(c engine.Config, profile string) (engine.Config, error) {
	if profile != profileCorpus {
		return c, nil
	}
	for _, p := range corpusProfile {
		if _, ok := flagopts.Get(c, p.name); !ok {
			continue
		}
		next, err := flagopts.Set(c, p.name, p.value)
		if err != nil {
			return c, err
		}
		c = next
	}
	return c, nil
}
