package extract

import (
	"encoding/json"
	"regexp"
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

// declaredBody is the article a page declares in its JSON-LD: the longest
// articleBody, with the headline and description of the same object (a
// lead the body often leaves out), each as plain text.
type declaredBody struct {
	headline, description, body string
}

// all returns the headline, the description and the body, a paragraph
// each: what pruneUndeclared finds the content's blocks in.
func (d declaredBody) all() string {
	return joinParagraphs(d.headline, d.description, d.body)
}

// text returns the description and the body: the declared article as an
// extracted text, whose headline is the page's title.
func (d declaredBody) text() string {
	return joinParagraphs(d.description, d.body)
}

// joinParagraphs joins the non-empty parts with blank lines.
func joinParagraphs(parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "\n\n")
}

// linkedData is what a page's JSON-LD declares that extraction reads: the
// longest articleBody (longestBody) and the most specific kind of story an
// object declares (kindOf), for the text; its publication dates (outer
// objects first) and its article's authors, for the metadata.
type linkedData struct {
	body      declaredBody
	kind      storyKind
	published []string
	author    string
	// headlines are the headline fields of its objects, outer first, as
	// plain text: the page's headline as the publisher states it, which
	// pageTitle cuts a <title> to.
	headlines []string
}

// maxHeadlines is the most declared headlines linkedData keeps.
const maxHeadlines = 8

// readLinkedData parses the page's JSON-LD scripts, once, before the engine
// takes them out; the values are read at once and let go (an articleBody
// can be the whole article).
func readLinkedData(doc *html.Node) linkedData {
	var ld linkedData
	var body declaredBody
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if keepScript(n) {
			if n.FirstChild == nil {
				return
			}
			var v any
			text, cdata := ldText(n.FirstChild.Data)
			if json.Unmarshal([]byte(text), &v) != nil {
				for _, m := range ldPublishedRe.FindAllStringSubmatch(n.FirstChild.Data, -1) {
					ld.published = append(ld.published, m[1])
				}
				return
			}
			if !cdata { // its metadata only: see ldText
				if b := longestBody(v); len(b.all()) > len(body.all()) {
					body = b
				}
				ld.kind = max(ld.kind, kindOf(v))
			}
			objects := ldObjects(v)
			ld.published = append(ld.published, ldPublished(objects)...)
			if ld.author == "" {
				ld.author = ldAuthor(objects)
			}
			for _, o := range objects {
				if h, ok := o.fields["headline"].(string); ok && len(ld.headlines) < maxHeadlines {
					if h = squash(plainText(h)); h != "" {
						ld.headlines = append(ld.headlines, h)
					}
				}
			}
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	ld.body = declaredBody{plainText(body.headline), plainText(body.description), plainText(body.body)}
	return ld
}

// ldText returns a JSON-LD script's text without the CDATA section's
// markers around it, as pages written for XHTML wrap it (Wikipedia's:
// "<![CDATA[ {…} ]]>"; in script comments, WordPress's "//<![CDATA[ … //]]>"
// and "/*<![CDATA[*/ … /*]]>*/": cdataWrap), which an HTML parser keeps as
// text and the engine drops before reading the JSON, and whether they were
// there. Of such a script readLinkedData reads the metadata (dates,
// authors, headlines) and not the story's kind and body, which the text
// was measured without.
func ldText(s string) (text string, cdata bool) {
	if m := cdataWrap.FindStringSubmatch(s); m != nil {
		return m[1], true
	}
	return s, false
}

// cdataWrap matches a script's text wrapped in a CDATA section's markers,
// bare or each in a script comment ("//<![CDATA[", "/*<![CDATA[*/",
// "//]]>", "/*]]>*/"); its group is the text inside.
var cdataWrap = regexp.MustCompile(`(?s)^\s*(?://|/\*)?\s*<!\[CDATA\[(?:\s*\*/)?(.*?)(?://|/\*)?\s*\]\]>(?:\s*\*/)?\s*$`)

// plainText returns a JSON-LD string as plain text: its markup, if it
// holds any, rendered (Text), its character references decoded.
func plainText(s string) string {
	if strings.ContainsRune(s, '<') {
		if frag, err := html.Parse(strings.NewReader(s)); err == nil {
			s = Text(frag)
		}
	}
	return html.UnescapeString(s)
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

// longestBody returns the longest articleBody anywhere in the decoded
// JSON v (by its text with its headline and description), with the
// headline and description of the same object.
func longestBody(v any) declaredBody {
	var best declaredBody
	switch v := v.(type) {
	case map[string]any:
		if body, ok := v["articleBody"].(string); ok && body != "" {
			best.body = body
			best.headline, _ = v["headline"].(string)
			best.description, _ = v["description"].(string)
		}
		for k, x := range v {
			if k == "articleBody" {
				continue
			}
			if b := longestBody(x); len(b.all()) > len(best.all()) {
				best = b
			}
		}
	case []any:
		for _, x := range v {
			if b := longestBody(x); len(b.all()) > len(best.all()) {
				best = b
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
	grams, vocab := trigrams(words), wordSet(words)
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
			found, all = wordHits(w, vocab), len(w)
		} else {
			found, all = trigramHits(w, grams), len(w)-2
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

// trigram returns the hash of three words (FNV-1a of the words, each ended
// by a 0 byte).
func trigram(w []string) uint64 {
	h := uint64(14695981039346656037)
	for _, x := range w {
		for i := 0; i < len(x); i++ {
			h = (h ^ uint64(x[i])) * 1099511628211
		}
		h *= 1099511628211 // the 0 byte
	}
	return h
}

// trigrams returns the set of the word trigrams of words.
func trigrams(words []string) map[uint64]bool {
	grams := make(map[uint64]bool, len(words))
	for i := 2; i < len(words); i++ {
		grams[trigram(words[i-2:i+1])] = true
	}
	return grams
}

// wordSet returns the set of words.
func wordSet(words []string) map[string]bool {
	set := make(map[string]bool, len(words))
	for _, w := range words {
		set[w] = true
	}
	return set
}

// wordHits returns how many of words are in set.
func wordHits(words []string, set map[string]bool) int {
	n := 0
	for _, w := range words {
		if set[w] {
			n++
		}
	}
	return n
}

// trigramHits returns how many of the word trigrams of words are in grams.
func trigramHits(words []string, grams map[uint64]bool) int {
	n := 0
	for i := 2; i < len(words); i++ {
		if grams[trigram(words[i-2:i+1])] {
			n++
		}
	}
	return n
}

// The engine's text may miss the article a page declares: a script draws
// the article from data the page carries, the engine took another part of
// the page (a list of teasers), or the page shows a paywall's first lines
// while it declares the whole text. When the declared article is much
// longer than the text and the text holds little of it, the declared
// article is the text, provided it is this page's: its headline is the
// page's title.
const (
	// minDeclaredGain is how many times the text's words the declared
	// article must hold.
	minDeclaredGain = 2
	// maxTextCover is the largest share of the declared article's word
	// trigrams the text may hold.
	maxTextCover = 0.3
)

// preferDeclared returns the declared article's text (declaredBody.text)
// in place of the extracted text when its body holds at least
// minDeclaredWords words, its headline is the page's title (sameHeadline),
// it holds minDeclaredGain times the text's words, and the text holds under
// maxTextCover of its word trigrams; else text.
func preferDeclared(text, title string, d declaredBody) string {
	if len(wordsOf(d.body)) < minDeclaredWords || !sameHeadline(d.headline, title) {
		return text
	}
	decl := d.text()
	dw, tw := wordsOf(decl), wordsOf(text)
	if len(dw) < minDeclaredGain*len(tw) {
		return text
	}
	if float64(trigramHits(dw, trigrams(tw))) >= maxTextCover*float64(len(dw)-2) {
		return text
	}
	return decl
}

// sameHeadline reports whether a declared headline is the page's title: at
// least half of its words are words of the title.
func sameHeadline(headline, title string) bool {
	hw := wordsOf(headline)
	if len(hw) == 0 {
		return false
	}
	return 2*wordHits(hw, wordSet(wordsOf(title))) >= len(hw)
}
