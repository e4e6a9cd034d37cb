package diff

import "strings"

// The alignment compares words, sentences or lines; the spacing and
// punctuation between them (a gap) is no unit, and no Op holds it. The
// renderings still show where the two texts' gaps differ (a minus sign
// only one holds, "$" against "€", "," against ";"), as WriteText marks
// them: puncts finds those differences once, for WriteHTML and WriteJSON.

// punctPlace says where a punct lies.
type punctPlace uint8

const (
	between punctPlace = iota // in the gap before op, between shared text or an end of the texts
	inner                     // in the gap before word k of op, an Equal op by word
	beside                    // beside op, an edit, whose mark it joins
)

// punct is a difference between the two texts' gaps that WriteText marks:
// a and b are the bytes of A and of B it marks, one of them possibly
// empty, at the place where the other side's would go.
type punct struct {
	a, b  Span
	place punctPlace
	op    int // the op it lies before (between), inside (inner) or beside
	k     int // inner: the word of op it lies before
}

// puncts returns the differences of the gaps that WriteText marks, in the
// order of the texts: between shared text, those of gap (see gapCores);
// beside a replacement, those of the gaps before and after it; beside a
// deletion or an insertion, the punctuation only its side holds around it
// with its text, and what the other side holds instead (see oneSidedCores).
func (d *Diff) puncts() []punct {
	var ps []punct
	n := len(d.Ops)
	for i := 0; i <= n; i++ {
		if (i == 0 || d.Ops[i-1].Kind == Equal) && (i == n || d.Ops[i].Kind == Equal) {
			ga, gb := d.gapSpans(i)
			if a, b, ok := gapCores(d.A.Text[ga.Start:ga.End], d.B.Text[gb.Start:gb.End]); ok {
				ps = append(ps, punct{a: shift(a, ga.Start), b: shift(b, gb.Start), place: between, op: i})
			}
		}
		if i == n {
			break
		}
		switch d.Ops[i].Kind {
		case Equal:
			if d.By == ByWord {
				ps = d.innerPuncts(ps, i)
			}
		case Replace:
			for _, g := range [2]int{i, i + 1} {
				ga, gb := d.gapSpans(g)
				if a, b, ok := gapCores(d.A.Text[ga.Start:ga.End], d.B.Text[gb.Start:gb.End]); ok {
					ps = append(ps, punct{a: shift(a, ga.Start), b: shift(b, gb.Start), place: beside, op: i})
				}
			}
		case Delete:
			a0, _ := d.gapSpans(i)
			a1, b1 := d.gapSpans(i + 1)
			ca, cb := oneSidedCores(d.A.Text, a0, a1, d.B.Text[b1.Start:b1.End])
			ps = append(ps, punct{a: ca, b: shift(cb, b1.Start), place: beside, op: i})
		case Insert:
			_, b0 := d.gapSpans(i)
			a1, b1 := d.gapSpans(i + 1)
			cb, ca := oneSidedCores(d.B.Text, b0, b1, d.A.Text[a1.Start:a1.End])
			ps = append(ps, punct{a: shift(ca, a1.Start), b: cb, place: beside, op: i})
		}
	}
	return ps
}

// innerPuncts appends the differences of the gaps between the words of op
// i, an Equal op by word, that WriteText marks: every one, inside a run of
// words spelt otherwise too, which then ends there (see equalWords).
func (d *Diff) innerPuncts(ps []punct, i int) []punct {
	u := d.spans[i]
	for k := 1; k < u.a1-u.a0; k++ {
		ga := Span{d.A.units[u.a0+k-1].span.End, d.A.units[u.a0+k].span.Start}
		gb := Span{d.B.units[u.b0+k-1].span.End, d.B.units[u.b0+k].span.Start}
		if a, b, ok := gapCores(d.A.Text[ga.Start:ga.End], d.B.Text[gb.Start:gb.End]); ok {
			ps = append(ps, punct{a: shift(a, ga.Start), b: shift(b, gb.Start), place: inner, op: i, k: k})
		}
	}
	return ps
}

// gapDiffers reports whether the gaps before unit ua of A and ub of B, two
// words of an Equal op past its first, differ but for white space.
func (d *Diff) gapDiffers(ua, ub int) bool {
	return withoutSpace(d.A.gapBefore(ua)) != withoutSpace(d.B.gapBefore(ub))
}

// gapSpans returns the spans of A and B that gapText returns the text of:
// between op i-1 and op i, the ends of the texts less their trailing white
// space past the last.
func (d *Diff) gapSpans(i int) (a, b Span) {
	posA, posB := 0, 0
	if i > 0 {
		posA, posB = d.Ops[i-1].A.End, d.Ops[i-1].B.End
	}
	if i == len(d.Ops) {
		return Span{posA, len(strings.TrimRightFunc(d.A.Text, isSpace))}, Span{posB, len(strings.TrimRightFunc(d.B.Text, isSpace))}
	}
	return Span{posA, d.Ops[i].A.Start}, Span{posB, d.Ops[i].B.Start}
}

// gapCores returns the parts of gapA and gapB that gap marks, as spans of
// them: what lies between the characters the two share at their ends,
// without the white space at its ends; ok is false when the two hold the
// same characters but white space, and gap marks nothing.
func gapCores(gapA, gapB string) (a, b Span, ok bool) {
	if withoutSpace(gapA) == withoutSpace(gapB) {
		return Span{}, Span{}, false
	}
	preA, preB := commonPrefix(gapA, gapB)
	sufA, sufB := commonSuffix(gapA[preA:], gapB[preB:])
	return core(gapA, preA, len(gapA)-sufA), core(gapB, preB, len(gapB)-sufB), true
}

// oneSidedCores returns what oneSided marks of a deletion or an insertion
// of text, as spans: of text, the part of [before.Start, after.End) from
// the end of what before shares with other to the start of what after
// shares with it, and the part of other between the two, each without the
// white space at its ends. before and after are the gaps of text around
// the edit; other is the other side's gap facing both.
func oneSidedCores(text string, before, after Span, other string) (t, o Span) {
	preT, preO := commonPrefix(text[before.Start:before.End], other)
	sufT, sufO := commonSuffix(text[after.Start:after.End], other[preO:])
	return core(text, before.Start+preT, after.End-sufT), core(other, preO, len(other)-sufO)
}

// core returns the span of s[i:j] without the white space at its ends.
func core(s string, i, j int) Span {
	lead, c, _ := splitSpace(s[i:j])
	return Span{i + len(lead), i + len(lead) + len(c)}
}

// shift returns sp moved by off bytes.
func shift(sp Span, off int) Span { return Span{sp.Start + off, sp.End + off} }

// empty reports whether sp holds no byte.
func (s Span) empty() bool { return s.End <= s.Start }

// markedOps returns the ops of d as WriteJSON writes them, each difference
// of the gaps that WriteText marks (see puncts) in an op that is not Equal:
// one beside an edit widens it (a deletion that B's punctuation faces
// becomes a replacement), unless it lies beside a replacement with
// punctuation both texts hold between the two ("$ - a" facing " - the");
// that one, and one between shared text, is an op of its own; an Equal op
// holding one is cut there. So the text between the ops is the same on
// both sides but for white space.
func (d *Diff) markedOps() []Op {
	ps := d.puncts()
	out := make([]Op, 0, len(d.Ops)+len(ps))
	next := 0
	take := func(place punctPlace, i int) (punct, bool) {
		if next < len(ps) && ps[next].place == place && ps[next].op == i {
			next++
			return ps[next-1], true
		}
		return punct{}, false
	}
	for i := 0; i <= len(d.Ops); i++ {
		for p, ok := take(between, i); ok; p, ok = take(between, i) {
			out = append(out, widen(Op{Kind: Equal, A: Span{p.a.Start, p.a.Start}, B: Span{p.b.Start, p.b.Start}}, p))
		}
		if i == len(d.Ops) {
			break
		}
		op := d.Ops[i]
		if op.Kind != Equal {
			var after []Op
			for p, ok := take(beside, i); ok; p, ok = take(beside, i) {
				switch {
				case op.Kind != Replace || d.touches(op, p):
					op = widen(op, p)
				case p.a.End <= op.A.Start && p.b.End <= op.B.Start:
					out = append(out, widen(Op{A: Span{p.a.Start, p.a.Start}, B: Span{p.b.Start, p.b.Start}}, p))
				default:
					after = append(after, widen(Op{A: Span{p.a.Start, p.a.Start}, B: Span{p.b.Start, p.b.Start}}, p))
				}
			}
			out = append(append(out, op), after...)
			continue
		}
		u, start := d.spans[i], 0
		for p, ok := take(inner, i); ok; p, ok = take(inner, i) {
			out = append(out, Op{Kind: Equal, A: d.A.span(u.a0+start, u.a0+p.k), B: d.B.span(u.b0+start, u.b0+p.k)},
				widen(Op{Kind: Equal, A: Span{p.a.Start, p.a.Start}, B: Span{p.b.Start, p.b.Start}}, p))
			start = p.k
		}
		out = append(out, Op{Kind: Equal, A: d.A.span(u.a0+start, u.a1), B: d.B.span(u.b0+start, u.b1)})
	}
	return out
}

// touches reports whether nothing but white space lies between p and op,
// a replacement beside it, on either side.
func (d *Diff) touches(op Op, p punct) bool {
	near := func(text string, op, p Span) bool {
		if p.empty() {
			return true
		}
		if p.End <= op.Start {
			return strings.TrimFunc(text[p.End:op.Start], isSpace) == ""
		}
		return strings.TrimFunc(text[op.End:p.Start], isSpace) == ""
	}
	return near(d.A.Text, op.A, p.a) && near(d.B.Text, op.B, p.b)
}

// widen returns op, its spans widened to take in p's, of the kind of the
// sides that then hold text: Replace, Delete or Insert.
func widen(op Op, p punct) Op {
	op.A, op.B = union(op.A, p.a), union(op.B, p.b)
	switch {
	case !op.A.empty() && !op.B.empty():
		op.Kind = Replace
	case !op.A.empty():
		op.Kind = Delete
	default:
		op.Kind = Insert
	}
	return op
}

// union returns the span from the start of the earlier of s and t to the
// end of the later; an empty one leaves the other as it is.
func union(s, t Span) Span {
	switch {
	case t.empty():
		return s
	case s.empty():
		return t
	}
	return Span{min(s.Start, t.Start), max(s.End, t.End)}
}
