package eval

import (
	"math"
)

// Interval is an estimate and its 95 % confidence interval, clipped to
// [0, 1].
type Interval struct {
	Value float64 `json:"value"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
}

// WeightedScores are the pair scores of a labelled-pair truth estimated for
// the population the pairs were drawn from: each pair counts its weight
// (its "weight" field, the inverse of its probability of being drawn; 1
// when absent), so totals are Horvitz-Thompson estimates and precision,
// recall and F1 are ratios of them. The intervals are normal intervals
// around each ratio with its variance by linearisation (the ratio
// estimator's Taylor variance), summed over the strata (the pairs'
// "stratum" field) when the pairs carry them, as for a stratified sample
// drawn with replacement. A stratum of one pair adds no variance: its
// spread cannot be estimated (SingletonStrata counts them).
type WeightedScores struct {
	Pairs           int      `json:"pairs"`            // labelled pairs scored
	Strata          int      `json:"strata"`           // strata among them; 1 when none are given
	SingletonStrata int      `json:"singleton_strata"` // strata of one pair
	Predicted       float64  `json:"predicted"`        // estimated predicted duplicate pairs
	Truth           float64  `json:"truth"`            // estimated duplicate pairs
	Correct         float64  `json:"correct"`          // estimated predicted pairs that are duplicates
	Precision       Interval `json:"precision"`
	Recall          Interval `json:"recall"`
	F1              Interval `json:"f1"`
}

// z95 is the standard normal quantile of a two-sided 95 % interval.
const z95 = 1.959963984540054

// scoredPair is one labelled pair as the weighted estimate sees it.
type scoredPair struct {
	weight              float64
	stratum             int
	positive, predicted bool
}

// weightedScores estimates the pair scores from the labelled pairs ps,
// whose strata are numbered 0 to strata-1.
func weightedScores(ps []scoredPair, strata int) *WeightedScores {
	ws := &WeightedScores{Pairs: len(ps), Strata: strata}
	sizes := make([]int, strata)
	for _, p := range ps {
		sizes[p.stratum]++
		if p.predicted {
			ws.Predicted += p.weight
		}
		if p.positive {
			ws.Truth += p.weight
		}
		if p.positive && p.predicted {
			ws.Correct += p.weight
		}
	}
	for _, n := range sizes {
		if n == 1 {
			ws.SingletonStrata++
		}
	}
	both := func(p scoredPair) float64 { return b2f(p.positive && p.predicted) }
	ws.Precision = ratio(ps, sizes, both, func(p scoredPair) float64 { return b2f(p.predicted) })
	ws.Recall = ratio(ps, sizes, both, func(p scoredPair) float64 { return b2f(p.positive) })
	ws.F1 = ratio(ps, sizes, func(p scoredPair) float64 { return 2 * both(p) },
		func(p scoredPair) float64 { return b2f(p.predicted) + b2f(p.positive) })
	return ws
}

// ratio estimates R = Σ w·num / Σ w·den over ps and its 95 % interval:
// with z = w·(num − R·den) per pair, the variance is Σ over strata of
// n/(n−1) · Σ (z − mean z of the stratum)², over (Σ w·den)². With no
// denominator (nothing predicted, no duplicates) the ratio is 1, as
// PairScores has it, and its interval [0, 1] says nothing is known.
func ratio(ps []scoredPair, sizes []int, num, den func(scoredPair) float64) Interval {
	var y, x float64
	for _, p := range ps {
		y += p.weight * num(p)
		x += p.weight * den(p)
	}
	if x == 0 {
		return Interval{Value: 1, Low: 0, High: 1}
	}
	r := y / x
	sum := make([]float64, len(sizes))
	for _, p := range ps {
		sum[p.stratum] += p.weight * (num(p) - r*den(p))
	}
	var v float64
	for _, p := range ps {
		n := sizes[p.stratum]
		if n < 2 {
			continue
		}
		d := p.weight*(num(p)-r*den(p)) - sum[p.stratum]/float64(n)
		v += float64(n) / float64(n-1) * d * d
	}
	se := math.Sqrt(v) / x
	return Interval{Value: r, Low: max(0, r-z95*se), High: min(1, r+z95*se)}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
