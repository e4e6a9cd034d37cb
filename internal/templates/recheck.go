package templates

import (
	"slices"

	"github.com/neardup/neardup/internal/figures"
)

// Recheck adds to e, the evidence Compare gave of a and b (sa and sb their
// samples), what the comparisons that only a duplicate needs find: a
// caller runs it for a pair whose scores make it a duplicate, the only
// pairs a veto changes, so that the candidates refused by their scores cost
// nothing more. It sets ForeignTitleNames and ForeignTags; ReportTime and OtherGoods when
// the headings name other times of day or other commodities in any place
// (see headingsDiffer); and TitleFiguresChanged.
func Recheck(a, b *Context, sa, sb Sample, e *Evidence) {
	e.ForeignTitleNames = [2]int{foreignOf(a, b, sb, TitleName), foreignOf(b, a, sa, TitleName)}
	if hasKind(a, Tag) && hasKind(b, Tag) && titlesApart(a, b, e.ForeignTitleNames) {
		e.ForeignTags = [2]int{foreignTags(a, b, sb), foreignTags(b, a, sa)}
	}
	times, goods := headingsDiffer(a.Fills, b.Fills)
	e.ReportTime = e.ReportTime || times
	e.OtherGoods = goods
	e.TitleFiguresChanged = otherTitleFigure(a, b) && otherTitleFigure(b, a)
}

// otherTitleFigure reports whether a's title holds a figure that b's title
// holds not even as a damaged copy (see damagedIn) and b's text
// does not hold: the figure a notice's headline reports ("MAGMA RAISES
// COPPER PRICE 0.50 CT TO 66.00 CTS"), which a copy keeps.
func otherTitleFigure(a, b *Context) bool {
	for _, x := range a.TitleNums {
		if !damagedIn(x, b.TitleNums) && !figuresIn([]uint32{x}, b.Nums) {
			return true
		}
	}
	return false
}

// damagedIn reports whether title figure x is among title figures ys, or
// one of them can be a damaged copy of it, however short (see
// figures.Explains: "68" and "8" are one figure a scanner damaged).
func damagedIn(x uint32, ys []uint32) bool {
	if _, ok := slices.BinarySearch(ys, x); ok {
		return true // a copy's title: no digits to unpack
	}
	var bx, by [8]byte
	dx := appendDigits(bx[:0], x)
	for _, y := range ys {
		if figures.Explains(dx, appendDigits(by[:0], y)) {
			return true
		}
	}
	return false
}

// titlesApart reports whether the titles of a and b, whose foreign title
// names are foreign, can name two companies: one names what the other
// document never mentions, and neither names only what the other holds
// (each has a foreign title name or none at all). A copy whose scanner
// damaged a ticker ("<TFI>" for "<TEI>") keeps its title's names, which
// the other text holds ("TEXAS INTERNATIONAL"); two titles that name
// nothing the texts write ("FIRSTCORP INC <FCR>", a scan's "<FGR>") are
// left alone, as a damaged short ticker shares no pair of letters with
// its original.
func titlesApart(a, b *Context, foreign [2]int) bool {
	return foreign != [2]int{} && (foreign[0] > 0 || !hasKind(a, TitleName)) && (foreign[1] > 0 || !hasKind(b, TitleName))
}

// hasKind reports whether c holds a name of kind k.
func hasKind(c *Context, k NameKind) bool {
	for _, x := range c.Names {
		if x.Kind() == k {
			return true
		}
	}
	return false
}

// foreignTags counts the words of the <...> marks of a that b does not
// hold (see holdsName) and that no word of b's marks can be a damaged copy
// of (misspelt: a scanner's "<PANTRY ING>" is "<PANTRY INC>", "<ALGP.PA>"
// "<ALCP.PA>").
func foreignTags(a, b *Context, sb Sample) int {
	n := 0
	for _, x := range a.Names {
		if x.Kind() != Tag || holdsName(b, sb, x) {
			continue
		}
		damaged := false
		for _, y := range b.Names {
			if y.Kind() == Tag && misspelt(x, y) {
				damaged = true
				break
			}
		}
		if !damaged {
			n++
		}
	}
	return n
}

// foreignOf counts the names of a of kind k that b does not hold (see
// holdsName).
func foreignOf(a, b *Context, sb Sample, k NameKind) int {
	n := 0
	for _, x := range a.Names {
		if x.Kind() == k && !holdsName(b, sb, x) {
			n++
		}
	}
	return n
}

// headingsDiffer reports whether two sorted sets of fills (see keepSlotsFills)
// have headings that both name a time of day (a clock's, a word, or the
// bare hour of a heading sent without a title, see fillsOf: a bare number
// in a title is as often a figure) and neither's time is
// anywhere in the other text (times), and headings that both name a
// commodity and neither's is anywhere in the other text (goods), wherever
// in the headings they stand: "noon call" and "clsg" end two headings of
// one market at other words; "LONDON COFFEE OPTION TRADES" and "LONDON
// COCOA OPTION TRADES" are two markets' reports. A copy under a headline
// made of its opening names what the other text holds. Times compare
// whole, as ReportTime's do ("12:00" and "12:01" are two reports);
// commodities as words do (sameFill: "soybean" and "soybeans" are one).
func headingsDiffer(a, b []uint64) (times, goods bool) {
	ha, hb := headingFills(a), headingFills(b)
	if len(ha) == 0 || len(hb) == 0 {
		return false, false
	}
	return otherHeadings(ha, hb, a, b, fillTime), otherHeadings(ha, hb, a, b, fillCommodity)
}

// otherHeadings reports whether headings ha and hb, fills of texts a and
// b, both hold a fill of kind k and none of those is held in the other
// text, in any place (see headingsDiffer).
func otherHeadings(ha, hb, a, b []uint64, k uint64) bool {
	return headingHolds(ha, k) && headingHolds(hb, k) && !anyHeld(ha, b, k) && !anyHeld(hb, a, k)
}

// headingHolds reports whether heading fills h hold a fill of kind k.
func headingHolds(h []uint64, k uint64) bool {
	for _, x := range h {
		if x>>fillKindShift&3 == k {
			return true
		}
	}
	return false
}

// anyHeld reports whether a fill of kind k of heading h has its value
// among fills, in any place: times compared whole, commodities as
// sameFill compares them.
func anyHeld(h, fills []uint64, k uint64) bool {
	for _, x := range h {
		if x>>fillKindShift&3 != k {
			continue
		}
		for _, y := range fills {
			if y>>fillKindShift&3 != k {
				continue
			}
			if k == fillTime && sameTime(x, y) ||
				k != fillTime && sameFill(x&(1<<fillPlaceShift-1), y&(1<<fillPlaceShift-1)) {
				return true
			}
		}
	}
	return false
}

// headingFills returns the fills of a sorted set that lie in a heading:
// its last ones, whose places have headingPlace set.
func headingFills(fills []uint64) []uint64 {
	i := len(fills)
	for i > 0 && fills[i-1]>>fillPlaceShift&headingPlace != 0 {
		i--
	}
	return fills[i:]
}
