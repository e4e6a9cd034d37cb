package minhash

import (
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/templates"
)

// Rule names a rule of the method that makes a pair a duplicate or
// similar (see Options.Decide).
type Rule string

// The rules, a duplicate's in the order Decide tries them.
const (
	ByThreshold   Rule = "threshold"   // a Jaccard index at least Threshold
	ByContainment Rule = "containment" // the smaller text at least Containment (and Threshold) inside the other
	ByRewrite     Rule = "rewrite"     // one story rewritten the same day (IsRewrite)
	ByFigures     Rule = "figures"     // figures that agree, short of the bars by at most FiguresSlack (FiguresAgree)
	BySimilar     Rule = "similar"     // a Jaccard index at least Similar
	ByStoryTitle  Rule = "story_title" // one story rewritten, by its titles' words (StoryTitle)
)

// Decision is what gives a pair its label under a method's options: the
// label ("" for none), the rule that gives it and, for a pair whose
// scores make it a duplicate that is not one, the rule that refuses it.
type Decision struct {
	Label core.Label
	// By is the rule that gives Label; "" when Label is "".
	By Rule
	// Duplicate is the duplicate's rule the pair's scores meet, before any
	// rule refuses it: By itself for a duplicate, else "" or the rule a
	// refused pair meets.
	Duplicate Rule
	// Refused is the template rule that refuses a pair whose scores make
	// it a duplicate (templates.Rules.Veto), templates.None for none.
	Refused templates.Reason
	// FollowUp reports that the pair is refused as a story and its
	// follow-up (Options.FollowUp), no template rule refusing it.
	FollowUp bool
}

// Decide returns what gives a pair of evidence ev its label under o, the
// decision Label makes: a duplicate by the first of ByThreshold,
// ByContainment, ByRewrite and ByFigures its scores meet, unless a
// template rule (templates.Rules.Veto) or the follow-up rule refuses it;
// else similar by its Jaccard index (BySimilar) or its titles' words
// (ByStoryTitle); else no label. It reads the evidence as it is stored,
// so that a pair's label can be told again from it.
func (o *Options) Decide(ev *Evidence) Decision {
	r := o.rules()
	return o.decide(&r, ev)
}

// rules returns the template rules o puts in force.
func (o *Options) rules() templates.Rules {
	return templates.Rules{NumberAgreement: o.NumberAgreement, DateApart: o.DateApart, Names: o.Names, Template: o.Template, Slots: o.Slots}
}

// decide is Decide with the template rules in force.
func (o *Options) decide(rules *templates.Rules, ev *Evidence) Decision {
	d := Decision{Duplicate: o.duplicateBy(ev)}
	if d.Duplicate != "" {
		d.Refused = rules.Veto(&ev.Evidence)
		d.FollowUp = d.Refused == templates.None && !ev.Rerun && o.FollowUp && ev.isFollowUp()
		if d.Refused == templates.None && !d.FollowUp {
			d.Label, d.By = core.Duplicate, d.Duplicate
			return d
		}
	}
	switch {
	case o.Similar > 0 && ev.Jaccard >= o.Similar:
		d.Label, d.By = core.Similar, BySimilar
	case o.sameStory(ev.TitleWords) && ev.Jaccard >= storyJaccard && ev.ForeignNames == [2]int{} && !rules.Refills(&ev.Evidence):
		d.Label, d.By = core.Similar, ByStoryTitle
	}
	return d
}

// duplicateBy returns the first rule whose bar the pair's scores meet for
// a duplicate, before any rule refuses it, or "": a Jaccard index at the
// threshold, the containment, one story rewritten the same day (see
// Options.Rewrite), or short of the bars by FiguresSlack with its figures
// agreeing (see byFigures).
func (o *Options) duplicateBy(ev *Evidence) Rule {
	switch {
	case ev.Jaccard >= o.Threshold:
		return ByThreshold
	case ev.Containment() >= o.containment():
		return ByContainment
	case o.IsRewrite(ev):
		return ByRewrite
	case o.byFigures(ev):
		return ByFigures
	}
	return ""
}

// byFigures reports whether the pair's scores make it a duplicate because
// its figures agree, before any rule vetoes it: with the figures check on
// (Options.NumberAgreement), both texts hold two figures or more and every
// figure of the one with fewer is in the other, and the scores fall short
// of the threshold or the containment by at most figuresSlack (a copy
// damaged by OCR noise, or truncated with page furniture added, whose
// figures a follow-up or a rewrite would change), its containment at least
// the threshold (its score, see scored).
func (o *Options) byFigures(ev *Evidence) bool {
	c := ev.Containment()
	return o.FiguresAgree(ev) && c >= o.Threshold &&
		(ev.Jaccard >= o.Threshold-FiguresSlack || c >= o.containment()-FiguresSlack)
}
