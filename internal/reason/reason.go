// Package reason says in words why a method labelled a pair as it did:
// what the two texts share, by the measure of the pair's evidence, and
// which bound or rule of the method's options that meets. The web UI's
// diff page and the HTML report of a run say it in the same words.
package reason

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/templates"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/rarewords"
)

// Pair is what a reason reads of a pair.
type Pair struct {
	// Method is the name of the method that found the pair.
	Method string
	// Exact says the pair is an exact copy an index found without
	// comparing by the method (the index's "exact" pairs): its evidence
	// says by what (URL, content, slug).
	Exact bool
	Score float64
	Label core.Label
	// Evidence is the pair's evidence as the outputs and the store write
	// it (JSON), with the pair's A as "a".
	Evidence json.RawMessage
}

// evidence holds the fields of the methods' evidence that a reason reads;
// each method fills its own (see the method packages' Evidence).
type evidence struct {
	By            string   `json:"by"`      // exact
	Slug          string   `json:"slug"`    // exact, by slug
	Removed       bool     `json:"removed"` // exact, found equal to a document removed since
	Measure       string   `json:"measure"` // minhash, simhash: what decided
	Jaccard       *float64 `json:"jaccard"`
	ContainmentAB float64  `json:"containment_ab"`
	ContainmentBA float64  `json:"containment_ba"`
	Distance      *int     `json:"distance"`          // simhash
	TitleCosine   *float64 `json:"title_cosine"`      // tfidf
	BodyCosine    float64  `json:"body_cosine"`       // tfidf
	Clause        string   `json:"rule"`              // tfidf
	Shared        *int     `json:"shared"`            // sentences
	SharedRare    *int     `json:"shared_rare_words"` // rarewords
	AInB          float64  `json:"a_in_b"`            // rarewords
	BInA          float64  `json:"b_in_a"`            // rarewords
}

// bounds are the options of the method a reason quotes.
type bounds struct {
	Threshold   float64 `json:"threshold"`
	Similar     float64 `json:"similar"`
	Containment float64 `json:"containment"`
}

// Say says in words why pair m is labelled as it is, from its evidence
// and options, the method's options as JSON (as an index stores them):
// what the two texts share and which bound that meets. sideA and sideB
// name m's A and B in the sentence ("the left text"). It is "" when the
// evidence says nothing it can read.
func Say(m Pair, sideA, sideB, options string) string {
	var ev evidence
	if json.Unmarshal(m.Evidence, &ev) != nil {
		return ""
	}
	var b bounds
	json.Unmarshal([]byte(options), &b) // options that do not decode leave the bounds zero, and zero bounds are left unsaid
	head := fmt.Sprintf("Marked %s by %s: ", m.Label, m.Method)
	switch {
	case m.Exact:
		return head + exactReason(ev)
	case ev.Jaccard != nil:
		return head + setReason(m, ev, b, options, sideA, sideB)
	case ev.TitleCosine != nil:
		s := fmt.Sprintf("their titles have a cosine of %s and their bodies %s", Decimal(*ev.TitleCosine, 2), Decimal(ev.BodyCosine, 2))
		if ev.Clause != "" {
			s += fmt.Sprintf(", which meets the rule's clause %s", ev.Clause)
		}
		return head + s + "."
	case ev.SharedRare != nil:
		ab, ba := rareShares(ev.AInB, ev.BInA, options)
		return head + fmt.Sprintf("they share %d rare words: %s of %s's rare words are in %s, and %s of %s's in %s.",
			*ev.SharedRare, ab, sideA, sideB, ba, sideB, sideA)
	case ev.Shared != nil:
		return head + fmt.Sprintf("they share %d %s; the score %s.", *ev.Shared, plural(*ev.Shared, "sentence", "sentences"), boundSaid(m, b, options))
	case m.Method == "cosine":
		return head + fmt.Sprintf("their score is the cosine of their weighted words and word pairs; the score %s.", boundSaid(m, b, options))
	}
	return ""
}

// exactReason says what two exact copies have in common.
func exactReason(ev evidence) string {
	if ev.Removed {
		what := map[string]string{"url": "the URL it is stored under", "content": "its title and text", "slug": fmt.Sprintf("the article slug “%s” of its URL", ev.Slug)}[ev.By]
		if what == "" {
			return "an exact copy of a document since removed, whose place the other took."
		}
		return fmt.Sprintf("an exact copy of a document since removed, whose place the other took: %s was that document's.", what)
	}
	switch ev.By {
	case "url":
		return "an exact copy: both are stored under one URL, taken for one page fetched twice, their texts not compared."
	case "content":
		return "an exact copy: the same title and text, white space and case aside."
	case "slug":
		return fmt.Sprintf("an exact copy: both URLs carry the article slug “%s”.", ev.Slug)
	}
	return "an exact copy."
}

// setReason says how much of each text's units (shingles, features) the
// other holds, and the rule that gave the pair its label.
func setReason(m Pair, ev evidence, b bounds, options, sideA, sideB string) string {
	s := fmt.Sprintf("%s of %s's shingles appear in %s, and %s of %s's in %s (Jaccard %s",
		Percent(ev.ContainmentAB), sideA, sideB, Percent(ev.ContainmentBA), sideB, sideA, Decimal(*ev.Jaccard, 2))
	if ev.Distance != nil {
		s += fmt.Sprintf(", fingerprints %d bits apart", *ev.Distance)
	}
	s += ")"
	if m.Method == minhash.Name {
		return s + minhashSaid(m, options, sideA, sideB)
	}
	inside := max(ev.ContainmentAB, ev.ContainmentBA)
	byContainment := ev.Measure == "containment" || // a mark stored before the evidence named its measure:
		ev.Measure == "" && m.Score < b.Threshold && inside >= b.Containment
	if m.Label == core.Duplicate && b.Containment > 0 && b.Containment <= 1 && byContainment {
		return s + fmt.Sprintf(": %s is %s inside the other, at least the containment bound of %s.",
			smallerSide(ev.ContainmentAB, ev.ContainmentBA, sideA, sideB), Percent(inside), Percent(max(b.Containment, b.Threshold)))
	}
	return s + fmt.Sprintf("; the score %s.", boundSaid(m, b, options))
}

// smallerSide names the text more of which the other holds: sideA when
// ab, the share of A in B, is the larger.
func smallerSide(ab, ba float64, sideA, sideB string) string {
	if ba > ab {
		return sideB
	}
	return sideA
}

// boundSaid writes a pair's score and the bound it meets for its label; a
// similar pair scoring at least the duplicate threshold says which
// template rule (templates.Rules.Veto) refused it as a duplicate.
func boundSaid(m Pair, b bounds, options string) string {
	switch {
	case m.Label == core.Duplicate && b.Threshold > 0:
		return fmt.Sprintf("%s is at least the duplicate threshold %s", scoreSaid(m.Score, b.Threshold), trimFloat(b.Threshold))
	case m.Label == core.Similar && b.Threshold > 0 && m.Score >= b.Threshold:
		s := fmt.Sprintf("%s is at least the duplicate threshold %s, but %s", scoreSaid(m.Score, b.Threshold), trimFloat(b.Threshold),
			refusalSaid(templateVeto(m.Evidence, options), false))
		if b.Similar > 0 {
			s += fmt.Sprintf("; it is at least the similar bound %s", trimFloat(b.Similar))
		}
		return s
	case m.Label == core.Similar && b.Similar > 0 && b.Threshold > 0:
		return fmt.Sprintf("%s is at least the similar bound %s, below the duplicate threshold %s", scoreSaid(m.Score, b.Similar), trimFloat(b.Similar), trimFloat(b.Threshold))
	}
	return Decimal(m.Score, 3) + " is the method's"
}

// templateVeto returns the template rule that refuses a pair of evidence
// raw as a duplicate under the index's options (templates.Rules.Veto),
// for a method whose options name those rules as minhash's do.
func templateVeto(raw json.RawMessage, options string) templates.Reason {
	var ev templates.Evidence
	var o struct {
		NumberAgreement float64 `json:"number_agreement"`
		DateApart       float64 `json:"date_apart"`
		Names           bool    `json:"names"`
		Template        bool    `json:"template"`
		Slots           bool    `json:"slots"`
	}
	if json.Unmarshal(raw, &ev) != nil || json.Unmarshal([]byte(options), &o) != nil {
		return templates.None
	}
	r := templates.Rules{NumberAgreement: o.NumberAgreement, DateApart: o.DateApart, Names: o.Names, Template: o.Template, Slots: o.Slots}
	return r.Veto(&ev)
}

// refusals says, for each template rule, what it finds and the flag that
// sets it.
var refusals = map[templates.Reason]struct{ why, flag string }{
	templates.Figures:  {"they share too few of their figures", "--number-agreement"},
	templates.Dateline: {"their datelines name other days", "--date-apart"},
	templates.Names:    {"their names, titles or places say they are about different things", "--names"},
	templates.Template: {"they are one template filled in with other figures", "--template"},
	templates.Slots:    {"they are one template filled in with other words", "--slots"},
}

// refusalSaid says what refuses a pair as a duplicate: the template rule
// r, or the follow-up rule, or, when neither is known, a rule of the
// method.
func refusalSaid(r templates.Reason, followUp bool) string {
	if followUp {
		return "they are a story and its follow-up, neither holding half of the other's opening, which --follow-up refuses as a duplicate"
	}
	if f, ok := refusals[r]; ok {
		return f.why + ", which " + f.flag + " refuses as a duplicate"
	}
	return "a rule of the method refuses it as a duplicate"
}

// scoreSaid writes a score with three decimals, or with the digits it
// takes to stay on the side of bound that it is on (0.4497 under 0.45 is
// "0.4497", not "0.450").
func scoreSaid(v, bound float64) string {
	s := Decimal(v, 3)
	for digits := 4; digits <= 6; digits++ {
		var w float64
		if _, err := fmt.Sscan(s, &w); err != nil || (w >= bound) == (v >= bound) {
			break
		}
		s = Decimal(v, digits)
	}
	return s
}

// trimFloat writes a bound as options are written: 0.5, 0.85.
func trimFloat(f float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", f), "0"), ".")
}

// rareShares writes a rarewords pair's shares ab (a_in_b) and ba (b_in_a)
// as percentages, whole as percent writes them unless that would put them
// on the other side of a bound of the index's rule or threshold than the
// stored ones (rarewords.Decider): then with the decimals that keep them
// on it, as the outputs write them (2333 of 3333 rare words, similar under "min>=0.7", are
// 69.997%, not 70%). Both take the same decimals, trailing zeros dropped.
func rareShares(ab, ba float64, options string) (string, string) {
	var o rarewords.Options
	json.Unmarshal([]byte(options), &o) // an index's options always decode
	pa, pb := Percent(ab), Percent(ba)
	d, err := o.Decider()
	if err != nil {
		return pa, pb
	}
	want := d.Decide(ab, ba)
	for digits := 1; digits <= 15 && d.Decide(fromPercent(pa), fromPercent(pb)) != want; digits++ {
		pa, pb = percentDigits(ab, digits), percentDigits(ba, digits)
	}
	return pa, pb
}

// percentDigits writes share f as a percentage of at most digits decimals,
// trailing zeros dropped: 0.4 is "40%", 0.50005 at two "50.01%".
func percentDigits(f float64, digits int) string {
	s := fmt.Sprintf("%.*f", digits, 100*f)
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".") + "%"
}

// fromPercent reads a percentage percent wrote ("69.997%") as a share.
func fromPercent(s string) float64 {
	var f float64
	fmt.Sscan(strings.TrimSuffix(s, "%"), &f)
	return f / 100
}

// Percent writes a share from 0 to 1 as a whole percentage, except a share
// that rounds to 100% or 0% and is not all or nothing: that one has a
// decimal, and is never written 100% or 0%. 0.9966 is "99.7%" (290 words
// of 291, as the diff's table says), not "100%" beside a changed word.
func Percent(f float64) string {
	switch whole := fmt.Sprintf("%.0f%%", 100*f); {
	case whole == "100%" && f < 1:
		return fmt.Sprintf("%.1f%%", min(100*f, 99.9))
	case whole == "0%" && f > 0:
		return fmt.Sprintf("%.1f%%", max(100*f, 0.1))
	default:
		return whole
	}
}

// Decimal writes a score from 0 to 1 with digits decimals, except one that
// rounds to 1 or 0 and is not: that one has a decimal more, and is never
// written as 1 or 0 (0.996 is "0.996" at two decimals, not "1.00"; 0.9999
// at two is "0.999", at three "0.9999"), as Percent does.
func Decimal(f float64, digits int) string {
	one := "1." + strings.Repeat("0", digits)
	zero := "0." + strings.Repeat("0", digits)
	switch s := fmt.Sprintf("%.*f", digits, f); {
	case s == one && f < 1:
		if s = fmt.Sprintf("%.*f", digits+1, f); s == one+"0" {
			s = "0." + strings.Repeat("9", digits+1)
		}
		return s
	case s == zero && f > 0:
		if s = fmt.Sprintf("%.*f", digits+1, f); s == zero+"0" {
			s = zero + "1"
		}
		return s
	default:
		return s
	}
}

// plural returns one when n is 1 and many otherwise.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
