package eval

import (
	"cmp"
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
// spread cannot be estimated (SingletonStrata counts them). Narrow lists
// the estimates whose interval is too narrow for that reason, or has no
// width.
type WeightedScores struct {
	Pairs           int       `json:"pairs"`            // labelled pairs scored
	Strata          int       `json:"strata"`           // strata among them; 1 when none are given
	SingletonStrata int       `json:"singleton_strata"` // strata of one pair
	Predicted       float64   `json:"predicted"`        // estimated predicted duplicate pairs
	Truth           float64   `json:"truth"`            // estimated duplicate pairs
	Correct         float64   `json:"correct"`          // estimated predicted pairs that are duplicates
	Precision       *Interval `json:"precision"`        // nil (null) when no labelled pair is predicted, as PairScores has it
	Recall          Interval  `json:"recall"`
	F1              Interval  `json:"f1"`
	// Narrow lists the estimates whose interval is narrower than what is
	// known of them; none when every interval is as wide as it should be.
	Narrow []NarrowInterval `json:"narrow,omitempty"`
}

// NarrowInterval is an estimate whose 95 % interval is too narrow: it
// has no width though labelled pairs bear on the estimate (the pairs of
// each stratum do not vary about it, as at an estimate of 0 or 1, where
// every pair agrees and the linearised variance is 0), or it rests in part
// on strata of one pair, which add no variance. An estimate rests on the
// pairs of its denominator: those predicted for precision, the duplicates
// for recall, either for F1. Strata are named as the truth names them,
// "(none)" for pairs without one.
type NarrowInterval struct {
	Estimate string   `json:"estimate"`                     // "precision", "recall" or "f1"
	NoWidth  []string `json:"no_width,omitempty"`           // the interval has no width: the strata of the pairs the estimate rests on
	Single   []string `json:"single_pair_strata,omitempty"` // the strata of one pair the estimate rests on
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
// whose strata are numbered as the indices of strata, their names.
func weightedScores(ps []scoredPair, strata []string) *WeightedScores {
	ws := &WeightedScores{Pairs: len(ps), Strata: len(strata)}
	sizes := make([]int, len(strata))
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
	predicted := func(p scoredPair) float64 { return b2f(p.predicted) }
	positive := func(p scoredPair) float64 { return b2f(p.positive) }
	either := func(p scoredPair) float64 { return b2f(p.predicted) + b2f(p.positive) }
	if ws.Predicted > 0 {
		p := ratio(ps, sizes, both, predicted)
		ws.Precision = &p
	}
	ws.Recall = ratio(ps, sizes, both, positive)
	ws.F1 = ratio(ps, sizes, func(p scoredPair) float64 { return 2 * both(p) }, either)
	for _, e := range []struct {
		name string
		iv   *Interval
		den  func(scoredPair) float64
	}{{"precision", ws.Precision, predicted}, {"recall", &ws.Recall, positive}, {"f1", &ws.F1, either}} {
		if e.iv == nil {
			continue
		}
		if n, ok := narrow(e.name, *e.iv, ps, sizes, strata, e.den); ok {
			ws.Narrow = append(ws.Narrow, n)
		}
	}
	return ws
}

// narrow tells whether the interval iv of the estimate name, whose
// denominator is den, is too narrow (see NarrowInterval).
func narrow(name string, iv Interval, ps []scoredPair, sizes []int, strata []string, den func(scoredPair) float64) (NarrowInterval, bool) {
	on := make([]bool, len(sizes)) // the strata the estimate rests on
	for _, p := range ps {
		if den(p) > 0 {
			on[p.stratum] = true
		}
	}
	n := NarrowInterval{Estimate: name}
	var all []string
	for st, yes := range on {
		if !yes {
			continue
		}
		s := cmp.Or(strata[st], noneValue)
		all = append(all, s)
		if sizes[st] == 1 {
			n.Single = append(n.Single, s)
		}
	}
	if len(all) > 0 && iv.Low == iv.High {
		n.NoWidth = all
	}
	return n, n.NoWidth != nil || n.Single != nil
}

// ratio estimates R = Σ w·num / Σ w·den over ps and its 95 % interval:
// with z = w·(num − R·den) per pair, the variance is Σ over strata of
// n/(n−1) · Σ (z − mean z of the stratum)², over (Σ w·den)². With no
// denominator (no duplicates for recall; for F1, none and nothing
// predicted) the ratio is 1, as PairScores has it, and its interval [0, 1]
// says nothing is known. Precision with nothing predicted is not
// estimated (see WeightedScores.Precision).
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
