// Package minhash is the MinHash/LSH detection method, the scalable
// workhorse of web-scale de-duplication: a document is the set of its
// character (or word) shingles; a one-permutation MinHash signature cut into
// LSH bands gives candidate keys; each candidate pair is verified on a
// consistent bottom-k sample of the two shingle sets (exactly, for documents
// short enough to keep every shingle) by Jaccard and containment, and a pair
// whose figures disagree is not a duplicate.
package minhash

import (
	"fmt"

	"github.com/neardup/neardup/internal/sketch"
)

// Name is the method's name.
const Name = "minhash"

// The shingle units Options.ShingleUnit accepts.
const (
	Chars = "chars" // letters and digits of the words, spaces and punctuation left out
	Words = "words" // consecutive words
)

// Options configure the method. Make them with Defaults and change what you
// need: every field means what it says, zero included.
type Options struct {
	// Threshold is the Jaccard index at or above which a pair is a
	// duplicate. Containment, Rewrite and figures that agree
	// (FiguresSlack) also make duplicates below it.
	Threshold float64 `json:"threshold" flag:"threshold" help:"Jaccard index at or above which a pair is a duplicate, unless a rule of its template refuses it; --containment, --rewrite and figures that agree (0.05 short of it) also make duplicates below it: --rewrite 0 and --containment 2 turn off the first two"`
	// Similar is the Jaccard index at or above which a pair below Threshold
	// is reported as similar; 0 reports duplicates only. A duplicate a rule
	// refuses is similar at it too, so a Similar above Threshold marks no
	// pair below Threshold by its Jaccard index, and only the refused ones
	// scoring at least it: the command line refuses --similar given so.
	Similar float64 `json:"similar" flag:"similar" help:"Score, at most the threshold, at or above which a pair below it is similar; 0 reports duplicates only"`
	// Containment also makes a pair a duplicate when the smaller document
	// lies at least this share inside the larger (truncated reprints, a
	// story inside a round-up), and at least Threshold: a threshold above
	// it is the bound of both measures, so that no duplicate scores below
	// the threshold. Above 1 turns it off.
	Containment float64 `json:"containment" flag:"containment" help:"Also a duplicate when the smaller document is at least this share (and at least --threshold) inside the larger; above 1 turns it off"`
	// NumberAgreement: when both documents hold at least two distinct
	// figures (years and ordinals left out) and share less than this share
	// of the smaller set, the pair is not a duplicate (templated reports of
	// different companies or days share words, not figures). Negative
	// turns the check off.
	NumberAgreement float64 `json:"number_agreement" flag:"number-agreement" help:"Not a duplicate when both documents have 2+ figures and share less than this share of them; negative turns it off"`
	// DateApart: two documents whose datelines name different days and
	// whose own dates (else those days) are at least this many hours apart
	// are not duplicates: a recurring item of another day ("BUNDESBANK
	// LEAVES CREDIT POLICIES UNCHANGED" of March 5 and of March 19). A
	// story re-sent the next morning under that morning's dateline, or
	// reprinted a day or two later under a dateline of its own, stays a
	// duplicate; so does a re-run that keeps its dateline, whenever it
	// runs. 0 turns it off.
	DateApart float64 `json:"date_apart" flag:"date-apart" help:"Not a duplicate when the datelines name different days and the dates are at least this many hours apart; 0 turns it off"`
	// Names: two documents each holding a name the other never mentions
	// (a title word the text capitalises, the dateline's place, a <...>
	// ticker or company) are not duplicates when their figures changed
	// (each has one the other lacks) or each holds two such names; nor are
	// two whose titles' figures differ while their figures changed (a
	// market report of 11:10 and one of 11:31), nor two whose datelines
	// name other places. Another company, fund, town or hour in the same
	// template. The names need character shingles, among which they are
	// looked up: with Words only the titles' figures are compared.
	Names bool `json:"names" flag:"names" help:"Not a duplicate when each document names what the other does not and figures changed, or the titles' figures differ (names not read with --shingle-unit words)"`
	// Template: two documents that fill at least two of the places where
	// both write a figure (the words on either side of it on one line,
	// "shortfall to 750 mln", "div five cts") with other figures, and at
	// least half of those places, are one template filled in twice, not
	// duplicates (a money-market estimate revised, another fund's payout,
	// the afternoon's livestock report); so are two whose datelines name
	// different days with two such places, whatever their share. Figures
	// are compared by value ("17-1/2" is "17.5", "five" is "5"), a digit
	// dropped, doubled or split off forgiven as damage; a table's cells
	// are placed by row and by column counted from the row's end (a
	// later session's columns move the others). Nor are two dated a
	// whole number of days apart, at one hour, under datelines of other
	// days, with another figure in a place or the same title and their
	// figures changed: a recurring item of another day.
	Template bool `json:"template" flag:"template" help:"Not a duplicate when two or more places where both texts write a figure hold other figures and they are half of those places or the datelines name other days"`
	// FollowUp: two stories of one event whose texts share less than
	// followUpBelow of their shingles and neither of which holds half of
	// the other's lead (its opening) are a story and its follow-up (before
	// and after an auction, a vote, a match: background paragraphs reused
	// under a new lead with new facts), similar, not duplicates. A
	// reprint, truncated or under a new headline, keeps its lead.
	FollowUp bool `json:"follow_up" flag:"follow-up" help:"Not a duplicate when the texts share under 0.6 (Jaccard) and neither holds half of the other's opening: a story and its follow-up"`
	// StoryTitle also makes a pair similar when its titles share at least
	// this share of their words (Jaccard index, words of four letters or
	// more cut to six) and at least two words, neither title names what the other text lacks
	// (see Names), its texts share a few shingles (storyJaccard), both
	// are undated or dated at most StoryWindow apart, and the template
	// rules in force do not read it as one template filled in twice (its
	// titles' figures disjoint, other figures or words in its places, two
	// times of day in its headings, one title over other days' datelines a
	// day apart with other figures: templates.Rules.Refills): one story rewritten
	// by another newsroom, which names the event in the same words and
	// shares few character shingles. Pairs of title words, with the
	// document's place in time, are then candidate keys too (see
	// titleKeys). 0.25 measured best (docs/wire-rules.md); 0 turns it off; it
	// needs Similar.
	StoryTitle float64 `json:"story_title" flag:"story-title" help:"Also similar when the titles share at least this share of their words, the texts a few shingles and the dates are within --story-window (one story rewritten); 0 turns it off"`
	// StoryWindow is how many hours apart two dated documents the
	// same-story rule joins may be: another newsroom's report of an event
	// follows the first within a day or two, and only documents that close
	// are its candidates, which keeps the title keys' candidates few where
	// titles recur (wire copy's daily items, a long archive). A dated and
	// an undated document are never joined by it; 0 joins any dates and
	// makes candidates of titles sharing words whatever their dates.
	StoryWindow float64 `json:"story_window" flag:"story-window" help:"Hours apart two dated documents may be for --story-title to join them (an undated one joins undated ones only); 0: any dates"`
	// Rewrite also makes a pair a duplicate at this Jaccard index, below
	// Threshold, when its documents are dated at most RewriteHours apart
	// and every place both fill holds the same figure or word, neither
	// names what the other lacks and their headings name no other time:
	// a story rewritten the same day, by any source, which shares less
	// of its wording than a reprint (a new lead, paragraphs reordered or
	// cut) and none of whose facts changed. Another day's item, another
	// company's notice and the afternoon's report fail those checks. 0
	// turns it off; a value at or above Threshold changes nothing.
	Rewrite float64 `json:"rewrite" flag:"rewrite" help:"Also a duplicate at this Jaccard index when the documents are dated within 12 hours and every place both fill agrees (a story rewritten the same day); 0 turns it off"`
	// Slots: two documents that fill the places both fill with a name, a
	// commodity or a time of day (the words on either side of it on its
	// line, "lead manager _ said", "degrees - _ prices"; a place framed by
	// function words alone, "for _ and", is none) with other words are one
	// template filled in twice, not duplicates: two such places, or one and
	// a place holding another figure (another company's eurobond, the
	// cattle report beside the hog report), or their headings (the title,
	// or a table's first line) name two times of day (a market report of
	// 12:00 and of 12:30, the opening and the closing table). A name is a
	// run of capitalised words inside a sentence, or the words of a
	// quotation; names are compared by their initials and the letter pairs
	// of their shapes, the look-alikes a character recogniser confuses
	// folded, so that a misread name keeps its name. On by default: it
	// refuses no true pair of the labelled sets (docs/wire-rules.md).
	Slots bool `json:"slots" flag:"slots" help:"Not a duplicate when places both texts fill with a name, commodity or time hold other words (two places, or one and another figure), or the headings name two times of day"`
	// ShingleUnit is what a shingle is made of: Chars, consecutive letters
	// and digits of the words, which a damaged character, a split or glued
	// word or another way of writing a figure changes only locally, and a
	// look-alike a character recogniser reads for another (1 for l, rn for
	// m) not at all (analysis.Analyzer.FoldedCharShingles); or
	// Words, consecutive words, cheaper and half the memory, for clean text.
	ShingleUnit string `json:"shingle_unit" flag:"shingle-unit" enum:"chars,words" help:"Shingles of characters (robust to OCR damage, split and glued words, number formats) or of words (cheaper, for clean text)"`
	// CharShingle is the length of a character shingle.
	CharShingle int `json:"char_shingle" flag:"char-shingle" help:"Characters in a shingle of --shingle-unit chars"`
	// WordShingle is the length of a word shingle.
	WordShingle int `json:"word_shingle" flag:"word-shingle" help:"Words in a shingle of --shingle-unit words"`
	// SampleSize bounds the shingle fingerprints kept per document for
	// verification: a document with more keeps the smallest
	// max(SampleSize, n/4) of its n, a consistent sample on which two
	// documents are compared over the hash range both kept (see
	// similarity.ScoresBelow). Shorter documents keep all and are scored
	// exactly; 0 keeps every fingerprint.
	SampleSize int `json:"sample_size" flag:"sample-size" help:"A document with more shingles keeps the smallest max(N, n/4) of its n fingerprints, a consistent sample that bounds memory; 0 keeps all"`
	// Hashes is the number of MinHash values per document.
	Hashes int `json:"hashes" flag:"hashes" help:"MinHash values per document"`
	// Bands is the LSH banding "BxR", B bands of R signature values each
	// (B·R ≤ Hashes), or "auto": chosen from the lowest reporting threshold
	// (see sketch.ChooseBands), with at least 3 rows for characters.
	Bands string `json:"bands" flag:"bands" help:"LSH banding BxR, B bands of R MinHash values, or auto: chosen from the threshold"`
	// BucketLimit caps how many members of one LSH bucket a document is
	// compared with: beyond it, the first member (the anchor) and the
	// newest ones.
	BucketLimit int `json:"bucket_limit" flag:"bucket-limit" help:"Members of one LSH bucket a document is compared with (beyond it: the first and the newest)"`
	// Seed seeds the MinHash functions. Sketches made with different seeds
	// are not comparable.
	Seed uint64 `json:"seed" flag:"seed" help:"Seed of the MinHash functions"`

	// format is the sketch format the method makes: Format, or 0 for it;
	// an index of format 7 goes on without the filter of the words, one
	// of 8 without the title names shorter than a shingle, one of 9 of
	// word shingles without names, one of 10 with figures and places of
	// ASCII alone, one of 11 with "nil" no figure, a unit the word after
	// its figure, number words in English alone and fewer forms of
	// dateline (see Spec's Older), one of 12 with a figure at its line's end in its
	// word's place, no row labels, places by their letter pairs alone
	// and the Turkish "ı" apart from "i".
	format int
}

// Defaults returns the method's default options, chosen by measurement on
// news corpora (docs/methods.md).
func Defaults() Options {
	return Options{
		Threshold:       0.45,
		Similar:         0.3,
		Containment:     0.7,
		NumberAgreement: 0.5,
		DateApart:       72,
		Names:           true,
		Template:        true,
		FollowUp:        true,
		StoryTitle:      0.25,
		StoryWindow:     48,
		Rewrite:         0.35,
		Slots:           true,
		ShingleUnit:     Chars,
		CharShingle:     6,
		WordShingle:     3,
		SampleSize:      256,
		Hashes:          128,
		Bands:           "auto",
		BucketLimit:     32,
	}
}

// Method returns the method's name.
func (Options) Method() string { return Name }

// sketchFormat is the sketch format o makes.
func (o *Options) sketchFormat() byte {
	if o.format != 0 {
		return byte(o.format)
	}
	return Format
}

// wordFilter reports whether o's sketches keep the filter of their words
// (templates.Context.WordFilter): those of format 8 on, of character
// shingles, among which names are looked up.
func (o *Options) wordFilter() bool {
	return o.sketchFormat() >= 8 && o.ShingleUnit == Chars || o.wordNames()
}

// shortNames reports whether o's sketches keep the title names shorter
// than a shingle, and the keys they are looked up by in the filter of the
// words (templates.Scanner.ShortNames): those of format 9 on, of
// character shingles.
func (o *Options) shortNames() bool {
	return o.sketchFormat() >= 9 && o.ShingleUnit == Chars || o.wordNames()
}

// wordNames reports whether o's sketches of word shingles keep names and
// the filter of the words, where every name is looked up (their sample
// holds no name's shingle): those of format 10 on. Earlier formats of
// word shingles kept no name.
func (o *Options) wordNames() bool { return o.sketchFormat() >= 10 && o.ShingleUnit == Words }

// Check returns an error naming the first option out of range.
func (o Options) Check() error {
	switch {
	case o.Threshold <= 0 || o.Threshold > 1:
		return fmt.Errorf("minhash: threshold %v is not in (0, 1]", o.Threshold)
	case o.Rewrite < 0 || o.Rewrite > 1:
		return fmt.Errorf("minhash: rewrite %v is not in [0, 1]", o.Rewrite)
	case o.Similar < 0 || o.Similar > 1:
		return fmt.Errorf("minhash: similar %v is not in [0, 1]", o.Similar)
	case o.Containment <= 0:
		return fmt.Errorf("minhash: containment %v is not above 0", o.Containment)
	case o.NumberAgreement > 1:
		return fmt.Errorf("minhash: number agreement %v is above 1", o.NumberAgreement)
	case o.StoryTitle < 0 || o.StoryTitle > 1:
		return fmt.Errorf("minhash: story title %v is not in [0, 1]", o.StoryTitle)
	case o.StoryWindow < 0 || o.StoryWindow > maxStoryWindow:
		return fmt.Errorf("minhash: story window %v hours is not in [0, %d]", o.StoryWindow, maxStoryWindow)
	case o.DateApart < 0:
		return fmt.Errorf("minhash: date apart %v hours is negative", o.DateApart)
	case o.ShingleUnit != Chars && o.ShingleUnit != Words:
		return fmt.Errorf("minhash: unknown shingle unit %q (want %s or %s)", o.ShingleUnit, Chars, Words)
	case o.CharShingle < 1 || o.CharShingle > 32:
		return fmt.Errorf("minhash: character shingle size %d is not in 1..32", o.CharShingle)
	case o.WordShingle < 1 || o.WordShingle > 32:
		return fmt.Errorf("minhash: word shingle size %d is not in 1..32", o.WordShingle)
	case o.SampleSize < 0:
		return fmt.Errorf("minhash: sample size %d is negative", o.SampleSize)
	case o.Hashes < 8 || o.Hashes > 4096:
		return fmt.Errorf("minhash: MinHash size %d is not in 8..4096", o.Hashes)
	case o.BucketLimit < 2:
		return fmt.Errorf("minhash: bucket limit %d is below 2", o.BucketLimit)
	}
	_, err := o.bands()
	return err
}

// storyJaccard is the least Jaccard index of a pair similar by its titles
// (see StoryTitle): the texts of one story rewritten share some names and
// phrases.
const storyJaccard = 0.05

// sameStory reports whether titles sharing tw of their words say one story.
func (o *Options) sameStory(tw float64) bool {
	return o.StoryTitle > 0 && o.Similar > 0 && tw >= o.StoryTitle
}

// maxStoryWindow bounds StoryWindow (hours): ten years.
const maxStoryWindow = 10 * 366 * 24

// storyWindow returns StoryWindow in seconds, 0 for none.
func (o *Options) storyWindow() int64 { return int64(o.StoryWindow * secondsPerHour) }

// secondsPerHour converts StoryWindow to the sketches' Unix dates.
const secondsPerHour = 3600

// inStoryWindow reports whether the same-story rule may join documents
// dated a and b (Unix seconds, 0 unknown): both undated, or both dated at
// most StoryWindow apart, or any with no window.
func (o *Options) inStoryWindow(a, b int64) bool {
	w := o.storyWindow()
	switch {
	case w <= 0 || a == 0 && b == 0:
		return true
	case a == 0 || b == 0:
		return false
	}
	return max(a-b, b-a) <= w
}

// containment returns the containment at or above which a pair is a
// duplicate: Containment, or Threshold when that is higher.
func (o *Options) containment() float64 { return max(o.Containment, o.Threshold) }

// duplicateFrom returns the lowest Jaccard index of a duplicate:
// Threshold, or Rewrite when that is lower and on.
func (o *Options) duplicateFrom() float64 {
	if o.Rewrite > 0 {
		return min(o.Threshold, o.Rewrite)
	}
	return o.Threshold
}

// RewriteHours is how many hours apart two documents of one story
// rewritten may be dated for Rewrite: a rewrite follows its story within
// hours, a recurring item comes back the next day.
const RewriteHours = 12

// IsRewrite reports whether a pair below the threshold is one story
// rewritten the same day (see Rewrite): the Jaccard index of ev at least
// Rewrite, dated at most RewriteHours apart, and nothing of its template
// changed: no place both fill holds another figure or word, no name is
// foreign to the other, the headings name no other time.
func (o *Options) IsRewrite(ev *Evidence) bool {
	return o.Rewrite > 0 && ev.Jaccard >= o.Rewrite && ev.HoursApart != nil && *ev.HoursApart <= RewriteHours &&
		ev.Places[1] == 0 && ev.Fills[1] == 0 && ev.ForeignNames == [2]int{} && !ev.ReportTime
}

// LSH band choice weighs a lost pair (false negative) four times a wasted
// verification (false positive): verification is exact and cheap. Each band
// costs an index entry per document, so bands are capped. Character shingles
// of unrelated news articles overlap by a few percent (common letter
// sequences), which two-row bands turn into tens of candidates per document
// in a corpus of 200,000 (31, against 1.5 with three rows): their bands have
// at least three rows. A threshold below the default's lowest (Similar, 0.3)
// finds few of its pairs in 20 bands of three rows (one in seven at 0.2):
// the cap is then lifted to 42 bands, all 128 values in rows of three, at
// twice the index entries a document.
const (
	bandWeightFP = 0.2
	bandWeightFN = 0.8
	maxBands     = 20
	minCharRows  = 3
	cappedFrom   = 0.3
	maxLowBands  = 42
)

// bands returns the banding in force.
func (o Options) bands() (sketch.Bands, error) {
	if o.Bands != "auto" {
		b, err := sketch.ParseBands(o.Bands, o.Hashes)
		if err != nil {
			return b, fmt.Errorf("minhash: bands: %w (or auto)", err)
		}
		return b, nil
	}
	low := o.duplicateFrom()
	if o.Similar > 0 {
		low = min(low, o.Similar)
	}
	minRows := 1
	if o.ShingleUnit == Chars {
		minRows = minCharRows
	}
	most := maxBands
	if low < cappedFrom {
		most = maxLowBands
	}
	return sketch.ChooseBands(low, o.Hashes, most, minRows, bandWeightFP, bandWeightFN), nil
}
