// Package cluster owns grouping: union-find over duplicate pairs and the
// choice of each group's representative by a policy the user names.
package cluster

import (
	"fmt"
	"slices"

	"github.com/neardup/neardup/core"
)

// UnionFind is a disjoint-set forest over document ordinals 0..n-1 with path
// halving and union by size. The zero value is an empty forest that grows as
// ordinals are added. Not safe for concurrent use.
type UnionFind struct {
	parent []int32
	size   []int32
}

// Grow makes room for ordinals below n, each in its own set.
func (u *UnionFind) Grow(n int) {
	for i := len(u.parent); i < n; i++ {
		u.parent = append(u.parent, int32(i))
		u.size = append(u.size, 1)
	}
}

// Find returns the root of x's set.
func (u *UnionFind) Find(x int32) int32 {
	for u.parent[x] != x {
		u.parent[x] = u.parent[u.parent[x]]
		x = u.parent[x]
	}
	return x
}

// Union joins the sets of a and b.
func (u *UnionFind) Union(a, b int32) {
	u.Grow(int(max(a, b)) + 1)
	ra, rb := u.Find(a), u.Find(b)
	if ra == rb {
		return
	}
	if u.size[ra] < u.size[rb] {
		ra, rb = rb, ra
	}
	u.parent[rb] = ra
	u.size[ra] += u.size[rb]
}

// Groups returns every set of two or more members, each sorted ascending,
// ordered by their smallest member.
func (u *UnionFind) Groups() [][]int32 {
	byRoot := map[int32][]int32{}
	var roots []int32
	for i := range u.parent {
		x := int32(i)
		r := u.Find(x)
		if u.size[r] < 2 {
			continue
		}
		if _, ok := byRoot[r]; !ok {
			roots = append(roots, r)
		}
		byRoot[r] = append(byRoot[r], x)
	}
	groups := make([][]int32, 0, len(roots))
	for _, r := range roots {
		groups = append(groups, byRoot[r]) // members arrive ascending
	}
	return groups
}

// Policy names how a group's representative is chosen.
type Policy string

// The representative policies.
const (
	Longest  Policy = "longest"  // the most text; ties to the one published first (see Published)
	Earliest Policy = "earliest" // the original: the oldest date; undated members last; ties to input order (see Published)
	First    Policy = "first"    // the first in input order
	Central  Policy = "central"  // the highest mean similarity to the other members; ties as Longest
)

// ParsePolicy checks a policy name.
func ParsePolicy(s string) (Policy, error) {
	switch p := Policy(s); p {
	case Longest, Earliest, First, Central:
		return p, nil
	}
	return "", fmt.Errorf("cluster: unknown representative policy %q (want longest, earliest, first or central)", s)
}

// Member is what the policies know of a document.
type Member struct {
	Ord    int32 // input order
	Length int   // text length in bytes
	Date   int64 // Unix seconds; 0 when unknown
}

// Published orders members by publication, the order that decides which
// document of a cluster or a pair is the original and which the copies:
// the dated before the undated (nothing says an undated document came
// first), the dated by date, and members of one date (or none) in the
// order they were read or stored, by Ord. It returns a negative number
// when a was published before b, a positive one when after, and 0 only
// for the same member.
func Published(a, b Member) int {
	return ComparePublished(a.Date, int64(a.Ord), b.Date, int64(b.Ord))
}

// ComparePublished is Published of two documents given by their dates
// (Unix seconds, 0 when unknown) and their places in the order read or
// stored, as an index numbers them.
func ComparePublished(dateA, ordA, dateB, ordB int64) int {
	if (dateA == 0) != (dateB == 0) {
		if dateA == 0 {
			return 1
		}
		return -1
	}
	if dateA != dateB {
		return cmpInt(dateA, dateB)
	}
	return cmpInt(ordA, ordB)
}

// Original returns the member of group published first (see Published):
// the original of which the others are copies. group must not be empty.
func Original(group []Member) Member {
	return slices.MinFunc(group, Published)
}

// CentralSample caps how many members the central policy compares each
// member with, so a group of thousands costs a bounded number of measures.
const CentralSample = 64

// Representative returns the member of group chosen by policy and a
// sentence saying why. sim gives the exact similarity of two members and is
// used only by Central.
func Representative(group []Member, policy Policy, sim func(a, b int32) float64) (Member, string) {
	switch policy {
	case Earliest:
		best := Original(group)
		if best.Date == 0 {
			return best, "earliest: no member has a date, so the first in input order"
		}
		return best, "earliest: the oldest date among the members"
	case First:
		return slices.MinFunc(group, func(a, b Member) int { return cmpInt(a.Ord, b.Ord) }), "first: the first member in input order"
	case Central:
		return central(group, sim)
	default:
		best := slices.MinFunc(group, func(a, b Member) int {
			if a.Length != b.Length {
				return cmpInt(b.Length, a.Length)
			}
			return Published(a, b)
		})
		for _, m := range group {
			if m.Ord != best.Ord && m.Length == best.Length {
				return best, fmt.Sprintf("longest: the most text (%d bytes, tied; the first published)", best.Length)
			}
		}
		return best, fmt.Sprintf("longest: the most text (%d bytes)", best.Length)
	}
}

// centralTie is how close two mean similarities must be for the central
// policy to take them as equal: they are sums of floats, so one mean
// computed in another order may differ in its last bits.
const centralTie = 1e-9

// central returns the member of group with the highest mean similarity to
// the others; members whose means tie (within centralTie) are decided as
// Longest decides, by the most text and then by Published.
func central(group []Member, sim func(a, b int32) float64) (Member, string) {
	peers := group
	if len(peers) > CentralSample {
		peers = peers[:CentralSample]
	}
	means := make([]float64, len(group))
	top := -1.0
	for i, m := range group {
		sum, n := 0.0, 0
		for _, p := range peers {
			if p.Ord != m.Ord {
				sum += sim(m.Ord, p.Ord)
				n++
			}
		}
		means[i] = sum / float64(max(n, 1))
		top = max(top, means[i])
	}
	best, tied, sameLength := -1, 0, false
	for i, m := range group {
		if means[i] < top-centralTie {
			continue
		}
		tied++
		switch {
		case best < 0:
			best = i
		case m.Length == group[best].Length:
			sameLength = true
			if Published(m, group[best]) < 0 {
				best = i
			}
		case m.Length > group[best].Length:
			best, sameLength = i, false
		}
	}
	why := fmt.Sprintf("central: the highest mean similarity to the other members (%.3f", means[best])
	switch {
	case tied == 1:
		return group[best], why + ")"
	case sameLength:
		return group[best], why + ", tied; the longest, then the first published)"
	}
	return group[best], why + ", tied; the longest)"
}

func cmpInt[T int | int32 | int64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// AddLateCopies adds to out the IDs of the stored documents that the
// document id, just added, was published before: the stored documents of
// its duplicate pairs that name it the original, and copies, the other
// members of a cluster it is the original of. They are its copies that
// arrived first.
func AddLateCopies(out map[string]bool, id string, pairs []core.Pair, copies []string) {
	for _, p := range pairs {
		if p.Label == core.Duplicate && p.Original == id && id != "" {
			out[p.Copy()] = true
		}
	}
	for _, c := range copies {
		out[c] = true
	}
}
