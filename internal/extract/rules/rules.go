// Package rules owns site rules for article extraction: per host or URL
// pattern, the CSS selector of the article body, the parts to drop (by
// selector or by attribute pattern), the boilerplate to strip from the text
// and the pattern of URLs that are articles.
//
// Rules are written in YAML:
//
//	rules:
//	  - name: example-news          # names the rule in messages
//	    hosts: [example.com]        # the host and its subdomains
//	    url: '^https://example\.com/(news|sport)/'  # or a URL regexp
//	    article_url: '/\d{4}/\d{2}/\d{2}/'          # other URLs are skipped
//	    body: 'article .story-body'                 # CSS selector
//	    drop: ['.related', 'aside.promo']           # CSS selectors
//	    drop_attr:                                  # attribute regexps
//	      - {tag: div, attr: class, match: '^author'}
//	    strip: ['Subscribe to our newsletter']      # literal text
//	    strip_regex: ['(?m)^© .*$']                 # regexps
//
// A host matches itself and its subdomains, in any case and with or
// without a final dot; "*.example.com" is read as example.com, which
// matches its subdomains already. The first rule whose hosts or url match
// a page applies; a rule with neither applies to every page, so put it
// last. A file without rules (empty, or without a rules list) is refused:
// "rules: []" says none. Unknown keys, bad CSS
// selectors and bad regexps are errors naming the file, line and rule, and
// so are a host that is no host name (a URL) and a rule or host an earlier
// rule takes first (a site given twice, a rule after the one for every
// page): it would never apply.
//
// CSS selectors are cascadia's, and select what it selects; their
// combinators and :has() are matched in time bounded by the page's nodes
// (selector.go), not cascadia's, which is exponential in how many
// combinators a selector chains on a deeply nested page.
package rules

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"golang.org/x/net/html"
)

// Set is an ordered list of compiled rules. A nil *Set has no rules. A Set
// is read-only after Parse and safe for concurrent use.
type Set struct {
	rules []*Rule
}

// Rule is one compiled site rule.
type Rule struct {
	// Name is the rule's name, or "#N" for the N-th unnamed rule.
	Name string
	// File and Line are where the rule starts; File is "" for a rule
	// given without a file (a feed's own rule), whose Name then says what
	// it is.
	File string
	Line int

	hosts      []string
	url        *regexp.Regexp
	articleURL *regexp.Regexp
	body       *selector
	bodySrc    string // body as written
	drop       []*selector
	dropAttr   []AttrFilter
	strip      []*regexp.Regexp
}

// AttrFilter drops elements whose attribute value matches a regexp.
type AttrFilter struct {
	// Tag restricts the filter to one element name; empty means any.
	Tag string
	// Attr is the attribute's name, e.g. "class" or "id".
	Attr string
	// Match is searched for in the attribute's value (anchor it with ^ and
	// $ to match the whole value).
	Match *regexp.Regexp
}

// Len returns the number of rules.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.rules)
}

// Match returns the first rule that applies to the page at rawURL, or nil.
func (s *Set) Match(rawURL string) *Rule {
	if s == nil {
		return nil
	}
	host := ""
	if u, err := url.Parse(rawURL); err == nil {
		host = hostKey(u.Hostname())
	}
	for _, r := range s.rules {
		if r.applies(rawURL, host) {
			return r
		}
	}
	return nil
}

// hostKey returns a host name as rules compare it: in lower case, without
// the dot that may end a fully qualified name ("PORT.example." is
// port.example, as DNS reads it).
func hostKey(h string) string {
	return strings.TrimSuffix(strings.ToLower(h), ".")
}

func (r *Rule) applies(rawURL, host string) bool {
	if len(r.hosts) == 0 && r.url == nil {
		return true
	}
	for _, h := range r.hosts {
		if host == h || strings.HasSuffix(host, "."+h) {
			return true
		}
	}
	return r.url != nil && r.url.MatchString(rawURL)
}

// IsArticleURL reports whether the rule lets rawURL be an article: true
// when the rule has no article_url pattern or the pattern matches.
func (r *Rule) IsArticleURL(rawURL string) bool {
	return r == nil || r.articleURL == nil || r.articleURL.MatchString(rawURL)
}

// Body returns the elements the rule's body selector selects in the tree
// under root, outermost only, in document order; nil when the rule has no
// body selector or it selects nothing.
func (r *Rule) Body(root *html.Node) []*html.Node {
	if r == nil || r.body == nil {
		return nil
	}
	return r.bodyIn(root, &matchState{keep: true}) // the tree does not change during the walk
}

// bodyIn is Body, its queries made in state s.
func (r *Rule) bodyIn(root *html.Node, s *matchState) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && r.body.match(s, n) {
			out = append(out, n)
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return out
}

// BodySelector returns the rule's body selector as written; "" when it has
// none.
func (r *Rule) BodySelector() string {
	if r == nil {
		return ""
	}
	return r.bodySrc
}

// Drops reports whether the rule removes element n (and its subtree), by
// its drop selectors on the tree as it is now: n's answer is its own,
// remembered by no other call.
func (r *Rule) Drops(n *html.Node) bool {
	if r == nil || n.Type != html.ElementNode {
		return false
	}
	for _, sel := range r.drop {
		if sel.Match(n) {
			return true
		}
	}
	for _, f := range r.dropAttr {
		if f.Tag != "" && !strings.EqualFold(f.Tag, n.Data) {
			continue
		}
		for _, a := range n.Attr {
			if a.Namespace == "" && strings.EqualFold(a.Key, f.Attr) && f.Match.MatchString(a.Val) {
				return true
			}
		}
	}
	return false
}

// CanDrop reports whether the rule drops anything at all.
func (r *Rule) CanDrop() bool {
	return r != nil && (len(r.drop) > 0 || len(r.dropAttr) > 0)
}

// Strip removes the rule's boilerplate from text: every match of every
// strip pattern is cut, and paragraphs left blank are removed.
func (r *Rule) Strip(text string) string {
	if r == nil || len(r.strip) == 0 {
		return text
	}
	for _, re := range r.strip {
		text = re.ReplaceAllString(text, "")
	}
	paras := strings.Split(text, "\n\n")
	kept := paras[:0]
	for _, p := range paras {
		if p = strings.TrimSpace(p); p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "\n\n")
}

// String names the rule for messages.
func (r *Rule) String() string {
	if r.File == "" {
		return r.Name
	}
	return fmt.Sprintf("rule %q (%s:%d)", r.Name, r.File, r.Line)
}
