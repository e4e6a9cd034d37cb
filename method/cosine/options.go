// Package cosine is the similarity-matrix detection method: a document
// (title and body) is one sparse vector of its content words, stemmed where
// the language has a stemmer, and the bigrams of consecutive content words,
// weighted by TF-IDF or PMI and L2-normalised; a pair scores its exact
// cosine, found by an exact all-pairs join at the lowest reporting
// threshold. Duplicates (cosine at or above Options.Threshold) are grouped
// by connected components, and each group is represented by its most
// central member unless told otherwise.
//
// Incremental use: a document's vector is fixed with the corpus statistics
// (document frequencies, term occurrences) as they stand when it is matched
// (in a Batch, once every document is added: the final ones; in an Index,
// those of the documents stored so far and itself), and never changes
// afterwards. Removing a document takes its counts off the statistics,
// which later documents are weighed with, and takes it out of the join. So
// an Index's scores differ slightly from a Batch's over the same documents;
// Rescore recomputes them as a Batch would. An Index's central
// representatives are chosen by cosines weighed again with the statistics
// as they stand, as a Batch's are (engine.Method.Reweigh).
package cosine

import (
	"fmt"

	"github.com/neardup/neardup/internal/vector"
)

// Name is the method's name.
const Name = "cosine"

// The weightings Options.Weighting accepts.
const (
	// TFIDF weighs a term by its count times 1 + ln((N+1)/(df+1)), N the
	// number of documents and df how many hold the term.
	TFIDF = "tfidf"
	// PMI weighs a term by the positive pointwise mutual information of
	// term and document, max(0, ln(tf·T / (cf·len))), T the occurrences of
	// all terms in the corpus, cf those of the term, len those in the
	// document.
	PMI = "pmi"
)

// Options configure the method. Make them with Defaults and change what you
// need: every field means what it says, zero included.
type Options struct {
	// Threshold is the cosine at or above which a pair is a duplicate.
	Threshold float64 `json:"threshold" flag:"threshold" help:"Cosine at or above which a pair is a duplicate"`
	// Similar is the cosine at or above which a pair below Threshold is
	// reported as similar. 0, the default, reports duplicates only: finding
	// similar pairs takes an exact join at that low a cosine, several times
	// the cost of the threshold's own.
	Similar float64 `json:"similar" flag:"similar" help:"Cosine at or above which a pair below the threshold is similar; 0 reports duplicates only"`
	// Weighting weighs the terms: TFIDF or PMI.
	Weighting string `json:"weighting" flag:"weighting" enum:"tfidf,pmi" help:"Term weighting: tfidf or pmi (positive pointwise mutual information)"`
}

// Defaults returns the method's default options.
func Defaults() Options {
	return Options{Threshold: 0.7, Similar: 0, Weighting: TFIDF}
}

// Method returns the method's name.
func (Options) Method() string { return Name }

// Check returns an error naming the first option out of range.
func (o Options) Check() error {
	switch {
	case o.Threshold <= 0 || o.Threshold > 1:
		return fmt.Errorf("cosine: threshold %v is not in (0, 1]", o.Threshold)
	case o.Similar < 0 || o.Similar > 1:
		return fmt.Errorf("cosine: similar %v is not in [0, 1]", o.Similar)
	}
	_, err := o.weighting()
	return err
}

// weighting returns the weighting in force.
func (o Options) weighting() (vector.Weighting, error) {
	switch o.Weighting {
	case TFIDF:
		return vector.TFIDF, nil
	case PMI:
		return vector.PMI, nil
	}
	return 0, fmt.Errorf("cosine: unknown weighting %q (want %s or %s)", o.Weighting, TFIDF, PMI)
}

// low returns the lowest reporting threshold: the join's.
func (o Options) low() float64 {
	if o.Similar > 0 {
		return min(o.Threshold, o.Similar)
	}
	return o.Threshold
}
