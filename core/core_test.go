package core

import "testing"

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
		{"javascript url", Document{ID: "a", URL: "javascript:alert(1)"}, "url", "is not an http or https URL"},
		{"data url", Document{ID: "a", URL: "data:text/html,hi"}, "url", "is not an http or https URL"},
		{"relative url", Document{ID: "a", URL: "/news/1"}, "url", "is not an http or https URL"},
		{"no host", Document{ID: "a", URL: "https:///x"}, "url", "is not an http or https URL"},
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
