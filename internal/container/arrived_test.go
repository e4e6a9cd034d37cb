package container

import "testing"

// TestWholeLine: a stream's start is judged once it holds a line of text
// (in UTF-16, a line-feed unit, not a byte 0x0A inside another character),
// or once it is no text (a gzip member without a 0x0A byte, a NUL byte).
// Regression (reviewer's findings): "id,Њ" in UTF-16LE ends in a byte 0x0A,
// taken for a line end; a gzip stream without one was held until 512 bytes
// came.
func TestWholeLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want bool
	}{
		{"a line", "id,text\n", true},
		{"half a line", "id,te", false},
		{"a blank line", "\n\n", false},
		{"a mark alone", "\xef\xbb\xbf", false},
		{"utf-16le line", "\xff\xfei\x00d\x00\n\x00", true},
		{"utf-16le 0x0A in a character", "\xff\xfei\x00d\x00,\x00\x0a\x04", false},
		{"utf-16be line", "\xfe\xff\x00i\x00d\x00\n", true},
		{"utf-16be 0x0A in a character", "\xfe\xff\x00i\x0a\x15", false},
		{"gzip without a line feed", "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xab\xae\x05\x00", true},
		{"a NUL byte", "PK\x00", true},
	} {
		if got := wholeLine([]byte(tc.in)); got != tc.want {
			t.Errorf("%s: wholeLine(%q) = %v, want %v", tc.name, tc.in, got, tc.want)
		}
	}
}
