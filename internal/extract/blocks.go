package extract

import (
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// nameAttr is the attribute markRegions sets on the elements whose id or
// class names boilerplate ("neg": share bars, bylines, captions,
// newsletters, advertisements …) or the article ("pos": article, content,
// story, entry …). The engine drops class names; the block classifier reads
// this mark on the engine's content.
const nameAttr = "data-neardup-name"

// captionAttr is the attribute markRegions sets on the elements whose id or
// class names a picture's caption ("caption", "wp-caption-text",
// "cutline"): captionOf reads it on the blocks beside a picture.
const captionAttr = "data-neardup-caption"

// captionWords are the words of ids and classes that name a caption.
var captionWords = map[string]bool{"caption": true, "figcaption": true, "cutline": true, "captiontext": true}

// maxCaption is the longest block, in runes, that a caption name sets
// apart: a longer one is prose, whatever its wrapper is called.
const maxCaption = 400

// Words of ids and classes (split at "-" and "_", compared whole or as a
// prefix) that name boilerplate and the article.
var (
	negWords = map[string]bool{"share": true, "sharing": true, "social": true, "author": true, "byline": true,
		"bio": true, "meta": true, "tag": true, "tags": true, "promo": true, "caption": true, "credit": true,
		"credits": true, "copyright": true, "disclaimer": true, "more": true, "login": true, "print": true,
		"email": true, "follow": true, "date": true, "time": true, "timestamp": true, "posted": true,
		"info": true, "ad": true, "ads": true, "banner": true, "cookie": true, "popup": true, "modal": true,
		"signin": true, "skip": true, "label": true, "source": true, "teaser": true, "byl": true,
		"dateline": true, "newsletter": true, "subscribe": true, "signup": true, "breadcrumbs": true}
	negPrefixes = []string{"advert", "sponsor", "recommend", "newsletter", "subscri", "outbrain", "taboola",
		"promo", "related", "trending", "teaser", "byline", "author"}
	posWords = map[string]bool{"article": true, "content": true, "body": true, "story": true, "text": true,
		"entry": true, "post": true, "main": true, "paragraph": true, "articlebody": true, "storybody": true,
		"postbody": true, "entrycontent": true}
)

// nameKind returns "neg" when n's id or class names boilerplate, "pos"
// when it names the article, "" otherwise; boilerplate wins.
func nameKind(n *html.Node) string { return kindFor(namesFlags(lowerNames(n))) }

// kindFor is nameKind with the flags of n's names already read.
func kindFor(f nameFlags) string {
	switch {
	case f&nameNeg != 0:
		return "neg"
	case f&namePos != 0:
		return "pos"
	}
	return ""
}

// textBlock is one leaf block of a content tree: an element that breaks a
// paragraph (or a table cell) and holds text but no other such element.
type textBlock struct {
	node  *html.Node
	text  string
	runes int
	// linked counts the runes of text inside links, away those inside
	// links to another page (not to a fragment of this one: "#notes").
	linked, away int
	// nonSpace counts the runes of text that are not white space.
	nonSpace int
}

// leafBlocks returns the leaf blocks under root in document order. Text
// that sits beside blocks in a mixed element is not a leaf block, nor is
// preformatted text (code, a plain-text document: what the classifier's
// cues do not describe): neither is ever removed by the classifier. A
// figure's caption is one block whatever it holds (a credit in a <div>
// beside the caption's text), so that it goes whole, as the markup sets it
// apart (asideOf).
func leafBlocks(root *html.Node) []textBlock {
	var out []textBlock
	add := func(n *html.Node) {
		if t := strings.TrimSpace(Text(n)); t != "" {
			b := textBlock{node: n, text: t, runes: utf8.RuneCountInString(t), nonSpace: nonSpaceRunes(t)}
			b.linked, b.away = linkedRunes(n, false, false)
			out = append(out, b)
		}
	}
	var walk func(*html.Node) bool // reports whether n holds a block
	walk = func(n *html.Node) bool {
		if n.Type == html.ElementNode && n != root {
			switch tag(n) {
			case atom.Pre:
				return true
			case atom.Figcaption:
				add(n)
				return true
			}
		}
		has := false
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && !neverText[tag(c)] && walk(c) {
				has = true
			}
		}
		if n.Type != html.ElementNode || n == root {
			return has
		}
		isBlock := block[tag(n)] || tag(n) == atom.Td || tag(n) == atom.Th
		if isBlock && !has {
			add(n)
		}
		return has || isBlock
	}
	walk(root)
	return out
}

// linkedRunes counts the non-space runes of text inside links under n
// (in: n is inside one) and, of those, the runes inside links to another
// page (away: n is inside one).
func linkedRunes(n *html.Node, in, away bool) (linked, linkedAway int) {
	if n.Type == html.TextNode {
		if !in {
			return 0, 0
		}
		k := nonSpaceRunes(n.Data)
		if !away {
			return k, 0
		}
		return k, k
	}
	if !in && n.Type == html.ElementNode && tag(n) == atom.A {
		in, away = true, !strings.HasPrefix(strings.TrimSpace(attr(n, "href")), "#")
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		k, a := linkedRunes(c, in, away)
		linked += k
		linkedAway += a
	}
	return linked, linkedAway
}

// NumBlockFeatures is the length of a block's feature vector.
const NumBlockFeatures = 41

// blockFeatures returns the feature vectors of the leaf blocks, in order.
// Feature 0 is the constant 1 (the bias).
func blockFeatures(blocks []textBlock) [][NumBlockFeatures]float64 {
	total := 0
	for _, b := range blocks {
		total += b.runes
	}
	// The largest block is the article's core; a block far from it in the
	// tree is more likely something else the engine kept.
	core := 0
	for i, b := range blocks {
		if b.runes > blocks[core].runes {
			core = i
		}
	}
	coreDepth := 0
	var coreUp map[*html.Node]int // the core's ancestors (and itself) by distance
	if len(blocks) > 0 {
		coreDepth = depth(blocks[core].node)
		coreUp = ancestors(blocks[core].node)
	}
	// A block of prose is a long one that ends a sentence; the article's
	// paragraphs stand next to one another, boilerplate stands apart from
	// them (a caption between two, credits and pointers after the last).
	var prosePos []int
	density := make([]float64, len(blocks))
	for i, b := range blocks {
		density[i] = linkDensity(b)
	}
	for i, b := range blocks {
		if b.runes >= 150 && endsSentence(b.text) && density[i] < 0.3 {
			prosePos = append(prosePos, i)
		}
	}
	out := make([][NumBlockFeatures]float64, len(blocks))
	after := total
	for i, b := range blocks {
		after -= b.runes
		f := &out[i]
		f[0] = 1
		f[1] = math.Log1p(float64(b.runes))
		f[2] = density[i]
		words, punct, upper, digits, letters := textStats(b.text)
		if words > 0 {
			f[3] = float64(punct) / float64(words)
			f[4] = float64(upper) / float64(words)
		}
		if letters+digits > 0 {
			f[5] = float64(digits) / float64(letters+digits)
		}
		f[6] = boolf(endsSentence(b.text))
		switch a := tag(b.node); {
		case a == atom.P:
			f[7] = 1
		case headingLevel(a) > 0:
			f[8] = 1
		case a == atom.Li || a == atom.Dd || a == atom.Dt:
			f[9] = 1
		case a == atom.Td || a == atom.Th || a == atom.Tr:
			f[10] = 1
		}
		m := marksAbove(b.node)
		f[11], f[12], f[13] = boolf(m.nav), boolf(m.neg), boolf(m.pos)
		f[14], f[15] = boolf(m.quote), boolf(m.caption)
		if len(blocks) > 1 {
			f[16] = float64(i) / float64(len(blocks)-1)
		}
		f[17] = boolf(i == 0)
		f[18] = boolf(i == len(blocks)-1)
		if i > 0 {
			f[19] = math.Log1p(float64(blocks[i-1].runes))
			f[20] = density[i-1]
		}
		if i+1 < len(blocks) {
			f[21] = math.Log1p(float64(blocks[i+1].runes))
			f[22] = density[i+1]
		}
		if total > 0 {
			f[23] = float64(b.runes) / float64(total)
		}
		lower := strings.ToLower(b.text)
		f[24] = boolf(copyrightLower(lower))
		f[25] = boolf(words < 4)
		hops := treeHops(b.node, coreUp)
		f[26] = math.Log1p(float64(hops))
		f[27] = boolf(b.node.Parent == blocks[core].node.Parent)
		f[28] = boolf(i < core)
		f[29] = float64(depth(b.node)-coreDepth) / 4
		f[30] = boolf(len(b.text) <= maxCueText && cueLower(lower))
		f[31] = f[2] * boolf(b.runes < 80)
		if total > 0 {
			f[32] = float64(after) / float64(total)
		}
		f[33] = boolf(nextToImage(b.node))
		f[34] = math.Log1p(float64(blocksToProse(i, prosePos)))
		c := lineCuesOf(b.text)
		f[35], f[36], f[37], f[38] = boolf(c.year), boolf(c.clock), boolf(c.colon), boolf(c.address)
		f[39] = boolf(c.slash && b.runes < 80)
		f[labelFeature] = boolf(c.label)
	}
	return out
}

// blockMarks are what a block's ancestors (and the block) say of it.
type blockMarks struct {
	nav     bool // in a region markRegions marked navigation or related stories
	neg     bool // in an element whose id or class names boilerplate
	pos     bool // in one named content, nearer the block than any named boilerplate
	quote   bool // in a <blockquote>
	caption bool // in a <figure>, <figcaption> or a table's <caption>
}

// marksAbove returns the marks of n and its ancestors.
func marksAbove(n *html.Node) blockMarks {
	var m blockMarks
	for p := n; p != nil; p = p.Parent {
		if p.Type != html.ElementNode {
			continue
		}
		switch attr(p, regionAttr) {
		case "nav", "related":
			m.nav = true
		}
		switch attr(p, nameAttr) {
		case "neg":
			m.neg = true
		case "pos":
			m.pos = m.pos || !m.neg
		}
		switch tag(p) {
		case atom.Blockquote:
			m.quote = true
		case atom.Figure, atom.Figcaption, atom.Caption:
			m.caption = true
		}
	}
	return m
}

// lineCues are marks of a line of metadata rather than prose, the same in
// every language: a date's year or a clock time ("Publiziert: 03.04.2020,
// 12:35"), a label that ends in a colon ("Mehr zum Thema:"), an address
// ("www.", "https://", "@name"), a slash between names (a photo credit,
// "Jane Roe / Agency"), a short label leading the line ("Lea más: …",
// leadLabel).
type lineCues struct {
	year, clock, colon, address, slash, label bool
}

// lineCuesOf returns the line cues of s.
func lineCuesOf(s string) lineCues {
	var c lineCues
	t := strings.TrimRight(s, " \t\n")
	c.colon = strings.HasSuffix(t, ":") || strings.HasSuffix(t, "：")
	c.label = leadLabel(t)
	c.address = strings.Contains(s, "://") || strings.Contains(s, "www.")
	run := 0 // digits in the current run
	for i := 0; i <= len(s); i++ {
		var b byte
		if i < len(s) {
			b = s[i]
		}
		if isDigit(b) {
			run++
			continue
		}
		if run == 4 {
			if y := s[i-4 : i]; y >= "1900" && y <= "2099" {
				c.year = true
			}
		}
		if b == ':' && run >= 1 && run <= 2 && i+2 < len(s) && isDigit(s[i+1]) && isDigit(s[i+2]) && (i+3 == len(s) || !isDigit(s[i+3])) {
			c.clock = true
		}
		switch b {
		case '@':
			if i+1 < len(s) && (s[i+1] >= 'a' && s[i+1] <= 'z' || s[i+1] >= 'A' && s[i+1] <= 'Z') {
				c.address = true
			}
		case '/':
			if !(i+1 < len(s) && s[i+1] == '/') && !(i > 0 && s[i-1] == '/') && !(i > 0 && s[i-1] == ':') {
				c.slash = true
			}
		}
		run = 0
	}
	return c
}

// labelFeature is the feature that marks a block led by a label
// (lineCues.label).
const labelFeature = 40

// pointer reports whether b, led by a label or not, is a labelled link to
// another page set in the article ("Read more: <a>…</a>", "Lea también:
// <a>…</a>"): never article text, whatever the model scores. A heading or
// a table of contents linking to a section of the page is no pointer.
func pointer(b textBlock, label bool) bool {
	return label && linkShare(b.away, b.nonSpace) >= minPointerLinked
}

// maxPromo is the longest block, in runes, that promo takes for a call to
// sign up for a newsletter.
const maxPromo = 300

// signUpCall matches a call to sign up in lower-case text: "sign up",
// "subscribe to", "in your inbox", "abonnieren", "abonnez-vous", …
var signUpCall = regexp.MustCompile(`\b(?:sign[ -]?up|subscribe (?:to|now|here|for|today)|join (?:our|the)|(?:to|in) your inbox|abonnieren|anmelden|inscrivez-vous|abonnez-vous|suscríbete|iscriviti)\b`)

// promo reports whether b is a call to sign up for a newsletter set among
// the paragraphs ("Ground Game: Sign up for AP's weekly politics newsletter
// to get it in your inbox every Monday."): a short block with a link that
// names a newsletter and calls to sign up. An article about newsletters
// ("The Guardian US added 680,000 newsletter subscribers") calls no one.
func promo(b textBlock) bool {
	if b.runes > maxPromo || b.linked == 0 {
		return false
	}
	l := strings.ToLower(b.text)
	return strings.Contains(l, "newsletter") && signUpCall.MatchString(l)
}

// minPointerLinked is the least share of a pointer line's text inside
// links to another page.
const minPointerLinked = 0.7

// maxLabel is the most bytes of a label that leads a line ("Read more:").
const maxLabel = 32

// leadLabel reports whether s starts with a short label of at most three
// words and no digit, ended by a colon (and a space, but after a full-width
// colon) and followed by more text: "Read more: …", "Lea también: …",
// "RELATED: …".
func leadLabel(s string) bool {
	i := strings.IndexAny(s, ":：")
	if i <= 0 || i > maxLabel {
		return false
	}
	head, rest := s[:i], s[i+1:]
	if s[i] != ':' {
		rest = s[i+len("："):]
	} else if r, _ := utf8.DecodeRuneInString(rest); !unicode.IsSpace(r) {
		return false // "https://", "3:1"
	}
	if strings.TrimSpace(rest) == "" || strings.IndexFunc(head, unicode.IsDigit) >= 0 {
		return false
	}
	return len(strings.Fields(head)) <= 3
}

// isDigit reports whether b is an ASCII digit.
func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// blocksToProse counts the blocks between block i and the nearest block of
// prose (prosePos, ascending); the number of blocks when there is none.
func blocksToProse(i int, prosePos []int) int {
	best := len(prosePos) + 1000
	k := sort.SearchInts(prosePos, i)
	if k < len(prosePos) {
		best = prosePos[k] - i
	}
	if k > 0 {
		best = min(best, i-prosePos[k-1])
	}
	if len(prosePos) == 0 {
		return 0
	}
	return best
}

// nextToImage reports whether a block holds an image or follows one (its
// previous element sibling, or its parent's when it comes first, holds an
// image): a caption or a photo credit.
func nextToImage(n *html.Node) bool {
	if hasImage(n) {
		return true
	}
	for x, up := n, 0; x != nil && x.Type == html.ElementNode && up < 2; x, up = x.Parent, up+1 {
		for s := x.PrevSibling; s != nil; s = s.PrevSibling {
			if s.Type == html.TextNode && strings.TrimSpace(s.Data) != "" {
				return false
			}
			if s.Type == html.ElementNode {
				return hasImage(s)
			}
		}
	}
	return false
}

// hasImage reports whether n is or holds an image.
func hasImage(n *html.Node) bool {
	if n.Type == html.ElementNode {
		switch tag(n) {
		case atom.Img, atom.Picture, atom.Svg, atom.Video:
			return true
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if hasImage(c) {
			return true
		}
	}
	return false
}

// depth is n's number of ancestors.
func depth(n *html.Node) int {
	d := 0
	for p := n.Parent; p != nil; p = p.Parent {
		d++
	}
	return d
}

// ancestors maps n and each of its ancestors to its distance from n.
func ancestors(n *html.Node) map[*html.Node]int {
	up := map[*html.Node]int{}
	for p, d := n, 0; p != nil; p, d = p.Parent, d+1 {
		up[p] = d
	}
	return up
}

// treeHops counts the edges between a and the node whose ancestors up
// holds (ancestors), through their lowest common ancestor.
func treeHops(a *html.Node, up map[*html.Node]int) int {
	for p, d := a, 0; p != nil; p, d = p.Parent, d+1 {
		if db, ok := up[p]; ok {
			return db + d
		}
	}
	return len(up)
}

// cues are phrases of boilerplate blocks, lower-cased: in English, then
// the pointers to other stories, picture credits, sources and calls to
// subscribe or share of the languages of the development pages (German,
// Spanish, French, Portuguese, Italian, Dutch, Polish, Russian).
var cues = []string{"click", "sign up", "subscribe", "newsletter", "email", "e-mail", "posted in", "posted by",
	"filed under", "tags:", "categories:", "log in", "login", "powered by", "follow us", "share this", "read more",
	"comments", "rss", "all rights", "terms of", "privacy", "cookie", "advertis", "related", "you may also",
	"recommended", "sponsored", "»", "«", "→",
	"photo:", "photo by", "(foto", "foto ", "subscribe now", "download the", "image:", "getty images", "read also", "see also",
	"lesen sie auch", "auch lesen", "mehr lesen", "weitere beiträge", "weitere informationen", "mehr zum thema", "weitere artikel", "schon gelesen", "das könnte", "foto:",
	"bild:", "quelle:", "abonnieren", "teilen",
	"lea también", "lee también", "lea más", "lea:", "mire:", "mira:", "puedes ver", "ver también", "te puede interesar",
	"lire aussi", "à lire", "veja também", "leia também", "leggi anche", "lees ook", "crédit", "abonnez", "partager",
	"czytaj też", "czytaj także", "czytaj więcej", "zobacz też", "zobacz także", "subskryp", "udostępnij",
	"читайте также", "читайте", "подпис", "поделиться", "источник:", "фото:"}

// cuesByByte lists the cues by their first byte, so that boilerplateCue
// reads a text once.
var cuesByByte = func() (idx [256][]string) {
	for _, c := range cues {
		idx[c[0]] = append(idx[c[0]], c)
	}
	return idx
}()

// boilerplateCue reports whether a short text holds a phrase of boilerplate.
func boilerplateCue(s string) bool { return len(s) <= maxCueText && cueLower(strings.ToLower(s)) }

// maxCueText is the longest text (bytes) boilerplateCue looks at.
const maxCueText = 400

// cueLower reports whether a text in lower case holds a phrase of
// boilerplate, whatever its length.
func cueLower(l string) bool {
	for i := 0; i < len(l); i++ {
		for _, c := range cuesByByte[l[i]] {
			if strings.HasPrefix(l[i:], c) {
				return true
			}
		}
	}
	return false
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// linkDensity is the share of b's non-space text inside links.
func linkDensity(b textBlock) float64 { return linkShare(b.linked, b.nonSpace) }

// linkShare is linked runes over nonSpace runes, at most 1; 0 without text.
func linkShare(linked, nonSpace int) float64 {
	if nonSpace == 0 {
		return 0
	}
	return min(1, float64(linked)/float64(nonSpace))
}

// headingLevel returns 1 to 6 for h1 to h6, 0 for other elements.
func headingLevel(a atom.Atom) int {
	switch a {
	case atom.H1:
		return 1
	case atom.H2:
		return 2
	case atom.H3:
		return 3
	case atom.H4:
		return 4
	case atom.H5:
		return 5
	case atom.H6:
		return 6
	}
	return 0
}

// textStats counts a text's words, its sentence and clause punctuation,
// the words that start with a capital letter, and its digits and letters.
// In the scripts written without spaces between words (Chinese, Japanese)
// every character counts as a word.
func textStats(s string) (words, punct, upper, digits, letters int) {
	inWord := false
	for _, r := range s {
		switch {
		case wideLetter(r):
			letters++
			words++
			inWord = false
		case unicode.IsLetter(r):
			letters++
			if !inWord {
				words++
				if unicode.IsUpper(r) {
					upper++
				}
			}
			inWord = true
		case unicode.IsDigit(r):
			digits++
			if !inWord {
				words++
			}
			inWord = true
		default:
			inWord = false
			if strings.ContainsRune(".,;:!?。，、！？", r) {
				punct++
			}
		}
	}
	return words, punct, upper, digits, letters
}

// endsSentence reports whether a text ends like a sentence.
func endsSentence(s string) bool {
	s = strings.TrimRight(s, " \t\n\"'”’»)")
	r, _ := utf8.DecodeLastRuneInString(s)
	return strings.ContainsRune(".!?。！？…:", r)
}

// copyrightLower reports a copyright or rights notice in a text already in
// lower case.
func copyrightLower(l string) bool {
	if strings.ContainsRune(l, '©') {
		return true
	}
	return strings.Contains(l, "copyright") || strings.Contains(l, "all rights reserved")
}
