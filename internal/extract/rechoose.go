package extract

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

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
// sentences (at least sentenceWords words, ending like a sentence) and the
// runes of all its lines.
func sentenceProse(n *html.Node) (prose, total int) {
	for para := range strings.SplitSeq(Text(n), "\n\n") {
		for line := range strings.SplitSeq(para, "\n") {
			line = strings.TrimSpace(line)
			k := utf8.RuneCountInString(line)
			total += k
			if words, _, _, _, _ := textStats(line); words >= sentenceWords && endsSentence(line) {
				prose += k
			}
		}
	}
	return prose, total
}

// withoutSentences reports whether a content is long and holds almost no
// sentences (rechooseProse, rechooseMinText); it returns its prose.
func withoutSentences(n *html.Node) (bool, int) {
	p, t := sentenceProse(n)
	return t >= rechooseMinText && float64(p) < rechooseProse*float64(t), p
}

// betterChoice reports whether the engine's second choice, with content
// again, holds enough more prose than its first, which held prose.
func betterChoice(again *html.Node, prose int) bool {
	p, _ := sentenceProse(again)
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
