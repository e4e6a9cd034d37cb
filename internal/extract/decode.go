package extract

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gogs/chardet"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

// errTooLarge is returned when a body inflates past the size limit.
var errTooLarge = errors.New("extract: page over the size limit")

// isGzip reports whether b starts with the gzip magic number.
func isGzip(b []byte) bool {
	return len(b) >= 3 && b[0] == 0x1f && b[1] == 0x8b && b[2] == 8
}

// gunzip inflates a gzip body, refusing output past limit bytes.
func gunzip(b []byte, limit int) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("gzip body: %w", err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, min(int64(limit), math.MaxInt64-1)+1))
	if err != nil {
		return nil, fmt.Errorf("gzip body: %w", err)
	}
	if len(out) > limit {
		return nil, errTooLarge
	}
	return out, nil
}

// metaCharset finds a charset declared anywhere in the document head,
// for pages whose declaration comes after the first 1024 bytes that the
// standard prescan reads.
var metaCharset = regexp.MustCompile(`(?i)<meta[^>]+charset\s*=\s*["']?\s*([a-z0-9_:.-]+)`)

// headLimit bounds how far metaCharset looks.
const headLimit = 16 << 10

// ToUTF8 converts an HTML body to UTF-8. The encoding comes from, in order:
// a byte-order mark (UTF-8's, UTF-16's or UTF-32's), the charset of
// contentType (an HTTP Content-Type value, may be empty), a <meta>
// declaration; a body without any that is valid UTF-8 is taken as UTF-8
// (but one of ASCII that switches to JIS X 0208 as ISO-2022-JP does, when
// no <meta> declares another charset: its escapes tell it; a stray ESC $ B
// in a page declared UTF-8 leaves it UTF-8), anything else as the charset its text is
// detected to be (DetectCharset), Windows-1252 (the web's default) when
// detection is not confident. A body that is valid UTF-8 past ASCII is
// UTF-8 whatever contentType or a <meta> declares (a server's default
// "charset=iso-8859-1" on a site written in UTF-8): no text in another
// charset is. A byte-order mark is not in the text returned. It returns the
// encoding's name.
func ToUTF8(body []byte, contentType string) ([]byte, string, error) {
	if enc, name := utf32BOM(body); enc != nil { // before UTF-16LE's mark, which FF FE 00 00 starts with
		out, err := enc.NewDecoder().Bytes(body)
		if err != nil {
			return nil, name, fmt.Errorf("decoding %s: %w", name, err)
		}
		return out, name, nil
	}
	enc, name, certain := charset.DetermineEncoding(body, contentType)
	if certain && utf8.Valid(body) {
		if strings.HasPrefix(name, "utf-16") {
			if bytes.IndexByte(body, 0) < 0 && bytes.ContainsAny(body, "< \n") {
				// A header's UTF-16 label ("charset=utf-16", "unicode")
				// on bytes with no NUL, which the markup and spaces of a
				// page in UTF-16 have in every ASCII character (its mark
				// would make them no UTF-8).
				return body, "utf-8", nil
			}
		} else if name != "utf-8" && !ascii(body) {
			return body, "utf-8", nil // a header's label, not a byte-order mark
		}
	}
	if !certain {
		switch {
		case iso2022JP(body) && !declaresOther(body): // valid UTF-8 too: all ASCII
			enc, name = japanese.ISO2022JP, "iso-2022-jp"
		case utf8.Valid(body):
			return body, "utf-8", nil
		default:
			enc, name = declaredOrDetected(body, enc, name)
		}
	}
	if name == "utf-8" {
		bom := bytes.HasPrefix(body, []byte("\xef\xbb\xbf"))
		body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
		if utf8.Valid(body) {
			return body, name, nil
		}
		if bom || mostlyUTF8(body) {
			return bytes.ToValidUTF8(body, []byte("\uFFFD")), name, nil
		}
		// A header or <meta> that says UTF-8 of a body that is not (a
		// server's default label on an older page): a <meta> of another
		// charset reads it, else Windows-1252, or the charset of another
		// script its text is detected to be (a Russian page in
		// Windows-1251). Between Latin charsets detection is unsure on
		// the few bytes a Western page writes outside ASCII ("crème" read
		// as Latin-2), and Windows-1252 is the likelier.
		enc, name = charmap.Windows1252, "windows-1252"
		other := false
		if m := metaCharset.FindSubmatch(body[:min(len(body), headLimit)]); m != nil {
			if e, n := charset.Lookup(string(m[1])); e != nil && n != "utf-8" {
				enc, name, other = e, n, true
			}
		}
		if !other {
			if e, n := charset.Lookup(DetectCharset(body[:min(len(body), detectLimit)], true)); e != nil && n != "utf-8" && !latinCharset[n] {
				enc, name = e, n
			}
		}
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		return nil, name, fmt.Errorf("decoding %s: %w", name, err)
	}
	// UTF-16's decoder keeps the byte-order mark, as U+FEFF: no text.
	return bytes.TrimPrefix(out, []byte("\ufeff")), name, nil
}

// declaredOrDetected returns the encoding of a body that is not UTF-8 and
// that no byte-order mark or header labels: the one a <meta> declares
// anywhere in its head, else the one its text is detected to be, else enc
// and name.
func declaredOrDetected(body []byte, enc encoding.Encoding, name string) (encoding.Encoding, string) {
	if m := metaCharset.FindSubmatch(body[:min(len(body), headLimit)]); m != nil {
		if e, n := charset.Lookup(string(m[1])); e != nil {
			return e, n
		}
	}
	if e, n := charset.Lookup(DetectCharset(body[:min(len(body), detectLimit)], true)); e != nil {
		return e, n
	}
	return enc, name
}

// latinCharset names the charsets, as charset.Lookup names them, that
// write Latin letters past ASCII: of a body declared UTF-8 that is not,
// detection naming one of them is not taken over Windows-1252.
var latinCharset = map[string]bool{
	"windows-1252": true, "windows-1250": true, "windows-1254": true, "windows-1257": true, "windows-1258": true,
	"iso-8859-2": true, "iso-8859-3": true, "iso-8859-4": true, "iso-8859-10": true, "iso-8859-13": true,
	"iso-8859-14": true, "iso-8859-15": true, "iso-8859-16": true, "macintosh": true,
}

// detectLimit bounds how much of a page DetectCharset reads.
const detectLimit = 64 << 10

// DetectCharset names the charset of the start of a text, or with html of
// a page (its markup left out), that is not UTF-8: the charset
// github.com/gogs/chardet finds most likely, but for a Latin charset: when
// the detector is not confident (below 30 of 100), finds a UTF form, or
// finds Windows-1252, ISO-8859-1 (of which Windows-1252 is the superset
// browsers read), Windows-1250, ISO-8859-2, Windows-1254 or ISO-8859-9,
// it is the one of Windows-1252, Windows-1250, ISO-8859-2 and
// Windows-1254 whose reading of the text's bytes past ASCII makes letters
// in words rather than symbols (latinChoice; Windows-1252 when they read
// it alike, or the detector's choice among them when it was confident),
// and of a short text (up to 200 bytes) it finds in a multi-byte charset of
// Chinese, Japanese or Korean, the Latin one that reads it without a
// symbol inside a word, if one does. A text that is UTF-8 but for a few
// stray bytes (mostlyUTF8) is not chosen for: it is Windows-1252 when the
// detector is not confident or finds ISO-8859-1, else what it finds (its
// mojibake of UTF-8 is repaired later, and reads as letters in no Latin
// charset). Of
// charsets found with equal confidence it takes the first by name: the
// detector's own choice among them varies from run to run, and a second
// reading must read a file as the first did.
func DetectCharset(head []byte, html bool) string {
	d := chardet.NewTextDetector()
	if html {
		d = chardet.NewHtmlDetector()
	}
	all, err := d.DetectAll(head)
	var res *chardet.Result
	if err == nil && len(all) > 0 {
		slices.SortFunc(all, func(a, b chardet.Result) int {
			if a.Confidence != b.Confidence {
				return b.Confidence - a.Confidence
			}
			return strings.Compare(a.Charset, b.Charset)
		})
		res = &all[0]
	}
	switch {
	case res == nil || res.Confidence < 30 || strings.HasPrefix(strings.ToUpper(res.Charset), "UTF-"):
		if mostlyUTF8(head) {
			return "windows-1252"
		}
		name, _ := latinChoice(head, "")
		return name
	case mostlyUTF8(head):
		if strings.EqualFold(res.Charset, "ISO-8859-1") {
			return "windows-1252"
		}
	case latinPrefer[strings.ToLower(res.Charset)] != "":
		name, _ := latinChoice(head, latinPrefer[strings.ToLower(res.Charset)])
		return name
	case cjkCharset[strings.ToLower(res.Charset)] && len(head) <= shortDetect:
		if name, clean := latinChoice(head, ""); clean {
			return name
		}
	}
	return res.Charset
}

// latinPrefer maps the charsets the detector finds, in lower case, of
// which latinChoice reads a text in one of latinCharsets, to the one it
// takes of those that read the text equally well. The detector names
// ISO-8859-2 of any text in Polish, Czech, Hungarian or Romanian that has
// no byte of 0x80–0x9F, where Windows-1250 has letters and ISO-8859-2
// none: it tells those languages from the Western ones, not Windows-1250,
// the charset of Windows and of more files, from ISO-8859-2.
var latinPrefer = map[string]string{
	"iso-8859-1": "windows-1252", "windows-1252": "windows-1252",
	"iso-8859-2": "windows-1250", "windows-1250": "windows-1250",
	"iso-8859-9": "windows-1254", "windows-1254": "windows-1254",
}

// cjkCharset names, in lower case, the multi-byte charsets of Chinese,
// Japanese and Korean the detector finds: of a short text that reads in a
// Latin charset without a misreading, on the few bytes it has to go by.
var cjkCharset = map[string]bool{"big5": true, "gb18030": true, "euc-jp": true, "euc-kr": true, "shift_jis": true}

// shortDetect is the length, in bytes, up to which a text the detector finds
// to be in a charset of cjkCharset is read in a Latin one when that reads
// it without a misreading.
const shortDetect = 200

// ascii reports whether b is all ASCII: the same text in UTF-8 and in
// the charsets that extend ASCII, and the text of a 7-bit charset
// (ISO-2022-JP) that only its label tells.
func ascii(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// iso2022JP reports whether b is all ASCII and holds an escape sequence
// of ISO-2022-JP that switches to JIS X 0208 (ESC $ @, ESC $ B): Japanese
// text in ISO-2022-JP, which is valid UTF-8 too.
func iso2022JP(b []byte) bool {
	return (bytes.Contains(b, []byte("\x1b$B")) || bytes.Contains(b, []byte("\x1b$@"))) && ascii(b)
}

// declaresOther reports whether a <meta> in b's head declares a charset
// other than ISO-2022-JP: its escapes then do not override the
// declaration (a pasted terminal log's stray ESC $ B in a page of
// English). A label no encoding answers to declares nothing.
func declaresOther(b []byte) bool {
	m := metaCharset.FindSubmatch(b[:min(len(b), headLimit)])
	if m == nil {
		return false
	}
	e, n := charset.Lookup(string(m[1]))
	return e != nil && n != "iso-2022-jp"
}

// utf32BOM returns the encoding and name of UTF-32, little- or big-endian,
// when b starts with its byte-order mark (FF FE 00 00, 00 00 FE FF), else
// nil. UTF-32 is no encoding of the web, but a page saved in it is read.
// FF FE 00 00 is also UTF-16LE's mark before U+0000, which WHATWG reads as
// UTF-16LE: it is UTF-32LE only when the next 4-byte unit looks like
// UTF-32LE too (its two high bytes zero) and the length is a multiple of 4.
func utf32BOM(b []byte) (encoding.Encoding, string) {
	switch {
	case bytes.HasPrefix(b, []byte{0xff, 0xfe, 0, 0}) && len(b) >= 8 && len(b)%4 == 0 && b[6] == 0 && b[7] == 0:
		return utf32.UTF32(utf32.LittleEndian, utf32.ExpectBOM), "utf-32le"
	case bytes.HasPrefix(b, []byte{0, 0, 0xfe, 0xff}):
		return utf32.UTF32(utf32.BigEndian, utf32.ExpectBOM), "utf-32be"
	}
	return nil, ""
}

// mostlyUTF8 reports whether a body that is not valid UTF-8 has at least
// as many valid multi-byte sequences as invalid bytes: UTF-8 with damage,
// rather than a single-byte charset mislabelled.
func mostlyUTF8(b []byte) bool {
	valid, invalid := 0, 0
	for len(b) > 0 {
		if b[0] < utf8.RuneSelf {
			b = b[1:]
			continue
		}
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			invalid++
		} else {
			valid++
		}
		b = b[size:]
	}
	return valid >= invalid
}

// htmlElements are the names of HTML's elements: those of the WHATWG
// living standard, and the obsolete ones old pages still carry (font,
// center, tt, …).
var htmlElements = []string{
	"a", "abbr", "address", "area", "article", "aside", "audio", "b", "base", "bdi", "bdo", "blockquote",
	"body", "br", "button", "canvas", "caption", "cite", "code", "col", "colgroup", "data", "datalist", "dd",
	"del", "details", "dfn", "dialog", "div", "dl", "dt", "em", "embed", "fieldset", "figcaption", "figure",
	"footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hgroup", "hr", "html", "i",
	"iframe", "img", "input", "ins", "kbd", "label", "legend", "li", "link", "main", "map", "mark", "menu",
	"meta", "meter", "nav", "noscript", "object", "ol", "optgroup", "option", "output", "p", "picture", "pre",
	"progress", "q", "rp", "rt", "ruby", "s", "samp", "script", "search", "section", "select", "slot", "small",
	"source", "span", "strong", "style", "sub", "summary", "sup", "table", "tbody", "td", "template",
	"textarea", "tfoot", "th", "thead", "time", "title", "tr", "track", "u", "ul", "var", "video", "wbr",
	// obsolete
	"acronym", "applet", "basefont", "bgsound", "big", "blink", "center", "dir", "font", "frame", "frameset",
	"listing", "marquee", "nobr", "noembed", "noframes", "plaintext", "rb", "rtc", "strike", "tt", "xmp",
}

// htmlElement is htmlElements as a set.
var htmlElement = func() map[string]bool {
	m := make(map[string]bool, len(htmlElements))
	for _, e := range htmlElements {
		m[e] = true
	}
	return m
}()

// maxElementName is the longest name in htmlElements, in bytes.
const maxElementName = 10

// commonElements are the elements whose start tag alone marks a text as
// HTML: those every page holds, which a plain text seldom writes in angle
// brackets. Another element's tag does when the text closes it too (</pre>,
// </blockquote>) or, for an element that is never closed (voidElements),
// when it carries an attribute (<img src=…>): plain text writes "<input>
// <output>", "<time>" and "<i>" for what to type, as it writes "a <b && c>"
// in code.
var commonElements = map[string]bool{"html": true, "head": true, "body": true, "title": true, "meta": true, "div": true,
	"p": true, "table": true, "article": true, "span": true, "a": true, "br": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true}

// voidElements are the elements that have no end tag.
var voidElements = map[string]bool{"area": true, "base": true, "basefont": true, "bgsound": true, "col": true,
	"embed": true, "frame": true, "hr": true, "img": true, "input": true, "link": true, "source": true,
	"track": true, "wbr": true}

// hasHTMLTag reports whether b holds an HTML doctype ("<!DOCTYPE html") or
// a whole start tag of an HTML element (htmlElements, in any case) that
// marks it as HTML (see commonElements): its name followed by ">", "/>" or
// white space, attributes and ">", with no "<" before its end. Text with a
// stray "<" ("x <a y"), an address in angle brackets ("<a@b.example>"),
// another name ("<text id=1>") or a placeholder ("<input> <output>") has
// none. It reads b once, without a regular expression, but for the end
// tag of an element found (an alternation of every element's name reads
// 64 KB in milliseconds).
func hasHTMLTag(b []byte) bool {
	var lower []byte           // b in lower case, made once a tag needs its end tag looked for
	tried := map[string]bool{} // the elements whose end tag was looked for, not found
	all := b
	for {
		i := bytes.IndexByte(b, '<')
		if i < 0 {
			return false
		}
		b = b[i+1:]
		name, attr, ok := startTag(b)
		switch {
		case !ok:
		case name == "" || commonElements[name]:
			return true
		case voidElements[name]:
			if attr {
				return true
			}
		case !tried[name]:
			if lower == nil {
				lower = bytes.ToLower(all)
			}
			if closes(lower, name) {
				return true
			}
			tried[name] = true
		}
	}
}

// closes reports whether lower, a text in lower case, holds the end tag of
// the element name ("</pre>", "</pre >").
func closes(lower []byte, name string) bool {
	end := []byte("</" + name)
	for {
		i := bytes.Index(lower, end)
		if i < 0 {
			return false
		}
		lower = lower[i+len(end):]
		if len(lower) > 0 && (lower[0] == '>' || lower[0] == ' ' || lower[0] == '\t' || lower[0] == '\n' || lower[0] == '\r' || lower[0] == '\f') {
			return true
		}
	}
}

// startTag reports whether b, what follows a "<", is a doctype of HTML
// (name "") or a start tag of an HTML element to its ">" (hasHTMLTag), and
// which element, in lower case, and whether the tag carries an attribute
// with a value (a "=" before its ">").
func startTag(b []byte) (name string, attr, ok bool) {
	if len(b) > len("!doctype") && bytes.EqualFold(b[:len("!doctype")], []byte("!doctype")) {
		rest := b[len("!doctype"):]
		trimmed := bytes.TrimLeft(rest, " \t\n\f\r")
		return "", false, len(trimmed) < len(rest) && len(trimmed) >= 4 && bytes.EqualFold(trimmed[:4], []byte("html"))
	}
	var lower [maxElementName]byte
	n := 0
	for ; n < len(b) && (b[n] >= 'a' && b[n] <= 'z' || b[n] >= 'A' && b[n] <= 'Z' || b[n] >= '0' && b[n] <= '9'); n++ {
		if n == maxElementName {
			return "", false, false
		}
		lower[n] = b[n] | 0x20 // lower case, figures unchanged
	}
	name = string(lower[:n])
	if n == 0 || n == len(b) || !htmlElement[name] {
		return "", false, false
	}
	switch b[n] {
	case '>':
		return name, false, true
	case '/':
		return name, false, n+1 < len(b) && b[n+1] == '>'
	case ' ', '\t', '\n', '\f', '\r':
		end := bytes.IndexAny(b[n:], "<>")
		if end < 0 || b[n+end] != '>' {
			return "", false, false
		}
		return name, bytes.IndexByte(b[n:n+end], '=') >= 0, true
	}
	return "", false, false
}

// sniffLimit bounds how much of a body LooksHTML reads.
const sniffLimit = 64 << 10

// LooksHTML reports whether body (with its Content-Type, may be empty) is
// an HTML page: not declared as another type, not binary, and carrying an
// HTML doctype or a start tag of an HTML element near the start (hasHTMLTag;
// a page of a <pre> or a <blockquote> alone is one). A NUL byte in its first KB makes it binary
// unless it opens with an HTML or an XML tag, which browsers read as markup
// whatever bytes follow (a stray NUL in a <meta>), or is UTF-16 (by its
// byte-order mark, or the charset contentType declares: no mark, and NULs
// in every ASCII character), whose tag is looked for in its decoded text.
// Readers that accept mixed inputs use it to route a file to Page; Page
// applies it too (SkipNotHTML).
func LooksHTML(body []byte, contentType string) bool {
	mt, params, err := mime.ParseMediaType(contentType)
	if err == nil && !htmlType(mt) {
		return false
	}
	head := body[:min(len(body), sniffLimit)]
	if enc, _ := utf32BOM(head); enc != nil {
		text, err := enc.NewDecoder().Bytes(head[:len(head)&^3])
		return err == nil && hasHTMLTag(text)
	}
	nul := bytes.IndexByte(head[:min(len(head), 1024)], 0) >= 0
	if enc := declaredUTF16(params["charset"]); enc != nil && nul && !hasUTF16BOM(head) {
		text, err := enc.NewDecoder().Bytes(head[:len(head)&^1])
		return err == nil && strings.HasPrefix(http.DetectContentType(text), "text/") && hasHTMLTag(text)
	}
	sniffed := http.DetectContentType(head)
	if nul && !hasUTF16BOM(head) && !strings.HasPrefix(sniffed, "text/html") && !strings.HasPrefix(sniffed, "text/xml") {
		return false
	}
	if !strings.HasPrefix(sniffed, "text/") {
		return false
	}
	if hasUTF16BOM(head) { // the tag is looked for in the decoded text, as UTF-32's
		text, err := utf16BOM.NewDecoder().Bytes(head[:len(head)&^1]) // a last odd byte is half a character
		return err == nil && hasHTMLTag(text)
	}
	return hasHTMLTag(head)
}

// declaredUTF16 returns the decoder of UTF-16 a Content-Type's charset
// label names ("utf-16le", "utf-16be", "utf-16", which is little-endian
// as browsers read it), nil for any other label.
func declaredUTF16(label string) encoding.Encoding {
	if label == "" {
		return nil
	}
	if enc, name := charset.Lookup(label); enc != nil && strings.HasPrefix(name, "utf-16") {
		return enc
	}
	return nil
}

// htmlType reports whether a declared media type may hold HTML. Servers
// label HTML as text/plain or application/octet-stream often enough that
// those are sniffed rather than refused.
func htmlType(mt string) bool {
	switch mt {
	case "text/html", "application/xhtml+xml", "text/plain", "application/octet-stream",
		"application/xml", "text/xml", "":
		return true
	}
	return false
}

// utf16BOM decodes UTF-16 in the byte order its byte-order mark says.
var utf16BOM = unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM)

func hasUTF16BOM(b []byte) bool {
	return bytes.HasPrefix(b, []byte{0xff, 0xfe}) || bytes.HasPrefix(b, []byte{0xfe, 0xff})
}
