package core

import (
	"strings"
	"testing"
)

func TestUnstorableField(t *testing.T) {
	tests := []struct {
		name       string
		doc        Document
		field, why string
	}{
		{"storable", Document{ID: "a", Text: "x", URL: "https://example.com/a?b=1"}, "", ""},
		{"no url", Document{ID: "a", Text: "x"}, "", ""},
		{"http url, upper-case scheme", Document{ID: "a", URL: "HTTP://example.com/"}, "", ""},
		{"NUL in the text", Document{ID: "a", Text: "x\x00"}, "text", "holds a NUL character (binary data)"},
		{"source not UTF-8", Document{ID: "a", Source: "\xff"}, "source", "is not UTF-8"},
		// Regression: a javascript: URL was stored and shown as a link to
		// nowhere (#ZgotmplZ).
		{"javascript url", Document{ID: "a", URL: "javascript:alert(1)"}, "url", "names another scheme than http or https"},
		{"data url", Document{ID: "a", URL: "data:text/html,hi"}, "url", "names another scheme than http or https"},
		{"mailto url", Document{ID: "a", URL: "mailto:desk@example.com"}, "url", "names another scheme than http or https"},
		{"ftp url", Document{ID: "a", URL: "ftp://example.com/a"}, "url", "names another scheme than http or https"},
		// A URL without a scheme, as corpora record them, is stored (and
		// shown as text, not as a link).
		{"relative url", Document{ID: "a", URL: "/news/1"}, "", ""},
		{"no scheme", Document{ID: "a", URL: "www.example.com/news/1"}, "", ""},
		{"host and port", Document{ID: "a", URL: "localhost:8080/news/1"}, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			field, why := tc.doc.UnstorableField()
			if field != tc.field || why != tc.why {
				t.Errorf("UnstorableField() = %q, %q; want %q, %q", field, why, tc.field, tc.why)
			}
		})
	}
}

func TestBadID(t *testing.T) {
	const dotDot = `is "..", which a URL reads as a step in its path, not as a name`
	tests := []struct {
		name, id, why string
	}{
		{"plain", "bbc-1", ""},
		{"spaces inside", "a b", ""},
		{"dots inside", "a..b", ""},
		{"three dots", "...", ""},
		{"dot and slash", "./a", ""},
		{"zero-width joiner inside", "a\u200db", ""},
		{"missing", "", "is missing"},
		{"spaces", "   ", "is blank"},
		{"tab and no-break space", "\t \u00a0", "is blank"},
		{"ideographic space", "\u3000", "is blank"},
		// Regressions: ids of characters that show nothing were stored,
		// as a blank id of spaces was not.
		{"zero-width space", "\u200b", "is blank"},
		{"spaces and zero-width characters", " \u200b\u2060\ufeff \u200c", "is blank"},
		{"soft hyphen", "\u00ad", "is blank"},
		// Regressions: the web UI linked "/documents/%2E%2E", which a
		// browser resolves to "/": the document could not be opened.
		{"dot dot", "..", dotDot},
		{"dot", ".", `is ".", which a URL reads as a step in its path, not as a name`},
		{"control character", "a\x01b", "holds a control character"},
		{"not UTF-8", "a\xffb", "is not UTF-8"},
		{"long", strings.Repeat("x", MaxIDBytes+1), "is longer than 512 bytes"},
		{"longest", strings.Repeat("x", MaxIDBytes), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := BadID(tc.id); got != tc.why {
				t.Errorf("BadID(%q) = %q, want %q", tc.id, got, tc.why)
			}
		})
	}
}

// TestPairOther: the other document of a pair is its B for its A and its A
// for its B, whichever of them is the original.
func TestPairOther(t *testing.T) {
	for _, orig := range []string{"w", "c"} {
		p := Pair{A: "w", B: "c", Original: orig}
		for _, tc := range []struct{ id, want string }{{"w", "c"}, {"c", "w"}} {
			if got := p.Other(tc.id); got != tc.want {
				t.Errorf("original %s: Other(%q) = %q, want %q", orig, tc.id, got, tc.want)
			}
		}
	}
}
