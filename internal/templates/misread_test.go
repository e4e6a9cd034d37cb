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

// misreadByByte is misread as a plain loop over every byte, the reference
// its digit search must agree with.
func misreadByByte(text string) string {
	buf := []byte(text)
	start, kinds := 0, 0
	for i := 0; i <= len(text); i++ {
		k := byte(byteSeparator)
		if i < len(text) {
			k = misreadKind[text[i]]
		}
		if k != byteSeparator {
			kinds |= 1 << k
			continue
		}
		if kinds&(1<<byteDigit|1<<byteLookAlike|1<<byteLetter) == 1<<byteDigit|1<<byteLookAlike {
			for j := start; j < i; j++ {
				if d := figureLookAlikes[text[j]]; d != 0 {
					buf[j] = d
				}
			}
		}
		start, kinds = i+1, 0
	}
	return string(buf)
}

func TestNextDigit(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
		from int
		want int
	}{
		{"none", "no figures here at all", 0, -1},
		{"in the tail", "abcdefgh7", 0, 8},
		{"in a block", "ab/:9xyzabc", 0, 4},
		{"from past one", "1 abcdefgh 2", 1, 11},
		{"bytes past ASCII are no digits", "\xb0\xb9\xb1\xb5\xb0\xb9\xb1\xb5\xb0", 0, -1},
		{"the neighbours of the digits", "/:/:/:/:/:", 0, -1},
		{"after bytes past ASCII", "\xd0\xbf\xd1\x80\xd0\xb8 5", 0, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := nextDigit(tc.text, tc.from); got != tc.want {
				t.Errorf("nextDigit(%q, %d) = %d, want %d", tc.text, tc.from, got, tc.want)
			}
		})
	}
}

func FuzzMisread(f *testing.F) {
	for _, s := range []string{"Net 1,2O0,000 vs 980,000", "1st qtr, 3M Co, 10s of B52s", "SOLO Inc, lO pct", "a l71 bln\xd0\xbf5O"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := func() string { s, _ := misread(text, nil); return s }(), misreadByByte(text); got != want {
			t.Errorf("misread(%q) = %q, want %q", text, got, want)
		}
		for i := 0; i <= len(text); i++ {
			want := -1
			for j := i; j < len(text); j++ {
				if '0' <= text[j] && text[j] <= '9' {
					want = j
					break
				}
			}
			if got := nextDigit(text, i); got != want {
				t.Fatalf("nextDigit(%q, %d) = %d, want %d", text, i, got, want)
			}
		}
	})
}
