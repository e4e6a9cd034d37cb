package figures

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/analysis"
)

// TestPlacesInEveryScript: a Scanner reading every script (Unicode) puts
// the figures of a text in Russian, Chinese, Japanese, Arabic (in ASCII,
// Arabic-Indic or Persian digits) or Latin letters beyond ASCII in the
// places their words make, so that a template filled in twice has other
// figures in shared places and a copy the same; the zero Scanner, reading
// ASCII alone, puts every figure of such a line in one place, filled
// twice and left out, and reads no digit of another script.
func TestPlacesInEveryScript(t *testing.T) {
	for _, tc := range []struct {
		name          string
		a, b          string
		shared, other int // what InPlace returns of the texts read in every script
		ascii         int // how many places the zero Scanner reads of a
	}{
		{"Russian days of a closure", "Мост будет закрыт с 3 по 10 мая на ремонт.", "Мост будет закрыт с 10 по 17 мая на ремонт.", 2, 2, 0},
		{"Russian copy", "Мост будет закрыт с 3 по 10 мая на ремонт.", "Мост будет закрыт с 3 по 10 МАЯ на ремонт.", 2, 0, 0},
		{"Chinese days of a closure", "大桥将于5月3日至5月10日封闭维修。", "大桥将于5月10日至5月17日封闭维修。", 4, 2, 0},
		{"Chinese copy", "大桥将于5月3日至5月10日封闭维修。", "大桥将于5月3日至5月10日封闭维修。", 4, 0, 0},
		{"Japanese prices", "価格は120円から150円に上がる。", "価格は130円から170円に上がる。", 2, 2, 0},
		{"Arabic in ASCII digits", "سترتفع إلى 120 فلسا بعد أن كانت 100 فلسا، وسيصبح 18 دينارا.", "سترتفع إلى 150 فلسا بعد أن كانت 120 فلسا، وسيصبح 23 دينارا.", 3, 3, 0},
		{"Arabic-Indic digits", "سترتفع إلى ١٢٠ فلسا بعد أن كانت ١٠٠ فلسا، وسيصبح ١٨ دينارا.", "سترتفع إلى ١٥٠ فلسا بعد أن كانت ١٢٠ فلسا، وسيصبح ٢٣ دينارا.", 3, 3, 0},
		{"Persian digits against ASCII ones", "سترتفع إلى ۱۲۰ فلسا بعد أن كانت ۱۰۰ فلسا، وسيصبح ۱۸ دينارا.", "سترتفع إلى 120 فلسا بعد أن كانت 100 فلسا، وسيصبح 18 دينارا.", 3, 0, 0},
		{"an Arabic decimal separator", "سعر ١٢٫٥ دينار ووزن ٣٫٢٥ كيلو", "سعر 12.5 دينار ووزن 3.25 كيلو", 2, 0, 0},
		{"Latin letters beyond ASCII", "Preis für 3 Jahre, Gebühr für 12 Monate", "Preis für 4 Jahre, Gebühr für 15 Monate", 2, 2, 2},
		{"English", "closed from May 3 to May 10 for repairs", "closed from May 10 to May 17 for repairs", 2, 2, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := Scanner{Unicode: true}
			_, a := u.OfSlots(tc.a)
			_, b := u.OfSlots(tc.b)
			if shared, other := InPlace(a, b); shared != tc.shared || other != tc.other {
				t.Errorf("InPlace = %d shared, %d other, want %d, %d", shared, other, tc.shared, tc.other)
			}
			if got := len(Slots(tc.a)); got != tc.ascii {
				t.Errorf("the zero Scanner reads %d places of a, want %d", got, tc.ascii)
			}
		})
	}
}

// TestFiguresInOtherDigits: a Scanner reading every script reads a figure
// in the digits of another script as the figure of its ASCII digits, for
// Of as for Slots; the zero Scanner reads none.
func TestFiguresInOtherDigits(t *testing.T) {
	ascii := Of("net 1,200 vs 980 and 12.5 pct")
	for _, text := range []string{
		"net ١٬٢٠٠ vs ٩٨٠ and ١٢٫٥ pct",
		"net ۱,۲۰۰ vs ۹۸۰ and ۱۲.۵ pct",
		"net १,२०० vs ९८० and १२.५ pct",
		"net １,２００ vs ９８０ and １２.５ pct",
	} {
		var s Scanner
		s.Unicode = true
		if got, _ := s.Scan(text); !slicesEqual(got, ascii) {
			t.Errorf("Scan(%q) figures %v, want %v", text, got, ascii)
		}
		if got := Of(text); got != nil {
			t.Errorf("Of(%q) = %v, want none: the zero Scanner reads ASCII digits alone", text, got)
		}
	}
}

func slicesEqual(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestASCIIDigits(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"no digits beyond ASCII: 120 and 3.5", "no digits beyond ASCII: 120 and 3.5"},
		{"إلى ١٢٠ فلسا", "إلى 120 فلسا"},
		{"۱۲۰ and ٣", "120 and 3"},
		{"١٢٫٥ and ١٬٠٠٠", "12.5 and 1,000"},
		{"१२० ১২০ ๑๒๐ １２０", "120 120 120 120"},
		{"𝟏𝟐𝟎", "120"}, // mathematical digits, beyond the 16-bit table
		{"Мост с 3 по 10 мая", "Мост с 3 по 10 мая"},
		{"bad \xd9 byte ٣ \xff", "bad \xd9 byte 3 \xff"},
		{"", ""},
	} {
		got, _ := ASCIIDigits(tc.text, nil)
		if got != tc.want {
			t.Errorf("ASCIIDigits(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
	// Every digit beyond ASCII, wherever its first byte lies.
	for r := rune(utf8.RuneSelf); r <= unicode.MaxRune; r++ {
		if d, ok := asciiDigit(r); ok {
			if got, _ := ASCIIDigits("x"+string(r), nil); got != "x"+string(d) {
				t.Fatalf("ASCIIDigits(%q) = %q, want %q", "x"+string(r), got, "x"+string(d))
			}
		}
	}
}

// TestAsciiDigitEveryDigit: asciiDigit reads every decimal digit Unicode
// knows beyond ASCII, and the Arabic separators, and no other rune; its
// values hold as long as Unicode's table of digits (Nd) is made of whole
// runs of ten from a zero, which the test checks too (TestASCIIDigits
// pins the zeros of some).
func TestAsciiDigitEveryDigit(t *testing.T) {
	n := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		d, ok := asciiDigit(r)
		if want := unicode.IsDigit(r) && r >= utf8.RuneSelf || r == 0x066B || r == 0x066C; ok != want {
			t.Fatalf("asciiDigit(%U) = %q, %v, want %v", r, d, ok, want)
		}
		if ok {
			n++
		}
	}
	for _, g := range unicode.Nd.R16 {
		if g.Stride != 1 || (g.Hi-g.Lo+1)%10 != 0 {
			t.Errorf("Nd's range %U-%U (stride %d) is no whole run of ten", g.Lo, g.Hi, g.Stride)
		}
	}
	for _, g := range unicode.Nd.R32 {
		if g.Stride != 1 || (g.Hi-g.Lo+1)%10 != 0 {
			t.Errorf("Nd's range %U-%U (stride %d) is no whole run of ten", g.Lo, g.Hi, g.Stride)
		}
	}
	if n < 600 {
		t.Errorf("%d runes read, want all of Nd's beyond ASCII", n)
	}
}

// TestWordRuneEveryRune: the fast paths of isWordRune, unspaced, isMark
// and lower say what Unicode's tables say of every rune beyond ASCII.
func TestWordRuneEveryRune(t *testing.T) {
	for r := rune(utf8.RuneSelf); r <= unicode.MaxRune; r++ {
		if got, want := isWordRune(r), unicode.IsLetter(r) || unicode.IsMark(r); got != want {
			t.Fatalf("isWordRune(%U) = %v, want %v", r, got, want)
		}
		if got, want := unspaced(r), analysis.Unspaced(r); got != want {
			t.Fatalf("unspaced(%U) = %v, want %v", r, got, want)
		}
		if got, want := isMark(r), unicode.IsMark(r); got != want {
			t.Fatalf("isMark(%U) = %v, want %v", r, got, want)
		}
		if got, want := lower(r), unicode.ToLower(r); got != want {
			t.Fatalf("lower(%U) = %U, want %U", r, got, want)
		}
	}
}

// TestDecodeRune: decodeRune reads every rune, and every byte that is
// none, as utf8.DecodeRuneInString does.
func TestDecodeRune(t *testing.T) {
	check := func(text string) {
		r, n := decodeRune(text, 0)
		if wr, wn := utf8.DecodeRuneInString(text); r != wr || n != wn {
			t.Fatalf("decodeRune(%q) = %U, %d, want %U, %d", text, r, n, wr, wn)
		}
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		check(string(r) + "x")
	}
	for a := range 256 {
		check(string([]byte{byte(a)}))
		for b := range 256 {
			check(string([]byte{byte(a), byte(b)}))
		}
	}
}

// TestUnspacedWords: the word before a figure in a script written without
// spaces is the last two letters before it, with their marks, and the word
// after it the first two after it.
func TestUnspacedWords(t *testing.T) {
	for _, tc := range []struct{ w, first, last string }{
		{"日封闭维修", "日封", "维修"},
		{"月", "月", "月"},
		{"ราคาข้าว", "รา", "าว"},
		{"ข้าวราคาข้", "ข้า", "าข้"},
	} {
		if got := firstLetters(tc.w, unspacedLetters); got != tc.first {
			t.Errorf("firstLetters(%q) = %q, want %q", tc.w, got, tc.first)
		}
		if got := lastLetters(tc.w, unspacedLetters); got != tc.last {
			t.Errorf("lastLetters(%q) = %q, want %q", tc.w, got, tc.last)
		}
	}
}

// FuzzUnicodeSameOnASCII: on a text of ASCII alone, a Scanner reading
// every script reads what the zero Scanner reads, figures and places: the
// sketches of Latin text are those of the formats before it. Any text,
// UTF-8 or not, reads without a panic.
func FuzzUnicodeSameOnASCII(f *testing.F) {
	for _, s := range []string{"Qtly div 17-1/2 cts vs 15 cts prior, payable June 30", "JUNIN......29.......18......5\nAPR 123.5 122.9",
		"div five cts, 1st qtr", "from May 3 to May 10 for repairs", "с 3 по 10 мая, 5月3日至5月10日, ١٢٫٥ ข้า\xd9\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var any Scanner
		any.Unicode = true
		any.Scan(text)
		text = strings.Map(func(r rune) rune {
			if r >= utf8.RuneSelf {
				return -1
			}
			return r
		}, text)
		var zero, u Scanner
		u.Unicode = true
		of, slots := zero.Scan(text)
		uof, uslots := u.Scan(text)
		if !slicesEqual(of, uof) || len(slots) != len(uslots) {
			t.Fatalf("Scan(%q): %v %x, with Unicode %v %x", text, of, slots, uof, uslots)
		}
		for i := range slots {
			if slots[i] != uslots[i] {
				t.Fatalf("Scan(%q): places %x, with Unicode %x", text, slots, uslots)
			}
		}
	})
}

// BenchmarkScanScripts reads the figures and places of a notice in
// English, Russian, Chinese and Arabic (in Arabic-Indic digits), each
// line with two or three figures, by the zero Scanner (ASCII alone, as
// the sketch formats before Unicode), by one reading every script, and by
// one reading also the number words of five more languages (Languages):
// what Unicode costs each script, and what Languages costs on top of it,
// MB/s of text.
func BenchmarkScanScripts(b *testing.B) {
	texts := []struct{ name, line string }{
		{"english", "The bridge on Main Street will be closed to traffic from May 3 to May 10 for repairs, the council said. "},
		{"russian", "Мост на Главной улице будет закрыт для движения с 3 по 10 мая на ремонт, сообщили в мэрии. "},
		{"chinese", "市政府周一表示，主街上的大桥将于5月3日至5月10日封闭维修，禁止车辆通行。"},
		{"arabic", "أعلنت البلدية أن أسعار الخبز سترتفع إلى ١٢٠ فلسا للرغيف بعد أن كانت ١٠٠ فلسا، وسيصبح الطحين ١٨ دينارا. "},
	}
	for _, tc := range texts {
		text := strings.Repeat(tc.line+"\n", 40)
		for _, sc := range []struct {
			name      string
			unicode   bool
			languages bool
		}{{"ascii", false, false}, {"unicode", true, false}, {"languages", true, true}} {
			b.Run(tc.name+"/"+sc.name, func(b *testing.B) {
				s := Scanner{Unicode: sc.unicode, Languages: sc.languages}
				b.SetBytes(int64(len(text)))
				b.ReportAllocs()
				for b.Loop() {
					s.Scan(text)
				}
			})
		}
	}
}
