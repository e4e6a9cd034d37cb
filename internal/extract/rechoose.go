package extract

import (
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

func envf(k string, d float64) float64 {
	if v, err := strconv.ParseFloat(os.Getenv(k), 64); err == nil {
		return v
	}
	return d
}

var (
	rcFrac = envf("ND_RC_FRAC", 0.5)
	rcGain = envf("ND_RC_GAIN", 2)
	rcMin  = envf("ND_RC_MIN", 400)
	rcWords = envf("ND_RC_WORDS", 8)
	rcTotal = envf("ND_RC_TOTAL", 1500)
)

// sentenceProse counts the runes of the paragraphs of n's text that read
// as prose: sentences of several words.
func sentenceProse(n *html.Node) (prose, total int) {
	for _, para := range strings.Split(Text(n), "\n\n") {
		for _, line := range strings.Split(para, "\n") {
			line = strings.TrimSpace(line)
			k := utf8.RuneCountInString(line)
			total += k
			words, _, _, _, _ := textStats(line)
			if float64(words) >= rcWords && endsSentence(line) {
				prose += k
			}
		}
	}
	return prose, total
}

// removeBlocksOf removes from doc the leaf blocks whose text is that of a
// leaf block of content.
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
