package extract

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxLinkBlock is the longest text (in runes) of a block made only of links
// that pruneLinkBlocks removes: share bars, "related" lists, tag clouds,
// menus. Measured on the gold sets, limits from 20 to 200 score the same F1
// (within 0.001) and all raise precision; 40 was best on both together.
const maxLinkBlock = 40

// pruneLinkBlocks removes from the content tree the short link-only blocks
// that make menus, share bars, tag clouds and "related" lists: an innermost
// block (or table cell) whose text is all link text, at most maxLinkBlock
// runes, and that is an entry of a list or table or stands next to another
// such block, when it is navigation: it lies in a region markRegions marked
// (a sidebar, menu, footer, share bar …), or it is a cell of a table with
// at least two link-only cells (the navigation table of a page laid out in
// tables) and no other cell of its row is text. A paragraph of one link,
// alone among the article's paragraphs, stays, and so does a block whose
// links all point inside the page (a table of contents, tabs).
//
// Lists of links elsewhere are the article's: a list of references, a
// table of contents, the names in an infobox, a list whose entries are
// partly links. Measured on the gold sets (docs/extraction-quality.md): against
// removing every such block wherever it stands, F1 0.8932 instead of 0.8928
// on the Dragnet test split, 0.8909 on CleanEval either way, 0.9984 instead
// of 0.9954 on the Readability.js test pages, whose gold keeps those lists.
func pruneLinkBlocks(n *html.Node) {
	// Each element child once, whether it is a link block, decided before
	// any sibling goes; text between two children separates them.
	var kids []*html.Node
	var links []bool
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.ElementNode:
			kids, links = append(kids, c), append(links, linkBlock(c))
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) != "":
			kids, links = append(kids, nil), append(links, false)
		}
	}
	var gone []int
	for i, c := range kids {
		if c == nil || !links[i] || tag(c) == atom.P || inPageLinks(c) {
			continue
		}
		if !(listLike(c) || i > 0 && links[i-1] || i+1 < len(links) && links[i+1]) {
			continue
		}
		if inRegion(c) || isCell(c) && linkTable(c) && !dataRow(c) {
			gone = append(gone, i)
		}
	}
	for _, i := range gone {
		n.RemoveChild(kids[i])
		kids[i] = nil
	}
	for _, c := range kids {
		if c != nil {
			pruneLinkBlocks(c)
		}
	}
}

// isCell reports a table cell or row.
func isCell(n *html.Node) bool {
	switch tag(n) {
	case atom.Td, atom.Th, atom.Tr:
		return true
	}
	return false
}

// linkTable reports whether the table around cell c (a cell or a row) has
// at least two cells that are link blocks; cells of nested tables are not
// counted.
func linkTable(c *html.Node) bool {
	t := c.Parent
	for t != nil && tag(t) != atom.Table {
		t = t.Parent
	}
	if t == nil {
		return false
	}
	linked := 0
	var walk func(*html.Node) bool // reports whether two were found
	walk = func(n *html.Node) bool {
		for x := n.FirstChild; x != nil; x = x.NextSibling {
			switch {
			case x.Type != html.ElementNode || tag(x) == atom.Table:
			case tag(x) == atom.Td || tag(x) == atom.Th:
				if linkBlock(x) {
					linked++
				}
			case walk(x):
				return true
			}
			if linked >= 2 {
				return true
			}
		}
		return false
	}
	return walk(t)
}

// dataRow reports whether the row of cell c (or row c itself) holds a cell
// with text that is not a link block: the link is then a value in a table
// of data (a version beside its date, a name beside its label), not
// navigation.
func dataRow(c *html.Node) bool {
	row := c
	if tag(c) != atom.Tr {
		row = c.Parent
	}
	if row == nil || tag(row) != atom.Tr {
		return false
	}
	for x := row.FirstChild; x != nil; x = x.NextSibling {
		if x.Type == html.ElementNode && (tag(x) == atom.Td || tag(x) == atom.Th) && strings.TrimSpace(Text(x)) != "" && !linkBlock(x) {
			return true
		}
	}
	return false
}

// inPageLinks reports whether n has links and all of them point inside the
// page (href="#…").
func inPageLinks(n *html.Node) bool {
	found, all := false, true
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && tag(n) == atom.A {
			found = true
			all = all && strings.HasPrefix(strings.TrimSpace(attr(n, "href")), "#")
		}
		for c := n.FirstChild; c != nil && all; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return found && all
}

func hasBlockChild(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && (block[tag(c)] || hasBlockChild(c)) {
			return true
		}
	}
	return false
}

// linkOnly reports whether all of n's text sits in links and is short.
func linkOnly(n *html.Node) bool {
	var all, linked int
	var walk func(*html.Node, bool)
	walk = func(n *html.Node, inLink bool) {
		switch {
		case n.Type == html.TextNode:
			k := utf8.RuneCountInString(strings.TrimSpace(n.Data))
			all += k
			if inLink {
				linked += k
			}
		case n.Type == html.ElementNode:
			inLink = inLink || tag(n) == atom.A
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inLink)
		}
	}
	walk(n, false)
	return all > 0 && all <= maxLinkBlock && linked == all
}

// pruneDateLines removes the <time> elements of the content tree that stand
// on a line of their own and hold only a date or a time: the dateline under
// a headline. A date inside a sentence stays.
func pruneDateLines(root *html.Node) {
	for _, t := range outermost(root, isTime) {
		if t.Parent != nil && standsAlone(t) && isDateLine(strings.TrimSpace(Text(t))) {
			t.Parent.RemoveChild(t)
		}
	}
}

// maxStampWords is the most words besides its date a stamp block holds: a
// label or a name ("KEY EVENT", "Antony Clements-Thrower", "By Jane Roe,
// posted on").
const maxStampWords = 5

// pruneStampBlocks removes the blocks of the content tree that hold a
// <time> of a date or a time and at most maxStampWords other words, and end
// no sentence: a live blog's entry lines ("<time>21:00</time> Antony
// Clements-Thrower", "<time>20:42</time> KEY EVENT"), a post's byline and
// time. A date inside a sentence stays ("The vote is on <time>5
// May</time>."). It runs on what the block classifier kept, so the blocks
// the classifier learns from are those of pruneDateLines.
func pruneStampBlocks(root *html.Node) {
	for _, t := range outermost(root, isTime) {
		if !isAncestor(root, t) {
			continue // its block went with an earlier one
		}
		date := strings.TrimSpace(Text(t))
		if !isDateLine(date) {
			continue
		}
		if b := stampBlock(t, root, len(strings.Fields(date))); b != nil {
			b.Parent.RemoveChild(b)
		}
	}
}

// stampBlock returns the block around t, a <time> of dateWords words
// inside root, when it holds at most maxStampWords words besides and ends
// no sentence; nil otherwise.
func stampBlock(t, root *html.Node, dateWords int) *html.Node {
	b := t.Parent
	for b != nil && b != root && b.Type == html.ElementNode && !block[tag(b)] {
		b = b.Parent
	}
	if b == nil || b == root || b.Parent == nil || b.Type != html.ElementNode {
		return nil
	}
	text := Text(b)
	if words := len(strings.Fields(text)) - dateWords; words < 1 || words > maxStampWords || endsSentence(text) {
		return nil
	}
	return b
}

// skipLinkText reports whether the text of a link to an anchor of the page
// says it skips there ("Skip to main content", "skip past newsletter
// promotion", "Zum Inhalt springen"): folded, "skip" and at most five
// words more, or a skip link's words in another language.
func skipLinkText(text string) bool {
	w := wordsOf(text)
	if len(w) == 0 || len(w) > 6 {
		return false
	}
	if w[0] == "skip" && len(w) > 1 {
		return true
	}
	f := strings.Join(w, " ")
	for _, p := range skipPhrases {
		if strings.HasPrefix(f, p) {
			return true
		}
	}
	return false
}

// skipPhrases open a skip link's text in other languages, folded.
var skipPhrases = []string{"zum inhalt", "zum hauptinhalt", "direkt zum inhalt", "aller au contenu", "passer au contenu",
	"saltar al contenido", "ir al contenido", "vai al contenuto", "przejdź do treści", "naar de inhoud",
	"перейти к содержанию", "jump to content", "jump to main content"}

// topLinkText reports whether a link's text says it goes back to the top
// of the page ("Back to top", "(Top of Page)", "< back to top", "Nach
// oben"): folded, one of topPhrases, or "top" alone when the link is to an
// anchor of the page (inPage).
func topLinkText(text string, inPage bool) bool {
	f := strings.Join(wordsOf(text), " ")
	return topPhrases[f] || inPage && f == "top"
}

// topPhrases are the words of a link back to the top of the page, folded.
var topPhrases = map[string]bool{
	"back to top": true, "back to the top": true, "return to top": true, "return to the top": true,
	"go to top": true, "to top": true, "top of page": true, "top of the page": true, "back to top of page": true,
	"nach oben": true, "zurück nach oben": true, "zum seitenanfang": true, "seitenanfang": true,
	"haut de page": true, "retour en haut": true, "retour en haut de page": true, "volver arriba": true,
	"ir arriba": true, "torna su": true, "torna all inizio": true, "naar boven": true, "terug naar boven": true,
	"do góry": true, "powrót do góry": true, "наверх": true, "till toppen": true, "til toppen": true,
	"tilbage til toppen": true, "voltar ao topo": true,
}

// pruneSkipLinks removes from the content tree the links that move within
// the page and say so: those to an anchor of the page whose text says they
// skip there (skipLinkText), which clean leaves when no name says so, and
// those back to the top (topLinkText), which older pages repeat after
// every section. It runs on what the block classifier kept.
func pruneSkipLinks(root *html.Node) {
	for _, l := range outermost(root, func(n *html.Node) bool { return n.DataAtom == atom.A }) {
		inPage := strings.HasPrefix(strings.TrimSpace(attr(l, "href")), "#")
		if !inPage && textBytes(l, maxTopLink) > maxTopLink {
			continue // too long to say "back to top": not rendered
		}
		if text := Text(l); inPage && skipLinkText(text) || topLinkText(text, inPage) {
			l.Parent.RemoveChild(l)
		}
	}
}

// maxTopLink is the most text (bytes, without spaces) of a link to another
// address that pruneSkipLinks reads: the longest of topPhrases is about 20.
const maxTopLink = 40

// standsAlone reports whether n is a line of its own: its siblings up to the
// nearest block boundary (or line break) on either side hold no text, and
// where its parent is inline, the parent stands alone.
func standsAlone(n *html.Node) bool {
	for {
		for _, next := range []func(*html.Node) *html.Node{
			func(x *html.Node) *html.Node { return x.PrevSibling },
			func(x *html.Node) *html.Node { return x.NextSibling },
		} {
			for s := next(n); s != nil; s = next(s) {
				if s.Type == html.ElementNode && (block[tag(s)] || lineBreak[tag(s)]) {
					break
				}
				if s.Type == html.TextNode && strings.TrimSpace(s.Data) != "" || s.Type == html.ElementNode && strings.TrimSpace(Text(s)) != "" {
					return false
				}
			}
		}
		p := n.Parent
		if p == nil || p.Type != html.ElementNode || block[tag(p)] || lineBreak[tag(p)] {
			return true
		}
		n = p
	}
}

// pruneStoryHeader removes from the top of a story's content tree (a page
// that declares itself an Article, BlogPosting, Report or NewsArticle in
// its JSON-LD: readLinkedData) what its page gives as fields of their
// own: the headline (headlineBlock: one of titles), and, in its header
// (above its second paragraph of minLead words: the first is often the
// standfirst, set above the date), the lines of its date and time ("3. Mai
// 2024, 17:47", "12.12.2025, 05:07 Uhr", "17:41 JST, October 13, 2024";
// dateLike) and the byline that names its author ("Kolumne von Lars
// Brunckhorst"; the author's name and at most maxBylineExtra words more).
// A story that declares itself gives them as metadata, and the golds of
// such stories (fundus's: the article body each publisher's parser gives)
// leave them out of the body; the older golds of pages of every kind
// (Dragnet's, CleanEval's), which declare nothing, keep a post's headline,
// date and author: removing the headline from every page cost Dragnet
// 0.0016. A content without a paragraph of minLead words (a gallery, a
// schedule) has no story for a header to head and keeps them.
// blocks are the content's leaf blocks (leafBlocks).
func pruneStoryHeader(blocks []textBlock, author string, titles ...string) {
	if !slices.ContainsFunc(blocks, func(b textBlock) bool { return len(wordsOf(b.text)) >= minLead }) {
		return
	}
	headline := headlineBlock(blocks, titles...)
	name := fold(author)
	long := 0
	for i, b := range blocks {
		switch {
		case i == headline:
			b.node.Parent.RemoveChild(b.node)
		case len(wordsOf(b.text)) >= minLead:
			if long++; long >= 2 {
				return
			}
		case dateLike(b.text) || name != "" && bylineOf(fold(b.text), name):
			b.node.Parent.RemoveChild(b.node)
		}
	}
}

// pruneAuthorBio removes from a declared story the author's biography
// after it: one of its last bioTail blocks, of at most maxBio bytes, that
// opens with the author's name and a verb of a biography ("Jane Roe is a
// reporter who covers …", "Jane Roe schreibt …"). The golds of declared
// stories (article bodies) leave such lines out; those of pages that
// declare nothing keep them about as often as not, so the rule acts on
// stories alone. author is the page's author; a name of one word (a
// brand's, "QCY") names no person and opens the site's own pitches ("QCY
// is already …"), and a first name alone can open a line of the story
// ("Jordan is …" in a story by Jordan Smith).
// blocks are the content's leaf blocks (leafBlocks), some of them perhaps
// removed since (pruneStoryHeader).
func pruneAuthorBio(blocks []textBlock, author string) {
	name := fold(author)
	if !strings.Contains(name, " ") {
		return
	}
	blocks = attached(blocks)
	for _, b := range blocks[max(len(blocks)-bioTail, 0):] {
		if len(b.text) <= maxBio && opensBio(fold(b.text)+" ", name) {
			b.node.Parent.RemoveChild(b.node)
		}
	}
}

// attached returns, in a new slice, the blocks still in their tree: those
// an earlier rule did not remove.
func attached(blocks []textBlock) []textBlock {
	var out []textBlock
	for _, b := range blocks {
		if b.node.Parent != nil {
			out = append(out, b)
		}
	}
	return out
}

// opensBio reports whether a folded line opens with the folded name and a
// verb of a biography.
func opensBio(line, name string) bool {
	rest, ok := strings.CutPrefix(line, name+" ")
	if !ok {
		return false
	}
	verb, _, _ := strings.Cut(rest, " ")
	return slices.Contains(bioVerbs, verb)
}

// bioVerbs are the verbs that follow a name at a biography's start, in
// the languages of the development sets: "is", "has", "covers", "ist",
// "est", "jest", …
var bioVerbs = []string{"is", "was", "has", "covers", "writes", "joined", "lives", "ist", "schreibt", "arbeitet", "est", "es", "jest", "è", "er", "je"}

// bioTail and maxBio bound where pruneAuthorBio looks: the last blocks of
// a story, each at most maxBio bytes.
const (
	bioTail = 4
	maxBio  = 700
)

// bylineOf reports whether a folded line names the folded author, with at
// most maxBylineExtra words besides ("By", "Von", a role, a date).
func bylineOf(line, author string) bool {
	return strings.Contains(" "+line+" ", " "+author+" ") &&
		len(strings.Fields(line)) <= len(strings.Fields(author))+maxBylineExtra
}

// maxBylineExtra is the most words a byline holds besides its author's
// name.
const maxBylineExtra = 4

// minLead is the fewest words of a paragraph pruneStoryHeader counts as the
// story's: the second ends its header.
const minLead = 15

// yearOrTime matches a year of the last two centuries or a time of day.
var yearOrTime = regexp.MustCompile(`\b(?:19|20)\d\d\b|\b\d{1,2}[:.]\d{2}\b`)

// letterRun matches a run of two letters or more: a word that is not a
// figure.
var letterRun = regexp.MustCompile(`\pL{2,}`)

// dateLike reports whether a line reads as a date or a time in any
// language: at most maxDateWords words, a year or a time among them, and at
// most maxDateNames words of letters (a month, a weekday, "Uhr", a time
// zone, a town, a reading time's "Lesedauer … Min."). isDateLine knows the
// words of a few languages; a story's header may be in any.
func dateLike(line string) bool {
	return len(wordsOf(line)) <= maxDateWords && yearOrTime.MatchString(line) &&
		len(letterRun.FindAllStringIndex(line, maxDateNames+1)) <= maxDateNames
}

// maxDateWords and maxDateNames bound a line dateLike takes for a date.
const (
	maxDateWords = 10
	maxDateNames = 3
)

// headlineBlock returns the index of the headline among a story's leaf
// blocks, -1 when there is none: its first block, or its second after a
// kicker of at most maxKicker words ("Extremismus"), when the block is one
// of titles (the page's title, its heading) or a part of one of at least
// three words (a title with the site's name after it).
func headlineBlock(blocks []textBlock, titles ...string) int {
	var folded []string
	for _, t := range titles {
		if f := fold(t); len(strings.Fields(f)) >= 3 {
			folded = append(folded, f)
		}
	}
	for i := 0; i < min(2, len(blocks)) && len(folded) > 0; i++ {
		if i == 1 && len(wordsOf(blocks[0].text)) > maxKicker {
			return -1
		}
		b := fold(blocks[i].text)
		for _, t := range folded {
			if b == t || len(strings.Fields(b)) >= 3 && strings.Contains(" "+t+" ", " "+b+" ") {
				return i
			}
		}
	}
	return -1
}

// maxKicker is the most words of a kicker, the label above a headline.
const maxKicker = 4

// textOf returns the text under n, "" for nil.
func textOf(n *html.Node) string {
	if n == nil {
		return ""
	}
	return Text(n)
}

// headlineTags are the inline elements a headline is set in on pages
// without heading elements (tables of <font> and <b>).
var headlineTags = map[atom.Atom]bool{atom.B: true, atom.Strong: true, atom.Font: true, atom.Big: true, atom.Span: true}

// pruneHeadline removes the headline from the start of the content tree
// when it repeats the title on a line of its own: a heading (h1, h2), or a
// line set in bold or large type (a page laid out in a table, whose content
// cell starts with it). The engine drops a heading like the title itself,
// but compares Latin words only: Cyrillic, Greek and Arabic headlines
// stayed.
func pruneHeadline(root *html.Node, title string) {
	headline := fold(title)
	if headline == "" {
		return
	}
	var first *html.Node
	var walk func(*html.Node) bool // reports whether the search is over
	walk = func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode && strings.TrimSpace(c.Data) != "":
				return true // text comes first
			case c.Type != html.ElementNode:
				continue
			case (headlineTags[tag(c)] || c.DataAtom == atom.H1 || c.DataAtom == atom.H2) && strings.TrimSpace(Text(c)) != "":
				first = c
				return true
			case walk(c):
				return true
			}
		}
		return false
	}
	walk(root)
	for first != nil && first.Parent != nil && headlineTags[tag(first.Parent)] {
		first = first.Parent
	}
	if first != nil && fold(Text(first)) == headline && standsAlone(first) {
		first.Parent.RemoveChild(first)
	}
}

// linkBlock reports whether n is an innermost block (or table cell) whose
// text is all link text and short.
func linkBlock(n *html.Node) bool {
	return n != nil && n.Type == html.ElementNode && (block[tag(n)] || tag(n) == atom.Td || tag(n) == atom.Th) &&
		!hasBlockChild(n) && linkOnly(n)
}

// listLike reports the elements that are one entry of a list or a table (a
// list item, a cell) or navigation.
func listLike(n *html.Node) bool {
	switch tag(n) {
	case atom.Li, atom.Td, atom.Th, atom.Dt, atom.Dd, atom.Nav, atom.Menu:
		return true
	}
	return false
}

// maxCredit is the longest credit (runes) pruneCredits removes.
const maxCredit = 200

// pruneCredits removes from the content tree the credits of pictures: an
// element named a credit (an id or class word "credit" or "credits", or
// itemprop creditText or copyrightHolder) of at most maxCredit runes, in a
// <figure> or beside a picture ("Future Publishing/Getty Images", "Photo:
// Jane Roe/AP"). A picture's credit names who took it, not what the
// article says. It runs on what the block classifier kept.
func pruneCredits(root *html.Node) {
	credit := func(n *html.Node) bool {
		return namedCredit(n) && pictureBeside(n) && utf8.RuneCountInString(strings.TrimSpace(Text(n))) <= maxCredit
	}
	for _, c := range outermost(root, credit) {
		c.Parent.RemoveChild(c)
	}
}

// embedClasses are the class names of the blockquotes that social
// networks' embedding code writes into a page (the post's text, its author
// and date) for a script to turn into a card: X/Twitter, Instagram,
// TikTok, Bluesky, Threads, Reddit, Facebook, Imgur, Mastodon.
var embedClasses = map[string]bool{
	"twitter-tweet": true, "twitter-video": true, "instagram-media": true, "tiktok-embed": true,
	"bluesky-embed": true, "text-post-media": true, "reddit-card": true, "reddit-embed-bq": true,
	"fb-xfbml-parse-ignore": true, "imgur-embed-pub": true, "mastodon-embed": true, "wp-embedded-content": true,
}

// embedAttr is the attribute markRegions sets on the posts of social
// networks a page embeds (socialEmbed): the engine drops class names, and
// pruneEmbeds reads this mark on its content.
const embedAttr = "data-neardup-embed"

// socialEmbed reports whether n is a blockquote a social network's
// embedding code wrote (embedClasses).
func socialEmbed(n *html.Node) bool {
	if tag(n) != atom.Blockquote {
		return false
	}
	for c := range strings.FieldsSeq(attr(n, "class")) {
		if embedClasses[strings.ToLower(c)] {
			return true
		}
	}
	return false
}

// pruneEmbeds removes from the content tree the posts of social networks
// it embeds ("— Jane Roe (@janeroe) May 6, 2025"): what others said
// elsewhere, quoted as a card beside the article, not its text. When the
// posts hold half the content's text or more, the page is about them and
// they stay. It runs on what the block classifier kept.
func pruneEmbeds(root *html.Node) {
	embeds := outermost(root, func(n *html.Node) bool { return hasAttr(n, embedAttr) })
	if len(embeds) == 0 {
		return
	}
	in := 0
	for _, e := range embeds {
		in += nonSpaceRunes(Text(e))
	}
	if 2*in >= nonSpaceRunes(Text(root)) {
		return
	}
	for _, e := range embeds {
		e.Parent.RemoveChild(e)
	}
}

// pruneTail removes what the content tree ends with after its text: first
// the blocks of links (trailingLinks), then the labels before them or at
// the very end (trailingLabels). The content's first block stays. It runs
// on what the block classifier kept.
func pruneTail(root *html.Node) {
	blocks := leafBlocks(root)
	end := trailingLinks(blocks)
	for _, b := range blocks[end:] {
		b.node.Parent.RemoveChild(b.node)
	}
	for _, b := range blocks[trailingLabels(blocks[:end]):end] {
		b.node.Parent.RemoveChild(b.node)
	}
}

// trailingLinks returns where the blocks of links that end blocks begin
// (len(blocks) when none do): blocks whose letters and digits all lie
// inside links to other pages ("Police close the bridge // News // 3
// January"). They are the lists of other stories, archives and "next post"
// links a page sets under its article, which the classifier keeps when
// they look like headlines. When they hold more than maxTrailingLinks of
// the content's text, the page is a list of links (a portal's entries, a
// series of talks) and they stay.
func trailingLinks(blocks []textBlock) int {
	total := 0
	for _, b := range blocks {
		total += b.nonSpace
	}
	first, links := len(blocks), 0
	for first > 1 && onlyLinks(blocks[first-1].node) {
		first--
		links += blocks[first].nonSpace
	}
	if float64(links) > maxTrailingLinks*float64(total) {
		return len(blocks)
	}
	return first
}

// maxTrailingLinks is the largest share of the content's text (non-space
// runes) trailingLinks takes. Measured on the tune halves of the eight
// sets, 0.25 and 0.30 score the same; without a bound, the lists that are
// a page's content go (a portal's entries, CleanEval 0.76 → 0.53).
const maxTrailingLinks = 0.3

// onlyLinks reports whether n has letters or digits and all of them lie
// inside links to other pages (pageLink): what lies between the links is
// punctuation ("//", "|"). Unlike linkOnly, it sets no bound on the text's
// length and lets punctuation stand outside the links.
func onlyLinks(n *html.Node) bool {
	in, out := 0, 0
	var walk func(n *html.Node, linked bool)
	walk = func(n *html.Node, linked bool) {
		if n.Type == html.TextNode {
			for _, r := range n.Data {
				switch {
				case !unicode.IsLetter(r) && !unicode.IsDigit(r):
				case linked:
					in++
				default:
					out++
				}
			}
			return
		}
		linked = linked || pageLink(n)
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, linked)
		}
	}
	walk(n, false)
	return in > 0 && out == 0
}

// pageLink reports whether n is a link to another page: an <a> with an
// href that is not a fragment of this one ("#notes").
func pageLink(n *html.Node) bool {
	if n.Type != html.ElementNode || tag(n) != atom.A {
		return false
	}
	href := strings.TrimSpace(attr(n, "href"))
	return href != "" && !strings.HasPrefix(href, "#")
}

// trailingLabels returns where the labels that end blocks begin
// (len(blocks) when none do): blocks of at most maxLabelWords words that
// end with a colon ("Ссылки по теме:", "Lesen Sie auch:", "Related:"). What
// they introduced, a list of links to other stories, went with the
// classifier or trailingLinks, or lay outside the content; a label of
// nothing is not the article's. A label before a video or a document the
// text cannot hold ("Watch the video below:") goes too, which some golds
// keep. The first block is never one.
func trailingLabels(blocks []textBlock) int {
	i := len(blocks)
	for i > 1 {
		t := strings.TrimSpace(blocks[i-1].text)
		if n := len(wordsOf(t)); n == 0 || n > maxLabelWords || !strings.HasSuffix(t, ":") {
			break
		}
		i--
	}
	return i
}

// maxLabelWords is the most words of a label trailingLabels takes.
const maxLabelWords = 6

// outermost returns the elements under root that match reports, in
// document order, not looking under one that matches.
func outermost(root *html.Node, match func(*html.Node) bool) []*html.Node {
	var found []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if match(c) {
				found = append(found, c)
				continue
			}
			walk(c)
		}
	}
	walk(root)
	return found
}

// isTime reports whether n is a <time> element.
func isTime(n *html.Node) bool { return tag(n) == atom.Time }

// namedCredit reports whether n's itemprop, id or class names it a credit.
func namedCredit(n *html.Node) bool {
	switch attr(n, "itemprop") {
	case "creditText", "copyrightHolder":
		return true
	}
	names := strings.ToLower(attr(n, "id") + " " + attr(n, "class"))
	for w, rest := nextName(names); w != "" || rest != ""; w, rest = nextName(rest) {
		if w == "credit" || w == "credits" {
			return true
		}
	}
	return false
}

// pictureBeside reports whether n is in a <figure>, or its parent or
// grandparent holds a picture.
func pictureBeside(n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && p.DataAtom == atom.Figure {
			return true
		}
	}
	for p, k := n.Parent, 0; p != nil && k < 2; p, k = p.Parent, k+1 {
		if hasImage(p) {
			return true
		}
	}
	return false
}
