package engine

import (
	"math"

	"github.com/neardup/neardup/core"
)

// Decimals is a number of decimals a score is written with (see
// ShownDecimals).
type Decimals int

// Round rounds x to d decimals: to four as core.Round does, as every
// output writes a score; to more with math.Round, halves away from zero.
func (d Decimals) Round(x float64) float64 {
	if d == 4 {
		return core.Round(x)
	}
	p := math.Pow(10, float64(d))
	return math.Round(x*p) / p
}

// ShownDecimals yields the decimals outputs may write a score with, fewest
// first: four (core.Round), then each more up to 17, past which rounding
// changes no float64. A method writes its scores with the first at which
// the values written decide what the exact ones do (fall on the side of
// each bound of its label, its rule and its options that the exact ones
// fall on), and exact when none does: Shown for one score; tfidf and
// rarewords, whose evidence holds two, for a pair of them. It is the one
// place that choice of decimals is made, so that every method's evidence
// and scores are written alike.
func ShownDecimals(yield func(Decimals) bool) {
	for d := Decimals(4); d <= 17; d++ {
		if !yield(d) {
			return
		}
	}
}

// Shown returns score as outputs write it: with four decimals
// (core.Round), or with as many more as it takes for same of the value
// written to hold, where same reports whether a value falls on the side of
// each bound of its label that score falls on; score itself when no
// rounding does (ShownDecimals). A cosine of 0.6999876, below a threshold
// of 0.7, is written 0.69999, not 0.7 beside the label "similar".
func Shown(score float64, same func(shown float64) bool) float64 {
	for d := range ShownDecimals {
		if v := d.Round(score); same(v) {
			return v
		}
	}
	return score
}
