package main

import (
	"math"
	"slices"
	"sort"

	"github.com/neardup/neardup/internal/extract"
)

// boostOptions shape the trees fitBoost grows.
type boostOptions struct {
	trees   int     // rounds of boosting
	depth   int     // largest depth of a tree (a root alone is depth 0)
	rate    float64 // learning rate: each leaf's value is shrunk by it
	l2      float64 // ridge penalty on a leaf's value
	minHess float64 // least hessian (weighted p(1-p)) a leaf may hold
	maxCuts int     // most candidate splits per feature
}

// boostSample is one training block: its features' bins, label, weight
// and the model's current margin.
type boostSample struct {
	f      *[extract.NumBlockFeatures]float64
	bins   [extract.NumBlockFeatures]uint8
	y, c   float64
	margin float64
	g, h   float64
}

// fitBoost grows o.trees regression trees by Newton boosting of the
// weighted logistic loss, starting from the margins of the linear model m
// (m.Trees is ignored), and returns them. Splits are chosen among at most
// o.maxCuts cut points per feature (midpoints between values at quantiles
// of the training blocks); the fit is deterministic.
func fitBoost(pages []trainPage, m extract.BlockModel, o boostOptions) []extract.BlockTree {
	lin := extract.BlockModel{Weights: m.Weights}
	var samples []boostSample
	for _, p := range pages {
		for i := range p.blocks {
			if p.weight[i] == 0 {
				continue
			}
			f := &p.blocks[i].Features
			samples = append(samples, boostSample{f: f, y: p.labels[i], c: p.weight[i], margin: lin.Margin(f)})
		}
	}
	if len(samples) == 0 {
		return nil
	}
	cuts := featureCuts(samples, o.maxCuts)
	for i := range samples {
		s := &samples[i]
		for j := range extract.NumBlockFeatures {
			v := s.f[j]
			s.bins[j] = uint8(sort.Search(len(cuts[j]), func(k int) bool { return cuts[j][k] > v }))
		}
	}
	idx := make([]int32, len(samples))
	for i := range idx {
		idx[i] = int32(i)
	}
	var trees []extract.BlockTree
	for range o.trees {
		for i := range samples {
			s := &samples[i]
			p := 1 / (1 + math.Exp(-s.margin))
			s.g = s.c * (s.y - p)
			s.h = s.c * p * (1 - p)
		}
		var t extract.BlockTree
		growNode(&t, samples, slices.Clone(idx), cuts, 0, o)
		if len(t) == 1 && t[0].Value == 0 {
			break // nothing left to fit
		}
		for i := range samples {
			samples[i].margin += t.Value(samples[i].f)
		}
		trees = append(trees, t)
	}
	return trees
}

// growNode appends to t the node holding samples idx and, below it, its
// subtree; it returns the node's index.
func growNode(t *extract.BlockTree, samples []boostSample, idx []int32, cuts [][]float64, depth int, o boostOptions) uint16 {
	at := uint16(len(*t))
	*t = append(*t, extract.TreeNode{})
	var g, h float64
	for _, i := range idx {
		g += samples[i].g
		h += samples[i].h
	}
	leaf := extract.TreeNode{Value: o.rate * g / (h + o.l2)}
	if depth >= o.depth {
		(*t)[at] = leaf
		return at
	}
	parent := g * g / (h + o.l2)
	bestGain, bestF, bestCut := 1e-12, -1, 0
	var hg, hh [256]float64
	for j := range extract.NumBlockFeatures {
		n := len(cuts[j])
		if n == 0 {
			continue
		}
		clear(hg[:n+1])
		clear(hh[:n+1])
		for _, i := range idx {
			s := &samples[i]
			hg[s.bins[j]] += s.g
			hh[s.bins[j]] += s.h
		}
		var lg, lh float64
		for k := range n {
			lg += hg[k]
			lh += hh[k]
			rg, rh := g-lg, h-lh
			if lh < o.minHess || rh < o.minHess {
				continue
			}
			if gain := lg*lg/(lh+o.l2) + rg*rg/(rh+o.l2) - parent; gain > bestGain {
				bestGain, bestF, bestCut = gain, j, k
			}
		}
	}
	if bestF < 0 {
		(*t)[at] = leaf
		return at
	}
	var left, right []int32
	for _, i := range idx {
		if int(samples[i].bins[bestF]) <= bestCut {
			left = append(left, i)
		} else {
			right = append(right, i)
		}
	}
	l := growNode(t, samples, left, cuts, depth+1, o)
	r := growNode(t, samples, right, cuts, depth+1, o)
	(*t)[at] = extract.TreeNode{Feature: uint8(bestF), Split: cuts[bestF][bestCut], Left: l, Right: r}
	return at
}

// featureCuts returns, for every feature, its candidate splits in
// ascending order: midpoints between consecutive distinct values, thinned
// to at most maxCuts at quantiles of the samples.
func featureCuts(samples []boostSample, maxCuts int) [][]float64 {
	maxCuts = min(maxCuts, 255)
	out := make([][]float64, extract.NumBlockFeatures)
	vals := make([]float64, len(samples))
	for j := range extract.NumBlockFeatures {
		for i := range samples {
			vals[i] = samples[i].f[j]
		}
		slices.Sort(vals)
		var cuts []float64
		add := func(a, b float64) {
			if a < b {
				if c := a + (b-a)/2; len(cuts) == 0 || c > cuts[len(cuts)-1] {
					cuts = append(cuts, c)
				}
			}
		}
		distinct := slices.Compact(slices.Clone(vals))
		if len(distinct)-1 <= maxCuts {
			for k := 1; k < len(distinct); k++ {
				add(distinct[k-1], distinct[k])
			}
		} else {
			for q := 1; q <= maxCuts; q++ {
				k := q * len(vals) / (maxCuts + 1)
				// the cut just above the value at quantile q
				next := sort.SearchFloat64s(distinct, vals[k])
				if next+1 < len(distinct) {
					add(distinct[next], distinct[next+1])
				}
			}
		}
		out[j] = cuts
	}
	return out
}
