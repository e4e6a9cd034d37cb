package rules

import (
	"errors"
	"strings"
	"testing"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
)

// selectorPage is a page for the selectors' tests: nesting, siblings, text
// and comments between elements, attributes with spaces and brackets.
const selectorPage = `<html><body><article class="story"><h1 id="t">T</h1><!-- c --><div class="body main"><p>one</p> <p class="lead">two</p><aside data-x="a b]">x<span>y</span></aside><div><p>deep</p><div class="share"><a href="/s">s</a></div></div></div><p id="promo">d</p></article><div class="body"><p>out</p><ul><li>1</li><li class="x">2</li><li>3</li></ul></div></body></html>`

// The rules match a selector's combinators themselves (splitChain,
// matcher): they select what cascadia selects.
func TestSelectorMatchesAsCascadia(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(selectorPage))
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		"p", "article p", "article  >  div p", "article>div>p", "div p", "div div p", "body div div p",
		"h1 + div", "h1+div p", "h1 ~ p", "p ~ aside span", "li + li", "li ~ li.x", "li.x ~ li",
		"article .body p, ul li", "div:not(.share) a", "div:haschild(p) > p", "article:has(p) p",
		"li:nth-child(2n+1)", "li:nth-child( 2n + 1 )", `aside[data-x="a b]"] span`, "aside[data-x~=b\\]] span",
		`p:contains("two") ~ aside`, "div /* a comment */ p", "*", "* > p", "html body article div div a",
		"article :not(p)", "div.body.main > :first-child", `.body\ main p`, "ul li:not(.x) + li",
	} {
		t.Run(src, func(t *testing.T) {
			want, err := cascadia.ParseGroup(src)
			if err != nil {
				t.Fatal(err)
			}
			sel, err := compileSelector(src)
			if err != nil {
				t.Fatal(err)
			}
			m := &matcher{sel: sel}
			var walk func(*html.Node)
			walk = func(n *html.Node) {
				if n.Type == html.ElementNode {
					if got := m.match(n); got != want.Match(n) {
						t.Errorf("<%s %v>: matched %v, cascadia %v", n.Data, n.Attr, got, !got)
					}
				}
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					walk(c)
				}
			}
			walk(doc)
		})
	}
}

// Regression: a selector of many descendant combinators, matched by
// cascadia, took time exponential in a page's depth ("article div div p"
// took 33 s on a 100 KB page of divs nested 300 deep), past the page's
// timeout, as no checkpoint came within it. The rules match the
// combinators with a memo, looking at each element a few times for each
// part, and call their check as they go, so that the page's deadline stops
// them.
func TestBodyBoundedOnADeepPage(t *testing.T) {
	const depth, leaves = 300, 200
	page := "<html><body>" + strings.Repeat("<div>", depth) + strings.Repeat("<p>x</p>", leaves) + strings.Repeat("</div>", depth) + "</body></html>"
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse([]byte("version: 1\nrules:\n  - name: deep\n    body: 'span div div div div div div p'\n    drop: ['article div div div p']\n"), "rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := s.Match("https://deep.example/")
	elements := depth + leaves + 3
	steps := 0
	count := func() { steps++ }
	if got := r.Body(doc, count); got != nil {
		t.Errorf("Body selected %d elements, want none", len(got))
	}
	if parts := 8; steps > 4*parts*elements {
		t.Errorf("Body looked at elements %d times, want at most %d (4 for each part of the selector)", steps, 4*parts*elements)
	}
	// A check that panics ends the matching at once.
	stop := errors.New("stop")
	steps = 0
	func() {
		defer func() {
			if p := recover(); p != stop {
				t.Errorf("Body ended with %v, want the check's panic", p)
			}
		}()
		r.Body(doc, func() {
			if steps++; steps == 100 {
				panic(stop)
			}
		})
	}()
	if steps != 100 {
		t.Errorf("the check was called %d times, want 100", steps)
	}
}

// A selector that nests walks of the tree in its pseudo-classes, which
// cascadia matches without memory, is refused when the rules are read,
// naming the file, line, rule and selector.
func TestParseRefusesCostlySelectors(t *testing.T) {
	for _, tc := range []struct{ sel, want string }{
		{"div:has(p:has(span))", `rules.yaml:4: rule "x": body: CSS selector "div:has(p:has(span))" refused: "div:has(p:has(span))" nests 2 walks`},
		{"div:has(article p)", `nests 2 walks`},
		{"div:not(:has(a b))", `nests 2 walks`},
		{"p:not(.a .b .c)", `nests 2 walks`},
	} {
		t.Run(tc.sel, func(t *testing.T) {
			_, err := Parse([]byte("version: 1\nrules:\n  - name: x\n    body: '"+tc.sel+"'\n"), "rules.yaml")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse: %v, want an error with %q", err, tc.want)
			}
		})
	}
	for _, sel := range []string{"div:haschild(p)", "div:has(img)", "p:not(.a .b)", "article div div div div p", "li:nth-child(2n+1) ~ li", "div:has(img):has(video) p", "div:has(img):not(.a .b)"} {
		t.Run(sel, func(t *testing.T) {
			if _, err := Parse([]byte("version: 1\nrules:\n  - name: x\n    body: '"+sel+"'\n"), "rules.yaml"); err != nil {
				t.Errorf("Parse: %v", err)
			}
		})
	}
}

// FuzzSelector checks that the rules' matching of a selector's combinators
// selects what cascadia's does, for every selector both accept.
func FuzzSelector(f *testing.F) {
	for _, s := range []string{"article div p", "h1 ~ p", "li + li", `aside[data-x="a b]"] span`, "div:not(.a .b) > p", "p:nth-child(2n+1)", "div /* c */ p", `.body\ main p`} {
		f.Add(s)
	}
	doc, err := html.Parse(strings.NewReader(selectorPage))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		want, err := cascadia.ParseGroup(src)
		if err != nil {
			return
		}
		sel, err := compileSelector(src)
		if err != nil {
			var costly *costlyError
			if !errors.As(err, &costly) {
				t.Fatalf("compileSelector(%q): %v; cascadia parses it", src, err)
			}
			return
		}
		m := &matcher{sel: sel}
		var walk func(*html.Node)
		walk = func(n *html.Node) {
			if got := m.match(n); got != want.Match(n) {
				t.Fatalf("%q on <%s %v>: matched %v, cascadia %v", src, n.Data, n.Attr, got, !got)
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(doc)
	})
}
