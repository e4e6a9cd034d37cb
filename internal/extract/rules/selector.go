package rules

// CSS selectors matched so that their cost stays near the page's size and a
// page's deadline can stop them. cascadia matches a selector's combinators
// by recursion without memory: "article div div p" tries every pair of a
// <p>'s ancestors, and on a page of divs nested 300 deep a 100 KB page took
// 33 s; each more descendant combinator multiplies that by the depth. The
// rules split a selector at its combinators themselves, let cascadia match
// the compound selectors between them, and match the combinators with a
// memo of which element matched which part (linear in the elements, for each
// part), calling a check at each element they visit. The combinators within a
// pseudo-class's parentheses (":has(…)", ":not(…)") are cascadia's; a
// selector that nests more than maxNestedWalks walks of the tree there is
// refused when the rules are read (nestedWalks).

import (
	"fmt"
	"strings"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
)

// selector is a compiled selector group: it matches an element that one of
// its chains matches.
type selector []chain

// chain is one complex selector: its compound selectors, left to right,
// and the combinators between them (combs[i] joins parts[i] and
// parts[i+1]: ' ', '>', '+' or '~').
type chain struct {
	parts []cascadia.Sel
	combs []byte
}

// maxNestedWalks is the most walks over the tree (":has(…)", a descendant
// or a following-sibling combinator) a selector may nest within one
// compound's pseudo-classes, which cascadia matches without memory: each
// multiplies the cost of one match by up to the page's elements or depth.
// One keeps a match under about 60,000 steps (":has(img)" over the
// elements, ":not(.ad .share)" up the depth).
const maxNestedWalks = 1

// compileSelector compiles src, a selector group, or says why it cannot.
func compileSelector(src string) (selector, error) {
	if _, err := cascadia.ParseGroup(src); err != nil {
		return nil, err // cascadia's message, as it checks all of src
	}
	var sel selector
	for _, complex := range splitTop(stripComments(src), ",") {
		parts, combs := splitChain(complex)
		c := chain{combs: combs}
		for _, p := range parts {
			if w := nestedWalks(p); w > maxNestedWalks {
				return nil, &costlyError{part: p, walks: w}
			}
			s, err := cascadia.Parse(p)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", p, err)
			}
			c.parts = append(c.parts, s)
		}
		sel = append(sel, c)
	}
	return sel, nil
}

// costlyError refuses a selector whose part nests more walks over the
// tree than maxNestedWalks.
type costlyError struct {
	part  string
	walks int
}

func (e *costlyError) Error() string {
	return fmt.Sprintf("%q nests %d walks over the page in its pseudo-classes (:has(), or a descendant or ~ combinator within :has() or :not()), more than the %d a selector may: its matching could take time exponential in the page's size", e.part, e.walks, maxNestedWalks)
}

// scan calls f with each byte of s (an escaped byte with the backslash
// before it), how deep in parentheses it stands and whether it is syntax:
// outside strings and brackets, not escaped; f returns false to stop.
func scan(s string, f func(i, depth int, plain bool) bool) {
	depth, bracket := 0, false
	var quote byte
	for i := 0; i < len(s); i = nextByte(s, i) {
		c, plain := s[i], false
		switch {
		case c == '\\':
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[':
			bracket = true
		case c == ']':
			bracket = false
		case bracket:
		case c == '(':
			depth++
			plain = true
		case c == ')':
			depth--
			plain = true
		default:
			plain = true
		}
		if !f(i, depth, plain) {
			return
		}
	}
}

// splitTop splits s at each sep outside parentheses, strings and brackets.
func splitTop(s, sep string) []string {
	var out []string
	start := 0
	scan(s, func(i, depth int, plain bool) bool {
		if plain && depth == 0 && strings.HasPrefix(s[i:], sep) {
			out = append(out, s[start:i])
			start = i + len(sep)
		}
		return true
	})
	return append(out, s[start:])
}

// splitChain splits a complex selector at its combinators (white space,
// '>', '+', '~' outside parentheses, strings and brackets) into its
// compound selectors and the combinators between them.
func splitChain(s string) (parts []string, combs []byte) {
	s = stripComments(s)
	var b strings.Builder
	var comb byte // the combinator met since the last compound's end
	scan(s, func(i, depth int, plain bool) bool {
		c := s[i]
		if plain && depth == 0 && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '>' || c == '+' || c == '~') {
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' || comb == 0 {
				comb = c
			}
			return true
		}
		if comb != 0 && b.Len() > 0 {
			parts = append(parts, b.String())
			if comb != '>' && comb != '+' && comb != '~' {
				comb = ' '
			}
			combs = append(combs, comb)
			b.Reset()
		}
		comb = 0
		b.WriteString(s[i:nextByte(s, i)])
		return true
	})
	return append(parts, b.String()), combs
}

// nextByte returns where the byte at i ends as scan reads it: an escape
// runs from its backslash past the byte it escapes, or past its hex digits
// (up to six) and the white space that may end them ("\\31 23").
func nextByte(s string, i int) int {
	if s[i] != '\\' || i+1 >= len(s) {
		return i + 1
	}
	j := i + 1
	for j < len(s) && j < i+7 && isHex(s[j]) {
		j++
	}
	if j == i+1 {
		return i + 2
	}
	if j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\f') {
		j++
	} else if strings.HasPrefix(s[j:], "\r\n") {
		j += 2
	} else if j < len(s) && s[j] == '\r' {
		j++
	}
	return j
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// stripComments replaces the comments in s (/* … */, outside strings and
// brackets) by a space, as cascadia reads them.
func stripComments(s string) string {
	if !strings.Contains(s, "/*") {
		return s
	}
	var b strings.Builder
	skip := 0 // where the comment being cut ends
	scan(s, func(i, depth int, plain bool) bool {
		switch {
		case i < skip:
		case plain && strings.HasPrefix(s[i:], "/*"):
			skip = len(s)
			if j := strings.Index(s[i+2:], "*/"); j >= 0 {
				skip = i + 2 + j + 2
			}
			b.WriteByte(' ')
		default:
			b.WriteString(s[i:nextByte(s, i)])
		}
		return true
	})
	return b.String()
}

// nestedWalks returns how many walks over the tree a compound selector's
// pseudo-classes nest, one within another, as cascadia matches them: a
// ":has(" walks the element's descendants, a descendant or a following
// sibling combinator in the selector of a :has(), :not() or :haschild()
// the ancestors or siblings of each element it is tried on. Walks side by
// side add to the cost ("div:has(img):has(video)": one); nested ones
// multiply it ("div:has(p:has(span))", "div:has(article p)",
// "p:not(.a .b .c)": two).
func nestedWalks(compound string) int {
	most := 0
	scan(compound, func(i, depth int, plain bool) bool {
		if !plain || depth != 0 || compound[i] != ':' {
			return true
		}
		rest := strings.ToLower(compound[i+1:])
		for _, name := range []string{"has(", "not(", "haschild("} {
			if !strings.HasPrefix(rest, name) {
				continue
			}
			w := 0
			for _, complex := range splitTop(parenthesized(compound[i+len(name):]), ",") {
				w = max(w, chainWalks(strings.TrimLeft(complex, " >+~")))
			}
			if name == "has(" {
				w++
			}
			most = max(most, w)
		}
		return true
	})
	return most
}

// chainWalks returns how many walks over the tree a complex selector nests
// as cascadia matches it (nestedWalks): each descendant or following
// sibling combinator tries the selector before it on each ancestor or
// sibling.
func chainWalks(complex string) int {
	parts, combs := splitChain(complex)
	w := nestedWalks(parts[0])
	for i, c := range combs {
		if c == ' ' || c == '~' {
			w++
		}
		w = max(w, nestedWalks(parts[i+1]))
	}
	return w
}

// parenthesized returns what the parentheses s opens with hold.
func parenthesized(s string) string {
	end := len(s)
	scan(s, func(i, depth int, plain bool) bool {
		if depth == 0 && i > 0 {
			end = i
			return false
		}
		return true
	})
	if end <= 1 {
		return ""
	}
	return s[1:end]
}

// matcher matches a selector's chains with a memo of the parts each element
// matched (valid while the tree is not changed) and calls check at each
// element it visits.
type matcher struct {
	sel   selector
	check func()
	memo  map[memoKey]bool
}

// memoKey names what the memo holds: whether n matches chain's parts up to
// end (kind 0), or whether one of n's ancestors (kind ' ') or previous
// siblings (kind '~') does.
type memoKey struct {
	n          *html.Node
	chain, end int
	kind       byte
}

// match reports whether the selector matches n.
func (m *matcher) match(n *html.Node) bool {
	for i := range m.sel {
		if m.matchPart(n, i, len(m.sel[i].parts)-1) {
			return true
		}
	}
	return false
}

// matchPart reports whether n matches chain ci's parts up to end, n
// matching parts[end] and the parts before it n's relatives as the
// combinators say.
func (m *matcher) matchPart(n *html.Node, ci, end int) bool {
	if m.check != nil {
		m.check()
	}
	c := m.sel[ci]
	if len(c.parts) == 1 {
		return c.parts[0].Match(n) // tried once on each element
	}
	key := memoKey{n, ci, end, 0}
	if v, ok := m.memo[key]; ok {
		return v
	}
	v := c.parts[end].Match(n) && (end == 0 || m.related(n, ci, end))
	m.remember(key, v)
	return v
}

func (m *matcher) remember(key memoKey, v bool) {
	if m.memo == nil {
		m.memo = map[memoKey]bool{}
	}
	m.memo[key] = v
}

// someBefore reports whether one of n's relatives that next reaches (its
// parent and theirs, or its previous siblings) matches chain ci's parts up
// to end, and remembers it of each relative it passes, so that the
// relatives of all the elements are looked at once.
func (m *matcher) someBefore(n *html.Node, ci, end int, kind byte, next func(*html.Node) *html.Node) bool {
	path := []*html.Node{n}
	v := false
	for p := next(n); p != nil; p = next(p) {
		if m.matchPart(p, ci, end) {
			v = true
			break
		}
		if r, ok := m.memo[memoKey{p, ci, end, kind}]; ok {
			v = r
			break
		}
		path = append(path, p)
	}
	for _, p := range path {
		m.remember(memoKey{p, ci, end, kind}, v)
	}
	return v
}

func parent(n *html.Node) *html.Node      { return n.Parent }
func prevSibling(n *html.Node) *html.Node { return n.PrevSibling }

// related reports whether n has the relative that chain ci's combinator
// before parts[end] asks for, matching the parts before it, as cascadia
// reads the combinators.
func (m *matcher) related(n *html.Node, ci, end int) bool {
	switch m.sel[ci].combs[end-1] {
	case ' ':
		return m.someBefore(n, ci, end-1, ' ', parent)
	case '>':
		return n.Parent != nil && m.matchPart(n.Parent, ci, end-1)
	case '+':
		for p := n.PrevSibling; p != nil; p = p.PrevSibling {
			if p.Type != html.TextNode && p.Type != html.CommentNode {
				return m.matchPart(p, ci, end-1)
			}
		}
	case '~':
		return m.someBefore(n, ci, end-1, '~', prevSibling)
	}
	return false
}
