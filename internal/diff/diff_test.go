package diff

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// step is an Op as the tests spell it: its kind and the texts it covers.
type step struct{ Op, A, B string }

func steps(d *Diff) []step {
	out := make([]step, len(d.Ops))
	for i, op := range d.Ops {
		out[i] = step{op.Kind.String(), d.A.Text[op.A.Start:op.A.End], d.B.Text[op.B.Start:op.B.End]}
	}
	return out
}

func TestCompare(t *testing.T) {
	tests := []struct {
		name             string
		a, b             string
		by               By
		want             []step
		sharedA, sharedB int
	}{
		{name: "both empty", a: "", b: "", want: []step{}},
		{name: "only punctuation", a: "-- !!", b: "...", want: []step{}},
		{name: "empty A", a: "", b: "Breaking news.", want: []step{{"insert", "", "Breaking news"}}},
		{name: "empty B", a: "Breaking news.", b: " ", want: []step{{"delete", "Breaking news", ""}}},
		{name: "identical", a: "One two. Three.", b: "One two. Three.",
			want: []step{{"equal", "One two. Three", "One two. Three"}}, sharedA: 3, sharedB: 3},
		{name: "case and spacing", a: "The  Cat,\nsat.", b: "the cat sat",
			want: []step{{"equal", "The  Cat,\nsat", "the cat sat"}}, sharedA: 3, sharedB: 3},
		{name: "disjoint", a: "alpha beta gamma", b: "delta epsilon",
			want: []step{{"replace", "alpha beta gamma", "delta epsilon"}}},
		{name: "replace in the middle", a: "the cat sat on the mat", b: "the dog sat on the mat",
			want:    []step{{"equal", "the", "the"}, {"replace", "cat", "dog"}, {"equal", "sat on the mat", "sat on the mat"}},
			sharedA: 5, sharedB: 5},
		{name: "insert at start", a: "world peace", b: "Hello world peace",
			want: []step{{"insert", "", "Hello"}, {"equal", "world peace", "world peace"}}, sharedA: 2, sharedB: 2},
		{name: "delete at end", a: "world peace now", b: "world peace",
			want: []step{{"equal", "world peace", "world peace"}, {"delete", "now", ""}}, sharedA: 2, sharedB: 2},
		{name: "chaff merged into replacement, and shared", a: "red apples and green pears", b: "blue plums and yellow figs",
			want: []step{{"replace", "red apples and green pears", "blue plums and yellow figs"}}, sharedA: 1, sharedB: 1},
		{name: "Polish diacritics and case", a: "Zażółć gęślą jaźń w Łodzi.", b: "ZAŻÓŁĆ GĘŚLĄ JAŹŃ w Krakowie.",
			want:    []step{{"equal", "Zażółć gęślą jaźń w", "ZAŻÓŁĆ GĘŚLĄ JAŹŃ w"}, {"replace", "Łodzi", "Krakowie"}},
			sharedA: 4, sharedB: 4},
		{name: "Cyrillic yo and case", a: "Учёные нашли воду.", b: "УЧЕНЫЕ нашли лёд.",
			want: []step{{"equal", "Учёные нашли", "УЧЕНЫЕ нашли"}, {"replace", "воду", "лёд"}}, sharedA: 2, sharedB: 2},
		{name: "NFKC ligature", a: "ﬁnal result", b: "final result",
			want: []step{{"equal", "ﬁnal result", "final result"}}, sharedA: 2, sharedB: 2},
		{name: "glued sentences by word", a: "It rained.Then it stopped.", b: "It rained. Then it stopped.",
			want: []step{{"equal", "It rained.Then it stopped", "It rained. Then it stopped"}}, sharedA: 5, sharedB: 5},
		{name: "glued sentences by sentence", by: BySentence,
			a: "The storm hit the coast.Power was cut in the city.", b: "The storm hit the coast. Power was cut in the city.",
			want:    []step{{"equal", "The storm hit the coast.Power was cut in the city.", "The storm hit the coast. Power was cut in the city."}},
			sharedA: 11, sharedB: 11},
		{name: "moved sentence", by: BySentence,
			a: "First comes first. Second comes next. Third ends it.", b: "Second comes next. Third ends it. First comes first.",
			want: []step{{"delete", "First comes first.", ""}, {"equal", "Second comes next. Third ends it.", "Second comes next. Third ends it."},
				{"insert", "", "First comes first."}},
			// moved, but too short (6.5 bits) to be unlikely by chance in texts of 9 words (13 bits)
			sharedA: 6, sharedB: 6},
		{name: "sentence rewritten", by: BySentence,
			a: "Markets fell today. Oil rose sharply. Gold was flat.", b: "Markets fell today. Oil rose a little. Gold was flat.",
			want: []step{{"equal", "Markets fell today.", "Markets fell today."}, {"replace", "Oil rose sharply.", "Oil rose a little."},
				{"equal", "Gold was flat.", "Gold was flat."}},
			sharedA: 6, sharedB: 6},
		{name: "lines ignore spacing", by: ByLine,
			a: "Name: Anna\n\n  Age: 31  \nCity: Gdańsk", b: "name: anna\nAge 31\nCity: Warszawa\n",
			want:    []step{{"equal", "Name: Anna\n\n  Age: 31", "name: anna\nAge 31"}, {"replace", "City: Gdańsk", "City: Warszawa"}},
			sharedA: 4, sharedB: 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := Compare(tc.a, tc.b, Options{By: tc.by})
			if diff := cmp.Diff(tc.want, steps(d)); diff != "" {
				t.Errorf("ops (-want +got):\n%s", diff)
			}
			if d.A.Shared != tc.sharedA || d.B.Shared != tc.sharedB {
				t.Errorf("shared words = %d, %d; want %d, %d", d.A.Shared, d.B.Shared, tc.sharedA, tc.sharedB)
			}
			checkInvariants(t, d)
		})
	}
}

func TestOverlap(t *testing.T) {
	d := Compare("one two three four", "one two five", Options{})
	if got, want := [2]float64{d.A.Overlap(), d.B.Overlap()}, [2]float64{0.5, 2.0 / 3}; got != want {
		t.Errorf("overlap = %v, want %v", got, want)
	}
	if got := Compare("", "", Options{}).A.Overlap(); got != 0 {
		t.Errorf("overlap of an empty text = %v, want 0", got)
	}
}

// TestOverlapCountsWordsSharedInPlace: the overlap ratio counts every word
// the alignment matched in place, the runs of one or two words between
// edits too, which the word view shows inside a replacement. Regression:
// they were left out (6.7 % of a rewritten sentence shared where 8 of its
// 15 words stand in the same order in the other).
func TestOverlapCountsWordsSharedInPlace(t *testing.T) {
	tests := []struct {
		name             string
		a, b             string
		sharedA, sharedB int
	}{
		{"rewritten sentence", "Officials said on Monday the river rose two metres overnight near the old town bridge.",
			"Officials claimed on Tuesday the water rose three metres yesterday near the new town square.", 8, 8},
		{"alternating words", "alpha one beta two gamma three delta four", "alpha five beta six gamma seven delta eight", 4, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := Compare(tc.a, tc.b, Options{})
			if d.A.Shared != tc.sharedA || d.B.Shared != tc.sharedB || d.A.Moved+d.B.Moved != 0 {
				t.Errorf("shared %d, %d (moved %d, %d); want %d, %d, none moved", d.A.Shared, d.B.Shared, d.A.Moved, d.B.Moved, tc.sharedA, tc.sharedB)
			}
			checkInvariants(t, d)
		})
	}
}

// TestSharedWordsInsideEditsAreCounted: the words matched in place that
// the ops show inside a replacement (a lone "and", "of", "to" and "the"
// between rewritten words) are counted as InEdits, and the header and the
// JSON say so; moved words are not among them. Regression: "11 words,
// 36.4% shared" above a diff that was one replacement, and "shared": 4 in
// JSON without an "equal" op.
func TestSharedWordsInsideEditsAreCounted(t *testing.T) {
	a := "alpha beta and gamma of delta epsilon to zeta the eta"
	b := "one two and three of four five to six the seven"
	d := Compare(a, b, Options{})
	if got := steps(d); len(got) != 1 || got[0].Op != "replace" {
		t.Fatalf("ops %v; want one replacement", got)
	}
	for _, s := range []*Side{&d.A, &d.B} {
		if s.Shared != 4 || s.Moved != 0 || s.InEdits != 4 {
			t.Errorf("%q: shared %d, moved %d, inside edits %d; want 4 shared, all 4 inside the edit", s.Text, s.Shared, s.Moved, s.InEdits)
		}
	}
	var text, js strings.Builder
	if err := WriteText(&text, d, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "11 words, 36.4% shared (4 inside edits)") {
		t.Errorf("header does not say 4 of the shared words are inside edits:\n%s", text.String())
	}
	if err := WriteJSON(&js, d); err != nil {
		t.Fatal(err)
	}
	var out struct {
		A, B struct {
			InEdits int `json:"in_edits"`
		}
	}
	if err := json.Unmarshal([]byte(js.String()), &out); err != nil {
		t.Fatal(err)
	}
	if out.A.InEdits != 4 || out.B.InEdits != 4 {
		t.Errorf("JSON in_edits %d, %d; want 4, 4:\n%s", out.A.InEdits, out.B.InEdits, js.String())
	}
	// What the doc promises, counted apart from the diff's own counters:
	// the "equal" ops hold the shared words less the moved and those
	// inside edits (their text's words, split at white space).
	moved := "The harbour bridge will close for six weeks from March while engineers replace corroded cables on the span.\n\n" +
		"Ferry services will run every ten minutes instead of every half hour during the closure period said officials.\n\n"
	cyclists := "Cyclists may still cross on the north footpath except at night when the lights are being repaired by crews.\n\n"
	tests := []struct {
		name                         string
		a, b                         string
		by                           By
		shared, moved, inEdits, eqOp int // each side alike
	}{
		// "at" of "except at night" facing "at all hours".
		{"golden story by word", storyA, storyB, ByWord, 69, 0, 1, 68},
		{"golden story by sentence", storyA, storyB, BySentence, 33, 0, 0, 33},
		// A paragraph moved to the top, and "zorp" kept in a rewritten line.
		{"moved passage and an edit by word", moved + cyclists + "Alpha beta zorp gamma delta.",
			cyclists + moved + "One two zorp three four.", ByWord, 56, 19, 1, 36},
		{"moved passage and an edit by sentence", moved + cyclists + "Alpha beta zorp gamma delta.",
			cyclists + moved + "One two zorp three four.", BySentence, 55, 19, 0, 36},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Compare(tt.a, tt.b, Options{By: tt.by})
			eqA, eqB := 0, 0
			for _, op := range d.Ops {
				if op.Kind == Equal {
					eqA += len(strings.Fields(d.A.Text[op.A.Start:op.A.End]))
					eqB += len(strings.Fields(d.B.Text[op.B.Start:op.B.End]))
				}
			}
			for _, got := range []struct {
				side                         string
				shared, moved, inEdits, eqOp int
			}{{"a", d.A.Shared, d.A.Moved, d.A.InEdits, eqA}, {"b", d.B.Shared, d.B.Moved, d.B.InEdits, eqB}} {
				if got.shared != tt.shared || got.moved != tt.moved || got.inEdits != tt.inEdits || got.eqOp != tt.eqOp {
					t.Errorf("side %s: shared %d, moved %d, inside edits %d, words of equal ops %d; want %d, %d, %d, %d",
						got.side, got.shared, got.moved, got.inEdits, got.eqOp, tt.shared, tt.moved, tt.inEdits, tt.eqOp)
				}
			}
		})
	}
	text.Reset()
	d = Compare(moved+cyclists+"Alpha beta zorp gamma delta.", cyclists+moved+"One two zorp three four.", Options{})
	if err := WriteText(&text, d, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "60 words, 93.3% shared (19 moved, 1 inside edits)") {
		t.Errorf("header does not say 19 moved and 1 inside edits:\n%s", text.String())
	}
}

// TestOverlapCountsMovedPassages: the words of a passage the other text
// holds elsewhere count as shared (and as moved): a paragraph placed first
// in a reprint is found in it. Regression: a moved paragraph counted as
// not shared (67.7 % of each side, every word being in both).
func TestOverlapCountsMovedPassages(t *testing.T) {
	a := "The central bank raised interest rates on Tuesday by half a point.\n\n" +
		"Markets fell sharply in early trading after the announcement.\n\n" +
		"Analysts had expected a smaller increase given weak growth figures."
	b := "Analysts had expected a smaller increase given weak growth figures.\n\n" +
		"The central bank raised interest rates on Tuesday by half a point.\n\n" +
		"Markets fell sharply in early trading after the announcement."
	for _, by := range []By{ByWord, BySentence, ByLine} {
		d := Compare(a, b, Options{By: by})
		if d.A.Shared != 31 || d.B.Shared != 31 || d.A.Moved != 10 || d.B.Moved != 10 {
			t.Errorf("by %s: shared %d, %d, moved %d, %d; want 31 shared, 10 moved on each side", by, d.A.Shared, d.B.Shared, d.A.Moved, d.B.Moved)
		}
		checkInvariants(t, d)
	}
	// Four words in a row elsewhere are not a passage: "of the" and "said
	// on" recur by chance.
	d := Compare("one two three four xx", "yy one two three four", Options{})
	if d.A.Moved != 0 || d.A.Shared != 4 {
		t.Errorf("4 words: shared %d, moved %d; want the 4 matched in place, none moved", d.A.Shared, d.A.Moved)
	}
	d = Compare("p1 p2 p3 p4 p5 q1 q2 q3 q4 q5", "q1 q2 q3 q4 q5 p1 p2 p3 p4 p5", Options{})
	if d.A.Moved != 5 || d.A.Shared != 10 {
		t.Errorf("5 words moved: shared %d, moved %d; want all 10 shared, 5 of them moved", d.A.Shared, d.A.Moved)
	}
	// In a text of a few distinct words, every run of five recurs by
	// chance: none is a passage. Regression: a 5-gram found anywhere
	// counted, and every word of such a text was shared.
	rng := rand.New(rand.NewPCG(7, 8))
	d = Compare(strings.Join(fewWords(rng, 3000), " "), strings.Join(fewWords(rng, 3000), " "), Options{})
	if d.A.Moved != 0 || d.B.Moved != 0 {
		t.Errorf("unrelated texts of 5 distinct words: %d, %d words moved, want none", d.A.Moved, d.B.Moved)
	}
	// A passage repeated in one text is not moved: its copy in the other
	// is matched in place.
	d = Compare("The harbour bridge will close for six weeks from March.",
		"The harbour bridge will close for six weeks from March. The harbour bridge will close for six weeks from March.", Options{})
	if d.B.Moved != 0 || d.B.Shared != 10 {
		t.Errorf("a repeated passage: shared %d, moved %d; want 10 shared in place, none moved", d.B.Shared, d.B.Moved)
	}
}

// TestOverlapCountsSwappedSentencesWhole: two sentences that changed places
// count as moved whole, by word as by sentence, though words of each ("the",
// "to", "in the north of") line up in place with words of the other. The
// ops show each sentence deleted where it was and the other inserted there,
// without those words as equal between them. Regression: the alignment's
// lone "the" and "to" cut each moved sentence by word into pieces, and a
// piece under 5 words was neither moved nor shared: 92.3 % of each side
// shared (28 words moved) where every word is in both (37 moved).
func TestOverlapCountsSwappedSentencesWhole(t *testing.T) {
	s0 := "A powerful storm swept across the coastal region overnight, forcing authorities to close more than " +
		"two hundred schools and cancel dozens of ferry crossings"
	s1 := "Wind gusts reached 140 kilometres per hour on exposed headlands, according to the national weather service"
	s2 := "Power companies said around 85,000 homes were without electricity on Wednesday morning"
	s3 := "Emergency crews worked through the night to clear fallen trees from main roads"
	tests := []struct {
		name   string
		s0, s3 string
		moved  int // words moved on each side
	}{
		{"lone stop words in place", s0, s3, 37},
		{"four words in place", "A powerful storm swept in the north of the coastal region overnight, forcing authorities to " +
			"close more than two hundred schools", "Emergency crews worked in the north of town through the night to clear " +
			"fallen trees from main roads", 39},
	}
	for _, tc := range tests {
		a := tc.s0 + ". " + s1 + ". " + s2 + ". " + tc.s3 + "."
		b := tc.s3 + ". " + s1 + ". " + s2 + ". " + tc.s0 + "."
		for _, by := range []By{ByWord, BySentence} {
			t.Run(tc.name+"/"+by.String(), func(t *testing.T) {
				d := Compare(a, b, Options{By: by})
				checkInvariants(t, d)
				if d.A.Shared != d.A.Words || d.B.Shared != d.B.Words || d.A.Moved != tc.moved || d.B.Moved != tc.moved {
					t.Errorf("shared %d/%d, %d/%d, moved %d, %d; want every word shared, %d moved on each side",
						d.A.Shared, d.A.Words, d.B.Shared, d.B.Words, d.A.Moved, d.B.Moved, tc.moved)
				}
				want := []step{{"replace", tc.s0, tc.s3}, {"equal", s1 + ". " + s2, s1 + ". " + s2}, {"replace", tc.s3, tc.s0}}
				if by == BySentence {
					want = []step{{"replace", tc.s0 + ".", tc.s3 + "."}, {"equal", s1 + ". " + s2 + ".", s1 + ". " + s2 + "."},
						{"replace", tc.s3 + ".", tc.s0 + "."}}
				}
				if diff := cmp.Diff(want, steps(d)); diff != "" {
					t.Errorf("ops (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestOverlapCountsMovedParagraphStartingLikeItsNeighbour: a paragraph
// moved down past one that starts with the same word ("The trio …", "The
// latest …") is shared whole, and shows as deleted and inserted whole.
// Regression: the alignment kept that "The" matched in place, the inserted
// passage ran from the moved paragraph's second word to the next
// paragraph's "The", it no longer equalled the deleted one, and one word
// of each side was not shared.
func TestOverlapCountsMovedParagraphStartingLikeItsNeighbour(t *testing.T) {
	p0 := "Manchester rock band Doves have entered the album chart at number one with their new release."
	p1 := "The trio replace an American act at the top. The album follows a single that reached number six."
	p2 := "The latest re-release of an old hit entered the chart at number three, one place ahead of a girl group."
	p3 := "A cover of an old ballad entered the chart at number eight, while a new entry reached number nine."
	a := strings.Join([]string{p0, p1, p2, p3}, "\n\n")
	b := strings.Join([]string{p0, p2, p1, p3}, "\n\n")
	d := Compare(a, b, Options{})
	checkInvariants(t, d)
	if d.A.Shared != d.A.Words || d.B.Shared != d.B.Words {
		t.Errorf("shared %d/%d, %d/%d; want every word shared", d.A.Shared, d.A.Words, d.B.Shared, d.B.Words)
	}
	for _, st := range steps(d) {
		if text := st.A + st.B; st.Op != "equal" && text != strings.TrimSuffix(p1, ".") && text != strings.TrimSuffix(p2, ".") {
			t.Errorf("%s %q, want a paragraph whole", st.Op, text)
		}
	}
}

// TestOverlapCountsEachCopyOfARepeatedPassage: a passage one text holds
// twice is shared twice only when the other holds it twice too, each copy
// with one copy of the other, and both sides count as many words moved.
// Regression: each moved copy of A took the first copy of B that matched,
// so that A's two copies of X were both shared with B's first: Y Z X X
// against X Y X Z gave A 100 % shared (46 moved), B 74.4 % (23 moved), and
// the figures followed the order of the arguments.
func TestOverlapCountsEachCopyOfARepeatedPassage(t *testing.T) {
	x := "The minister said the new railway line between the two northern cities would open in the spring of next year after long delays."
	y := "Shares in the mining company fell sharply after it reported a loss for the third quarter running, blaming lower metal prices."
	z := "A rare orchid found by a schoolgirl on a hillside walk has been identified by botanists as a species thought extinct for decades."
	tests := []struct {
		name             string
		a, b             []string
		sharedA, sharedB int // words not shared
	}{
		{"twice in each", []string{y, z, x, x}, []string{x, y, x, z}, 0, 0},
		{"twice against once", []string{y, x, z, x}, []string{x, y, z}, 23, 0},
	}
	for _, tc := range tests {
		for _, by := range []By{ByWord, BySentence, ByLine} {
			t.Run(tc.name+"/"+by.String(), func(t *testing.T) {
				a, b := strings.Join(tc.a, "\n\n"), strings.Join(tc.b, "\n\n")
				d, e := Compare(a, b, Options{By: by}), Compare(b, a, Options{By: by})
				checkInvariants(t, d)
				checkInvariants(t, e)
				if d.A.Words-d.A.Shared != tc.sharedA || d.B.Words-d.B.Shared != tc.sharedB {
					t.Errorf("%d, %d words not shared, want %d, %d", d.A.Words-d.A.Shared, d.B.Words-d.B.Shared, tc.sharedA, tc.sharedB)
				}
				if d.A.Shared != e.B.Shared || d.B.Shared != e.A.Shared || d.A.Moved != e.B.Moved || d.B.Moved != e.A.Moved {
					t.Errorf("a b: shared %d, %d, moved %d, %d; b a: shared %d, %d, moved %d, %d; want the same swapped",
						d.A.Shared, d.B.Shared, d.A.Moved, d.B.Moved, e.A.Shared, e.B.Shared, e.A.Moved, e.B.Moved)
				}
			})
		}
	}
}

// TestOverlapOfReorderedParagraphs: a text and its paragraphs in any other
// order share every word, each side moving as many, though the paragraphs
// start with the same word. Regressions: a one-word match of the alignment
// (the first "Paragraph" of each text) was undone where the word of one
// side started a moved paragraph, and the other's word was then shared
// with nothing, though its twin stood beside the match that follows (4
// paragraphs: 98.7 % of each side shared); a match or passage ran on past
// its paragraph's end into the "The" of the next one on both sides, and
// the passage of that paragraph, its "The" taken, lacked it (401 BBC
// articles, their paragraphs shuffled: 203,664 of 203,752 words shared).
func TestOverlapOfReorderedParagraphs(t *testing.T) {
	paras := []string{
		"The harbour bridge will close for six weeks from March while engineers replace its cables.",
		"The council said buses would run every ten minutes between the two banks during the works.",
		"The last repairs, in 1998, took three months longer than planned and cost twice as much.",
		"The shopkeepers of the old town fear that trade will fall as visitors stay away.",
	}
	a := strings.Join(paras, "\n\n")
	for _, order := range permutations(len(paras)) {
		b := make([]string, len(order))
		for i, p := range order {
			b[i] = paras[p]
		}
		for _, by := range []By{ByWord, BySentence} {
			d := Compare(a, strings.Join(b, "\n\n"), Options{By: by})
			checkInvariants(t, d)
			if d.A.Shared != d.A.Words || d.B.Shared != d.B.Words {
				t.Errorf("order %v by %s: shared %d/%d, %d/%d; want every word", order, by, d.A.Shared, d.A.Words, d.B.Shared, d.B.Words)
			}
		}
	}
}

// permutations returns every order of 0..n-1.
func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			out = append(out, slices.Insert(slices.Clone(p), i, n-1))
		}
	}
	return out
}

// fewWords returns n words drawn from a vocabulary of five.
func fewWords(rng *rand.Rand, n int) []string {
	vocab := []string{"a", "of", "and", "the", "to"}
	out := make([]string, n)
	for i := range out {
		out[i] = vocab[rng.IntN(len(vocab))]
	}
	return out
}

func TestParseBy(t *testing.T) {
	for _, b := range []By{ByWord, BySentence, ByLine} {
		got, err := ParseBy(b.String())
		if err != nil || got != b {
			t.Errorf("ParseBy(%q) = %v, %v", b.String(), got, err)
		}
	}
	if _, err := ParseBy("paragraph"); err == nil {
		t.Error("ParseBy(paragraph) gave no error")
	}
}

// checkInvariants verifies what every Diff promises: ops alternate between
// Equal and edits, cover both texts' units in order, equal ops hold units
// with the same keys and the shared counts add up: the words shared in place
// (Shared less Moved) are at least those of the equal ops and at most those
// the alignment matched, all of them when none moved (a moved passage may
// hold a short match of the alignment, undone then), and each word shared
// is shared with one of the other side, so that both sides share and move
// as many words.
func checkInvariants(t *testing.T, d *Diff) {
	t.Helper()
	if len(d.Ops) != len(d.spans) {
		t.Fatalf("%d ops, %d unit ranges", len(d.Ops), len(d.spans))
	}
	if d.A.Shared != d.B.Shared || d.A.Moved != d.B.Moved {
		t.Errorf("shared %d, %d words, moved %d, %d; want as many on each side", d.A.Shared, d.B.Shared, d.A.Moved, d.B.Moved)
	}
	inPlaceA, inPlaceB := 0, 0
	ms, _ := align(&stopper{}, keys(d.A.units), keys(d.B.units))
	if d.B.Text < d.A.Text { // Compare aligned B with A
		ms, _ = align(&stopper{}, keys(d.B.units), keys(d.A.units))
		for i, m := range ms {
			ms[i].a, ms[i].b = m.b, m.a
		}
	}
	for _, m := range ms {
		inPlaceA += d.A.wordCount(m.a, m.a+m.n)
		inPlaceB += d.B.wordCount(m.b, m.b+m.n)
	}
	if d.A.Shared-d.A.Moved > inPlaceA || d.B.Shared-d.B.Moved > inPlaceB || d.A.Moved < 0 || d.B.Moved < 0 ||
		d.A.Moved+d.B.Moved == 0 && (d.A.Shared != inPlaceA || d.B.Shared != inPlaceB) {
		t.Errorf("shared %d, %d words; the alignment matched %d, %d, and %d, %d moved", d.A.Shared, d.B.Shared, inPlaceA, inPlaceB, d.A.Moved, d.B.Moved)
	}
	a, b, sharedA, sharedB := 0, 0, 0, 0
	for i, u := range d.spans {
		if u.a0 != a || u.b0 != b || u.a1 < u.a0 || u.b1 < u.b0 {
			t.Fatalf("op %d covers units [%d,%d) [%d,%d), want to start at %d, %d", i, u.a0, u.a1, u.b0, u.b1, a, b)
		}
		if i > 0 && (u.kind == Equal) == (d.spans[i-1].kind == Equal) {
			t.Errorf("ops %d and %d do not alternate between equal and edits", i-1, i)
		}
		if u.kind == Equal {
			for k := range u.a1 - u.a0 {
				if d.A.units[u.a0+k].key != d.B.units[u.b0+k].key {
					t.Errorf("equal op %d: unit %d of A differs from unit %d of B", i, u.a0+k, u.b0+k)
				}
			}
			sharedA += d.A.wordCount(u.a0, u.a1)
			sharedB += d.B.wordCount(u.b0, u.b1)
		}
		if op := d.Ops[i]; op.A.Start > op.A.End || op.A.End > len(d.A.Text) || op.B.Start > op.B.End || op.B.End > len(d.B.Text) {
			t.Errorf("op %d spans %v %v outside the texts", i, op.A, op.B)
		}
		a, b = u.a1, u.b1
	}
	if a != len(d.A.units) || b != len(d.B.units) {
		t.Errorf("ops end at units %d, %d of %d, %d", a, b, len(d.A.units), len(d.B.units))
	}
	if sharedA > d.A.Shared-d.A.Moved || sharedB > d.B.Shared-d.B.Moved || d.A.Shared > d.A.Words || d.B.Shared > d.B.Words {
		t.Errorf("shared %d/%d (%d moved), %d/%d words (%d moved); equal ops hold %d, %d",
			d.A.Shared, d.A.Words, d.A.Moved, d.B.Shared, d.B.Words, d.B.Moved, sharedA, sharedB)
	}
}

func FuzzCompare(f *testing.F) {
	f.Add("The cat sat. On the mat.", "the dog sat on the mat!", uint8(0))
	f.Add("Zażółć gęślą\njaźń.", "Учёные нашли воду.\nZażółć", uint8(1))
	f.Add("a a a b a a", "a b a a a", uint8(2))
	f.Add("Officials said the PRESIDENT will visit Paris on Monday; turnout was 34 percent.",
		"Officials said the president will visit paris on monday; turnout was \uff13\uff14 percent.", uint8(0))
	f.Add("We don't know, caf\u00e9 owners said.", "we don\u2019t know; cafe\u0301 OWNERS said", uint8(4))
	// Words more common than maxChain, paired near the diagonal alone.
	f.Add(strings.Repeat("a b c. ", 100), strings.Repeat("a b c. ", 40)+"a x c. "+strings.Repeat("a b c. ", 70), uint8(0))
	f.Fuzz(func(t *testing.T, a, b string, by uint8) {
		d := Compare(a, b, Options{By: By(by % 3)})
		checkInvariants(t, d)
		if e := Compare(b, a, Options{By: By(by % 3)}); d.A.Shared != e.B.Shared || d.A.Moved != e.B.Moved || len(d.Ops) != len(e.Ops) {
			t.Errorf("a b: shared %d, moved %d, %d ops; b a: shared %d, moved %d, %d ops", d.A.Shared, d.A.Moved, len(d.Ops), e.B.Shared, e.B.Moved, len(e.Ops))
		}
		var out strings.Builder
		color := by&4 != 0
		if err := WriteText(&out, d, TextOptions{Color: color}); err != nil {
			t.Fatal(err)
		}
		if err := WriteHTML(io.Discard, d); err != nil {
			t.Fatal(err)
		}
		checkMarkedOps(t, d)
		// By word, the rendering reads as either text but for white
		// space, when the texts hold nothing it writes escaped and no
		// brackets or braces, which would read as marks.
		if d.By != ByWord || !markable(a) || !markable(b) {
			return
		}
		gotA, gotB := readMarked(strings.SplitN(out.String(), "\n", 4)[3], color)
		if withoutSpace(gotA) != withoutSpace(a) || withoutSpace(gotB) != withoutSpace(b) {
			t.Errorf("the rendering does not give back both texts:\nout %q\ngives a %q\n  and b %q", out.String(), gotA, gotB)
		}
	})
}

// markable reports whether readMarked can read s back from a rendering:
// it is UTF-8 and holds no brackets or braces, which would read as marks,
// and nothing the rendering writes escaped (see visible): no control
// character but tab and line feed, no C1 control and no format character.
func markable(s string) bool {
	if !utf8.ValidString(s) || strings.ContainsAny(s, "[]{}") {
		return false
	}
	for _, r := range s {
		if r < 0x20 && r != '\t' && r != '\n' || r >= 0x7f && r <= 0x9f || unicode.Is(unicode.Cf, r) {
			return false
		}
	}
	return true
}

// TestTextsOfFewWordsAlign: two texts of a few distinct words repeated,
// alike but for every tenth word, align in full: no word is rare enough to
// anchor the histogram diff, and its runs of words are. Regression: the
// work budget ran out without a word said, and 0.2 % of such texts showed
// as shared where 90 % are. Two long such texts with nothing in common
// cannot be aligned in full within the budget, and the Diff says so.
func TestTextsOfFewWordsAlign(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{1000, 10000, 50000} {
		a := fewWords(rng, n)
		b := slices.Clone(a)
		for i := 0; i < n; i += 10 {
			b[i] = "xyz"
		}
		d := Compare(strings.Join(a, " "), strings.Join(b, " "), Options{})
		if d.A.Shared != n*9/10 || d.B.Shared != n*9/10 || d.Incomplete {
			t.Errorf("%d words: shared %d, %d, incomplete %v; want %d each, complete", n, d.A.Shared, d.B.Shared, d.Incomplete, n*9/10)
		}
		checkInvariants(t, d)
	}
	d := Compare(strings.Join(fewWords(rng, 100000), " "), strings.Join(fewWords(rng, 100000), " "), Options{})
	if !d.Incomplete {
		t.Errorf("unrelated texts of five words: complete, shared %d; want the alignment said to be incomplete", d.A.Shared)
	}
	checkInvariants(t, d)
}

// TestRepeatedTextAlignsCopies: a paragraph repeated many times, and the
// same with one word in a hundred replaced, share every other word, in
// place. Regression: each copy of a run of words matched every copy in the
// other text, the anchor of the alignment took the copy of a in the middle
// of the text for one near the start of b, and what was left of a faced a
// few words of b; the scan of b also went past the copy on the diagonal. A
// paragraph of 195 words repeated 40 times showed 39.8 % shared, and
// repeated 20 times 98.7 %, 1,529 words of it moved, with the diff
// complete.
func TestRepeatedTextAlignsCopies(t *testing.T) {
	for _, tc := range []struct {
		name          string
		words, copies int
	}{
		{"195 words 20 times", 195, 20},
		{"195 words 40 times", 195, 40},
		{"60 words 90 times", 60, 90},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, 12))
			para := benchText(benchWords(rng, tc.words), rng)
			a := strings.Fields(strings.Repeat(para+" ", tc.copies))
			b := slices.Clone(a)
			edits := map[int]bool{}
			for len(edits) < len(a)/100 {
				i := rng.IntN(len(b))
				edits[i] = true
				b[i] = "edited"
			}
			ta, tb := strings.Join(a, " "), strings.Join(b, " ")
			for _, d := range []*Diff{Compare(ta, tb, Options{}), Compare(tb, ta, Options{})} {
				checkInvariants(t, d)
				want := len(a) - len(edits)
				if d.A.Shared != want || d.B.Shared != want || d.A.Moved != 0 || d.B.Moved != 0 || d.Incomplete {
					t.Errorf("shared %d, %d, moved %d, %d, incomplete %v; want %d each, none moved, complete",
						d.A.Shared, d.B.Shared, d.A.Moved, d.B.Moved, d.Incomplete, want)
				}
			}
		})
	}
}

// TestTextMarksPunctuationOfOneSide wants the text rendering to mark the
// spacing and punctuation between aligned words that only one side holds,
// as --html does: it wrote the text between two words from one side alone,
// so that a mark only in A or only in B read as shared, another of A's was
// left out, and two texts that differ only in punctuation showed no mark.
func TestTextMarksPunctuationOfOneSide(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{
			`The budget would be "balanced next year", officials confirmed.`,
			`The budget would be balanced next year; officials confirmed!`,
			`The budget would be [-"-]balanced next year[-",-]{+;+} officials confirmed[-.-]{+!+}`,
		},
		{
			`«Alpha beta gamma delta epsilon zeta eta theta»`,
			`Omicron pi rho sigma tau upsilon phi chi psi omega!!!`,
			`[-«Alpha beta gamma delta epsilon zeta eta theta-] {+Omicron pi rho sigma tau upsilon phi chi psi omega+}[-»-]{+!!!+}`,
		},
		// White space alone differs: nothing is marked, A's is written.
		{"One two three.\n\nFour five six.", "One two three. Four five six.", "One two three.\n\nFour five six."},
		// A shared mark with one side's added: only the added is marked.
		{"Said: it works.", "Said: \"it works.\"", `Said: {+"+}it works.{+"+}`},
	}
	for _, tt := range tests {
		var out strings.Builder
		if err := WriteText(&out, Compare(tt.a, tt.b, Options{}), TextOptions{}); err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitN(out.String(), "\n\n", 2)
		if got := strings.TrimSuffix(lines[1], "\n"); got != tt.want {
			t.Errorf("%q against %q:\n got %s\nwant %s", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestCompareEitherWay compares pairs of texts with little in common, and
// pairs of one text and a rewrite of it, both ways: Compare(b, a) is
// Compare(a, b) with its sides swapped, its shares and every op (a
// deletion one way an insertion the other). Regression: the alignment
// broke its ties by the order of the arguments, so that `neardup diff a b`
// and `neardup diff b a` could share other words of texts with little in
// common, and show other shares.
func TestCompareEitherWay(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	words := strings.Fields("the a of to in minister said that shares fell rose bank city council plan new year court police " +
		"report week government party vote market price oil rain storm harbour bridge school")
	text := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteString([]string{" ", " ", " ", ", ", ". ", ".\n\n"}[r.IntN(6)])
			}
			b.WriteString(words[r.IntN(len(words))])
		}
		return b.String() + "."
	}
	rewrite := func(s string) string {
		f := strings.Fields(s)
		for i := range f {
			if r.IntN(4) == 0 {
				f[i] = words[r.IntN(len(words))]
			}
		}
		return strings.Join(f, " ")
	}
	for i := range 300 {
		a := text(20 + r.IntN(200))
		b := text(20 + r.IntN(200))
		if i%2 == 1 {
			b = rewrite(a)
		}
		for _, by := range []By{ByWord, BySentence, ByLine} {
			d, e := Compare(a, b, Options{By: by}), Compare(b, a, Options{By: by})
			if d.A.Shared != e.B.Shared || d.B.Shared != e.A.Shared || d.A.Moved != e.B.Moved || d.B.Moved != e.A.Moved {
				t.Fatalf("pair %d by %s: a b shared %d, %d, moved %d, %d; b a shared %d, %d, moved %d, %d; want the same swapped\na: %q\nb: %q",
					i, by, d.A.Shared, d.B.Shared, d.A.Moved, d.B.Moved, e.A.Shared, e.B.Shared, e.A.Moved, e.B.Moved, a, b)
			}
			swap := map[Kind]Kind{Equal: Equal, Replace: Replace, Delete: Insert, Insert: Delete}
			if len(d.Ops) != len(e.Ops) {
				t.Fatalf("pair %d by %s: %d ops one way, %d the other", i, by, len(d.Ops), len(e.Ops))
			}
			for k, op := range d.Ops {
				if f := e.Ops[k]; f.Kind != swap[op.Kind] || f.A != op.B || f.B != op.A {
					t.Fatalf("pair %d by %s: op %d is %v one way, %v the other", i, by, k, op, f)
				}
			}
		}
	}
}

// WriteJSON's overlap is 1 only when every word is shared and 0 only when
// none is. Regression: 30,230 of 30,231 words shared wrote "overlap": 1.
func TestJSONOverlapNeverRoundsToAllOrNone(t *testing.T) {
	words := make([]string, 20001)
	for i := range words {
		words[i] = fmt.Sprintf("w%d", i)
	}
	a := strings.Join(words, " ")
	words[10000] = "changed"
	b := strings.Join(words, " ")
	d := Compare(a, b, Options{})
	if d.A.Shared != 20000 || d.A.Words != 20001 {
		t.Fatalf("shared %d of %d words, want 20000 of 20001: the case tests nothing", d.A.Shared, d.A.Words)
	}
	var buf strings.Builder
	if err := WriteJSON(&buf, d); err != nil {
		t.Fatal(err)
	}
	var got struct{ A struct{ Overlap float64 } }
	if err := json.Unmarshal([]byte(buf.String()), &got); err != nil {
		t.Fatal(err)
	}
	if got.A.Overlap != 0.9999 {
		t.Errorf("overlap %v, want 0.9999", got.A.Overlap)
	}
	for _, tc := range []struct{ f, want float64 }{{1, 1}, {0, 0}, {0.99995, 0.9999}, {0.00004, 0.0001}, {0.5, 0.5}, {0.12345, 0.1235}} {
		if r := overlapRounded(tc.f); r != tc.want {
			t.Errorf("overlapRounded(%v) = %v, want %v", tc.f, r, tc.want)
		}
	}
}

// checkMarkedOps checks the ops WriteJSON writes: in order on both sides,
// none overlapping the next, each span within its text, each of the kind
// of the sides that hold text; the text outside the ops, and by word the
// text between the words of an "equal" op, the same on both sides but for
// white space, so that the ops and the shared text between them rebuild
// both texts.
func checkMarkedOps(t *testing.T, d *Diff) {
	t.Helper()
	endA, endB := 0, 0
	var outA, outB strings.Builder
	for _, op := range d.markedOps() {
		if op.A.Start < endA || op.B.Start < endB || op.A.End < op.A.Start || op.B.End < op.B.Start ||
			op.A.End > len(d.A.Text) || op.B.End > len(d.B.Text) {
			t.Fatalf("marked op %v %v %v after A %d, B %d: out of order", op.Kind, op.A, op.B, endA, endB)
		}
		if want := map[[2]bool]Kind{{true, true}: Replace, {true, false}: Delete, {false, true}: Insert}[[2]bool{!op.A.empty(), !op.B.empty()}]; op.Kind != Equal && op.Kind != want {
			t.Errorf("marked op %v %q %q: not of the kind of its sides", op.Kind, d.A.Text[op.A.Start:op.A.End], d.B.Text[op.B.Start:op.B.End])
		}
		outA.WriteString(d.A.Text[endA:op.A.Start])
		outB.WriteString(d.B.Text[endB:op.B.Start])
		if op.Kind == Equal && d.By == ByWord {
			checkEqualGaps(t, d, op)
		}
		endA, endB = op.A.End, op.B.End
	}
	outA.WriteString(d.A.Text[endA:])
	outB.WriteString(d.B.Text[endB:])
	if withoutSpace(outA.String()) != withoutSpace(outB.String()) {
		t.Errorf("text outside the marked ops differs: %q, %q", outA.String(), outB.String())
	}
}

// checkEqualGaps checks that op, an "equal" op by word, pairs its words
// and that the text between two of them is the same on both sides but for
// white space.
func checkEqualGaps(t *testing.T, d *Diff, op Op) {
	t.Helper()
	ua, ub := d.A.unitsIn(op.A), d.B.unitsIn(op.B)
	if len(ua) != len(ub) {
		t.Fatalf("equal op %v %v: %d words facing %d", op.A, op.B, len(ua), len(ub))
	}
	for k := 1; k < len(ua); k++ {
		ga, gb := d.A.Text[ua[k-1].span.End:ua[k].span.Start], d.B.Text[ub[k-1].span.End:ub[k].span.Start]
		if withoutSpace(ga) != withoutSpace(gb) {
			t.Errorf("equal op %q, %q: %q facing %q between its words", d.A.Text[op.A.Start:op.A.End],
				d.B.Text[op.B.Start:op.B.End], ga, gb)
		}
	}
}
