package cluster

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/neardup/neardup/core"
)

// Linking names how a document joins a cluster through its duplicate links
// to the documents before it.
type Linking string

// The linking policies. With Any, clusters are the connected groups of the
// duplicate links: A ~ B and B ~ C put A and C together although nothing
// matched them, so one templated report that resembles two families chains
// them into one. The others let a document join a cluster only through a
// strong enough link to it, and never merge two clusters.
const (
	Any    Linking = "any"    // any duplicate link joins, clusters merge: the connected groups
	Anchor Linking = "anchor" // a duplicate link to the cluster's first member
	// Majority: duplicate links to at least half of the cluster's members
	// it can be compared with (see Choose).
	Majority Linking = "majority"
)

// ParseLinking checks a linking policy's name.
func ParseLinking(s string) (Linking, error) {
	switch l := Linking(s); l {
	case Any, Anchor, Majority:
		return l, nil
	}
	return "", fmt.Errorf("cluster: unknown linking %q (want any, anchor or majority)", s)
}

// Link is a duplicate link of a document to an earlier one.
type Link struct {
	Other int32   // the earlier document
	Score float64 // the pair's score
	// Similar says the pair is labelled similar, linked as a copy (see
	// engine.Grouping.SimilarIsCopy): the reason then says so.
	Similar bool
	// Copy says the document is an exact copy of Other, marked so by an
	// index (by URL, content or slug), which compares such a copy with
	// Other alone: it joins Other's cluster by any policy (see Choose),
	// and stands there for the document Other stands for, Other itself
	// when it copies none: a later document's link to that one counts as
	// a link to the copy too (see Linker.Add).
	Copy bool
}

// Linker groups documents into clusters as they arrive, in order, by a
// linking policy, and says why each member is in. The zero value is not
// ready: make one with NewLinker. Not safe for concurrent use.
type Linker struct {
	policy  Linking
	limit   int // the method's bucket limit (see Choose); 0: none
	uf      UnionFind
	of      map[int32]int32   // document → its cluster's first member (not Any)
	members map[int32][]int32 // first member → members in order of joining (not Any)
	why     map[int32]Reason  // document → why it is in
	// stands maps a document that joined its cluster as an exact copy
	// (see Link.Copy) to the member it stands for, the first of its chain
	// of copies; copies counts, by that member, the copies standing for it
	// (not Any).
	stands map[int32]int32
	copies map[int32]int
}

// stand returns the member doc stands for as an exact copy (see
// Link.Copy): the first of its chain of copies, doc itself when it joined
// as none. A document linked to any member of a chain, which holds one
// member compared (the story's first, or the copy that took its place
// when it was removed, whichever of the chain was stored first), counts as
// linked to every copy of the chain.
func (l *Linker) stand(doc int32) int32 {
	if s, ok := l.stands[doc]; ok {
		return s
	}
	return doc
}

// Reason says why a document is in its cluster.
type Reason struct {
	// Links is how many members it has duplicate links to when it joined
	// (Majority); 1 otherwise; 0 for a first member or, with Any, a
	// document that later members linked to.
	Links int
	// Size is the cluster's size when it joined.
	Size int
	// Other is the member of its best link; Score that link's score.
	Other int32
	Score float64
	// Similar says that link is of a similar pair (see Link.Similar).
	Similar bool
	// Copy says it is in as an exact copy of Other (see Link.Copy),
	// which the policy alone would not admit.
	Copy bool
}

// Format writes the reason in words, naming documents with name and
// writing the link's score with four decimals at most (core.Round).
func (r Reason) Format(policy Linking, name func(int32) string) string {
	return string(r.AppendFormat(nil, policy, name))
}

// AppendFormat appends the reason in words (see Format) to dst.
func (r Reason) AppendFormat(dst []byte, policy Linking, name func(int32) string) []byte {
	switch {
	case r.Links == 0 && r.Size == 0:
		return append(dst, "first member"...)
	case r.Links == 0:
		return append(dst, "a later member is its duplicate"...)
	}
	switch {
	case r.Copy:
		dst = append(dst, "exact copy of "...)
		policy = Any // nothing of the policy to say
	case r.Similar:
		dst = append(dst, "similar to "...)
	default:
		dst = append(dst, "duplicate of "...)
	}
	switch policy {
	case Anchor:
		dst = append(dst, "the first member "...)
	case Majority:
		dst = strconv.AppendInt(dst, int64(r.Links), 10)
		dst = append(dst, " of "...)
		dst = strconv.AppendInt(dst, int64(r.Size), 10)
		dst = append(dst, " members, best "...)
	}
	dst = append(dst, name(r.Other)...)
	dst = append(dst, " ("...)
	// Four decimals at most (core.Round), whatever decimals the link's
	// stored score has: 0.012346 is "0.0123", never "0.01235" nor
	// "1.2e-05".
	dst = strconv.AppendFloat(dst, core.Round(r.Score), 'f', -1, 64)
	return append(dst, ')')
}

// NewLinker returns a Linker of policy ("" means Any) for documents
// matched under limit, a method's bucket limit (see Choose); 0 means none.
func NewLinker(policy Linking, limit int) *Linker {
	if policy == "" {
		policy = Any
	}
	return &Linker{policy: policy, limit: limit, of: map[int32]int32{}, members: map[int32][]int32{}, why: map[int32]Reason{},
		stands: map[int32]int32{}, copies: map[int32]int{}}
}

// Policy returns the linking policy in force.
func (l *Linker) Policy() Linking { return l.policy }

// Add places doc, given its duplicate links to earlier documents, and
// returns the first member of the cluster it joined, or -1 when it joined
// none. Each document is added once, after every document it links to.
//
// A link to a document that exact copies stand for (see Link.Copy) counts
// as a link to each of them too: the copies were never compared, and a
// batch, which compares every document, finds that the document linked
// to one of them links to all. Majority so weighs a document's links to a
// cluster of a story and its copies as a batch does.
func (l *Linker) Add(doc int32, links []Link) int32 {
	if len(links) == 0 {
		return -1
	}
	if l.policy == Any {
		best := links[0]
		for _, k := range links {
			l.uf.Union(doc, k.Other)
			if k.Score > best.Score {
				best = k
			}
		}
		l.why[doc] = Reason{Links: 1, Size: 1, Other: best.Other, Score: best.Score, Similar: best.Similar}
		return l.uf.Find(doc)
	}
	var cands []Candidate
	var bests, copies []Link // by candidate: its best link, its exact copy's
	for _, k := range links {
		first, ok := l.of[k.Other]
		if !ok {
			first = k.Other // not in a cluster yet: a cluster of one
		}
		i := slices.IndexFunc(cands, func(c Candidate) bool { return c.Key == int64(first) })
		if i < 0 {
			cands = append(cands, Candidate{Key: int64(first), Size: max(len(l.members[first]), 1), Best: k.Score})
			bests, copies = append(bests, k), append(copies, Link{})
			i = len(cands) - 1
		}
		c := &cands[i]
		c.Links++
		if !k.Copy {
			c.Links += l.copies[l.stand(k.Other)]
		}
		c.Anchored = c.Anchored || k.Other == first
		if k.Copy && (!c.Copy || k.Other < copies[i].Other) {
			c.Copy, copies[i] = true, k // of two, the copy of the earlier
		}
		if k.Score > c.Best {
			c.Best, bests[i] = k.Score, k
		}
	}
	chosen := Choose(l.policy, l.limit, cands)
	if chosen < 0 {
		return -1
	}
	first, best := int32(cands[chosen].Key), bests[chosen]
	if _, ok := l.members[first]; !ok {
		l.members[first] = []int32{first}
		l.of[first] = first
	}
	size := len(l.members[first])
	l.members[first] = append(l.members[first], doc)
	l.of[doc] = first
	if k := copies[chosen]; k.Copy {
		s := l.stand(k.Other)
		l.stands[doc] = s
		l.copies[s]++
	}
	switch {
	case !admits(l.policy, l.limit, cands[chosen]):
		k := copies[chosen]
		l.why[doc] = Reason{Links: 1, Size: size, Other: k.Other, Score: k.Score, Copy: true}
	case l.policy == Anchor:
		k := linkTo(links, first)
		l.why[doc] = Reason{Links: 1, Size: size, Other: first, Score: k.Score, Similar: k.Similar}
	default:
		l.why[doc] = Reason{Links: cands[chosen].Links, Size: size, Other: best.Other, Score: best.Score, Similar: best.Similar}
	}
	return first
}

// Candidate is a cluster a document has duplicate links to, as Choose
// weighs it.
type Candidate struct {
	Key  int64 // names the cluster; a smaller key is an older cluster
	Size int   // its members before the document joins, at least 1
	// Links is the document's duplicate links to its members, a link to
	// a member counting for the exact copies standing for it too (see
	// Linker.Add).
	Links    int
	Best     float64 // the best score of those links
	Anchored bool    // one of those links is to its first member
	Copy     bool    // one of those links is of an exact copy (see Link.Copy)
}

// Choose is the one rule by which a document joins a cluster, for the
// batch and the index alike: it returns the index in cands of the cluster
// the document joins, or -1 for none. With Any that is the oldest, and the
// others merge into it. Otherwise it is, of the clusters the policy admits
// (Anchor: anchored; Majority: links to at least half of the members it can
// be compared with) and those of which it is an exact copy of a member,
// compared with that member alone (Candidate.Copy), the one with the most
// links, then the best score, then the oldest; and none merge.
//
// limit, when positive, is a method's bucket limit: a document is
// compared with at most that many members of one bucket of its candidate
// index (the first and the newest), and so with about that many members of
// a cluster of copies, however large. Majority then admits a cluster of
// more than limit members by links to at least half of limit of them.
func Choose(policy Linking, limit int, cands []Candidate) int {
	chosen := -1
	for i, c := range cands {
		if !c.Copy && !admits(policy, limit, c) {
			continue
		}
		if chosen < 0 || better(policy, c, cands[chosen]) {
			chosen = i
		}
	}
	return chosen
}

// admits reports whether policy admits cluster c by the document's links
// to it, under limit (see Choose), whether or not the document is a copy.
func admits(policy Linking, limit int, c Candidate) bool {
	switch policy {
	case Anchor:
		return c.Anchored
	case Majority:
		seen := c.Size
		if limit > 0 {
			seen = min(seen, limit)
		}
		return 2*c.Links >= seen
	}
	return true
}

// better orders candidate clusters: with Any the older; otherwise more
// links, then the better best score, then the older.
func better(policy Linking, a, b Candidate) bool {
	if policy != Any && policy != "" {
		if a.Links != b.Links {
			return a.Links > b.Links
		}
		if a.Best != b.Best {
			return a.Best > b.Best
		}
	}
	return a.Key < b.Key
}

// linkTo returns the link of links to other; the zero Link when there is
// none.
func linkTo(links []Link, other int32) Link {
	for _, k := range links {
		if k.Other == other {
			return k
		}
	}
	return Link{}
}

// Groups returns every cluster of two or more members, each sorted
// ascending, ordered by their smallest member.
func (l *Linker) Groups() [][]int32 {
	if l.policy == Any {
		return l.uf.Groups()
	}
	var out [][]int32
	for _, ms := range l.members {
		g := slices.Clone(ms)
		slices.Sort(g)
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b []int32) int { return cmpInt(a[0], b[0]) })
	return out
}

// Why says why doc, a member of group (as Groups returns it), is in it.
func (l *Linker) Why(doc int32, group []int32) Reason {
	if r, ok := l.why[doc]; ok {
		return r
	}
	if doc == group[0] {
		return Reason{}
	}
	return Reason{Size: len(group)} // with Any: only later members link to it
}
