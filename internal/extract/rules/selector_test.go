package rules

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
)

// selectorShapes are selectors of every structure cascadia parses: the
// combinators, nested groups in :not(), :has() and :haschild(), and
// attribute values and pseudo-class arguments holding what separates
// selectors elsewhere (spaces, ">", "~", "+", ",", "(", ")", quotes).
var selectorShapes = []string{
	"p", "*", "div p", "article div div p", "div > p", "div + p", "div ~ p", "h2 ~ p + p",
	"div, p", "article p, div > span", "div > * > p", "* p", "div *",
	":not(div)", ":not(div p)", "p:not(article p)", ":not(:not(div span))",
	"div:has(p)", ":has(div p)", "div:has(span ~ p)", "div:haschild(p)", ":haschild(div > p)",
	"article:has(p) div", "div:has(p):not(.x) > p", ":has(:has(p)) p",
	`[data-t="a b"] p`, `[data-t="a > b"] ~ p`, `[data-t="a, b"] p`, `[data-t="f("] > p`, `[data-t='q"q'] p`,
	`[data-t="a\"b"] p`, `[data-t~="b"] p`, `div[data-t^="a"] + p`, `[data-t*=","] span`, `[data-t=x] p`,
	`p:contains("a b")`, `div:contains("x") p`, `:matches("a" (b|c))`, `div:matches("\"") > p`, `:matchesown("x")`,
	"p:first-child ~ p", "p:nth-child(2n+1) p", "div:last-child > p", "p:only-child", ":empty", ":root p",
	"div:nth-of-type(2) ~ span", ".x .y", "#i p", ".x > .y ~ .x", "div.x:not(.y) p.y",
	":not(div, span) > p", "div:not(:has(p)) ~ div", "p:lang(en) span", ":link", "div:first-of-type p",
}

// drawTree builds a small random page: elements of a few tags, classes,
// ids and attribute values, text and comments between them.
func drawTree(r *rand.Rand) *html.Node {
	root := &html.Node{Type: html.DocumentNode}
	htmlEl := element("html")
	root.AppendChild(htmlEl)
	var grow func(n *html.Node, depth int)
	tags := []string{"div", "p", "span", "article", "a", "h2"}
	vals := []string{"a b", "a > b", "a, b", "f(", `q"q`, `a"b`, "x", "b", ","}
	grow = func(n *html.Node, depth int) {
		for i := r.IntN(4); i >= 0 && depth < 7; i-- {
			switch r.IntN(6) {
			case 0:
				n.AppendChild(&html.Node{Type: html.TextNode, Data: []string{"a b", "x", " "}[r.IntN(3)]})
			case 1:
				n.AppendChild(&html.Node{Type: html.CommentNode, Data: "c"})
			default:
				e := element(tags[r.IntN(len(tags))])
				if r.IntN(3) == 0 {
					e.Attr = append(e.Attr, html.Attribute{Key: "class", Val: []string{"x", "y", "x y"}[r.IntN(3)]})
				}
				if r.IntN(3) == 0 {
					e.Attr = append(e.Attr, html.Attribute{Key: "data-t", Val: vals[r.IntN(len(vals))]})
				}
				if r.IntN(8) == 0 {
					e.Attr = append(e.Attr, html.Attribute{Key: "id", Val: "i"})
				}
				if r.IntN(8) == 0 {
					e.Attr = append(e.Attr, html.Attribute{Key: "lang", Val: "en"})
				}
				n.AppendChild(e)
				grow(e, depth+1)
			}
		}
	}
	grow(htmlEl, 0)
	return root
}

func element(tag string) *html.Node {
	return &html.Node{Type: html.ElementNode, Data: tag}
}

// drawSelector builds a random selector of the shapes' parts.
func drawSelector(r *rand.Rand, depth int) string {
	compounds := []string{"div", "p", "span", "article", "*", ".x", "p.y", "#i", "h2", `[data-t="a b"]`,
		`[data-t="a > b"]`, `[data-t='a, b']`, `[data-t="f("]`, `[data-t~=b]`, ":first-child", ":empty", `:contains("a b")`}
	var b strings.Builder
	for i := r.IntN(3); i >= 0; i-- {
		b.WriteString(compounds[r.IntN(len(compounds))])
		if depth < 2 && r.IntN(4) == 0 {
			fmt.Fprintf(&b, ":%s(%s)", []string{"not", "has", "haschild"}[r.IntN(3)], drawSelector(r, depth+1))
		}
		if i > 0 {
			b.WriteString([]string{" ", " > ", " + ", " ~ "}[r.IntN(4)])
		}
	}
	if depth == 0 && r.IntN(4) == 0 {
		b.WriteString(", " + drawSelector(r, depth+1))
	}
	return b.String()
}

// allNodes returns root and the nodes under it, in document order.
func allNodes(root *html.Node) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		out = append(out, n)
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return out
}

// compareWithCascadia reports the nodes of the tree under root where the
// selector src, compiled here, answers otherwise than cascadia: asked in
// queries of their own, in one state for the whole tree (as Rule.Body
// asks), and both with the walks' answers remembered from the start.
func compareWithCascadia(t *testing.T, src string, root *html.Node) {
	t.Helper()
	g, err := cascadia.ParseGroup(src)
	if err != nil {
		return
	}
	sel := newSelector(g)
	shared, remembering := &matchState{keep: true}, &matchState{keep: true, memo: newAnswers()}
	for _, n := range allNodes(root) {
		want := g.Match(n)
		if got := sel.Match(n); got != want {
			t.Fatalf("%q on %s: a query of its own says %v, cascadia %v", src, render(root), got, want)
		}
		if got := sel.match(shared, n); got != want {
			t.Fatalf("%q on %s: one walk's state says %v, cascadia %v", src, render(root), got, want)
		}
		if got := sel.match(remembering, n); got != want {
			t.Fatalf("%q on %s: one walk's state remembering says %v, cascadia %v", src, render(root), got, want)
		}
		if got := sel.match(&matchState{memo: newAnswers()}, n); got != want {
			t.Fatalf("%q on %s: a query of its own remembering says %v, cascadia %v", src, render(root), got, want)
		}
	}
}

func render(n *html.Node) string {
	var b strings.Builder
	html.Render(&b, n)
	return b.String()
}

func TestSelectorMatchesAsCascadia(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	trees := make([]*html.Node, 60)
	for i := range trees {
		trees[i] = drawTree(r)
	}
	for _, src := range selectorShapes {
		if _, err := cascadia.ParseGroup(src); err != nil {
			t.Errorf("%q: cascadia refuses it (%v): the shape tests nothing", src, err)
			continue
		}
		t.Run(src, func(t *testing.T) {
			for _, tree := range trees {
				compareWithCascadia(t, src, tree)
			}
		})
	}
	t.Run("drawn", func(t *testing.T) {
		for i := 0; i < 400; i++ {
			src := drawSelector(r, 0)
			for _, tree := range trees[:15] {
				compareWithCascadia(t, src, tree)
			}
		}
	})
}

func FuzzSelector(f *testing.F) {
	for i, s := range selectorShapes {
		f.Add(s, uint64(i))
	}
	f.Fuzz(func(t *testing.T, src string, seed uint64) {
		if len(src) > 200 {
			return
		}
		compareWithCascadia(t, src, drawTree(rand.New(rand.NewPCG(seed, 7))))
	})
}

// laterShapes are selectors of CSS that the cascadia go.mod names refuses
// (:is(), :where(), :nth-child(… of S)): a later cascadia that parses one
// into a kind of selector compile does not know, holding selectors, fails
// TestSelectorCompilesEveryShape, as that kind is matched by cascadia
// whole.
var laterShapes = []string{
	":is(div p)", "p:is(div > *)", ":where(div p)", "p:where(div ~ *)", ":nth-child(2 of div p)",
	":nth-last-child(1 of div > p)", ":nth-of-type(1 of div p)", ":host(div p)", ":host-context(div p)",
	":current(div p)", ":any(div p)", ":-webkit-any(div p)",
}

// TestSelectorCompilesEveryShape pins that every structure cascadia parses
// is matched here, none left to cascadia's own walks: a later cascadia that
// builds the selectors of selectorShapes otherwise (a field renamed, a kind
// added), or parses one of laterShapes into a kind compile does not know,
// fails it. A kind added for a selector in neither list goes unnoticed.
func TestSelectorCompilesEveryShape(t *testing.T) {
	for _, src := range slices.Concat(selectorShapes, laterShapes) {
		g, err := cascadia.ParseGroup(src)
		if err != nil {
			if slices.Contains(laterShapes, src) {
				continue
			}
			t.Fatalf("%q: %v", src, err)
		}
		m, err := opaque(newSelector(g).root)
		if err != nil {
			t.Errorf("%q: %v", src, err)
		} else if m != nil {
			t.Errorf("%q: %T is matched by cascadia whole, walks and all", src, m)
		}
	}
}

// TestHoldsWalkOfLaterCascadia is the regression test for the check above
// dying with "reflect.Value.Uint on zero Value" on a cascadia whose
// combinedSelector has no field combinator: a kind without the fields it
// reads is named, and a kind it does not know holding selectors walks.
// (The kinds are the test's own, of cascadia's names.)
func TestHoldsWalkOfLaterCascadia(t *testing.T) {
	type combinedSelector struct {
		first, second cascadia.Sel
		comb          byte
	}
	type relativePseudoClassSelector struct {
		kind  string
		match cascadia.SelectorGroup
	}
	type isSelector struct{ match cascadia.SelectorGroup }
	type langSelector struct{ lang string }
	pkg := reflect.TypeFor[isSelector]().PkgPath()
	p, err := cascadia.Parse("p")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		v       any
		want    bool
		wantErr string
	}{
		{"combinator renamed", combinedSelector{first: p, second: p, comb: ' '}, false, "combinedSelector has no field combinator"},
		{"name renamed", relativePseudoClassSelector{kind: "has", match: cascadia.SelectorGroup{p}}, false,
			"relativePseudoClassSelector has no field name"},
		{"kind unknown, holding selectors", isSelector{match: cascadia.SelectorGroup{p}}, true, ""},
		{"kind unknown, holding none", langSelector{lang: "en"}, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := holdsWalk(reflect.ValueOf(c.v), pkg)
			if got != c.want {
				t.Errorf("holdsWalk = %v; want %v", got, c.want)
			}
			if c.wantErr == "" && err != nil || c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)) {
				t.Errorf("holdsWalk's error = %v; want one saying %q", err, c.wantErr)
			}
		})
	}
}

// opaque returns a cascadia selector under m that is matched by cascadia
// whole though it walks the tree, or nil; an error when one's structure is
// not cascadia's as this file reads it.
func opaque(m *matcher) (any, error) {
	if m == nil {
		return nil, nil
	}
	if m.kind == leaf {
		if walks, err := holdsWalk(reflect.ValueOf(m.sel), cascadiaPath); walks || err != nil {
			return m.sel, err
		}
		return nil, nil
	}
	for _, p := range append([]*matcher{m.first, m.second}, m.parts...) {
		if o, err := opaque(p); o != nil || err != nil {
			return o, err
		}
	}
	return nil, nil
}

// holdsWalk reports whether v, a selector of package pkg's (cascadia's),
// holds a combinator, a :has() or :haschild(), or selectors in a kind of
// selector compile does not know; an error when a kind it knows has not
// the field it reads.
func holdsWalk(v reflect.Value, pkg string) (bool, error) {
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return false, nil
		}
		v = v.Elem()
	}
	if v.Kind() == reflect.Slice {
		for i := 0; i < v.Len(); i++ {
			if walks, err := holdsWalk(v.Index(i), pkg); walks || err != nil {
				return walks, err
			}
		}
		return false, nil
	}
	if v.Kind() != reflect.Struct || v.Type().PkgPath() != pkg {
		return false, nil
	}
	selTypes := map[reflect.Type]bool{reflect.TypeFor[cascadia.Sel](): true, reflect.TypeFor[[]cascadia.Sel](): true,
		reflect.TypeFor[cascadia.SelectorGroup](): true}
	switch name := v.Type().Name(); name {
	case "combinedSelector":
		op := v.FieldByName("combinator")
		if !op.IsValid() || op.Kind() != reflect.Uint8 {
			return false, fmt.Errorf("cascadia's %s has no field combinator of type byte", name)
		}
		if op.Uint() != 0 {
			return true, nil
		}
	case "relativePseudoClassSelector":
		f := v.FieldByName("name")
		if !f.IsValid() || f.Kind() != reflect.String {
			return false, fmt.Errorf("cascadia's %s has no field name of type string", name)
		}
		if f.String() == "has" || f.String() == "haschild" {
			return true, nil
		}
	case "compoundSelector":
	default:
		for i := 0; i < v.NumField(); i++ {
			if selTypes[v.Field(i).Type()] {
				return true, nil // selectors within a kind compile does not know
			}
		}
		return false, nil
	}
	for i := 0; i < v.NumField(); i++ {
		if selTypes[v.Field(i).Type()] {
			if walks, err := holdsWalk(v.Field(i), pkg); walks || err != nil {
				return walks, err
			}
		}
	}
	return false, nil
}

// nestedPage returns a page of <div>s nested depth deep with a <p> at each
// level, and no <article>.
func nestedPage(depth int) *html.Node {
	var b strings.Builder
	b.WriteString("<html><body>")
	for i := 0; i < depth; i++ {
		b.WriteString("<div><p>text</p>")
	}
	doc, err := html.Parse(strings.NewReader(b.String()))
	if err != nil {
		panic(err)
	}
	return doc
}

// TestSelectorBoundedOnDeepPage is the regression test for "article div div
// p" taking half a minute on 300 nested <div>s (cascadia: about depth^4/24
// tests): matched over the page, as Rule.Body does, it makes at most the
// budget's tests and a few for each node, for each compound selector;
// asked of the deepest <p> alone, as the cleaning asks, a few for each of
// its ancestors.
func TestSelectorBoundedOnDeepPage(t *testing.T) {
	const depth = 300
	doc := nestedPage(depth)
	nodes := allNodes(doc)
	cases := []struct {
		src       string
		compounds int
	}{
		{"article div div p", 4},
		{"article div div div div p", 6},
		{"div:has(article div p) p", 5},
		{"article ~ div div p, :not(article div) div:has(div div article) p", 11},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			g, err := cascadia.ParseGroup(c.src)
			if err != nil {
				t.Fatal(err)
			}
			sel := newSelector(g)
			limit := (walkBudget + 4*len(nodes)) * c.compounds
			s := &matchState{keep: true, cap: limit + 1}
			got := 0
			capped(t, "one walk", func() {
				for _, n := range nodes {
					if sel.match(s, n) {
						got++
					}
				}
			})
			if got != 0 {
				t.Errorf("matched %d nodes; want none (no <article>)", got)
			}
			var p *html.Node // the deepest <p>
			for _, n := range nodes {
				if n.Data == "p" {
					p = n
				}
			}
			limit = (walkBudget + 4*(depth+2)) * c.compounds
			capped(t, "a query of the deepest <p>", func() {
				if sel.match(&matchState{cap: limit + 1}, p) {
					t.Errorf("the deepest <p> matched")
				}
			})
		})
	}
}

// TestSelectorBoundedNestingHasChild is the regression test for
// :haschild(X > *), which asked X of a parent once for each of its
// children: nested k deep on a <div> of 40 <p>s that is 40^k tests. As
// above, matched over the page in one state or asked of each node in a
// query of its own, it makes at most the budget's tests and a few for each
// node, for each compound selector.
func TestSelectorBoundedNestingHasChild(t *testing.T) {
	doc, err := html.Parse(strings.NewReader("<html><body><div>" + strings.Repeat("<p>x</p>", 40)))
	if err != nil {
		t.Fatal(err)
	}
	nodes := allNodes(doc)
	cases := []struct {
		src       string
		compounds int
		want      int // nodes matched
	}{
		{":haschild(:haschild(:haschild(:haschild(:haschild(h3 > *) > *) > *) > *) > *)", 11, 0},
		{":haschild(:haschild(:haschild(:haschild(:haschild(h3 + *) + *) + *) + *) + *)", 11, 0},
		{":not(:haschild(:haschild(:haschild(:haschild(h3 > p + *) > *) > *) > *)) p", 11, 40},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			g, err := cascadia.ParseGroup(c.src)
			if err != nil {
				t.Fatal(err)
			}
			sel := newSelector(g)
			limit := (walkBudget + 4*len(nodes)) * c.compounds
			s := &matchState{keep: true, cap: limit + 1}
			got, alone := 0, 0
			capped(t, "one walk", func() {
				for _, n := range nodes {
					if sel.match(s, n) {
						got++
					}
				}
			})
			capped(t, "a query of one node", func() {
				for _, n := range nodes {
					if sel.match(&matchState{cap: limit + 1}, n) {
						alone++
					}
				}
			})
			if got != c.want || alone != c.want {
				t.Errorf("matched %d nodes in one walk, %d in queries of their own; want %d", got, alone, c.want)
			}
		})
	}
}

// TestBodyMemoryOnWidePage is the regression test for the walks' answers
// taking about 100 bytes each, in a map keyed by walk and node: Body of
// `h3 ~ p ~ p ~ p ~ p ~ p ~ p` over a million sibling <p>s allocated
// 426 MB beside the page's 114 MB. The answers take an entry in a map for
// each node and a byte for each walk and node: here, under 200 bytes a node
// (about 80), where they took over 500.
func TestBodyMemoryOnWidePage(t *testing.T) {
	const siblings = 100_000
	doc, err := html.Parse(strings.NewReader("<html><body><article>" + strings.Repeat("<p>", siblings)))
	if err != nil {
		t.Fatal(err)
	}
	set, err := Parse([]byte("rules:\n  - body: 'h3 ~ p ~ p ~ p ~ p ~ p ~ p'\n"), "rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := set.rules[0].Body(doc)
	runtime.ReadMemStats(&after)
	if got != nil {
		t.Errorf("Body selected %d nodes; want none (no <h3>)", len(got))
	}
	if perNode := (after.TotalAlloc - before.TotalAlloc) / siblings; perNode > 200 {
		t.Errorf("Body allocated %d bytes a node; want at most 200", perNode)
	} else {
		t.Logf("Body allocated %d bytes a node", perNode)
	}
}

// TestRuleBodyOnDeepPage is the same through a rules file, with a selector
// cascadia would take hours on (depth^5/120 tests): the rule's body selects
// nothing on the deep page and its drop nothing, and where an <article>
// holds the <div>s the body is the outermost elements cascadia selects.
func TestRuleBodyOnDeepPage(t *testing.T) {
	set, err := Parse([]byte("rules:\n  - name: deep\n    body: 'article div div div p'\n    drop: 'article div div div p'\n"), "rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := set.Match("https://deep.example/")
	const depth, compounds = 300, 5
	doc := nestedPage(depth)
	nodes := allNodes(doc)
	limit := (walkBudget + 4*len(nodes)) * compounds
	capped(t, "Body", func() {
		if got := r.bodyIn(doc, &matchState{keep: true, cap: limit + 1}); got != nil {
			t.Errorf("Body selected %d nodes; want none", len(got))
		}
	})
	capped(t, "a drop selector's query", func() {
		for _, n := range nodes {
			if r.drop[0].match(&matchState{cap: (walkBudget+4*(depth+2))*compounds + 1}, n) {
				t.Fatalf("the drop selector matched %s; want nothing", n.Data)
			}
		}
	})
	for _, n := range nodes {
		if r.Drops(n) {
			t.Fatalf("Drops(%s) is true; want false", n.Data)
		}
	}
	var b strings.Builder
	b.WriteString("<html><body><article>")
	for i := 0; i < 300; i++ {
		b.WriteString("<div><p>text</p>")
	}
	doc, err = html.Parse(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var got []*html.Node
	limit = (walkBudget + 4*len(allNodes(doc))) * compounds
	capped(t, "Body", func() { got = r.bodyIn(doc, &matchState{keep: true, cap: limit + 1}) })
	if want := outermost(doc, set.rules[0].body.group); len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("Body selected %d nodes; cascadia %d", len(got), len(want))
	}
	if body := r.Body(doc); !slices.Equal(body, got) {
		t.Errorf("Body selected %d nodes; its walk in a capped state %d", len(body), len(got))
	}
}

// capped runs f, whose queries' states have a cap on their tests; a query
// that passes it fails the test at once with its counts, where a lost bound
// would run on until go test's timeout.
func capped(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if e := recover(); e != nil {
			c, ok := e.(overCap)
			if !ok {
				panic(e)
			}
			t.Fatalf("%s made more than %d tests (%d walk steps): the bound is lost", what, c.tests-1, c.steps)
		}
	}()
	f()
}
