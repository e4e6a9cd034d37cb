package sketch

import (
	"fmt"
	"math"
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

// ParseBands reads a banding written "BxR" ("20x3") and checks that it fits
// a signature of k values.
func ParseBands(s string, k int) (Bands, error) {
	var b Bands
	bs, rs, ok := strings.Cut(s, "x")
	var errB, errR error
	b.B, errB = strconv.Atoi(bs)
	b.R, errR = strconv.Atoi(rs)
	switch {
	case !ok || errB != nil || errR != nil:
		return Bands{}, fmt.Errorf("%q is not BxR, bands x rows (20x3)", s)
	case b.B < 1 || b.R < 1 || b.B*b.R > k:
		return Bands{}, fmt.Errorf("%s needs %d signature values, have %d", s, b.B*b.R, k)
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
// options checked) asks for it again.
func ChooseBands(threshold float64, k, maxBands, minRows int, wFP, wFN float64) Bands {
	key := bandsQuery{threshold, k, maxBands, minRows, wFP, wFN}
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

func chooseBands(threshold float64, k, maxBands, minRows int, wFP, wFN float64) Bands {
	minRows = max(1, min(minRows, k))
	best, bestErr := Bands{B: 1, R: k}, math.Inf(1)
	for b := 1; b <= min(k/minRows, maxBands); b++ {
		for r := minRows; b*r <= k; r++ {
			bd := Bands{B: b, R: r}
			fp := integrate(bd.Probability, 0, threshold)
			fn := integrate(func(s float64) float64 { return 1 - bd.Probability(s) }, threshold, 1)
			if e := wFP*fp + wFN*fn; e < bestErr {
				best, bestErr = bd, e
			}
		}
	}
	return best
}

// integrate applies the composite Simpson rule with a fixed step count.
func integrate(f func(float64) float64, a, b float64) float64 {
	const n = 200
	h := (b - a) / n
	sum := f(a) + f(b)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		sum += w * f(a+float64(i)*h)
	}
	return sum * h / 3
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
