package extract

import (
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// rowsAttr is the attribute markRows sets on the parent of a run of rows:
// sibling elements of one tag and one kind of class, each holding prose.
// Its value numbers the run in document order, the same on every parse of
// a page; rowAttr, on each of the rows, is the same number. The engine
// keeps both.
const (
	rowsAttr = "data-neardup-rows"
	rowAttr  = "data-neardup-row"
)

const (
	// rowMinCount is the fewest rows of one kind that make a run.
	rowMinCount = 3
	// rowMinProse is the least prose (runes, without spaces, outside
	// links) a row must hold.
	rowMinProse = 150
	// rowGain is how many times the engine's prose the rows' parent
	// must hold for widenToRows to take it instead.
	rowGain = 1.5
)

// rowRun is a run of rows markRows found: the value of rowsAttr on its
// parent, the parent's prose and the most prose one of its rows holds.
type rowRun struct {
	id       string
	prose    int
	rowProse int
}

// markRows marks the parents of runs of rows and returns the runs. A page
// builder lays an article out as rows of one kind ("et_pb_row
// et_pb_row_3", "dnd-row row-number-6"), a list article its entries; the
// engine, scoring each row's text apart, takes one of them. Rows are
// compared by their tag and their class names without the numbered ones
// (classStem); list items need no class. Other elements without a class,
// regions and other stories (inAttr) are never rows, and neither are
// <article>s and blog posts (blogPostClass): a run of those is a blog's
// index, each one a story of its own. It runs on a marked tree
// (markRegions).
func markRows(root *html.Node) []rowRun {
	type row struct {
		node  *html.Node
		kind  string
		prose int
	}
	var runs []rowRun
	k := 0
	var walk func(n *html.Node) int // returns prose(n)
	walk = func(n *html.Node) int {
		total := 0
		var rows []row
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				total += nonSpaceRunes(c.Data)
			case c.Type != html.ElementNode || neverText[tag(c)]:
			default:
				p := walk(c)
				if tag(c) == atom.A {
					continue
				}
				total += p
				if kind := rowKind(c, p); kind != "" {
					rows = append(rows, row{c, kind, p})
				}
			}
		}
		if len(rows) < rowMinCount || n.Type != html.ElementNode || n.DataAtom == atom.Body || n.DataAtom == atom.Html || hasAttr(n, inAttr) {
			return total
		}
		count := map[string]int{}
		for _, r := range rows {
			count[r.kind]++
		}
		kind := "" // the kind with the most rows, the first in the page on a tie
		for _, r := range rows {
			if count[r.kind] > count[kind] {
				kind = r.kind
			}
		}
		if count[kind] < rowMinCount {
			return total
		}
		k++
		run := rowRun{id: strconv.Itoa(k), prose: total}
		n.Attr = append(n.Attr, html.Attribute{Key: rowsAttr, Val: run.id})
		for _, r := range rows {
			if r.kind == kind {
				r.node.Attr = append(r.node.Attr, html.Attribute{Key: rowAttr, Val: run.id})
				run.rowProse = max(run.rowProse, r.prose)
			}
		}
		runs = append(runs, run)
		return total
	}
	walk(root)
	return runs
}

// classStem returns the class names of a class attribute without the
// number they end in after a "-" or "_", lower-cased, in their order: the
// kind of element they name, not which one ("et_pb_row et_pb_row_3" is
// "et_pb_row et_pb_row_"; "mid_box2" stays itself).
func classStem(class string) string {
	var kept []string
	for name := range strings.FieldsSeq(class) {
		if stem := strings.TrimRight(name, "0123456789"); len(stem) < len(name) && stem != "" && strings.ContainsRune("-_", rune(stem[len(stem)-1])) {
			name = stem
		}
		kept = append(kept, strings.ToLower(name))
	}
	return strings.Join(kept, " ")
}

// rowKind returns what markRows compares rows by: c's tag and classStem;
// "" when c can be no row (no class, a region or other story, an
// <article> or a blog post, or under rowMinProse of prose).
func rowKind(c *html.Node, prose int) string {
	if prose < rowMinProse || hasAttr(c, inAttr) || tag(c) == atom.Article || slices.ContainsFunc(strings.Fields(attr(c, "class")), blogPostClass) {
		return ""
	}
	if stem := classStem(attr(c, "class")); stem != "" {
		return c.Data + " " + stem
	}
	if tag(c) == atom.Li {
		return "li" // a list article's entries
	}
	return ""
}

// widenToRows returns, from a fresh copy of the page, the parent of the
// run of rows that holds the engine's content (its longest block in a row,
// or beside the rows as a block of its own) when the engine took part of
// the run: the parent holds rowGain times the content's prose, sentences
// (sentenceEndsPerKB of its text without white space), and no region the
// engine could not take (unless the engine took one too: a page builder
// names every part a "widget"). nil otherwise; without copying the page when
// no run of the page (runs) holds that much prose beside rows the engine
// took or one row's worth of content.
func widenToRows(runs []rowRun, content *html.Node, fresh func() *html.Node) *html.Node {
	p := prose(content)
	taken := map[string]bool{} // the runs some of whose rows the engine took whole
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if v := attr(n, rowAttr); v != "" {
			taken[v] = true
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode {
				walk(c)
			}
		}
	}
	walk(content)
	ids := map[string]bool{}
	for _, r := range runs {
		// The content is rows of the run, or part of one: no more prose
		// than the longest row holds (give or take a headline the engine
		// adds). Other runs are not looked for on a fresh copy.
		if float64(r.prose) >= rowGain*float64(p) && (taken[r.id] || p <= r.rowProse+r.rowProse/4) {
			ids[r.id] = true
		}
	}
	if len(ids) == 0 {
		return nil
	}
	core := squash(longestBlock(content))
	if core == "" {
		return nil
	}
	again := fresh()
	blocks := leafBlocks(again)
	i := slices.IndexFunc(blocks, func(b textBlock) bool { return squash(b.text) == core })
	if i < 0 {
		return nil
	}
	for row, a := blocks[i].node, blocks[i].node.Parent; a != nil && a.Parent != nil; row, a = a, a.Parent {
		if !ids[attr(a, rowsAttr)] {
			continue
		}
		// The content's longest block is in one of the rows, or is itself
		// beside them (an introduction); not in a wrapper beside them (the
		// page's <main> beside a run of dialogs).
		if kind := rowKind(row, prose(row)); row != blocks[i].node && (kind == "" || sameKind(a, kind) < rowMinCount) {
			return nil
		}
		// Sentences, counted on the text without white space: a page
		// builder's text is indented by more white space than it holds
		// letters.
		if ends, _, text := sentenceEnds(a); chosenRegions(a) != nil && chosenRegions(content) == nil || ends*1000 <= sentenceEndsPerKB*text {
			return nil
		}
		a.Parent.RemoveChild(a)
		return a
	}
	return nil
}

// sameKind returns how many of n's children are rows of the kind kind
// (rowKind).
func sameKind(n *html.Node, kind string) int {
	k := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && rowKind(c, prose(c)) == kind {
			k++
		}
	}
	return k
}
