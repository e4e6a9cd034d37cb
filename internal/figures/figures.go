// Package figures owns the figures a text reports, which verification
// compares: templated reports (earnings, dividends, bond issues, market
// reports of another hour) share nearly every word and differ in their
// figures.
package figures

import (
	"bytes"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/analysis"
)

// Of returns the sorted distinct fingerprints of the figures of text:
// runs of digits joined by "-", "/", "." or "," ("13-3/8", "1,000", "3.5"),
// each reduced to its digits so "1,000" and "1000" agree. A fraction or a
// range is one figure: "13-3/8" and "8-1/2" differ instead of sharing 3
// and 8. Letters around the digits are ignored, so an OCR-damaged "l986"
// is the figure 986. Years (four plain digits from 1900 to 2099) are left
// out: the stories of one year share them whatever they report. So are
// ordinals ("4th qtr", "1ST HALF"), wording of a template rather than
// figures of a report. A Scanner with Decimals keeps a figure's decimal
// separator among its digits ("1.5" is not "15"; see Scanner.Decimals).
func Of(text string) []uint32 {
	var s Scanner
	s.scan(text, false, true)
	return s.sortedOf()
}

// fingerprint is a figure's fingerprint in Of: FNV-1a of its digits
// (figures are short).
func fingerprint(d []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range d {
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}

// OfSlots returns Of(text) and Slots(text), reading text once.
func OfSlots(text string) ([]uint32, []uint64) {
	var s Scanner
	return s.OfSlots(text)
}

// A Scanner reads the figures of one text after another, reusing its
// buffers from one to the next: a sketcher keeps one. The zero Scanner is
// ready to use and reads ASCII digits and letters alone, as Of and Slots
// do; a Scanner is not safe for concurrent use.
type Scanner struct {
	// Unicode says to read the digits and letters of every script: a
	// figure written in the digits of another script ("١٢٠", "۱۲۰") is
	// the figure of those ASCII digits (see ASCIIDigits), and the words
	// around a figure that fill its place (see Slots) are words of letters
	// of any script ("с 3 по 10 мая", "für 3 Jahre"), the two letters
	// nearest the figure of a script written without spaces (see
	// unspacedLetters). Without it, as the sketch formats before it read,
	// a letter beyond ASCII is no letter: a line of Russian or Chinese puts
	// its figures in one place, which they fill twice, and Arabic-Indic
	// digits are no figures.
	Unicode bool
	// Measures says to read a table of stations (rainfall, crop weather)
	// as it writes its values: "nil", in any case, is the figure 0, as
	// the numbers one to ten written as words are figures, and a unit of
	// measure right after a figure ("mm", "cm", "inches", "millimetres":
	// see isMeasureUnit) is passed over, so that the figure's place is
	// the words around figure and unit ("GUAXUPE 33.0 MILLIMETRES, TRES"
	// fills "guaxupe _ tres", as "GUAXUPE NIL, TRES" does). Without it, as
	// the sketch formats before it read, "nil" is no figure and a unit is
	// the word after its figure: two days' tables of one series share no
	// place where a station had rain on one of them.
	Measures bool
	// Languages says to read the numbers two to ten written as words in
	// German, French, Spanish, Polish and Russian as figures too, as the
	// numbers one to ten in English are ("zu drei Jahren", "a tres años",
	// "na trzy lata", "к трём годам"), in the forms those languages decline
	// them to ("trzech", "тремя"; see spelledNumbers), in lower case alone:
	// written with a capital, such a word is as often a name ("Tres
	// Pontas", "Seis Pros") or a product ("MS-DOS") as a number, and
	// running text writes a number in lower case but at the start of a
	// sentence. The words of letters beyond ASCII ("fünf", "pięć", "три")
	// are read with Unicode alone. Without it, as the sketch formats
	// before it read, such a word is the word of a place, and a notice of
	// one template filled in twice with "drei" and "vier" has one place
	// fewer with another figure than it has in English.
	// It says too to read a number whose groups of thousands a space sets
	// apart, as French, Polish and Russian write it ("180 000 euros", "1 250
	// 000 zł", "12 500 руб."), as one figure when a currency or a count of
	// those languages follows it (see ThousandsEnd); a no-break, narrow or
	// thin space is read as a plain one, so that a copy whose spaces were
	// made plain reads the same figures. Without it, as the formats before
	// it read, such a number is two figures or more, or a table's cells.
	Languages bool
	// Decimals says to read a figure's decimal separator as part of its
	// value, in its places (see Slots) and its fingerprints (see Of):
	// "1.5" and "15", "4.5 percent" and "45 percent", are other figures,
	// as "1.5" and "1.6" are, and "1.5" and "1,5" one (see separator for
	// how a "." or "," is read as a decimal separator, a group of
	// thousands, or either: "1,500" and "1.500" agree with "1500" and with
	// "1.5"; ".5" and "$.99", their point first, are "0.5" and "0.99": see
	// LeadingPoint). A point dropped or moved is no damage a place forgives, as a
	// digit dropped or doubled is (see explains). Without it, as the
	// sketch formats before it read, a figure is its digits: "1.5" and
	// "15" are one value.
	Decimals bool
	// LastColumn says to read a figure alone at its line's end, set in a
	// column after a word ("Nickel     7000", see isAligned), in the place
	// of the last column of that word's row (see slotWaiting): a table of
	// one column and the same table an hour later, extended by a column
	// ("Nickel  7000  12000"), hold other figures in the places they share,
	// as two tables of several columns do. A figure whose next line holds
	// figures alone ("Nickel  7000\n12000", a row wrapped before its last
	// column) keeps its word's place, so that a copy of the table wrapped
	// so is no other table (see figuresOnly). Without it, as the sketch
	// formats before it read, such a figure is in the place of its word
	// and the line's end, which no row of two figures or more fills, and
	// the two tables shared no place.
	LastColumn bool
	// RowLabels says to read a line that opens with a figure and a word
	// and sets its other figures in columns ("5-14 days   5.75 pct   5.65
	// pct", a rate sheet's row) as a row labelled by that figure: each
	// later figure's place is its words' and the label's, so that two
	// sheets' rows of one label hold other figures in their own places. A
	// run of two figures or more after the first figure set in a column
	// ("6-3/16 WED/THURS   6-5/16 6-3/16", a quote's bid and offer) makes
	// the line no labelled row; a run before it ("5-14 days 5.75 5.70 pct
	// 5.65 pct") keeps its words' place and the row its label (see
	// labelRow). A date ("07/04/87") or a day before a month's name ("7
	// Apr") is no label: a day's sheet labels every row with its day, and
	// two days' sheets would share no place (see isDate, monthAt). Without
	// it, as the sketch formats before it read, such a figure's place is
	// its words' alone ("days _ pct"), which every row of the sheet fills,
	// and which is left out (see FilledOnce): two days' sheets shared no
	// place.
	RowLabels bool

	of     []uint32 // the fingerprints of the figures read (see Of)
	slots  []uint64 // the slotted figures read (see Slots)
	digits []byte   // the digits of the figure being read
	values []byte   // the values of the figures waiting for the word after them
	ends   []int    // where each waiting figure's value ends in values
	cols   []int    // the column of each waiting figure (see cell)
	at     int      // where the text after the last word or figure starts
	row    bool     // the waiting figures are a table's row (see cell)
	// aligned is set when the first waiting figure is set in a column
	// (see isAligned, LastColumn); wrapped when the figure is alone at its
	// line's end and the next line holds figures alone (see figuresOnly).
	aligned, wrapped bool
	// dated is set when the line's first figure is a date or a day before
	// a month's name, no row's label (see isDate, monthAt, RowLabels).
	dated bool
	// label is the hash of the figure that opens the line, followed by a
	// word, 0 for none; labelled is set once a later figure of the line
	// is set in a column (see RowLabels).
	label     uint32
	labelled  bool
	lineWords bool     // a word or figure has been read on the line
	plain     []uint64 // the line's labelled slots without their label (see labelRow)
	lineFrom  int      // where the line's labelled slots start in slots
	text      []byte   // the text with its digits made ASCII (see ASCIIDigits)
}

// OfSlots returns Of(text) and Slots(text), reading text once. The first
// slice is the Scanner's own and valid until its next call (the caller
// copies it); the second is a slice of its own.
func (s *Scanner) OfSlots(text string) ([]uint32, []uint64) {
	of, slots := s.Scan(text)
	if slots == nil {
		return of, nil
	}
	return of, slices.Clone(slots)
}

// Scan returns Of(text) and Slots(text), reading text once, as OfSlots
// does, both slices the Scanner's own and valid until its next call: a
// caller that keeps them copies them (into one array with its own, say).
func (s *Scanner) Scan(text string) ([]uint32, []uint64) {
	s.scan(text, true, true)
	return s.sortedOf(), placesOnce(s.slots)
}

// sortedOf sorts the fingerprints read and returns them without repeats,
// nil when there are none.
func (s *Scanner) sortedOf() []uint32 {
	if len(s.of) == 0 {
		return nil
	}
	slices.Sort(s.of)
	return slices.Compact(s.of)
}

// Slots returns the sorted distinct figures of text with the places they
// fill. A figure's place is the word of letters before it and the word
// after it on its line, lower-cased ("shortfall to 750 mln" fills "to _
// mln"): of ASCII letters and digits here, as the zero Scanner reads them,
// of every script for a Scanner with Unicode; a table's row, whose
// neighbours are other rows, ends at the line.
// Here a figure is its value: a fraction as a decimal ("17-1/2" and "17.5"
// are one value, "1/2" and "0.50" another), the zeros that do not change a
// value dropped ("1.0" is 1), and the numbers one to ten written as words
// ("div five cts"), as wire style writes them; for a Scanner with
// Measures, "nil" too, and a unit of measure after a figure is no word of
// its place (see Scanner.Measures); for one with Languages, two to ten
// written in German, French, Spanish, Polish and Russian too, and a
// number whose groups of thousands spaces set apart ("180 000") one figure
// (see Scanner.Languages); for one with Decimals, its decimal separator
// kept ("1.5" is not "15", "1,5" is "1.5"; see Scanner.Decimals), a
// nibble of its own. Each is a 16-bit hash of the
// place in the top bits and the value's first twelve digits, four bits
// each, in the low 48, unused digits 0xF. A template filled in twice has
// other figures in the same places; see InPlace. The figures of a table's
// row, set apart by spaces and leader dots alone, are its cells: each
// figure's place is its row's and its column ("JUNIN....29....18"), so
// that two tables of one frame compare their values (see cell), and each
// row's width (of minWidth columns or more) is a place of its own, which
// counts where two rows' widths differ by minWider columns or more (see
// width). Another place the text fills with two or more values ("vs"
// twice in an earnings report, a list) is left out, as InPlace leaves it
// out, and a text with fewer than two places has none (see Refilled).
func Slots(text string) []uint64 {
	var s Scanner
	s.scan(text, true, false)
	return keepPlaces(s.slots)
}

// keepPlaces sorts slotted figures and returns those of the places filled
// with one value, in a slice of their size (a sketch keeps it), nil for
// fewer than minRefilled.
func keepPlaces(out []uint64) []uint64 {
	if out = placesOnce(out); out == nil {
		return nil
	}
	return slices.Clone(out)
}

// placesOnce is keepPlaces in out's storage.
func placesOnce(out []uint64) []uint64 {
	out = FilledOnce(out, slotShift)
	if len(out) < minRefilled {
		return nil
	}
	return out
}

// FilledOnce sorts xs, values packed under their place (the bits from
// shift up), drops repeats and returns, in xs's storage, the values of the
// places that hold one value only: a place filled twice (a table's column,
// a list) does not say which value fills it.
func FilledOnce(xs []uint64, shift uint) []uint64 {
	slices.Sort(xs)
	xs = slices.Compact(xs)
	n := 0
	for i := 0; i < len(xs); {
		j := i + 1
		for j < len(xs) && xs[j]>>shift == xs[i]>>shift {
			j++
		}
		if j == i+1 {
			xs[n] = xs[i]
			n++
		}
		i = j
	}
	return xs[:n]
}

// slot packs a figure's value under its place (see Slots).
func slot(place uint32, digits []byte) uint64 {
	v := uint64(place>>16^place&0xFFFF) << slotShift
	for i := range slotDigits {
		d := uint64(0xF)
		if i < len(digits) {
			d = nibble(digits[i])
		}
		v |= d << (4 * (slotDigits - 1 - i))
	}
	return v
}

// A slotted figure keeps twelve digits under a 16-bit place.
const (
	slotDigits = 12
	slotShift  = 4 * slotDigits
	slotMask   = 1<<slotShift - 1
)

// width packs the width of a table's row, its number of columns, under
// the row's place: a value no figure has, its first digit 0xA and the
// width in its low bits (see isWidth, widthOf).
func width(place uint32, n int) uint64 {
	return slot(place, nil)&^slotMask | 0xA<<(slotShift-4) | uint64(min(n, 0xFFFF))
}

// isWidth reports whether the slotted figure v is a row's width.
func isWidth(v uint64) bool { return v>>(slotShift-4)&0xF == 0xA }

// widthOf returns the width a slotted row's width v holds.
func widthOf(v uint64) int { return int(v & 0xFFFF) }

// minWidth is the fewest columns of a row whose width is kept: two
// figures set apart by a space are as often a score in a sentence
// ("beat Simon 7-6 6-3") as a table's row.
const minWidth = 3

// minWider is how many more columns make a row of another width another
// row (see InPlace): a figure split in two by a space ("659. 7") or a
// cell wrapped to its own line makes one more or one fewer.
const minWider = 2

// slotFigure appends the digits of a slotted figure to buf.
func slotFigure(v uint64, buf []byte) []byte {
	for i := range slotDigits {
		d := byte(v >> (4 * (slotDigits - 1 - i)) & 0xF)
		if d == 0xF {
			break
		}
		buf = append(buf, char(d))
	}
	return buf
}

// scan reads the figures of text: when figs, it appends the fingerprint of
// the digits of each figure to s.of (see Of); when places, each figure's
// value slotted under the hash of its place to s.slots, the numbers written
// as words included (see Slots). With s.Unicode it reads the digits of
// every script (see ASCIIDigits) and words of letters beyond ASCII (see
// unicodeWord); with s.Measures "nil" as the figure 0 and a unit of
// measure after a figure as no word (see Scanner.Measures); with
// s.Languages the numbers two to ten written as words of five more
// languages as figures (see Scanner.Languages).
func (s *Scanner) scan(text string, places, figs bool) {
	s.of, s.slots = s.of[:0], s.slots[:0]
	s.values, s.ends, s.cols, s.at = s.values[:0], s.ends[:0], s.cols[:0], 0
	s.label, s.labelled, s.lineWords, s.plain = 0, false, false, s.plain[:0]
	s.aligned, s.wrapped, s.dated = false, false, false
	uni := s.Unicode
	if uni {
		text, s.text = ASCIIDigits(text, s.text)
	}
	prev := "" // the word before the waiting figures, hashed only if there are some
	for i := 0; i < len(text); {
		c := text[i]
		if !isDigit(c) {
			if c == '\n' && places {
				// A figure alone at its line's end, a line of figures alone
				// after it, is a row wrapped before its last column.
				s.wrapped = s.LastColumn && len(s.ends) == 1 && s.aligned && figuresOnly(text[i+1:])
				s.flush(prev, 0)
				s.wrapped, prev = false, ""
				s.label, s.labelled, s.lineWords, s.plain = 0, false, false, s.plain[:0]
			}
			if !isLetter(c) || !places {
				if c >= utf8.RuneSelf && uni && places {
					i, prev = s.unicodeWord(text, i, prev) // a letter of another script, or no letter
					continue
				}
				i++
				continue
			}
			j, key := wordAt(text, i)
			if uni && j < len(text) && text[j] >= utf8.RuneSelf {
				if k := spacedEnd(text, j); k > j {
					j, key = k, 0 // a word that goes on in letters beyond ASCII ("Zürich")
				}
			}
			w := text[i:j]
			i = j
			d := shortNumbers.of(key, w, s.Languages)
			if key == 0 && s.Languages {
				d = spelledLongOf(w) // a word of eight letters or more, or of letters beyond ASCII
			}
			if d == "" && key == nilWord && s.Measures {
				d = "0" // a table's zero: "CASCAVEL NIL", "Shr nil vs 12 cts"
			}
			if d != "" && (j == len(w) || !isDigit(text[j-len(w)-1])) && (j == len(text) || !isDigit(text[j])) {
				s.spelledCell(text[s.at : j-len(w)])
				s.values = append(s.values, d...)
				s.ends = append(s.ends, len(s.values))
				s.cols = append(s.cols, len(s.cols))
				s.row, s.at = false, j // a number in words is no table's cell
				continue
			}
			if len(s.ends) > 0 {
				if s.Measures && isMeasureUnit(key, w) {
					continue // the place is the words around figure and unit: "GUAXUPE 33.0 MM, TRES" as "GUAXUPE NIL, TRES"
				}
				s.flush(prev, wordHash(w))
			}
			prev, s.at = w, j
			continue
		}
		start, joined := i, false
		s.digits = s.digits[:0]
		if s.Languages {
			if end := ThousandsEnd(text, start); end > start {
				for ; i < end; i++ { // "180 000 euros", "1 250 000 zł": one figure
					if isDigit(text[i]) {
						s.digits = append(s.digits, text[i])
					}
				}
				joined = true
			}
		}
		for ; i < len(text); i++ {
			c := text[i]
			if !isDigit(c) {
				if !isFigureJoin(c) || i+1 >= len(text) || !isDigit(text[i+1]) {
					break
				}
				joined = true
				continue
			}
			s.digits = append(s.digits, c)
		}
		leading := s.Decimals && !joined && LeadingPoint(text, start) // ".5" is "0.5"
		if !joined && !leading && isYear(text[start:i]) || isOrdinalSuffix(text[i:]) {
			continue
		}
		k, ambiguous := -1, false // the figure's decimal separator (see Decimals)
		if s.Decimals && joined {
			k, ambiguous = separator(text[start:i])
		}
		if figs {
			if k >= 0 && !ambiguous {
				s.digits = insertPoint(s.digits, text[start:i], k) // "1.5" is not "15"
			} else if leading {
				s.digits = slices.Insert(s.digits, 0, '0', '.')
			}
			s.of = append(s.of, fingerprint(s.digits))
		}
		if places {
			if s.RowLabels && len(s.ends) == 0 {
				s.dated = isDate(text[start:i]) || monthAt(text, i) // "07/04/87", "7 Apr": a day, no row's label
			}
			s.cell(text[s.at:start])
			if leading {
				s.values = appendPointed(s.values, "", text[start:i])
			} else if s.Decimals {
				s.values = appendDecimalValue(s.values, text[start:i], k, ambiguous)
			} else {
				s.values = appendValue(s.values, text[start:i])
			}
			s.ends = append(s.ends, len(s.values))
		}
		s.at = i
	}
	s.flush(prev, 0)
}

// unicodeWord reads the word that starts at text[i], a byte beyond ASCII,
// as scan reads a word (see unicodeWord): it slots the waiting figures
// between prev and the word, and returns where the word ends and the word
// before the figures that follow it; a rune that is no letter is passed
// over, prev kept. With s.Languages a number written as a word of such
// letters ("трём") is read as a figure waiting for the word after it,
// prev kept too (see Scanner.Languages).
func (s *Scanner) unicodeWord(text string, i int, prev string) (int, string) {
	j, first, last := unicodeWord(text, i)
	if first == "" {
		return j, prev
	}
	if s.Languages && maybeSpelled(text[i:j]) && s.spelledFigure(text, i, j) {
		return j, prev // a number in words of letters beyond ASCII: "к трём годам"
	}
	if len(s.ends) > 0 {
		s.flush(prev, wordHash(first))
	}
	s.at = j
	return j, last
}

// spelledFigure reads the word text[i:j], of letters beyond ASCII, as a
// figure waiting for the word after it when it is one of spelledNumbers
// and no digit touches it ("5трёх"), and reports whether it did.
func (s *Scanner) spelledFigure(text string, i, j int) bool {
	d := spelledLongOf(text[i:j])
	if d == "" || i > 0 && isDigit(text[i-1]) || j < len(text) && isDigit(text[j]) {
		return false
	}
	s.spelledCell(text[s.at:i])
	s.values = append(s.values, d...)
	s.ends = append(s.ends, len(s.values))
	s.cols = append(s.cols, len(s.cols))
	s.row, s.at = false, j // a number in words is no table's cell
	return true
}

// flush slots the waiting figures between the words prev and the word
// whose hash is next (0 for none).
func (s *Scanner) flush(prev string, next uint32) {
	if len(s.ends) == 0 {
		return
	}
	var p uint32
	if prev != "" {
		p = wordHash(prev)
	}
	between := p*16777619 ^ next // the place between the two words
	if s.RowLabels {
		between = s.labelRow(between, p, next)
	}
	s.slotWaiting(between, p, next)
	s.values, s.ends, s.cols = s.values[:0], s.ends[:0], s.cols[:0]
}

// labelRow reads the waiting figures, between the words of hashes p and
// next, as RowLabels says: the figure that opens its line, a word after
// it, labels the row; each later figure standing alone between words,
// once one is set in a column, is slotted under the label too, its
// unlabelled slot kept in s.plain; a run of two figures or more once one
// is set in a column ("6-5/16 6-3/16", a quote's bid and offer) makes the
// line no labelled row, and its slots go back to those without the label;
// a run before that is slotted in its words' place, the line still
// labelled. It returns the place
// the waiting figures fill: between, or between and the row's label.
func (s *Scanner) labelRow(between, p, next uint32) uint32 {
	first := !s.lineWords
	s.lineWords = true
	switch {
	case s.label != 0 && s.labelled && len(s.ends) > 1:
		if len(s.plain) > 0 {
			s.slots = append(s.slots[:s.lineFrom], s.plain...)
		}
		s.label, s.plain = 0, s.plain[:0]
	case s.label != 0 && s.labelled:
		n := len(s.slots)
		if len(s.plain) == 0 {
			s.lineFrom = n
		}
		s.slotWaiting(between, p, next)
		s.plain = append(s.plain, s.slots[n:]...)
		s.slots = s.slots[:n]
		return between*16777619 ^ s.label // a labelled row's figure: its words and its row's label
	case p == 0 && next != 0 && first && len(s.ends) == 1 && !s.dated:
		s.label = fingerprint(s.values) | 1 // the figure opening its line, a word after it: the row's label
	}
	return between
}

// slotWaiting slots the waiting figures in the place between, after the
// word of hash p (0 for none) and before that of hash next (see flush).
func (s *Scanner) slotWaiting(between, p, next uint32) {
	from, place := 0, between
	row := len(s.ends) > 1 && s.row
	last := s.cols[len(s.cols)-1]
	if s.LastColumn && len(s.ends) == 1 && s.aligned && !s.wrapped && next == 0 && p != 0 {
		place = between*16777619 ^ uint32(1)*0x9e3779b9 // alone at its line's end: its row's last column
	}
	for k, end := range s.ends {
		if row {
			place = between*16777619 ^ uint32(last-s.cols[k]+1)*0x9e3779b9 // a table's cell: its row and column, counted from the row's end
		}
		s.slots = append(s.slots, slot(place, s.values[from:end]))
		from = end
	}
	if n := last + 1; row && n >= minWidth {
		// The row's width, its columns (empty cells included), in the
		// place of a column 0 no cell takes (see width): a row of later
		// sessions whose last column both share (open interest, a total)
		// is another row, even where its other cells agree.
		s.slots = append(s.slots, width(between*16777619, n))
	}
}

// cell reads gap, the text between the word or figure before and the
// next figure of a line, and records that figure's column: figures set
// apart by spaces, tabs and leader dots alone ("27.......21   4") are a
// table's row, each in its own column, and a dash between them ("--") an
// empty cell (a word, "N.A." or "UNCH", starts another place); anything
// else between them ("3:49", "5, 6 and 7") makes them one place's
// figures, none of a table.
func (s *Scanner) cell(gap string) {
	if i := strings.LastIndexByte(gap, '\n'); i >= 0 {
		gap = gap[i+1:]
	}
	empty, other, whole := 0, false, gap
	for gap != "" {
		i := indexBlank(gap)
		f := gap
		if i >= 0 {
			f, gap = gap[:i], gap[i+1:]
		} else {
			gap = ""
		}
		if f = strings.Trim(f, "."); f == "" {
			continue // spaces, leader dots
		}
		if isPlaceholder(f) {
			empty++
		} else {
			other = true
		}
	}
	if s.label != 0 && !strings.Contains(whole, "\n") && isAligned(whole) {
		s.labelled = true
	}
	if len(s.cols) == 0 {
		s.row = true
		s.aligned = !other && isAligned(whole)
		s.cols = append(s.cols, empty)
		return
	}
	s.row = s.row && !other
	s.cols = append(s.cols, s.cols[len(s.cols)-1]+1+empty)
}

// spelledCell reads gap, the text between the word or figure before and a
// number written as a word, as cell reads a figure's: when the word is the
// first waiting figure, whether it is set in a column ("CASCAVEL     NIL",
// see isAligned, LastColumn).
func (s *Scanner) spelledCell(gap string) {
	if len(s.cols) > 0 {
		return
	}
	if i := strings.LastIndexByte(gap, '\n'); i >= 0 {
		gap = gap[i+1:]
	}
	s.aligned = isAligned(gap) && strings.Trim(gap, " \t.") == ""
}

// figuresOnly reports whether the line that starts text holds figures and
// nothing else but spaces: a table's row wrapped before its last column
// (" Silver       8000\n   13000").
func figuresOnly(text string) bool {
	digit := false
	for i := 0; i < len(text) && text[i] != '\n'; i++ {
		switch c := text[i]; {
		case isDigit(c):
			digit = true
		case c != ' ' && c != '\t' && c != '\r' && !isFigureJoin(c):
			return false
		}
	}
	return digit
}

// isDate reports whether the figure f is a date of three groups of digits
// set apart by one separator twice ("07/04/87", "7-4-87", "7.4.1987").
func isDate(f string) bool {
	for _, sep := range "/-." {
		if strings.Count(f, string(sep)) == 2 {
			for g := range strings.SplitSeq(f, string(sep)) {
				if g == "" || len(g) > 4 || strings.ContainsAny(g, "/-.,") {
					return false
				}
			}
			return true
		}
	}
	return false
}

// monthAt reports whether the word after the figure that ends at text[i],
// past spaces, names a month ("7 Apr", "7 April", "7 SEPT."): the figure is
// a day.
func monthAt(text string, i int) bool {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	j := i
	for j < len(text) && isLetter(text[j]) {
		j++
	}
	w := strings.ToLower(text[i:j])
	if len(w) < 3 {
		return false
	}
	for _, m := range months {
		if w == m[:3] || w == m || w == "sept" && m == "september" {
			return true
		}
	}
	return false
}

// months are the names of the months in English (see monthAt).
var months = [...]string{"january", "february", "march", "april", "may", "june", "july",
	"august", "september", "october", "november", "december"}

// isAligned reports whether gap, the text between a word and the first
// figure after it on its line, sets the figure in a column: two spaces or
// more, a tab or leader dots ("Nickel     7000", "JUNIN....29"), not one
// space ("SANTA MARIA 7.0", "Pay April 30").
func isAligned(gap string) bool {
	return strings.Contains(gap, "  ") || strings.Contains(gap, "..") || strings.IndexByte(gap, '\t') >= 0
}

// indexBlank returns the offset of the first space or tab of gap, -1 for
// none: strings.IndexAny(gap, " \t") without building its set of bytes
// for each gap.
func indexBlank(gap string) int {
	for i := 0; i < len(gap); i++ {
		if gap[i] == ' ' || gap[i] == '\t' {
			return i
		}
	}
	return -1
}

// isPlaceholder reports whether f, a field of a table's row without its
// leader dots, is a dash standing for an empty cell.
func isPlaceholder(f string) bool {
	switch strings.ToLower(f) {
	case "-", "--", "---", "----", "*", "**":
		return true
	}
	return false
}

// value returns the digits of the value of the figure f, as a place
// compares them: a fraction as a decimal ("17-1/2" and "17.5" are 175,
// "1/2" and "0.50" are 5), a decimal without the zeros that do not change
// it ("1.0" is 1), thousands' commas left out.
func value(f string) []byte { return appendValue(nil, f) }

// appendValue appends value(f) to dst.
func appendValue(dst []byte, f string) []byte {
	if strings.IndexByte(f, '/') < 0 && strings.IndexByte(f, '.') < 0 {
		// A whole number, the common case: its digits without leading
		// zeros, as below, appended without allocating.
		n := len(dst)
		for i := 0; i < len(f); i++ {
			if isDigit(f[i]) {
				dst = append(dst, f[i])
			}
		}
		i := n
		for i < len(dst) && dst[i] == '0' {
			i++
		}
		if i == len(dst) {
			return append(dst[:n], '0')
		}
		return append(dst[:n], dst[i:]...)
	}
	if k := strings.IndexByte(f, '.'); k >= 0 && strings.IndexByte(f, '/') < 0 && strings.IndexByte(f[k+1:], '.') < 0 {
		// A decimal, as below without allocating: the whole part's
		// digits without leading zeros, the fraction's without trailing.
		n := len(dst)
		for i := 0; i < k; i++ {
			if isDigit(f[i]) && (f[i] != '0' || len(dst) > n) {
				dst = append(dst, f[i])
			}
		}
		m := len(dst)
		for i := k + 1; i < len(f); i++ {
			if isDigit(f[i]) {
				dst = append(dst, f[i])
			}
		}
		for len(dst) > m && dst[len(dst)-1] == '0' {
			dst = dst[:len(dst)-1]
		}
		if len(dst) == n {
			dst = append(dst, '0')
		}
		return dst
	}
	return appendValueGeneral(dst, f)
}

// appendValueGeneral is appendValue for any figure: a fraction ("17-1/2")
// read as its whole part and its decimal, four digits; a decimal as its
// whole and fraction parts; anything else as its digits. It allocates
// nothing.
func appendValueGeneral(dst []byte, f string) []byte {
	if k := strings.IndexByte(f, '/'); k > 0 && strings.Count(f, "/") == 1 {
		var b [32]byte
		whole, frac, ok := fractionOf(f, &b)
		if !ok {
			return appendDigits(dst, f)
		}
		return appendWholeFrac(dst, whole, frac)
	}
	if k := strings.LastIndexByte(f, '.'); k >= 0 && strings.Count(f, ".") == 1 {
		return appendWholeFrac(dst, f[:k], f[k+1:])
	}
	return appendWholeFrac(dst, f, "")
}

// fractionOf reads the figure f, of one "/", as a whole part and a proper
// fraction ("17-1/2", "1/2"): its whole part and the fraction's first four
// decimals ("5000"), written in b; false when f is no such figure ("1/0",
// "3/2", "1-2/3-4").
func fractionOf(f string, b *[32]byte) (whole string, frac []byte, ok bool) {
	k := strings.IndexByte(f, '/')
	if k <= 0 || strings.Count(f, "/") != 1 {
		return "", nil, false
	}
	whole, num, den := "", f[:k], f[k+1:]
	if h := strings.LastIndexByte(num, '-'); h > 0 {
		whole, num = num[:h], num[h+1:]
	}
	n, okN := atoiCommas(num)
	d, okD := atoiCommas(den)
	if !okN || !okD || d == 0 || n >= d || strings.ContainsAny(whole, "-/.") {
		return "", nil, false
	}
	return whole, strconv.AppendFloat(b[:0], float64(n)/float64(d), 'f', 4, 64)[2:], true
}

// appendWholeFrac appends the digits of a value's whole part without its
// leading zeros, then those of its fraction without its trailing zeros:
// "0" when none are left.
func appendWholeFrac[T string | []byte](dst []byte, whole string, frac T) []byte {
	n := len(dst)
	for i := 0; i < len(whole); i++ {
		if isDigit(whole[i]) && (whole[i] != '0' || len(dst) > n) {
			dst = append(dst, whole[i])
		}
	}
	m := len(dst)
	dst = appendDigits(dst, frac)
	for len(dst) > m && dst[len(dst)-1] == '0' {
		dst = dst[:len(dst)-1]
	}
	if len(dst) == n {
		dst = append(dst, '0')
	}
	return dst
}

// appendDigits appends the ASCII digits of s to dst.
func appendDigits[T string | []byte](dst []byte, s T) []byte {
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			dst = append(dst, s[i])
		}
	}
	return dst
}

// atoiCommas returns the number s writes, its commas left out, as
// strconv.Atoi(strings.ReplaceAll(s, ",", "")) reads it (a sign first,
// then digits), without allocating; false for another byte, for no digit
// or for a number beyond an int.
func atoiCommas(s string) (int, bool) {
	i := 0
	for i < len(s) && s[i] == ',' {
		i++
	}
	neg := i < len(s) && s[i] == '-'
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	limit := uint64(math.MaxInt)
	if neg {
		limit++ // math.MinInt
	}
	var u uint64
	digits := 0
	for ; i < len(s); i++ {
		c := s[i]
		if c == ',' {
			continue
		}
		if !isDigit(c) || u > (limit-uint64(c-'0'))/10 {
			return 0, false
		}
		u, digits = u*10+uint64(c-'0'), digits+1
	}
	if neg {
		return int(-u), digits > 0
	}
	return int(u), digits > 0
}

// digitsOnly returns the ASCII digits of s.
func digitsOnly(s string) []byte {
	var d []byte
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			d = append(d, s[i])
		}
	}
	return d
}

// wordHash returns a hash of the word w, lower-cased, never 0: of its
// ASCII letters (| 0x20) and of each other letter or mark, a rune of
// another script (lower), its value.
func wordHash(w string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			return wordHashRunes(h, w[i:])
		}
		h = (h ^ uint32(w[i]|0x20)) * 16777619
	}
	return max(h, 1)
}

// wordHashRunes is wordHash of the rest w of a word from its first byte
// beyond ASCII on, h the hash of what comes before it.
func wordHashRunes(h uint32, w string) uint32 {
	for i := 0; i < len(w); {
		c, n := rune(w[i]), 1
		if c >= utf8.RuneSelf {
			c, n = decodeRune(w, i)
			c = lower(c)
		} else {
			c |= 0x20
		}
		h = (h ^ uint32(c)) * 16777619
		i += n
	}
	return max(h, 1)
}

// shapeClass maps a lower-case ASCII letter or a digit to the letter a
// character recogniser confuses it with (the usual look-alikes: "0" and
// "o", "1" and "l", "c" and "e", "h" and "n", "w" and "vv"); 0 for itself.
var shapeClass = [128]byte{
	'0': 'o', 'a': 'o', '1': 'l', 'i': 'l', 'e': 'c', 'g': 'c', 'q': 'c', '5': 's', '8': 'b',
	'h': 'n', 'r': 'n', 'f': 't', 'u': 'v', 'w': 'v', '2': 'z',
}

// shapeOf maps every byte to its shape (see AppendShape): an ASCII
// letter lower-cased and then, with a digit, folded by shapeClass; any
// other byte to itself. One look-up does both.
var shapeOf = func() (t [256]byte) {
	for c := range 256 {
		b := byte(c)
		if b >= 'A' && b <= 'Z' {
			b += 'a' - 'A'
		}
		if b < 128 && shapeClass[b] != 0 {
			b = shapeClass[b]
		}
		t[c] = b
	}
	return t
}()

// shapeAt returns the shape of the character of b at i (see AppendShape)
// and how many more bytes it takes: "rn" is "m", "cl" is "d".
func shapeAt[T string | []byte](b T, i int) (byte, int) {
	c := b[i]
	if i+1 < len(b) {
		// c|0x20 is 'r' for "R" and "r" only, 'c' for "C" and "c".
		switch d := b[i+1] | 0x20; {
		case c|0x20 == 'r' && d == 'n':
			return 'm', 1
		case c|0x20 == 'c' && d == 'l':
			return 'd', 1
		}
	}
	return shapeOf[c], 0
}

// AppendShape appends to dst the shape of b, a word or a name in lower
// case: its letters with the look-alikes a character recogniser confuses
// folded into one ("0" and "o", "rn" and "m", "cl" and "d", "vv" and "w")
// and a letter repeated kept once, so that a word misread ("Gorp" for
// "Corp", "Prirne" for "Prime", "receiived" for "received") keeps its
// shape while another word does not. Bytes beyond ASCII are kept as they
// are. Template fills are compared by their shapes.
func AppendShape(dst, b []byte) []byte {
	for i := 0; i < len(b); i++ {
		c, n := shapeAt(b, i)
		i += n
		if k := len(dst); k > 0 && dst[k-1] == c && c < 128 {
			continue
		}
		dst = append(dst, c)
	}
	return dst
}

// InPlace compares the places two sorted sets of slotted figures (see
// Slots) fill with one figure each, and returns how many places both fill
// so and in how many of them the figures differ: neither explains the other
// as a damaged copy of it (see explains). A place a text fills with two or
// more figures ("vs" twice in an earnings report) is left out: which
// figure fills it is not known.
func InPlace(a, b []uint64) (shared, other int) { return inPlace(a, b, true) }

// InPlaceWhole is InPlace forgiving no piece: of two figures, one is a
// damaged copy of the other only by a digit dropped or doubled ("6" and
// "6-1/16", "625" and "60625" are other figures). A recurring item of
// another day reads so, its rate a piece of yesterday's by chance.
func InPlaceWhole(a, b []uint64) (shared, other int) { return inPlace(a, b, false) }

// inPlace is InPlace, forgiving a piece when pieces.
func inPlace(a, b []uint64, pieces bool) (shared, other int) {
	var bx, by [slotDigits]byte
	for i, j := 0, 0; i < len(a) && j < len(b); {
		pa, pb := a[i]>>slotShift, b[j]>>slotShift
		switch {
		case pa < pb:
			i++
		case pb < pa:
			j++
		default:
			ni, nj := i, j
			for ni < len(a) && a[ni]>>slotShift == pa {
				ni++
			}
			for nj < len(b) && b[nj]>>slotShift == pb {
				nj++
			}
			switch {
			case ni-i != 1 || nj-j != 1:
			case isWidth(a[i]) || isWidth(b[j]):
				// Rows of other widths are two rows; of one width, no
				// figure the texts report.
				if isWidth(a[i]) && isWidth(b[j]) && max(widthOf(a[i]), widthOf(b[j]))-min(widthOf(a[i]), widthOf(b[j])) >= minWider {
					shared++
					other++
				}
			default:
				shared++
				if a[i] != b[j] && !explainsBy(slotFigure(a[i], bx[:0]), slotFigure(b[j], by[:0]), pieces) {
					other++
				}
			}
			i, j = ni, nj
		}
	}
	return shared, other
}

// minRefilled is the fewest places with other figures that make two texts
// one template filled in twice (see Refilled): one changed figure in its
// place is as often a correction or a misprint.
const minRefilled = 2

// Refilled reports whether two texts whose places compare as InPlace
// returned (shared places, other figures) are one template filled in
// twice: at least two places hold other figures, and those are at least
// half of the shared places or, when otherDay (the texts are dated on
// different days), any share of them (the same item of another day,
// rewritten around its new figures).
func Refilled(shared, other int, otherDay bool) bool {
	return other >= minRefilled && (2*other >= shared || otherDay)
}

// numberWords are the numbers wire style writes as words, lower-cased, in
// the order of their values (numberWord spells them out).
var numberWords = []string{"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}

// numberWord returns the digits of the word w when it is one of
// numberWords in any case, else "".
func numberWord(w string) string {
	if len(w) < 3 || len(w) > 5 {
		return ""
	}
	return shortNumbers.of(packWord(w), w, false)
}

// packWord returns the bytes of w, at most eight, lower-cased (| 0x20), as
// one number read little-endian, as analysis.Load64 reads them: its
// first byte the lowest. A letter is never 0 lower-cased, so words of
// different lengths differ.
func packWord(w string) uint64 {
	var k uint64
	for i := min(len(w), 8) - 1; i >= 0; i-- {
		k = k<<8 | uint64(w[i]|0x20)
	}
	return k
}

// Explains reports whether one of the figures written by the digits x and
// y can be a damaged copy of the other (see explains).
func Explains(x, y []byte) bool { return explains(x, y) }

// explains reports whether one of the digits x and y can be a damaged copy
// of the other: one digit dropped or doubled, or one a piece of the other (a
// figure split in two, a digit misread as a letter). A digit replaced by
// another is not forgiven: "750" and "800", "6.1" and "7.1" are other
// figures.
func explains(x, y []byte) bool { return explainsBy(x, y, true) }

// explainsBy is explains, a piece forgiven only when pieces. A value with
// a decimal point (see Scanner.Decimals) is a damaged copy of another by a
// digit dropped, doubled or a piece as well, never by its point dropped or
// moved: "1.5" and "15", "12.5" and "1.25" are other figures; one with an
// ambiguous separator ("1,500") by either of its readings (see readings),
// and a reading equal to the other figure ("1500", "1.5") is that figure,
// a piece forgiven or not.
func explainsBy(x, y []byte, pieces bool) bool {
	if bytes.IndexByte(x, ',') >= 0 || bytes.IndexByte(y, ',') >= 0 {
		var bx, by [2 * slotDigits]byte
		xt, xd := readings(x, bx[:0])
		yt, yd := readings(y, by[:0])
		if bytes.Equal(xt, yt) || bytes.Equal(xt, yd) || bytes.Equal(xd, yt) || bytes.Equal(xd, yd) {
			return true
		}
		return explainsPlain(xt, yt, pieces) || explainsPlain(xt, yd, pieces) ||
			explainsPlain(xd, yt, pieces) || explainsPlain(xd, yd, pieces)
	}
	return explainsPlain(x, y, pieces)
}

// explainsPlain is explainsBy of two values without an ambiguous
// separator.
func explainsPlain(x, y []byte, pieces bool) bool {
	if len(x) > len(y) {
		x, y = y, x
	}
	if len(y)-len(x) == 1 {
		i := 0
		for i < len(x) && x[i] == y[i] {
			i++
		}
		if bytes.Equal(x[i:], y[i+1:]) {
			return y[i] != '.' // a digit dropped or doubled; a point dropped is another value (".5", "5")
		}
	}
	return pieces && bytes.Contains(y, x)
}

// isOrdinalSuffix reports whether rest, the text after a figure, starts
// with an ordinal suffix that ends a word: "th", "ST", "nd", "rd".
func isOrdinalSuffix(rest string) bool {
	if len(rest) < 2 {
		return false
	}
	switch uint16(rest[0]|0x20)<<8 | uint16(rest[1]|0x20) {
	case 's'<<8 | 't', 'n'<<8 | 'd', 'r'<<8 | 'd', 't'<<8 | 'h':
	default:
		return false
	}
	return len(rest) == 2 || !isWordByte(rest[2])
}

// isWordByte reports ASCII letters and digits.
func isWordByte(c byte) bool { return isLetter(c) || isDigit(c) }

// letterRunEnd returns where the run of ASCII letters (isLetter) that
// starts at text[i] ends. It reads eight bytes at a time as one number and
// finds the first byte that is no letter in all of them at once: a byte
// lower-cased (| 0x20) is a letter from 'a' (0x61) to 'z' (0x7A), and its
// low seven bits plus 0x1F reach its high bit from 0x61 on, plus 0x05
// from 0x7B on, without a carry into the next byte; a byte of 0x80 or more
// is no letter. A word ends in the first eight bytes but for a long one,
// and is found without a branch on each letter.
func letterRunEnd(text string, i int) int {
	const lows, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(text); i += 8 {
		v := analysis.Load64(text[i : i+8])
		low := (v | 0x20*lows) &^ highs
		letters := (low + 0x1F*lows) &^ (low + 0x05*lows) &^ v & highs
		if other := ^letters & highs; other != 0 {
			return i + bits.TrailingZeros64(other)/8
		}
	}
	for i < len(text) && isLetter(text[i]) {
		i++
	}
	return i
}

// wordAt returns where the run of ASCII letters that starts at text[i]
// ends, as letterRunEnd, and, for a run of fewer than eight letters, its
// bytes packed as packWord packs them, read from the eight bytes that
// found its end; 0 for a longer run.
func wordAt(text string, i int) (end int, key uint64) {
	const lows, highs = 0x0101010101010101, 0x8080808080808080
	if i+8 > len(text) {
		end = letterRunEnd(text, i)
		if end-i < 8 {
			key = packWord(text[i:end])
		}
		return end, key
	}
	v := analysis.Load64(text[i : i+8])
	lower := v | 0x20*lows
	low := lower &^ highs
	letters := (low + 0x1F*lows) &^ (low + 0x05*lows) &^ v & highs
	other := ^letters & highs
	if other == 0 {
		return letterRunEnd(text, i+8), 0
	}
	n := bits.TrailingZeros64(other) / 8
	return i + n, lower & (1<<(8*n) - 1)
}

// isLetter reports ASCII letters.
func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// isYear reports whether the digits d are a year from 1900 to 2099.
func isYear(d string) bool {
	return len(d) == 4 && (d[:2] == "19" || d[:2] == "20")
}

// isFigureJoin reports the bytes that join the digits of one figure.
func isFigureJoin(c byte) bool { return c == '-' || c == '/' || c == '.' || c == ',' }

// ThousandsEnd returns where the number at text[start:] ends when its
// groups of thousands are set apart by spaces, as French, Polish and
// Russian write it ("180 000 euros", "1 250 000 zł", "12 500 руб."); start
// when it is no such number. Its first group has one to three digits and
// neither a letter nor another group before it (a contract month's "MAY7
// 274"); one to four groups of three digits follow, each after one space
// (a plain, no-break, narrow no-break or thin one, or a line break, read
// alike); and after
// the last, its decimals and any white space, line breaks too, a currency
// sign, "%" or a word of thousandsUnits: a currency or a count of people,
// homes or jobs of those languages. So a table's row of figures ("COPPER
// 875 877", "aug 724 734 nil"), a day and a sum ("July 6 100 mln dlrs")
// and a list of codes stay figures apart. A Scanner with Languages, and
// the templates' reading of a headline with it, read such a number as one
// figure.
func ThousandsEnd(text string, start int) int {
	i := start
	for i < len(text) && isDigit(text[i]) {
		i++
	}
	if i == start || i-start > 3 || afterLetter(text, start) || afterGroup(text, start) {
		return start
	}
	end, groups := i, 0
	for {
		n := thousandsSpace(text[end:])
		if n == 0 {
			break
		}
		if groups++; groups > maxThousandsGroups {
			return start // a list of codes, not a number
		}
		end += n + 3
	}
	if groups == 0 || !unitAfter(text[end:]) {
		return start
	}
	return end
}

// maxThousandsGroups is the most groups of three digits after the first
// that ThousandsEnd reads: a number under a quadrillion.
const maxThousandsGroups = 4

// unitAfter reports whether s, what follows a number's last group of
// thousands, opens with its decimals, if any, white space, and a currency
// sign, "%" or a word of thousandsUnits ("180 000 euros", "1 250,50 zł",
// "12 500\nруб."). A letter or a digit right after the group is no unit
// ("15 747s").
func unitAfter(s string) bool {
	j := 0
	if j+1 < len(s) && (s[j] == ',' || s[j] == '.') && isDigit(s[j+1]) {
		for j++; j < len(s) && isDigit(s[j]); j++ {
		}
	}
	first := j
	for j < len(s) {
		r, n := utf8.DecodeRuneInString(s[j:])
		switch {
		case unicode.IsSpace(r):
			j += n
		case unicode.Is(unicode.Sc, r) || r == '%':
			return true
		case unicode.IsLetter(r) && j > first:
			k := j
			for k < len(s) {
				r, n := utf8.DecodeRuneInString(s[k:])
				if !unicode.IsLetter(r) {
					break
				}
				k += n
			}
			return thousandsUnits[strings.ToLower(s[j:k])]
		default:
			return false
		}
	}
	return false
}

// thousandsUnits are the words after a sum or a count that French,
// Polish, Russian and German copy writes with its thousands set apart by
// spaces, in lower case: currencies and counts of people, homes and jobs.
// English words are left out (a day before a sum: "July 6 100 dollars").
var thousandsUnits = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`euro euros eur francs franken chf zł zl złotych zlotych złote złoty pln
		рублей рубля рубль руб долларов доллара евро гривен грн тенге kč korun
		personnes habitants manifestants spectateurs visiteurs emplois logements élèves salariés
		osób mieszkańców pracowników uczniów человек жителей рабочих мест
		menschen einwohner besucher beschäftigte`) {
		m[w] = true
	}
	return m
}()

// afterGroup reports whether text[:i] ends with a digit and a space or
// line break of thousandsSpace: a group inside a longer run of them, which ThousandsEnd
// refused from its start.
func afterGroup(text string, i int) bool {
	r, n := utf8.DecodeLastRuneInString(text[:i])
	if r != ' ' && r != '\n' && r != '\u00a0' && r != '\u202f' && r != '\u2009' {
		return false
	}
	if r == '\n' && i-n > 0 && text[i-n-1] == '\r' {
		n++ // a line break of CRLF
	}
	return i-n > 0 && isDigit(text[i-n-1])
}

// afterLetter reports whether a letter, of any script, ends text[:i].
func afterLetter(text string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return unicode.IsLetter(r)
}

// thousandsSpace returns the length of the space that sets apart a group
// of thousands at the start of s: one space, no-break space (U+00A0),
// narrow no-break space (U+202F), thin space (U+2009) or line break (a
// copy whose lines were wrapped again: "180\n000 euros"), followed by
// exactly three digits; 0 for none.
func thousandsSpace(s string) int {
	n := 0
	switch {
	case strings.HasPrefix(s, " "), strings.HasPrefix(s, "\n"):
		n = 1
	case strings.HasPrefix(s, "\r\n"):
		n = 2
	case strings.HasPrefix(s, "\u00a0"):
		n = len("\u00a0")
	case strings.HasPrefix(s, "\u202f"), strings.HasPrefix(s, "\u2009"):
		n = len("\u202f")
	default:
		return 0
	}
	if len(s) < n+3 || !isDigit(s[n]) || !isDigit(s[n+1]) || !isDigit(s[n+2]) || len(s) > n+3 && isDigit(s[n+3]) {
		return 0
	}
	return n
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// nilWord is "nil" packed (see packWord): wire tables write a zero so
// ("CASCAVEL NIL", "Shr nil vs 12 cts").
var nilWord = packWord("nil")

// measureUnits are the units of measure a table of stations writes after
// a value, packed (see packWord): the place of the value is the words
// around value and unit, as a station without rain ("NIL") writes none.
var measureUnits = func() map[uint64]bool {
	m := map[uint64]bool{}
	for _, w := range []string{"mm", "mms", "cm", "cms", "inch", "inches"} {
		m[packWord(w)] = true
	}
	return m
}()

// isMeasureUnit reports whether the word w, packed as k (see wordAt), is
// one of measureUnits or, in any case, a unit too long to pack, which
// packs to 0: millimetres, millimeters, centimetres, centimeters.
func isMeasureUnit(k uint64, w string) bool {
	if k != 0 {
		return measureUnits[k]
	}
	return len(w) == len("millimetres") && (strings.EqualFold(w, "millimetres") || strings.EqualFold(w, "millimeters") ||
		strings.EqualFold(w, "centimetres") || strings.EqualFold(w, "centimeters"))
}
