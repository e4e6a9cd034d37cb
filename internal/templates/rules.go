package templates

import "github.com/neardup/neardup/internal/figures"

// Rules are the vetoes in force. The zero Rules vetoes nothing but what
// NumberAgreement 0 says (nothing: an overlap is never below 0).
type Rules struct {
	// NumberAgreement: when both documents hold at least two distinct
	// figures and share less than this share of the smaller set, the pair
	// is not a duplicate. Negative turns the check off.
	NumberAgreement float64
	// DateApart: two documents whose datelines name different days and
	// whose own dates (else those days) are at least this many hours apart
	// are not duplicates. 0 turns it off.
	DateApart float64
	// Names: two documents whose names disagree are not duplicates (see
	// Evidence.NamesDisagree).
	Names bool
	// Template: one template filled in twice with other figures is not a
	// duplicate (see Evidence.Refilled).
	Template bool
	// Slots: one template filled in twice with other words (names,
	// commodities, times of day) is not a duplicate (see
	// Evidence.Refilled).
	Slots bool
}

// Reason names the rule that vetoed a pair; None for none.
type Reason string

// The vetoes, in the order Veto tries them.
const (
	None     Reason = ""
	Figures  Reason = "figures"  // too few figures shared (NumberAgreement)
	Dateline Reason = "dateline" // datelines of other days (DateApart)
	Names    Reason = "names"    // names that disagree (Names)
	Template Reason = "template" // a template filled in with other figures (Template)
	Slots    Reason = "slots"    // a template filled in with other words (Slots)
)

// Off reports whether r vetoes no pair whatever its evidence: a method
// need not compare the contexts of a pair then.
func (r *Rules) Off() bool {
	return r.NumberAgreement <= 0 && r.DateApart <= 0 && !r.Names && !r.Template && !r.Slots
}

// Verify returns what the rules read of a pair whose scores make it a
// duplicate, of the earlier document's context a and the later one's b
// (sa and sb their samples, the zero Sample for a method that keeps none):
// Compare's evidence, with what Recheck adds when no rule vetoes it yet.
func (r *Rules) Verify(a, b *Context, sa, sb Sample) Evidence {
	ev := Compare(a, b, sa, sb)
	if r.Veto(&ev) == None {
		Recheck(a, b, sa, sb, &ev)
	}
	return ev
}

// Veto returns the first rule that refuses to call the pair of evidence e
// a duplicate, or None. A title marked as a re-run ("RPT-", "CORRECTED - ")
// exempts the pair from every rule but the figures'.
func (r *Rules) Veto(e *Evidence) Reason {
	switch {
	case e.NumberOverlap != nil && *e.NumberOverlap < r.NumberAgreement:
		return Figures
	case e.Rerun:
		return None
	case r.DateApart > 0 && e.DatelinesDiffer && e.HoursApart != nil && *e.HoursApart >= r.DateApart:
		return Dateline
	case r.Names && e.NamesDisagree():
		return Names
	case r.Template && e.Refilled():
		return Template
	case r.Slots && e.WordsRefilled():
		return Slots
	}
	return None
}

// Refills reports whether the rules in force read the pair of evidence e
// as one template filled in twice: with other figures (Template: Refilled,
// titles whose figures are disjoint, or AnotherDaysItem) or with other words (Slots:
// WordsRefilled, two times of day in the headings among them). A title
// marked as a re-run exempts the pair. Whatever words their titles share,
// such documents are two reports ("MIDWEST GRAIN FUTURES 10:50 EDT" and
// "12:30 EDT", "WORLD BANK LOANS MEXICO 400 MLN DLRS" and "PAKISTAN 220
// MLN"), not one story rewritten.
func (r *Rules) Refills(e *Evidence) bool {
	return !e.Rerun && (r.Template && (e.Refilled() || e.TitleFiguresDisjoint || e.AnotherDaysItem()) || r.Slots && e.WordsRefilled())
}

// AnotherDaysItem reports whether the two documents are an item run under
// one title on other days: the same title, datelines of other days, dates
// at least a day apart (anotherDayHours) and figures changed ("PROPOSED
// OFFERINGS RECENTLY FILED WITH THE SEC" of March 9 and of March 11). A
// rewrite of one story hours later across midnight is not one. Refills
// reads it so; a duplicate's rules do not, as a copy sent again days later
// under a new dateline, a figure damaged, is still a copy when it shares
// most of its text (docs/methods-rejected.md).
func (e *Evidence) AnotherDaysItem() bool {
	return e.SameTitle && e.DatelinesDiffer && e.FiguresChanged && e.HoursApart != nil && *e.HoursApart >= anotherDayHours
}

// anotherDayHours is how many hours apart two documents under one title
// must be dated for AnotherDaysItem: a day.
const anotherDayHours = 24

// NamesDisagree reports whether the titles and names of the two documents
// say they are about different things: each holds a name the other never
// mentions (another company, fund, issuer or town in the same template)
// and their figures changed or each holds two such names; or their titles'
// figures share none (a market report of 11:10 and one of 11:31) and their
// figures changed; or their datelines name other places (OtherPlace); or
// each title names what the other document never mentions
// (ForeignTitleNames, whatever the figures: the titles name the fund or
// company a notice is about, which a copy keeps); or each marks a ticker
// or company the other never mentions (ForeignTags, whatever the figures).
func (e *Evidence) NamesDisagree() bool {
	a, b := e.ForeignNames[0], e.ForeignNames[1]
	return a > 0 && b > 0 && (e.FiguresChanged || min(a, b) >= 2) || e.TitleFiguresDisjoint && e.FiguresChanged ||
		e.OtherPlace || e.ForeignTitleNames[0] > 0 && e.ForeignTitleNames[1] > 0 ||
		e.ForeignTags[0] > 0 && e.ForeignTags[1] > 0
}

// Refilled reports whether the two documents are one template filled in
// with other figures (see figures.Refilled), datelines of different days
// counting as documents of other days; or an item of another day, dated
// at its hour (SameHour) under a dateline of another day, with another
// figure in a place both fill, or under the same title with its figures
// changed (each side one the other lacks); or titles whose figures changed
// (TitleFiguresChanged) over a place with another figure.
func (e *Evidence) Refilled() bool {
	return figures.Refilled(e.Places[0], e.Places[1], e.DatelinesDiffer) ||
		e.SameHour && e.DatelinesDiffer && (e.Places[1] >= 1 || e.SameTitle && e.FiguresChanged) ||
		e.TitleFiguresChanged && e.Places[1] >= 1
}

// WordsRefilled reports whether the two documents are one template filled
// in with other words: two places both fill with a name, a commodity or a
// time hold other words, or one does and a place both fill with a figure
// holds another figure; or their headings name two times of day
// (ReportTime) or two commodities (OtherGoods).
func (e *Evidence) WordsRefilled() bool {
	return e.Fills[1] >= 2 || e.Fills[1] >= 1 && e.Places[1] >= 1 || e.ReportTime || e.OtherGoods
}
