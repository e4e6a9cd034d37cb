package mojibake

import (
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/encoding/charmap"
)

// garble returns s as a system that decodes UTF-8 as Windows-1252 shows it,
// the five bytes Windows-1252 leaves undefined read as Latin-1 (as
// browsers do).
func garble(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if r := charmap.Windows1252.DecodeByte(c); r != utf8.RuneError {
			b.WriteRune(r)
		} else {
			b.WriteRune(rune(c))
		}
	}
	return b.String()
}

func TestRepair(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"apostrophe", "It isnâ€™t over.", "It isn’t over."},
		{"dash and quotes", "â€œYesâ€\u009d â€” he said", "“Yes” — he said"},
		{"latin-1 controls", "an \u00e2\u0080\u009citerator algebra\u00e2\u0080\u009d", "an “iterator algebra”"},
		{"two letters", "cafÃ© crÃ¨me", "café crème"},
		{"cyrillic", "Ð¿Ñ€Ð¸Ð²ÐµÑ‚", "привет"},
		{"greek", "ÎºÎ±Î»Î·Î¼Î\u00adÏ\u0081Î±", "καλημέρα"},
		{"euro sign", "â‚¬25 to â‚¬49", "€25 to €49"},
		{"soft hyphen byte", "polÃ\u00adtica econÃ³mica", "política económica"},
		{"no-break space", "Price:Â 10 â€” now", "Price: 10 — now"},
		{"no-break spaces at lines' ends", "Cats cost $32 a month.Â\nDogs cost $62 with EmbraceÂ", "Cats cost $32 a month.\nDogs cost $62 with Embrace"},
		{"one no-break space alone", "Price:Â 10", "Price:Â 10"},
		{"circumflex a as a letter", "CHÂU Á: NHÂN DÂN VÀ TÂ Â", "CHÂU Á: NHÂN DÂN VÀ TÂ Â"},
		{"one short sequence", "the cafÃ© on the corner", "the cafÃ© on the corner"},
		{"italian ellipsis", "“Non lo so, è…” disse.", "“Non lo so, è…” disse."},
		{"emoji alone", "Great news ðŸ™‚", "Great news 🙂"},
		{"cjk", "æ—¥æœ¬", "日本"},
		{"german quotes", "„Fuß“ und „Spaß“ und „Gruß“", "„Fuß“ und „Spaß“ und „Gruß“"},
		{"french guillemets", "«ÉTÉ» et «CAFÉ» et «DÉJÀ»", "«ÉTÉ» et «CAFÉ» et «DÉJÀ»"},
		{"accented text", "São Paulo, Zürich, Kraków, façade, naïve", "São Paulo, Zürich, Kraków, façade, naïve"},
		{"ascii", "plain text", "plain text"},
		{"empty", "", ""},
		{"invalid utf-8 kept", "bad \xff byte â€™", "bad \xff byte ’"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Repair(tc.in)
			if got != tc.want {
				t.Errorf("Repair(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if again := Repair(got); again != got {
				t.Errorf("not idempotent: %q then %q", got, again)
			}
		})
	}
}

func TestRepairGarbled(t *testing.T) {
	// Text garbled once and twice by a real Windows-1252 decoder comes back.
	for _, s := range []string{
		"The mayor’s “plan” costs €2 million — or so she said…",
		"Zürich, São Paulo and Kraków: façades, naïve café owners",
		"Москва — столица России",
		"日本語のテキスト",
		"Emoji too 🙂 and ™ ©",
	} {
		once := garble(s)
		if got := Repair(once); got != s {
			t.Errorf("once: Repair(%q) = %q, want %q", once, got, s)
		}
		twice := garble(once)
		if got := Repair(twice); got != s {
			t.Errorf("twice: Repair(%q) = %q, want %q", twice, got, s)
		}
	}
}

// TestRepairAll pins that one sequence, too few for Repair, is repaired
// by RepairAll (a garbled page's title), and that Garbled says which texts
// Repair rewrites.
func TestRepairAll(t *testing.T) {
	for _, tc := range []struct {
		in, repair, all string
		garbled         bool
	}{
		{"La nouvelle ligne de mÃ©tro", "La nouvelle ligne de mÃ©tro", "La nouvelle ligne de métro", false},
		{"Zoë Roe", "Zoë Roe", "Zoë Roe", false},
		{"cafÃ© crÃ¨me", "café crème", "café crème", true},
		{"isnâ€™t", "isn’t", "isn’t", true},
		{"„Fuß“ and «ÉTÉ»", "„Fuß“ and «ÉTÉ»", "„Fuß“ and «ÉTÉ»", false},
	} {
		if got := Repair(tc.in); got != tc.repair {
			t.Errorf("Repair(%q) = %q, want %q", tc.in, got, tc.repair)
		}
		if got := RepairAll(tc.in); got != tc.all {
			t.Errorf("RepairAll(%q) = %q, want %q", tc.in, got, tc.all)
		}
		if got := Garbled(tc.in); got != tc.garbled {
			t.Errorf("Garbled(%q) = %v, want %v", tc.in, got, tc.garbled)
		}
	}
}

func TestRepairNoCopy(t *testing.T) {
	for _, s := range []string{"plain text, nearly every page's", "café, Zürich and „Fuß“"} {
		if got := Repair(s); unsafe.StringData(got) != unsafe.StringData(s) {
			t.Errorf("Repair(%q) copied the text", s)
		}
	}
}

func FuzzRepair(f *testing.F) {
	for _, s := range []string{"isnâ€™t", "cafÃ© crÃ¨me", "„Fuß“", "Ð¿Ñ€Ð¸", "Â ", "\xc3\x28", "ÃÃÃ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Repair(s)
		if len(got) > len(s) {
			t.Errorf("Repair(%q) = %q grew", s, got)
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Errorf("Repair(%q) = %q is not UTF-8", s, got)
		}
		if !strings.Contains(s, "\u00c3") && !strings.Contains(s, "\u00c2") && got != s && !strings.ContainsAny(s, "àáâãäåæçèéêëìíîïðñòóôÐÑÎÏ×ØÙÚÛÜÝÞßÄÅÆÇÈÉÊËÌÍÒÓÔÕÖ") {
			t.Errorf("Repair(%q) = %q changed text without a lead character", s, got)
		}
	})
}
