package engines

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/extract"
)

// conformancePage is a news page carrying every trap the fixes handle.
func conformancePage() string {
	var b strings.Builder
	b.WriteString(`<html lang="en"><head><title>Harbour ferry returns</title><style>.x{color:red}</style></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav><article><h1>Harbour ferry returns</h1>`)
	for i := range 8 {
		fmt.Fprintf(&b, "<p>Paragraph %d tells how the harbour authority reopened the ferry line between the islands, "+
			"after the old pier was rebuilt with money from the regional budget.</p>", i)
		switch i {
		case 2:
			b.WriteString(`<div style="DISPLAY : none">Hidden teaser text.</div><p hidden>Hidden paragraph text.</p>`)
		case 4:
			b.WriteString(`<script>var leakedScript = 1;</script><noscript>Leaked noscript text.</noscript>`)
		}
	}
	b.WriteString(`</article><footer>Contact us</footer></body></html>`)
	return b.String()
}

// TestConformance runs every engine through extract with its fixes: the
// article must come out whole, hidden and code text never, and paragraphs
// apart. The engine alone is logged for comparison.
func TestConformance(t *testing.T) {
	page := conformancePage()
	traps := []string{"Hidden teaser", "Hidden paragraph", "leakedScript", "Leaked noscript", "color:red"}
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			eng := All[name]
			opts := extract.Options{Engine: eng, MinChars: -1}
			in := extract.Input{URL: "https://port.example/2024/ferry", Body: []byte(page)}
			a, skip, err := extract.Page(context.Background(), in, opts)
			if err != nil || skip != "" {
				t.Fatalf("skip %q err %v", skip, err)
			}
			for i := range 8 {
				if !strings.Contains(a.Text, fmt.Sprintf("Paragraph %d tells", i)) {
					t.Errorf("paragraph %d missing:\n%s", i, a.Text)
				}
			}
			for _, trap := range traps {
				if strings.Contains(a.Text, trap) {
					t.Errorf("text contains %q", trap)
				}
			}
			if strings.Contains(a.Text, "budget.Paragraph") || !strings.Contains(a.Text, "budget.\n\nParagraph 1") {
				t.Errorf("paragraphs not apart:\n%s", a.Text)
			}
			again, _, _ := extract.Page(context.Background(), in, opts)
			if again.Text != a.Text {
				t.Error("not deterministic")
			}
			opts.LibraryOnly = true
			alone, _, _ := extract.Page(context.Background(), in, opts)
			var missed []string
			for _, trap := range traps {
				if strings.Contains(alone.Text, trap) {
					missed = append(missed, trap)
				}
			}
			if strings.Contains(alone.Text, "budget.Paragraph") {
				missed = append(missed, "glued paragraphs")
			}
			t.Logf("%s alone lets through: %v", name, missed)
		})
	}
}

func TestLookup(t *testing.T) {
	if _, err := Lookup("readeck"); err != nil {
		t.Error(err)
	}
	if _, err := Lookup("nope"); err == nil || !strings.Contains(err.Error(), "trafilatura") {
		t.Errorf("err %v, want the list of engines", err)
	}
}
