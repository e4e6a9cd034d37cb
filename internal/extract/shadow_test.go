package extract

import (
	"fmt"
	"strings"
	"testing"
)

func TestRevealShadowRoots(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"the root before the host's children in its slot",
			`<div><template shadowrootmode="open"><p>1</p><slot></slot></template><p>2</p></div>`,
			`<div><p>1</p><p>2</p></div>`},
		{"the older attribute, closed",
			`<div><template shadowroot="closed"><p>1</p><slot></slot></template><p>2</p></div>`,
			`<div><p>1</p><p>2</p></div>`},
		{"named slots",
			`<x-card><template shadowrootmode="open"><h2><slot name="title"></slot></h2><slot></slot></template><p>body</p><span slot="title">Head</span></x-card>`,
			`<x-card><h2><span slot="title">Head</span></h2><p>body</p></x-card>`},
		{"a slot's own content when none fills it",
			`<div><template shadowrootmode="open"><slot name="x"><p>fallback</p></slot></template></div>`,
			`<div><p>fallback</p></div>`},
		{"children no slot takes are not shown",
			`<div><template shadowrootmode="open"><p>shown</p></template><p>not shown</p></div>`,
			`<div><p>shown</p></div>`},
		{"a nested root",
			`<div><template shadowrootmode="open"><section><template shadowrootmode="open"><p>inner</p><slot></slot></template><p>light</p></section></template></div>`,
			`<div><section><p>inner</p><p>light</p></section></div>`},
		{"a second root stays a template",
			`<div><template shadowrootmode="open"><p>1</p></template><template shadowrootmode="open"><p>2</p></template></div>`,
			`<div><p>1</p></div>`},
		{"a plain template stays a template",
			`<div><template><p>inert</p></template><template shadowrootmode="none"><p>inert</p></template></div>`,
			`<div><template><p>inert</p></template><template shadowrootmode="none"><p>inert</p></template></div>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, tc.in)
			revealShadowRoots(doc)
			if got := renderBody(t, doc); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// Regression (reviewer's finding): the text of a declarative shadow root
// was removed with every <template>, though a browser shows it.
func TestPageShadowRootText(t *testing.T) {
	page := newsPage(6)
	page = strings.Replace(page, fmt.Sprintf("<p>%s</p>\n<p>%s</p>\n", paragraph(0), paragraph(1)),
		fmt.Sprintf(`<div><template shadowrootmode="open"><p>%s</p><p>%s</p><slot></slot></template>`, paragraph(0), paragraph(1)), 1)
	page = strings.Replace(page, fmt.Sprintf("<p>%s</p>\n", paragraph(2)), fmt.Sprintf("<p>%s</p></div>\n", paragraph(2)), 1)
	if !strings.Contains(page, "shadowrootmode") {
		t.Fatal("the test page holds no shadow root")
	}
	a, skip := extractPage(t, page, Options{})
	if skip != "" {
		t.Fatalf("skipped: %s", skip)
	}
	for i := range 6 {
		if !strings.Contains(a.Text, paragraph(i)) {
			t.Errorf("paragraph %d missing from text:\n%s", i, a.Text)
		}
	}
}
