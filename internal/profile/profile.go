// Package profile owns the sets of method options a run starts from, by
// the name `neardup dedup --profile` and `neardup-beam dedup --profile`
// give them: news (the methods' defaults) and corpus (training data). The
// options are set by their flag names (package flagopts), so that one
// table serves every method; a method lacking an option is left alone.
// Flags given on a command line are applied after the profile, and win.
package profile

import (
	"fmt"

	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/flagopts"
)

// The profiles.
const (
	// News is the methods' defaults, measured on news: the rules that
	// keep apart two reports of one template (other figures, other
	// names, datelines days apart) and a "similar" label below the
	// threshold. It is the default.
	News = "news"
	// Corpus is for de-duplicating training data: the news rules off, no
	// "similar" label, and no containment rule, so that one measure (the
	// method's score, Jaccard for minhash) at one threshold (--threshold)
	// decides every copy, and the automatic banding is chosen from that
	// threshold. A similar label given back with --similar counts as a
	// copy (see SimilarIsCopy). A method whose similar label is no option
	// of that name (rarewords: a best match its rule does not make a
	// duplicate) keeps it, and its similar pairs are not copies.
	Corpus = "corpus"
)

// Names lists the profiles, the default first.
func Names() []string { return []string{News, Corpus} }

// corpusOptions is what Corpus changes in a method's options, by flag
// name; an option the method lacks is left alone.
var corpusOptions = []struct {
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

// Apply returns c with the options of the profile of that name: c itself
// for News (and ""), the options Corpus changes for Corpus. Another name
// is an error naming the profiles.
func Apply(c engine.Config, name string) (engine.Config, error) {
	switch name {
	case News, "":
		return c, nil
	case Corpus:
	default:
		return c, fmt.Errorf("profile: unknown profile %q (want news or corpus)", name)
	}
	for _, p := range corpusOptions {
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

// SimilarIsCopy reports whether a run of the profile of that name counts
// a similar pair as a copy when choosing what to keep
// (engine.Grouping.SimilarIsCopy): under Corpus when the similar label is
// given back (similarGiven: --similar on the command line), so that the
// documents of a similar pair are clustered and one is kept; never under
// News, where a similar pair is two stories.
func SimilarIsCopy(name string, similarGiven bool) bool {
	return name == Corpus && similarGiven
}
