package extract

import (
	"fmt"
	nurl "net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/extract/rules"
	"golang.org/x/net/html"
)

// extractDoc finds the article in a parsed page. Unless opts.LibraryOnly,
// the tree is cleaned first (never-text, hidden, control and comment
// elements, the rule's drops) and its navigation regions are marked, the
// rule's body selector takes precedence over the engine's choice, the
// engine chooses again when its first choice is not the article
// (chooser.reconsider), sections of related stories, short link-only
// navigation blocks and the blocks the classifier scores as boilerplate
// leave the engine's content, the text is rendered block-aware and the
// rule's boilerplate is stripped.
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
	// The checkpoints of a page past its time (Options.checkpoint): at
	// each element the cleaning asks about, and between the stages.
	drop := func(n *html.Node) bool { opts.checkpoint(); return isComments(n) }
	if rule.CanDrop() {
		drop = func(n *html.Node) bool { opts.checkpoint(); return isComments(n) || rule.Drops(n) }
	}
	// The page readied for the engine: declarative shadow roots, streamed
	// segments and an article given only to readers without scripts in
	// place, the never-text, hidden and dropped elements out, paragraphs
	// of unclosed <div>s side by side (not for a rule's body selector,
	// written for the page as parsed), navigation regions marked.
	revealShadowRoots(doc)
	revealStreamed(doc)
	revealNoscript(doc)
	dropPlaceholders(doc)
	scripts := clean(doc, drop)
	if rule.BodySelector() == "" {
		unnestChains(doc)
	}
	opts.checkpoint()
	heading := markRegions(doc, u) // the page's heading
	runs := markRows(doc)
	gaps := gapSlots(doc)
	// fresh is a copy of the readied page for the engine to choose again
	// on. The engine works on copies of the page it is given (one for each
	// of its passes) and changes the page itself only as it readies it
	// (scripts out, runs of <br> made paragraphs), as it would again: a
	// copy does what a new parse readied again did, for a fraction of its
	// time.
	fresh := func() *html.Node { opts.checkpoint(); return cloneTree(doc) }
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
	ld := readLinkedData(doc) // before the engine takes the scripts out
	var decl declaredBody     // the article the page declares
	var story storyKind       // the kind of story the page says it is
	if bodyText == "" && !opts.KeepBlocks && opts.blocks == nil {
		decl, story = ld.body, ld.kind
	}
	_, candProse := articleContainer(doc)
	var descs []string   // the page's descriptions
	var desc, dek string // its standfirst, read before the engine changes the tree
	if bodyText == "" && !opts.KeepBlocks && opts.blocks == nil {
		descs = descriptions(doc)
		desc, dek = standfirst(heading, descs)
	}
	engine := keepBylines(opts.Engine) // a byline's name cut out of its line is put back
	opts.checkpoint()
	f := engine(doc, u)
	opts.checkpoint()
	a := f.Meta
	if a.Title == "" {
		a.Title = headTitle(doc) // the engine says nothing of a page it finds no content in
	}
	// The title, date and author are read now, while the page is at hand
	// (it is let go before the text is rendered: a large page's tree and
	// its text are then not held together). The engine readied the page
	// (scripts out, runs of <br> made paragraphs) and chose on copies of
	// it: its dates and bylines are where they were, around the headline
	// the page shows (shown: its heading in the <title>, else its only
	// <h1>).
	shown := heading
	if shown == nil {
		shown = onlyHeadline(doc)
	}
	if !a.Date.IsZero() {
		a.Date = declaredDate(a.Date, doc, ld)
	}
	if a.Date.IsZero() {
		a.Date = pageDate(doc, shown, pageURL, ld)
	}
	title, author := pageTitle(a.Title, doc, heading, shown, u, ld.headlines), pageAuthorOf(a.Author, doc, shown, ld, u)
	if bodyText == "" && rule.BodySelector() != "" {
		a.RuleMiss = fmt.Sprintf("%s: body %q matched nothing on the page; the text is the extractor's own choice", rule, rule.BodySelector())
	}
	if bodyText == "" {
		again := chooser{engine: engine, fresh: fresh, url: u, runs: runs, containerProse: candProse}
		f.Node = again.reconsider(f.Node)
	}
	opts.checkpoint()
	switch {
	case bodyText != "":
		a.Text = bodyText
	case f.Node != nil:
		dropped := droppedGaps(f.Node, gaps)
		keepCards(f.Node)
		dropRelated(f.Node)
		dropAuthorBoxes(f.Node)
		pruneLinkBlocks(f.Node)
		pruneDateLines(f.Node)
		// The headline is compared with the title without the site's
		// name when the page's heading is in its <title>: the engine
		// keeps the name ("… - Вести") when cutting it leaves four words
		// or fewer, or a separator it does not know ("…_新浪网"). A
		// page's only <h1> (shown) may be another wording than its
		// <title>: the engine's title is its title then.
		headline := a.Title
		if heading != nil {
			headline = title
		}
		pruneHeadline(f.Node, headline)
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
				blocks := leafBlocks(f.Node)
				pruneStoryHeader(blocks, cutAuthor(a.Author, declaredName(a.Author, doc, ld)), a.Title, textOf(heading))
				pruneAuthorBio(blocks, author)
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
		if !opts.scripted && opts.blocks == nil && utf8.RuneCountInString(a.Text) < max(scriptedBelow, opts.MinChars) {
			a.Text = preferScripted(a.Text, title, pageURL, scripts, rule, opts)
		}
	}
	a.Text = tidy(a.Text)
	title, author = repairedAlong(title, author, a.Text)
	a.Text = rule.Strip(canonical(a.Text))
	a.Lang = language(a.Text, a.Lang)
	a.Date = WithLanguageZone(a.Date, a.Lang)
	a.Title, a.Author = title, author
	return a, nil
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
