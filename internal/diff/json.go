package diff

import (
	"encoding/json"
	"io"
	"math"
)

// jsonDiff is the JSON form of a Diff, the format of WriteJSON.
type jsonDiff struct {
	By         string   `json:"by"`
	Incomplete bool     `json:"incomplete"`
	A          jsonSide `json:"a"`
	B          jsonSide `json:"b"`
	Ops        []jsonOp `json:"ops"`
}

type jsonSide struct {
	ID       string  `json:"id"`
	Title    string  `json:"title,omitempty"`
	Words    int     `json:"words"`
	Shared   int     `json:"shared"`
	Moved    int     `json:"moved"`
	InEdits  int     `json:"in_edits"`
	Overlap  float64 `json:"overlap"`
	Cut      bool    `json:"cut,omitempty"`
	OtherCut bool    `json:"other_cut,omitempty"`
}

type jsonOp struct {
	Op    string `json:"op"`
	A     Span   `json:"a"`
	B     Span   `json:"b"`
	AText string `json:"a_text"`
	BText string `json:"b_text"`
}

// WriteJSON writes d as one indented JSON object:
//
//	{"by": "word", "incomplete": false,
//	 "a": {"id", "title", "words", "shared", "moved", "in_edits", "overlap"[, "cut": true][, "other_cut": true]}, "b": {...},
//	 "ops": [{"op": "equal|replace|delete|insert", "a": [start, end], "b": [start, end],
//	          "a_text": "...", "b_text": "..."}, ...]}
//
// Spans are byte offsets into the original texts; a_text and b_text are the
// texts they cover (empty for the side an op lacks). The ops are the
// Diff's Ops with the punctuation and symbols that WriteText marks (a minus
// sign, "$" against "€", "," against ";") in ops that are not "equal": one
// beside an edit widens its spans (a "delete" of words whose punctuation
// B replaced becomes a "replace"), unless punctuation both texts hold lies
// between the two ("$" of "rose$ - a" facing "rose - the"); that one, and
// one between two "equal" ops, is an op of its own. So the text between
// the ops is the same in both texts but for white space, and by word an
// "equal" op's texts differ only in spacing and in the spelling of its
// words (another case, full-width digits, an accent composed or apart),
// which the comparison does not tell apart. By sentence or line the ops'
// units are whole sentences or lines, matched by their words alone: an
// "equal" op's texts may differ in the punctuation and symbols inside them
// too, which are not compared. Words, Shared, Moved and in_edits (InEdits:
// the words shared in place that a "replace" op holds, a lone "the" between
// two edits, so that the "equal" ops hold shared - moved - in_edits words)
// are the Side's counts; overlap is Shared/Words rounded to four decimals, never 1
// unless every word is shared nor 0 unless none is (0.9999 and 0.0001
// then). "cut": true, present only then, is the Side's Cut: only the
// text's first Options.MaxWords words were compared, which words counts and
// the ops cover. "other_cut": true, present only then, is the other Side's
// Cut: this side's words were sought in the other's first MaxWords words
// alone, so shared and overlap count only those found there.
// Incomplete is the Diff's: true when the alignment ran out of its work
// budget, and the texts may share more than shared says.
func WriteJSON(w io.Writer, d *Diff) error {
	ops := d.markedOps()
	out := jsonDiff{By: d.By.String(), Incomplete: d.Incomplete, A: side(&d.A, &d.B), B: side(&d.B, &d.A), Ops: make([]jsonOp, len(ops))}
	for i, op := range ops {
		out.Ops[i] = jsonOp{Op: op.Kind.String(), A: op.A, B: op.B,
			AText: d.A.Text[op.A.Start:op.A.End], BText: d.B.Text[op.B.Start:op.B.End]}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(&out)
}

func side(s, other *Side) jsonSide {
	return jsonSide{ID: s.ID, Title: s.Title, Words: s.Words, Shared: s.Shared, Moved: s.Moved, InEdits: s.InEdits,
		Overlap: overlapRounded(s.Overlap()), Cut: s.Cut, OtherCut: other.Cut}
}

// overlapRounded rounds a share to four decimals, keeping one below 1 below
// it and one above 0 above it, as Percent does.
func overlapRounded(f float64) float64 {
	r := math.Round(f*1e4) / 1e4
	switch {
	case r == 1 && f < 1:
		return 0.9999
	case r == 0 && f > 0:
		return 0.0001
	}
	return r
}
