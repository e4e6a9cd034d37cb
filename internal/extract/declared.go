package extract

import (
	"encoding/json"
	"strings"

	"golang.org/x/net/html"
)

// Many news pages declare their article's text in JSON-LD (schema.org's
// articleBody): the publisher's own account of what the article is,
// without menus, captions or teasers. When the content the engine chose
// agrees with it, the blocks of the content that the declared text does not
// hold are boilerplate the page kept beside the article.

// minDeclaredWords is the fewest words a declared body must hold to be
// trusted: a teaser or a summary is shorter.
const minDeclaredWords = 50

// minDeclaredCover is the least share of the content's text that blocks
// found in the declared body must hold before the others are removed: a
// declared body cut short (a paywall's first paragraph) or of another
// article covers less.
const minDeclaredCover = 0.7

// storyKind is what kind of story a page declares itself in its JSON-LD.
type storyKind int

// The kinds of story, each more specific than the one before.
const (
	noStory   storyKind = iota
	someStory           // an Article, BlogPosting or Report: a story of some kind
	newsStory           // a NewsArticle or one of its kinds
)

// declaredArticle reads the page's JSON-LD scripts: the longest articleBody, as
// plain text ("" when there is none), and the most specific kind of story
// an object of them declares (kindOf).
func declaredArticle(doc *html.Node) (body string, kind storyKind) {
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if keepScript(n) {
			var v any
			if n.FirstChild != nil && json.Unmarshal([]byte(n.FirstChild.Data), &v) == nil {
				if s := longestBody(v); len(s) > len(body) {
					body = s
				}
				kind = max(kind, kindOf(v))
			}
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if strings.ContainsRune(body, '<') {
		if frag, err := html.Parse(strings.NewReader(body)); err == nil {
			body = Text(frag)
		}
	}
	return html.UnescapeString(body), kind
}

// kindOf returns the most specific kind of story an object of the decoded
// JSON v declares by its @type: newsStory for schema.org's NewsArticle or
// one of its kinds (ReportageNewsArticle, OpinionNewsArticle, …),
// someStory for an Article, BlogPosting or Report.
func kindOf(v any) storyKind {
	kind := noStory
	switch v := v.(type) {
	case map[string]any:
		switch t := v["@type"].(type) {
		case string:
			kind = typeKind(t)
		case []any:
			for _, x := range t {
				if s, ok := x.(string); ok {
					kind = max(kind, typeKind(s))
				}
			}
		}
		for _, x := range v {
			if kind == newsStory {
				break
			}
			kind = max(kind, kindOf(x))
		}
	case []any:
		for _, x := range v {
			if kind == newsStory {
				break
			}
			kind = max(kind, kindOf(x))
		}
	}
	return kind
}

// typeKind is the kind of story a schema.org type names.
func typeKind(t string) storyKind {
	switch {
	case strings.HasSuffix(t, "NewsArticle"):
		return newsStory
	case t == "Article" || t == "BlogPosting" || t == "Report":
		return someStory
	}
	return noStory
}

// longestBody returns the longest string value of an "articleBody" key
// anywhere in the decoded JSON v, after the description and headline of
// the same object (a lead the body often leaves out).
func longestBody(v any) string {
	best := ""
	switch v := v.(type) {
	case map[string]any:
		if body, ok := v["articleBody"].(string); ok && body != "" {
			for _, k := range []string{"description", "headline"} {
				if s, ok := v[k].(string); ok {
					body = s + "\n\n" + body
				}
			}
			best = body
		}
		for k, x := range v {
			if k == "articleBody" {
				continue
			}
			if s := longestBody(x); len(s) > len(best) {
				best = s
			}
		}
	case []any:
		for _, x := range v {
			if s := longestBody(x); len(s) > len(best) {
				best = s
			}
		}
	}
	return best
}

// pruneUndeclared removes from the content tree under root the leaf
// blocks that the declared body does not hold (under a fifth of their word
// trigrams, or of their words for a block of one or two), when the blocks
// it holds (half their trigrams or more) make at least minDeclaredCover of
// the content's text. The longest block always stays.
func pruneUndeclared(root *html.Node, declared string) {
	words := wordsOf(declared)
	if len(words) < minDeclaredWords {
		return
	}
	gram := func(w []string) uint64 { // FNV-1a of the words, each ended by a 0
		h := uint64(14695981039346656037)
		for _, x := range w {
			for i := 0; i < len(x); i++ {
				h = (h ^ uint64(x[i])) * 1099511628211
			}
			h *= 1099511628211 // the 0 byte
		}
		return h
	}
	grams := make(map[uint64]bool, len(words))
	vocab := make(map[string]bool, len(words))
	for i, w := range words {
		vocab[w] = true
		if i >= 2 {
			grams[gram(words[i-2:i+1])] = true
		}
	}
	blocks := leafBlocks(root)
	share := make([]float64, len(blocks))
	total, covered, longest := 0, 0, 0
	for i, b := range blocks {
		total += b.runes
		if b.runes > blocks[longest].runes {
			longest = i
		}
		w := wordsOf(b.text)
		found, all := 0, 0
		if len(w) < 3 {
			for _, x := range w {
				all++
				if vocab[x] {
					found++
				}
			}
		} else {
			for j := 2; j < len(w); j++ {
				all++
				if grams[gram(w[j-2:j+1])] {
					found++
				}
			}
		}
		if all > 0 {
			share[i] = float64(found) / float64(all)
		}
		if share[i] >= 0.5 {
			covered += b.runes
		}
	}
	if total == 0 || float64(covered) < minDeclaredCover*float64(total) {
		return
	}
	for i, b := range blocks {
		if i != longest && share[i] < 0.2 && b.node.Parent != nil {
			b.node.Parent.RemoveChild(b.node)
		}
	}
}
