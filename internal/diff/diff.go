package diff

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
)

// By is the unit two texts are aligned by.
type By uint8

// The units of alignment.
const (
	ByWord     By = iota // words: the finest view, the default
	BySentence           // sentences: shows which sentences were kept, dropped or rewritten
	ByLine               // lines: for texts whose line breaks carry meaning (lists, tables)
)

var byNames = [...]string{ByWord: "word", BySentence: "sentence", ByLine: "line"}

// String returns the name ParseBy accepts.
func (b By) String() string {
	if int(b) < len(byNames) {
		return byNames[b]
	}
	return fmt.Sprintf("By(%d)", b)
}

// ParseBy returns the By named "word", "sentence" or "line".
func ParseBy(s string) (By, error) {
	for b, name := range byNames {
		if s == name {
			return By(b), nil
		}
	}
	return 0, fmt.Errorf("diff: unknown unit %q (want word, sentence or line)", s)
}

// Options control Compare. The zero value aligns words.
type Options struct {
	// By is the unit of alignment. Default ByWord.
	By By
	// MaxWords, when above 0, bounds the words compared of each text: a
	// longer text is compared by its first MaxWords words alone (Side.Cut),
	// which bounds the time and memory of a comparison whatever the texts
	// (see MaxServedWords). 0 compares the texts whole.
	MaxWords int
}

// Kind says how an Op relates the two texts.
type Kind uint8

// The kinds of Op.
const (
	Equal   Kind = iota // the same units on both sides (after normalisation)
	Replace             // units of A replaced by other units in B
	Delete              // units only in A
	Insert              // units only in B
)

var kindNames = [...]string{Equal: "equal", Replace: "replace", Delete: "delete", Insert: "insert"}

// String returns "equal", "replace", "delete" or "insert".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Span is the half-open byte range [Start, End) of a text.
type Span struct{ Start, End int }

// MarshalJSON writes the span as [start, end].
func (s Span) MarshalJSON() ([]byte, error) { return json.Marshal([2]int{s.Start, s.End}) }

// Op is one step of the alignment. A and B are the byte spans of its units in
// the two original texts, from the start of the first unit to the end of
// the last; the whitespace and punctuation between units is not part of any
// Op. The side an Op lacks (B of a Delete, A of an Insert) has an empty span
// at the end of that side's previous unit (0 at the start of the text),
// which is where the other side's text would go.
type Op struct {
	Kind Kind
	A, B Span
}

// Side is one of the two texts of a Diff.
type Side struct {
	// ID and Title label the text in renderings; Compare leaves them empty
	// for the caller to set.
	ID, Title string
	// Text is the text compared; every Span of the Diff points into it.
	// When Cut, it is the start of the text given, its first
	// Options.MaxWords words, up to the start of the next.
	Text string
	// Cut is true when the text given held more than Options.MaxWords
	// words and only the first MaxWords were compared: the other side's
	// Shared then counts only its words found in those.
	Cut bool
	// Words counts the words of Text. Shared counts those found in the
	// other text: in place (the units the alignment matched, including
	// the runs of one or two words that the word view shows inside a
	// replacement) or moved. Moved counts the words of Shared found
	// elsewhere in the other text than in place: those of a run of at
	// least minMovedWords words, by word, or of whole sentences or lines,
	// by sentence or line, that the alignment left out on both sides, when
	// the passage is too improbable to recur by chance (see shared.go). A
	// run the alignment matched that is shorter than that (a "the" of a
	// moved sentence lined up with one of the sentence now in its place)
	// does not cut a passage: the passage holds it, and its words count
	// as moved, not in place. The ops show a moved passage as deleted
	// where it was and inserted where it went. Each word is found for one
	// word of the other text at most, so that a passage one text holds
	// twice and the other once is shared once, and both sides count as
	// many words shared, and as many moved.
	Words, Shared, Moved int
	// InEdits counts the words of Shared, matched in place, that the Ops
	// show inside a Replace rather than as an Equal of their own: by word,
	// the runs of one or two words (a lone "the" or "of the" between two
	// edits) that cleanup merges into the edits around them for display.
	// Shared - Moved - InEdits are the words of the Equal Ops. It is 0 by
	// sentence or line, which merge nothing.
	InEdits int

	units []unit
	words []uint64 // hash of each word of Text, in order
}

// Overlap returns the share of the side's words found in the other text
// (Shared/Words), in place or moved, 0 for a text without words.
func (s *Side) Overlap() float64 {
	if s.Words == 0 {
		return 0
	}
	return float64(s.Shared) / float64(s.Words)
}

// Diff is the alignment of text A with text B: Ops cover every unit of both
// texts in order.
type Diff struct {
	By   By
	A, B Side
	Ops  []Op
	// Incomplete is true when Compare spent its work budget before it had
	// aligned every part of the texts (long texts of a few distinct words
	// repeated, with little in common, or of one passage repeated more than
	// about a hundred times): the parts left show as replaced, and Shared
	// may be lower than what the texts share.
	Incomplete bool

	spans []unitOp // unit ranges of each Op, parallel to Ops
}

// unit is one compared element of a text.
type unit struct {
	span  Span
	key   uint64 // hash of the normalised form
	w0    int    // index of the unit's first word in Side.words
	words int    // words inside span
}

// unitOp is an Op in unit indexes: A units [a0,a1), B units [b0,b1).
type unitOp struct {
	kind           Kind
	a0, a1, b0, b1 int
}

// Compare aligns a with b. It never fails: texts without units give a Diff
// without Ops. It takes time close to linear in the texts' length when they
// are alike; unrelated texts of 10,000 words take milliseconds.
// Compare(b, a) is Compare(a, b) with its sides swapped: the same words
// shared and moved, a deletion one way an insertion the other.
func Compare(a, b string, o Options) *Diff {
	d, _ := CompareContext(context.Background(), a, b, o) // a context that never ends: never fails
	return d
}

// CompareContext is Compare that stops when ctx ends: it looks at ctx
// between its stages and, in the alignment, every few thousand units
// compared, and then returns nil and ctx's error, so that the comparison
// of long texts does not outlive the request that asked for it.
func CompareContext(ctx context.Context, a, b string, o Options) (*Diff, error) {
	st := &stopper{ctx: ctx}
	var s splitter
	cutA, cutB := false, false
	a, cutA = cutWords(&s.an, a, o.MaxWords)
	b, cutB = cutWords(&s.an, b, o.MaxWords)
	swap := b < a // the alignment breaks its ties by the order of its texts
	if swap {
		a, b, cutA, cutB = b, a, cutB, cutA
	}
	d := compare(st, &s, a, b, o)
	if d == nil {
		return nil, st.err
	}
	d.A.Cut, d.B.Cut = cutA, cutB
	if swap {
		d = d.swapped()
	}
	return d, nil
}

// swapped returns d with its sides swapped: the alignment of B with A.
func (d *Diff) swapped() *Diff {
	d.A, d.B = d.B, d.A
	flip := [...]Kind{Equal: Equal, Replace: Replace, Delete: Insert, Insert: Delete}
	for i, u := range d.spans {
		d.spans[i] = unitOp{flip[u.kind], u.b0, u.b1, u.a0, u.a1}
	}
	for i, op := range d.Ops {
		d.Ops[i] = Op{Kind: flip[op.Kind], A: op.B, B: op.A}
	}
	return d
}

// compare is Compare of a and b in this order; nil once st stopped.
func compare(st *stopper, s *splitter, a, b string, o Options) *Diff {
	d := &Diff{By: o.By}
	d.A = s.side(a, o.By)
	if st.now() {
		return nil
	}
	d.B = s.side(b, o.By)
	if st.now() {
		return nil
	}
	ka, kb := keys(d.A.units), keys(d.B.units)
	ms, complete := align(st, ka, kb)
	if st.now() {
		return nil
	}
	d.Incomplete = !complete
	if o.By == ByWord {
		ms = d.slide(ms)
	}
	ms = d.countShared(ms, ka, kb, minMoved(o.By))
	if st.now() {
		return nil
	}
	ops := unitOps(ms, len(d.A.units), len(d.B.units))
	if o.By == ByWord {
		ops = cleanup(ops) // for display: the shared counts are the alignment's
	}
	d.spans = ops
	d.countInEdits()
	d.Ops = make([]Op, len(ops))
	for i, u := range ops {
		d.Ops[i] = Op{Kind: u.kind, A: d.A.span(u.a0, u.a1), B: d.B.span(u.b0, u.b1)}
	}
	return d
}

// countInEdits sets InEdits of both sides from d.spans: the words shared
// in place that no Equal op shows.
func (d *Diff) countInEdits() {
	eqA, eqB := 0, 0
	for _, u := range d.spans {
		if u.kind == Equal {
			eqA += d.A.wordCount(u.a0, u.a1)
			eqB += d.B.wordCount(u.b0, u.b1)
		}
	}
	d.A.InEdits = d.A.Shared - d.A.Moved - eqA
	d.B.InEdits = d.B.Shared - d.B.Moved - eqB
}

func keys(us []unit) []uint64 {
	k := make([]uint64, len(us))
	for i, u := range us {
		k[i] = u.key
	}
	return k
}

// span returns the byte span of units [i,j), empty at the end of unit i-1
// when i == j.
func (s *Side) span(i, j int) Span {
	switch {
	case i < j:
		return Span{s.units[i].span.Start, s.units[j-1].span.End}
	case i > 0:
		return Span{s.units[i-1].span.End, s.units[i-1].span.End}
	}
	return Span{}
}

func (s *Side) wordCount(i, j int) int {
	n := 0
	for _, u := range s.units[i:j] {
		n += u.words
	}
	return n
}

// unitOps turns the matches into alternating runs of Equal and other Ops.
func unitOps(ms []match, na, nb int) []unitOp {
	var ops []unitOp
	i, j := 0, 0
	gap := func(a, b int) {
		switch {
		case i < a && j < b:
			ops = append(ops, unitOp{Replace, i, a, j, b})
		case i < a:
			ops = append(ops, unitOp{Delete, i, a, j, j})
		case j < b:
			ops = append(ops, unitOp{Insert, i, i, j, b})
		}
	}
	for _, m := range ms {
		gap(m.a, m.b)
		ops = append(ops, unitOp{Equal, m.a, m.a + m.n, m.b, m.b + m.n})
		i, j = m.a+m.n, m.b+m.n
	}
	gap(na, nb)
	return ops
}

// maxChaff is the longest run of equal words cleanup may merge into the
// edits around it; longer shared runs are rarely chance.
const maxChaff = 2

// cleanup merges into the edits around it every run of at most maxChaff
// equal units that is no longer than the edit on either side of it: an
// isolated "the" or "of" matched inside rewritten text reads better as part
// of the replacement. It works in place.
func cleanup(ops []unitOp) []unitOp {
	out := ops[:0]
	for _, op := range ops {
		out = append(out, op)
		for len(out) >= 3 {
			p, e, n := out[len(out)-3], out[len(out)-2], out[len(out)-1]
			if p.kind == Equal || e.kind != Equal || n.kind == Equal {
				break
			}
			eq := e.a1 - e.a0
			if eq > maxChaff || eq > max(p.a1-p.a0, p.b1-p.b0) || eq > max(n.a1-n.a0, n.b1-n.b0) {
				break
			}
			out = append(out[:len(out)-3], unitOp{Replace, p.a0, n.a1, p.b0, n.b1})
		}
	}
	return out
}

// Percent writes a share of a text's words as a percentage of one decimal
// that never reads as all or none when it is not: "99.9%" for 99,990 words
// of 100,000 (not "100.0%"), "0.1%" for one of 100,000.
func Percent(f float64) string {
	p := 100 * f
	switch {
	case f < 1 && p > 99.9:
		p = 99.9
	case f > 0 && p < 0.1:
		p = 0.1
	}
	return strconv.FormatFloat(p, 'f', 1, 64) + "%"
}
