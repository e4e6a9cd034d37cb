package sweep

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/eval"
	"github.com/neardup/neardup/internal/methods"
)

// Options configure a sweep.
type Options struct {
	// Methods are the options of the methods swept, one after the other
	// (their threshold and similar are set per run); empty means minhash
	// and sentences with their defaults.
	Methods []engine.Config
	// Thresholds are the values swept, ascending; see Range.
	Thresholds []float64
	// Vary is what the thresholds apply to: VaryThreshold ("" too) or,
	// for minhash only, VaryContainment.
	Vary string
	// Workers is the number of sketching goroutines; 0 means one per CPU.
	Workers int
	// Progress, when not nil, is called before each method runs and after
	// it is scored.
	Progress func(method string, done bool, seconds float64)
}

// Range returns the thresholds from, from+step, … up to to (included when
// it falls on a step), rounded to six decimals so that steps add up
// exactly. It is an error unless 0 < from <= to <= 1 and step > 0, or when
// that makes more than 1,000 thresholds.
func Range(from, to, step float64) ([]float64, error) {
	if !(from > 0 && from <= to && to <= 1 && step > 0) {
		return nil, fmt.Errorf("sweep: want 0 < from (%g) <= to (%g) <= 1 and step (%g) > 0", from, to, step)
	}
	n := int(math.Floor((to-from)/step+1e-9)) + 1
	if n > 1000 {
		return nil, fmt.Errorf("sweep: %d thresholds is too many (at most 1000)", n)
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = math.Round((from+float64(i)*step)*1e6) / 1e6
	}
	return out, nil
}

// Point is the evaluation of one decision of a method.
type Point struct {
	// Threshold is the threshold of the point; NaN for the Default point of
	// a rule method, which no threshold gives.
	Threshold float64
	eval.Result
}

// Curve is one method's sweep.
type Curve struct {
	Method string
	// Name labels the curve: the method, with what is varied when that is
	// not its threshold ("minhash (containment)").
	Name string
	// Swept says what the thresholds apply to (see Describe).
	Swept string
	// Points are the evaluations at each threshold, in Options.Thresholds
	// order.
	Points []Point
	// Default is the evaluation of the method's own decision with the
	// options given: its configured threshold or its rule.
	Default Point
	// Pairs counts the scored pairs the one run reported.
	Pairs int
	// Seconds is how long the run and the scoring took.
	Seconds float64
}

// Best returns the point of c with the highest value of score, the lowest
// threshold on ties.
func (c *Curve) Best(score func(*eval.Result) float64) Point {
	best := c.Points[0]
	for _, p := range c.Points[1:] {
		if score(&p.Result) > score(&best.Result) {
			best = p
		}
	}
	return best
}

// PairF1 and BCubedF1 are the scores Curve.Best usually ranks by; BCubedF1
// is 0 for a pair-form truth.
func PairF1(r *eval.Result) float64 { return r.Pairs.F1 }

// BCubedF1 is the B-cubed F1 of r's clusters; 0 for a pair-form truth.
func BCubedF1(r *eval.Result) float64 {
	if r.Clusters == nil {
		return 0
	}
	return r.Clusters.BCubedF1
}

// Result is a whole sweep.
type Result struct {
	Truth      eval.TruthSummary
	Documents  int
	Thresholds []float64
	Curves     []Curve
}

// Sweep runs every method of opts once over docs and evaluates each
// threshold against truth.
func Sweep(ctx context.Context, docs []core.Document, truth *eval.Truth, opts Options) (*Result, error) {
	if len(opts.Thresholds) == 0 {
		return nil, fmt.Errorf("sweep: no thresholds")
	}
	if v := opts.Vary; v != "" && v != VaryThreshold && v != VaryContainment {
		return nil, fmt.Errorf("sweep: cannot vary %q (want %s or %s)", v, VaryThreshold, VaryContainment)
	}
	configs := opts.Methods
	if len(configs) == 0 {
		configs = []engine.Config{methods.All[0].Defaults(), methods.All[1].Defaults()}
	}
	ord := make(map[string]int32, len(docs))
	for i, d := range docs {
		ord[d.ID] = int32(i)
	}
	res := &Result{Documents: len(docs), Thresholds: opts.Thresholds}
	for _, cfg := range configs {
		m := cfg.Method()
		if opts.Progress != nil {
			opts.Progress(m, false, 0)
		}
		c, err := sweepMethod(ctx, docs, ord, truth, cfg, opts)
		if err != nil {
			return nil, fmt.Errorf("sweep: %s: %w", m, err)
		}
		if opts.Progress != nil {
			opts.Progress(m, true, c.Seconds)
		}
		res.Curves = append(res.Curves, *c)
	}
	res.Truth = eval.NewReport(truth, nil).Truth
	if len(res.Curves) > 0 && len(res.Curves[0].Points) > 0 {
		res.Truth.Pairs = res.Curves[0].Points[0].Pairs.Truth
	}
	return res, nil
}

// sweepMethod runs one method and evaluates every threshold.
func sweepMethod(ctx context.Context, docs []core.Document, ord map[string]int32, truth *eval.Truth,
	o engine.Config, opts Options) (*Curve, error) {
	start := time.Now()
	vary := cmp.Or(opts.Vary, VaryThreshold)
	ro, err := runOptions(o, opts.Thresholds[0], vary)
	if err != nil {
		return nil, err
	}
	run, err := Run(ctx, docs, ro, opts.Workers)
	if err != nil {
		return nil, err
	}
	ps, err := scorePairs(run.Pairs, ord, ro, vary)
	if err != nil {
		return nil, err
	}
	run = nil // the scored pairs are all that is needed
	c := &Curve{Method: o.Method(), Name: o.Method(), Swept: Describe(ro, vary), Pairs: len(ps)}
	at := defaultAt(o, vary)
	if vary == VaryContainment {
		c.Name += " (containment)"
	}
	ids := make([]string, len(docs))
	for i, d := range docs {
		ids[i] = d.ID
	}
	for _, t := range opts.Thresholds {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c.Points = append(c.Points, Point{Threshold: t,
			Result: evaluate(truth, ids, ps, func(s scored) bool { return s.duplicateAt(t) })})
	}
	if ruleMethod(o) {
		c.Default = Point{Threshold: math.NaN(), Result: evaluate(truth, ids, ps, func(s scored) bool { return s.ruleDup })}
	} else {
		c.Default = Point{Threshold: at,
			Result: evaluate(truth, ids, ps, func(s scored) bool { return s.duplicateAt(at) })}
	}
	c.Seconds = time.Since(start).Seconds()
	return c, nil
}

// evaluate scores the clusters that the pairs dup keeps give: their
// connected components, as neardup dedup groups duplicates.
func evaluate(truth *eval.Truth, ids []string, ps []scored, dup func(scored) bool) eval.Result {
	var uf cluster.UnionFind
	uf.Grow(len(ids))
	for _, s := range ps {
		if dup(s) {
			uf.Union(s.a, s.b)
		}
	}
	groups := uf.Groups()
	p := &eval.Prediction{Clusters: make([][]string, len(groups))}
	for i, g := range groups {
		members := make([]string, len(g))
		for k, d := range g {
			members[k] = ids[d]
		}
		p.Clusters[i] = members
	}
	return eval.Evaluate(truth, p)
}
