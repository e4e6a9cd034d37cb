package diff

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/clipperhouse/uax29/v2/graphemes"

	"github.com/neardup/neardup/internal/analysis"
)

// TextOptions control WriteText.
type TextOptions struct {
	// Color marks text with ANSI colours: shared text plain, text only in A
	// red, text only in B green, and a word both hold but spell otherwise
	// (see WriteText) in faint red and faint green. Without it, text only
	// in A is written as [-text-] and text only in B as {+text+}, as git's
	// word diff does, A's and B's spelling of such a word too.
	Color bool
}

// ANSI escape sequences of the terminal rendering.
const (
	ansiRed        = "\x1b[31m"
	ansiGreen      = "\x1b[32m"
	ansiFaintRed   = "\x1b[2;31m"
	ansiFaintGreen = "\x1b[2;32m"
	ansiReset      = "\x1b[0m"
)

// style is how a piece of text is marked.
type style uint8

const (
	plain  style = iota
	onlyA        // text only A holds
	onlyB        // text only B holds
	speltA       // A's spelling of words B spells otherwise
	speltB       // B's spelling of words A spells otherwise
)

// WriteText writes d for a terminal: a header line per side with its word
// count, overlap and words moved, then one inline text that reads as A
// with B's edits in place. Shared text appears once, a replacement as A's
// words then B's, text only in A or only in B where it stands, with the
// punctuation around it that only its side holds: without the marks of B,
// the text reads as A, without those of A as B, but for white space. By
// word, the words both texts hold, which the comparison matches by their
// normalised form, are written once where the texts spell them alike; a
// run of them spelt otherwise (another case, full-width digits, an accent
// composed or apart, a curly apostrophe) is written as a replacement is,
// A's spelling then B's, in the milder style of speltA and speltB (faint
// in colour, the same marks without), so that it reads as either text
// too; it still counts as shared. By sentence or line, a shared sentence
// or line is written as A has it. Control and format characters are
// written visibly (see Visible): those of the texts, but for the format
// characters that writing uses in the text both share, which are written
// as they are (see visibleText), and those of the ids, their tabs and line
// ends too (see VisibleLine); the title is quoted as %q quotes it. So a
// document can neither drive the terminal nor forge a header line. The
// texts' own line breaks are kept and lines are not wrapped, so the
// terminal wraps at its width; inline reads better than two columns in
// 80–120 columns, where each column would be too narrow for prose and a
// side that moved on would leave the other column blank.
func WriteText(w io.Writer, d *Diff, o TextOptions) error {
	t := &textWriter{w: bufio.NewWriter(w), color: o.Color}
	t.header("---", "a", &d.A, &d.B, ansiRed)
	t.header("+++", "b", &d.B, &d.A, ansiGreen)
	t.w.WriteString("\n")
	n := len(d.Ops)
	for i := 0; i <= n; i++ {
		// Gap i, before op i, lies between aligned words (or an end of
		// the texts) unless an edit beside it writes it.
		if (i == 0 || d.Ops[i-1].Kind == Equal) && (i == n || d.Ops[i].Kind == Equal) {
			gapA, gapB := d.gapText(i)
			t.gap(gapA, gapB, false)
		}
		if i == n {
			break
		}
		if op := d.Ops[i]; op.Kind == Equal {
			if d.By == ByWord {
				t.equalWords(d, i)
			} else {
				t.write(d.A.opText(op.A, d.By), plain)
			}
			continue
		}
		t.edit(d, i)
	}
	t.flush()
	t.w.WriteString("\n")
	return t.w.Flush()
}

// gapText returns the text of A and of B between op i-1 and op i: from
// the start of the texts before the first op, to their ends less the
// white space there after the last. By sentence, the white space between
// two sentences is a line break (see lineGap).
func (d *Diff) gapText(i int) (gapA, gapB string) {
	posA, posB := 0, 0
	if i > 0 {
		posA, posB = d.Ops[i-1].A.End, d.Ops[i-1].B.End
	}
	if i == len(d.Ops) {
		return strings.TrimRightFunc(d.A.Text[posA:], isSpace), strings.TrimRightFunc(d.B.Text[posB:], isSpace)
	}
	gapA, gapB = d.A.Text[posA:d.Ops[i].A.Start], d.B.Text[posB:d.Ops[i].B.Start]
	if d.By == BySentence {
		gapA, gapB = lineGap(gapA, posA > 0), lineGap(gapB, posB > 0)
	}
	return gapA, gapB
}

// opText returns the text of the side's units of sp: by sentence, one
// sentence a line (see sentenceLines).
func (s *Side) opText(sp Span, by By) string {
	if by == BySentence {
		return s.sentenceLines(sp)
	}
	return s.Text[sp.Start:sp.End]
}

// edit writes op i, a Replace, Delete or Insert, with the gaps before and
// after it. Around a replacement the gaps lie between aligned words on
// both sides (see gap). A Delete has no text in B, where the gaps before
// and after it are one, that faces both of A's (see oneSided); so has an
// Insert in A. Text from B reads on with B's own spacing and punctuation.
func (t *textWriter) edit(d *Diff, i int) {
	op := d.Ops[i]
	beforeA, beforeB := d.gapText(i)
	afterA, afterB := d.gapText(i + 1)
	a, b := d.A.opText(op.A, d.By), d.B.opText(op.B, d.By)
	switch op.Kind {
	case Replace:
		t.gap(beforeA, beforeB, false)
		t.write(a, onlyA)
		t.write(separator(d.By, a, b, beforeB, beforeA, afterA, afterB), plain)
		t.write(b, onlyB)
		t.gap(afterA, afterB, true)
	case Delete:
		t.oneSided(beforeA, a, afterA, afterB, onlyA)
	case Insert:
		t.oneSided(beforeB, b, afterB, afterA, onlyB)
	}
}

// oneSided writes text that one side alone holds, a Delete (st onlyA) or
// an Insert (st onlyB), with the gaps around it: before, the text, after
// of that side, facing other, the other side's gap between the same two
// aligned words. What other shares with the start of before and the end
// of after is written once, as the side of the text has it; the rest of
// the two gaps is marked with the text or as the other side's
// (`passed, the speaker said` against `passed!`:
// passed[-, the speaker said-]{+!+}), A's mark first. White space matches
// white space of any kind, and the white space at the ends of the marks
// is written unmarked.
func (t *textWriter) oneSided(before, text, after, other string, st style) {
	preT, preO := commonPrefix(before, other)
	sufT, sufO := commonSuffix(after, other[preO:])
	t.write(before[:preT], plain)
	leadT, coreT, trailT := splitSpace(before[preT:] + text + after[:len(after)-sufT])
	leadO, coreO, trailO := splitSpace(other[preO : len(other)-sufO])
	t.write(cmp.Or(leadT, leadO), plain)
	if st == onlyA {
		t.write(coreT, onlyA)
		t.write(coreO, onlyB)
	} else {
		t.write(coreO, onlyA)
		t.write(coreT, onlyB)
	}
	t.write(cmp.Or(trailT, trailO), plain)
	t.write(after[len(after)-sufT:], plain)
}

// gap writes the text between two aligned pieces, gapA of A and gapB of
// B: the spacing and punctuation around words, which the alignment of
// words does not compare. When the two hold the same characters but white
// space, it is written once, from B when fromB, else from A. Otherwise
// what differs is marked as text only in one side is, between the
// characters the two share at its ends, written once (`year",` against
// `year;`: year[-",-]{+;+}). White space matches white space of any kind;
// a side's part that is white space alone is written only from the side
// written.
func (t *textWriter) gap(gapA, gapB string, fromB bool) {
	g := gapA
	if fromB {
		g = gapB
	}
	a, b, ok := gapCores(gapA, gapB)
	if !ok {
		t.write(g, plain)
		return
	}
	// The characters shared at the ends, and the white space at the ends
	// of the parts that differ, are written plain, from the side written.
	c := a
	if fromB {
		c = b
	}
	t.write(g[:c.Start], plain)
	t.write(gapA[a.Start:a.End], onlyA)
	t.write(gapB[b.Start:b.End], onlyB)
	t.write(g[c.End:], plain)
}

// equalWords writes the words of op i, of kind Equal, with the spacing
// and punctuation between two of them marked where the sides differ (see
// gap): a word the sides spell alike once, a run of words they spell
// otherwise as A's spelling, then B's (see respelt). A gap that differs
// ends such a run, so that its mark stands between the runs.
func (t *textWriter) equalWords(d *Diff, i int) {
	op := d.Ops[i]
	ua, ub := d.A.unitsIn(op.A), d.B.unitsIn(op.B)
	if len(ua) != len(ub) || len(ua) == 0 { // never, by word: the op pairs its words
		beforeA, beforeB := d.gapText(i)
		afterA, afterB := d.gapText(i + 1)
		t.respelt(d.A.Text[op.A.Start:op.A.End], d.B.Text[op.B.Start:op.B.End], beforeB, beforeA, afterA, afterB)
		return
	}
	word := func(s *Side, u unit) string { return s.Text[u.span.Start:u.span.End] }
	// gaps returns the text of A and B before word k, which a gap of
	// the op or the one before the op holds.
	gaps := func(k int) (string, string) {
		switch {
		case k == 0:
			return d.gapText(i)
		case k == len(ua):
			return d.gapText(i + 1)
		}
		return d.A.Text[ua[k-1].span.End:ua[k].span.Start], d.B.Text[ub[k-1].span.End:ub[k].span.Start]
	}
	// gapDiffers reports whether the gaps before word k, inside the op,
	// differ, and end a run of words spelt otherwise.
	gapDiffers := func(k int) bool {
		ga, gb := gaps(k)
		return withoutSpace(ga) != withoutSpace(gb)
	}
	for k := 0; k < len(ua); {
		if k > 0 {
			gapA, gapB := gaps(k)
			t.gap(gapA, gapB, false)
		}
		if word(&d.A, ua[k]) == word(&d.B, ub[k]) {
			t.write(word(&d.A, ua[k]), plain)
			k++
			continue
		}
		n := 1
		for k+n < len(ua) && word(&d.A, ua[k+n]) != word(&d.B, ub[k+n]) && !gapDiffers(k+n) {
			n++
		}
		beforeA, beforeB := gaps(k)
		afterA, afterB := gaps(k + n)
		t.respelt(d.A.Text[ua[k].span.Start:ua[k+n-1].span.End], d.B.Text[ub[k].span.Start:ub[k+n-1].span.End],
			beforeB, beforeA, afterA, afterB)
		k += n
	}
}

// respelt writes a, words of A that B holds spelt otherwise as b, as a
// replacement is written (see edit) in the milder styles speltA and
// speltB: the words match by their normalised form, so they count as
// shared, but the view must read as either text. gapB is B's text before
// b, around the other gaps of the two (see separator). The words are
// written whole, not only the characters that differ: a word reads better
// whole ([-Paris-] {+paris+}, not [-P-]{+p+}aris).
func (t *textWriter) respelt(a, b, gapB string, around ...string) {
	if a == b {
		t.write(a, plain)
		return
	}
	t.write(a, speltA)
	t.write(separator(ByWord, a, b, gapB, around...), plain)
	t.write(b, speltB)
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

// withoutSpace returns s without its white space, its other bytes as they
// are: strings.Map wrote each byte that is not UTF-8 as U+FFFD, so that two
// gaps holding different such bytes beside a space compared equal.
func withoutSpace(s string) string {
	if strings.IndexFunc(s, isSpace) < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isSpace(r) {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// sameCluster reports whether the grapheme clusters x and y match in a
// gap: equal, or both white space.
func sameCluster(x, y string) bool {
	return x == y || strings.TrimLeftFunc(x, isSpace) == "" && strings.TrimLeftFunc(y, isSpace) == ""
}

// commonPrefix returns the lengths in bytes of the longest prefixes of a
// and b that match grapheme cluster by cluster (see sameCluster), so that
// a mark never cuts a character as its reader sees it: an emoji with its
// skin tone, a family joined by ZWJ, a letter with its accents.
func commonPrefix(a, b string) (int, int) {
	i, j := 0, 0
	ga, gb := graphemes.FromString(a), graphemes.FromString(b)
	for ga.Next() && gb.Next() && sameCluster(ga.Value(), gb.Value()) {
		i, j = ga.End(), gb.End()
	}
	return i, j
}

// commonSuffix returns the lengths in bytes of the longest suffixes of a
// and b that match grapheme cluster by cluster (see commonPrefix).
func commonSuffix(a, b string) (int, int) {
	var bufA, bufB [16]int
	ca, cb := clusterStarts(a, bufA[:0]), clusterStarts(b, bufB[:0])
	i, j := len(a), len(b)
	for k := 1; k <= min(len(ca), len(cb)); k++ {
		sa, sb := ca[len(ca)-k], cb[len(cb)-k]
		if !sameCluster(a[sa:i], b[sb:j]) {
			break
		}
		i, j = sa, sb
	}
	return len(a) - i, len(b) - j
}

// clusterStarts appends to starts the byte offset of each grapheme
// cluster of s.
func clusterStarts(s string, starts []int) []int {
	g := graphemes.FromString(s)
	for g.Next() {
		starts = append(starts, g.Start())
	}
	return starts
}

// textWriter writes the pieces of the inline rendering.
type textWriter struct {
	w     *bufio.Writer
	color bool
	// mark holds the text of the mark being written, in style marked,
	// so that two pieces of one style side by side make one mark.
	mark   strings.Builder
	marked style
}

// header writes a side's summary line, coloured like its text; other is
// the other side.
func (t *textWriter) header(mark, name string, s, other *Side, color string) {
	if s.ID != "" {
		name = VisibleLine(s.ID)
	}
	line := fmt.Sprintf("%s %s", mark, name)
	if s.Title != "" {
		line += fmt.Sprintf(" %q", s.Title)
	}
	line += "  " + s.stat(other)
	if t.color {
		line = color + line + ansiReset
	}
	t.w.WriteString(line + "\n")
}

// stat says the side's words, the share of them shared, how many of
// those moved and how many the edits shown hold (InEdits): "85 words,
// 81.2% shared (10 moved)", "11 words, 36.4% shared (4 inside edits)",
// "1 word, 0.0% shared";
// of a text cut (see Options.MaxWords) that the rest was not compared:
// "the first 100000 words (the rest not compared), 0.3% shared"; and,
// when the other side was cut, that its words were sought in the other's
// first words alone: "50000 words, 1.4% shared with the other's first
// 100000 words".
func (s *Side) stat(other *Side) string {
	words := "words"
	if s.Words == 1 {
		words = "word"
	}
	if s.Cut {
		words = "words (the rest not compared)"
		if s.Words == 1 {
			words = "word (the rest not compared)"
		}
		words = fmt.Sprint(s.Words) + " " + words
		return s.statOf("the first "+words, other)
	}
	return s.statOf(fmt.Sprintf("%d %s", s.Words, words), other)
}

// statOf is stat of the words said.
func (s *Side) statOf(words string, other *Side) string {
	st := fmt.Sprintf("%s, %s shared", words, Percent(s.Overlap()))
	if other.Cut {
		st += fmt.Sprintf(" with the other's first %d words", other.Words)
	}
	var notes []string
	if s.Moved > 0 {
		notes = append(notes, fmt.Sprintf("%d moved", s.Moved))
	}
	if s.InEdits > 0 {
		notes = append(notes, fmt.Sprintf("%d inside edits", s.InEdits))
	}
	if len(notes) > 0 {
		st += " (" + strings.Join(notes, ", ") + ")"
	}
	return st
}

// separator returns the white space between the replaced text a and its
// replacement b: B's own white space before the replacement (its first
// run), or, when B has none there, a line break after text of several
// lines or by sentence or line, and by word a space when the texts put
// spaces between words there: a space on the line in a, b or a gap around
// them (around), or a line break there when a or b holds a letter of a
// script written with spaces (or, of figures alone, when a gap around them
// is white space alone). Where they put none, as Chinese and
// Japanese, nothing separates a from b, even at a line's or paragraph's
// end ("上涨[-0.1-]{+0.3+}%" and a blank line). A separator holds no
// punctuation, which would read as a side's.
func separator(by By, a, b, gapB string, around ...string) string {
	if i := strings.IndexFunc(gapB, isSpace); i >= 0 {
		return gapB[i : len(gapB)-len(strings.TrimLeftFunc(gapB[i:], isSpace))]
	}
	if by != ByWord || strings.Contains(a, "\n") {
		return "\n"
	}
	broken := false // a line break around them
	for _, s := range append(around, a, b) {
		if strings.IndexFunc(s, isBlank) >= 0 {
			return " "
		}
		broken = broken || strings.IndexFunc(s, isSpace) >= 0
	}
	if !broken {
		return ""
	}
	if strings.ContainsFunc(a+b, unicode.IsLetter) {
		if strings.ContainsFunc(a+b, spacedLetter) {
			return " "
		}
		return ""
	}
	// Figures alone: a space when a gap around them is white space alone
	// (a line wrapped after them), as after a word of letters.
	for _, s := range around {
		if s != "" && strings.TrimFunc(s, isSpace) == "" {
			return " "
		}
	}
	return ""
}

// spacedLetter reports a letter of a script written with spaces between
// its words (not analysis.Unspaced).
func spacedLetter(r rune) bool { return unicode.IsLetter(r) && !analysis.Unspaced(r) }

// isBlank reports the white space that sets words apart on a line: a
// space or a tab, not a line break.
func isBlank(r rune) bool {
	return isSpace(r) && r != '\n' && r != '\r' && r != '\v' && r != '\f' && r != 0x85 && r != 0x2028 && r != 0x2029
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
// visible: shared text as visibleText writes it, a mark as Visible does.
// A piece marked as the one before it joins its mark ([-<script>-], not
// [-<-][-script>-]); flush ends the mark.
func (t *textWriter) write(s string, st style) {
	if s == "" {
		return
	}
	if st != t.marked {
		t.flush()
	}
	if st == plain {
		t.w.WriteString(visibleText(s))
		return
	}
	t.mark.WriteString(s)
	t.marked = st
}

// flush writes the mark being written, if any.
func (t *textWriter) flush() {
	if t.mark.Len() == 0 {
		return
	}
	// Every format character of a mark is shown, those writing uses
	// too (see visibleText): a change must not hide what it changes, and
	// a mark of a soft hyphen or a direction mark alone would show as
	// nothing.
	s, st := Visible(t.mark.String()), t.marked
	t.mark.Reset()
	t.marked = plain
	if !t.color {
		open, close := "[-", "-]"
		if st == onlyB || st == speltB {
			open, close = "{+", "+}"
		}
		t.w.WriteString(open + s + close)
		return
	}
	color := [...]string{onlyA: ansiRed, onlyB: ansiGreen, speltA: ansiFaintRed, speltB: ansiFaintGreen}[st]
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
