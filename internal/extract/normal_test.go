package extract

import (
	"context"
	"strings"
	"testing"
)

func TestCanonical(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"ascii", "Plain text.", "Plain text."},
		{"combining accent", "Cafe\u0301 cre\u0300me", "Café crème"},
		{"precomposed bengali yya", "কুষ্টি\u09df", "কুষ্টি\u09af\u09bc"},
		{"already composed", "Zürich", "Zürich"},
		{"soft hyphens", "Mit\u00adtel\u00adal\u00adter", "Mittelalter"},
		{"soft hyphen and accent", "Ca\u00adfe\u0301", "Café"},
		{"a soft hyphen alone at a line's end", "0 \u00ad", "0"},
		{"a paragraph of a soft hyphen", "One.\n\n\u00ad\n\nTwo \u00ad\nthree.", "One.\n\nTwo\nthree."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := canonical(tc.in); got != tc.want {
				t.Errorf("canonical(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// Regression: the reading printed above a Japanese word (<rt>) was rendered
// after it, doubling every annotated word ("子こども"), and a letter spelled
// with a precomposed code point did not equal the same letter spelled in
// two.
func TestPageRubyAndNormalForm(t *testing.T) {
	para := `<p><ruby>子<rp>(</rp><rt>こ</rt><rp>)</rp></ruby>どもへの<ruby>虐待<rt>ぎゃくたい</rt></ruby>をなくすための<ruby>法律<rt>ほうりつ</rt></ruby>ができました。` +
		strings.Repeat("新しい規則は来月から始まります。", 12) + `</p>`
	body := `<html lang="ja"><head><title>法律</title></head><body><article><h1>法律</h1>` +
		strings.Repeat(para, 4) + `<p>Cafe` + "\u0301" + ` は駅の前にあります。</p></article></body></html>`
	a, skip := extractPage(t, body, Options{})
	if skip != "" {
		t.Fatalf("skipped: %s", skip)
	}
	for _, want := range []string{"子どもへの虐待をなくすための法律ができました。", "Café は駅の前"} {
		if !strings.Contains(a.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, a.Text)
		}
	}
	for _, absent := range []string{"こ", "ぎゃくたい", "(", "\u0301"} {
		if strings.Contains(a.Text, absent) {
			t.Errorf("text holds %q:\n%s", absent, a.Text)
		}
	}
}

// Regression: a page hyphenated with soft hyphens (&shy;) gave a text whose
// words held them, invisible, so that a search for "Mittelalter" missed it.
func TestPageSoftHyphens(t *testing.T) {
	para := `<p>Schon im Mit&shy;tel&shy;al&shy;ter war der Wein das Aus&shy;hän&shy;ge&shy;schild der Region, und die Winzer pflegen die alten Reben bis heute mit großer Sorgfalt.</p>`
	body := `<html lang="de"><head><title>Wein&shy;bau</title></head><body><article><h1>Weinbau</h1>` +
		strings.Repeat(para, 6) + `</article></body></html>`
	a, skip := extractPage(t, body, Options{})
	if skip != "" {
		t.Fatalf("skipped: %s", skip)
	}
	if !strings.Contains(a.Text, "Schon im Mittelalter war der Wein das Aushängeschild") || strings.Contains(a.Text+a.Title, "\u00ad") {
		t.Errorf("soft hyphens left:\n%q", a.Text)
	}
	if a.Title != "Weinbau" {
		t.Errorf("title %q, want Weinbau", a.Title)
	}
}

func TestPageMojibake(t *testing.T) {
	// A page that declares UTF-8 but serves its quotation marks encoded
	// twice, as bytes and as entities: the text and the title read as the
	// author wrote them.
	para := `<p>The council said it isnâ€™t able to fund the repairs this year, and the mayor called the decision &acirc;&euro;&oelig;a disappointment&acirc;&euro;&#157; for residents of the old town.</p>`
	body := `<html><head><meta charset="utf-8"><title>Council wonâ€™t fund repairs</title></head><body><article><h1>Council</h1>` +
		strings.Repeat(para, 6) + `</article></body></html>`
	a, skip := extractPage(t, body, Options{})
	if skip != "" {
		t.Fatalf("skipped: %s", skip)
	}
	if !strings.Contains(a.Text, "it isn’t able to fund") || !strings.Contains(a.Text, "“a disappointment” for residents") {
		t.Errorf("mojibake left:\n%q", a.Text)
	}
	if a.Title != "Council won’t fund repairs" {
		t.Errorf("title %q, want %q", a.Title, "Council won’t fund repairs")
	}
}

// TestPageMojibakeTitleAndAuthor pins the bug where a page in UTF-8 that
// declares no charset and holds one stray Windows-1252 byte, read in
// Windows-1252 as a whole, had its text repaired but not its title ("La
// nouvelle ligne de mÃ©tro") nor its author: one sequence is too few for a
// title alone, and the author was not repaired at all.
func TestPageMojibakeTitleAndAuthor(t *testing.T) {
	para := `<p>Le gouvernement a annoncé mardi que la nouvelle ligne de métro ouvrira en décembre. Selon le maire, la construction a coûté quarante milliards d'euros.</p>`
	body := `<html><head><title>La nouvelle ligne de métro</title><meta name="author" content="Zoë Roe"></head><body><article><h1>La nouvelle ligne de métro</h1>` +
		strings.Repeat(para, 5) + "<p>Les habitants attendaient cette d\x92cision.</p></article></body></html>"
	a, skip, err := Page(context.Background(), Input{Body: []byte(body)}, Options{})
	if err != nil || skip != "" {
		t.Fatalf("skip %q, err %v", skip, err)
	}
	if !strings.Contains(a.Text, "a annoncé mardi") {
		t.Errorf("text not repaired:\n%s", a.Text)
	}
	if a.Title != "La nouvelle ligne de métro" || a.Author != "Zoë Roe" {
		t.Errorf("title %q, author %q; want %q, %q", a.Title, a.Author, "La nouvelle ligne de métro", "Zoë Roe")
	}
}

// Regression: the text a <video> or <audio> holds for a browser that plays
// neither ("To view this video please enable JavaScript, and consider
// upgrading…") was kept in the article.
func TestPageMediaFallback(t *testing.T) {
	para := `<p>The ferry returned to the harbour at dawn after three days at sea, and the crew were greeted by their families on the quay.</p>`
	body := `<html><head><title>Ferry</title></head><body><article><h1>Ferry</h1>` + strings.Repeat(para, 4) +
		`<video controls><source src="/v.mp4" type="video/mp4"><p class="vjs-no-js">To view this video please enable JavaScript, and consider upgrading to a web browser that supports HTML5 video</p></video>` +
		`<audio controls><source src="/a.mp3">Your browser does not support the audio element.</audio>` +
		strings.Repeat(para, 2) + `</article></body></html>`
	a, skip := extractPage(t, body, Options{})
	if skip != "" {
		t.Fatalf("skipped: %s", skip)
	}
	if strings.Contains(a.Text, "To view this video") || strings.Contains(a.Text, "does not support") || !strings.Contains(a.Text, "The ferry returned") {
		t.Errorf("text:\n%s", a.Text)
	}
}
