package corpus

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/neardup/neardup/internal/extract"
)

// Text and CSV files need not be UTF-8: a file whose start is not valid
// UTF-8 is read in the charset its start is detected to be (github.com/
// gogs/chardet; Windows-1252 when detection is not confident), or in
// Options.Charset when it is set, and converted to UTF-8; a charset given
// as UTF-8 turns detection off. A start that is UTF-8 but for a few stray
// bytes (mostlyUTF8) is UTF-8, each stray byte read as U+FFFD: read in
// Windows-1252, every other non-ASCII character of it would be mojibake.
// A UTF-16 file
// with a byte-order mark is read as UTF-16, and so is JSON or JSON Lines
// (jsonUTF8). JSON otherwise stays UTF-8, as its specification says: a
// record that is not is a skipped record, located.

// charsetHead is how much of a stream charset detection looks at.
const charsetHead = 64 << 10

// CheckCharset returns an error when no charset is named name, as
// Options.Charset takes it; "" is no name, and fine.
func CheckCharset(name string) error {
	if name == "" {
		return nil
	}
	if _, err := lookupCharset(name); err != nil {
		return errors.New(unknownCharset(name))
	}
	return nil
}

// unknownCharset says that no charset is named name.
func unknownCharset(name string) string {
	return fmt.Sprintf("unknown charset %q (want a name such as utf-8, latin1, windows-1251, koi8-r, shift_jis)", name)
}

// lookupCharset returns the encoding named name (a WHATWG or IANA name:
// "latin1", "windows-1251", "koi8-r", "shift_jis" ...).
func lookupCharset(name string) (encoding.Encoding, error) {
	if e, err := htmlindex.Get(name); err == nil {
		return e, nil
	}
	if e, err := ianaindex.IANA.Encoding(name); err == nil && e != nil {
		return e, nil
	}
	return nil, errors.New("corpus: " + unknownCharset(name))
}

// utf8Reader returns a reader of a text or CSV stream in UTF-8, and the
// charset it was read in ("" for UTF-8).
func (r *Reader) utf8Reader(br *bufio.Reader) (io.Reader, string) {
	switch {
	case r.enc == unicode.UTF8:
		return br, "" // given as UTF-8: bytes that are not are skipped records
	case r.enc != nil:
		return transform.NewReader(br, r.enc.NewDecoder()), r.opts.Charset
	}
	head, _ := br.Peek(min(charsetHead, br.Size()))
	if e, name := byteOrderMark(head); e != nil {
		return transform.NewReader(br, e.NewDecoder()), name
	}
	if validUTF8Prefix(head) {
		return br, ""
	}
	if mostlyUTF8(head) {
		return transform.NewReader(br, unicode.UTF8.NewDecoder()), "" // stray bytes become U+FFFD
	}
	e, name := detected(head)
	return transform.NewReader(br, e.NewDecoder()), name
}

// byteOrderMark returns the UTF-16 encoding a stream's byte-order mark
// names, and its name; nil for none.
func byteOrderMark(head []byte) (encoding.Encoding, string) {
	switch {
	case bytes.HasPrefix(head, []byte{0xff, 0xfe}):
		return unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), "utf-16le"
	case bytes.HasPrefix(head, []byte{0xfe, 0xff}):
		return unicode.UTF16(unicode.BigEndian, unicode.UseBOM), "utf-16be"
	}
	return nil, ""
}

// detected returns the charset a head that is not UTF-8 is detected to
// be, and its name: Windows-1252 when detection names none this package
// decodes, or names UTF-8 (the head's start may be, its rest is not).
func detected(head []byte) (encoding.Encoding, string) {
	name := extract.DetectCharset(head, false)
	if e, err := lookupCharset(name); err == nil && e != unicode.UTF8 {
		return e, name
	}
	return encodingWindows1252(), "windows-1252"
}

// DecodeText returns a whole text file's bytes in UTF-8, read as the
// reader reads a text file: in charset when it is not "", else by its
// byte-order mark, else as UTF-8 when it is, or is but for a few stray
// bytes at its start (each then U+FFFD), else in the charset detected
// (Windows-1252 when detection names none other). A byte-order mark is
// left out. It fails on an unknown charset, on bytes that are not UTF-8
// when charset names UTF-8, and on binary data: a file holding NUL bytes
// without a byte-order mark, or one whose text is heavy in characters no
// text holds (notText), as the reader skips them.
func DecodeText(data []byte, charset string) (string, error) {
	text, err := decodeWhole(data, charset)
	if err == nil && notText(text) {
		return "", errors.New("binary, not text: " + notTextWhy)
	}
	return text, err
}

// notTextWhy says what tells a text binary by notText.
const notTextWhy = "more than one character in 16 is one that text hardly holds: a control character, U+FFFD, a private-use character"

// decodeWhole is DecodeText but for its test of the text decoded.
func decodeWhole(data []byte, charset string) (string, error) {
	var enc encoding.Encoding
	switch {
	case charset != "":
		e, err := lookupCharset(charset)
		if err != nil {
			return "", err
		}
		if e == unicode.UTF8 && !utf8.Valid(data) {
			return "", errors.New("not UTF-8 text")
		}
		enc = e
	default:
		if enc, _ = byteOrderMark(data); enc != nil {
			break
		}
		switch {
		case bytes.IndexByte(data, 0) >= 0:
			return "", errors.New("binary, not text") // as the reader skips such a file
		case utf8.Valid(data) || len(data) > charsetHead && validUTF8Prefix(data[:charsetHead]):
			// UTF-8 by its start, as the reader decides it (a start
			// cut inside a rune by the head's end is still UTF-8)
			if !utf8.Valid(data) {
				return "", errors.New("not UTF-8 text past its start")
			}
			return strings.TrimPrefix(string(data), "\ufeff"), nil
		}
		if enc = unicode.UTF8; !mostlyUTF8(data[:min(len(data), charsetHead)]) {
			enc, _ = detected(data[:min(len(data), charsetHead)])
		}
	}
	text, err := enc.NewDecoder().Bytes(data)
	if err != nil {
		return "", err
	}
	return strings.TrimPrefix(string(text), "\ufeff"), nil
}

// mostlyUTF8 reports whether head, which is not valid UTF-8, is UTF-8 but
// for a few stray bytes: it holds at least twice as many multi-byte UTF-8
// characters as bytes that are not UTF-8. A text in a single-byte charset
// hardly ever holds a multi-byte UTF-8 character (a letter of 0xC2–0xF4
// followed by one or more of 0x80–0xBF, punctuation in Windows-1252), and
// each of its non-ASCII letters before an ASCII one is a byte that is not
// UTF-8; a UTF-8 text with a stray byte (a cut Windows-1252 quote, a
// corrupted character) holds many multi-byte characters and one or two
// such bytes. A rune cut at head's end is neither.
func mostlyUTF8(head []byte) bool {
	multi, stray := 0, 0
	for i := 0; i < len(head); {
		if head[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(head[i:])
		switch {
		case r != utf8.RuneError || size > 1:
			multi++
		case !utf8.FullRune(head[i:]):
			// a rune cut at the end
		default:
			stray++
		}
		i += size
	}
	return stray > 0 && multi >= 2*stray
}

// validUTF8Prefix reports whether head is valid UTF-8 but for a rune cut
// at its end.
func validUTF8Prefix(head []byte) bool {
	for i := 1; i <= utf8.UTFMax && i <= len(head); i++ {
		if utf8.RuneStart(head[len(head)-i]) {
			if !utf8.FullRune(head[len(head)-i:]) {
				head = head[:len(head)-i]
			}
			break
		}
	}
	return utf8.Valid(head)
}

func encodingWindows1252() encoding.Encoding {
	e, _ := htmlindex.Get("windows-1252")
	return e
}
