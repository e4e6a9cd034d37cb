package extract

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Some pages hold other stories after their own, each a copy of the same
// markup (a news site's endless scroll): the engine may take a longer one
// for the article. The page's own story is the one whose heading is the
// page's title.
const (
	// storyMinTitle is the least width (headlineWidth) of a heading
	// that is matched against the page's title (15 runes, or 8 Han or
	// kana characters), and the fewest runes of a teaser's title.
	storyMinTitle = 15
	// storyMinProse is the least prose (runes) of the story holding the
	// title for the others to be marked.
	storyMinProse = 200
	// storyMinRepeats is the fewest other stories of the same markup.
	storyMinRepeats = 2
)

// pageHeading returns the page's widest <h1> or <h2> whose text is in its
// <title> or og:title (titleHeading); nil when there is none.
func pageHeading(doc *html.Node) *html.Node {
	titles := pageTitles(doc)
	if len(titles) == 0 {
		return nil
	}
	return titleHeading(doc, titles)
}

// markOtherStories takes the page's heading h (pageHeading; nil for none),
// climbs to its nearest ancestor that repeats: one with storyMinRepeats
// siblings of the same tag and class, each holding an <h1> or <h2> of its
// own; and, when that ancestor holds at least storyMinProse of prose, marks
// its repeats as navigation regions (inAttr), so that the engine chooses
// again without them when it took one (chosenRegions).
func markOtherStories(doc, h *html.Node) {
	if h == nil {
		return
	}
	for a := h.Parent; a != nil && a.Type == html.ElementNode && tag(a) != atom.Body; a = a.Parent {
		class := attr(a, "class")
		if class == "" || a.Parent == nil {
			continue
		}
		var repeats []*html.Node
		for s := a.Parent.FirstChild; s != nil; s = s.NextSibling {
			if s != a && s.Type == html.ElementNode && s.DataAtom == a.DataAtom && s.Data == a.Data &&
				attr(s, "class") == class && holdsHeading(s) {
				repeats = append(repeats, s)
			}
		}
		if len(repeats) < storyMinRepeats {
			continue
		}
		if prose(a) < storyMinProse {
			return
		}
		for i, s := range repeats {
			markIn(s, "story"+strconv.Itoa(i))
		}
		return
	}
	markNextStories(doc, h)
}

// markNextStories marks as related stories (regionAttr), when the page's
// heading h lies in an <article> holding storyMinProse of prose, every
// other <article> outside it that holds an <h1> of its own and
// storyMinProse of prose: the next story a news site's endless scroll
// appends whole, in markup of its own (Dagbladet's "mainArticleSection"
// and "second-article"). A teaser card has no <h1>. The engine takes both
// stories as one content; dropRelated then removes the next.
func markNextStories(doc, h *html.Node) {
	var own *html.Node
	for a := h.Parent; a != nil; a = a.Parent {
		if a.Type == html.ElementNode && a.DataAtom == atom.Article {
			own = a
			break
		}
	}
	if own == nil || prose(own) < storyMinProse {
		return
	}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || c == own {
				continue
			}
			if c.DataAtom == atom.Article && !isAncestor(c, own) && holdsH1(c) && prose(c) >= storyMinProse {
				markRelated(c)
				continue
			}
			walk(c)
		}
	}
	walk(doc)
}

// holdsH1 reports whether an <h1> is under n.
func holdsH1(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && (c.DataAtom == atom.H1 || holdsH1(c)) {
			return true
		}
	}
	return false
}

// pageTitles returns the page's <title> and og:title, lower-cased with
// their spaces squashed; empty ones left out.
func pageTitles(doc *html.Node) []string {
	var titles []string
	headTags(doc, func(n *html.Node) bool {
		switch tag(n) {
		case atom.Title:
			if n.FirstChild != nil && n.FirstChild.Type == html.TextNode {
				titles = append(titles, strings.ToLower(squash(n.FirstChild.Data)))
			}
			return true
		case atom.Meta:
			if strings.EqualFold(attr(n, "property"), "og:title") {
				titles = append(titles, strings.ToLower(squash(attr(n, "content"))))
				return true
			}
		}
		return false
	})
	out := titles[:0]
	for _, t := range titles {
		if t != "" {
			out = append(out, t)
		}
	}
	return out
}

// titleHeading returns the widest <h1> or <h2> under n, the first of
// those as wide, at least storyMinTitle wide (headlineWidth) whose text is
// in one of titles, or ends with one that wide (after a kicker: "Kultur :
// Ehrengast der Frankfurter Buchmesse: …"), or nil; a heading that is the
// name the page gives its site (og:site_name, application-name) is none,
// and one that is the part of the title past its last separator (siteSlot)
// is taken only when no other is in it. The widest, not the first: a
// blog's banner heading is its name, which the <title> holds beside the
// headline ("Malaria returns to Greece « Healthcare Economist"), and comes
// before the post's own.
func titleHeading(n *html.Node, titles []string) *html.Node {
	names := siteNames(n, nil)
	var best *html.Node
	rank := 0 // of best: its width, and 1<<20 more when it is no site's slot
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if tag(c) != atom.H1 && tag(c) != atom.H2 {
				walk(c)
				continue
			}
			t := strings.ToLower(squash(Text(c)))
			w := headlineWidth(t)
			if w < storyMinTitle || names[squashName(t)] {
				continue
			}
			for _, title := range titles {
				if strings.Contains(title, t) || headlineWidth(title) >= storyMinTitle && strings.HasSuffix(t, title) {
					// the heading in the title, or the title after the heading's kicker
					r := w
					if !siteSlot(t, titles) {
						r += 1 << 20
					}
					if r > rank {
						best, rank = c, r
					}
					break
				}
			}
		}
	}
	walk(n)
	return best
}

// siteSlot reports whether heading t is the part of one of titles past its
// last separator, where a <title> sets the site's name ("Malaria returns to
// Greece « Healthcare Economist"): a banner's, a sidebar's or a footer's
// heading, not the headline, when another heading is in the title too.
func siteSlot(t string, titles []string) bool {
	for _, title := range titles {
		for _, sep := range titleSeparators {
			if i := strings.LastIndex(title, sep); i > 0 && strings.TrimSpace(title[i+len(sep):]) == t {
				return true
			}
		}
	}
	return false
}

// headlineWidth returns the length of a headline in runes, a Han or kana
// character counted twice: written without spaces, one holds about what
// two or three letters of a word in a Latin or Cyrillic script do, and
// "市议会决定关闭渡轮码头" (11 characters) is a headline as "Council
// closes the ferry pier" is.
func headlineWidth(s string) int {
	n := 0
	for _, r := range s {
		n++
		if wideLetter(r) {
			n++
		}
	}
	return n
}

// wideLetter reports whether r is a Han or kana character.
func wideLetter(r rune) bool {
	return r >= 0x2e80 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

// holdsHeading reports whether an <h1> or <h2> is under n.
func holdsHeading(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		switch tag(c) {
		case atom.H1, atom.H2:
			return true
		}
		if holdsHeading(c) {
			return true
		}
	}
	return false
}

// A forum's thread repeats one markup for every post, and the engine may
// take a longer reply for the article; the thread's own text is its first
// post.
const (
	// repeatMin is the fewest siblings of the same tag and class that
	// make a thread.
	repeatMin = 3
	// repeatMinProse is the least prose (runes) of the first of them.
	repeatMinProse = 100
)

// markRepeats marks, under n, every element but the first of a run of at
// least repeatMin siblings of the same tag and class, named the article
// (a "post"), with ids of one prefix and a number ("post-6331411"): a
// thread's posts. The first must hold repeatMinProse of prose. The mark
// (inAttr) is "rep" and a number, so that the engine chooses again without
// them when it took one of them alone (oneRepeat). Elements already
// marked are left as they are.
func markRepeats(n *html.Node) {
	k := 0
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		markThreads(n, &k)
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && attr(c, inAttr) == "" {
				walk(c)
			}
		}
	}
	walk(n)
}

// markThreads marks the repeats among n's children (markRepeats), the
// marks numbered on from *k.
func markThreads(n *html.Node, k *int) {
	elems := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			elems++
		}
	}
	if elems < repeatMin {
		return
	}
	first, count := map[string]*html.Node{}, map[string]int{}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || attr(c, "class") == "" {
			continue
		}
		key := repeatKey(c)
		if first[key] == nil {
			first[key] = c
		}
		count[key]++
	}
	for key, f := range first {
		prefix := numberedID(f)
		if count[key] < repeatMin || prefix == "" || attr(f, inAttr) != "" || nameKind(f) != "pos" || prose(f) < repeatMinProse {
			continue
		}
		for c := f.NextSibling; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && attr(c, inAttr) == "" && repeatKey(c) == key && numberedID(c) == prefix {
				*k++
				markIn(c, "rep"+strconv.Itoa(*k))
			}
		}
	}
}

// repeatKey is what a thread's posts share: their tag and class.
func repeatKey(n *html.Node) string { return n.Data + " " + squash(attr(n, "class")) }

// oneRepeat reports whether marks (chosenRegions) name one repeat of a
// thread (markRepeats) and nothing else (one): the engine took one reply;
// and whether they name any (some). When it took several, or a region
// beside them, it took the thread or more.
func oneRepeat(marks map[string]bool) (one, some bool) {
	reps := 0
	for m := range marks {
		if strings.HasPrefix(m, "rep") {
			reps++
		}
	}
	return reps == 1 && len(marks) == 1, reps > 0
}

// numberedID returns the prefix of n's id when the id is a prefix and a
// number ("post-6331411" gives "post-"), else "".
func numberedID(n *html.Node) string {
	id := attr(n, "id")
	i := len(id)
	for i > 0 && id[i-1] >= '0' && id[i-1] <= '9' {
		i--
	}
	if i == len(id) || i == 0 {
		return ""
	}
	return id[:i]
}

// markTeasers marks as related stories (regionAttr "related") the lists of
// other stories under n: runs of two or more sibling <article>s that are
// teasers (teaser), and, on a page whose heading is found, cardMinRun or
// more sibling elements of one tag and class that are teaser cards of the
// page's own site (card, sameSite: "Popular Stories", "Most read"), which
// also get cardAttr. page is the page's URL (pageURL; nil when it has
// none). The <article> or card that holds the page's heading (pageHeading;
// nil for none) is the page's own story, however short. Without the page's
// heading a list of cards is as often the page itself: a blog's front page,
// a landing page's courses.
func markTeasers(n, heading *html.Node, page *url.URL) {
	var around map[*html.Node]bool
	if heading != nil {
		around = map[*html.Node]bool{}
		for a := heading; a != nil; a = a.Parent {
			around[a] = true
		}
	}
	t := teasers{heading: heading, around: around, page: page, paragraphs: map[*html.Node]longest{}, bodies: map[*html.Node]string{}}
	t.under(n)
}

// teasers is what markTeasers carries down the page: the page's heading,
// its ancestors (around; nil without a heading), the page's URL, and the
// longest paragraphs found among each element's children.
type teasers struct {
	heading    *html.Node
	around     map[*html.Node]bool
	page       *url.URL
	paragraphs map[*html.Node]longest
	bodies     map[*html.Node]string
}

// under marks the lists of other stories under n (markTeasers).
func (t teasers) under(n *html.Node) {
	heading, around, page := t.heading, t.around, t.page
	var run []*html.Node
	cards := map[string][]*html.Node{}
	var keys []string
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if tag(c) == atom.Article && teaser(c, heading) {
			run = append(run, c)
			continue
		}
		if heading != nil {
			if link := card(c, around); link != nil && sameSite(link, page) {
				k := repeatKey(c)
				if cards[k] == nil {
					keys = append(keys, k)
				}
				cards[k] = append(cards[k], c)
				continue
			}
		}
		t.under(c)
	}
	if len(run) >= 2 {
		for _, a := range run {
			markRelated(a)
		}
	}
	listed := map[*html.Node]bool{}
	for _, k := range keys {
		if len(cards[k]) >= cardMinRun {
			for _, c := range cards[k] {
				listed[c] = true
			}
		}
	}
	if len(listed) > 0 && (t.paragraph(n, nil) > cardMaxParagraph || n.Parent != nil && t.paragraph(n.Parent, n) > cardMaxParagraph) {
		clear(listed) // the cards stand among the article's own text: a roundup of the site's posts
	}
	for _, k := range keys {
		for _, c := range cards[k] {
			if !listed[c] {
				t.under(c)
			} else if !hasAttr(c, regionAttr) {
				markRelated(c)
				c.Attr = append(c.Attr, html.Attribute{Key: cardAttr, Val: t.body(cards[k][0])})
			}
		}
	}
}

// longest holds the runes (spaces left out) of the two longest paragraphs
// among an element's children, and the child that holds the first.
type longest struct {
	first, second int
	child         *html.Node
}

// paragraph returns the runes, spaces left out, of the longest paragraph
// among n's children but skip (nil for none): a <p> or a run of text. Each
// element's children are read once.
func (t teasers) paragraph(n, skip *html.Node) int {
	l, ok := t.paragraphs[n]
	if !ok {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && tag(c) != atom.P || c.Type != html.ElementNode && c.Type != html.TextNode {
				continue
			}
			switch k := nonSpaceRunes(Text(c)); {
			case k > l.first:
				l = longest{first: k, second: l.first, child: c}
			case k > l.second:
				l.second = k
			}
		}
		t.paragraphs[n] = l
	}
	if skip != nil && skip == l.child {
		return l.second
	}
	return l.first
}

// cardAttr marks the teaser cards markTeasers marked as related stories,
// its value cardBody on those that may be the article's body: unlike other
// related stories, those stay when they are nearly all of the engine's
// content (keepCards), before it would choose again without them.
const cardAttr = "data-neardup-card"

// cardBody is cardAttr's value on cards that follow the page's heading
// with no paragraph of over cardMaxParagraph runes between: they may be the
// article's body (keepCards).
const cardBody = "body"

// cardMaxBetween bounds the nodes body reads from the page's heading to a
// list of cards.
const cardMaxBetween = 5000

// body returns cardBody when no more than cardMaxParagraph runes of text
// outside links lie between the page's heading and first, the first card
// of a list, in the order of the page; else "". Each list is asked once.
func (t teasers) body(first *html.Node) string {
	if v, ok := t.bodies[first]; ok {
		return v
	}
	runes, nodes := 0, 0
	n := t.heading
	for n != nil && n != first && runes <= cardMaxParagraph {
		// The next node in the page's order: into n's children, unless n
		// is the heading, a link or never text; else past its subtree.
		if n != t.heading && n.FirstChild != nil && !(n.Type == html.ElementNode && (tag(n) == atom.A || neverText[tag(n)])) {
			n = n.FirstChild
		} else {
			for n != nil && n.NextSibling == nil {
				n = n.Parent
			}
			if n != nil {
				n = n.NextSibling
			}
		}
		if nodes++; nodes > cardMaxBetween {
			break
		}
		if n != nil && n.Type == html.TextNode {
			runes += nonSpaceRunes(n.Data)
		}
	}
	v := ""
	if n == first && runes <= cardMaxParagraph {
		v = cardBody
	}
	t.bodies[first] = v
	return v
}

// keepCards takes the marks of related stories off the teaser cards under
// the content tree n that follow the page's heading with no paragraph
// between (cardBody) when they hold most of its text and less than
// cardMinRest bytes of it is left without them: the list is the page's
// article (a roundup of the site's own posts, a series' index), not a box
// set after the story, which the engine may take alone.
func keepCards(n *html.Node) {
	cards, all := textShare(n, func(m *html.Node) bool { return attr(m, cardAttr) == cardBody })
	if cards == 0 || 2*cards <= all || all-cards >= cardMinRest {
		return
	}
	var walk func(*html.Node)
	walk = func(m *html.Node) {
		if m.Type == html.ElementNode && attr(m, cardAttr) == cardBody {
			removeAttr(m, regionAttr)
		}
		for c := m.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
}

// cardMinRest is the least text (bytes, white space trimmed) the engine's
// content holds besides its teaser cards for them to be a list set beside
// the article rather than the article (keepCards): about two paragraphs.
const cardMinRest = 200

// cardMaxParagraph is the most text (runes, spaces left out) a paragraph
// beside a list of teaser cards holds, under their parent: more is the
// article's own text around its cards (a roundup of the site's posts), not
// a list set apart under a label ("Popular Stories").
const cardMaxParagraph = 100

// cardMinRun is the fewest sibling teaser cards of one tag and class that
// markTeasers takes for a list of other stories: two of a kind are a
// page's two columns as often.
const cardMinRun = 3

// cardMaxNodes is the most nodes a teaser card holds, its heading's
// included: a picture, a heading, a date and an excerpt take a few dozen.
// It bounds what card reads of each element it is asked about.
const cardMaxNodes = 128

// cardMaxTitle is the most bytes of text a teaser card's heading holds.
const cardMaxTitle = 1000

// card returns the link of n's heading when n is a teaser card: an element
// with a class, neither a heading nor a <figure> (a gallery's slides are the
// article's), of at most cardMaxNodes nodes, holding one heading (<h2> to
// <h6>, no <h1>) whose text is all one link to another page (linkHeading)
// and at most teaserMaxProse runes of prose besides (an excerpt), the
// page's heading not in it (around: the heading's ancestors); else nil.
func card(n *html.Node, around map[*html.Node]bool) *html.Node {
	switch tag(n) {
	case atom.Figure, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return nil
	}
	if around[n] || attr(n, "class") == "" {
		return nil
	}
	var link *html.Node
	nodes, runes := 0, 0
	var walk func(*html.Node) bool
	walk = func(m *html.Node) bool {
		if nodes++; nodes > cardMaxNodes {
			return false
		}
		switch m.Type {
		case html.TextNode:
			runes += nonSpaceRunes(m.Data)
			return runes <= teaserMaxProse
		case html.ElementNode:
			switch tag(m) {
			case atom.H1:
				return false
			case atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
				if link != nil {
					return false
				}
				link = linkHeading(m, &nodes)
				return link != nil
			case atom.A:
				return true
			}
			if neverText[tag(m)] {
				return true
			}
		}
		for c := m.FirstChild; c != nil; c = c.NextSibling {
			if !walk(c) {
				return false
			}
		}
		return true
	}
	if !walk(n) {
		return nil
	}
	return link
}

// linkHeading returns the link when heading h's text is all one link to
// another page (pageLink), storyMinTitle runes or more and cardMaxTitle
// bytes at most; else nil. It counts the nodes it reads in *nodes, and
// gives up past cardMaxNodes.
func linkHeading(h *html.Node, nodes *int) *html.Node {
	var link *html.Node
	size := 0
	var find func(*html.Node, bool) bool
	find = func(m *html.Node, inLink bool) bool {
		for c := m.FirstChild; c != nil; c = c.NextSibling {
			if *nodes++; *nodes > cardMaxNodes {
				return false
			}
			switch {
			case c.Type == html.TextNode:
				if size += len(c.Data); size > cardMaxTitle || !inLink && strings.TrimSpace(c.Data) != "" {
					return false
				}
			case c.Type == html.ElementNode && tag(c) == atom.A:
				if link != nil || inLink {
					return false
				}
				link = c
				if !find(c, true) {
					return false
				}
			case !find(c, inLink):
				return false
			}
		}
		return true
	}
	if !find(h, false) || link == nil || !pageLink(link) {
		return nil
	}
	if utf8.RuneCountInString(squash(Text(link))) < storyMinTitle {
		return nil
	}
	return link
}

// pageURL returns the page's URL u, else the URL the page under n declares
// of itself (declaredURL); nil when it has neither.
func pageURL(n *html.Node, u *url.URL) *url.URL {
	if u != nil && u.Hostname() != "" {
		return u
	}
	for n.Parent != nil {
		n = n.Parent
	}
	d, err := url.Parse(declaredURL(n))
	if err != nil || d.Hostname() == "" {
		return nil
	}
	return d
}

// siteHost returns u's host lower-cased and without "www.".
func siteHost(u *url.URL) string {
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
}

// sameSite reports whether link leads to another page of the site of the
// page whose URL is page (pageURL; nil for none): its address is relative,
// or names the page's host (with or without "www."), and it is not the
// page itself (its path and query; an anchor of it, "/faq/#q1"). A
// list of products or of other sites' pages (a roundup's, a listicle's
// items) is the article's own.
func sameSite(link *html.Node, page *url.URL) bool {
	u, err := url.Parse(strings.TrimSpace(attr(link, "href")))
	if err != nil {
		return false
	}
	if page == nil {
		return u.Host == "" && u.Scheme == ""
	}
	if u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https" {
		return false
	}
	u = page.ResolveReference(u)
	return siteHost(u) == siteHost(page) &&
		(strings.TrimSuffix(u.Path, "/") != strings.TrimSuffix(page.Path, "/") || u.RawQuery != page.RawQuery)
}

// markRelated marks n as related stories (regionAttr "related"), unless
// markRegions gave it a region already.
func markRelated(n *html.Node) {
	if !hasAttr(n, regionAttr) {
		n.Attr = append(n.Attr, html.Attribute{Key: regionAttr, Val: "related"})
	}
}

// teaserMaxProse is the most prose (runes, link text and spaces left out)
// a teaser holds: a headline's excerpt.
const teaserMaxProse = 400

// teaser reports whether the <article> a is a teaser (markTeasers), the
// page's heading not in it.
func teaser(a, heading *html.Node) bool {
	if prose(a) > teaserMaxProse || heading != nil && isAncestor(a, heading) {
		return false
	}
	var titled func(*html.Node) bool
	titled = func(n *html.Node) bool {
		if n.Type == html.ElementNode && tag(n) == atom.A {
			return pageLink(n) && utf8.RuneCountInString(squash(Text(n))) >= storyMinTitle
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if titled(c) {
				return true
			}
		}
		return false
	}
	return titled(a)
}

// headTags calls f for each <title> and <meta> element of the page's head,
// in order; f reports whether it was one it looks for. When none was, it
// calls f for those of the body: a page streamed by React's server renderer
// sends its title and metadata late, in the body, for the browser to move
// into the head.
func headTags(doc *html.Node, f func(*html.Node) bool) {
	found := false
	var walk func(n *html.Node, inBody bool) bool
	walk = func(n *html.Node, inBody bool) bool {
		if n.Type == html.ElementNode {
			switch tag(n) {
			case atom.Body:
				if !inBody {
					return true
				}
			case atom.Title, atom.Meta:
				if f(n) {
					found = true
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if walk(c, inBody) {
				return true
			}
		}
		return false
	}
	walk(doc, false)
	if !found {
		walk(doc, true)
	}
}
