// Package rarewords is the rare-word containment detection method, for text
// reused across publishers. Each document is the set of its words that are
// rare in its own source (the publisher: Document.Source, else the URL's
// host, see SourceOf): a word in more than Options.CommonDF of the source's
// documents, and in at least two of them, is common there and dropped. A
// pair scores its containment both ways, A→B = |A∩B|/|A| (how much of A is
// in B) and B→A, because a short piece can sit whole inside a long one; its
// score is the larger, and a rule over the smaller and the larger
// (DefaultRareWordsRule unless told otherwise) makes it a duplicate, else it
// is similar. Candidates come from inverted lists of rare words; only
// documents of different sources are compared unless Options.SameSource.
//
// What is reported is each document's best match in every other source:
// the document there holding the largest share of its rare words (on a
// tie, Options.Ties decides), when that share is more than
// Options.Threshold. In a Batch every document's view counts,
// with statistics over the whole corpus. In an Index only the newest
// document's view counts, and each document's rare words are fixed when it
// is matched, or indexed as an Index loads it from its store, by its
// source's statistics as they stand then (the documents held so far and
// itself); they never change afterwards. Removing a document takes it off
// its source's statistics, which later documents' rare words are chosen
// by, and out of the inverted lists: an Index that loads the documents
// after a removal chooses their rare words without the removed one, where
// one that held them keeps them (docs/index.md). An Index's
// central representatives are chosen by rare words chosen again with the
// statistics as they stand, as a Batch's are (engine.Method.Reweigh).
package rarewords

import (
	"fmt"

	"github.com/neardup/neardup/internal/similarity"
)

// Name is the method's name.
const Name = "rarewords"

// DefaultRareWordsRule makes a pair a duplicate when each document's rare
// words are mostly in the other; other reported pairs are similar (one
// reuses part of the other).
const DefaultRareWordsRule = "min>=0.7"

// fields are the score fields a rule may name: the smaller and the larger
// of the two containments.
var fields = []string{"min", "max"}

// Options configure the method. Make them with Defaults and change what you
// need: every field means what it says, zero included.
type Options struct {
	// Threshold: a document's best match in another source is reported
	// when it holds more than this share of the document's rare words.
	Threshold float64 `json:"threshold" flag:"threshold" help:"A document's best match in another source is reported when it holds more than this share of its rare words"`
	// Ties chooses between partners holding as many of a document's rare
	// words: TiesFirst, the default, or TiesMutual.
	Ties string `json:"ties" flag:"ties" enum:"first,mutual" help:"Best match among partners sharing as many rare words: first (the earliest in input order, as the recipe) or mutual (the one with the fewest rare words, then the earliest)"`
	// Rule decides duplicates from the smaller (min) and the larger (max)
	// of the two containments (see similarity.Rule); a reported pair it
	// does not accept is similar.
	Rule string `json:"rule" flag:"rule" help:"Rule over the smaller (min) and larger (max) containment that makes a pair a duplicate"`
	// MinWords: documents of fewer words (Options.Tokens, repeats
	// counted) are skipped (core.SkipTooShort); short texts have too few
	// rare words to tell reuse from chance. The default, 201, keeps the
	// recipe's articles of more than 200 words.
	MinWords int `json:"min_words" flag:"min-words" help:"Skip documents of fewer words"`
	// Tokens is what a word is: TokensWhitespace, the default, or
	// TokensWords.
	Tokens string `json:"tokens" flag:"tokens" enum:"whitespace,words" help:"Words of a text: whitespace (lower-cased pieces between spaces, punctuation kept, as the recipe; Chinese, Japanese or Thai text in pairs of letters) or words (Unicode words, punctuation dropped)"`
	// CommonDF: a word held by more than this share of a source's
	// documents, and by at least two, is common in that source and not
	// one of its documents' rare words; 1 keeps every word, 0 drops every
	// word two documents of the source share.
	CommonDF float64 `json:"common_df" flag:"common-df" help:"A word in more than this share of a source's documents (and in 2+) is common there and ignored"`
	// SameSource compares documents of the same source too.
	SameSource bool `json:"same_source" flag:"same-source" help:"Also compare documents of the same source"`

	// format is the sketch format the method makes: Format, or 0 for it;
	// an index of format 2 goes on with the pieces between white space
	// whole in every script (see Spec's Older).
	format int
}

// sketchFormat is the sketch format o makes.
func (o Options) sketchFormat() byte {
	if o.format != 0 {
		return byte(o.format)
	}
	return Format
}

// The values of Options.Tokens.
const (
	// TokensWhitespace are the text's pieces between white space,
	// lower-cased, punctuation kept ("said," and "said" are two words):
	// the recipe's words, the default.
	TokensWhitespace = "whitespace"
	// TokensWords are the project's words (analysis.Analyzer.Words):
	// Unicode word segments, normalised, punctuation dropped.
	TokensWords = "words"
)

// The values of Options.Ties.
const (
	// TiesFirst takes the earliest partner, in input order (in an Index,
	// the earliest stored): the recipe's rule, the default.
	TiesFirst = "first"
	// TiesMutual takes the partner with the fewest rare words, whose own
	// share in the pair is then the largest, then the earliest.
	TiesMutual = "mutual"
)

// Defaults returns the method's default options.
func Defaults() Options {
	return Options{Threshold: 0.1, Rule: DefaultRareWordsRule, MinWords: 201, CommonDF: 0.05, Tokens: TokensWhitespace, Ties: TiesFirst}
}

// Method returns the method's name.
func (Options) Method() string { return Name }

// Check returns an error naming the first option out of range.
func (o Options) Check() error {
	switch {
	case o.Threshold < 0 || o.Threshold >= 1:
		return fmt.Errorf("rarewords: threshold %v is not in [0, 1)", o.Threshold)
	case o.MinWords < 0:
		return fmt.Errorf("rarewords: min words %d is negative", o.MinWords)
	case o.CommonDF < 0 || o.CommonDF > 1:
		return fmt.Errorf("rarewords: common document share %v is not in [0, 1]", o.CommonDF)
	case o.Tokens != TokensWhitespace && o.Tokens != TokensWords:
		return fmt.Errorf("rarewords: unknown tokens %q (want %s or %s)", o.Tokens, TokensWhitespace, TokensWords)
	case o.Ties != TiesFirst && o.Ties != TiesMutual:
		return fmt.Errorf("rarewords: unknown ties %q (want %s or %s)", o.Ties, TiesFirst, TiesMutual)
	}
	_, err := o.rule()
	return err
}

func (o Options) rule() (*similarity.Rule, error) {
	r, err := similarity.ParseRule(o.Rule, fields...)
	if err != nil {
		return nil, fmt.Errorf("rarewords: %w", err)
	}
	return r, nil
}

// Decision is what a pair's two containments decide: the clause of the
// rule the smaller and the larger meet first (-1: none), and whether the
// larger, the pair's score, is above Options.Threshold. Containments
// written with fewer decimals tell what the exact ones do when their
// Decisions are equal: the evidence writes them so, and the web UI
// its percentages.
type Decision struct {
	Clause int
	Above  bool
}

// A Decider tells the Decision of containments under options' rule and
// threshold (Options.Decider). Its zero value is not usable.
type Decider struct {
	rule      *similarity.Rule
	threshold float64
}

// Decider returns the Decider of o's Rule and Threshold; an error when
// the rule does not parse.
func (o Options) Decider() (Decider, error) {
	r, err := o.rule()
	if err != nil {
		return Decider{}, err
	}
	return Decider{rule: r, threshold: o.Threshold}, nil
}

// Decide returns what containments ab (A→B) and ba (B→A) decide.
func (d Decider) Decide(ab, ba float64) Decision {
	return Decision{Clause: d.rule.Eval([]float64{min(ab, ba), max(ab, ba)}), Above: max(ab, ba) > d.threshold}
}
