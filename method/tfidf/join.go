package tfidf

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/neardup/neardup/internal/similarity"
)

// joinThresholds chooses, for each score field, the threshold of the join
// that finds candidates on it (0: no join), so that every pair a clause of
// the rule accepts, or with similar > 0 every pair whose similarField
// reaches it, is found. Clauses are taken from the most demanding; one that
// a join already serves (its threshold is at most the clause's bound on
// that field) adds nothing, any other lowers the join of its field with the
// highest bound, ties going to cheap (titles are short, so their join is
// cheap). Last, a join whose clauses the others serve is dropped. A clause
// that bounds no field from below would accept pairs that share nothing,
// which no join can find: that rule is an error.
func joinThresholds(rule *similarity.Rule, similar float64, similarField, cheap int) ([]float64, error) {
	best, bound, err := clauseFields(rule, cheap)
	if err != nil {
		return nil, err
	}
	at := make([]float64, len(rule.Fields))
	if similar > 0 {
		at[similarField] = similar
	}
	order := make([]int, len(rule.Clauses))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(bound[b], bound[a]) })
	owner := make([]int, len(rule.Clauses))
	for _, i := range order {
		if owner[i] = servedBy(rule.Clauses[i], at, -1); owner[i] < 0 {
			if owner[i] = best[i]; at[best[i]] == 0 || bound[i] < at[best[i]] {
				at[best[i]] = bound[i]
			}
		}
	}
	for f := range at {
		if at[f] > 0 && !(f == similarField && similar > 0) {
			dropIfServed(rule, at, owner, f)
		}
	}
	return at, nil
}

// dropIfServed drops the join of field f when the other joins serve every
// clause it serves (owner[i] is the field serving clause i).
func dropIfServed(rule *similarity.Rule, at []float64, owner []int, f int) {
	for i, c := range rule.Clauses {
		if owner[i] == f && servedBy(c, at, f) < 0 {
			return
		}
	}
	for i, c := range rule.Clauses {
		if owner[i] == f {
			owner[i] = servedBy(c, at, f)
		}
	}
	at[f] = 0
}

// clauseFields returns, for each clause of rule, its field with the highest
// positive lower bound (ties to cheap) and that bound.
func clauseFields(rule *similarity.Rule, cheap int) (best []int, bound []float64, err error) {
	best = make([]int, len(rule.Clauses))
	bound = make([]float64, len(rule.Clauses))
	for i, c := range rule.Clauses {
		best[i] = -1
		for f := range rule.Fields {
			if v, ok := c.LowerBound(f); ok && v > 0 && (best[i] < 0 || v > bound[i] || v == bound[i] && f == cheap) {
				best[i], bound[i] = f, v
			}
		}
		if best[i] < 0 {
			return nil, nil, fmt.Errorf("tfidf: rule clause %q puts no positive lower bound on %v: it would accept pairs that share no word",
				rule.ClauseString(i), rule.Fields)
		}
	}
	return best, bound, nil
}

// servedBy returns a field other than skip whose join finds every pair
// that clause c accepts, or -1.
func servedBy(c similarity.Clause, at []float64, skip int) int {
	for f, t := range at {
		if v, ok := c.LowerBound(f); f != skip && ok && t > 0 && t <= v {
			return f
		}
	}
	return -1
}
