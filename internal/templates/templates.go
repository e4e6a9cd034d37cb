// Package templates owns the rules that tell the members of a templated
// story family apart: a central bank's daily market operation, a dividend
// notice, a eurobond issue, a crop estimate, an hourly market report. Such
// members share nearly every word while each reports another event: another
// day, another company, other figures. A document's Context, computed when
// it is sketched (Scanner) and stored with its sketch (AppendContext,
// ReadContext), keeps what tells them apart: its own date and its
// dateline's, its title and the figures in it, its figures with the places
// they fill, and its names. Compare turns two contexts into Evidence, and
// Rules.Veto decides whether that evidence refuses a pair a method's
// scores would call a duplicate. Any method can carry a Context in its
// sketch and apply the veto; the package knows nothing of methods.
package templates

import (
	"math"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/figures"
	"github.com/neardup/neardup/internal/similarity"
)

// Context is what a document carries for the template rules.
type Context struct {
	// Nums are the sorted distinct fingerprints of its figures, those of
	// the dateline left out (its day is the date, not a figure).
	Nums []uint32
	// Slots are its figures with the places they fill (see
	// figures.Slots), the dateline's left out too.
	Slots []uint64
	// Date is the document's own date in Unix seconds; 0 when unknown.
	Date int64
	// Dateline is the date of the text's dateline as month<<5 | day; 0
	// when it has none.
	Dateline uint16
	// Title is a hash of the title's words; 0 for no title.
	Title uint32
	// TitleNums are the sorted fingerprints of the title's figures (see
	// titleFigures).
	TitleNums []uint32
	// Names are the names of the title (its words the text writes with a
	// capital inside a sentence), the dateline's place and the <...> marks
	// of the title and the opening, ordered by mask.
	Names []Name
	// Rerun is set when the title marks the story as sent again: a repeat,
	// a correction, an update, a refile.
	Rerun bool
	// Fills are the words that fill its template's slots, with their
	// places (see fills.go): names, commodities, times of day, of the text
	// after the dateline and of the title; sorted, those of places filled
	// twice left out.
	Fills []uint64
	// WordFilter is the filter of the character shingles of the words of
	// its text and title of at least Scanner.Shingle letters and digits:
	// every shingle of a word holding a capital, the least of any other
	// (see wordFilter); with Scanner.ShortNames, and the key (wordKey) of
	// each shorter word of three or more that starts with a capital (see
	// appendShortKey). A name of another
	// document whose least shingle lies past this document's sample cut,
	// or a title name shorter than a shingle, is looked up here (see
	// holdsName). Nil when the scanner keeps none (Scanner.WordFilter) or
	// no word is that long: the sample alone then decides, taking such a
	// name as held; a short title name is then not held.
	WordFilter Filter
}

// Sample is a document's consistent sample of character-shingle
// fingerprints (the low 32 bits of analysis.Analyzer.CharShingles), all of
// them up to Cut: where a name's least shingle is looked up (see
// Name.Shingle). The zero Sample holds nothing and cuts nothing.
type Sample struct {
	Set []uint32
	Cut uint32
}

// Evidence is what two documents' contexts say of the pair: when both hold
// two or more figures, the share of the smaller set of figures the other
// holds too; how far apart the documents' own dates are, whether their
// datelines' dates differ, whether their titles are the same, whether
// figures changed (each side has one the other lacks), whether their
// titles' figures are disjoint, how many names of each the other does not
// hold, and how the places both texts fill with a figure, and with a name,
// commodity or time, compare.
type Evidence struct {
	NumberOverlap *float64 `json:"number_overlap,omitempty"`
	// HoursApart is the distance of the documents' own dates or, when
	// either has none, of their datelines' days (the year left out); nil
	// when neither tells.
	HoursApart           *float64 `json:"hours_apart,omitempty"`
	DatelinesDiffer      bool     `json:"datelines_differ,omitempty"`
	SameTitle            bool     `json:"same_title,omitempty"`
	FiguresChanged       bool     `json:"figures_changed,omitempty"`
	TitleFiguresDisjoint bool     `json:"title_figures_disjoint,omitempty"`
	// ForeignNames counts the names of A that B does not hold and those
	// of B that A does not hold.
	ForeignNames [2]int `json:"foreign_names,omitzero"`
	// Places counts the places (the words on either side of a figure on
	// its line) where both texts write one figure, and of those, the places
	// where the figures differ (see figures.InPlace; figures.InPlaceWhole
	// for an item of another day at its hour).
	Places [2]int `json:"places,omitzero"`
	// Fills counts the places where both texts write a name, a commodity
	// or a time of day (see Context.Fills), and of those, the places where
	// the words differ.
	Fills [2]int `json:"fills,omitzero"`
	// ReportTime is set when both headings (see Context.Fills) write a
	// time of day in one place and the times differ: the reports of two
	// hours or sessions ("NY COMEX COPPER 12:00" and "12:30", "LONDON
	// SEEDS 1330" and "CLOSING").
	ReportTime bool `json:"report_time,omitempty"`
	// SameHour is set when both documents' own dates are a whole
	// number of days apart (one or more), give or take 20 minutes: a
	// recurring item released at its hour each day (the Fed's operation
	// at 11:45, the Bank of England's morning forecast).
	SameHour bool `json:"same_hour,omitempty"`
	// OtherPlace is set when both datelines name a place and none of the
	// words of either place is held by the other document or can be a
	// misspelling of the other's place: a report of another town in
	// the same template ("OMAHA HOGS" and "ST JOSEPH HOGS"), since a copy
	// keeps its dateline.
	OtherPlace bool `json:"other_place,omitempty"`
	// ForeignTitleNames counts the title names (Context.Names of kind
	// TitleName) of A that B does not hold and those of B that A does not
	// hold; set by Recheck only. Each side's title naming what the other
	// never mentions is one notice of two funds, companies or towns
	// ("FRANKLIN MASSACHUSETTS SETS MONTHLY PAYOUT" and "FRANKLIN
	// CALIFORNIA ...").
	ForeignTitleNames [2]int `json:"foreign_title_names,omitzero"`
	// ForeignTags counts the words of the <...> marks (Context.Names of
	// kind Tag) of A that B does not hold, not even as a damaged copy,
	// and those of B that A does not hold, when both hold such marks and
	// their titles can name two companies (see titlesApart); set by
	// Recheck only. Each side marking a ticker the other never mentions,
	// under titles that name other companies, is one notice of two
	// companies ("NORTHFIELD OIL <NFO> RAISES CRUDE POSTINGS" and
	// "BAYSHORE REFINING <BAYR> ..."), which a copy keeps.
	ForeignTags [2]int `json:"foreign_tags,omitzero"`
	// TitleFiguresChanged is set when each title holds a figure that
	// neither the other title (as a damaged copy) nor the other text
	// holds; set by Recheck only. With another figure in a place both
	// texts fill, the two are one notice of two events ("... PRICE 0.50 CT
	// TO 66.00 CTS" and "... TO 65.50 CTS").
	TitleFiguresChanged bool `json:"title_figures_changed,omitempty"`
	// OtherGoods is set when both headings name a commodity and share
	// none ("LONDON COFFEE OPTION TRADES" and "LONDON COCOA ..."); set by
	// Recheck only.
	OtherGoods bool `json:"other_goods,omitempty"`
	// Rerun is set when either title marks its story as sent again
	// ("RPT-", "CORRECTED - ", "UPDATE 1-"): no veto of a templated
	// family applies then.
	Rerun bool `json:"rerun,omitempty"`
}

// Reversed returns the evidence of B and A, what it says of A said of B and
// the reverse: the counts of foreign names, title names and tags swapped.
// The rest reads both documents alike.
func (e Evidence) Reversed() Evidence {
	e.ForeignNames = [2]int{e.ForeignNames[1], e.ForeignNames[0]}
	e.ForeignTitleNames = [2]int{e.ForeignTitleNames[1], e.ForeignTitleNames[0]}
	e.ForeignTags = [2]int{e.ForeignTags[1], e.ForeignTags[0]}
	return e
}

// Rounded returns the evidence as it is written: the number overlap with
// four decimals (core.Round), the hours apart with one.
func (e Evidence) Rounded() Evidence {
	if e.NumberOverlap != nil {
		o := core.Round(*e.NumberOverlap)
		e.NumberOverlap = &o
	}
	if e.HoursApart != nil {
		h := float64(int64(*e.HoursApart*10+0.5)) / 10
		e.HoursApart = &h
	}
	return e
}

// secondsPerHour converts the distance of two Unix dates.
const secondsPerHour = 3600

// Compare compares the contexts of the earlier document a and the later b,
// with sa and sb their shingle samples (see Sample; the zero Sample when
// the method keeps none of character shingles).
func Compare(a, b *Context, sa, sb Sample) Evidence {
	var ev Evidence
	if len(a.Nums) >= 2 && len(b.Nums) >= 2 {
		o := float64(similarity.Overlap(a.Nums, b.Nums)) / float64(min(len(a.Nums), len(b.Nums)))
		ev.NumberOverlap = &o
	}
	ev.DatelinesDiffer = a.Dateline != 0 && b.Dateline != 0 && a.Dateline != b.Dateline
	switch {
	case a.Date != 0 && b.Date != 0:
		h := math.Abs(float64(a.Date-b.Date)) / secondsPerHour
		ev.HoursApart = &h
	case a.Dateline != 0 && b.Dateline != 0:
		h := float64(24 * datelineDays(a.Dateline, b.Dateline))
		ev.HoursApart = &h
	}
	ev.SameTitle = a.Title != 0 && a.Title == b.Title
	ev.FiguresChanged = changed(a.Nums, b.Nums)
	ev.TitleFiguresDisjoint = titleFiguresDisjoint(a.TitleNums, b.TitleNums) &&
		!figuresIn(a.TitleNums, b.Nums) && !figuresIn(b.TitleNums, a.Nums)
	ev.ForeignNames = [2]int{foreignNames(a, b, sb), foreignNames(b, a, sa)}
	ev.SameHour = a.Date != 0 && b.Date != 0 && sameHour(a.Date, b.Date)
	ev.OtherPlace = otherPlaces(a, b, sa, sb)
	ev.Places[0], ev.Places[1] = figures.InPlace(a.Slots, b.Slots)
	if ev.SameHour && ev.DatelinesDiffer && ev.Places[1] == 0 && ev.Places[0] > 0 {
		// An item of another day at its hour: its figure a piece of the
		// other's is another figure, not damage (see Evidence.Refilled).
		ev.Places[0], ev.Places[1] = figures.InPlaceWhole(a.Slots, b.Slots)
	}
	ev.Fills[0], ev.Fills[1], ev.ReportTime = fillsInPlace(a.Fills, b.Fills)
	ev.Rerun = a.Rerun || b.Rerun
	return ev
}

// sameHourSlack is how far from a whole number of days apart two
// documents' own dates may be for SameHour, in seconds: an item released
// at its hour each day comes minutes early or late.
const sameHourSlack = 20 * 60

// sameHour reports whether Unix dates a and b are one or more whole days
// apart, give or take sameHourSlack (see Evidence.SameHour).
func sameHour(a, b int64) bool {
	const day = 24 * secondsPerHour
	d := max(a-b, b-a)
	off := d % day
	return d >= day-sameHourSlack && (off <= sameHourSlack || off >= day-sameHourSlack)
}

// datelineDays returns how many days apart two dateline dates
// (month<<5 | day) are, the year left out: the shorter way round it, so
// that December 31 and January 2 are two days apart.
func datelineDays(a, b uint16) int {
	day := func(d uint16) int {
		t := time.Date(2001, time.Month(d>>5), int(d&31), 0, 0, 0, 0, time.UTC)
		return t.YearDay()
	}
	n := day(a) - day(b)
	if n < 0 {
		n = -n
	}
	return min(n, 365-n)
}
