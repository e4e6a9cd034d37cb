package gen

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Op names an edit that turns an original into a copy. The names appear in
// the truth file's "ops" field.
type Op string

// The edits real reprints show, in the order they are applied to a copy.
const (
	Truncate       Op = "truncate"        // keep the first paragraphs, at least half the text
	DeleteSentence Op = "delete-sentence" // drop one or two sentences
	SwapSentences  Op = "swap-sentences"  // exchange two neighbouring sentences
	InsertSentence Op = "insert-sentence" // add one or two sentences from another article
	Spelling       Op = "spelling"        // American to British spelling, U.S. to US
	NumberFormat   Op = "number-format"   // 1,000↔1000, pct→%/per cent, mln→million
	Glue           Op = "glue"            // paragraphs joined without a space ("here.Another")
	NewHeadline    Op = "new-headline"    // another headline and a new dateline
	OCRLight       Op = "ocr-light"       // character noise on about 1 % of characters
	OCRHeavy       Op = "ocr-heavy"       // character noise on about 6 % of characters
	Boilerplate    Op = "boilerplate"     // site lines above and below the text
)

// TemplateNegative marks a document made from a templated story with another
// company and other figures: a new story, not a copy.
const TemplateNegative Op = "template-negative"

// AllOps returns every copy edit in application order.
func AllOps() []Op {
	return []Op{Truncate, DeleteSentence, SwapSentences, InsertSentence, Spelling,
		NumberFormat, Glue, NewHeadline, OCRLight, OCRHeavy, Boilerplate}
}

// ParseOps reads a comma-separated list of op names.
func ParseOps(s string) ([]Op, error) {
	var ops []Op
	for _, f := range strings.Split(s, ",") {
		op := Op(strings.TrimSpace(f))
		if op == "" {
			continue
		}
		if !slices.Contains(AllOps(), op) {
			return nil, fmt.Errorf("gen: unknown op %q", op)
		}
		ops = append(ops, op)
	}
	return ops, nil
}

// editor applies ops to one article with the copy's random source.
type editor struct {
	rng  *rand.Rand
	g    *generator
	self int   // prepared base the original came from; never a donor of sentences
	site *site // the copy's publisher
	// titleReplaced is set by newHeadline when the new headline holds
	// nothing of the old one, so that the edits of the old one are gone.
	titleReplaced bool
	before, after []byte // scratch renderings of the body
}

// apply runs op on a and reports whether it changed anything; an op that
// does not fit the article (truncating one paragraph) leaves it unchanged.
func (e *editor) apply(op Op, a *article) bool {
	switch op {
	case Truncate:
		return e.truncate(a)
	case DeleteSentence:
		return e.deleteSentence(a)
	case SwapSentences:
		return e.swapSentences(a)
	case InsertSentence:
		return e.insertSentence(a)
	case Spelling:
		return rewriteTokens(a, britishToken)
	case NumberFormat:
		return e.numberFormat(a)
	case Glue:
		return e.glue(a)
	case NewHeadline:
		return e.newHeadline(a)
	case OCRLight:
		return e.ocr(a, 0.01)
	case OCRHeavy:
		return e.ocr(a, 0.06)
	case Boilerplate:
		return e.boilerplate(a)
	}
	panic("gen: unknown op " + string(op))
}

// chooseAndApply picks 1..maxOps distinct ops from ops, applies them in
// canonical order and returns those whose change the article carries. At
// least one op is applied when any fits.
func (e *editor) chooseAndApply(a *article, ops []Op, maxOps int) []Op {
	order := slices.Clone(ops)
	e.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	k := 1 + e.rng.IntN(maxOps)
	var chosen []Op
	rest := order[:0:0]
	for _, op := range order {
		ocrClash := (op == OCRLight && slices.Contains(chosen, OCRHeavy)) ||
			(op == OCRHeavy && slices.Contains(chosen, OCRLight))
		if len(chosen) < k && !ocrClash {
			chosen = append(chosen, op)
		} else if !ocrClash {
			rest = append(rest, op)
		}
	}
	slices.SortFunc(chosen, func(x, y Op) int { return opRank(x) - opRank(y) })
	applied := e.applyAll(a, chosen)
	for _, op := range rest {
		if len(applied) > 0 {
			break
		}
		if e.apply(op, a) {
			applied = append(applied, op)
		}
	}
	return applied
}

// applyAll applies ops to a in order and returns those whose change a
// carries: an op that changed the title alone is left out when a later new
// headline replaces the title.
func (e *editor) applyAll(a *article, ops []Op) []Op {
	var applied []Op
	var titleOnly []bool
	e.before = a.appendText(e.before[:0])
	for _, op := range ops {
		title := a.title
		e.titleReplaced = false
		if !e.apply(op, a) {
			continue
		}
		e.after = a.appendText(e.after[:0])
		if e.titleReplaced {
			kept := 0
			for i, op := range applied {
				if !titleOnly[i] {
					applied[kept], titleOnly[kept] = op, false
					kept++
				}
			}
			applied, titleOnly = applied[:kept], titleOnly[:kept]
		}
		applied = append(applied, op)
		titleOnly = append(titleOnly, a.title != title && string(e.before) == string(e.after))
		e.before, e.after = e.after, e.before
	}
	return applied
}

func opRank(op Op) int { return slices.Index(AllOps(), op) }

func (e *editor) truncate(a *article) bool {
	n := len(a.paras)
	if n < 2 {
		return false
	}
	sizes := make([]int, n)
	total := 0
	for i, p := range a.paras {
		for _, s := range p {
			sizes[i] += len(s) + 1
		}
		total += sizes[i]
	}
	kmin, cum := 0, 0
	for kmin < n && cum*2 < total {
		cum += sizes[kmin]
		kmin++
	}
	if kmin >= n {
		return false
	}
	a.paras = a.paras[:kmin+e.rng.IntN(n-kmin)]
	return true
}

func (e *editor) deleteSentence(a *article) bool {
	n := a.sentences()
	if n < 3 {
		return false
	}
	del := 1
	if n >= 10 {
		del += e.rng.IntN(2)
	}
	for range del {
		p, i := a.locate(e.rng.IntN(a.sentences()))
		a.paras[p] = slices.Delete(a.paras[p], i, i+1)
		a.dropEmpty()
	}
	return true
}

func (e *editor) swapSentences(a *article) bool {
	n := a.sentences()
	for range 4 {
		if n < 2 {
			return false
		}
		k := e.rng.IntN(n - 1)
		p1, i1 := a.locate(k)
		p2, i2 := a.locate(k + 1)
		if a.paras[p1][i1] == a.paras[p2][i2] {
			continue
		}
		a.paras[p1][i1], a.paras[p2][i2] = a.paras[p2][i2], a.paras[p1][i1]
		return true
	}
	return false
}

// minDonorSentences is the fewest sentences an article must have to give
// sentences to another: two inserted sentences are then less than half of
// it, so a copy never holds most of an unrelated story.
const minDonorSentences = 5

func (e *editor) insertSentence(a *article) bool {
	count := 1 + e.rng.IntN(2)
	inserted := 0
	for try := 0; try < 16 && inserted < count; try++ {
		d := e.rng.IntN(len(e.g.bases))
		donor := &e.g.bases[d]
		if d == e.self || donor.sentences() < minDonorSentences {
			continue
		}
		dp := donor.paras[e.rng.IntN(len(donor.paras))]
		s := dp[e.rng.IntN(len(dp))]
		if len(strings.Fields(s)) < 5 {
			continue
		}
		if len(a.paras) == 0 || e.rng.IntN(3) == 0 {
			at := e.rng.IntN(len(a.paras) + 1)
			a.paras = slices.Insert(a.paras, at, []string{s})
		} else {
			p := e.rng.IntN(len(a.paras))
			a.paras[p] = slices.Insert(a.paras[p], e.rng.IntN(len(a.paras[p])+1), s)
		}
		inserted++
	}
	return inserted > 0
}

// glue joins paragraphs without whitespace, as a careless extractor does
// with </p><p>; a one-paragraph text gets its sentences glued instead.
func (e *editor) glue(a *article) bool {
	if len(a.paras) >= 2 {
		out := [][]string{a.paras[0]}
		glued := false
		for i, p := range a.paras[1:] {
			if e.rng.IntN(2) == 0 && !(i == len(a.paras)-2 && !glued) {
				out = append(out, p)
				continue
			}
			last := out[len(out)-1]
			last[len(last)-1] += p[0]
			out[len(out)-1] = append(last, p[1:]...)
			glued = true
		}
		a.paras = out
		return true
	}
	if len(a.paras) == 1 && len(a.paras[0]) >= 2 {
		p := a.paras[0]
		i := e.rng.IntN(len(p) - 1)
		p[i] += p[i+1]
		a.paras[0] = slices.Delete(p, i+1, i+2)
		return true
	}
	return false
}

func (e *editor) boilerplate(a *article) bool {
	lines := e.site.boilerplate
	pick := e.rng.Perm(len(lines))
	nHead := e.rng.IntN(3)
	nFoot := 1 + e.rng.IntN(3)
	for _, i := range pick[:nHead] {
		a.head = append(a.head, lines[i])
	}
	for _, i := range pick[nHead : nHead+nFoot] {
		a.foot = append(a.foot, lines[i])
	}
	return true
}
