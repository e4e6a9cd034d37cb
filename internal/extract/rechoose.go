package extract

import (
	nurl "net/url"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// chooser has the engine choose again, on copies of the readied page,
// when its first choice is not the article.
type chooser struct {
	engine Engine
	// fresh returns a copy of the readied page.
	fresh func() *html.Node
	url   *nurl.URL
	// runs are the page's runs of rows (markRows).
	runs []rowRun
	// containerProse is the prose of the container the page names for
	// its article (articleContainer).
	containerProse int
}

// reconsider returns the content the engine's first choice gives way to,
// each step on the last one's content (nil when the engine found none):
// the engine's second choice when it took a navigation region, a dialog,
// an author's box, another story or one reply of a thread (withoutRegions),
// or sections of related stories (withoutRelated); the container the page
// names for its article when it holds much more prose (namedContainer);
// the engine's second choice when the content is a long list without
// sentences (withoutList); the parent of a run of rows when the content is
// one of them (widenToRows).
func (c chooser) reconsider(content *html.Node) *html.Node {
	content = c.withoutRegions(content)
	content = c.withoutRelated(content)
	content = c.namedContainer(content)
	content = c.withoutList(content)
	if content != nil {
		if w := widenToRows(c.runs, content, c.fresh); w != nil {
			content = w
		}
	}
	return content
}

// withoutRegions: when the engine took a navigation region (a sidebar, a
// footer), a dialog, an author's box, another story or one reply of a
// thread for the article, it chooses again on the page without them; the
// second choice is taken when it is none of those and holds enough prose
// (regionMinProse, regionMaxShrink).
func (c chooser) withoutRegions(content *html.Node) *html.Node {
	if content == nil {
		return nil
	}
	marks := chosenRegions(content)
	if one, reps := oneRepeat(marks); reps && !one {
		marks = nil // the thread, not one reply
	}
	if marks == nil {
		return content
	}
	again := c.fresh()
	removeMarked(again, marks)
	if g := c.engine(again, c.url); g.Node != nil && chosenRegions(g.Node) == nil && prose(g.Node) >= max(regionMinProse, prose(content)/regionMaxShrink) {
		return g.Node
	}
	return content
}

// withoutRelated: when sections of related stories make most of the
// engine's content, it chooses again on the page without them; teaser
// cards that are the article (keepCards) are none.
func (c chooser) withoutRelated(content *html.Node) *html.Node {
	if content == nil {
		return content
	}
	keepCards(content) // teaser cards that are the article are no related stories
	if !mostlyRelated(content) {
		return content
	}
	again := c.fresh()
	dropRelated(again)
	if g := c.engine(again, c.url); g.Node != nil {
		return g.Node
	}
	return content
}

// namedContainer: when the page names its article's container, and it
// holds much more prose than the engine's choice and not the choice's
// longest block, the engine chose another part of the page; the content is
// the container.
func (c chooser) namedContainer(content *html.Node) *html.Node {
	if !betterContainer(c.containerProse, content) || namedChoice(content) {
		return content
	}
	again := c.fresh()
	if n, _ := articleContainer(again); n != nil && !holdsCore(n, content) {
		n.Parent.RemoveChild(n)
		return n
	}
	return content
}

// withoutList: when the content is long and holds almost no sentences (a
// table, a list of names; withoutSentences), the engine chooses again
// without it, and its second choice is taken when it holds enough more
// prose (betterChoice).
func (c chooser) withoutList(content *html.Node) *html.Node {
	if content == nil {
		return nil
	}
	list, sentences := withoutSentences(content)
	if !list {
		return content
	}
	again := c.fresh()
	removeBlocksOf(again, content)
	if g := c.engine(again, c.url); g.Node != nil && betterChoice(g.Node, sentences) {
		return g.Node
	}
	return content
}

// regionMinProse is the least prose (runes) the engine's second choice must
// hold when its first was a navigation region.
const regionMinProse = 100

// regionMaxShrink bounds how much less prose the engine's second choice may
// hold than its first, a navigation region: a page's sidebar or "about"
// box may hold a few times the prose of a short post, but a region holding
// sixteen times the prose of anything else the engine finds is the article,
// named by a layout's class ("left-side-content", "share-btn post-content")
// rather than by what it is, and the second choice a teaser.
const regionMaxShrink = 16

// mostlyRelated reports whether sections of related stories hold most of
// the text of the content tree n.
func mostlyRelated(n *html.Node) bool {
	related, all := textShare(n, func(m *html.Node) bool {
		return attr(m, regionAttr) == "related"
	})
	return related > 0 && 2*related > all
}

// textShare returns the bytes of text, white space trimmed, under the
// elements of the tree n that in reports (part) and under n (all).
func textShare(n *html.Node, in func(*html.Node) bool) (part, all int) {
	var walk func(*html.Node, bool)
	walk = func(n *html.Node, inside bool) {
		if n.Type == html.TextNode {
			k := len(strings.TrimSpace(n.Data))
			all += k
			if inside {
				part += k
			}
			return
		}
		inside = inside || n.Type == html.ElementNode && in(n)
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inside)
		}
	}
	walk(n, false)
	return part, all
}

// The engine scores containers by their text and commas; on some pages it
// takes a long run of short lines for the article: a table of names and
// addresses, the list of signatories under a letter, a list of teasers.
// Such a content holds almost no sentences. The engine then chooses again
// on the page without it, and its second choice is taken when it holds
// much more prose.
const (
	// rechooseProse is the largest share of the content's text in
	// sentences (sentenceProse) for which the engine chooses again.
	rechooseProse = 0.1
	// rechooseMinText is the least text (runes) the content must hold for
	// the engine to choose again: a short content without sentences is
	// more often a short article (a recipe, a poem, a video's caption)
	// than a list.
	rechooseMinText = 1500
	// rechooseGain is how many times more prose the second choice must
	// hold; rechooseMinProse is the least prose (runes) it must hold.
	rechooseGain     = 2
	rechooseMinProse = 400
	// sentenceWords is the fewest words of a line that counts as a
	// sentence.
	sentenceWords = 8
)

// sentenceProse returns the runes of the lines of n's text that read as
// sentences (at least sentenceWords words, ending like a sentence), the
// runes of all its lines, and the mean words of a line.
func sentenceProse(n *html.Node) (prose, total int, lineWords float64) {
	lines, words := 0, 0
	for para := range strings.SplitSeq(Text(n), "\n\n") {
		for line := range strings.SplitSeq(para, "\n") {
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			k := utf8.RuneCountInString(line)
			total += k
			w, _, _, _, _ := textStats(line)
			if w >= sentenceWords && endsSentence(line) {
				prose += k
			}
			lines++
			words += w
		}
	}
	if lines > 0 {
		lineWords = float64(words) / float64(lines)
	}
	return prose, total, lineWords
}

// withoutSentences reports whether a content is a long run of short lines
// with almost no sentences (rechooseProse, rechooseMinText; its lines hold
// fewer than sentenceWords words on average): a table, a list. It returns
// its prose. Lines of verse or of captions, as long as sentences but not
// ending like them, are not a list.
func withoutSentences(n *html.Node) (bool, int) {
	if manySentenceEnds(n) {
		return false, 0
	}
	p, t, w := sentenceProse(n)
	return t >= rechooseMinText && float64(p) < rechooseProse*float64(t) && w < sentenceWords, p
}

// betterChoice reports whether the engine's second choice, with content
// again, holds enough more prose than its first, which held prose.
func betterChoice(again *html.Node, prose int) bool {
	p, _, _ := sentenceProse(again)
	return p >= rechooseMinProse && p >= rechooseGain*prose
}

// removeBlocksOf removes from doc the leaf blocks whose text is that of a
// leaf block of content (the engine's first choice, moved out of another
// parse of the same page).
func removeBlocksOf(doc, content *html.Node) {
	texts := map[string]bool{}
	for _, b := range leafBlocks(content) {
		texts[squash(b.text)] = true
	}
	for _, b := range leafBlocks(doc) {
		if texts[squash(b.text)] && b.node.Parent != nil {
			b.node.Parent.RemoveChild(b.node)
		}
	}
}

// sentenceEndsPerKB is how many sentence ends (a full stop, question or
// exclamation mark before a space or at the end of a text) per 1,000 bytes
// of text mark a content as prose without rendering it: articles hold 7 to
// 10, lists and tables hardly any.
const sentenceEndsPerKB = 5

// manySentenceEnds reports whether the text under n holds more than
// sentenceEndsPerKB sentence ends per 1,000 bytes: it is prose, and the
// costlier sentenceProse need not look at it.
func manySentenceEnds(n *html.Node) bool {
	ends, bytes, _ := sentenceEnds(n)
	return ends*1000 > sentenceEndsPerKB*bytes
}

// sentenceEnds counts the sentence ends in the text under n (a full stop,
// question or exclamation mark before a space, a quote or a parenthesis,
// or at the end of a text; "。") and the bytes of that text, all of them
// and those that are not ASCII white space.
func sentenceEnds(n *html.Node) (ends, bytes, nonSpaceBytes int) {
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			d := n.Data
			bytes += len(d)
			nonSpaceBytes += nonSpace(d)
			for i := 0; i < len(d); i++ {
				switch c := d[i]; {
				case c == '.' || c == '!' || c == '?':
					if i+1 == len(d) || d[i+1] == ' ' || d[i+1] == '\n' || d[i+1] == '\t' || d[i+1] == '"' || d[i+1] == ')' {
						ends++
					}
				case c == 0xe3 && i+2 < len(d) && d[i+1] == 0x80 && d[i+2] == 0x82: // 。
					ends++
				}
			}
			return
		}
		if n.Type == html.ElementNode && neverText[tag(n)] {
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return ends, bytes, nonSpaceBytes
}
