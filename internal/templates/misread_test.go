package templates

import "testing"

// foldedContextOf scans one made-up document as minhash's sketcher does
// (folded) or simhash's.
func foldedContextOf(title, text string, folded bool) Context {
	return scanWith(Scanner{Shingle: 6, Folded: folded}, title, text)
}

func TestMisread(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"letter O in a figure", "Net 1,2O0,000 vs 980,000", "Net 1,200,000 vs 980,000"},
		{"l and I for 1", "a l71 billion dlr deficit, I5 pct", "a 171 billion dlr deficit, 15 pct"},
		{"S, B and Z", "Shr Z7 cts vs 46462B5, up S pct", "Shr 27 cts vs 4646285, up S pct"},
		{"a word with other letters stays", "1st qtr, 3M Co, 10s of B52s", "1st qtr, 3M Co, 10s of B52s"},
		{"look-alikes without a digit stay", "SOLO Inc, lO pct", "SOLO Inc, lO pct"},
		{"no figure", "Oil prices rose", "Oil prices rose"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, _ := misread(tc.text, nil); got != tc.want {
				t.Errorf("misread(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

// An OCR-damaged copy whose figures hold look-alike letters keeps its
// figures when the method folds look-alikes, and loses them when not.
func TestMisreadFiguresKeepACopy(t *testing.T) {
	const title, text = "HARBOUR MILLS 4TH QTR NET", "Shr 28 cts vs 22 cts\n\nNet 1,088,000 vs 3,546,000\n\nRevs 5,266,000 vs 4,169,000"
	const damagedTitle, damaged = "HARBOUR MILLS 4TH QTR NET", "Shr Z8 cts vs 22 cts\n\nNet 1,O88,000 vs 3,S46,000\n\nRevs 5,266,OOO vs 4,l69,000"
	for _, folded := range []bool{true, false} {
		a, b := foldedContextOf(title, text, folded), foldedContextOf(damagedTitle, damaged, folded)
		ev := Compare(&a, &b, Sample{}, Sample{})
		if keeps := ev.NumberOverlap != nil && *ev.NumberOverlap == 1 && !ev.FiguresChanged; keeps != folded {
			t.Errorf("folded %v: number overlap %v, figures changed %v", folded, *ev.NumberOverlap, ev.FiguresChanged)
		}
	}
}

// A copy retitled with its opening sentence has title figures the old
// title lacks, all in the other's text: not the titles of two reports. Two
// reports of other hours keep disjoint titles.
func TestTitleFiguresInTheOtherText(t *testing.T) {
	const text = "Shr loss 24 cts vs profit 23 cts\n\nNet loss 5,106,000 vs profit 5,120,000"
	for _, tc := range []struct {
		name                 string
		titleA, a, titleB, b string
		wantDisjoint         bool
	}{
		{"retitled with its opening", "ZENITH LABS <ZEN> 4TH QTR LOSS", text, "Shr loss 24 cts vs profit 23 cts", text, false},
		{"reports of two hours", "NY COMEX COPPER 12:00", "Copper futures were up 1.10 cts at 62.50", "NY COMEX COPPER 12:30", "Copper futures were up 1.10 cts at 62.50", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := contextOf(tc.titleA, tc.a), contextOf(tc.titleB, tc.b)
			if len(a.TitleNums) == 0 || len(b.TitleNums) == 0 {
				t.Fatalf("title figures %v, %v", a.TitleNums, b.TitleNums)
			}
			if ev := Compare(&a, &b, Sample{}, Sample{}); ev.TitleFiguresDisjoint != tc.wantDisjoint {
				t.Errorf("title figures disjoint %v, want %v", ev.TitleFiguresDisjoint, tc.wantDisjoint)
			}
		})
	}
}

// A name misread with look-alike digits ("<FH5Y>") is the same name when
// the method folds look-alikes.
func TestMisreadNames(t *testing.T) {
	const title, text = "FAMILY HEALTH <FHSY> 2ND QTR", "Shr profit one ct vs nil\n\nRevs 925,000 vs 112,000"
	const damagedTitle, damaged = "FAMILY HEALTH <FH5Y> 2ND QTR", "Shr profit one ct vs nil\n\nRevs 925,000 vs 112,000"
	for _, folded := range []bool{true, false} {
		a, b := foldedContextOf(title, text, folded), foldedContextOf(damagedTitle, damaged, folded)
		ev := Compare(&a, &b, Sample{}, Sample{})
		if same := ev.ForeignNames == [2]int{}; same != folded {
			t.Errorf("folded %v: foreign names %v", folded, ev.ForeignNames)
		}
	}
}
