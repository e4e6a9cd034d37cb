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
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Visible(tc.in); got != tc.want {
				t.Errorf("Visible(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
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
		// ESC ] is in A alone, between the words both hold: marked.
		only := `Hello world. [-\x1b]-]`
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
