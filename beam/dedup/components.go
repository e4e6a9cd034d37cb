package dedup

import (
	"context"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/neardup/neardup/internal/cluster"
)

// The connected components of the duplicate links, computed in the
// pipeline by rounds of the large-star and small-star operations (Kiveris
// et al., "Connected Components in MapReduce and Beyond", 2014): each
// round keeps the components and moves every node's links towards the
// smallest node of its component, until each component is a star around
// it. Whatever the number of rounds, a node's label is then the smallest
// of itself and its neighbours; the links whose two ends still have
// different labels (none once the rounds converged) are joined on one
// worker, which maps each label to its component's root.

// components returns (node, root) for every node of links, the root being
// one node of its component; links are (a, b) pairs, one way.
func components(s beam.Scope, links beam.PCollection, rounds int) beam.PCollection {
	s = s.Scope("components")
	edges := beam.ParDo(s, bothWays, links)
	for range rounds {
		edges = beam.ParDo(s, largeStar, beam.GroupByKey(s, edges))
		edges = beam.ParDo(s, smallStar, beam.GroupByKey(s, edges))
	}
	own, told := beam.ParDo2(s, labelFn, beam.GroupByKey(s, edges))
	labels, crossed := beam.ParDo2(s, crossFn, beam.CoGroupByKey(s, own, told))
	roots := beam.ParDo(s, rootsFn, beam.GroupByKey(s, beam.AddFixedKey(s, crossed)))
	return beam.ParDo(s, relabelFn, beam.CoGroupByKey(s, labels, roots))
}

// bothWays emits a link in both directions.
func bothWays(a, b int64, emit func(int64, int64)) {
	emit(a, b)
	emit(b, a)
}

// neighbours collects a node's distinct neighbours and their minimum with
// the node's own number.
func neighbours(u int64, vs func(*int64) bool) (ns []int64, least int64) {
	seen := map[int64]bool{}
	least = u
	var v int64
	for vs(&v) {
		if !seen[v] && v != u {
			seen[v] = true
			ns = append(ns, v)
			least = min(least, v)
		}
	}
	return ns, least
}

// largeStar links each larger neighbour of u to the smallest node of u's
// neighbourhood.
func largeStar(u int64, vs func(*int64) bool, emit func(int64, int64)) {
	ns, m := neighbours(u, vs)
	for _, v := range ns {
		if v > u && v != m {
			emit(v, m)
			emit(m, v)
		}
	}
}

// smallStar links u and each of its smaller neighbours to the smallest of
// them.
func smallStar(u int64, vs func(*int64) bool, emit func(int64, int64)) {
	ns, _ := neighbours(u, vs)
	m := u
	for _, v := range ns {
		m = min(m, v)
	}
	if u != m {
		emit(u, m)
		emit(m, u)
	}
	for _, v := range ns {
		if v < u && v != m {
			emit(v, m)
			emit(m, v)
		}
	}
}

// labelFn labels u with the smallest of itself and its neighbours, and
// tells each neighbour that label.
func labelFn(u int64, vs func(*int64) bool, own func(int64, int64), told func(int64, int64)) {
	ns, m := neighbours(u, vs)
	own(u, m)
	for _, v := range ns {
		told(v, m)
	}
}

// crossFn emits u keyed by its label, and each pair of different labels
// that a link of u joins.
func crossFn(ctx context.Context, u int64, own func(*int64) bool, told func(*int64) bool, labels func(int64, int64), crossed func(labelPair)) {
	var l, t int64
	own(&l)
	labels(l, u)
	for told(&t) {
		if t != l {
			unsettled.Inc(ctx, 1)
			crossed(labelPair{A: l, B: t})
		}
	}
}

// labelPair is two labels of one component.
type labelPair struct{ A, B int64 }

// rootsFn joins the labels that unsettled links join, on one worker, and
// maps each to its group's smallest label.
func rootsFn(_ int, pairs func(*labelPair) bool, emit func(int64, int64)) {
	var (
		uf    cluster.UnionFind
		index = map[int64]int32{}
		names []int64
	)
	dense := func(l int64) int32 {
		i, ok := index[l]
		if !ok {
			i = int32(len(names))
			index[l] = i
			names = append(names, l)
		}
		return i
	}
	var p labelPair
	for pairs(&p) {
		uf.Union(dense(p.A), dense(p.B))
	}
	least := map[int32]int64{}
	for i, l := range names {
		r := uf.Find(int32(i))
		if m, ok := least[r]; !ok || l < m {
			least[r] = l
		}
	}
	for i, l := range names {
		if m := least[uf.Find(int32(i))]; m != l {
			emit(l, m)
		}
	}
}

// relabelFn gives each node of label l the root of l.
func relabelFn(l int64, nodes func(*int64) bool, roots func(*int64) bool, emit func(int64, int64)) {
	root := l
	roots(&root)
	var u int64
	for nodes(&u) {
		emit(u, root)
	}
}
