package figures

import (
	"slices"
	"strings"
	"testing"
)

// TestMeasures: a Scanner with Measures reads a table of stations as it
// writes its values, "nil" the figure 0 and a unit after a figure no word
// of its place, so that two days' tables of one series hold other figures
// at the stations where one of them had rain, and a copy, whatever unit
// it spells, the same; the zero Scanner, as the sketch formats before it,
// reads no "nil" and takes the unit for the word after the figure, and
// the two days share no place.
func TestMeasures(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		a, b                  string
		shared, other         int // what InPlace returns of the texts read with Measures
		zeroShared, zeroOther int // and of the texts the zero Scanner reads
	}{
		{"rain against NIL", "PEDRA FUNDA 33.0 MILLIMETRES, RIBEIRAO CLARO 5.0 MM, SERRA NEGRA NIL.",
			"PEDRA FUNDA NIL, RIBEIRAO CLARO NIL, SERRA NEGRA NIL.", 3, 2, 0, 0},
		{"NIL in lower case", "Pedra Funda 33.0 mm, Ribeirao Claro 5.0 mm, Serra Negra nil.",
			"Pedra Funda nil, Ribeirao Claro nil, Serra Negra nil.", 3, 2, 0, 0},
		{"a copy", "PEDRA FUNDA 33.0 MILLIMETRES, RIBEIRAO CLARO 5.0 MM, SERRA NEGRA NIL.",
			"PEDRA FUNDA 33.0 MILLIMETRES, RIBEIRAO CLARO 5.0 MM, SERRA NEGRA NIL.", 3, 0, 2, 0},
		{"a copy spelling its units otherwise", "PEDRA FUNDA 33.0 MILLIMETRES, RIBEIRAO CLARO 5.0 MM, SERRA NEGRA NIL.",
			"PEDRA FUNDA 33 MM, RIBEIRAO CLARO 5.0 MILLIMETERS, SERRA NEGRA NIL.", 3, 0, 0, 0},
		{"units glued to their figures", "PEDRA FUNDA 33.0MM, RIBEIRAO CLARO 5.0MMS, SERRA NEGRA 1.5CM.",
			"PEDRA FUNDA NIL, RIBEIRAO CLARO NIL, SERRA NEGRA NIL.", 3, 3, 0, 0},
		{"snow in inches and centimetres", "snow: Alta 12 inches, Brighton 1 inch, Vail 30 centimetres, Aspen 4 cms today",
			"snow: Alta nil, Brighton 3 inches, Vail 30 CENTIMETERS, Aspen 2 cm today", 4, 3, 0, 0},
		{"a share's loss", "Shr loss nil vs profit 12 cts\nNet loss 1.2 mln vs profit 3.4 mln",
			"Shr loss 5 vs profit 12 cts\nNet loss 1.2 mln vs profit 3.4 mln", 4, 1, 3, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := Scanner{Measures: true}
			_, a := m.OfSlots(tc.a)
			_, b := m.OfSlots(tc.b)
			if shared, other := InPlace(a, b); shared != tc.shared || other != tc.other {
				t.Errorf("with Measures: InPlace = %d shared, %d other, want %d, %d", shared, other, tc.shared, tc.other)
			}
			if shared, other := InPlace(Slots(tc.a), Slots(tc.b)); shared != tc.zeroShared || other != tc.zeroOther {
				t.Errorf("the zero Scanner: InPlace = %d shared, %d other, want %d, %d", shared, other, tc.zeroShared, tc.zeroOther)
			}
		})
	}
}

// TestMeasuredStationInPlaceOfNil: with Measures, a station's value and
// its unit ("GUAXUPE 33.0 MM, TRES") fill the place of the same station
// without rain ("GUAXUPE NIL, TRES"), 33 there against 0; without it the
// unit is the word after the value ("guaxupe _ mm") and NIL no figure.
func TestMeasuredStationInPlaceOfNil(t *testing.T) {
	const rain, none = "GUAXUPE 33.0 MM, TRES PONTAS 5.0 MM.", "GUAXUPE NIL, TRES PONTAS NIL."
	m := Scanner{Measures: true}
	_, a := m.OfSlots(rain)
	_, b := m.OfSlots(none)
	if len(a) != 2 || len(b) != 2 {
		t.Fatalf("with Measures: places %x and %x, want two each", a, b)
	}
	for i := range a {
		if a[i]>>slotShift != b[i]>>slotShift {
			t.Errorf("with Measures: the places %x and %x differ", a[i]>>slotShift, b[i]>>slotShift)
		}
	}
	var got []string
	for _, v := range a {
		got = append(got, string(slotFigure(v, nil)))
	}
	slices.Sort(got)
	if want := []string{"33", "5"}; !slices.Equal(got, want) {
		t.Errorf("with Measures: the measured values %q, want %q", got, want)
	}
	for _, v := range b {
		if f := string(slotFigure(v, nil)); f != "0" {
			t.Errorf("with Measures: NIL is the value %q, want 0", f)
		}
	}
	if got := Slots(none); got != nil {
		t.Errorf("the zero Scanner reads the places %x of a table of NIL, want none", got)
	}
	if shared, _ := InPlace(Slots(rain), Slots("GUAXUPE 33.0 MILLIMETRES, TRES PONTAS 5.0 MILLIMETRES.")); shared != 0 {
		t.Errorf("the zero Scanner: a value's place is its unit's, shared %d, want 0", shared)
	}
}

// TestNilInsideAWordNoFigure: "nil" is a figure as a word of its own
// ("nil,", "NIL-", "Nil."); inside a word ("vanilla", "NILS", "Nile",
// "annihilate") or against a digit ("3nil", "nil3") it is none, and a
// Scanner with Measures reads such a text as the zero Scanner does.
func TestNilInsideAWordNoFigure(t *testing.T) {
	for _, text := range []string{
		"vanilla 5 cts, rose 7 pct in June", "NILS 5 cts, rose 7 pct in June", "Nile 5 cts, rose 7 pct in June",
		"annihilate 5 cts, rose 7 pct in June", "at 3nil cts, rose 7 pct in June", "at nil3 cts, rose 7 pct in June",
		"unnil 5 cts, rose 7 pct in June",
	} {
		for _, unicode := range []bool{false, true} {
			zero, m := Scanner{Unicode: unicode}, Scanner{Unicode: unicode, Measures: true}
			_, want := zero.OfSlots(text)
			if _, got := m.OfSlots(text); !slices.Equal(got, want) {
				t.Errorf("Unicode %v, %q: with Measures places %x, without %x", unicode, text, got, want)
			}
		}
	}
	for _, text := range []string{"at nil, rose 7 pct in June", "at NIL- rose 7 pct in June", "at Nil. rose 7 pct in June"} {
		m := Scanner{Measures: true}
		if _, got := m.OfSlots(text); len(got) != 2 {
			t.Errorf("%q: with Measures places %x, want two, nil one", text, got)
		}
	}
}

// FuzzMeasuresSameWithoutTheirWords: a Scanner with Measures reads the
// figures of any text as the zero Scanner does, and its places too once
// every word "nil" and every unit (see isMeasureUnit) is made another
// word: what Measures reads otherwise is "nil" and the units alone, and
// the sketch formats before it, which read without it, read as before.
// With Unicode and without; any text, UTF-8 or not, reads without a panic.
func FuzzMeasuresSameWithoutTheirWords(f *testing.F) {
	for _, s := range []string{"GUAXUPE 33.0 MILLIMETRES, TRES PONTAS 5.0 MM.\nFRANCA NIL, CATANDUVA nil.",
		"Shr nil vs 12 cts\nNet 1.2 mln vs 3.4 mln", "snow 12 inches, 30 cm, 4 CMS", "33.0MM 5mms nil3 3nil vanilla Nile",
		"JUNIN......29.......18......5\nCORDOBA.....30 mm....17......0", "с 3 мм по 10 мая, nil 5月3日 12 millimeters"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		masked := maskMeasureWords(text)
		for _, unicode := range []bool{false, true} {
			zero, m := Scanner{Unicode: unicode}, Scanner{Unicode: unicode, Measures: true}
			zof, _ := zero.OfSlots(text)
			mof, _ := m.OfSlots(text)
			if !slices.Equal(zof, mof) {
				t.Fatalf("Unicode %v, Of(%q): %v, with Measures %v", unicode, text, zof, mof)
			}
			_, zslots := zero.OfSlots(masked)
			_, mslots := m.OfSlots(masked)
			if !slices.Equal(zslots, mslots) {
				t.Fatalf("Unicode %v, Slots(%q): %x, with Measures %x", unicode, masked, zslots, mslots)
			}
		}
	})
}

// maskMeasureWords returns text with the first letter of each run of
// ASCII letters that is "nil" or a unit of measure (see isMeasureUnit),
// in any case, made a 'q': another word, of the same length.
func maskMeasureWords(text string) string {
	b := []byte(text)
	for i := 0; i < len(b); {
		if !isLetter(b[i]) {
			i++
			continue
		}
		j := letterRunEnd(text, i)
		if w := text[i:j]; strings.EqualFold(w, "nil") || isMeasureUnit(packWord(w), w) && len(w) < 8 || isMeasureUnit(0, w) {
			b[i] = 'q'
		}
		i = j
	}
	return string(b)
}
