// Package tfidf is the title-and-body TF-IDF detection method: a document's
// title and body are separate L2-normalised TF-IDF vectors, with document
// frequencies from the corpus; a pair's scores are the two exact cosines,
// and a rule over them (DefaultTFIDFRule unless told otherwise) decides
// duplicates. By default terms and weights are those the rule was tuned
// on, R tm's: terms are the lower-cased pieces of at least three bytes
// between ASCII white space, punctuation kept, with no stop list and no
// stemming, except that text in a script written without spaces (Chinese,
// Japanese, Thai: a whole clause to tm) gives overlapping pairs of its
// letters (Options.Terms), weighed by their count over the document's length times
// log2(N/df) (Options.Weighting), so a term every document holds weighs
// nothing. Candidates
// come from exact all-pairs joins, one per field some clause of the rule (or
// the similar threshold) bounds from below, at the lowest such bound, so
// every pair the rule can accept is found and nothing is compared pairwise.
// A pair that is not a duplicate is similar when its body cosine reaches
// Options.Similar; the score of a pair is its body cosine.
//
// Incremental use: a document's vectors are fixed with the document
// frequencies as they stand when it is matched, or indexed as an Index
// loads it from its store (in a Batch, once every document is added: the
// final ones; in an Index, those of the documents held so far and itself),
// and never change afterwards. Removing a document takes its counts off the
// document frequencies, which later documents are weighed with, and takes
// it out of the joins: an Index that loads the documents after a removal
// weighs them without the removed one, where one that held them keeps their
// vectors (docs/index.md). So an Index's scores differ slightly from a
// Batch's over the same documents; Rescore recomputes them as a Batch
// would. An Index's central representatives are chosen by body cosines
// weighed again with the document frequencies as they stand, as a Batch's
// are (engine.Method.Reweigh). Under the default weighting they differ most
// in a young index: log2(N/df) gives a term every document so far holds no
// weight, so the first document's vectors are empty and the second's keep
// only what it does not share with the first; words less stop words with
// the smoothed IDF (TermsWords, WeightingSmooth) weigh an index's first
// documents as a batch would nearly.
package tfidf

import (
	"fmt"

	"github.com/neardup/neardup/internal/similarity"
	"github.com/neardup/neardup/internal/vector"
)

// Name is the method's name.
const Name = "tfidf"

// DefaultTFIDFRule is the method's default decision rule: a pair is a
// duplicate when its title and body cosines satisfy it.
const DefaultTFIDFRule = "title>0.2 & body>=0.2 | title>=0.1 & body>=0.7 | body>=0.85"

// The score fields a rule may name, in the order the scores are kept.
const (
	title = iota
	body
)

var fields = []string{"title", "body"}

// The values of Options.Terms.
const (
	// TermsTM are R tm's default terms (see tmTerms): the default.
	TermsTM = "tm"
	// TermsWords are the project's words (analysis.Analyzer.Words) less
	// the stop words of the document's language (vector.Terms).
	TermsWords = "words"
)

// The values of Options.Weighting.
const (
	// WeightingTM is R tm's weightTfIdf (vector.TFIDFLog2): the default.
	WeightingTM = "tm"
	// WeightingSmooth is the count times a smoothed natural-log IDF
	// (vector.TFIDF), under which a term in every document keeps a weight.
	WeightingSmooth = "smooth"
)

// Options configure the method. Make them with Defaults and change what you
// need: every field means what it says, zero included.
type Options struct {
	// Similar is the body cosine at or above which a pair the rule does not
	// make a duplicate is reported as similar. 0, the default, reports
	// duplicates only: finding similar pairs takes an exact join at that
	// low a cosine, several times the cost of the rule's own.
	Similar float64 `json:"similar" flag:"similar" help:"Body cosine at or above which a pair the rule does not accept is similar; 0 reports duplicates only"`
	// Rule decides duplicates from the title and body cosines (see
	// similarity.Rule), e.g. DefaultTFIDFRule. Each clause must bound some
	// field from below: a clause that does not would accept pairs sharing
	// no word, which no join can find.
	Rule string `json:"rule" flag:"rule" help:"Rule over the title and body cosines that makes a pair a duplicate"`
	// Terms is how titles and bodies become terms: TermsTM, the default,
	// or TermsWords.
	Terms string `json:"terms" flag:"terms" enum:"tm,words" help:"Terms of titles and bodies: tm (R tm's: lower-cased pieces of 3+ bytes between spaces, punctuation kept, no stop list; Chinese, Japanese or Thai text in pairs of letters) or words (Unicode words less stop words)"`
	// Weighting weighs the terms: WeightingTM, the default, or
	// WeightingSmooth.
	Weighting string `json:"weighting" flag:"weighting" enum:"tm,smooth" help:"Term weighting: tm (count/length × log2(N/df), R tm's weightTfIdf) or smooth (count × (1 + ln((N+1)/(df+1))))"`

	// format is the sketch format the method makes: Format, or 0 for it;
	// an index of format 2 goes on with tm's pieces whole in every script
	// (see Spec's Older).
	format int
}

// sketchFormat is the sketch format o makes.
func (o Options) sketchFormat() byte {
	if o.format != 0 {
		return byte(o.format)
	}
	return Format
}

// Defaults returns the method's default options.
func Defaults() Options {
	return Options{Similar: 0, Rule: DefaultTFIDFRule, Terms: TermsTM, Weighting: WeightingTM}
}

// Method returns the method's name.
func (Options) Method() string { return Name }

// Check returns an error naming the first option out of range: a similar
// threshold outside [0, 1], unknown terms or weighting, a rule that does
// not parse (a *similarity.RuleError) or that no join can serve.
func (o Options) Check() error {
	if o.Similar < 0 || o.Similar > 1 {
		return fmt.Errorf("tfidf: similar %v is not in [0, 1]", o.Similar)
	}
	if o.Terms != TermsTM && o.Terms != TermsWords {
		return fmt.Errorf("tfidf: unknown terms %q (want %s or %s)", o.Terms, TermsTM, TermsWords)
	}
	if _, err := o.weighting(); err != nil {
		return err
	}
	_, _, err := o.joins()
	return err
}

// weighting returns the vector weighting of Options.Weighting.
func (o Options) weighting() (vector.Weighting, error) {
	switch o.Weighting {
	case WeightingTM:
		return vector.TFIDFLog2, nil
	case WeightingSmooth:
		return vector.TFIDF, nil
	}
	return 0, fmt.Errorf("tfidf: unknown weighting %q (want %s or %s)", o.Weighting, WeightingTM, WeightingSmooth)
}

// joins parses the rule and chooses the threshold of each field's join.
func (o Options) joins() (*similarity.Rule, []float64, error) {
	rule, err := similarity.ParseRule(o.Rule, fields...)
	if err != nil {
		return nil, nil, fmt.Errorf("tfidf: %w", err)
	}
	rule.Slack = similarity.Slack // the cosines are of 32-bit weights
	at, err := joinThresholds(rule, o.Similar, body, title)
	if err != nil {
		return nil, nil, err
	}
	return rule, at, nil
}
