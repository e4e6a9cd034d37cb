// Package cosine is the similarity-matrix detection method: a document
// (title and body) is one sparse vector of its content words, stemmed where
// the language has a stemmer, and the bigrams of consecutive content words,
// weighted by TF-IDF or PMI and L2-normalised; a pair scores its exact
// cosine, found by an exact all-pairs join at the lowest reporting
// threshold. Duplicates (cosine at or above Options.Threshold) are grouped
// by connected components, and each group is represented by its most
// central member unless told otherwise. A pair whose cosine makes it a
// duplicate is refused by the template rules minhash applies (package
// templates): two reports of one template, another city, company or day
// filled in, share most of their words.
//
// Incremental use: a document's vector is fixed with the corpus statistics
// (document frequencies, term occurrences) as they stand when it is
// matched, or indexed as an Index loads it from its store (in a Batch, once
// every document is added: the final ones; in an Index, those of the
// documents held so far and itself), and never changes afterwards. Removing
// a document takes its counts off the statistics, which later documents are
// weighed with, and takes it out of the join: an Index that loads the
// documents after a removal weighs them without the removed one, where one
// that held them keeps their vectors (docs/index.md). So an Index's scores
// differ slightly from a Batch's over the same documents; Rescore
// recomputes them as a Batch would. An Index's central representatives are
// chosen by cosines weighed again with the statistics as they stand, as a
// Batch's are (engine.Method.Reweigh).
package cosine

import (
	"fmt"

	"github.com/neardup/neardup/internal/templates"
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
	// the cost of the threshold's own. A duplicate a rule refuses is
	// similar at it too, so a Similar above Threshold marks no pair below
	// Threshold, and only the refused ones scoring at least it: the command
	// line refuses --similar given so.
	Similar float64 `json:"similar" flag:"similar" help:"Cosine, at most the threshold, at or above which a pair below it is similar; 0 reports duplicates only"`
	// Weighting weighs the terms: TFIDF or PMI.
	Weighting string `json:"weighting" flag:"weighting" enum:"tfidf,pmi" help:"Term weighting: tfidf or pmi (positive pointwise mutual information)"`
	// NumberAgreement: when both documents hold at least two distinct
	// figures and share less than this share of the smaller set, the pair
	// is not a duplicate. Negative turns the check off.
	NumberAgreement float64 `json:"number_agreement" flag:"number-agreement" help:"Not a duplicate when both documents have 2+ figures and share less than this share of them; negative turns it off"`
	// DateApart: two documents whose datelines name different days and
	// whose own dates (else those days) are at least this many hours apart
	// are not duplicates (a recurring item of another day; see minhash's
	// option of the name). 0 turns it off.
	DateApart float64 `json:"date_apart" flag:"date-apart" help:"Not a duplicate when the datelines name different days and the dates are at least this many hours apart; 0 turns it off"`
	// Names: two documents each holding a name the other never mentions
	// (a title word the text capitalises, the dateline's place, a <...>
	// ticker or company) are not duplicates when their figures changed or
	// each holds two such names, nor two whose titles' figures differ
	// while their figures changed (see templates.Evidence.NamesDisagree).
	// A name is looked up in the filter of the other document's words
	// (templates.Context.WordFilter).
	Names bool `json:"names" flag:"names" help:"Not a duplicate when each document names what the other does not and figures changed, or the titles' figures differ"`
	// Template: two documents that fill at least two of the places where
	// both write a figure (the words on either side of it on one line) with
	// other figures, and at least half of those places (any share, when
	// their datelines name other days), are one template filled in twice,
	// not duplicates (see figures.Refilled).
	Template bool `json:"template" flag:"template" help:"Not a duplicate when two or more places where both texts write a figure hold other figures and they are half of those places or the datelines name other days"`
	// Slots: two documents that fill the places both fill with a name, a
	// commodity or a time of day with other words are one template filled
	// in twice, not duplicates (see minhash's option of the name and
	// templates.Evidence.WordsRefilled).
	Slots bool `json:"slots" flag:"slots" help:"Not a duplicate when places both texts fill with a name, commodity or time hold other words (two places, or one and another figure), or the headings name two times of day"`

	// format is the sketch format the method makes: Format, or 0 for it;
	// an index of format 1 goes on without the template rules' context,
	// one of 2 without the title names shorter than a shingle, one of 3
	// with figures and places of ASCII alone, one of 4 with "nil" no
	// figure, a unit the word after its figure, number words in English
	// alone and fewer forms of dateline (see Spec's Older), one of 5 with a figure at its line's end in its
	// word's place, no row labels, places by their letter pairs alone
	// and the Turkish "ı" apart from "i".
	format int
}

// Defaults returns the method's default options.
func Defaults() Options {
	return Options{Threshold: 0.7, Similar: 0, Weighting: TFIDF,
		NumberAgreement: 0.5, DateApart: 72, Names: true, Template: true, Slots: true}
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
	case o.NumberAgreement > 1:
		return fmt.Errorf("cosine: number agreement %v is above 1", o.NumberAgreement)
	case o.DateApart < 0:
		return fmt.Errorf("cosine: date apart %v hours is negative", o.DateApart)
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

// sketchFormat is the sketch format o makes.
func (o *Options) sketchFormat() byte {
	if o.format != 0 {
		return byte(o.format)
	}
	return Format
}

// shortNames reports whether o's sketches keep the title names shorter
// than a shingle, and the keys they are looked up by in the filter of the
// words (templates.Scanner.ShortNames): those of format 3 on, with
// --names, the only rule that reads names.
func (o *Options) shortNames() bool { return o.Names && o.sketchFormat() >= 3 }

// rules returns the template rules in force: none for sketches of format
// 1, which carry no context.
func (o *Options) rules() templates.Rules {
	if o.sketchFormat() < 2 {
		return templates.Rules{NumberAgreement: -1}
	}
	return templates.Rules{NumberAgreement: o.NumberAgreement, DateApart: o.DateApart, Names: o.Names, Template: o.Template, Slots: o.Slots}
}

// low returns the lowest reporting threshold: the join's.
func (o Options) low() float64 {
	if o.Similar > 0 {
		return min(o.Threshold, o.Similar)
	}
	return o.Threshold
}
