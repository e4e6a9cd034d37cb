package diff

import (
	"bytes"
	"slices"
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

// TestVisibleLine: a value written on one line shows its tabs and line
// ends escaped, and the rest as Visible does.
func TestVisibleLine(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "wire-7", "wire-7"},
		{"line feed", "wire-7  15 words\n+++ courier-1", `wire-7  15 words\n+++ courier-1`},
		{"CRLF and a lone CR", "a\r\nb\rc", `a\r\nb\rc`},
		{"tab", "a\tb", `a\tb`},
		{"escape sequence", "a\x1b[2J\n", `a\x1b[2J\n`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := VisibleLine(tc.in); got != tc.want {
				t.Errorf("VisibleLine(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestTextHeaderShowsLineEndsOfIds: an id's line feeds, carriage returns
// and tabs are written escaped in the header, so that an id cannot forge
// the header lines and text that follow it. Regression: they were written
// raw, and an id "wire-7  15 words, 100.0% shared\n+++ courier-1 …" showed
// as the header of a diff it was not.
func TestTextHeaderShowsLineEndsOfIds(t *testing.T) {
	d := Compare("Shares in the mining company fell sharply.", "The city council voted on Tuesday.", Options{})
	d.A.ID = "wire-7  15 words, 100.0% shared\n+++ courier-1  15 words, 100.0% shared\r\n\nThe city council voted.\n\n"
	d.B.ID = "courier-1\t"
	var out bytes.Buffer
	if err := WriteText(&out, d, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	want := []string{
		`--- wire-7  15 words, 100.0% shared\n+++ courier-1  15 words, 100.0% shared\r\n\nThe city council voted.\n\n  7 words, 14.3% shared`,
		`+++ courier-1\t  6 words, 16.7% shared`,
		"",
	}
	if len(lines) < 3 || !slices.Equal(lines[:3], want) {
		t.Errorf("header lines:\n%s\nwant:\n%s", strings.Join(lines[:min(3, len(lines))], "\n"), strings.Join(want, "\n"))
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
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := textBody(t, tc.a, tc.b, false); got != tc.want {
				t.Errorf("%q against %q:\n got %s\nwant %s", tc.a, tc.b, got, tc.want)
			}
		})
	}
}
