// Package simhash is the SimHash detection method: a document is the set of
// its character (or word) shingles, each weighted by how often it occurs;
// their hashes vote bit by bit into one 64-bit fingerprint, so that documents
// sharing most of their weighted shingles get fingerprints a few bits apart.
// Candidates are the documents whose fingerprints lie within Hamming
// distance Distance, found through tables keyed by blocks of the fingerprint
// (split into Blocks blocks, two fingerprints within Distance bits agree on
// at least Blocks−Distance whole blocks), never by comparing all pairs. Each
// candidate is verified exactly, as minhash verifies: Jaccard and containment
// of consistent shingle samples, and a pair whose figures disagree is not a
// duplicate.
//
// A document costs 8 bytes of fingerprint in the index plus one table entry
// per table; its candidates are only its near-identical neighbours, which
// makes the method the cheapest for finding copies with few edits and the
// wrong one for copies that lost or gained much of their text.
package simhash

import (
	"fmt"
	"math/big"
)

// Name is the method's name.
const Name = "simhash"

// The shingle units Options.ShingleUnit accepts.
const (
	Chars = "chars" // letters and digits of the words, spaces and punctuation left out
	Words = "words" // consecutive words
)

// The shingle weightings Options.Weighting accepts.
const (
	Binary = "binary" // every distinct shingle weighs 1
	TF     = "tf"     // a shingle weighs the number of times it occurs
	LogTF  = "logtf"  // a shingle occurring n times weighs 1 + ln n
)

// Options configure the method. Make them with Defaults and change what you
// need: every field means what it says, zero included.
type Options struct {
	// Distance is the largest Hamming distance between two fingerprints
	// that makes the documents candidates.
	Distance int `json:"distance" flag:"distance" help:"Largest Hamming distance of two 64-bit fingerprints that makes the documents candidates"`
	// Blocks is the number of blocks the fingerprint is cut into for the
	// candidate tables, above Distance; there is one table for each choice
	// of the Distance blocks in which two candidates may differ, keyed by
	// the others. More blocks mean longer keys (fewer chance candidates) and
	// more tables (more index entries per document). 0 chooses the fewest
	// blocks whose keys have at least 20 bits.
	Blocks int `json:"blocks" flag:"blocks" help:"Blocks the fingerprint is cut into for the candidate tables (one table per choice of --distance blocks); 0 chooses the fewest giving keys of 20 bits"`
	// Threshold is the Jaccard index of the shingle samples at or above
	// which a candidate pair is a duplicate. Containment also makes
	// duplicates below it.
	Threshold float64 `json:"threshold" flag:"threshold" help:"Jaccard index at or above which a pair is a duplicate, unless a rule of its template refuses it; --containment also makes duplicates below it (--containment 2 turns it off)"`
	// Similar is the Jaccard index at or above which a candidate pair below
	// Threshold is reported as similar; 0 reports duplicates only. A
	// duplicate a rule refuses is similar at it too, so a Similar above
	// Threshold marks no pair below Threshold, and only the refused ones
	// scoring at least it: the command line refuses --similar given so.
	Similar float64 `json:"similar" flag:"similar" help:"Score, at most the threshold, at or above which a pair below it is similar; 0 reports duplicates only"`
	// Containment also makes a candidate pair a duplicate when the smaller
	// document lies at least this share inside the larger, and at least
	// Threshold: a threshold above it is the bound of both measures. Above
	// 1 turns it off.
	Containment float64 `json:"containment" flag:"containment" help:"Also a duplicate when the smaller document is at least this share (and at least --threshold) inside the larger; above 1 turns it off"`
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
	// The names need character shingles, among which they are looked up:
	// with Words only the titles' figures are compared.
	Names bool `json:"names" flag:"names" help:"Not a duplicate when each document names what the other does not and figures changed, or the titles' figures differ (names not read with --shingle-unit words)"`
	// Template: two documents that fill at least two of the places where
	// both write a figure (the words on either side of it on one line) with
	// other figures, and at least half of those places (any share, when
	// their datelines name other days), are one template filled in twice,
	// not duplicates (see figures.Refilled).
	Template bool `json:"template" flag:"template" help:"Not a duplicate when two or more places where both texts write a figure hold other figures and they are half of those places or the datelines name other days"`
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
	// Features is what the fingerprint is made of: Chars, n-grams of the
	// letters and digits of the words, or Words, n-grams of words.
	Features string `json:"features" flag:"features" enum:"chars,words" help:"The fingerprint's features: n-grams of characters or of words"`
	// FeatureLength is the n of the fingerprint's n-grams.
	FeatureLength int `json:"feature_length" flag:"feature-length" help:"Characters or words in a feature of the fingerprint"`
	// Weighting is the weight of a feature in the fingerprint.
	Weighting string `json:"weighting" flag:"weighting" enum:"binary,tf,logtf" help:"Weight of a feature in the fingerprint: 1, its count, or 1 + ln count"`
	// ShingleUnit is what a shingle of verification is made of: Chars or
	// Words.
	ShingleUnit string `json:"shingle_unit" flag:"shingle-unit" enum:"chars,words" help:"Shingles of characters (robust to OCR damage, split and glued words, number formats) or of words"`
	// CharShingle is the length of a character shingle.
	CharShingle int `json:"char_shingle" flag:"char-shingle" help:"Characters in a shingle of --shingle-unit chars"`
	// WordShingle is the length of a word shingle.
	WordShingle int `json:"word_shingle" flag:"word-shingle" help:"Words in a shingle of --shingle-unit words"`
	// SampleSize bounds the shingle fingerprints kept per document for
	// verification, as for minhash: a document with more keeps the
	// smallest max(SampleSize, n/4) of its n; 0 keeps every one.
	SampleSize int `json:"sample_size" flag:"sample-size" help:"A document with more shingles keeps the smallest max(N, n/4) of its n fingerprints for verification; 0 keeps all"`
	// BucketLimit caps how many members of one table bucket a document is
	// compared with: beyond it, the first member and the newest ones.
	BucketLimit int `json:"bucket_limit" flag:"bucket-limit" help:"Members of one table bucket a document is compared with (beyond it: the first and the newest)"`
	// Seed seeds the shingle hashes of the fingerprint. Fingerprints made
	// with different seeds are not comparable.
	Seed uint64 `json:"seed" flag:"seed" help:"Seed of the fingerprint's shingle hashes"`

	// format is the sketch format the method makes: Format, or 0 for it;
	// an index of format 4 goes on without the filter of the words, one
	// of 5 without the title names shorter than a shingle, one of 6 with
	// figures and places of ASCII alone, one of 7 with "nil" no figure,
	// a unit the word after its figure, number words in English alone
	// and fewer forms of dateline (see Spec's Older), one of 8 with a figure at its line's end in its
	// word's place, no row labels, places by their letter pairs alone
	// and the Turkish "ı" apart from "i".
	format int
}

// Defaults returns the method's default options, chosen by measurement on
// news corpora (docs/methods.md).
func Defaults() Options {
	return Options{
		Distance:        4,
		Blocks:          0,
		Threshold:       0.45,
		Similar:         0.3,
		Containment:     0.7,
		NumberAgreement: 0.5,
		DateApart:       72,
		Names:           true,
		Template:        true,
		Slots:           true,
		Features:        Chars,
		FeatureLength:   4,
		Weighting:       TF,
		ShingleUnit:     Chars,
		CharShingle:     6,
		WordShingle:     3,
		SampleSize:      256,
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
// (templates.Context.WordFilter): those of format 5 on, of character
// shingles, among which names are looked up.
func (o *Options) wordFilter() bool { return o.sketchFormat() >= 5 && o.ShingleUnit == Chars }

// shortNames reports whether o's sketches keep the title names shorter
// than a shingle, and the keys they are looked up by in the filter of the
// words (templates.Scanner.ShortNames): those of format 6 on, of
// character shingles.
func (o *Options) shortNames() bool { return o.sketchFormat() >= 6 && o.ShingleUnit == Chars }

// maxTables bounds the candidate tables: each costs an index entry per
// document.
const maxTables = 128

// minKeyBits is the key length Blocks 0 asks for: with 20 bits, a table of
// a million documents holds about one chance member per bucket, whose
// distance check is one XOR and a bit count on a fingerprint in memory.
const minKeyBits = 20

// Check returns an error naming the first option out of range.
func (o Options) Check() error {
	switch {
	case o.Distance < 0 || o.Distance > 32:
		return fmt.Errorf("simhash: distance %d is not in 0..32", o.Distance)
	case o.Blocks != 0 && (o.Blocks <= o.Distance || o.Blocks > 64):
		return fmt.Errorf("simhash: blocks %d is not above the distance %d and at most 64 (or 0, chosen)", o.Blocks, o.Distance)
	case o.Threshold <= 0 || o.Threshold > 1:
		return fmt.Errorf("simhash: threshold %v is not in (0, 1]", o.Threshold)
	case o.Similar < 0 || o.Similar > 1:
		return fmt.Errorf("simhash: similar %v is not in [0, 1]", o.Similar)
	case o.Containment <= 0:
		return fmt.Errorf("simhash: containment %v is not above 0", o.Containment)
	case o.NumberAgreement > 1:
		return fmt.Errorf("simhash: number agreement %v is above 1", o.NumberAgreement)
	case o.DateApart < 0:
		return fmt.Errorf("simhash: date apart %v hours is negative", o.DateApart)
	case o.Features != Chars && o.Features != Words:
		return fmt.Errorf("simhash: unknown features %q (want %s or %s)", o.Features, Chars, Words)
	case o.FeatureLength < 1 || o.FeatureLength > 32:
		return fmt.Errorf("simhash: feature length %d is not in 1..32", o.FeatureLength)
	case o.ShingleUnit != Chars && o.ShingleUnit != Words:
		return fmt.Errorf("simhash: unknown shingle unit %q (want %s or %s)", o.ShingleUnit, Chars, Words)
	case o.CharShingle < 1 || o.CharShingle > 32:
		return fmt.Errorf("simhash: character shingle size %d is not in 1..32", o.CharShingle)
	case o.WordShingle < 1 || o.WordShingle > 32:
		return fmt.Errorf("simhash: word shingle size %d is not in 1..32", o.WordShingle)
	case o.Weighting != Binary && o.Weighting != TF && o.Weighting != LogTF:
		return fmt.Errorf("simhash: unknown weighting %q (want %s, %s or %s)", o.Weighting, Binary, TF, LogTF)
	case o.SampleSize < 0:
		return fmt.Errorf("simhash: sample size %d is negative", o.SampleSize)
	case o.BucketLimit < 2:
		return fmt.Errorf("simhash: bucket limit %d is below 2", o.BucketLimit)
	}
	if b := o.blocks(); tableCount(b, o.Distance) > maxTables {
		chosen := ""
		if o.Blocks == 0 {
			chosen = fmt.Sprintf(" (the fewest giving keys of %d bits)", minKeyBits)
		}
		return fmt.Errorf("simhash: distance %d in %d blocks%s needs %d tables, more than %d; %s",
			o.Distance, b, chosen, tableCount(b, o.Distance), maxTables, blocksThatFit(o.Distance))
	}
	return nil
}

// blocksThatFit says which --blocks give distance k at most maxTables
// tables, and the longest keys among them. Tables grow with the blocks, and
// k+1 blocks, of k+1 tables, fit every distance Check allows: the blocks
// that fit run from k+1 up to the most.
func blocksThatFit(k int) string {
	most := k + 1
	for most < 64 && tableCount(most+1, k) <= maxTables {
		most++
	}
	bits, tables := newTables(k, most).bits, tableCount(most, k)
	if most == k+1 {
		return fmt.Sprintf("only --blocks %d fits: %d-bit keys in %d tables", most, bits, tables)
	}
	return fmt.Sprintf("--blocks %d to %d fit; %d gives the longest keys, %d bits, in %d tables", k+1, most, most, bits, tables)
}

// blocks returns the number of blocks in force.
func (o Options) blocks() int {
	if o.Blocks != 0 {
		return o.Blocks
	}
	b := o.Distance + 1
	for (b-o.Distance)*64/b < minKeyBits && b < 64 {
		b++
	}
	return b
}

// tableCount returns C(b, k), the tables of k blocks allowed to differ
// among b: exact for every b Check lets through (at most 64, so below
// C(64, 32) < 2⁶¹).
func tableCount(b, k int) int {
	return int(new(big.Int).Binomial(int64(b), int64(k)).Int64())
}

// shingle returns the shingle length of the unit in force.
func (o Options) shingle() int {
	if o.ShingleUnit == Chars {
		return o.CharShingle
	}
	return o.WordShingle
}
