package sweep

import (
	"fmt"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/dedup"
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
// scores instead of a threshold on one.
func ruleMethod(method string) bool {
	return method == dedup.MethodTFIDF || method == dedup.MethodRareWords
}

// What a sweep varies (Options.Vary).
const (
	// VaryThreshold sweeps each method's threshold (see the package
	// documentation).
	VaryThreshold = "threshold"
	// VaryContainment sweeps the minhash containment threshold
	// (Options.Containment) with the Jaccard threshold as configured.
	VaryContainment = "containment"
)

// runOptions returns the options of the one run that serves a sweep whose
// lowest threshold is low: every pair that can be a duplicate at low, or
// at the method's configured threshold, is reported.
func runOptions(o dedup.Options, low float64, vary string) (dedup.Options, error) {
	def, err := o.Defaults()
	if err != nil {
		return o, err
	}
	switch {
	case vary == VaryContainment && def.Method != dedup.MethodMinHash:
		return o, fmt.Errorf("only minhash has a containment threshold to sweep")
	case vary == VaryContainment:
		// Threshold and Similar stay as configured: they choose the LSH
		// bands, and so the candidates, of a run at any containment.
		o.Containment = min(low, def.Containment)
	case def.Method == dedup.MethodTFIDF:
		o.Similar = low
	case def.Method == dedup.MethodRareWords:
		// Threshold is the share a best match must hold to be reported.
		o.Threshold = min(low, def.Threshold)
		o.Similar = o.Threshold
	default:
		o.Threshold = min(low, def.Threshold)
		o.Similar = o.Threshold
	}
	return o, nil
}

// scorePairs turns a run's pairs into scored pairs. ord maps ids to
// ordinals; o are the run's options, defaults filled in.
func scorePairs(pairs []core.Pair, ord map[string]int32, o dedup.Options, vary string) ([]scored, error) {
	out := make([]scored, 0, len(pairs))
	for _, p := range pairs {
		a, okA := ord[p.A]
		b, okB := ord[p.B]
		if !okA || !okB {
			return nil, fmt.Errorf("sweep: pair %s, %s names a document the corpus lacks", p.A, p.B)
		}
		s := scored{a: a, b: b, score: p.Score, ruleDup: p.Label == core.Duplicate}
		if ev, ok := p.Evidence.(*dedup.MinHashEvidence); ok && o.Method == dedup.MethodMinHash {
			minHashScore(&s, p.Label, ev, o, vary)
		}
		out = append(out, s)
	}
	return out, nil
}

// minHashScore re-decides a minhash pair by its Jaccard or, when vary is
// VaryContainment, by the larger of its two containments. The run's
// threshold on the varied score is at or below every swept one, so a pair
// it did not label duplicate failed the number check or is below every
// swept threshold.
func minHashScore(s *scored, l core.Label, ev *dedup.MinHashEvidence, o dedup.Options, vary string) {
	containment := max(ev.ContainmentAB, ev.ContainmentBA)
	s.never = l != core.Duplicate
	if vary == VaryContainment {
		s.score = containment
		s.always = !s.never && ev.Jaccard >= o.Threshold
		return
	}
	s.score = ev.Jaccard
	s.always = !s.never && containment >= o.Containment
}

// Describe says what a method's sweep applies the threshold to, given the
// options in force and what is varied.
func Describe(o dedup.Options, vary string) string {
	if vary == VaryContainment {
		return fmt.Sprintf("larger containment of the %s (a duplicate also at Jaccard >= %g; the figures check, < %g shared vetoes, applies)",
			shingles(o), o.Threshold, o.NumberAgreement)
	}
	switch o.Method {
	case dedup.MethodMinHash:
		return fmt.Sprintf("Jaccard of the %s; containment >= %g and the figures check (< %g shared vetoes) apply at every threshold",
			shingles(o), o.Containment, o.NumberAgreement)
	case dedup.MethodSentences:
		return "Jaccard of the sentence sets"
	case dedup.MethodTFIDF:
		return "body TF-IDF cosine, the score tfidf reports; its rule is not applied (the default row is the rule's result)"
	case dedup.MethodRareWords:
		return "larger rare-word containment of the best-match pairs, the score rarewords reports; its rule is not applied (the default row is the rule's result)"
	case dedup.MethodCosine:
		return "cosine of the word and bigram vectors"
	}
	return "score"
}

// shingles names minhash's shingle sets: "character 6-shingles".
func shingles(o dedup.Options) string {
	unit := "word"
	if o.ShingleUnit == dedup.ShingleChars {
		unit = "character"
	}
	return fmt.Sprintf("%s %d-shingles", unit, o.Shingle)
}
