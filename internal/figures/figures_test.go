package figures

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestOf(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"1,000 and 3.5", "1000 and 35"},
		{"13-3/8 pct", "1338 pct"},
		{"in 1987, 12 mln", "12 mln in 1986"},         // years are left out
		{"l986 tonnes", "986 tonnes"},                 // letters around digits are ignored
		{"the 1986/87 crop", "198687"},                // a joined season is a figure, not a year
		{"4th qtr net 12 mln", "1ST HALF net 12 mln"}, // ordinals are wording
		{"12 mln 3rd", "12 mln"},
	} {
		if a, b := Of(tc.a), Of(tc.b); !slices.Equal(a, b) || len(a) == 0 {
			t.Errorf("Of(%q) = %v, Of(%q) = %v; want equal and not empty", tc.a, a, tc.b, b)
		}
	}
	if a, b := Of("13-3/8"), Of("8-1/2"); len(a) != 1 || slices.Equal(a, b) {
		t.Errorf("fractions: %v and %v, want one figure each, different", a, b)
	}
	if got := Of("In 1987 and 2004."); len(got) != 0 {
		t.Errorf("years: got %v, want none", got)
	}
	if got := Of("4 things, 4s and 4thx"); len(got) != 1 {
		t.Errorf("not ordinals: got %v, want the figure 4", got)
	}
}

func TestInPlace(t *testing.T) {
	for _, tc := range []struct {
		a, b          string
		shared, other int
	}{
		{"revised its estimate to 750 mln stg from 700 mln.", "revised its estimate to 800 mln stg from 750 mln.", 2, 2},
		{"revised its estimate to 750 mln stg from 700 mln.", "revised its estimate to 750 mln stg from 700 mln.", 2, 0},
		{"Qtly div five cts vs five cts prior", "Qtly div 73 cts vs 73 cts prior", 2, 2},          // numbers in words are figures
		{"Qtly div 17-1/2 cts vs 17-1/2 cts prior", "Qtly div 17.5 cts vs 17.50 cts prior", 2, 0}, // values, not digits
		{"showed 1.0 ounce of gold and 0.50 ounce of silver", "showed one ounce of gold and 1/2 ounce of silver", 2, 0},
		{"Sales on 3,600 steers and 700 heifers", "Sales on 3,6600 steers and 70 heifers", 2, 0}, // digits doubled and dropped
		{"Sales on 3,600 steers and 700 heifers", "Sales on 3,800 steers and 700 heifers", 2, 1}, // a digit replaced is another figure
		{"Net 421 vs 333\nRevs 2,103 vs 2,287\n", "Revs 2,103 vs 2,287\nNet 421 vs 333\n", 2, 0}, // rows moved: "vs _" of two figures left out
		{"Net 421 vs 333\nRevs 2,103 vs 2,287", "Net 421 vs 333 Revs 2,103 vs 2,287", 2, 0},
		{"one of the four", "none of them", 0, 0},
		// A table's row: each figure is a cell of its row and column.
		{"JUNIN......29.......18......5\nCORDOBA.....30.......17......0", "JUNIN......24.......11......0\nCORDOBA.....23.......12......1", 6, 6},
		{"JUNIN......29.......18......5\nCORDOBA.....30.......17......0", "JUNIN......29.......18......5\nCORDOBA.....30.......17......0", 6, 0},
		{"APR 123.5 122.9 122.2\nMAY 124.8 124.5 124.0", "APR 123.5 122.9 122.2\nMAY 124.8 124.5 125.3", 6, 1},
		{"TANDIL....--.......15....5\nJUNIN....29....18....5", "TANDIL....22.......15....5\nJUNIN....29....18....5", 5, 0}, // an empty cell keeps the columns
		// Columns count from the row's end: a table extended with a later
		// session's columns holds other figures in the columns both fill;
		// a table cut short by whole rows holds the same.
		{"APR 123.5 122.9 122.2\nMAY 124.8 124.5 124.2", "APR 123.5 122.9 122.2 122.6 122.3\nMAY 124.8 124.5 124.2 124.1 123.9", 8, 8}, // and each row's width
		// A row of another width is another row, even when the column
		// both end with agrees (open interest) and others do: a width
		// counts when it differs.
		{"APR 123.5 122.9 1,668\nMAY 124.8 124.5 3,839\nJUN 125.2 125.0 2,685", "APR 123.5 122.9 122.9 122.2 1,668\nMAY 124.8 124.5 124.0 123.5 3,839\nJUN 125.2 125.0 124.7 124.8 2,685", 12, 8},
		// One column more or fewer is a figure split in two or a cell
		// wrapped to its own line, not another row.
		{"APR 123.5 122.9 1,668\nMAY 124.8 124.5 3,839", "APR 123.5 122.9 1,668\nMAY 124.8 124.5\n3,839", 5, 2},
		{"Wheat 657.6 659.7\nCorn 1,406.5 1,397.0", "Wheat 657.6 659. 7\nCorn 1,406.5 1,397.0", 4, 1},
		// Two figures in a sentence are as often a score as a row: no width.
		{"He beat Simon 7-6 6-3 in the final.", "He beat Simon 7-6 6 -- 33 in the final.", 1, 1},
		{"APR 123.5 122.9 122.2\nMAY 124.8 124.5 124.0\nJUN 125.2 125.0 124.7", "APR 123.5 122.9 122.2\nMAY 124.8 124.5 124.0", 6, 0},
		{"landed at 3:49 p.m. on 5, 6 and 7 May", "landed at 1:49 p.m. on 4, 6 and 7 May", 0, 0}, // a clock and a list are no row
	} {
		shared, other := InPlace(Slots(tc.a), Slots(tc.b))
		if shared != tc.shared || other != tc.other {
			t.Errorf("InPlace(%q, %q) = %d, %d; want %d, %d", tc.a, tc.b, shared, other, tc.shared, tc.other)
		}
	}
}

// InPlaceWhole forgives a digit dropped or doubled, not a piece.
func TestInPlaceWhole(t *testing.T) {
	for _, tc := range []struct {
		a, b                 string
		other, otherNoPieces int
	}{
		{"traded at six pct, up from 5-3/4 pct", "traded at 6-1/8 pct, up from 5-3/4 pct", 0, 1},
		{"traded at 6-1/4 pct, up from 5-3/4 pct", "traded at 6-1/16 pct, up from 5-3/4 pct", 0, 1},
		{"Sales on 3,600 steers and 700 heifers", "Sales on 3,6600 steers and 70 heifers", 0, 0},
	} {
		a, b := Slots(tc.a), Slots(tc.b)
		_, other := InPlace(a, b)
		_, otherNoPieces := InPlaceWhole(a, b)
		if other != tc.other || otherNoPieces != tc.otherNoPieces {
			t.Errorf("%q, %q: other %d, %d without pieces; want %d, %d", tc.a, tc.b, other, otherNoPieces, tc.other, tc.otherNoPieces)
		}
	}
}

func TestSlotsKeepDigits(t *testing.T) {
	s := Slots("div 123456789012345 cts vs 5 cts")
	if len(s) != 2 || string(slotFigure(s[0], nil)) != "123456789012" && string(slotFigure(s[1], nil)) != "123456789012" {
		t.Errorf("Slots kept %v, want the first twelve digits", s)
	}
	if got := Slots("div 5 cts"); got != nil {
		t.Errorf("one place: Slots kept %v, want none (one place cannot tell a template)", got)
	}
	if got := Slots("Qtly div 5 cts vs 6 cts prior\nPay April 30\nRecord April 15"); len(got) != 2 {
		t.Errorf("Slots kept %d figures, want 2: a place filled twice (April) is left out", len(got))
	}
	if got := Slots("in 1987 the 4th"); len(got) != 0 {
		t.Errorf("years and ordinals: got %v, want none", got)
	}
}

// TestNumberWordAndValueSameAsPlain compares numberWord and value with
// their plain forms (EqualFold against each number word; the general path
// of value for every figure) on random words and figures.
func TestNumberWordAndValueSameAsPlain(t *testing.T) {
	plainNumberWord := func(w string) string {
		for i, n := range numberWords {
			if len(w) >= 3 && len(w) <= 5 && strings.EqualFold(w, n) {
				return strconv.Itoa(i + 1)
			}
		}
		return ""
	}
	plainValue := func(f string) []byte {
		w := strings.TrimLeft(string(digitsOnly(f)), "0")
		if w == "" {
			return []byte("0")
		}
		return []byte(w)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	letters := "oneNTWthreEfuivsxghOTFSEN"
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(6) {
			b.WriteByte(letters[rng.IntN(len(letters))])
		}
		w := b.String()
		if rng.IntN(4) == 0 {
			w = numberWords[rng.IntN(len(numberWords))]
			if rng.IntN(2) == 0 {
				w = strings.ToUpper(w)
			}
		}
		if got, want := numberWord(w), plainNumberWord(w); got != want {
			t.Fatalf("numberWord(%q) = %q, want %q", w, got, want)
		}
	}
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteByte("0001239-,"[rng.IntN(9)])
		}
		f := b.String()
		if got, want := value(f), plainValue(f); !bytes.Equal(got, want) {
			t.Fatalf("value(%q) = %q, want %q", f, got, want)
		}
		if got, want := appendValue([]byte("07"), f), append([]byte("07"), plainValue(f)...); !bytes.Equal(got, want) {
			t.Fatalf("appendValue(07, %q) = %q, want %q", f, got, want)
		}
	}
	// The fast paths of appendValue (whole numbers, decimals) give what the
	// general one gives, for any figure.
	for range 50000 {
		var b strings.Builder
		for range 1 + rng.IntN(9) {
			b.WriteByte("00012390-,./"[rng.IntN(12)])
		}
		f := b.String()
		if got, want := appendValue([]byte("07"), f), appendValueGeneral([]byte("07"), f); !bytes.Equal(got, want) {
			t.Fatalf("appendValue(07, %q) = %q, want %q", f, got, want)
		}
	}
}

func TestOfSlotsIsOfAndSlots(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	pieces := []string{"rose", "to", "mln", " ", " ", "\n", "five", "Ten", "1987", "12", "3.5", "17-1/2", "1,000", "4th", "0.50", "dlrs", ",", "-", "/", ".", "007", "0"}
	var reused Scanner // one Scanner for every text gives what a new one gives
	for range 5000 {
		var b strings.Builder
		for range rng.IntN(30) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
			if rng.IntN(2) == 0 {
				b.WriteByte(' ')
			}
		}
		text := b.String()
		of, slots := OfSlots(text)
		if !slices.Equal(of, Of(text)) || !slices.Equal(slots, Slots(text)) {
			t.Fatalf("OfSlots(%q) = %v, %v; Of and Slots %v, %v", text, of, slots, Of(text), Slots(text))
		}
		if rof, rslots := reused.OfSlots(text); !slices.Equal(rof, of) || !slices.Equal(rslots, slots) || (rof == nil) != (of == nil) {
			t.Fatalf("a reused Scanner's OfSlots(%q) = %v, %v, want %v, %v", text, rof, rslots, of, slots)
		}
	}
}

// BenchmarkOfSlots reads the figures and places of a made-up wire story
// with a table, as a sketcher does for every document.
func BenchmarkOfSlots(b *testing.B) {
	text := strings.Repeat("KELSO, May 2 - Qtly div 17-1/2 cts vs 15 cts prior, payable June 30 to holders of record May 15. "+
		"Sales on 3,600 steers and 700 heifers rose to 12.5 mln dlrs.\n", 4) +
		strings.Repeat("JUNIN......29.......18......5\nCORDOBA.....30.......17......0\nAPR 123.5 122.9 122.2 1,668\n", 8)
	var s Scanner
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		s.OfSlots(text)
	}
}

// FuzzLetterRunEnd checks the run of letters found eight bytes at a time
// against a loop over each byte.
func FuzzLetterRunEnd(f *testing.F) {
	for _, s := range []string{"Qtly div 17-1/2 cts", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", "@[`{\x80\xc1\xe1\xfa az AZ", "Zürich Kraków"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for i := 0; i < len(text); i++ {
			want := i
			for want < len(text) && isLetter(text[want]) {
				want++
			}
			if got := letterRunEnd(text, i); got != want {
				t.Fatalf("letterRunEnd(%q, %d) = %d, want %d", text, i, got, want)
			}
		}
	})
}

// Every byte, at every place of the first eight and past them, ends a run
// of letters where a loop over each byte ends it.
func TestLetterRunEndEveryByte(t *testing.T) {
	for c := range 256 {
		for at := range 12 {
			text := "abcdefghijkl"[:at] + string([]byte{byte(c)}) + "MNOPQRSTUVWX"
			want := 0
			for want < len(text) && isLetter(text[want]) {
				want++
			}
			if got := letterRunEnd(text, 0); got != want {
				t.Fatalf("letterRunEnd(%q, 0) = %d, want %d", text, got, want)
			}
		}
	}
}

// wordAtPlain is wordAt read a byte at a time: the run's end, and its
// bytes packed when it has fewer than eight.
func wordAtPlain(text string, i int) (int, uint64) {
	end := i
	for end < len(text) && isLetter(text[end]) {
		end++
	}
	if end-i >= 8 {
		return end, 0
	}
	var k uint64
	for j := end - 1; j >= i; j-- {
		k = k<<8 | uint64(text[j]|0x20)
	}
	return end, k
}

// FuzzWordAt checks the run of letters and its packed bytes read eight
// bytes at a time against a loop over each byte, at every letter of text.
func FuzzWordAt(f *testing.F) {
	for _, s := range []string{"Qtly div five cts", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", "@[`{\x80\xc1\xe1\xfa az AZ", "Zürich Kraków", "SEVEN-Eight"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for i := 0; i < len(text); i++ {
			if !isLetter(text[i]) {
				continue
			}
			end, key := wordAt(text, i)
			if wantEnd, wantKey := wordAtPlain(text, i); end != wantEnd || key != wantKey {
				t.Fatalf("wordAt(%q, %d) = %d, %#x, want %d, %#x", text, i, end, key, wantEnd, wantKey)
			}
		}
	})
}

// Every byte, at every place of a run's first eight bytes and past them,
// ends the run, and packs it, where a loop over each byte does; and every
// number word in any case, in a text of any length, reads as its digits.
func TestWordAtEveryByte(t *testing.T) {
	for c := range 256 {
		for at := 1; at < 12; at++ {
			for _, tail := range []string{"MNOPQRSTUVWX", ""} {
				text := "abcdefghijkl"[:at] + string([]byte{byte(c)}) + tail
				end, key := wordAt(text, 0)
				if wantEnd, wantKey := wordAtPlain(text, 0); end != wantEnd || key != wantKey {
					t.Fatalf("wordAt(%q, 0) = %d, %#x, want %d, %#x", text, end, key, wantEnd, wantKey)
				}
			}
		}
	}
	for i, w := range numberWords {
		for _, text := range []string{w, strings.ToUpper(w) + " dlrs", "x " + strings.ToUpper(w[:1]) + w[1:] + "-year"} {
			at := strings.IndexFunc(text, func(r rune) bool { return r != 'x' && r != ' ' })
			end, key := wordAt(text, at)
			if got, want := shortNumbers.of(key, text[at:end], false), strconv.Itoa(i+1); end != at+len(w) || got != want {
				t.Errorf("wordAt(%q, %d) reads %q to %d, want %q to %d", text, at, got, end, want, at+len(w))
			}
		}
	}
}

// TestShapeOfEveryByte compares AppendShape, whose bytes are looked up in
// one table, with the rule read plainly (ASCII capitals lower-cased, then
// look-alikes folded, "rn" and "cl" read as one letter, an ASCII letter
// repeated kept once) on every pair of bytes and on random words; and
// indexBlank with strings.IndexAny.
func TestShapeOfEveryByte(t *testing.T) {
	plain := func(b []byte) []byte {
		var dst []byte
		for i := 0; i < len(b); i++ {
			c := b[i]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			if i+1 < len(b) && c == 'r' && b[i+1]|0x20 == 'n' {
				c, i = 'm', i+1
			} else if i+1 < len(b) && c == 'c' && b[i+1]|0x20 == 'l' {
				c, i = 'd', i+1
			} else if c < 128 && shapeClass[c] != 0 {
				c = shapeClass[c]
			}
			if len(dst) > 0 && dst[len(dst)-1] == c && c < 128 {
				continue
			}
			dst = append(dst, c)
		}
		return dst
	}
	check := func(b []byte) {
		if got, want := AppendShape(nil, b), plain(b); !bytes.Equal(got, want) {
			t.Fatalf("AppendShape(%q) = %q, want %q", b, got, want)
		}
		if got, want := indexBlank(string(b)), strings.IndexAny(string(b), " \t"); got != want {
			t.Fatalf("indexBlank(%q) = %d, want %d", b, got, want)
		}
	}
	for c := range 256 {
		for d := range 256 {
			check([]byte{byte(c), byte(d)})
		}
	}
	rng := rand.New(rand.NewPCG(4, 4))
	letters := []byte("rnRNclCL0o1lIiaAeEgqh5s8bwWvVuf2z \t.\xc3\xa9\xe2")
	for range 20000 {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = letters[rng.IntN(len(letters))]
		}
		check(b)
	}
}

// plainValueGeneral is appendValueGeneral as first written, with
// strconv.Atoi and strings' functions, allocating as it goes.
func plainValueGeneral(dst []byte, f string) []byte {
	var whole, frac string
	if k := strings.IndexByte(f, '/'); k > 0 && strings.Count(f, "/") == 1 {
		num, den := f[:k], f[k+1:]
		if h := strings.LastIndexByte(num, '-'); h > 0 {
			whole, num = num[:h], num[h+1:]
		}
		n, errN := strconv.Atoi(strings.ReplaceAll(num, ",", ""))
		d, errD := strconv.Atoi(strings.ReplaceAll(den, ",", ""))
		if errN != nil || errD != nil || d == 0 || n >= d || strings.ContainsAny(whole, "-/.") {
			return append(dst, digitsOnly(f)...)
		}
		frac = strconv.FormatFloat(float64(n)/float64(d), 'f', 4, 64)[2:]
	} else if k := strings.LastIndexByte(f, '.'); k >= 0 && strings.Count(f, ".") == 1 {
		whole, frac = f[:k], f[k+1:]
	} else {
		whole = f
	}
	w := strings.TrimLeft(string(digitsOnly(whole)), "0")
	fr := strings.TrimRight(string(digitsOnly(frac)), "0")
	if w == "" && fr == "" {
		return append(dst, '0')
	}
	return append(append(dst, w...), fr...)
}

// TestValueGeneralSameAsPlain compares appendValueGeneral, which
// allocates nothing, with plainValueGeneral on random figures, signs,
// long numbers (beyond an int) and fractions of every kind; and
// atoiCommas with strconv.Atoi.
func TestValueGeneralSameAsPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	pieces := []string{"0", "1", "2", "3", "7", "8", "9", "00", "16", "-", "/", ".", ",", "+", "9223372036854775807", "9223372036854775808", "99999999999999999999"}
	for range 200000 {
		var b strings.Builder
		for range 1 + rng.IntN(7) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		f := b.String()
		if got, want := appendValueGeneral([]byte("07"), f), plainValueGeneral([]byte("07"), f); !bytes.Equal(got, want) {
			t.Fatalf("appendValueGeneral(07, %q) = %q, want %q", f, got, want)
		}
		n, ok := atoiCommas(f)
		wn, err := strconv.Atoi(strings.ReplaceAll(f, ",", ""))
		if ok != (err == nil) || ok && n != wn {
			t.Fatalf("atoiCommas(%q) = %d, %v; strconv.Atoi: %d, %v", f, n, ok, wn, err)
		}
	}
	buf := make([]byte, 0, 64)
	for _, f := range []string{"13-3/8", "1.2.3", "12,5/7-8", "1/2"} {
		if n := testing.AllocsPerRun(100, func() { buf = appendValueGeneral(buf[:0], f) }); n != 0 {
			t.Errorf("appendValueGeneral(%q) allocates %v times", f, n)
		}
	}
}

// TestLastColumn: a table of one column and the same table extended by a
// later hour's column hold other figures in the places they share, read
// with LastColumn (regression: "Silver     8000" and "Silver     8000
// 13000" shared no place, and the 10:00 and 11:00 volumes of one market
// were a duplicate); a figure after one space ending its line ("SANTA
// MARIA 7.0", "Pay April 30") is the figure of its word's place, and
// without LastColumn, as older sketch formats read, so is an aligned one.
func TestLastColumn(t *testing.T) {
	one := "VOLUMES\n Silver     8000\n Copper      900\n Gold       4500\n Reuter"
	two := "VOLUMES\n Silver     8000  13000\n Copper      900   1700\n Gold       4500   8000\n Reuter"
	wrapped := "VOLUMES\n Silver     8000 \n13000\n Copper      900 \n1700\n Gold       4500\n   8000\n Reuter"
	for _, tc := range []struct {
		name          string
		last          bool
		a, b          string
		shared, other int
	}{
		{"a table extended by a column", true, one, two, 3, 3},
		{"a table of one column copied", true, one, one, 3, 0},
		{"older formats", false, one, two, 0, 0},
		{"one space before a figure ending its line", true, "Pay April 30\nRecord April 15", "Pay April 30 31\nRecord April 15 16", 0, 0},
		{"a table wrapped before its last column", true, two, wrapped, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Scanner{LastColumn: tc.last}
			_, a := s.OfSlots(tc.a)
			_, b := s.OfSlots(tc.b)
			if shared, other := InPlace(a, b); shared != tc.shared || other != tc.other {
				t.Errorf("InPlace = %d, %d; want %d, %d", shared, other, tc.shared, tc.other)
			}
		})
	}
}

// TestLastColumnWords: a number written as a word alone at its line's end
// and set in a column ("CASCAVEL     NIL") fills its row's last column as a
// figure does, whatever the text read before (regression: the column of
// the word was that of the figure read last, of another row or another
// text, so that a Scanner's places hung on the text it read before, and
// "CASCAVEL     NIL" and "CASCAVEL     4.0" shared no place).
func TestLastColumnWords(t *testing.T) {
	rain := func(a, b string) string {
		return "RAINFALL\nCASCAVEL           " + a + "\nLONDRINA           " + b + "\nGUAXUPE           33.0\nReuter"
	}
	s := Scanner{LastColumn: true, Measures: true, Decimals: true}
	_, a := s.OfSlots(rain("NIL", "NIL"))
	_, b := s.OfSlots(rain("4.0", "2.0"))
	if shared, other := InPlace(a, b); shared != 3 || other != 2 {
		t.Errorf("nil and rain: InPlace = %d, %d; want 3, 2", shared, other)
	}
	for _, tc := range []struct{ name, before, text string }{
		{"a figure in a column before", "VOLUMES\n Silver     8000\n", "Output rose by three\npoints to 450 tonnes, the ministry said"},
		{"a word in a column before", "RAIN\n CASCAVEL     nil\n", "Output rose by three\npoints to 450 tonnes, the ministry said"},
		{"a word after one space", "VOLUMES\n Silver     8000\n", "RAIN\nCASCAVEL nil\nLONDRINA 4.0\nReuter"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := Scanner{LastColumn: true, Measures: true, Decimals: true, Languages: true, Unicode: true}
			reused, fresh := opts, opts
			reused.OfSlots(tc.before)
			_, a := reused.OfSlots(tc.text)
			_, b := fresh.OfSlots(tc.text)
			if !slices.Equal(a, b) {
				t.Errorf("places %x after %q, %x fresh", a, tc.before, b)
			}
		})
	}
}

// TestRowLabels: the rows of a rate sheet, each a figure and a word and
// figures set in columns between unit words ("5-14 days   5.75 pct   5.65
// pct"), read with RowLabels, are rows labelled by their first figure:
// two days' sheets hold other figures in the rows of one label
// (regression: every row filled "days _ pct" and "pct _ pct", places left
// out, and two days' sheets of Sallie Mae shared no place). A row of a
// quote's bid and offer run together ("6-3/16 WED/THURS   6-5/16 6-3/16")
// is no labelled row; a sentence that opens a line with a figure sets
// nothing in columns; without RowLabels, as older sketch formats read,
// the sheets share no place.
func TestRowLabels(t *testing.T) {
	sheet := func(a, b, c, d string) string {
		return "rates as follows:\n    MATURITY   NEW RATE    OLD RATE  MATURITY\n" +
			"    5-14 days  " + a + " pct    " + b + " pct     5-14 days\n" +
			"   15-78 days  " + c + " pct    " + d + " pct    15-81 days\n"
	}
	quote := "CLSG - APRIL 7 TUES/WED    6-5/16\n6-3/16 WED/THURS   6-5/16 6-3/16 7 DAYS FIX  6-5/16 6-3/16 ONE\nMTH"
	quoteAgain := "CLSG - APRIL 7 TUES/WED    6-5/16 6-3/16\nWED/THURS   6-5/16 6-3/16 7 DAYS FIX  6-5/16 6-3/16\nONE MTH"
	for _, tc := range []struct {
		name          string
		labels        bool
		a, b          string
		shared, other int
	}{
		{"two days' sheets", true, sheet("5.65", "5.60", "5.00", "5.00"), sheet("5.75", "5.70", "5.00", "5.00"), 6, 2},
		{"a sheet copied", true, sheet("5.65", "5.60", "5.00", "5.00"), sheet("5.65", "5.60", "5.00", "5.00"), 6, 0},
		{"older formats", false, sheet("5.65", "5.60", "5.00", "5.00"), sheet("5.75", "5.70", "5.00", "5.00"), 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Scanner{RowLabels: tc.labels, Decimals: true}
			_, a := s.OfSlots(tc.a)
			_, b := s.OfSlots(tc.b)
			if shared, other := InPlace(a, b); shared != tc.shared || other != tc.other {
				t.Errorf("InPlace = %d, %d; want %d, %d", shared, other, tc.shared, tc.other)
			}
		})
	}
	// A run of figures on a later line takes back that line's labels
	// alone, not the rows before it.
	with := Scanner{RowLabels: true, Decimals: true}
	_, rows := with.OfSlots(sheet("5.65", "5.60", "5.00", "5.00"))
	_, more := with.OfSlots(sheet("5.65", "5.60", "5.00", "5.00") + "  5 pct     213     208\n")
	for _, x := range rows {
		if !slices.Contains(more, x) {
			t.Errorf("slot %x of the sheet lost after a row of a run of figures: %x", x, more)
		}
	}
	// A run of figures before the first set in a column keeps the row
	// labelled; one after it makes the line no labelled row.
	for _, tc := range []struct {
		text     string
		labelled bool
	}{
		{"    5-14 days 5.75 5.70 pct   5.65 pct\n", true},
		{"    5-14 days  5.75 5.70 pct   5.65 pct\n", false},
	} {
		with, without := Scanner{RowLabels: true, Decimals: true}, Scanner{Decimals: true}
		_, a := with.Scan(tc.text)
		a = slices.Clone(a)
		_, b := without.Scan(tc.text)
		if labelled := !slices.Equal(a, b); labelled != tc.labelled {
			t.Errorf("%q: labelled %v, want %v (places %x with RowLabels, %x without)", tc.text, labelled, tc.labelled, a, b)
		}
	}
	// No labelled row: the places are those read without RowLabels.
	// A date or a day opening a line is no row's label: two days' sheets
	// each label every row with their day (regression: two days' sheets
	// were duplicates, their rows' places none the other held).
	dated := func(day string) string {
		return "rates:\n" + day + "   CALL        10.25 pct   10.20 pct\n" + day + "   ONE WEEK    10.31 pct   10.25 pct\n"
	}
	for _, text := range []string{quote, quoteAgain, "raised\n50 cts to 17.50 dlrs a barrel and 10 cts to 18 dlrs",
		dated("07/04/87"), dated("7.4.1987"), dated("7 April"), dated("7 APR")} {
		with, without := Scanner{RowLabels: true, Decimals: true}, Scanner{Decimals: true}
		_, a := with.OfSlots(text)
		_, b := without.OfSlots(text)
		if !slices.Equal(a, b) {
			t.Errorf("%q: places %x with RowLabels, %x without", text, a, b)
		}
	}
}
