package eval

import (
	"cmp"
	"slices"

	"github.com/neardup/neardup/internal/cluster"
)

// evalClusters scores a prediction against a cluster-form truth.
func evalClusters(t *Truth, p *Prediction, r *Result) {
	var pc []int32
	var nPred int
	if len(p.Clusters) > 0 {
		pc, nPred = assignClusters(t, p.Clusters, r)
	} else {
		pc, nPred = assignComponents(t, p.Pairs)
		r.ComponentClusters = true
	}
	r.UnknownIDs = unknownIDs(t, p)
	cells, predSize := contingency(t, pc, nPred)
	truthSize := make([]int64, t.nClusters)
	for _, c := range t.cluster {
		truthSize[c]++
	}
	r.Clusters = clusterScores(cells, truthSize, predSize, int64(len(t.ids)))
	r.Pairs.Truth = sumChoose2(truthSize)
	if len(p.Pairs) > 0 {
		explicitPairs(t, p.Pairs, r)
	} else {
		r.Pairs.Predicted = sumChoose2(predSize)
		for _, c := range cells {
			r.Pairs.Correct += choose2(c.n)
		}
	}
	r.Pairs.scores()
	if t.by != "" {
		r.By = clusterBreakdown(t, pc, p.Pairs)
	}
	if len(t.negatives) > 0 {
		r.Negatives = &Negatives{Total: len(t.negatives)}
		for _, n := range t.negatives {
			if a, b := pc[n[0]], pc[n[1]]; a >= 0 && a == b {
				r.Negatives.Merged++
			}
		}
	}
}

// assignClusters maps each truth document to its predicted cluster (-1 for
// none) and returns the number of predicted clusters.
func assignClusters(t *Truth, clusters [][]string, r *Result) ([]int32, int) {
	pc := make([]int32, len(t.ids))
	for i := range pc {
		pc[i] = -1
	}
	for ci, members := range clusters {
		for _, id := range members {
			d, ok := t.index[id]
			switch {
			case !ok: // counted by unknownIDs
			case pc[d] >= 0 && pc[d] != int32(ci):
				r.Overlaps++
			default:
				pc[d] = int32(ci)
			}
		}
	}
	return pc, len(clusters)
}

// assignComponents maps each truth document to the connected component of
// predicted pairs it belongs to (-1 when it is in no pair).
func assignComponents(t *Truth, pairs [][2]string) ([]int32, int) {
	var uf cluster.UnionFind
	uf.Grow(len(t.ids))
	inPair := make([]bool, len(t.ids))
	for _, pr := range pairs {
		a, okA := t.index[pr[0]]
		b, okB := t.index[pr[1]]
		if !okA || !okB {
			continue
		}
		inPair[a], inPair[b] = true, true
		uf.Union(a, b)
	}
	pc := make([]int32, len(t.ids))
	ids := map[int32]int32{}
	for d := range pc {
		pc[d] = -1
		if !inPair[d] {
			continue
		}
		root := uf.Find(int32(d))
		c, ok := ids[root]
		if !ok {
			c = int32(len(ids))
			ids[root] = c
		}
		pc[d] = c
	}
	return pc, len(ids)
}

// unknownIDs counts the distinct ids p names, in its pairs and its
// clusters, that are not documents of the cluster-form truth t: each once,
// however often it is named.
func unknownIDs(t *Truth, p *Prediction) int {
	unknown := map[string]bool{}
	see := func(id string) {
		if _, ok := t.index[id]; !ok {
			unknown[id] = true
		}
	}
	for _, pr := range p.Pairs {
		see(pr[0])
		see(pr[1])
	}
	for _, c := range p.Clusters {
		for _, id := range c {
			see(id)
		}
	}
	return len(unknown)
}

// cell is one non-empty entry of the contingency table of truth cluster
// against predicted cluster.
type cell struct {
	truth, pred int32
	n           int64
}

// contingency counts documents per (truth, predicted) cluster; documents in
// no predicted cluster are singleton cells of their own. It also returns the
// size of each predicted cluster counting truth documents only.
func contingency(t *Truth, pc []int32, nPred int) ([]cell, []int64) {
	predSize := make([]int64, nPred)
	idx := map[uint64]int{}
	var cells []cell
	for d, p := range pc {
		tc := t.cluster[d]
		if p < 0 {
			cells = append(cells, cell{truth: tc, pred: -1, n: 1})
			continue
		}
		predSize[p]++
		k := uint64(tc)<<32 | uint64(p)
		if i, ok := idx[k]; ok {
			cells[i].n++
			continue
		}
		idx[k] = len(cells)
		cells = append(cells, cell{truth: tc, pred: p, n: 1})
	}
	return cells, predSize
}

func sumChoose2(sizes []int64) int64 {
	var s int64
	for _, n := range sizes {
		s += choose2(n)
	}
	return s
}

// clusterScores computes the adjusted Rand index and B-cubed scores from
// the contingency table (Hubert and Arabie 1985; Bagga and Baldwin 1998).
func clusterScores(cells []cell, truthSize, predSize []int64, n int64) *ClusterScores {
	s := &ClusterScores{}
	for _, b := range predSize {
		if b >= 2 {
			s.Predicted++
		}
	}
	var index, bp, br float64
	for _, c := range cells {
		index += float64(choose2(c.n))
		b := int64(1)
		if c.pred >= 0 {
			b = predSize[c.pred]
		}
		nn := float64(c.n * c.n)
		bp += nn / float64(b)
		br += nn / float64(truthSize[c.truth])
	}
	if n > 0 {
		s.BCubedPrecision, s.BCubedRecall = bp/float64(n), br/float64(n)
	}
	s.BCubedF1 = f1(s.BCubedPrecision, s.BCubedRecall)
	sumA, sumB := float64(sumChoose2(truthSize)), float64(sumChoose2(predSize))
	total := float64(choose2(n))
	s.ARI = 1
	if total > 0 {
		expected := sumA * sumB / total
		maxIndex := (sumA + sumB) / 2
		if maxIndex != expected {
			s.ARI = (index - expected) / (maxIndex - expected)
		}
	}
	return s
}

// explicitPairs scores predicted pairs one by one: each distinct pair of
// two truth documents counts once.
func explicitPairs(t *Truth, pairs [][2]string, r *Result) {
	seen := make(map[uint64]struct{}, len(pairs))
	for _, pr := range pairs {
		a, okA := t.index[pr[0]]
		b, okB := t.index[pr[1]]
		if !okA || !okB || a == b {
			continue
		}
		k := uint64(min(a, b))<<32 | uint64(max(a, b))
		if _, dup := seen[k]; dup {
			continue
		}
		seen[k] = struct{}{}
		r.Pairs.Predicted++
		if t.cluster[a] == t.cluster[b] {
			r.Pairs.Correct++
		}
	}
}

// clusterBreakdown counts, per value of the truth's field, the truth pairs
// and those found: the pairs with a member having the value are C(n,2) -
// C(n-n_v,2) in a group of n members of which n_v have it, so groups of any
// size are counted without listing their pairs. With explicit pairs, found
// pairs are counted one by one instead.
func clusterBreakdown(t *Truth, pc []int32, pairs [][2]string) []Recall {
	none := len(t.names)
	names := append(slices.Clone(t.names), noneValue)
	truth := make([]int64, len(names))
	found := make([]int64, len(names))
	docs, start := t.clusterMembers()
	for c := range t.nClusters {
		members := docs[start[c]:start[c+1]]
		if len(members) < 2 {
			continue
		}
		t.groupCounts(members, truth, none)
		if len(pairs) > 0 {
			continue
		}
		group := slices.Clone(members)
		slices.SortFunc(group, func(x, y int32) int { return cmp.Compare(pc[x], pc[y]) })
		for i := 0; i < len(group); {
			j := i + 1
			for j < len(group) && pc[group[j]] == pc[group[i]] {
				j++
			}
			if pc[group[i]] >= 0 {
				t.groupCounts(group[i:j], found, none)
			}
			i = j
		}
	}
	if len(pairs) > 0 {
		t.foundPairs(pairs, found, none)
	}
	return breakdown(names, truth, found, nil)
}

// groupCounts adds, for each value, the pairs of members where at least one
// member has the value (with SetDirect, where the other has no value);
// pairs where neither member has any value go to none.
func (t *Truth) groupCounts(members []int32, counts []int64, none int) {
	if len(t.without) > 0 {
		members = slices.DeleteFunc(slices.Clone(members), t.excluded)
	}
	n := int64(len(members))
	have := map[int32]int64{}
	var empty int64
	for _, d := range members {
		if len(t.values[d]) == 0 {
			empty++
		}
		for _, v := range t.values[d] {
			have[v]++
		}
	}
	for v, k := range have {
		if t.direct {
			counts[v] += k * empty // with the members that have no value
		} else {
			counts[v] += choose2(n) - choose2(n-k)
		}
	}
	counts[none] += choose2(empty)
}

// foundPairs counts each distinct correct predicted pair under the values of
// both its members (with SetDirect, only pairs one of whose members has no
// value).
func (t *Truth) foundPairs(pairs [][2]string, found []int64, none int) {
	seen := map[uint64]struct{}{}
	for _, pr := range pairs {
		a, okA := t.index[pr[0]]
		b, okB := t.index[pr[1]]
		if !okA || !okB || a == b || t.cluster[a] != t.cluster[b] {
			continue
		}
		k := uint64(min(a, b))<<32 | uint64(max(a, b))
		if _, dup := seen[k]; dup {
			continue
		}
		seen[k] = struct{}{}
		if t.direct && len(t.values[a]) > 0 && len(t.values[b]) > 0 || t.excluded(a) || t.excluded(b) {
			continue
		}
		vals := append(slices.Clone(t.values[a]), t.values[b]...)
		slices.Sort(vals)
		vals = slices.Compact(vals)
		if len(vals) == 0 {
			found[none]++
		}
		for _, v := range vals {
			found[v]++
		}
	}
}

// excluded reports whether document d has a value SetWithout left out.
func (t *Truth) excluded(d int32) bool {
	for _, v := range t.values[d] {
		if slices.Contains(t.without, v) {
			return true
		}
	}
	return false
}
