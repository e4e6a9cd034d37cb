package diff

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// TextOptions control WriteText.
type TextOptions struct {
	// Color marks text with ANSI colours: shared text plain, text only in A
	// red, text only in B green. Without it, text only in A is written as
	// [-text-] and text only in B as {+text+}, as git's word diff does.
	Color bool
}

// ANSI escape sequences of the terminal rendering.
const (
	ansiRed   = "\x1b[31m"
	ansiGreen = "\x1b[32m"
	ansiReset = "\x1b[0m"
)

// style is how a piece of text is marked.
type style uint8

const (
	plain style = iota
	onlyA
	onlyB
)

// WriteText writes d for a terminal: a header line per side with its word
// count, overlap and words moved, then one inline text that reads as A with B's edits in
// place. Shared text appears once, a replacement as A's words then B's, text
// only in A or only in B where it stands. Control characters of the texts
// and ids are written visibly (see Visible), the title quoted as %q quotes
// it, so that a document cannot drive the terminal. The texts' own line breaks are
// kept and lines are not wrapped, so the terminal wraps at its width; inline
// reads better than two columns in 80–120 columns, where each column would
// be too narrow for prose and a side that moved on would leave the other
// column blank.
func WriteText(w io.Writer, d *Diff, o TextOptions) error {
	t := &textWriter{w: bufio.NewWriter(w), color: o.Color}
	t.header("---", "a", &d.A, ansiRed)
	t.header("+++", "b", &d.B, ansiGreen)
	t.w.WriteString("\n")
	posA, posB, afterB, aligned := 0, 0, false, true
	for _, op := range d.Ops {
		gapA, gapB := d.A.Text[posA:op.A.Start], d.B.Text[posB:op.B.Start]
		a, b := d.A.Text[op.A.Start:op.A.End], d.B.Text[op.B.Start:op.B.End]
		if d.By == BySentence {
			gapA, gapB = lineGap(gapA, posA > 0), lineGap(gapB, posB > 0)
			a, b = d.A.sentenceLines(op.A), d.B.sentenceLines(op.B)
		}
		// Text from B reads on with B's own spacing and punctuation. The
		// two gaps lie between the same aligned words when the op and the
		// one before it (if any) hold words of both sides.
		fromB := op.Kind == Insert || afterB
		marked := false
		if aligned && (op.Kind == Equal || op.Kind == Replace) {
			marked = t.gap(gapA, gapB, fromB)
		} else if fromB {
			t.write(gapB, plain)
		} else {
			t.write(gapA, plain)
		}
		if marked {
			gapB = "" // shown: the separator below is white space alone
		}
		switch op.Kind {
		case Equal:
			if d.By == ByWord {
				t.equalWords(d, op)
			} else {
				t.write(a, plain)
			}
		case Delete:
			t.write(a, onlyA)
		case Insert:
			t.write(b, onlyB)
		case Replace:
			t.write(a, onlyA)
			t.write(separator(a, gapB, d.By), plain)
			t.write(b, onlyB)
		}
		posA, posB, afterB = op.A.End, op.B.End, op.Kind == Insert || op.Kind == Replace
		aligned = op.Kind == Equal || op.Kind == Replace
	}
	tailA, tailB := strings.TrimRightFunc(d.A.Text[posA:], isSpace), strings.TrimRightFunc(d.B.Text[posB:], isSpace)
	switch {
	case aligned:
		t.gap(tailA, tailB, afterB)
	case afterB:
		t.write(tailB, plain)
	default:
		t.write(tailA, plain)
	}
	t.w.WriteString("\n")
	return t.w.Flush()
}

// gap writes the text between two aligned pieces, gapA of A and gapB of
// B: the spacing and punctuation around words, which the alignment of
// words does not compare. When the two hold the same characters but white
// space, it is written once, from B when fromB, else from A, and gap
// returns false. Otherwise what differs is marked as text only in one side
// is, between the characters the two share at its ends, written once
// (`year",` against `year;`: year[-",-]{+;+}), and gap returns true. White
// space matches white space of any kind; a side's part that is white space
// alone is written only from the side written.
func (t *textWriter) gap(gapA, gapB string, fromB bool) bool {
	same := gapA
	if fromB {
		same = gapB
	}
	if withoutSpace(gapA) == withoutSpace(gapB) {
		t.write(same, plain)
		return false
	}
	preA, preB := commonPrefix(gapA, gapB)
	sufA, sufB := commonSuffix(gapA[preA:], gapB[preB:])
	midA, midB := gapA[preA:len(gapA)-sufA], gapB[preB:len(gapB)-sufB]
	if fromB {
		t.write(gapB[:preB], plain)
	} else {
		t.write(gapA[:preA], plain)
	}
	// The white space at the ends of the parts that differ is written
	// plain, from the side written.
	leadA, coreA, trailA := splitSpace(midA)
	leadB, coreB, trailB := splitSpace(midB)
	if fromB {
		t.write(leadB, plain)
	} else {
		t.write(leadA, plain)
	}
	t.write(coreA, onlyA)
	t.write(coreB, onlyB)
	if fromB {
		t.write(trailB, plain)
	} else {
		t.write(trailA, plain)
	}
	if fromB {
		t.write(gapB[len(gapB)-sufB:], plain)
	} else {
		t.write(gapA[len(gapA)-sufA:], plain)
	}
	return true
}

// equalWords writes the words of op, of kind Equal, as A has them, with
// the spacing and punctuation between two of them marked where the sides
// differ (see gap).
func (t *textWriter) equalWords(d *Diff, op Op) {
	ua, ub := d.A.unitsIn(op.A), d.B.unitsIn(op.B)
	if len(ua) != len(ub) || len(ua) == 0 {
		t.write(d.A.Text[op.A.Start:op.A.End], plain)
		return
	}
	for k := range ua {
		if k > 0 {
			t.gap(d.A.Text[ua[k-1].span.End:ua[k].span.Start], d.B.Text[ub[k-1].span.End:ub[k].span.Start], false)
		}
		t.write(d.A.Text[ua[k].span.Start:ua[k].span.End], plain)
	}
}

// unitsIn returns the side's units within sp, found by binary search.
func (s *Side) unitsIn(sp Span) []unit {
	first, _ := slices.BinarySearchFunc(s.units, sp.Start, func(u unit, start int) int { return cmp.Compare(u.span.Start, start) })
	last := first
	for last < len(s.units) && s.units[last].span.End <= sp.End {
		last++
	}
	return s.units[first:last]
}

// splitSpace returns the white space s opens with, what follows up to
// the white space it ends with, and that.
func splitSpace(s string) (lead, core, trail string) {
	core = strings.TrimLeftFunc(s, isSpace)
	lead = s[:len(s)-len(core)]
	core = strings.TrimRightFunc(core, isSpace)
	return lead, core, s[len(lead)+len(core):]
}

// withoutSpace returns s without its white space.
func withoutSpace(s string) string {
	if strings.IndexFunc(s, isSpace) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isSpace(r) {
			return -1
		}
		return r
	}, s)
}

// sameRune reports whether r and q match in a gap: equal, or both white
// space.
func sameRune(r, q rune) bool {
	return r == q || isSpace(r) && isSpace(q)
}

// commonPrefix returns the lengths in bytes of the longest prefixes of a
// and b that match rune by rune (see sameRune).
func commonPrefix(a, b string) (int, int) {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		r, n := utf8.DecodeRuneInString(a[i:])
		q, m := utf8.DecodeRuneInString(b[j:])
		if !sameRune(r, q) {
			break
		}
		i, j = i+n, j+m
	}
	return i, j
}

// commonSuffix returns the lengths in bytes of the longest suffixes of a
// and b that match rune by rune (see sameRune).
func commonSuffix(a, b string) (int, int) {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		r, n := utf8.DecodeLastRuneInString(a[:len(a)-i])
		q, m := utf8.DecodeLastRuneInString(b[:len(b)-j])
		if !sameRune(r, q) {
			break
		}
		i, j = i+n, j+m
	}
	return i, j
}

// textWriter writes the pieces of the inline rendering.
type textWriter struct {
	w     *bufio.Writer
	color bool
}

// header writes a side's summary line, coloured like its text.
func (t *textWriter) header(mark, name string, s *Side, color string) {
	if s.ID != "" {
		name = Visible(s.ID)
	}
	line := fmt.Sprintf("%s %s", mark, name)
	if s.Title != "" {
		line += fmt.Sprintf(" %q", s.Title)
	}
	line += "  " + s.stat()
	if t.color {
		line = color + line + ansiReset
	}
	t.w.WriteString(line + "\n")
}

// stat says the side's words, the share of them shared and how many of
// those moved: "85 words, 81.2% shared (10 moved)".
func (s *Side) stat() string {
	st := fmt.Sprintf("%d words, %.1f%% shared", s.Words, 100*s.Overlap())
	if s.Moved > 0 {
		st += fmt.Sprintf(" (%d moved)", s.Moved)
	}
	return st
}

// separator returns what goes between the replaced text a and its
// replacement: B's own gap before the replacement from its first space on
// (what precedes it closes the shared text, already written from A), or a
// space, a line break after text of several lines, when B has none.
func separator(a, gapB string, by By) string {
	if i := strings.IndexFunc(gapB, isSpace); i >= 0 {
		return gapB[i:]
	}
	if by != ByWord || strings.Contains(a, "\n") {
		return "\n" + gapB
	}
	return " " + gapB
}

// sentenceLines returns the text of sp, sentences of the side, with one
// sentence a line: the space between two sentences of a paragraph becomes
// a line break; paragraph breaks stay. It takes time in the sentences of
// sp (and the logarithm of the side's), finding the first by binary search.
func (s *Side) sentenceLines(sp Span) string {
	var b strings.Builder
	pos := sp.Start
	first, _ := slices.BinarySearchFunc(s.units, sp.Start, func(u unit, start int) int { return cmp.Compare(u.span.Start, start) })
	for _, u := range s.units[first:] {
		if u.span.End > sp.End {
			break
		}
		b.WriteString(lineGap(s.Text[pos:u.span.Start], pos > sp.Start))
		b.WriteString(s.Text[u.span.Start:u.span.End])
		pos = u.span.End
	}
	b.WriteString(s.Text[pos:sp.End])
	return b.String()
}

// lineGap returns the space between two sentences as a line break when it
// holds none, and a line break between two sentences with no space between
// them ("here.Another", Chinese "。"); between is false before the first
// sentence, whose gap stays.
func lineGap(gap string, between bool) string {
	if !between || strings.Contains(gap, "\n") || strings.TrimFunc(gap, isSpace) != "" {
		return gap
	}
	return "\n"
}

// write writes one piece of text in style st, its control characters
// visible (see Visible).
func (t *textWriter) write(s string, st style) {
	if s == "" {
		return
	}
	s = Visible(s)
	if st == plain {
		t.w.WriteString(s)
		return
	}
	if !t.color {
		open, close := "[-", "-]"
		if st == onlyB {
			open, close = "{+", "+}"
		}
		t.w.WriteString(open + s + close)
		return
	}
	color := ansiRed
	if st == onlyB {
		color = ansiGreen
	}
	// Colour each line on its own so pagers that reset at line ends keep it.
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			t.w.WriteByte('\n')
		}
		if line != "" {
			t.w.WriteString(color + line + ansiReset)
		}
	}
}
