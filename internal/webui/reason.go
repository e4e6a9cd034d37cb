package webui

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/server/browse"
)

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

// bounds are the options of the index's method a reason quotes.
type bounds struct {
	Threshold   float64 `json:"threshold"`
	Similar     float64 `json:"similar"`
	Containment float64 `json:"containment"`
}

// reason says in words why a pair is marked as it is, from its evidence
// and the index's options: what the two texts share and which bound that
// meets. left says whether the mark's A is the diff's left text. It is ""
// when the evidence says nothing it can read.
func reason(m browse.Mark, left bool, options string) string {
	var ev evidence
	if json.Unmarshal(m.Evidence, &ev) != nil {
		return ""
	}
	var b bounds
	json.Unmarshal([]byte(options), &b) // an index's options always decode; zero bounds are left unsaid
	sideA, sideB := "the left text", "the right text"
	if !left {
		sideA, sideB = sideB, sideA
	}
	head := fmt.Sprintf("Marked %s by %s: ", m.Label, m.Method)
	switch {
	case m.Method == neardup.ExactMethod:
		return head + exactReason(ev)
	case ev.Jaccard != nil:
		return head + setReason(m, ev, b, sideA, sideB)
	case ev.TitleCosine != nil:
		s := fmt.Sprintf("their titles have a cosine of %s and their bodies %s", decimal(*ev.TitleCosine, 2), decimal(ev.BodyCosine, 2))
		if ev.Clause != "" {
			s += fmt.Sprintf(", which meets the rule's clause %s", ev.Clause)
		}
		return head + s + "."
	case ev.SharedRare != nil:
		return head + fmt.Sprintf("they share %d rare words: %s of %s's rare words are in %s, and %s of %s's in %s.",
			*ev.SharedRare, percent(ev.AInB), sideA, sideB, percent(ev.BInA), sideB, sideA)
	case ev.Shared != nil:
		return head + fmt.Sprintf("they share %d %s; the score %s %s.", *ev.Shared, plural(*ev.Shared, "sentence", "sentences"), decimal(m.Score, 3), boundSaid(m, b))
	}
	return ""
}

// exactReason says what two exact copies have in common.
func exactReason(ev evidence) string {
	if ev.Removed {
		what := map[string]string{"url": "its canonical URL", "content": "its title and text", "slug": fmt.Sprintf("the article slug “%s” of its URL", ev.Slug)}[ev.By]
		if what == "" {
			return "an exact copy of a document since removed, whose place the other took."
		}
		return fmt.Sprintf("an exact copy of a document since removed, whose place the other took: %s was that document's.", what)
	}
	switch ev.By {
	case "url":
		return "an exact copy: both have one canonical URL."
	case "content":
		return "an exact copy: the same title and text, white space and case aside."
	case "slug":
		return fmt.Sprintf("an exact copy: both URLs carry the article slug “%s”.", ev.Slug)
	}
	return "an exact copy."
}

// setReason says how much of each text's units (shingles, features) the
// other holds, and the bound that admitted the pair.
func setReason(m browse.Mark, ev evidence, b bounds, sideA, sideB string) string {
	unit := "shingles"
	s := fmt.Sprintf("%s of %s's %s appear in %s, and %s of %s's in %s (Jaccard %s",
		percent(ev.ContainmentAB), sideA, unit, sideB, percent(ev.ContainmentBA), sideB, sideA, decimal(*ev.Jaccard, 2))
	if ev.Distance != nil {
		s += fmt.Sprintf(", fingerprints %d bits apart", *ev.Distance)
	}
	s += ")"
	inside := max(ev.ContainmentAB, ev.ContainmentBA)
	byContainment := ev.Measure == "containment" || // a mark stored before the evidence named its measure:
		ev.Measure == "" && m.Score < b.Threshold && inside >= b.Containment
	if m.Label == core.Duplicate && b.Containment > 0 && b.Containment <= 1 && byContainment {
		smaller := sideA
		if ev.ContainmentBA > ev.ContainmentAB {
			smaller = sideB
		}
		return s + fmt.Sprintf(": %s is %s inside the other, at least the containment bound of %s.", smaller, percent(inside), percent(max(b.Containment, b.Threshold)))
	}
	return s + fmt.Sprintf("; the score %s %s.", decimal(m.Score, 3), boundSaid(m, b))
}

// boundSaid names the bound a pair's score meets for its label.
func boundSaid(m browse.Mark, b bounds) string {
	switch {
	case m.Label == core.Duplicate && b.Threshold > 0:
		return fmt.Sprintf("is at least the duplicate threshold %s", trimFloat(b.Threshold))
	case m.Label == core.Similar && b.Similar > 0 && b.Threshold > 0:
		return fmt.Sprintf("is at least the similar bound %s, below the duplicate threshold %s", trimFloat(b.Similar), trimFloat(b.Threshold))
	}
	return "is the method's"
}

// trimFloat writes a bound as options are written: 0.5, 0.85.
func trimFloat(f float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", f), "0"), ".")
}
