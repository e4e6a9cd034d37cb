package sketch

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"sync"
)

// Bands is an LSH banding of a MinHash signature: B bands of R rows each.
// Two documents become candidates when all R values of any one band agree,
// which for Jaccard similarity s happens with probability 1-(1-s^R)^B.
type Bands struct {
	B, R int
}

// String returns "BxR".
func (b Bands) String() string { return fmt.Sprintf("%dx%d", b.B, b.R) }

// ParseBands reads a banding written "BxR" ("20x3"), bands and rows each at
// least 1, and checks that it fits a signature of k values.
func ParseBands(s string, k int) (Bands, error) {
	var b Bands
	bs, rs, ok := strings.Cut(s, "x")
	var errB, errR error
	b.B, errB = strconv.Atoi(bs)
	b.R, errR = strconv.Atoi(rs)
	switch {
	case !ok || errB != nil || errR != nil:
		return Bands{}, fmt.Errorf("%q is not BxR, bands x rows (20x3)", s)
	case b.B < 1 || b.R < 1:
		return Bands{}, fmt.Errorf("%s: the bands and the rows must be positive, BxR as in 20x3", s)
	case b.B > k/b.R: // b.B*b.R > k, which may not fit an int
		need := new(big.Int).Mul(big.NewInt(int64(b.B)), big.NewInt(int64(b.R)))
		return Bands{}, fmt.Errorf("%s needs %s signature values, have %d", s, need, k)
	}
	return b, nil
}

// Probability returns the chance that two documents of Jaccard similarity s
// share at least one band.
func (b Bands) Probability(s float64) float64 {
	return 1 - math.Pow(1-math.Pow(s, float64(b.R)), float64(b.B))
}

// ChooseBands returns the banding of at most k values in at most maxBands
// bands (each band costs an index entry per document) that minimises
// wFP·(false-positive area below threshold) + wFN·(false-negative area above
// it), the areas being integrals of the candidate probability curve over
// similarity. Verification is exact, so a false positive costs only time,
// while a false negative is a lost pair: callers weigh wFN above wFP.
//
// Bands have at least minRows rows. The areas weigh every similarity alike,
// but the pairs of a corpus are almost all unrelated documents at a small
// similarity; when that background is not negligible (character shingles
// share common letter sequences), a floor on the rows keeps each
// document's candidates few.
//
// The choice is computed once for each set of arguments and remembered:
// every method built with the same options (a batch run, an index opened,
// options checked) asks for it again. The choices for minhash's defaults
// are known beforehand (knownBands).
func ChooseBands(threshold float64, k, maxBands, minRows int, wFP, wFN float64) Bands {
	key := bandsQuery{threshold, k, maxBands, minRows, wFP, wFN}
	if b, ok := knownBands[key]; ok {
		return b
	}
	if b, ok := chosenBands.Load(key); ok {
		return b.(Bands)
	}
	b := chooseBands(threshold, k, maxBands, minRows, wFP, wFN)
	chosenBands.Store(key, b)
	return b
}

// bandsQuery is the arguments of ChooseBands, as a key of chosenBands.
type bandsQuery struct {
	threshold         float64
	k, maxBands, rows int
	wFP, wFN          float64
}

// chosenBands remembers ChooseBands' answers.
var chosenBands sync.Map

// knownBands are ChooseBands' answers for minhash's default options, with
// character and with word shingles, so that a command's start-up does not
// search them: the search took a quarter of the instructions of a run on
// one document. TestKnownBands computes each again.
var knownBands = map[bandsQuery]Bands{
	{0.3, 128, 20, 3, 0.2, 0.8}: {B: 20, R: 3},
	{0.3, 128, 20, 1, 0.2, 0.8}: {B: 20, R: 2},
}

func chooseBands(threshold float64, k, maxBands, minRows int, wFP, wFN float64) Bands {
	minRows = max(1, min(minRows, k))
	below, above := newSimpson(0, threshold), newSimpson(threshold, 1)
	best, bestErr := Bands{B: 1, R: k}, math.Inf(1)
	for b := 1; b <= min(k/minRows, maxBands); b++ {
		nb := float64(b)
		for r := minRows; b*r <= k; r++ {
			// The terms are 1 - Probability's and Probability's, with
			// s^r, which does not depend on b, looked up (see simpson).
			// The areas are never negative, so a banding whose weighted
			// false-negative area alone reaches the best error cannot
			// beat it, whatever its false-positive area: that one is
			// skipped, and the choice is the full search's.
			fn := above.integrate(r, func(sr float64) float64 { return 1 - (1 - math.Pow(1-sr, nb)) })
			if wFP >= 0 && wFN*fn >= bestErr {
				continue
			}
			fp := below.integrate(r, func(sr float64) float64 { return 1 - math.Pow(1-sr, nb) })
			if e := wFP*fp + wFN*fn; e < bestErr {
				best, bestErr = Bands{B: b, R: r}, e
			}
		}
	}
	return best
}

// simpsonSteps is the step count of the composite Simpson rule.
const simpsonSteps = 200

// simpson integrates functions of s^r over [a, b] by the composite Simpson
// rule with simpsonSteps steps. s^r at each point is computed once for each
// r and kept: chooseBands integrates over the same points for every band
// count, and math.Pow was most of a command's start-up time.
type simpson struct {
	a, b, h float64
	pows    map[int][]float64 // r: s^r at each point
}

func newSimpson(a, b float64) *simpson {
	return &simpson{a: a, b: b, h: (b - a) / simpsonSteps, pows: map[int][]float64{}}
}

// integrate returns the integral over [a, b] of f(s^r), the same value to
// the bit as the rule over g(s) = f(math.Pow(s, r)) evaluated at a+i·h.
func (q *simpson) integrate(r int, f func(sr float64) float64) float64 {
	p, ok := q.pows[r]
	if !ok {
		p = make([]float64, simpsonSteps+1)
		for i := range p {
			s := q.a + float64(i)*q.h
			if i == simpsonSteps {
				s = q.b
			}
			p[i] = math.Pow(s, float64(r))
		}
		q.pows[r] = p
	}
	sum := f(p[0]) + f(p[simpsonSteps])
	for i := 1; i < simpsonSteps; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		sum += w * f(p[i])
	}
	return sum * q.h / 3
}

// BandKeys appends one 64-bit key per band of sig to dst. The band's index
// is mixed into its key so keys of different bands never collide by design
// and can share one table.
func (b Bands) BandKeys(sig []uint32, dst []uint64) []uint64 {
	for band := 0; band < b.B; band++ {
		h := mix64(uint64(band) + 0x9e3779b97f4a7c15)
		for _, v := range sig[band*b.R : (band+1)*b.R] {
			h = mix64(h ^ uint64(v))
		}
		dst = append(dst, h)
	}
	return dst
}
