package similarity

import "math"

// Sparse is a sparse vector: Weights[i] is the weight of term Terms[i], and
// Terms is strictly increasing. Term ids are the caller's; weights are
// stored in 32 bits, which keeps a million documents' vectors in memory.
type Sparse struct {
	Terms   []uint32
	Weights []float32
}

// Dot returns the dot product of a and b: the sum of the products of the
// weights of their shared terms, accumulated in float64 in increasing term
// order. That order is part of the contract: every exact cosine in the
// project is this sum, so two computations of one pair agree to the bit.
// For vectors of norm 1 it is their cosine, which Dot returns as 1 when it
// comes within rounding of 1 (see Unit).
func Dot(a, b Sparse) float64 {
	var s float64
	i, j := 0, 0
	for i < len(a.Terms) && j < len(b.Terms) {
		switch ta, tb := a.Terms[i], b.Terms[j]; {
		case ta < tb:
			i++
		case ta > tb:
			j++
		default:
			s += float64(a.Weights[i]) * float64(b.Weights[j])
			i++
			j++
		}
	}
	return Unit(s)
}

// NearOne is the least dot product Unit takes for 1. Weights of 32 bits
// make the cosine of a vector of norm 1 with itself 1 give or take about
// 1e-7, above or below: without Unit, two copies of one text could miss a
// threshold of 1, or a rule's "body>=1", by that much.
const NearOne = 1 - 5e-7

// Slack is how far, relative to itself, a cosine of 32-bit unit weights
// (Dot, Dense.Dot) may lie from the cosine of the same two documents in
// exact arithmetic. Each weight is its float64 value rounded to float32,
// off by at most 2^-24 of itself; the product of two is exact in float64,
// so off by at most 2^-23 + 2^-48 of the exact product; the products are
// not negative and add up to the cosine, so their sum is off by at most
// 2^-23 of it (Slack), plus what float64 adds, n·2^-53 for n products,
// under 1e-9 for a million shared terms (SumSlack). A cosine within
// Tolerance of a bound may be the bound exactly (an exact 17/20 is
// computed 0.84999998).
const Slack = 0x1p-23

// SumSlack bounds what float64's sums add to a cosine's error (see Slack).
const SumSlack = 1e-9

// Tolerance is how far a cosine of 32-bit weights whose exact value is
// bound v may be computed from it: Slack of v, and SumSlack.
func Tolerance(v float64) float64 { return Slack*math.Abs(v) + SumSlack }

// Meets reports whether cosine c, computed from 32-bit weights, meets
// bound v (c >= v) allowing for their rounding: c is at least v less its
// Tolerance. A pair whose exact cosine is v meets it.
func Meets(c, v float64) bool { return c >= v-Tolerance(v) }

// Exceeds reports whether cosine c, computed from 32-bit weights, exceeds
// bound v (c > v) allowing for their rounding: c is above v and its
// Tolerance. A pair whose exact cosine is v does not exceed it.
func Exceeds(c, v float64) bool { return c > v+Tolerance(v) }

// Unit returns s, or 1 when s is at least NearOne: a cosine within the
// rounding of its 32-bit weights of 1 is 1, and never above it.
func Unit(s float64) float64 {
	if s >= NearOne {
		return 1
	}
	return s
}

// Dense holds one sparse vector spread over a dense array, for many dot
// products with others: Dot costs one look-up per term of the other
// vector, with no merge. Its results are those of the function Dot to the
// bit: the same products, added in the same (increasing term) order, the
// terms the vector lacks adding zero. The zero value is ready; a Dense is
// not safe for concurrent use.
type Dense struct {
	w []float32 // the weights as stored in x: half the cache of float64
	x Sparse
}

// Set makes x the vector, replacing the previous one.
func (d *Dense) Set(x Sparse) {
	for _, t := range d.x.Terms {
		d.w[t] = 0
	}
	if n := len(x.Terms); n > 0 && int(x.Terms[n-1]) >= len(d.w) {
		d.w = append(d.w, make([]float32, int(x.Terms[n-1])+1-len(d.w))...)
	}
	for k, t := range x.Terms {
		d.w[t] = x.Weights[k]
	}
	d.x = x
}

// Dot returns Dot(x, y) for the vector x last Set.
func (d *Dense) Dot(y Sparse) float64 {
	var s float64
	w := d.w
	for i, t := range y.Terms {
		if int(t) >= len(w) {
			break
		}
		s += float64(w[t]) * float64(y.Weights[i])
	}
	return Unit(s)
}

// Weight returns the weight of term t in the vector last Set (0 if it
// lacks t).
func (d *Dense) Weight(t uint32) float64 {
	if int(t) >= len(d.w) {
		return 0
	}
	return float64(d.w[t])
}
