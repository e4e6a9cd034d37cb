package extract

// The block classifier: its model (a logistic regression plus boosted
// trees over a leaf block's features, blockFeatures), how it decides which
// blocks a content keeps, and pruning a content tree with it, more
// strictly on a page that declares itself a news story.

import (
	"math"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// BlockModel scores a leaf block of the engine's content as article text:
// the probability is the logistic function of the dot product of Weights
// with the block's features plus the sum of the Trees' values (boosted
// trees fitted to what the linear part gets wrong: interactions such as a
// short line that is also the last of the content). Blocks scoring under
// Threshold leave the content.
type BlockModel struct {
	Weights   [NumBlockFeatures]float64
	Trees     []BlockTree
	Threshold float64
}

// BlockTree is a regression tree over a block's features, its nodes in
// one slice: node 0 is the root; a node whose Left is 0 is a leaf.
type BlockTree []TreeNode

// TreeNode is one node of a BlockTree. An inner node sends a block to
// Left when its feature Feature is under Split, else to Right; a leaf
// adds Value to the block's score.
type TreeNode struct {
	Feature     uint8
	Split       float64
	Left, Right uint16
	Value       float64
}

// Value returns the value of the leaf that features f reach.
func (t BlockTree) Value(f *[NumBlockFeatures]float64) float64 {
	i := 0
	for t[i].Left != 0 {
		if f[t[i].Feature] < t[i].Split {
			i = int(t[i].Left)
		} else {
			i = int(t[i].Right)
		}
	}
	return t[i].Value
}

// Prob returns the model's probability that a block with features f is
// article text.
func (m *BlockModel) Prob(f [NumBlockFeatures]float64) float64 {
	return 1 / (1 + math.Exp(-m.Margin(&f)))
}

// Margin returns the model's score of features f before the logistic
// function: the linear part plus the trees.
func (m *BlockModel) Margin(f *[NumBlockFeatures]float64) float64 {
	z := 0.0
	for i, w := range m.Weights {
		z += w * f[i]
	}
	for _, t := range m.Trees {
		z += t.Value(f)
	}
	return z
}

// maxPruned is the largest share of the content's text the block model may
// remove: when it scores more of it under its threshold, the engine chose
// something else than an article with some boilerplate around it (a list
// of teasers, an "about" page), which removing blocks cannot mend, and all
// blocks stay.
const maxPruned = 0.5

// minPrunable is the fewest runes of text a content must hold for the
// block model to prune it: a page of a few lines (a notice, a short
// announcement, a test page) is its text, and what a model would remove
// from it is more often a part of it than boilerplate around it.
const minPrunable = 300

// Keep says which blocks stay: those the model scores at or above its
// threshold that are neither a Pointer nor Aside, the longest block
// whatever it is, and all of them when the others hold more than maxPruned
// of the text or when all hold fewer than minPrunable runes.
func (m *BlockModel) Keep(blocks []Block) []bool {
	return KeepScored(blocks, m.probs(blocks), m.Threshold)
}

// probs returns the model's probability for each block.
func (m *BlockModel) probs(blocks []Block) []float64 {
	probs := make([]float64, len(blocks))
	for i := range blocks {
		probs[i] = m.Prob(blocks[i].Features)
	}
	return probs
}

// KeepScored is BlockModel.Keep with the blocks' probabilities given: a
// model's threshold can be chosen on probabilities it did not train on.
func KeepScored(blocks []Block, probs []float64, threshold float64) []bool {
	keep := make([]bool, len(blocks))
	longest, total, gone := 0, 0, 0
	runes := make([]int, len(blocks))
	for i, b := range blocks {
		runes[i] = utf8.RuneCountInString(b.Text)
		total += runes[i]
		if runes[i] > runes[longest] {
			longest = i
		}
	}
	for i := range blocks {
		keep[i] = i == longest || probs[i] >= threshold && !blocks[i].Pointer && !blocks[i].Promo && !blocks[i].Aside
		if !keep[i] {
			gone += runes[i]
		}
	}
	if float64(gone) > maxPruned*float64(total) || total < minPrunable {
		for i := range keep {
			keep[i] = true
		}
	}
	return keep
}

// contentBlocks returns the leaf blocks of a content tree with their
// features.
func contentBlocks(root *html.Node) ([]textBlock, []Block) {
	leaves := leafBlocks(root)
	out := make([]Block, len(leaves))
	for i, f := range blockFeatures(leaves) {
		out[i] = Block{Text: leaves[i].text, Features: f, Pointer: pointer(leaves[i], f[labelFeature] == 1), Promo: promo(leaves[i]), Aside: asideOf(leaves[i].node, root) || captionOf(leaves[i], root)}
	}
	return leaves, out
}

// pruneBlocks removes from the content tree the leaf blocks (leaves, and
// their blocks: contentBlocks) the model does not keep (BlockModel.Keep).
// On a news story (news) it keeps a block only when it scores at least
// newsThreshold, or is a subheading (subheading) scoring at least the
// model's threshold.
func pruneBlocks(leaves []textBlock, blocks []Block, m *BlockModel, news bool) {
	probs := m.probs(blocks)
	if news {
		last := lastOfStory(leaves, blocks, probs)
		for i := range probs {
			if probs[i] < newsThreshold && !(i < last && subheading(leaves[i].node, blocks[i].Text)) {
				probs[i] = 0
			}
		}
	}
	keep := KeepScored(blocks, probs, m.Threshold)
	wholeTables(leaves, keep)
	for i, keep := range keep {
		if n := leaves[i].node; !keep && n.Parent != nil {
			n.Parent.RemoveChild(n)
		}
	}
}

// maxDataCell is the most runes of a cell of a data table (wholeTables).
const maxDataCell = 200

// wholeTables keeps or removes the cells of each data table together: a
// table (its rows, not those of tables inside it) whose every cell with
// text is a leaf block of at most maxDataCell runes, of two rows or more,
// each of two cells or more (dataTable).
// The model scores its cells one by one, and a fare table lost a row, or
// kept a price without its item. The table stays whole when the cells kept
// hold at least half its text, else goes whole. A table of layout, whose
// cells hold paragraphs, is left to the blocks' own scores.
func wholeTables(leaves []textBlock, keep []bool) {
	byTable := map[*html.Node][]int{}
	var order []*html.Node
	for i, l := range leaves {
		if t := tag(l.node); t != atom.Td && t != atom.Th {
			continue
		}
		table := tableOf(l.node)
		if table == nil {
			continue
		}
		if _, ok := byTable[table]; !ok {
			order = append(order, table)
		}
		byTable[table] = append(byTable[table], i)
	}
	for _, table := range order {
		cells := byTable[table]
		if !dataTable(table, leaves, cells) {
			continue
		}
		kept, total := 0, 0
		for _, i := range cells {
			total += leaves[i].runes
			if keep[i] {
				kept += leaves[i].runes
			}
		}
		for _, i := range cells {
			keep[i] = 2*kept >= total
		}
	}
}

// tableOf returns the table a cell is a cell of, nil when none.
func tableOf(cell *html.Node) *html.Node {
	for p := cell.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && tag(p) == atom.Table {
			return p
		}
	}
	return nil
}

// dataTable reports whether table is a data table whose cells with text
// are exactly the leaf blocks cells (indexes into leaves), each of at most
// maxDataCell runes, in two rows or more of two cells or more.
func dataTable(table *html.Node, leaves []textBlock, cells []int) bool {
	leaf := make(map[*html.Node]bool, len(cells))
	for _, i := range cells {
		if leaves[i].runes > maxDataCell {
			return false
		}
		leaf[leaves[i].node] = true
	}
	rows, withText := map[*html.Node]int{}, 0
	ok := true
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil && ok; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch tag(c) {
			case atom.Table:
				ok = false // a table inside: a table of layout
			case atom.Td, atom.Th:
				if strings.TrimSpace(Text(c)) == "" {
					continue
				}
				if !leaf[c] {
					ok = false
					return
				}
				withText++
				rows[c.Parent]++
			default:
				walk(c)
			}
		}
	}
	walk(table)
	if !ok || withText != len(cells) || len(rows) < 2 {
		return false
	}
	for _, n := range rows {
		if n < 2 {
			return false // a row of one cell: a line of layout
		}
	}
	return true
}

// newsThreshold is the least probability of a block of a news story that
// pruneBlocks keeps, subheadings aside. The model's threshold suits pages of
// every kind, many of whose golds keep much of what a news page sets
// around its story: captions and credits, newsletter and app pitches,
// "more on this" lines. On pages that declare a NewsArticle in their
// JSON-LD, blocks it scores between its threshold and 0.65 are mostly
// those (fundus's and trafilatura's pages: precision +0.006 – +0.008 and
// +0.002 – +0.004 on each half when it was set; with the model trained on
// six sets, 0.55 and 0.75 do no better on the tune halves).
const newsThreshold = 0.65

// subheading reports whether the leaf block n, of text text, reads as a
// subheading or a labelled line of the story rather than matter set around
// it: a heading element, a line all in bold, or a line of at most
// maxLabelled characters opened by a label of at most four words and a
// colon ("Where to watch: Netflix").
func subheading(n *html.Node, text string) bool {
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	if k, v, ok := strings.Cut(text, ":"); ok && strings.TrimSpace(v) != "" && utf8.RuneCountInString(text) <= maxLabelled {
		if w := len(strings.Fields(k)); w >= 1 && w <= 4 {
			return true
		}
	}
	return allBold(n)
}

// lastOfStory returns the index of the last block of a news story's own
// text: a paragraph of minLead words, or a block the model keeps at
// newsThreshold that is no subheading; -1 when there is none. A subheading
// after it heads no part of the story but what the page sets after it
// ("Auch interessant", "Lesen Sie auch die folgenden Beiträge:", a
// paywall's "Unlock this article — plus in-depth analysis…", a credit
// line "Foto [M]: Shutterstock"), and needs the news threshold too.
func lastOfStory(leaves []textBlock, blocks []Block, probs []float64) int {
	last := -1
	for i := range leaves {
		if len(wordsOf(leaves[i].text)) >= minLead || probs[i] >= newsThreshold && !subheading(leaves[i].node, blocks[i].Text) {
			last = i
		}
	}
	return last
}

// maxLabelled is the longest line (runes) subheading takes for a labelled
// line: longer, it is a paragraph with a lead-in ("Hier ist Bayern": the
// newsletter's pitch).
const maxLabelled = 120

// allBold reports whether all the text under n is inside <b> or <strong>.
func allBold(n *html.Node) bool {
	bold, other := false, false
	var walk func(*html.Node, bool)
	walk = func(x *html.Node, in bool) {
		if x.Type == html.TextNode {
			if strings.TrimSpace(x.Data) != "" {
				if in {
					bold = true
				} else {
					other = true
				}
			}
			return
		}
		if x.DataAtom == atom.B || x.DataAtom == atom.Strong {
			in = true
		}
		for c := x.FirstChild; c != nil && !other; c = c.NextSibling {
			walk(c, in)
		}
	}
	walk(n, false)
	return bold && !other
}

// Block is one leaf block of a page's content as the block classifier sees
// it: its text and its features. PageBlocks returns them for training.
type Block struct {
	Text     string
	Features [NumBlockFeatures]float64
	// Pointer marks a labelled link to another page ("Read more: <a>…</a>"),
	// which Keep removes whatever its score.
	Pointer bool
	// Promo marks a call to sign up for a newsletter set among the
	// paragraphs (promo), which Keep removes whatever its score.
	Promo bool
	// Aside marks a block that the page's markup sets apart from the
	// article: a figure's caption (<figcaption>: what a picture shows and
	// who took it; a wire photo's caption travels with the picture to
	// other stories; or a short block named a caption beside a picture,
	// captionOf) or navigation (<nav>: a breadcrumb trail). Keep removes it
	// whatever its score.
	Aside bool
}

// captionOf reports whether b, a block under root, is a picture's caption
// by name: it is short (maxCaption), and it or one of its three nearest
// ancestors under root is named a caption (captionAttr) and holds or
// follows a picture (nextToImage).
func captionOf(b textBlock, root *html.Node) bool {
	if b.runes > maxCaption {
		return false
	}
	for p, up := b.node, 0; p != nil && p != root && up < 4; p, up = p.Parent, up+1 {
		if p.Type == html.ElementNode && attr(p, captionAttr) != "" {
			return nextToImage(p)
		}
	}
	return false
}

// asideOf reports whether n, a block under root, is or is inside a
// <figcaption> or a <nav> under root.
func asideOf(n, root *html.Node) bool {
	for p := n; p != nil && p != root; p = p.Parent {
		if p.Type == html.ElementNode && (tag(p) == atom.Figcaption || tag(p) == atom.Nav) {
			return true
		}
	}
	return false
}
