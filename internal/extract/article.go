package extract

import (
	"fmt"
	nurl "net/url"
	"slices"
	"strings"

	"github.com/neardup/neardup/internal/extract/rules"
	"golang.org/x/net/html"
)

// extractDoc finds the article in a parsed page. Unless opts.LibraryOnly,
// the tree is cleaned first (never-text, hidden, control and comment
// elements, the rule's drops) and its navigation regions are marked, the
// rule's body selector takes precedence over the engine's choice, sections
// of related stories and short link-only navigation blocks leave the
// engine's content, the text is rendered block-aware and the rule's
// boilerplate is stripped. When the engine took a navigation region, a
// dialog, an author's box, another story of the page or one reply of a
// thread for the article (chosenRegions), when sections of related
// stories make most of the engine's content, or the content is long and
// holds almost no sentences (a table, a list of names), the engine chooses
// again on a copy of the page without them.
func extractDoc(doc *html.Node, pageURL string, rule *rules.Rule, opts Options) (Article, error) {
	u, err := nurl.Parse(pageURL)
	if err != nil || pageURL == "" {
		u = nil
	}
	if opts.LibraryOnly {
		f := opts.Engine(doc, u)
		a := f.Meta
		if f.Render != nil {
			f.Text = f.Render()
		}
		a.Text = strings.TrimSpace(f.Text)
		return a, nil
	}
	drop := isComments
	if rule.CanDrop() {
		drop = func(n *html.Node) bool { return isComments(n) || rule.Drops(n) }
	}
	// The page readied for the engine: streamed segments and an article
	// given only to readers without scripts in place, the never-text,
	// hidden and dropped elements out, navigation regions marked.
	revealStreamed(doc)
	revealNoscript(doc)
	dropPlaceholders(doc)
	clean(doc, drop)
	heading := markRegions(doc) // the page's heading
	runs := markRows(doc)
	gaps := gapSlots(doc)
	// fresh is a copy of the readied page for the engine to choose again
	// on. The engine works on copies of the page it is given (one for each
	// of its passes) and changes the page itself only as it readies it
	// (scripts out, runs of <br> made paragraphs), as it would again: a
	// copy does what a new parse readied again did, for a fraction of its
	// time.
	fresh := func() *html.Node { return cloneTree(doc) }
	var bodyText string
	if nodes := rule.Body(doc); len(nodes) > 0 {
		parts := make([]string, 0, len(nodes))
		for _, n := range nodes {
			if t := Text(n); t != "" {
				parts = append(parts, t)
			}
		}
		bodyText = strings.Join(parts, "\n\n")
	}
	declared := pageDate(doc, pageURL)
	var decl declaredBody // read before the engine changes the tree
	var story storyKind   // the kind of story the page says it is
	if bodyText == "" && !opts.KeepBlocks && opts.blocks == nil {
		decl, story = declaredArticle(doc)
	}
	_, candProse := articleContainer(doc)
	var descs []string   // the page's descriptions
	var desc, dek string // its standfirst, read before the engine changes the tree
	if bodyText == "" && !opts.KeepBlocks && opts.blocks == nil {
		descs = descriptions(doc)
		desc, dek = standfirst(heading, descs)
	}
	f := opts.Engine(doc, u)
	a := f.Meta
	if a.Date.IsZero() {
		a.Date = declared
	}
	if bodyText == "" && rule.BodySelector() != "" {
		a.RuleMiss = fmt.Sprintf("%s: body %q matched nothing on the page; the text is the extractor's own choice", rule, rule.BodySelector())
	}
	if bodyText == "" && f.Node != nil {
		marks := chosenRegions(f.Node)
		if one, reps := oneRepeat(marks); reps && !one {
			marks = nil // the thread, not one reply
		}
		if marks != nil {
			// The engine took a navigation region (a sidebar, a
			// footer), a dialog, an author's box, another story or one
			// reply for the article: it chooses again on the page
			// without it.
			again := fresh()
			removeMarked(again, marks)
			if g := opts.Engine(again, u); g.Node != nil && chosenRegions(g.Node) == nil && prose(g.Node) >= max(regionMinProse, prose(f.Node)/regionMaxShrink) {
				f.Node = g.Node
			}
		}
	}
	if bodyText == "" && f.Node != nil && mostlyRelated(f.Node) {
		// The engine took sections of related stories for the article: it
		// chooses again on the page without them.
		again := fresh()
		dropRelated(again)
		if g := opts.Engine(again, u); g.Node != nil {
			f.Node = g.Node
		}
	}
	if bodyText == "" && betterContainer(candProse, f.Node) && !namedChoice(f.Node) {
		// The page names its article's container, it holds much more
		// prose than the engine's choice, and not the engine's longest
		// block: the engine chose another part of the page.
		again := fresh()
		if c, _ := articleContainer(again); c != nil && !holdsCore(c, f.Node) {
			c.Parent.RemoveChild(c)
			f.Node = c
		}
	}
	if bodyText == "" && f.Node != nil {
		if list, prose := withoutSentences(f.Node); list {
			// A long content without sentences (a table, a list of
			// names): the engine chooses again without it.
			again := fresh()
			removeBlocksOf(again, f.Node)
			if g := opts.Engine(again, u); g.Node != nil && betterChoice(g.Node, prose) {
				f.Node = g.Node
			}
		}
	}
	if bodyText == "" && f.Node != nil {
		// The engine took one row of an article laid out in rows: the
		// content is the rows' parent.
		if w := widenToRows(runs, f.Node, fresh); w != nil {
			f.Node = w
		}
	}
	switch {
	case bodyText != "":
		a.Text = bodyText
	case f.Node != nil:
		dropped := droppedGaps(f.Node, gaps)
		dropRelated(f.Node)
		dropAuthorBoxes(f.Node)
		pruneLinkBlocks(f.Node)
		pruneDateLines(f.Node)
		pruneHeadline(f.Node, a.Title)
		switch {
		case opts.blocks != nil:
			_, *opts.blocks = contentBlocks(f.Node)
		case !opts.KeepBlocks:
			leaves, blocks := contentBlocks(f.Node)
			if dek == "" {
				// The content's own lead, when it is the page's
				// description, comes back if pruning takes it.
				desc, dek = describedLead(leaves, descs)
			}
			pruneBlocks(leaves, blocks, opts.BlockModel, story == newsStory)
			pruneUndeclared(f.Node, decl.all())
			if story != noStory {
				pruneStoryHeader(f.Node, cleanByline(a.Author), a.Title, textOf(heading))
			}
		}
		if opts.blocks == nil {
			// Rules on what the classifier kept: the blocks it
			// learns from are those before them.
			pruneStampBlocks(f.Node)
			pruneSkipLinks(f.Node)
			pruneCredits(f.Node)
			pruneEmbeds(f.Node)
			pruneTail(f.Node)
			restoreGaps(f.Node, dropped)
		}
		a.Text = withStandfirst(Text(f.Node), desc, dek)
	}
	if bodyText == "" {
		a.Text = preferDeclared(a.Text, a.Title, decl)
	}
	a.Text = rule.Strip(canonical(tidy(a.Text)))
	a.Lang = language(a.Text, a.Lang)
	a.Title = canonical(strings.Join(strings.Fields(a.Title), " "))
	a.Author = cleanByline(a.Author)
	return a, nil
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
	var all, related int
	var walk func(*html.Node, bool)
	walk = func(n *html.Node, in bool) {
		if n.Type == html.TextNode {
			k := len(strings.TrimSpace(n.Data))
			all += k
			if in {
				related += k
			}
			return
		}
		in = in || n.Type == html.ElementNode && attr(n, regionAttr) == "related"
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, in)
		}
	}
	walk(n, false)
	return related > 0 && 2*related > all
}

// cloneTree returns a deep copy of n and everything under it, detached
// from n's parent and siblings.
func cloneTree(n *html.Node) *html.Node {
	c := &html.Node{Type: n.Type, DataAtom: n.DataAtom, Data: n.Data, Namespace: n.Namespace}
	if len(n.Attr) > 0 {
		c.Attr = slices.Clone(n.Attr)
	}
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		c.AppendChild(cloneTree(k))
	}
	return c
}
