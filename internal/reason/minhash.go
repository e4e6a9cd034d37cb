package reason

import (
	"encoding/json"
	"fmt"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/method/minhash"
)

// minhashSaid names the rule that gave a minhash pair its label, as the
// method decides it (minhash.Options.Decide) from the mark's evidence and
// the index's options, with the figures and bounds it compares. When the
// evidence stored (an older index's) no longer gives the mark's label, it
// says that it cannot tell the rule.
func minhashSaid(m Pair, options, sideA, sideB string) string {
	o := minhash.Defaults()
	var ev minhash.Evidence
	if json.Unmarshal([]byte(options), &o) != nil || json.Unmarshal(m.Evidence, &ev) != nil {
		return "."
	}
	d := o.Decide(&ev)
	if d.Label != m.Label || d.By == "" {
		return fmt.Sprintf("; a %s by a rule of the method that the evidence stored does not show (the Jaccard index %s, the duplicate threshold %s).",
			m.Label, scoreSaid(ev.Jaccard, o.Threshold), trimFloat(o.Threshold))
	}
	if d.Label == core.Duplicate {
		return duplicateSaid(d.By, &o, &ev, sideA, sideB) + "."
	}
	s := ""
	if d.Duplicate != "" {
		s = duplicateSaid(d.Duplicate, &o, &ev, sideA, sideB) + ", but " + refusalSaid(d.Refused, d.FollowUp) + ": similar"
	}
	if d.By == minhash.ByStoryTitle {
		if s == "" {
			s = "; similar"
		}
		return s + fmt.Sprintf(" as one story rewritten: their titles share %s of their words, at least the same-story bound of %s (--story-title), and their texts some shingles, though the Jaccard index %s is below the similar bound %s.",
			Percent(ev.TitleWords), Percent(o.StoryTitle), scoreSaid(ev.Jaccard, o.Similar), trimFloat(o.Similar))
	}
	if s != "" {
		return s + fmt.Sprintf(", the Jaccard index %s at least the similar bound %s.", scoreSaid(ev.Jaccard, o.Similar), trimFloat(o.Similar))
	}
	return fmt.Sprintf("; the Jaccard index %s is at least the similar bound %s, below the duplicate threshold %s.",
		scoreSaid(ev.Jaccard, o.Similar), trimFloat(o.Similar), trimFloat(o.Threshold))
}

// duplicateSaid says how a pair's scores meet the duplicate's rule by: a
// clause that follows the shares the texts hold of each other.
func duplicateSaid(by minhash.Rule, o *minhash.Options, ev *minhash.Evidence, sideA, sideB string) string {
	inside := ev.Containment()
	smaller := smallerSide(ev.ContainmentAB, ev.ContainmentBA, sideA, sideB)
	switch by {
	case minhash.ByThreshold:
		return fmt.Sprintf("; the Jaccard index %s is at least the duplicate threshold %s", scoreSaid(ev.Jaccard, o.Threshold), trimFloat(o.Threshold))
	case minhash.ByContainment:
		return fmt.Sprintf(": %s is %s inside the other, at least the containment bound of %s", smaller, Percent(inside), Percent(max(o.Containment, o.Threshold)))
	case minhash.ByRewrite:
		hours := "?"
		if ev.HoursApart != nil {
			hours = trimFloat(*ev.HoursApart)
		}
		return fmt.Sprintf("; the Jaccard index %s is below the duplicate threshold %s but at least the rewrite bound %s (--rewrite), and they are dated %s hours apart (at most %d) with nothing of their template changed: one story rewritten the same day",
			scoreSaid(ev.Jaccard, o.Rewrite), trimFloat(o.Threshold), trimFloat(o.Rewrite), hours, minhash.RewriteHours)
	case minhash.ByFigures:
		short := fmt.Sprintf("the Jaccard index %s at most %s below the threshold", scoreSaid(ev.Jaccard, o.Threshold), trimFloat(minhash.FiguresSlack))
		if ev.Jaccard < o.Threshold-minhash.FiguresSlack {
			short = fmt.Sprintf("at most %s below the containment bound of %s", trimFloat(minhash.FiguresSlack), Percent(max(o.Containment, o.Threshold)))
		}
		return fmt.Sprintf(": their figures agree (every figure of the one with fewer is in the other), and %s is %s inside the other, at least the duplicate threshold %s, %s",
			smaller, Percent(inside), trimFloat(o.Threshold), short)
	}
	return ""
}
