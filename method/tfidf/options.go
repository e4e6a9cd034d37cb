// Package tfidf is the title-and-body TF-IDF detection method: a document's
// title and body are separate L2-normalised TF-IDF vectors over their
// content words (stop words left out), with document frequencies from the
// corpus; a pair's scores are the two exact cosines, and a rule over them
// (DefaultTFIDFRule unless told otherwise) decides duplicates. Candidates
// come from exact all-pairs joins, one per field some clause of the rule (or
// the similar threshold) bounds from below, at the lowest such bound, so
// every pair the rule can accept is found and nothing is compared pairwise.
// A pair that is not a duplicate is similar when its body cosine reaches
// Options.Similar; the score of a pair is its body cosine.
//
// Incremental use: a document's vectors are fixed with the document
// frequencies as they stand when it is matched (in a Batch, once every
// document is added: the final ones; in an Index, those of the documents
// stored so far and itself), and never change afterwards. Removing a
// document takes its counts off the document frequencies, which later
// documents are weighed with, and takes it out of the joins. So an Index's
// scores differ slightly from a Batch's over the same documents; Rescore
// recomputes them as a Batch would.
package tfidf

import (
	"fmt"

	"github.com/neardup/neardup/internal/similarity"
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
}

// Defaults returns the method's default options.
func Defaults() Options {
	return Options{Similar: 0, Rule: DefaultTFIDFRule}
}

// Method returns the method's name.
func (Options) Method() string { return Name }

// Check returns an error naming the first option out of range: a similar
// threshold outside [0, 1], a rule that does not parse (a
// *similarity.RuleError) or that no join can serve.
func (o Options) Check() error {
	if o.Similar < 0 || o.Similar > 1 {
		return fmt.Errorf("tfidf: similar %v is not in [0, 1]", o.Similar)
	}
	_, _, err := o.joins()
	return err
}

// joins parses the rule and chooses the threshold of each field's join.
func (o Options) joins() (*similarity.Rule, []float64, error) {
	rule, err := similarity.ParseRule(o.Rule, fields...)
	if err != nil {
		return nil, nil, fmt.Errorf("tfidf: %w", err)
	}
	at, err := joinThresholds(rule, o.Similar, body, title)
	if err != nil {
		return nil, nil, err
	}
	return rule, at, nil
}
