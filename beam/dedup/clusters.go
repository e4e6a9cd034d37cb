package dedup

import (
	"fmt"
	"slices"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
)

// node is a document of a component, with its ordinal.
type node struct {
	Ord int64
	Doc doc
}

// link is a duplicate link of a later document B to an earlier A (or a
// similar one, under Options.SimilarIsCopy).
type link struct {
	A, B  int64
	Score float64
	// Similar says the pair is labelled similar, linked as a copy
	// (Options.SimilarIsCopy).
	Similar bool
}

// withoutDetail drops a document's sketch: what clustering reads of it but
// under the policy "central".
func withoutDetail(ord int64, d doc) (int64, doc) {
	d.Detail = nil
	return ord, d
}

// withDoc keys the document of a component node by the component's root.
func withDoc(ord int64, roots func(*int64) bool, docs func(*doc) bool, emit func(int64, node)) {
	var root int64
	if !roots(&root) {
		return
	}
	var d doc
	docs(&d)
	emit(root, node{Ord: ord, Doc: d})
}

// withRoot keys the duplicate links of an earlier document by its
// component's root.
func withRoot(_ int64, links func(*link) bool, roots func(*int64) bool, emit func(int64, link)) {
	var root int64
	if !roots(&root) {
		return
	}
	var l link
	for links(&l) {
		emit(root, l)
	}
}

// clusterOut is a cluster of clusters.jsonl but its number, which is its
// rank by first member among all clusters (see the writer), with its first
// member's ordinal and its representative's place among its members: the
// pipeline reads a repeated id as a document of its own (the batch refuses
// it), so that a copy may have the representative's id.
type clusterOut struct {
	First   int64
	Rep     int
	Cluster core.Cluster
}

// clusterFn groups the documents of one component into clusters with the
// batch's Linker, in input order, and chooses each cluster's representative
// by the keep policy: the component holds every duplicate link of its
// documents, so its clusters are those the batch makes of them. It emits
// each cluster and, for each member that is not its representative, its
// ordinal (not kept).
type clusterFn struct {
	Method methodConfig
	Keep   string
	Link   string

	st stages
}

func (fn *clusterFn) Setup() error {
	st, err := fn.Method.stages()
	fn.st = st
	return err
}

func (fn *clusterFn) ProcessElement(_ int64, nodes func(*node) bool, links func(*link) bool,
	clusters func(clusterOut), notKept func(int64, bool)) error {
	var ns []node
	var n node
	for nodes(&n) {
		ns = append(ns, n)
	}
	slices.SortFunc(ns, func(a, b node) int { return cmpInt(a.Ord, b.Ord) })
	local := func(ord int64) int32 {
		i, _ := slices.BinarySearchFunc(ns, ord, func(n node, o int64) int { return cmpInt(n.Ord, o) })
		return int32(i)
	}
	var ls []link
	var l link
	for links(&l) {
		ls = append(ls, l)
	}
	slices.SortFunc(ls, func(x, y link) int {
		if c := cmpInt(x.B, y.B); c != 0 {
			return c
		}
		return cmpInt(x.A, y.A)
	})
	policy := cluster.Linking(fn.Link)
	linker := cluster.NewLinker(policy, fn.st.bucketLimit())
	var add []cluster.Link
	for i, k := range ls {
		add = append(add, cluster.Link{Other: local(k.A), Score: k.Score, Similar: k.Similar})
		if i+1 == len(ls) || ls[i+1].B != k.B {
			linker.Add(local(k.B), add)
			add = add[:0]
		}
	}
	name := func(i int32) string { return ns[i].Doc.ID }
	for _, g := range linker.Groups() {
		rep, why, err := fn.representative(ns, g)
		if err != nil {
			return err
		}
		c := core.Cluster{Representative: name(rep), Original: name(original(ns, g)), Why: why, Linking: string(policy)}
		out := clusterOut{First: ns[g[0]].Ord}
		for j, i := range g {
			c.Members = append(c.Members, name(i))
			c.Joined = append(c.Joined, linker.Why(i, g).Format(policy, name))
			if i == rep {
				out.Rep = j
			} else {
				notKept(ns[i].Ord, true)
			}
		}
		out.Cluster = c
		clusters(out)
	}
	return nil
}

// original returns the member of group g (indexes of ns, in input order)
// published first, as the batch chooses it (cluster.Original).
func original(ns []node, g []int32) int32 {
	members := make([]cluster.Member, len(g))
	for j, i := range g {
		members[j] = cluster.Member{Ord: i, Date: ns[i].Doc.Date}
	}
	return cluster.Original(members).Ord
}

// representative returns the member of group g (indexes of ns) the keep
// policy chooses, and why.
func (fn *clusterFn) representative(ns []node, g []int32) (int32, string, error) {
	members := make([]cluster.Member, len(g))
	sketches := map[int32]sketch{}
	for j, i := range g {
		members[j] = cluster.Member{Ord: i, Length: int(ns[i].Doc.Length), Date: ns[i].Doc.Date}
		if cluster.Policy(fn.Keep) == cluster.Central {
			s, err := fn.st.decode(ns[i].Doc.Detail)
			if err != nil {
				return 0, "", fmt.Errorf("document %s: %w", ns[i].Doc.ID, err)
			}
			sketches[i] = s
		}
	}
	rep, why := cluster.Representative(members, cluster.Policy(fn.Keep), func(a, b int32) float64 {
		return fn.st.similarity(sketches[a], sketches[b])
	})
	return rep.Ord, why, nil
}

// linkingFn passes on the pairs that link their documents into clusters:
// the duplicate pairs, and the similar ones under SimilarIsCopy
// (Options.SimilarIsCopy).
type linkingFn struct {
	SimilarIsCopy bool
}

func (fn *linkingFn) ProcessElement(f found, emit func(found)) {
	if f.Label == string(core.Duplicate) || fn.SimilarIsCopy && f.Label == string(core.Similar) {
		emit(f)
	}
}

// dupLink keys the link of a pair that links (linkingFn) by its earlier
// document.
func dupLink(f found, emit func(int64, link)) {
	emit(f.A, link{A: f.A, B: f.B, Score: f.Score, Similar: f.Label == string(core.Similar)})
}

// linkEnds emits the two documents of a pair that links (linkingFn) as a
// link of the graph of components.
func linkEnds(f found, emit func(int64, int64)) {
	emit(f.A, f.B)
}
