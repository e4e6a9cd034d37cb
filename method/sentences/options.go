// Package sentences is the sentence-fingerprint detection method: each
// sentence long enough is normalised and hashed, documents sharing a
// sentence hash are candidates, and a pair scores the Jaccard index of the
// two sentence sets, optionally weighting rarer and longer sentences more.
// A sentence found in too many documents is boilerplate ("subscribe to our
// newsletter"): it neither proposes nor scores. A pair whose score makes it
// a duplicate is refused by the template rules minhash applies (package
// templates): two reports of one template, another city, company or day
// filled in, share most of their sentences.
package sentences

import (
	"fmt"

	"github.com/neardup/neardup/internal/templates"
)

// Name is the method's name.
const Name = "sentences"

// Options configure the method. Make them with Defaults and change what you
// need: every field means what it says, zero included.
type Options struct {
	// Threshold is the sentence-set Jaccard index at or above which a pair
	// is a duplicate.
	Threshold float64 `json:"threshold" flag:"threshold" help:"Score at or above which a pair is a duplicate"`
	// Similar is the Jaccard index at or above which a pair below Threshold
	// is reported as similar; 0 reports duplicates only. A duplicate a rule
	// refuses is similar at it too, so a Similar above Threshold marks no
	// pair below Threshold, and only the refused ones scoring at least it:
	// the command line refuses --similar given so.
	Similar float64 `json:"similar" flag:"similar" help:"Score, at most the threshold, at or above which a pair below it is similar; 0 reports duplicates only"`
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

// Defaults returns the method's default options; the threshold was chosen
// by measurement on news corpora (docs/methods.md).
func Defaults() Options {
	return Options{Threshold: 0.35, Similar: 0.3, MaxDocs: 10, MinChars: 20, BucketLimit: 32,
		NumberAgreement: 0.5, DateApart: 72, Names: true, Template: true, Slots: true}
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
	case o.NumberAgreement > 1:
		return fmt.Errorf("sentences: number agreement %v is above 1", o.NumberAgreement)
	case o.DateApart < 0:
		return fmt.Errorf("sentences: date apart %v hours is negative", o.DateApart)
	}
	return nil
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
