package diff

import (
	"bytes"
	"strings"
	"testing"
)

func TestVisible(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain text unchanged", "Zażółć gęślą jaźń\n\tمرحبا", "Zażółć gęślą jaźń\n\tمرحبا"},
		{"escape sequences", "a\x1b[2J\x1b]0;PWNED\x07b", `a\x1b[2J\x1b]0;PWNED\ab`},
		{"CRLF kept, a lone CR shown", "one\r\ntwo\rthree", "one\r\ntwo\\rthree"},
		{"DEL and NUL", "a\x7fb\x00", `a\x7fb\x00`},
		{"C1 control", "a\u009b31mb", `a\u009b31mb`},
		{"bidi override and isolate", "abc\u202edcba\u2066x\u2069", `abc\u202edcba\u2066x\u2069`},
		{"not UTF-8", "a\xffb", `a\xffb`},
		{"CR at the end", "a\r", `a\r`},
		// Format characters show as nothing: written escaped, unless a
		// character shown needs them.
		{"zero width space", "wi\u200bdth", `wi\u200bdth`},
		{"soft hyphen, word joiner, BOM", "a\u00adb\u2060c\ufeffd", `a\u00adb\u2060c\ufeffd`},
		{"directional marks", "a\u200eb\u200fc\u061cd", `a\u200eb\u200fc\u061cd`},
		{"non-joiner", "wi\u200cdth", `wi\u200cdth`},
		{"joiner joining nothing", "\u200d👍\u200dx", `\u200d👍\u200dx`},
		{"emoji ZWJ sequences kept", "👨\u200d👩\u200d👧 🏳\ufe0f\u200d🌈", "👨\u200d👩\u200d👧 🏳\ufe0f\u200d🌈"},
		{"Indic conjunct kept", "क्\u200dष", "क्\u200dष"},
		{"emoji tag sequence kept", "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
			"🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"},
		{"tag without a base", "\U000e0067x", `\U000e0067x`},
		{"Arabic number sign kept", "\u0600١٢", "\u0600١٢"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Visible(tc.in); got != tc.want {
				t.Errorf("Visible(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestVisibleLine: a value shown inside a line has its tabs and line ends
// escaped too, a CRLF's carriage return among them.
func TestVisibleLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain été.txt":               "plain été.txt",
		"nl\nwarning: all good.txt":   `nl\nwarning: all good.txt`,
		"crlf\r\nand\ttab":            `crlf\r\nand\ttab`,
		"\x1b]0;pwned\x07x\u202e.txt": `\x1b]0;pwned\ax\u202e.txt`,
	} {
		if got := VisibleLine(in); got != want {
			t.Errorf("VisibleLine(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTextHeaderShowsLineEnds: regression, an id (a file's name) holding a
// line end wrote the text rendering's header over two lines, the second
// one of the id's choosing.
func TestTextHeaderShowsLineEnds(t *testing.T) {
	d := Compare("Hello world.\n", "Hello there.\n", Options{})
	d.A.ID, d.B.ID = "a.txt\nwarning: forged", "b.txt\r+++ c.txt"
	var out bytes.Buffer
	if err := WriteText(&out, d, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{`--- a.txt\nwarning: forged `, `+++ b.txt\r+++ c.txt `} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "\nwarning: forged") {
		t.Errorf("the id forged a line:\n%s", got)
	}
}

// TestTextShowsControlCharacters: the text rendering writes the control
// characters of the texts and ids visibly, so that a document cannot clear
// the screen, retitle the window or colour what follows. Regression: text
// and ids were written raw (ESC [2J reached the terminal).
func TestTextShowsControlCharacters(t *testing.T) {
	a := "Hello world. \x1b]0;PWNED\x07\x1b[2J\x1b[31mEvil\x1b[0m text here.\n"
	b := "Hello world. Good text here.\n"
	for _, color := range []bool{false, true} {
		d := Compare(a, b, Options{})
		d.A.ID, d.B.ID = "e1\x1b]0;owned\x07", "e2\u202e"
		d.A.Title = "T\x1b[2J"
		var out bytes.Buffer
		if err := WriteText(&out, d, TextOptions{Color: color}); err != nil {
			t.Fatal(err)
		}
		got := out.String()
		for _, c := range []string{ansiRed, ansiGreen, ansiReset} {
			got = strings.ReplaceAll(got, c, "") // the rendering's own colours
		}
		if i := strings.IndexFunc(got, func(r rune) bool {
			return r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f || r == '\u202e'
		}); i >= 0 {
			t.Errorf("color %v: a control character reaches the terminal at byte %d: %q", color, i, got)
		}
		// ESC ] is in A alone, between the words both hold: marked, with
		// the replaced words after it.
		only := `Hello world. [-\x1b]0;PWNED`
		if color {
			only = `Hello world. \x1b]` // marked red
		}
		for _, want := range []string{`--- e1\x1b]0;owned\a`, `+++ e2\u202e`, `"T\x1b[2J"`, only, `PWNED\a\x1b[2J\x1b[31mEvil\x1b[0m`} {
			if !strings.Contains(got, want) {
				t.Errorf("color %v: output lacks %s:\n%s", color, want, got)
			}
		}
	}
}

// TestTextShowsFormatCharacters: the text rendering writes the format
// characters of the texts escaped, so that a replacement cannot look like
// no change, and keeps those an emoji needs. Regression: they were
// written raw ("the plan is [-wi\u200bdth-] {+width+} ok" showed two
// words alike).
func TestTextShowsFormatCharacters(t *testing.T) {
	tests := []struct{ name, a, b, want string }{
		{"zero width space", "the plan is wi\u200bdth ok", "the plan is width ok", `the plan is [-wi\u200bdth-] {+width+} ok`},
		{"byte order mark in a gap", "one \ufeff two", "one two", `one [-\ufeff-] two`},
		{"emoji kept", "fam 👨\u200d👩\u200d👧 here", "fam 👨\u200d👩\u200d👧\u200d👦 here",
			"fam [-👨\u200d👩\u200d👧-]{+👨\u200d👩\u200d👧\u200d👦+} here"},
		// What writing uses and the comparison ignores is kept: Persian's
		// non-joiner, a hyphenated word's soft hyphen, a right-to-left mark.
		{"Persian's non-joiner kept", "می\u200cخواهم بروم به خانه", "می\u200cخواهم بروم به مدرسه", "می\u200cخواهم بروم به [-خانه-] {+مدرسه+}"},
		{"a soft hyphen kept", "die Bundes\u00adregierung sagt ja", "die Bundes\u00adregierung sagt nein", "die Bundes\u00adregierung sagt [-ja-] {+nein+}"},
		{"a mark of nothing else shown", "and \u200eLRM mark", "and LRM mark!", `and [-\u200e-]LRM mark{+!+}`},
		{"a right-to-left mark kept", "قال \u200fالوزير اليوم", "قال \u200fالوزير أمس", "قال \u200fالوزير [-اليوم-] {+أمس+}"},
		// Inside a mark, they are shown: text only one side holds must
		// not hide what it holds. Regression: a deleted word's soft hyphen,
		// an inserted word's direction or non-joiner marks were raw.
		{"a soft hyphen of a deleted word shown", "near the co\u00adoperative river", "near the river",
			`near the [-co\u00adoperative-] river`},
		{"marks of an inserted word shown", "قال الوزير", "قال \u200fالوزير \u200eمی\u200cخواهم",
			`قال {+\u200f+}الوزير {+\u200eمی\u200cخواهم+}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := textBody(t, tc.a, tc.b, false); got != tc.want {
				t.Errorf("%q against %q:\n got %s\nwant %s", tc.a, tc.b, got, tc.want)
			}
		})
	}
}
