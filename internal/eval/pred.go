package eval

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Prediction is what a detector reported: duplicate pairs, clusters, or both.
type Prediction struct {
	// Name labels the prediction in reports, usually its file name.
	Name string
	// Pairs are the predicted duplicate pairs, in input order (repeats and
	// reversed repeats allowed).
	Pairs [][2]string
	// Clusters are the predicted groups; documents in none are singletons.
	Clusters [][]string
	// Skipped counts pair lines left out by label (similar pairs without
	// IncludeSimilar).
	Skipped int
}

// PredictionOptions control which predicted pairs count.
type PredictionOptions struct {
	// IncludeSimilar counts pairs labelled "similar" as predicted
	// duplicates; by default only "duplicate" pairs count.
	IncludeSimilar bool
}

// predLine is a line of pairs.jsonl or clusters.jsonl; other fields (method,
// score, evidence, representative, why) are not needed.
type predLine struct {
	A       json.RawMessage   `json:"a"`
	B       json.RawMessage   `json:"b"`
	Label   *string           `json:"label"`
	Members []json.RawMessage `json:"members"`
}

// ReadPrediction reads a pairs.jsonl or clusters.jsonl file (or a file with
// lines of both kinds).
func ReadPrediction(r io.Reader, name string, opts PredictionOptions) (*Prediction, error) {
	p := &Prediction{Name: name}
	err := scanLines(r, func(line []byte, _ int) error {
		var l predLine
		if err := json.Unmarshal(line, &l); err != nil {
			return err
		}
		if l.Members != nil {
			return p.addCluster(l.Members)
		}
		a, okA := idOf(l.A)
		b, okB := idOf(l.B)
		if !okA || !okB {
			return errors.New(`want a pair {"a", "b", "label"} or a cluster {"members"}`)
		}
		switch {
		case l.Label == nil || *l.Label == "duplicate":
		case *l.Label == "similar" && opts.IncludeSimilar:
		case *l.Label == "similar":
			p.Skipped++
			return nil
		default:
			return fmt.Errorf("label %q is neither duplicate nor similar", *l.Label)
		}
		p.Pairs = append(p.Pairs, [2]string{a, b})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return p, nil
}

func (p *Prediction) addCluster(members []json.RawMessage) error {
	ids := make([]string, 0, len(members))
	for _, m := range members {
		id, ok := idOf(m)
		if !ok {
			return fmt.Errorf("member %s is not an id", m)
		}
		ids = append(ids, id)
	}
	p.Clusters = append(p.Clusters, ids)
	return nil
}

// Kind says what the prediction holds: "pairs", "clusters" or
// "pairs+clusters".
func (p *Prediction) Kind() string {
	switch {
	case len(p.Clusters) > 0 && len(p.Pairs) > 0:
		return "pairs+clusters"
	case len(p.Clusters) > 0:
		return "clusters"
	default:
		return "pairs"
	}
}

// CheckIDs fails a prediction that names documents none of which a
// cluster-form truth lists: a prediction made from other inputs, or with
// other ids, than the truth, which would score zero without saying why. A
// prediction that names no document (no pair found) passes, and so does
// any prediction against a pair-form truth: its labelled pairs are a
// sample that names only the documents drawn, and a prediction whose pairs
// miss every one of them predicts none of the labelled pairs, a valid
// answer.
func (t *Truth) CheckIDs(p *Prediction) error {
	if t.Pairs() {
		return nil
	}
	known := func(id string) bool {
		_, ok := t.index[id]
		return ok
	}
	named, first := map[string]bool{}, "" // the distinct ids named, as UnknownIDs counts them
	see := func(id string) bool {
		if len(named) == 0 {
			first = id
		}
		named[id] = true
		return known(id)
	}
	for _, pr := range p.Pairs {
		if see(pr[0]) || see(pr[1]) {
			return nil
		}
	}
	for _, c := range p.Clusters {
		for _, id := range c {
			if see(id) {
				return nil
			}
		}
	}
	if len(named) == 0 {
		return nil
	}
	truthFirst := ""
	if len(t.ids) > 0 {
		truthFirst = t.ids[0]
	}
	return fmt.Errorf("%s: none of the %d document ids it names is in the truth (it names %q; the truth names %q): "+
		"were the prediction and the truth made from the same documents, with the same ids?", p.Name, len(named), first, truthFirst)
}
