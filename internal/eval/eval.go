package eval

import (
	"encoding/json"
	"slices"
	"strings"
)

// PairScores are the scores of pair decisions. Precision is nil (null in
// JSON) when nothing is predicted: it is undefined, as a breakdown's is
// (Recall.Precision). Recall is 1 when the truth has no pairs. F1 is
// 2·Correct / (Predicted + Truth), the harmonic mean of precision and
// recall where both are defined: 0 when nothing is predicted of a truth
// with pairs, 1 when neither has any.
type PairScores struct {
	Predicted int64    `json:"predicted"` // predicted duplicate pairs that were scored
	Truth     int64    `json:"truth"`     // duplicate pairs in the truth
	Correct   int64    `json:"correct"`   // predicted pairs that are truth pairs
	Precision *float64 `json:"precision"`
	Recall    float64  `json:"recall"`
	F1        float64  `json:"f1"`
}

// ClusterScores compare the predicted clustering with the truth's; every
// document of the truth counts, those in no predicted cluster as singletons.
type ClusterScores struct {
	ARI             float64 `json:"ari"` // adjusted Rand index: 1 identical, about 0 chance
	BCubedPrecision float64 `json:"bcubed_precision"`
	BCubedRecall    float64 `json:"bcubed_recall"`
	BCubedF1        float64 `json:"bcubed_f1"`
	Predicted       int     `json:"predicted_clusters"` // predicted clusters of two or more truth documents
}

// Recall is the recall of the truth pairs that have one value of the
// breakdown field. A pair of documents has the values of both members (for
// ops: a pair of an original and its copy counts under each op of the copy);
// pairs whose members have no value count under "(none)". On a truth of
// labelled pairs it also has the precision of the pairs of that value the
// prediction calls duplicates (Predicted counts them; Precision is nil when
// it calls none), so a stratum without duplicates still shows its false
// pairs.
type Recall struct {
	Value     string   `json:"value"`
	Truth     int64    `json:"truth"`
	Found     int64    `json:"found"`
	Recall    float64  `json:"recall"`
	Predicted int64    `json:"predicted"`
	Precision *float64 `json:"precision"`
	// Labelled is set on a truth of labelled pairs: only then does the
	// JSON hold Predicted and Precision (null when the prediction calls no
	// pair of the value a duplicate), as the report's table shows them.
	Labelled bool `json:"-"`
}

// MarshalJSON writes r, "predicted" and "precision" on a truth of
// labelled pairs alone.
func (r Recall) MarshalJSON() ([]byte, error) {
	if r.Labelled {
		type plain Recall // without the method
		return json.Marshal(plain(r))
	}
	return json.Marshal(struct {
		Value  string  `json:"value"`
		Truth  int64   `json:"truth"`
		Found  int64   `json:"found"`
		Recall float64 `json:"recall"`
	}{r.Value, r.Truth, r.Found, r.Recall})
}

// Negatives counts the must-not-link pairs of the truth (negative_of) and
// how many of them the prediction put in one cluster.
type Negatives struct {
	Total  int `json:"total"`
	Merged int `json:"merged"`
}

// Result is the evaluation of one prediction.
type Result struct {
	Name     string         `json:"name"`
	Kind     string         `json:"kind"` // pairs, clusters or pairs+clusters
	Pairs    PairScores     `json:"pairs"`
	Clusters *ClusterScores `json:"clusters,omitempty"` // nil for a pair-form truth
	By       []Recall       `json:"by,omitempty"`
	// Weighted are the scores estimated with the pairs' weights and
	// strata, with intervals; for a pair-form truth only.
	Weighted  *WeightedScores `json:"weighted,omitempty"`
	Negatives *Negatives      `json:"negatives,omitempty"`
	// ComponentClusters is true when the clusters scored are the connected
	// components of predicted pairs (the prediction had no clusters).
	ComponentClusters bool `json:"component_clusters,omitempty"`
	// UnknownIDs counts the distinct ids the prediction names, in pairs
	// or clusters, that are not documents of a cluster-form truth (they
	// are ignored), each once however often named. It is 0 on a truth of
	// labelled pairs, which name a sample of the documents.
	UnknownIDs     int `json:"unknown_ids"`
	Overlaps       int `json:"overlaps"`        // documents in two predicted clusters (first kept)
	SkippedSimilar int `json:"skipped_similar"` // "similar" pairs not counted
}

// Evaluate scores p against t.
func Evaluate(t *Truth, p *Prediction) Result {
	r := Result{Name: p.Name, Kind: p.Kind(), SkippedSimilar: p.Skipped}
	if t.Pairs() {
		evalLabelled(t, p, &r)
	} else {
		evalClusters(t, p, &r)
	}
	return r
}

func choose2(n int64) int64 { return n * (n - 1) / 2 }

// scores fills precision, recall and F1 from the counts.
func (s *PairScores) scores() {
	s.Precision, s.Recall, s.F1 = nil, 1, 1
	if s.Predicted > 0 {
		p := float64(s.Correct) / float64(s.Predicted)
		s.Precision = &p
	}
	if s.Truth > 0 {
		s.Recall = float64(s.Correct) / float64(s.Truth)
	}
	if n := s.Predicted + s.Truth; n > 0 {
		s.F1 = 2 * float64(s.Correct) / float64(n)
	}
}

func f1(p, r float64) float64 {
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// breakdown turns per-value counts into sorted Recall rows, "(none)" last.
// predicted, when not nil, counts the predicted pairs of each value (labelled
// pairs): a value with predicted pairs and no truth pair gets a row too,
// with recall 1 as PairScores has it.
func breakdown(names []string, truth, found, predicted []int64) []Recall {
	var out []Recall
	for i, n := range names {
		if truth[i] == 0 && (predicted == nil || predicted[i] == 0) {
			continue
		}
		r := Recall{Value: n, Truth: truth[i], Found: found[i], Recall: 1}
		if truth[i] > 0 {
			r.Recall = float64(found[i]) / float64(truth[i])
		}
		if predicted != nil {
			r.Labelled, r.Predicted = true, predicted[i]
			if predicted[i] > 0 {
				p := float64(found[i]) / float64(predicted[i])
				r.Precision = &p
			}
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Recall) int {
		if (a.Value == noneValue) != (b.Value == noneValue) {
			if a.Value == noneValue {
				return 1
			}
			return -1
		}
		return strings.Compare(a.Value, b.Value)
	})
	return out
}

// noneValue labels pairs whose members have no value of the field.
const noneValue = "(none)"

// evalLabelled scores a prediction on labelled pairs only.
func evalLabelled(t *Truth, p *Prediction, r *Result) {
	same := predictedRelation(p, r)
	var by valueCounts
	strata := map[string]int{}
	var names []string // of the strata, by number
	var scored []scoredPair
	for _, lp := range t.pairs {
		s := same(lp.a, lp.b)
		st, ok := strata[lp.stratum]
		if !ok {
			st = len(names)
			strata[lp.stratum] = st
			names = append(names, lp.stratum)
		}
		scored = append(scored, scoredPair{weight: lp.weight, stratum: st, positive: lp.positive, predicted: s})
		if s {
			r.Pairs.Predicted++
		}
		if lp.positive {
			r.Pairs.Truth++
			if s {
				r.Pairs.Correct++
			}
		}
		if t.by != "" {
			by.add(lp.values, lp.positive, s)
		}
	}
	r.Pairs.scores()
	r.By = breakdown(by.names, by.truth, by.found, by.predicted)
	r.Weighted = weightedScores(scored, names)
}

// valueCounts counts, per value of a field, the labelled pairs that are
// duplicates (truth), those of them predicted (found) and all the predicted
// ones.
type valueCounts struct {
	index                   map[string]int
	names                   []string
	truth, found, predicted []int64
}

// add counts one labelled pair, positive or not, that the prediction calls
// a duplicate or not.
func (c *valueCounts) add(values []string, positive, predicted bool) {
	for _, i := range c.indices(values) {
		if positive {
			c.truth[i]++
			if predicted {
				c.found[i]++
			}
		}
		if predicted {
			c.predicted[i]++
		}
	}
}

// indices returns the rows of values ("(none)" for none), adding the new.
func (c *valueCounts) indices(values []string) []int {
	if len(values) == 0 {
		values = []string{noneValue}
	}
	if c.index == nil {
		c.index = map[string]int{}
	}
	out := make([]int, 0, len(values))
	for _, v := range values {
		i, ok := c.index[v]
		if !ok {
			i = len(c.names)
			c.index[v] = i
			c.names = append(c.names, v)
			c.truth, c.found, c.predicted = append(c.truth, 0), append(c.found, 0), append(c.predicted, 0)
		}
		out = append(out, i)
	}
	return out
}

func pairKey(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}

// predictedRelation returns whether p calls two ids duplicates: by its
// pairs when it has any, else by its clusters, where a document in two
// takes the first and counts in r.Overlaps.
func predictedRelation(p *Prediction, r *Result) func(a, b string) bool {
	if len(p.Pairs) > 0 {
		set := make(map[[2]string]bool, len(p.Pairs))
		for _, pr := range p.Pairs {
			set[pairKey(pr[0], pr[1])] = true
		}
		return func(a, b string) bool { return set[pairKey(a, b)] }
	}
	of := map[string]int{}
	for i, c := range p.Clusters {
		for _, id := range c {
			switch first, ok := of[id]; {
			case !ok:
				of[id] = i
			case first != i:
				r.Overlaps++ // as assignClusters counts them
			}
		}
	}
	return func(a, b string) bool {
		ca, okA := of[a]
		cb, okB := of[b]
		return okA && okB && ca == cb
	}
}
