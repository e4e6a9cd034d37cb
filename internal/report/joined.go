package report

import (
	"encoding/json"
	"regexp"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/reason"
)

// linkView is how a member joined its cluster: a cluster's Joined entry,
// with the member it names apart when it names one, and why the pair of
// the two was labelled as it is.
type linkView struct {
	Joined string // the entry as a whole, when it names no member
	// Before, Other and After are the entry around the member it joined
	// through: "duplicate of ", "wire-1", " (0.8312)".
	Before, Other, After string
	Reason               string // of the pair of the member and Other; "" when not known
}

// joinedForm is a Joined entry that names a member (cluster.Reason.Format):
// the link's kind, the linking policy's words, the member, the score.
var joinedForm = regexp.MustCompile(`(?s)^((?:exact copy of |similar to |duplicate of )(?:the first member |\d+ of \d+ members, best )?)(.*)( \([-+.e0-9]+\))$`)

// splitJoined returns the member of c that the Joined entry j names and
// the entry's text before and after it; ok is false when j names none of
// c's members (is names them).
func splitJoined(j string, is map[string]bool) (before, other, after string, ok bool) {
	m := joinedForm.FindStringSubmatch(j)
	if m == nil {
		return "", "", "", false
	}
	if is[m[2]] {
		return m[1], m[2], m[3], true
	}
	// An id that reads as the policy's words ("the first member x").
	for _, kind := range []string{"exact copy of ", "similar to ", "duplicate of "} {
		if len(m[1]) > len(kind) && m[1][:len(kind)] == kind && is[m[1][len(kind):]+m[2]] {
			return kind, m[1][len(kind):] + m[2], m[3], true
		}
	}
	return "", "", "", false
}

// pairKey names the pair of two documents whichever is A.
type pairKey struct{ a, b string }

func keyOf(a, b string) pairKey {
	if a > b {
		a, b = b, a
	}
	return pairKey{a, b}
}

// links returns, by member ID, how each member shown of the clusters
// shown joined its cluster, with the reason of the pair it joined through
// when r.Pairs holds it. It keeps only the pairs it needs.
func links(r Report, lim Limits, shown []core.Cluster) map[string]linkView {
	out := map[string]linkView{}
	need := map[pairKey][]string{} // the pair a member joined through → the members
	for _, c := range shown {
		if len(c.Joined) != len(c.Members) {
			continue
		}
		is := make(map[string]bool, len(c.Members))
		for _, m := range c.Members {
			is[m] = true
		}
		shownMember := map[string]bool{}
		for _, m := range lim.members(c) {
			shownMember[m] = true
		}
		for i, m := range c.Members {
			if !shownMember[m] {
				continue
			}
			before, other, after, ok := splitJoined(c.Joined[i], is)
			if !ok {
				out[m] = linkView{Joined: c.Joined[i]}
				continue
			}
			out[m] = linkView{Before: before, Other: other, After: after}
			need[keyOf(m, other)] = append(need[keyOf(m, other)], m)
		}
	}
	for i := range r.Pairs {
		p := &r.Pairs[i]
		ms, ok := need[keyOf(p.A, p.B)]
		if !ok {
			continue
		}
		delete(need, keyOf(p.A, p.B)) // a run reports one pair of two documents
		ev, err := json.Marshal(p.Evidence)
		if err != nil {
			continue
		}
		why := reason.Say(reason.Pair{Method: p.Method, Score: p.Score, Label: p.Label, Evidence: ev}, isolate(p.A), isolate(p.B), r.Options)
		for _, m := range ms {
			l := out[m]
			l.Reason = why
			out[m] = l
		}
	}
	return out
}

// isolate wraps an id in FIRST STRONG ISOLATE and POP DIRECTIONAL
// ISOLATE, for a sentence of plain text that names it: its direction, or a
// direction control character in it, cannot turn the sentence around.
func isolate(id string) string { return "\u2068" + id + "\u2069" }
