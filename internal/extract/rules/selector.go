package rules

import (
	"reflect"
	"unsafe"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
)

// A selector is a CSS selector group as cascadia parses it, matched with
// cascadia's own tests of an element (its tag, classes, attributes,
// pseudo-classes) but with the structure that walks the tree — the
// combinators (descendant, >, +, ~) and :has() and :haschild() — matched
// here, so that their answers for a node can be remembered.
//
// cascadia matches "article div div p" by walking up from each <p> to
// every <div> above it, and up from each of those again: on a page of
// <div>s nested d deep, with no <article>, that is d^3 tests for one
// element, d^4 for the page. A query is matched as cascadia matches it,
// counting the nodes its walks go to; past walkBudget of them, each walk
// begun remembers its answers (a node has an ancestor matching "article
// div", a previous sibling matching "h2", a descendant matching "p"), so
// that no walk goes over a node twice for one compound selector, and the
// answers of >, + and :haschild() for a node, asked again from each node
// next to it (the children of one for :haschild(div > *)): the rest
// of the query costs a few tests for each node it reaches and compound
// selector. (The walks from the node a query asks of are made once by the
// query, and remember nothing when the answers serve that query alone.)
// Normal pages never reach the budget and are matched as cascadia matches
// them.
//
// The answers are those of cascadia on the tree as it is when asked: the
// remembered ones live for one query (Rule.Drops, asked while the
// cleaning changes the tree) or for one walk of a tree that does not
// change (Rule.Body), which gives stepsPerNode more to the budget for each
// node it asks of.
type selector struct {
	group cascadia.SelectorGroup // as parsed
	root  *matcher
}

// walkBudget is how many nodes a query's walks go to before the walks begun
// remember their answers; a state asked of many nodes (Rule.Body's) allows
// stepsPerNode more for each.
const (
	walkBudget   = 1024
	stepsPerNode = 8
)

// newSelector compiles a group cascadia parsed.
func newSelector(g cascadia.SelectorGroup) *selector {
	return &selector{group: g, root: (&compiler{}).group(g)}
}

// matcher is a selector, or a part of one, compiled: match reports whether
// n matches it, as cascadia's Match would, counting its tests in s. It is
// one type, not an interface of each kind's, so that a query's state can
// stay on the stack.
type matcher struct {
	kind          matcherKind
	sel           cascadia.Matcher // a leaf's
	parts         []*matcher       // anyOf's and allOf's
	first, second *matcher         // combined's; first is nil for a selector of nothing
	op            byte             // combined's: ' ', '>', '+', '~' or 0 (first alone)
	name          string           // relative's: "not", "has" or "haschild"
	id            int              // combined's and relative's: names its walk, or its answers, among the selector's
}

type matcherKind uint8

const (
	leaf     matcherKind = iota // a part of a selector that walks no tree, matched by cascadia
	anyOf                       // a selector group: one of its parts matches
	allOf                       // a compound selector: all its parts match (an element when it has none, "*")
	combined                    // second matches, and first where the combinator says
	relative                    // :not(), :has() or :haschild() of a selector group (first)
)

func (m *matcher) match(s *matchState, n *html.Node) bool {
	switch m.kind {
	case leaf:
		s.test()
		return m.sel.Match(n)
	case anyOf:
		for _, p := range m.parts {
			if p.match(s, n) {
				return true
			}
		}
		return false
	case allOf:
		s.test()
		if len(m.parts) == 0 {
			return n.Type == html.ElementNode
		}
		for _, p := range m.parts {
			if !p.match(s, n) {
				return false
			}
		}
		return true
	case combined:
		return m.combined(s, n)
	case relative:
		return m.relative(s, n)
	}
	panic("rules: unknown matcher")
}

func (m *matcher) combined(s *matchState, n *html.Node) bool {
	if m.first == nil {
		return false
	}
	switch m.op {
	case 0:
		return m.first.match(s, n)
	case '>', '+':
		return s.near(m, n)
	case ' ':
		return m.second.match(s, n) && s.walk(m.first, m.id, n, false)
	case '~':
		return m.second.match(s, n) && s.walk(m.first, m.id, n, true)
	}
	panic("rules: unknown combinator")
}

func (m *matcher) relative(s *matchState, n *html.Node) bool {
	s.test()
	if n.Type != html.ElementNode {
		return false
	}
	switch m.name {
	case "not":
		return !m.first.match(s, n)
	case "has":
		return s.hasDescendant(m, n)
	case "haschild":
		return s.near(m, n)
	}
	panic("rules: unknown pseudo-class " + m.name)
}

// adjacent reports whether n matches m, combined by '>' or '+': whether
// its parent, or previous sibling element, matches m.first.
func (m *matcher) adjacent(s *matchState, n *html.Node) bool {
	if !m.second.match(s, n) {
		return false
	}
	if m.op == '>' {
		s.step()
		return n.Parent != nil && m.first.match(s, n.Parent)
	}
	for p := n.PrevSibling; p != nil; p = p.PrevSibling {
		s.step()
		if p.Type != html.TextNode && p.Type != html.CommentNode {
			return m.first.match(s, p)
		}
	}
	return false
}

// hasChild reports whether a child of n matches m's group (:haschild()).
func (m *matcher) hasChild(s *matchState, n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		s.step()
		if m.first.match(s, c) {
			return true
		}
	}
	return false
}

// compiler turns cascadia's selectors into matchers, numbering their walks.
type compiler struct{ walks int }

// group compiles a selector group; a group that walks no tree is matched by
// cascadia whole.
func (c *compiler) group(g cascadia.SelectorGroup) *matcher {
	if !walks(reflect.ValueOf(g)) {
		return &matcher{kind: leaf, sel: g}
	}
	if len(g) == 1 {
		return c.sel(g[0])
	}
	out := &matcher{kind: anyOf, parts: make([]*matcher, len(g))}
	for i, sel := range g {
		out.parts[i] = c.sel(sel)
	}
	return out
}

// sel compiles one of cascadia's selectors. A selector of a kind this file
// does not know (a later cascadia's) is matched by cascadia, as before.
func (c *compiler) sel(sel cascadia.Sel) *matcher {
	v := reflect.ValueOf(sel)
	if sel == nil || !walks(v) || v.Type().PkgPath() != cascadiaPath {
		return &matcher{kind: leaf, sel: sel}
	}
	f := addressable(v)
	switch v.Type().Name() {
	case "combinedSelector":
		first, ok1 := field[cascadia.Sel](f, "first")
		second, ok2 := field[cascadia.Sel](f, "second")
		op, ok3 := field[byte](f, "combinator")
		if ok1 && ok2 && ok3 {
			m := &matcher{kind: combined, op: op, id: c.walks}
			c.walks++
			if first != nil {
				m.first = c.sel(first)
			}
			if second != nil {
				m.second = c.sel(second)
			}
			return m
		}
	case "compoundSelector":
		if parts, ok := field[[]cascadia.Sel](f, "selectors"); ok {
			out := &matcher{kind: allOf, parts: make([]*matcher, len(parts))}
			for i, p := range parts {
				out.parts[i] = c.sel(p)
			}
			return out
		}
	case "relativePseudoClassSelector":
		name, ok1 := field[string](f, "name")
		g, ok2 := field[cascadia.SelectorGroup](f, "match")
		if ok1 && ok2 && (name == "not" || name == "has" || name == "haschild") {
			m := &matcher{kind: relative, name: name, id: c.walks}
			c.walks++
			m.first = c.group(g)
			return m
		}
	}
	return &matcher{kind: leaf, sel: sel}
}

const cascadiaPath = "github.com/andybalholm/cascadia"

// walks reports whether a selector of cascadia's, or a part of one, walks
// the tree: holds a combinator or a :has() or :haschild(). The parts of a
// selector of a kind this file does not know are not looked into (it is
// matched by cascadia whole, walks or not).
func walks(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		return !v.IsNil() && walks(v.Elem())
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			if walks(v.Index(i)) {
				return true
			}
		}
		return false
	case reflect.Struct:
	default:
		return false
	}
	t := v.Type()
	if t.PkgPath() != cascadiaPath {
		return false
	}
	switch t.Name() {
	case "combinedSelector":
		if op := v.FieldByName("combinator"); op.IsValid() && op.Kind() == reflect.Uint8 && op.Uint() != 0 {
			return true
		}
		return walks(v.FieldByName("first")) || walks(v.FieldByName("second"))
	case "compoundSelector":
		return walks(v.FieldByName("selectors"))
	case "relativePseudoClassSelector":
		if name := v.FieldByName("name"); name.IsValid() && name.Kind() == reflect.String && name.String() != "not" {
			return true
		}
		return walks(v.FieldByName("match"))
	}
	return false
}

// addressable returns an addressable copy of struct v, whose unexported fields
// field can read.
func addressable(v reflect.Value) reflect.Value {
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}

// field reads the unexported field name of an addressable struct, when it
// is there and of type T. cascadia keeps its selectors' parts unexported;
// the version go.mod names is the one this reads, and a test checks that
// every selector's structure is read (TestSelectorCompilesEveryShape).
func field[T any](v reflect.Value, name string) (T, bool) {
	var zero T
	f := v.FieldByName(name)
	if !f.IsValid() || f.Type() != reflect.TypeFor[T]() {
		return zero, false
	}
	return *(*T)(unsafe.Pointer(f.UnsafeAddr())), true
}

// matchState is a query's, or a walk's of a tree that does not change
// (keep): the tests and walk steps made, and the walks' answers once past
// the budget.
type matchState struct {
	keep    bool         // the answers hold for every query: the tree does not change between them
	subject *html.Node   // the node the query at hand asks of
	tests   int          // tests of an element (leaf, compound, pseudo-class) made
	cap     int          // when positive, the tests a query may make before it panics with overCap (tests set it)
	steps   int          // nodes the walks, and >, + and :haschild(), went to
	asked   int          // nodes asked of
	memo    *answers     // the walks' answers; nil until the walks pass the budget
	path    []*html.Node // the nodes a walk passed, whose answer it gives (a stack)
}

// match reports whether n matches the selector, as cascadia's Match.
func (sel *selector) match(s *matchState, n *html.Node) bool {
	s.asked++
	s.subject = n
	return sel.root.match(s, n)
}

// Match reports whether n matches the selector, in a query of its own.
func (sel *selector) Match(n *html.Node) bool {
	if sel.root.kind == leaf {
		return sel.root.sel.Match(n) // no walk: cascadia's own
	}
	var s matchState
	return sel.match(&s, n)
}

// overCap is the panic of a state whose tests passed its cap: a test that
// counts a query's tests sets the cap, so that a query whose bound is lost
// fails at once, with its counts, and does not run on until go test's
// timeout.
type overCap struct{ tests, steps int }

// test counts a test of an element.
func (s *matchState) test() {
	s.tests++
	if s.tests == s.cap {
		panic(overCap{s.tests, s.steps})
	}
}

// step counts a node a walk goes to; once the walks have gone to more than
// the budget allows (walkBudget, and stepsPerNode for each node asked of),
// the walks begun from then on remember their answers.
func (s *matchState) step() {
	s.steps++
	if s.memo == nil && s.steps > walkBudget+stepsPerNode*s.asked {
		s.memo = newAnswers()
	}
}

// remembers reports whether a walk from n remembers its answers: past the
// budget, unless n is the node the query asks of, whose walks a query
// makes once (and a query of its own would only fill the memo).
func (s *matchState) remembers(n *html.Node) bool {
	return s.memo != nil && (s.keep || n != s.subject)
}

// walk reports whether a node beyond n, its ancestors or, by sideways, its
// previous siblings, matches m: cascadia's descendant and ~ combinators,
// which try the nearest node first. A walk that remembers (id names it)
// stops at a node whose answer it knows and remembers its answer for each
// node it passes after n. (Not for n: a walk begins at a node once for
// each walk that would pass it, and a node no walk passes would only fill
// the memo, as each sibling before a <p> for "article div p ~ p" would.)
func (s *matchState) walk(m *matcher, id int, n *html.Node, sideways bool) bool {
	if !s.remembers(n) {
		for p := next(n, sideways); p != nil; p = next(p, sideways) {
			s.step()
			if m.match(s, p) {
				return true
			}
		}
		return false
	}
	base, found := len(s.path), false
	for c := n; ; {
		if v, ok := s.memo.get(id, c); ok {
			found = v
			break
		}
		s.path = append(s.path, c)
		p := next(c, sideways)
		if p == nil {
			break
		}
		s.step()
		if m.match(s, p) {
			found = true
			break
		}
		c = p
	}
	for _, c := range s.path[min(base+1, len(s.path)):] {
		s.memo.set(id, c, found)
	}
	s.path = s.path[:base]
	return found
}

// near reports whether n matches m, combined by '>' or '+' or a
// :haschild(), whose tests go to the nodes next to n. Past the budget its
// answer for n is remembered (by m.id and n), as it may be asked again for
// n from each node next to it: in :haschild(div > *) a <div> is asked once
// for each of its children, and k such selectors nested would cost the
// children's number to the k-th power. (The node a query asks of is no
// exception: it is asked as the others are.)
func (s *matchState) near(m *matcher, n *html.Node) bool {
	remember := s.memo != nil
	if remember {
		if v, ok := s.memo.get(m.id, n); ok {
			return v
		}
	}
	var found bool
	if m.kind == combined {
		found = m.adjacent(s, n)
	} else {
		found = m.hasChild(s, n)
	}
	if remember {
		s.memo.set(m.id, n, found)
	}
	return found
}

// next returns n's parent, or sideways its previous sibling.
func next(n *html.Node, sideways bool) *html.Node {
	if sideways {
		return n.PrevSibling
	}
	return n.Parent
}

// hasDescendant reports whether a descendant of n matches r's group,
// searched depth first as cascadia does; a search that remembers (begun
// past the budget) remembers its answer for n and each element under it.
func (s *matchState) hasDescendant(r *matcher, n *html.Node) bool {
	return s.search(r, n, s.remembers(n))
}

func (s *matchState) search(r *matcher, n *html.Node, remember bool) bool {
	if remember {
		if v, ok := s.memo.get(r.id, n); ok {
			return v
		}
	}
	found := false
	for c := n.FirstChild; c != nil && !found; c = c.NextSibling {
		s.step()
		found = r.first.match(s, c) || (c.Type == html.ElementNode && s.search(r, c, remember))
	}
	if remember {
		s.memo.set(r.id, n, found)
	}
	return found
}
