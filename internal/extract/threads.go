package extract

import (
	"strconv"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A thread of readers' comments under a class the page names nothing by
// ("discussion", "talk", "user-reviews", or no class at all) is a run of
// short, alike replies. The engine scores each paragraph's parent and, at
// half, its grandparent: every reply's paragraph adds to the thread's
// container, while an article's few long paragraphs add to theirs, so 25
// replies of 40 words outscore a 4-paragraph article and the engine takes
// the thread for the article. markCommentThreads marks such runs that follow the
// page's heading and an article's worth of prose after it; when the engine
// took one (withoutThread), it chooses again without it.
const (
	// threadAttr is the attribute markCommentThreads sets on the parent of a
	// thread's replies; its value numbers the thread in document order.
	// The engine keeps it.
	threadAttr = "data-neardup-thread"
	// threadMinReplies is the fewest replies of one kind that make a
	// thread.
	threadMinReplies = 3
	// threadMaxReply is the most prose (runes, without spaces, outside
	// links) a reply holds: a comment is short, an article's section
	// is not.
	threadMaxReply = 1000
	// threadShare is the least share of the parent's prose its replies
	// hold.
	threadShare = 0.9
	// threadMinArticle is the least prose between the page's heading and
	// the thread: the article the thread comments on.
	threadMinArticle = 400
)

// markCommentThreads marks with threadAttr each element after the page's heading
// h (pageHeading; nil for none) whose children hold threadMinReplies or
// more replies of one kind (one tag and the same class names once numbers
// are set aside, or none: classStem), each a wrapper of blocks without a
// heading of its own holding some prose and at most threadMaxReply, and
// together threadShare of its prose, when at least threadMinArticle of
// prose lies between the heading and it. Paragraphs are no replies (they
// wrap no block), nor are sections, list articles' entries or teasers
// (they hold headings).
func markCommentThreads(doc, h *html.Node) {
	if h == nil {
		return
	}
	seen := 0        // prose met so far, in document order
	headingEnd := -1 // seen at the heading's end; -1 before it
	k := 0           // threads marked
	var walk func(n *html.Node) int
	walk = func(n *html.Node) int {
		start := seen
		total := 0
		kinds := map[string]int{}
		replies := map[string]int{} // prose in replies of each kind
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				r := nonSpaceRunes(c.Data)
				seen += r
				total += r
			case c.Type != html.ElementNode || neverText[tag(c)] || tag(c) == atom.A:
			default:
				p := walk(c)
				total += p
				if headingEnd >= 0 && p > 0 && p <= threadMaxReply && holdsBlock(c) && !holdsSubheading(c) {
					kind := c.Data + " " + classStem(attr(c, "class"))
					kinds[kind]++
					replies[kind] += p
				}
			}
		}
		if n == h {
			headingEnd = seen
		}
		if headingEnd < 0 || start < headingEnd || start-headingEnd < threadMinArticle || n.Type != html.ElementNode || isAncestor(n, h) {
			return total
		}
		for kind, count := range kinds {
			if count >= threadMinReplies && float64(replies[kind]) >= threadShare*float64(total) {
				k++
				n.Attr = append(n.Attr, html.Attribute{Key: threadAttr, Val: strconv.Itoa(k)})
				break
			}
		}
		return total
	}
	walk(doc)
}

// chosenThreads returns the marks (threadAttr) of the threads in the
// engine's content n that hold chosenShare of its prose; nil when they hold
// less.
func chosenThreads(n *html.Node) map[string]bool {
	all := prose(n)
	if all == 0 {
		return nil
	}
	marks := map[string]bool{}
	inside := 0
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if m := attr(c, threadAttr); m != "" {
				marks[m] = true
				inside += prose(c)
				continue
			}
			walk(c)
		}
	}
	if m := attr(n, threadAttr); m != "" {
		return map[string]bool{m: true}
	}
	walk(n)
	if float64(inside) < chosenShare*float64(all) {
		return nil
	}
	return marks
}

// removeThreads removes from a marked tree the elements whose threadAttr
// mark is one of marks (with what they hold).
func removeThreads(n *html.Node, marks map[string]bool) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode {
			if marks[attr(c, threadAttr)] {
				n.RemoveChild(c)
			} else {
				removeThreads(c, marks)
			}
		}
		c = next
	}
}

// withoutThread: when the engine took a thread of readers' comments for
// the article (chosenThreads), it chooses again on the page without it;
// the second choice is taken when it is no thread and holds regionMinProse
// of prose.
func (c chooser) withoutThread(content *html.Node) *html.Node {
	if content == nil {
		return nil
	}
	marks := chosenThreads(content)
	if marks == nil {
		return content
	}
	again := c.fresh()
	removeThreads(again, marks)
	if g := c.engine(again, c.url); g.Node != nil && chosenThreads(g.Node) == nil && prose(g.Node) >= regionMinProse {
		return g.Node
	}
	return content
}

// holdsSubheading reports whether an <h1>–<h4> is under n: a section's,
// a list entry's or a teaser's title. A reply's author stands in a line
// of its own or an <h5>, if in a heading at all.
func holdsSubheading(n *html.Node) bool {
	for d := range n.Descendants() {
		if d.Type == html.ElementNode {
			switch tag(d) {
			case atom.H1, atom.H2, atom.H3, atom.H4:
				return true
			}
		}
	}
	return false
}
