package diff

import (
	"bufio"
	"cmp"
	"fmt"
	"html"
	"io"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// HTMLStyle is the CSS of WriteHTMLFragment's tables. Every rule is scoped to
// the class nd-diff, so a page can include it beside its own. WriteHTML
// includes it; other pages put it in a <style> element once.
const HTMLStyle = `table.nd-diff{width:100%;border-collapse:collapse;table-layout:fixed;font:15px/1.5 Georgia,"DejaVu Serif",serif;color:#1b1b1b}
table.nd-diff th{font:13px/1.4 system-ui,"DejaVu Sans",sans-serif;text-align:left;vertical-align:top;padding:6px 10px;background:#f2f2f2;border-bottom:2px solid #ccc;overflow-wrap:anywhere}
table.nd-diff th .nd-id{font-weight:700}
table.nd-diff th .nd-title{display:block;font-weight:400;color:#333}
table.nd-diff th .nd-stat{display:block;font-weight:400;color:#666}
table.nd-diff td{vertical-align:top;padding:4px 10px;border-bottom:1px solid #eee;white-space:pre-wrap;overflow-wrap:anywhere;width:50%}
table.nd-diff td+td,table.nd-diff th+th{border-left:1px solid #ddd}
table.nd-diff td.nd-none{background:repeating-linear-gradient(-45deg,#fafafa 0 6px,#f0f0f0 6px 12px)}
table.nd-diff .nd-a{background:#ffd4d1;border-radius:2px}
table.nd-diff .nd-b{background:#c8f0cf;border-radius:2px}
table.nd-diff .nd-a-spelt{background:#ffeeec;text-decoration:underline dotted #d9534f;text-underline-offset:3px}
table.nd-diff .nd-b-spelt{background:#e8f7eb;text-decoration:underline dotted #3c9a4c;text-underline-offset:3px}
table.nd-diff tr.nd-same td{color:#555}`

// HTMLLegend is a short explanation of the colours of WriteHTMLFragment, as
// an HTML paragraph styled by HTMLStyle.
const HTMLLegend = `<p class="nd-legend">Shared text is plain. <span class="nd-a">Red</span>: only in the left text. ` +
	`<span class="nd-b">Green</span>: only in the right text. ` +
	`Red facing green was replaced; a word both texts hold in place among rewritten words is drawn inside the ` +
	`replacement, and counts as shared (the "inside edits" of a text diff's header). A passage moved is red where the left text has it and green where the right one ` +
	`does, and counts as shared. <span class="nd-a-spelt">Pale red</span> facing <span class="nd-b-spelt">pale green</span>, ` +
	`underlined (by word): the same word spelt otherwise, in case, width, accents or apostrophes, which counts as shared; ` +
	`by sentence or line such a difference is shared and unmarked. By word, punctuation and symbols only one side ` +
	`holds (a minus sign, "$" facing "€") are red and green too, though only words count; by sentence or line, ` +
	`those inside a shared sentence or line are not compared. Spacing is not compared.</p>`

// rowBytes is the length above which a row of the side-by-side view ends at
// the next sentence end; rows also end at every line break.
const rowBytes = 300

// WriteHTML writes d as a complete, self-contained HTML page: inline CSS, no
// scripts, every text escaped.
func WriteHTML(w io.Writer, d *Diff) error {
	bw := bufio.NewWriter(w)
	// An id's isolate controls are shown, not obeyed: a POP DIRECTIONAL
	// ISOLATE in A's would close its isolate early and could draw B's id
	// inside A's. Its other direction controls end with the isolate.
	a, b := isolateControls.Replace(label(&d.A, "A")), isolateControls.Replace(label(&d.B, "B"))
	title := html.EscapeString(isolate(a) + " ↔ " + isolate(b))
	heading := "<bdi>" + html.EscapeString(a) + "</bdi> ↔ <bdi>" + html.EscapeString(b) + "</bdi>"
	fmt.Fprintf(bw, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"+
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"+
		"<title>neardup diff: %s</title>\n<style>\nbody{margin:16px 24px;font:15px/1.5 system-ui,\"DejaVu Sans\",sans-serif}\n"+
		"h1{font-size:20px;margin:0 0 6px}\n.nd-legend{color:#444;font-size:13px}\n%s\n"+
		".nd-legend .nd-a{background:#ffd4d1}.nd-legend .nd-b{background:#c8f0cf}\n"+
		".nd-legend .nd-a-spelt{background:#ffeeec;text-decoration:underline dotted #d9534f}"+
		".nd-legend .nd-b-spelt{background:#e8f7eb;text-decoration:underline dotted #3c9a4c}\n"+
		"</style>\n</head>\n<body>\n<h1>%s</h1>\n%s\n", title, HTMLStyle, heading, HTMLLegend)
	if err := writeTable(bw, d); err != nil {
		return err
	}
	bw.WriteString("</body>\n</html>\n")
	return bw.Flush()
}

// WriteHTMLFragment writes d as an HTML table of class nd-diff (see
// HTMLStyle): A in the left column, B in the right, in rows that end at line
// breaks and at sentence ends inside shared text, so shared passages face
// each other. Text only one side holds is marked (class nd-a, nd-b), the
// punctuation and symbols between the units too, as WriteText marks them
// (a minus sign, "$" facing "€", "," facing ";"), and a row holding any of
// it is not of class nd-same; by word, so is a word both hold but spell
// otherwise (another case, full-width digits, an accent composed or apart,
// a curly apostrophe), which counts as shared, in a milder style
// (nd-a-spelt, nd-b-spelt). By sentence or line a unit is a whole sentence
// or line, matched by its words: the punctuation inside a shared one, and
// its spelling, are not compared, and it is neither marked nor a row apart.
// Text is escaped; a mark writes a control or format character, which
// would show as nothing (a direction mark, a zero width space), as Visible
// does (\u200f), so that no mark looks empty. The table has no scripts.
func WriteHTMLFragment(w io.Writer, d *Diff) error {
	bw := bufio.NewWriter(w)
	if err := writeTable(bw, d); err != nil {
		return err
	}
	return bw.Flush()
}

// isolateControls writes the isolate controls (U+2066–U+2069) as Go
// escapes, as Visible does.
var isolateControls = strings.NewReplacer("\u2066", `\u2066`, "\u2067", `\u2067`, "\u2068", `\u2068`, "\u2069", `\u2069`)

// isolate wraps s in FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, for
// an id in the page's <title>, where no element can isolate it.
func isolate(s string) string { return "\u2068" + s + "\u2069" }

func label(s *Side, name string) string {
	if s.ID != "" {
		return s.ID
	}
	return name
}

func writeTable(w *bufio.Writer, d *Diff) error {
	w.WriteString("<table class=\"nd-diff\">\n<thead><tr>")
	for _, s := range []struct {
		side, other *Side
		name        string
	}{{&d.A, &d.B, "A"}, {&d.B, &d.A, "B"}} {
		// An id or title is isolated (bdi): its direction, or a control
		// character in it, cannot turn the text around it.
		fmt.Fprintf(w, "<th><bdi class=\"nd-id\">%s</bdi>", html.EscapeString(label(s.side, s.name)))
		if s.side.Title != "" {
			fmt.Fprintf(w, "<bdi class=\"nd-title\" dir=\"auto\">%s</bdi>", html.EscapeString(s.side.Title))
		}
		fmt.Fprintf(w, "<span class=\"nd-stat\">%s</span></th>", s.side.stat(s.other))
	}
	w.WriteString("</tr></thead>\n<tbody>\n")
	ps := d.puncts()
	ca, cb := newCells(d, ps, true), newCells(d, ps, false)
	for _, r := range markRows(rows(d), ps) {
		class := ""
		if r.same {
			class = " class=\"nd-same\""
		}
		fmt.Fprintf(w, "<tr%s>", class)
		ca.write(w, r.a)
		cb.write(w, r.b)
		w.WriteString("</tr>\n")
	}
	_, err := w.WriteString("</tbody>\n</table>\n")
	return err
}

// row is one line of the side-by-side view: byte ranges of A and B.
type row struct {
	a, b Span
	same bool // only shared text
}

// rows cuts both texts at the same places of the alignment: between two
// Ops or between two units of an Op that pairs them one to one, where
// either text has a line break or, once the row is long, a sentence ends.
func rows(d *Diff) []row {
	var out []row
	cur := row{same: true}
	cut := func(ua, ub int) {
		sa, sb := d.A.rowStart(ua), d.B.rowStart(ub)
		if sa == cur.a.Start && sb == cur.b.Start {
			return
		}
		cur.a.End, cur.b.End = sa, sb
		out = append(out, cur)
		cur = row{a: Span{sa, sa}, b: Span{sb, sb}, same: true}
	}
	for _, op := range d.spans {
		if d.breaksAt(op.a0, op.b0, cur) {
			cut(op.a0, op.b0)
		}
		if op.kind != Equal {
			cur.same = false
		}
		if !d.paired(op) {
			continue
		}
		for k := 1; k < op.a1-op.a0; k++ {
			if d.breaksAt(op.a0+k, op.b0+k, cur) {
				cut(op.a0+k, op.b0+k)
				cur.same = op.kind == Equal
			}
		}
	}
	cur.a.End, cur.b.End = len(d.A.Text), len(d.B.Text)
	if cur.a.End > cur.a.Start || cur.b.End > cur.b.Start || len(out) == 0 {
		out = append(out, cur)
	}
	return out
}

// paired reports whether op pairs its units one to one, so that a row may
// end between two pairs: an Equal op, or a Replace of as many units as it
// replaces, each a rewrite of the unit facing it.
func (d *Diff) paired(op unitOp) bool {
	if op.kind == Equal {
		return true
	}
	if op.kind != Replace || op.a1-op.a0 != op.b1-op.b0 {
		return false
	}
	for k := range op.a1 - op.a0 {
		if !alike(&d.A, &d.B, op.a0+k, op.b0+k) {
			return false
		}
	}
	return true
}

// start returns the byte offset of unit i, the text's length past the last.
func (s *Side) start(i int) int {
	if i < len(s.units) {
		return s.units[i].span.Start
	}
	return len(s.Text)
}

// rowStart returns where a row that begins with unit i begins: before the
// punctuation that opens the unit (a quotation mark, a bracket, a dash)
// after the last space of the gap before it, so that a paragraph's opening
// quotation mark starts its row rather than ending the one before.
func (s *Side) rowStart(i int) int {
	start := s.start(i)
	if i == 0 || i >= len(s.units) {
		return start
	}
	gap := s.Text[s.units[i-1].span.End:start]
	if j := strings.LastIndexFunc(gap, isSpace); j >= 0 {
		_, n := utf8.DecodeRuneInString(gap[j:])
		return s.units[i-1].span.End + j + n
	}
	return start
}

// paragraphEnds reports whether a paragraph ends before unit i: the gap
// before it holds a blank line, or a line break that is followed by
// indentation, ends a sentence or closes a line too long to come from
// hard-wrapped text. Other line breaks of hard-wrapped text (60–80 columns)
// do not end paragraphs.
func (s *Side) paragraphEnds(i int) bool {
	if i == 0 || i >= len(s.units) {
		return false
	}
	gs, ge := s.units[i-1].span.End, s.units[i].span.Start
	gap := s.Text[gs:ge]
	nl := strings.IndexByte(gap, '\n')
	switch {
	case nl < 0:
		return false
	case strings.Count(gap, "\n") > 1:
		return true
	case nl+1 < len(gap) && (gap[nl+1] == ' ' || gap[nl+1] == '\t'):
		return true
	}
	line := s.Text[strings.LastIndexByte(s.Text[:gs+nl], '\n')+1 : gs+nl]
	line = strings.TrimRightFunc(line, isSpace)
	return len(line) > wrapWidth || strings.HasSuffix(line, ".") || strings.HasSuffix(line, "!") ||
		strings.HasSuffix(line, "?") || strings.HasSuffix(line, "…") || strings.HasSuffix(line, ":")
}

// wrapWidth is the longest line, in bytes, taken for hard-wrapped text.
const wrapWidth = 100

// breaksAt reports whether a row ends before unit ua of A and ub of B: at
// the end of a paragraph, or at the end of a sentence (in word mode, a gap
// with a full stop, question or exclamation mark) once the row is long.
func (d *Diff) breaksAt(ua, ub int, cur row) bool {
	if d.By == ByLine || d.A.paragraphEnds(ua) || d.B.paragraphEnds(ub) {
		return true
	}
	if d.A.start(ua)-cur.a.Start < rowBytes && d.B.start(ub)-cur.b.Start < rowBytes {
		return false
	}
	if d.By != ByWord {
		return true
	}
	return strings.ContainsAny(d.A.gapBefore(ua), ".!?…") || strings.ContainsAny(d.B.gapBefore(ub), ".!?…")
}

// gapBefore returns the text between unit i-1 and unit i, "" at the ends.
func (s *Side) gapBefore(i int) string {
	if i == 0 || i >= len(s.units) {
		return ""
	}
	return s.Text[s.units[i-1].span.End:s.units[i].span.Start]
}

// cells writes one side's cells: its text with the units that are not
// shared marked, and by word the words shared but spelt otherwise.
type cells struct {
	text  string
	class string     // of text not shared; with "-spelt", of a word spelt otherwise
	marks []cellMark // in order; one mark never spans a line break
	next  int        // first mark that may still overlap the next cell
}

// cellMark is a span of a side's text that cells marks.
type cellMark struct {
	Span
	spelt bool // words the other side spells otherwise, not text only this side holds
}

// newCells returns the cells of A's side, or of B's, marking what only it
// holds: the text of each edit, from its first unit to its last, line by
// line, and its side of the differences of the gaps (ps, see puncts).
func newCells(d *Diff, ps []punct, isA bool) *cells {
	s, class := &d.B, "nd-b"
	if isA {
		s, class = &d.A, "nd-a"
	}
	c := &cells{text: s.Text, class: class}
	for _, op := range d.spans {
		i, j := op.b0, op.b1
		if isA {
			i, j = op.a0, op.a1
		}
		if op.kind == Equal {
			if d.By == ByWord {
				c.markSpelt(d, op, isA)
			}
			continue
		}
		if i < j {
			c.addLines(s.span(i, j))
		}
	}
	if len(ps) > 0 {
		c.addPuncts(ps, isA)
	}
	return c
}

// addPuncts adds to the marks the side's part of each difference of ps,
// cut at its line breaks, and joins the marks that then overlap or touch
// on a line.
func (c *cells) addPuncts(ps []punct, isA bool) {
	for _, p := range ps {
		sp := p.b
		if isA {
			sp = p.a
		}
		c.addLines(sp)
	}
	slices.SortStableFunc(c.marks, func(x, y cellMark) int { return cmp.Compare(x.Start, y.Start) })
	out := c.marks[:0]
	for _, m := range c.marks {
		if n := len(out) - 1; n >= 0 && !m.spelt && !out[n].spelt && m.Start <= out[n].End {
			out[n].End = max(out[n].End, m.End)
			continue
		}
		out = append(out, m)
	}
	c.marks = out
}

// addLines adds to the marks sp, text only the side holds, cut at its line
// breaks, each line's part without the white space at its ends: the
// punctuation between its words too, where an edit spans lines.
func (c *cells) addLines(sp Span) {
	for sp.Start < sp.End {
		end := sp.End
		if nl := strings.IndexByte(c.text[sp.Start:sp.End], '\n'); nl >= 0 {
			end = sp.Start + nl
		}
		if s := core(c.text, sp.Start, end); !s.empty() {
			c.marks = append(c.marks, cellMark{Span: s})
		}
		sp.Start = end + 1
	}
}

// markRows returns rs with every row that holds a side's part of a
// difference of ps (see puncts) not same.
func markRows(rs []row, ps []punct) []row {
	for _, p := range ps {
		for _, side := range [2]struct {
			sp  Span
			row func(r row) Span
		}{{p.a, func(r row) Span { return r.a }}, {p.b, func(r row) Span { return r.b }}} {
			if side.sp.empty() {
				continue
			}
			// The first row that ends past the start of the span.
			i := sort.Search(len(rs), func(i int) bool { return side.row(rs[i]).End > side.sp.Start })
			for ; i < len(rs) && side.row(rs[i]).Start < side.sp.End; i++ {
				rs[i].same = false
			}
		}
	}
	return rs
}

// markSpelt marks the words of op, of kind Equal, that the two sides
// spell otherwise, on the side of the cells: a run of them in one mark,
// cut where the gaps between them differ, whose marks stand between.
func (c *cells) markSpelt(d *Diff, op unitOp, isA bool) {
	s, first := &d.B, op.b0
	if isA {
		s, first = &d.A, op.a0
	}
	prev := false // the word before is marked
	for k := range op.a1 - op.a0 {
		ua, ub := d.A.units[op.a0+k].span, d.B.units[op.b0+k].span
		spelt := d.A.Text[ua.Start:ua.End] != d.B.Text[ub.Start:ub.End]
		if spelt {
			c.add(s, first+k, prev && !d.gapDiffers(op.a0+k, op.b0+k), true)
		}
		prev = spelt
	}
}

// add marks unit k of s, joining the mark before when join is set and no
// line break lies between them.
func (c *cells) add(s *Side, k int, join, spelt bool) {
	u := s.units[k].span
	if n := len(c.marks) - 1; join && !strings.Contains(s.Text[c.marks[n].End:u.Start], "\n") {
		c.marks[n].End = u.End
		return
	}
	c.marks = append(c.marks, cellMark{u, spelt})
}

// write writes the cell of bytes sp, trimmed of surrounding space.
func (c *cells) write(w *bufio.Writer, sp Span) {
	sp = trim(c.text, sp.Start, sp.End)
	if sp.Start >= sp.End {
		w.WriteString("<td class=\"nd-none\"></td>")
		return
	}
	w.WriteString("<td dir=\"auto\">") // a right-to-left text is laid out from the right
	pos := sp.Start
	for ; c.next < len(c.marks); c.next++ {
		m := c.marks[c.next]
		if m.Start >= sp.End {
			break
		}
		if s, e := max(m.Start, pos), min(m.End, sp.End); s < e {
			w.WriteString(html.EscapeString(c.text[pos:s]))
			class := c.class
			if m.spelt {
				class += "-spelt"
			}
			// A mark shows what it marks: a format character that shows
			// as nothing is escaped, as WriteText escapes it (see Visible).
			fmt.Fprintf(w, "<span class=\"%s\">%s</span>", class, html.EscapeString(Visible(c.text[s:e])))
			pos = e
		}
		if m.End > sp.End {
			break
		}
	}
	w.WriteString(html.EscapeString(c.text[pos:sp.End]))
	w.WriteString("</td>")
}
