package extract

import (
	"context"
	"strings"
	"testing"

	"github.com/neardup/neardup/core"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

// Stories of a few sentences, and their bytes in a single-byte Cyrillic
// and a Japanese charset, for pages that declare no charset.
var (
	story = "Министерство финансов сообщило во вторник, что доходы бюджета выросли на пять процентов. " +
		"По словам заместителя министра, рост обеспечили налоговые поступления и экспорт зерна. " +
		"Эксперты ожидают, что к концу года дефицит сократится, если цены на нефть останутся высокими. " +
		"Правительство также намерено увеличить расходы на строительство дорог в северных регионах. " +
		"Отчёт будет представлен депутатам на следующей неделе."
	cp1251Story = mustEncode(charmap.Windows1251.NewEncoder().String(story))
	jaStory     = strings.Repeat("東京証券取引所で日経平均株価は大幅に続伸し、終値は前日比六百円高となった。", 4)
	sjisStory   = mustEncode(japanese.ShiftJIS.NewEncoder().String(jaStory))
)

func mustEncode(s string, err error) string {
	if err != nil {
		panic(err)
	}
	return s
}

func TestToUTF8(t *testing.T) {
	for _, c := range []struct {
		name, body, contentType, want, enc string
	}{
		{"utf-8 as declared", "<p>café</p>", "text/html; charset=utf-8", "<p>café</p>", "utf-8"},
		{"latin-1 body, header says utf-8", "<p>caf\xe9 cr\xe8me</p>", "text/html; charset=utf-8", "<p>café crème</p>", "windows-1252"},
		{"koi8-r meta, header says utf-8", "<meta charset=koi8-r><p>\xf0\xd2\xc9\xd7\xc5\xd4</p>", "text/html; charset=utf-8", "<meta charset=koi8-r><p>Привет</p>", "koi8-r"},
		{"utf-8 with one damaged byte", "<p>café crème br\xfbl\xc3\xa9e</p>", "text/html; charset=utf-8", "<p>café crème br\uFFFDlée</p>", "utf-8"},
		{"no declaration, latin-1", "<p>caf\xe9</p>", "", "<p>café</p>", "windows-1252"},
		{"meta latin-1", "<meta charset=iso-8859-1><p>caf\xe9</p>", "", "<meta charset=iso-8859-1><p>café</p>", "windows-1252"},
		{"no declaration, windows-1251", "<html><title>\xc4\xee\xf5\xee\xe4\xfb</title><p>" + cp1251Story + "</p>", "",
			"<html><title>Доходы</title><p>" + story + "</p>", "windows-1251"},
		{"no declaration, shift_jis", "<p>" + sjisStory + "</p>", "", "<p>" + jaStory + "</p>", "shift_jis"},
		// A server's default label, or a template's <meta>, on a page in
		// another charset: read as the page without one would be.
		{"windows-1251 body, header says utf-8", "<html><title>\xc4\xee\xf5\xee\xe4\xfb</title><p>" + cp1251Story + "</p>", "text/html; charset=utf-8",
			"<html><title>Доходы</title><p>" + story + "</p>", "windows-1251"},
		{"windows-1251 body, meta says utf-8", "<html><meta charset=utf-8><title>\xc4\xee\xf5\xee\xe4\xfb</title><p>" + cp1251Story + "</p>", "",
			"<html><meta charset=utf-8><title>Доходы</title><p>" + story + "</p>", "windows-1251"},
		{"windows-1252 meta, header says utf-8", "<meta charset=windows-1252><p>" + cp1251Story + "</p>", "text/html; charset=utf-8",
			"<meta charset=windows-1252><p>" + string(decode1252(cp1251Story)) + "</p>", "windows-1252"},
		// Regression: a server's default label on a page in UTF-8 read it as
		// Windows-1252, "ÐŸÑ€Ð¸Ð²ÐµÑ‚" with U+FFFD where 1252 has no letter.
		{"utf-8 body, header says iso-8859-1", "<meta charset=utf-8><p>Привет, café</p>", "text/html; charset=iso-8859-1",
			"<meta charset=utf-8><p>Привет, café</p>", "utf-8"},
		{"utf-8 body, header says windows-1251", "<p>Привет</p>", "text/html; charset=windows-1251", "<p>Привет</p>", "utf-8"},
		{"ascii body, header says iso-2022-jp", "<p>\x1b$B$3$s$K$A$O\x1b(B</p>", "text/html; charset=iso-2022-jp", "<p>こんにちは</p>", "iso-2022-jp"},
		{"latin-1 body, header says iso-8859-1", "<p>caf\xe9</p>", "text/html; charset=iso-8859-1", "<p>café</p>", "windows-1252"},
		// Regression (reviewer's finding): ISO-2022-JP declared by a <meta>
		// was read as UTF-8 (all its bytes are ASCII), the text escapes.
		{"ascii body, meta says iso-2022-jp", "<meta charset='iso-2022-jp'><p>\x1b$B$3$s$K$A$O\x1b(B</p>", "", "<meta charset='iso-2022-jp'><p>こんにちは</p>", "iso-2022-jp"},
		{"ascii body with iso-2022-jp's escapes, undeclared", "<p>\x1b$B$3$s$K$A$O\x1b(B</p>", "", "<p>こんにちは</p>", "iso-2022-jp"},
		{"ascii body, meta says iso-2022-jp, no escape", "<meta charset='iso-2022-jp'><p>hello</p>", "", "<meta charset='iso-2022-jp'><p>hello</p>", "utf-8"},
		// Regression (reviewer's finding): a stray ESC $ B (a pasted
		// terminal log) in a page that declares another charset turned the
		// rest of the page into kanji; the declaration wins over the escapes.
		{"ascii body, meta says utf-8, stray iso-2022-jp escape", "<meta charset=\"utf-8\"><p>log: \x1b$B not japanese</p><p>The rest.</p>", "",
			"<meta charset=\"utf-8\"><p>log: \x1b$B not japanese</p><p>The rest.</p>", "utf-8"},
		{"ascii body, http-equiv says windows-1252, stray iso-2022-jp escape", "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1252\"><p>log: \x1b$B not japanese</p>", "",
			"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1252\"><p>log: \x1b$B not japanese</p>", "utf-8"}, // all ASCII: the same text
		{"ascii body, header says utf-8, stray iso-2022-jp escape", "<p>log: \x1b$B not japanese</p>", "text/html; charset=utf-8",
			"<p>log: \x1b$B not japanese</p>", "utf-8"},
		// Regression (reviewer's finding): UTF-32's mark was taken for
		// UTF-16LE's, the markup for text.
		{"utf-32le with its mark", mustEncode(utf32.UTF32(utf32.LittleEndian, utf32.UseBOM).NewEncoder().String("<p>café</p>")), "", "<p>café</p>", "utf-32le"},
		// Regression (reviewer's finding): UTF-16LE's mark before U+0000
		// (FF FE 00 00) was taken for UTF-32LE's, and the page for not HTML.
		{"utf-16le with its mark, U+0000 first", mustEncode(unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().String("\x00<p>café</p>")), "", "\x00<p>café</p>", "utf-16le"}, // the mark dropped, as UTF-8's and UTF-32's
		{"utf-32le with its mark, U+0000 first", mustEncode(utf32.UTF32(utf32.LittleEndian, utf32.UseBOM).NewEncoder().String("\x00<p>café</p>")), "", "\x00<p>café</p>", "utf-32le"},
		// Regression: a server's UTF-16 label on a page in UTF-8 (or in
		// ASCII) read every two bytes as one character, the page as
		// "格浴㹬…"; a page in UTF-16 without a mark, under that label,
		// is still UTF-16 (its ASCII characters hold NUL bytes).
		{"utf-8 body, header says utf-16", "<p>Harbour reopens, café</p>", "text/html; charset=utf-16", "<p>Harbour reopens, café</p>", "utf-8"},
		{"ascii body, header says utf-16be", "<p>Harbour reopens</p>", "text/html; charset=UTF-16BE", "<p>Harbour reopens</p>", "utf-8"},
		{"ascii body, header says unicode", "<p>Harbour reopens</p>", "text/html; charset=unicode", "<p>Harbour reopens</p>", "utf-8"},
		{"utf-16le body without its mark, header says utf-16le", mustEncode(unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewEncoder().String("<p>café</p>")),
			"text/html; charset=utf-16le", "<p>café</p>", "utf-16le"},
		{"utf-16be body of letters alone, valid utf-8 too, header says utf-16be", mustEncode(unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewEncoder().String("本大学中")),
			"text/html; charset=utf-16be", "本大学中", "utf-16be"},
		{"utf-32be with its mark", mustEncode(utf32.UTF32(utf32.BigEndian, utf32.UseBOM).NewEncoder().String("<p>café</p>")), "text/html; charset=utf-8", "<p>café</p>", "utf-32be"},
	} {
		got, enc, err := ToUTF8([]byte(c.body), c.contentType)
		if err != nil || string(got) != c.want || enc != c.enc {
			t.Errorf("%s: got %q (%s, %v), want %q (%s)", c.name, got, enc, err, c.want, c.enc)
		}
	}
}

// TestDetectCharsetIsStable pins that detection gives one answer for one
// input, every time (the fuzzer found a file read in two charsets by the
// two passes: the detector breaks ties between equally likely charsets
// differently from run to run).
func TestDetectCharsetIsStable(t *testing.T) {
	head := []byte("\xffx\x00\x00l>ne")
	for _, html := range []bool{false, true} {
		first := DetectCharset(head, html)
		for range 1000 {
			if got := DetectCharset(head, html); got != first {
				t.Fatalf("detected %s, then %s", first, got)
			}
		}
	}
}

// decode1252 reads s as Windows-1252.
func decode1252(s string) []byte {
	b, _ := charmap.Windows1252.NewDecoder().Bytes([]byte(s))
	return b
}

// Regression (reviewer's finding): a page in UTF-32 was taken for UTF-16LE
// (little-endian: its mark starts with UTF-16LE's) and its markup became
// the article's text, or for no HTML (big-endian).
func TestPageUTF32(t *testing.T) {
	for name, order := range map[string]utf32.Endianness{"little-endian": utf32.LittleEndian, "big-endian": utf32.BigEndian} {
		body := mustEncode(utf32.UTF32(order, utf32.UseBOM).NewEncoder().String(newsPage(6)))
		a, skip := extractPage(t, body, Options{})
		if skip != "" || a.Title != "Council passes budget" || !strings.Contains(a.Text, paragraph(5)) || strings.Contains(a.Text, "<") {
			t.Errorf("%s: skip %q, title %q, text %q", name, skip, a.Title, a.Text)
		}
	}
}

// Regression (reviewer's finding): a page in UTF-16LE whose first
// character is U+0000 starts FF FE 00 00, and was taken for UTF-32LE and
// skipped as not HTML.
func TestPageUTF16NULFirst(t *testing.T) {
	body := mustEncode(unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().String("\x00" + newsPage(6)))
	a, skip := extractPage(t, body, Options{})
	if skip != "" || a.Title != "Council passes budget" || !strings.Contains(a.Text, paragraph(5)) {
		t.Errorf("skip %q, title %q, text %q", skip, a.Title, a.Text)
	}
}

// TestPageUTF16: regression, a body with UTF-16's byte-order mark was HTML
// whatever it held, so a plain text in UTF-16 became an article (the same
// text in UTF-8 is no HTML), and the mark, decoded as U+FEFF, stayed at
// the start of a text that comes before the page's first tag. The tag is
// looked for in the decoded text, as in UTF-32, and the mark is no text.
func TestPageUTF16(t *testing.T) {
	plain := "Blog\n\n" + paragraph(1) + " " + paragraph(2) + " " + paragraph(3)
	for _, order := range []struct {
		name string
		e    unicode.Endianness
	}{{"little-endian", unicode.LittleEndian}, {"big-endian", unicode.BigEndian}} {
		enc := unicode.UTF16(order.e, unicode.UseBOM).NewEncoder()
		for _, c := range []struct {
			name, body string
			skip       core.SkipReason
			title      string
		}{
			{"a page", newsPage(6), "", "Council passes budget"},
			{"plain text", plain, SkipNotHTML, ""},
			{"text before the first tag", plain + "<p>" + paragraph(4) + "</p>", "", ""},
		} {
			t.Run(order.name+"/"+c.name, func(t *testing.T) {
				body := mustEncode(enc.String(c.body))
				if got := LooksHTML([]byte(body), ""); got != (c.skip == "") {
					t.Errorf("LooksHTML = %v", got)
				}
				a, skip := extractPage(t, body, Options{MinChars: -1})
				if skip != c.skip || a.Title != c.title || strings.Contains(a.Text, "\ufeff") || strings.Contains(a.Title, "\ufeff") {
					t.Errorf("skip %q, title %q, text %q; want skip %q, title %q, no U+FEFF", skip, a.Title, a.Text, c.skip, c.title)
				}
				if c.skip == "" && !strings.Contains(a.Text, paragraph(4)) {
					t.Errorf("text %q, want paragraph 4 in it", a.Text)
				}
			})
		}
	}
	if LooksHTML([]byte(plain), "") {
		t.Error("plain text in UTF-8: LooksHTML = true")
	}
}

// TestLooksHTMLNULAndDeclaredUTF16: regression, a NUL byte in a page's
// first KB (one, in a <meta> attribute) made it binary, and a page in
// UTF-16 without a byte-order mark was binary though its Content-Type
// declares the charset. A page that opens with an HTML or XML tag is
// markup whatever bytes follow, and declared UTF-16 is decoded before its
// tag is looked for; binary files stay refused, under those labels too.
func TestLooksHTMLNULAndDeclaredUTF16(t *testing.T) {
	page := newsPage(6)
	nulMeta := strings.Replace(page, `<meta charset="utf-8">`, `<meta charset="utf-8" data-x="`+"\x00"+`">`, 1)
	xhtml := `<?xml version="1.0" encoding="utf-8"?>` + "\n" + nulMeta
	le := mustEncode(unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewEncoder().String(page))
	be := mustEncode(unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewEncoder().String(page))
	pdf := "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n\x00\x00\x01" + page
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x01\x00\x08\x02\x00\x00\x00" + page
	for _, c := range []struct {
		name, body, contentType string
		want                    bool
	}{
		{"a NUL in a meta of the head", nulMeta, "", true},
		{"a NUL in the head of XHTML", xhtml, "", true},
		{"binary bytes before a tag", "\x00\x01\x02\x03" + page, "", false},
		{"a PDF", pdf, "", false},
		{"a PNG", png, "", false},
		{"a PDF labelled HTML", pdf, "text/html", false},
		{"UTF-16LE without its mark, declared", le, "text/html; charset=utf-16le", true},
		{"UTF-16BE without its mark, declared", be, "text/html; charset=UTF-16BE", true},
		{"UTF-16 without its mark, declared utf-16", le, "text/html; charset=utf-16", true},
		{"UTF-16LE without its mark, undeclared", le, "", false},
		{"UTF-16LE without its mark, declared another charset", le, "text/html; charset=iso-8859-1", false},
		{"a PDF declared UTF-16", pdf, "text/html; charset=utf-16le", false},
		{"a PNG declared UTF-16", png, "text/html; charset=utf-16le", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := LooksHTML([]byte(c.body), c.contentType); got != c.want {
				t.Errorf("LooksHTML = %v, want %v", got, c.want)
			}
			a, skip, err := Page(context.Background(), Input{ContentType: c.contentType, Body: []byte(c.body)}, Options{})
			if c.want && (err != nil || skip != "" || !strings.Contains(a.Text, paragraph(3))) {
				t.Errorf("Page: skip %q, err %v, text %q; want the article", skip, err, a.Text)
			}
			if !c.want && skip != SkipNotHTML {
				t.Errorf("Page: skip %q, want %q", skip, SkipNotHTML)
			}
		})
	}
}

// TestLooksHTMLAnyElement: regression, a page whose only tags were <pre>
// or <blockquote> (as CleanEval's page 78 is), or of lists, sections or
// fonts, was skipped as not-html: only a few elements' tags were looked
// for. The start tag of any HTML element makes a page, and text with a
// stray "<", an address in angle brackets or a tag of no HTML element
// stays text.
func TestLooksHTMLAnyElement(t *testing.T) {
	story := strings.Repeat("The regional ferry returned to the harbour on Monday after three months of repairs at the shipyard, its captain said. ", 6)
	for _, c := range []struct {
		name, body string
		want       bool
	}{
		{"a pre alone", "<pre>\n" + story + "\n</pre>\n", true},
		{"a blockquote alone", "<blockquote>" + story + "</blockquote>", true},
		{"a list", "<ul>\n<li>" + story + "</li>\n</ul>", true},
		{"a section with attributes", `<section class="story">` + story + `</section>`, true},
		{"a main", "<MAIN>" + story + "</MAIN>", true},
		{"fonts and a centre", `<center><font size="2">` + story + `</font></center>`, true},
		{"a tag of its own", `<text id="http://x.example/1">` + "\n<pre>\n" + story + "</pre>\n</text>", true},
		{"a doctype", "<!DOCTYPE html>\n" + story, true},
		{"a break closed", story + "<br/>" + story, true},
		{"plain text", story, false},
		{"a stray <", "If x <a y and y <p z, then " + story, false},
		{"a comparison", "3 < 4 and 5 <= 6. " + story, false},
		{"an address in angle brackets", "Write to Jane Roe <a@b.example> or <pre@port.example>. " + story, false},
		{"a tag of no HTML element", `<text id="1">` + story + `</text>`, false},
		{"a closing tag alone", story + "</pre>", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := LooksHTML([]byte(c.body), ""); got != c.want {
				t.Errorf("LooksHTML = %v, want %v", got, c.want)
			}
			a, skip, err := Page(context.Background(), Input{Body: []byte(c.body)}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if c.want && (skip != "" || !strings.Contains(a.Text, "its captain said")) {
				t.Errorf("Page: skip %q, text %q; want the story", skip, a.Text)
			}
			if !c.want && skip != SkipNotHTML {
				t.Errorf("Page: skip %q, want %q", skip, SkipNotHTML)
			}
		})
	}
}

// BenchmarkLooksHTMLText is LooksHTML on 64 KB of text without a tag,
// which it reads to its end.
func BenchmarkLooksHTMLText(b *testing.B) {
	text := []byte(strings.Repeat("The regional ferry returned to the harbour on Monday, 3 < 4 and x <a y. ", 1000)[:sniffLimit])
	for b.Loop() {
		if LooksHTML(text, "") {
			b.Fatal("text taken for HTML")
		}
	}
}

// TestLooksHTMLPlaceholders: plain text naming placeholders in angle
// brackets, or code comparing, is no HTML page; a tag of an element the
// text closes, or of an element never closed with an attribute, marks one.
// Regression (a reviewer's finding): any element's start tag did.
func TestLooksHTMLPlaceholders(t *testing.T) {
	for _, s := range []string{
		"Usage: convert <input> <output>\n\nConverts the file named input to output.",
		"Usage: cp [-r] <source> <dir>",
		"kubectl logs <pod> --since <time>",
		"curl -d <data> <url>",
		"Press <i> to insert, <q> to quit, <s> to save.",
		"if (a <b && c> d) return;",
	} {
		if LooksHTML([]byte(s), "") {
			t.Errorf("LooksHTML(%q) = true, want false", s)
		}
	}
	for _, s := range []string{
		"<pre>The text of the page.</pre>", "<BLOCKQUOTE>A quote</blockquote >", "A picture <img src=\"a.png\"> of it",
		"<section><h7>x</section>",
	} {
		if !LooksHTML([]byte(s), "") {
			t.Errorf("LooksHTML(%q) = false, want true", s)
		}
	}
}
