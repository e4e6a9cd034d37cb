// Package sentences is the sentence-fingerprint detection method: each
// sentence long enough is normalised and hashed, documents sharing a
// sentence hash are candidates, and a pair scores the Jaccard index of the
// two sentence sets, optionally weighting rarer and longer sentences more.
// A sentence found in too many documents is boilerplate ("subscribe to our
// newsletter"): it neither proposes nor scores.
package sentences

import "fmt"

// Name is the method's name.
const Name = "sentences"

// Options configure the method. Make them with Defaults and change what you
// need: every field means what it says, zero included.
type Options struct {
	// Threshold is the sentence-set Jaccard index at or above which a pair
	// is a duplicate.
	Threshold float64 `json:"threshold" flag:"threshold" help:"Score at or above which a pair is a duplicate"`
	// Similar is the Jaccard index at or above which a pair below Threshold
	// is reported as similar; 0 reports duplicates only.
	Similar float64 `json:"similar" flag:"similar" help:"Score at or above which a pair below the threshold is similar; 0 reports duplicates only"`
	// MaxDocs: a sentence found in more documents than this is
	// boilerplate and ignored.
	MaxDocs int `json:"max_sentence_docs" flag:"max-sentence-docs" help:"A sentence in more documents than this is boilerplate and ignored"`
	// MinChars: sentences shorter than this many characters are ignored,
	// a run of white space counted as one (analysis.Sentence.Chars), so a
	// copy with doubled spaces keeps or drops the sentences its original does.
	MinChars int `json:"min_sentence_chars" flag:"min-sentence-chars" help:"Ignore sentences shorter than this many characters (a run of white space counts as one)"`
	// Weighted weighs each sentence by its length times its rarity,
	// log(1 + N/df), instead of counting it once.
	Weighted bool `json:"weighted" flag:"weighted" help:"Weigh sentences by length and rarity (IDF)"`
	// BucketLimit caps how many documents holding one sentence a document
	// is compared with: beyond it, the first (the anchor) and the newest.
	BucketLimit int `json:"bucket_limit" flag:"bucket-limit" help:"Documents holding one sentence that a document is compared with (beyond it: the first and the newest)"`
}

// Defaults returns the method's default options; the threshold was chosen
// by measurement on news corpora (docs/methods.md).
func Defaults() Options {
	return Options{Threshold: 0.35, Similar: 0.3, MaxDocs: 10, MinChars: 20, BucketLimit: 32}
}

// Method returns the method's name.
func (Options) Method() string { return Name }

// Check returns an error naming the first option out of range.
func (o Options) Check() error {
	switch {
	case o.Threshold <= 0 || o.Threshold > 1:
		return fmt.Errorf("sentences: threshold %v is not in (0, 1]", o.Threshold)
	case o.Similar < 0 || o.Similar > 1:
		return fmt.Errorf("sentences: similar %v is not in [0, 1]", o.Similar)
	case o.MaxDocs < 1:
		return fmt.Errorf("sentences: max sentence docs %d is below 1", o.MaxDocs)
	case o.MinChars < 0:
		return fmt.Errorf("sentences: min sentence chars %d is negative", o.MinChars)
	case o.BucketLimit < 2:
		return fmt.Errorf("sentences: bucket limit %d is below 2", o.BucketLimit)
	}
	return nil
}
