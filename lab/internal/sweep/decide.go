package sweep

import (
	"fmt"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/flagopts"
	"github.com/neardup/neardup/method/minhash"
)

// scored is one reported pair as the sweep re-decides it: a duplicate at
// threshold t when !never && (always || score >= t).
type scored struct {
	a, b  int32 // document ordinals
	score float64
	// always: the method's own rules make the pair a duplicate whatever
	// the threshold (minhash containment). never: they veto it whatever
	// the threshold (minhash number check).
	always, never bool
	// ruleDup is the method's own label: duplicate by its rule or
	// configured threshold. Only rule methods' Default point reads it.
	ruleDup bool
}

// duplicateAt reports whether the pair is a duplicate at threshold t.
func (s scored) duplicateAt(t float64) bool {
	return !s.never && (s.always || s.score >= t)
}

// ruleMethod reports whether the method decides by a rule over several
// scores instead of a threshold on one: its options have no threshold.
func ruleMethod(c engine.Config) bool {
	_, ok := flagopts.Get(c, "threshold")
	return !ok || c.Method() == "rarewords"
}

// What a sweep varies (Options.Vary).
const (
	// VaryThreshold sweeps each method's threshold (see the package
	// documentation).
	VaryThreshold = "threshold"
	// VaryContainment sweeps the minhash containment threshold with the
	// Jaccard threshold as configured.
	VaryContainment = "containment"
)

// defaultAt returns the option a sweep of c varies, as configured.
func defaultAt(c engine.Config, vary string) float64 {
	name := "threshold"
	if vary == VaryContainment {
		name = "containment"
	}
	v, _ := flagopts.Get(c, name)
	f, _ := v.(float64)
	return f
}

// runOptions returns the options of the one run that serves a sweep whose
// lowest threshold is low: every pair that can be a duplicate at low, or
// at the method's configured threshold, is reported.
func runOptions(c engine.Config, low float64, vary string) (engine.Config, error) {
	set := func(c engine.Config, name string, v float64) engine.Config {
		next, err := flagopts.Set(c, name, v)
		if err != nil {
			panic(err) // every method sets threshold and similar: checked by the callers' tests
		}
		return next
	}
	_, hasThreshold := flagopts.Get(c, "threshold")
	switch {
	case vary == VaryContainment && c.Method() != minhash.Name:
		return c, fmt.Errorf("only minhash has a containment threshold to sweep")
	case vary == VaryContainment:
		// Threshold and Similar stay as configured: they choose the LSH
		// bands, and so the candidates, of a run at any containment.
		return set(c, "containment", min(low, defaultAt(c, vary))), nil
	case !hasThreshold: // tfidf: its rule decides; similar pairs carry the body cosine
		return set(c, "similar", low), nil
	default:
		// rarewords: the threshold is the share a best match must hold
		// to be reported, and it has no similar threshold.
		t := min(low, defaultAt(c, vary))
		c = set(c, "threshold", t)
		if _, ok := flagopts.Get(c, "similar"); ok {
			c = set(c, "similar", t)
		}
		return c, nil
	}
}

// scorePairs turns a run's pairs into scored pairs. ord maps ids to
// ordinals; c are the run's options.
func scorePairs(pairs []core.Pair, ord map[string]int32, c engine.Config, vary string) ([]scored, error) {
	out := make([]scored, 0, len(pairs))
	for _, p := range pairs {
		a, okA := ord[p.A]
		b, okB := ord[p.B]
		if !okA || !okB {
			return nil, fmt.Errorf("sweep: pair %s, %s names a document the corpus lacks", p.A, p.B)
		}
		s := scored{a: a, b: b, score: p.Score, ruleDup: p.Label == core.Duplicate}
		if ev, ok := p.Evidence.(minhash.Evidence); ok {
			minHashScore(&s, p.Label, ev, c.(minhash.Options), vary)
		} else if !ruleMethod(c) {
			// A pair at or above the run's threshold that is no duplicate
			// was vetoed by a template rule, which reads the evidence, not
			// the threshold: at every threshold.
			s.never = p.Label != core.Duplicate && p.Score >= defaultAt(c, VaryThreshold)
		}
		out = append(out, s)
	}
	return out, nil
}

// minHashScore re-decides a minhash pair by its Jaccard or, when vary is
// VaryContainment, by the larger of its two containments. The run's
// threshold on the varied score is at or below every swept one, so a pair
// it did not label duplicate failed the number check or is below every
// swept threshold. A pair whose figures agree is a duplicate FiguresSlack
// below either bar (see minhash.FiguresSlack); one story rewritten the same
// day (minhash.Options.IsRewrite) is a duplicate at every threshold.
func minHashScore(s *scored, l core.Label, ev minhash.Evidence, o minhash.Options, vary string) {
	containment := max(ev.ContainmentAB, ev.ContainmentBA)
	s.never = l != core.Duplicate
	agree := !s.never && o.FiguresAgree(&ev) // both bars FiguresSlack lower
	rewrite := !s.never && o.IsRewrite(&ev)
	if vary == VaryContainment {
		s.score = containment
		s.always = !s.never && ev.Jaccard >= o.Threshold || rewrite
		if agree {
			s.score = containment + minhash.FiguresSlack
			s.always = s.always || ev.Jaccard >= o.Threshold-minhash.FiguresSlack && containment >= o.Threshold
		}
		return
	}
	s.score = ev.Jaccard
	s.always = !s.never && containment >= o.Containment || rewrite
	if agree { // the containment stays at or above the threshold
		s.score = max(s.score, min(containment, ev.Jaccard+minhash.FiguresSlack))
		s.always = s.always || containment >= o.Containment-minhash.FiguresSlack
	}
}

// Describe says what a method's sweep applies the threshold to, given the
// options in force and what is varied.
func Describe(c engine.Config, vary string) string {
	if o, ok := c.(minhash.Options); ok {
		if vary == VaryContainment {
			return fmt.Sprintf("larger containment of the %s (a duplicate also at Jaccard >= %g; the figures check, < %g shared vetoes, applies)",
				shingles(o), o.Threshold, o.NumberAgreement)
		}
		return fmt.Sprintf("Jaccard of the %s; containment >= %g and the figures check (< %g shared vetoes) apply at every threshold",
			shingles(o), o.Containment, o.NumberAgreement)
	}
	switch c.Method() {
	case "sentences":
		return "Jaccard of the sentence sets; the template rules' vetoes apply at every threshold"
	case "tfidf":
		return "body TF-IDF cosine, the score tfidf reports; its rule is not applied (the default row is the rule's result)"
	case "rarewords":
		return "larger rare-word containment of the best-match pairs, the score rarewords reports; its rule is not applied (the default row is the rule's result)"
	case "cosine":
		return "cosine of the word and bigram vectors; the template rules' vetoes apply at every threshold"
	}
	return "score"
}

// shingles names minhash's shingle sets: "character 6-shingles".
func shingles(o minhash.Options) string {
	if o.ShingleUnit == minhash.Chars {
		return fmt.Sprintf("character %d-shingles", o.CharShingle)
	}
	return fmt.Sprintf("word %d-shingles", o.WordShingle)
}
