package extract

import (
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// commentName matches an id or class token naming a reader-comment section.
var commentName = regexp.MustCompile(`^(comments?|comment[-_]?(list|area|section|thread|form|respond|s[-_]?(area|section|list|container|wrapper|block))|commentlist|disqus[-_]?thread|respond|replies)$`)

// isComments reports whether an element holds reader comments, judged by its
// id or one of its class names; comments are not the article. Removing them
// before the engine runs raised F1 on Dragnet by 0.013 (test split) and
// 0.007 (training split): engines keep comment threads that sit inside the
// article's container, and with them gone they also choose better. Inside
// <pre> and <code>, "comment" is a syntax highlighter's class for a comment
// in the code, which stays.
func isComments(n *html.Node) bool {
	if !namesComments(n) {
		return false
	}
	for p := n; p != nil; p = p.Parent {
		if t := tag(p); t == atom.Pre || t == atom.Code {
			return false
		}
	}
	return true
}

// namesComments reports whether n's id or a class names a comment section.
func namesComments(n *html.Node) bool {
	id, class := attr(n, "id"), attr(n, "class")
	if !mayNameComments(id) && !mayNameComments(class) {
		return false
	}
	if commentName.MatchString(strings.ToLower(id)) {
		return true
	}
	for _, c := range strings.Fields(strings.ToLower(class)) {
		if commentName.MatchString(c) {
			return true
		}
	}
	return false
}

// mayNameComments is namesComments' cheap first look at an id or class
// attribute, run on every element: whether it holds, in any case, one of
// the words every name commentName matches holds ("comment", "disqus",
// "respond", "replies"), or a byte outside ASCII (which lower-casing might
// turn into one). Without it, lower-casing, splitting and the regexp cost
// about 1.5 % of extraction.
func mayNameComments(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80:
			return true
		case c|0x20 == 'c' && hasPrefixFold(s[i:], "comment"),
			c|0x20 == 'd' && hasPrefixFold(s[i:], "disqus"),
			c|0x20 == 'r' && (hasPrefixFold(s[i:], "respond") || hasPrefixFold(s[i:], "replies")):
			return true
		}
	}
	return false
}

// hasPrefixFold reports whether s starts with lower, a word of lower-case
// ASCII letters, in any case.
func hasPrefixFold(s, lower string) bool {
	if len(s) < len(lower) {
		return false
	}
	for i := 0; i < len(lower); i++ {
		if s[i]|0x20 != lower[i] {
			return false
		}
	}
	return true
}

// regionAttr is the attribute markRegions sets on the elements whose name
// says navigation ("nav") or related stories ("related"). The engine keeps
// ids and attributes like it but drops class names, which name most regions.
const regionAttr = "data-neardup-region"

// Names of navigation regions: whole words of an id or class (split at "-"
// and "_"), words they start with, and words they end with. "nav" stands for
// navigation, menus, sidebars and footers, share bars, "most popular",
// archive, category and tag lists, blogrolls and pagination.
var (
	navWords    = map[string]bool{"side": true, "aside": true, "tags": true, "pager": true}
	navPrefixes = []string{"nav", "menu", "sidebar", "footer", "breadcrumb", "share", "sharing", "social", "related",
		"popular", "mostpopular", "archive", "categor", "blogroll", "widget", "tagcloud", "pagination", "sitemap", "toolbar"}
	navSuffixes = []string{"nav", "menu", "sidebar", "footer", "bar", "links", "widget", "tags", "share"}
	// relatedWords name a section of related stories.
	relatedWords = map[string]bool{"related": true, "relatedposts": true, "relatedarticles": true,
		"relatedstories": true, "relatedlinks": true, "relatedcontent": true}
)

// navWord reports whether one word of a name names a navigation region.
func navWord(w string) bool {
	if navWords[w] {
		return true
	}
	for _, p := range navPrefixes {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	for _, x := range navSuffixes {
		if strings.HasSuffix(w, x) {
			return true
		}
	}
	return false
}

// nameFlags say what the words of an element's names (lowerNames, split
// at white space, "-" and "_") name; nameDialog is read from its id and
// class as they are.
type nameFlags uint8

const (
	nameNav     nameFlags = 1 << iota // a navigation region (navWord)
	nameRelated                       // related stories (relatedWords)
	nameNeg                           // boilerplate (negWords, negPrefixes)
	namePos                           // the article (posWords)
	nameAuthor                        // an author's box: "bio", "author…"
	nameDialog                        // a dialog (dialogNamed)
	nameCaption                       // a picture's caption (captionWords)
)

// namesFlags returns the flags of all the words of names.
func namesFlags(names string) nameFlags { return namesFlagsBy(names, wordFlags) }

// namesFlagsBy returns the flags of all the words of names, each word's
// read by word (wordFlags, or a page's memo of it).
func namesFlagsBy(names string, word func(string) nameFlags) nameFlags {
	var f nameFlags
	for w, rest := nextName(names); w != "" || rest != ""; w, rest = nextName(rest) {
		if w != "" {
			f |= word(w)
		}
	}
	return f
}

// wordFlags returns the flags of one word of a name.
func wordFlags(w string) nameFlags {
	var f nameFlags
	if navWord(w) {
		f |= nameNav
	}
	if relatedWords[w] {
		f |= nameRelated
	}
	if negWords[w] || slices.ContainsFunc(negPrefixes, func(p string) bool { return strings.HasPrefix(w, p) }) {
		f |= nameNeg
	}
	if posWords[w] {
		f |= namePos
	}
	if w == "bio" || strings.HasPrefix(w, "author") {
		f |= nameAuthor
	}
	if captionWords[w] {
		f |= nameCaption
	}
	return f
}

// markRegions marks, before the engine runs, every element whose tag, ARIA
// role, id or class names a navigation region or a section of related
// stories (regionAttr) and the teasers of other stories (markTeasers), and
// every element whose id or class names boilerplate or the article
// (nameAttr); navigation regions, dialogs,
// author boxes, the other stories of a page (markOtherStories) and the
// replies of a thread (markRepeats) get inAttr. It returns the page's
// heading (pageHeading), nil when there is none. The page's URL u (nil
// when it has none) tells the teasers of its own site (pageURL).
func markRegions(n *html.Node, u *url.URL) (heading *html.Node) {
	var m regionMarker
	m.mark(n)
	h := pageHeading(n)
	markOtherStories(n, h)
	markTeasers(n, h, pageURL(n, u))
	markRepeats(n)
	return h
}

// regionMarker numbers the elements markRegions visits and remembers what
// the names it has read say: a page repeats its class names ("menu-item",
// "col-md-6") on many elements, and their words on many more.
type regionMarker struct {
	k     int
	names map[[2]string]nameInfo // by id and class
	words map[string]nameFlags
}

// nameInfo is what an element's id and class say: the flags of all its
// names (lowerNames), and of those that can name a region (regionNames).
// Both carry nameDialog. article is set when one of the names, on its own,
// names an article and nothing else (articleName).
type nameInfo struct {
	all, own nameFlags
	article  bool
}

// info returns what n's id and class say, read once per page.
func (m *regionMarker) info(n *html.Node) nameInfo {
	key := [2]string{attr(n, "id"), attr(n, "class")}
	if key[0] == "" && key[1] == "" {
		return nameInfo{}
	}
	if v, ok := m.names[key]; ok {
		return v
	}
	if m.names == nil {
		m.names, m.words = map[[2]string]nameInfo{}, map[string]nameFlags{}
	}
	names := lowerNames(n)
	v := nameInfo{all: m.flags(names)}
	v.own = v.all
	if rest := regionNames(names); len(rest) < len(names) {
		v.own = m.flags(rest)
	}
	if dialogNamed(key[0]) || dialogNamed(key[1]) {
		v.all |= nameDialog
		v.own |= nameDialog
	}
	v.article = namesArticle(names, v.all, m.flags)
	m.names[key] = v
	return v
}

// articleWords are the words of a name that name an article, not any
// content area ("content", "body", "main" name a sidebar's too).
var articleWords = map[string]bool{"article": true, "story": true, "entry": true, "post": true,
	"articlebody": true, "storybody": true, "postbody": true, "entrycontent": true}

// namesArticle reports whether, among names that name a region and the
// article (flags all), one names an article alone (articleName), each
// name's flags read by flags.
func namesArticle(names string, all nameFlags, flags func(string) nameFlags) bool {
	if all&nameNav == 0 || kindFor(all) != "pos" {
		return false
	}
	for name := range strings.FieldsSeq(names) {
		if articleName(name, flags(name)) {
			return true
		}
	}
	return false
}

// articleName reports whether one name (a class or an id, with flags f)
// names an article and nothing else: "article__content", "story-body", not
// "aside-content" nor "post-sidebar". Beside it, another class naming a
// region names the layout the article sits in: Politico's
// "sidebar-grid__content article__content" is the column beside a sidebar.
func articleName(name string, f nameFlags) bool {
	if f&(nameNav|nameRelated|nameNeg|nameAuthor) != 0 || f&namePos == 0 {
		return false
	}
	for w, rest := nextName(name); w != "" || rest != ""; w, rest = nextName(rest) {
		if articleWords[w] {
			return true
		}
	}
	return false
}

// flags is namesFlags with each word read once per page.
func (m *regionMarker) flags(names string) nameFlags { return namesFlagsBy(names, m.word) }

// word is wordFlags, remembered for the page.
func (m *regionMarker) word(w string) nameFlags {
	f, ok := m.words[w]
	if !ok {
		f = wordFlags(w)
		m.words[w] = f
	}
	return f
}

// mark marks the elements under n and reports whether one is named the
// article (nameAttr "pos") or is an <article> or <main>. An element named
// both a region and the article ("aside-content", "sidebar-content") is
// the content of a region, not the article. A paragraph is no region the
// engine could take for the article, whatever its class
// (`<p class="contextmenu body">` holds an article's text): it gets no
// inAttr unless it is a dialog.
func (m *regionMarker) mark(n *html.Node) bool {
	holds := false
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		m.k++
		k0 := m.k
		info := m.info(c)
		r := regionFor(c, info.own, info.article)
		if r != "" {
			c.Attr = append(c.Attr, html.Attribute{Key: regionAttr, Val: r})
		}
		k := kindFor(info.all)
		if k != "" {
			c.Attr = append(c.Attr, html.Attribute{Key: nameAttr, Val: k})
		}
		if info.all&nameCaption != 0 {
			c.Attr = append(c.Attr, html.Attribute{Key: captionAttr, Val: "1"})
		}
		if socialEmbed(c) {
			c.Attr = append(c.Attr, html.Attribute{Key: embedAttr, Val: "1"})
		}
		inner := m.mark(c)
		named := k == "pos" && r != "nav" // "aside-content" names a region's content
		holds = holds || inner || named || tag(c) == atom.Article || tag(c) == atom.Main
		switch {
		case dialogFor(c, info.all) || !inner && !named && c.DataAtom != atom.P && (r == "nav" || structuralNav(c)):
			markIn(c, strconv.Itoa(k0))
		case !inner && !named && c.DataAtom != atom.P && authorBoxFor(c, info.all):
			mark := bylineMark + strconv.Itoa(k0)
			if block[tag(c)] {
				mark = authorMark + strconv.Itoa(k0)
			}
			markIn(c, mark)
		}
	}
	return holds
}

// structuralNav reports a navigation region by its tag or ARIA role, not
// its name: <nav>, <aside>, <footer>, role navigation, menu, complementary.
func structuralNav(n *html.Node) bool {
	switch tag(n) {
	case atom.Nav, atom.Aside, atom.Footer:
		return true
	}
	switch strings.ToLower(strings.TrimSpace(attr(n, "role"))) {
	case "navigation", "menu", "menubar", "complementary":
		return true
	}
	return false
}

// dialogWords end the ids and classes of dialogs (split at "-" and "_"):
// "newsletter_dialog", "search-modal", "popup".
var dialogWords = [...]string{"dialog", "modal", "popup"}

// dialogFor reports whether n is a dialog: a <dialog>, an element of ARIA
// role dialog or alertdialog or marked aria-modal, one whose id or a class
// ends in a word of dialogWords (nameDialog in f, its names' flags), or
// one that opens with a control to close it (closable). A sign-up form, a
// shop's terms or a search box shown over the page is never the article,
// whatever names its inner parts carry; <html>, <body>, <main> and
// <article> are never dialogs (a page's body is classed by the dialogs it
// enables).
func dialogFor(n *html.Node, f nameFlags) bool {
	switch tag(n) {
	case atom.Dialog:
		return true
	case atom.Html, atom.Body, atom.Main, atom.Article:
		return false
	}
	switch strings.ToLower(strings.TrimSpace(attr(n, "role"))) {
	case "dialog", "alertdialog":
		return true
	}
	if strings.EqualFold(strings.TrimSpace(attr(n, "aria-modal")), "true") {
		return true
	}
	return f&nameDialog != 0 || closable(n)
}

// dialogNamed reports whether a name of an id or class attribute ends in
// a word of dialogWords: "newsletter_dialog", "search-modal", "popup".
func dialogNamed(names string) bool {
	for name := range strings.FieldsSeq(names) {
		last := name[strings.LastIndexAny(name, "-_")+1:]
		for _, w := range dialogWords {
			if strings.EqualFold(last, w) {
				return true
			}
		}
	}
	return false
}

// closable reports whether n's first element is a control named "close"
// by a word of its id or class: a box shown over the page with its button
// to close it.
func closable(n *html.Node) bool {
	c := n.FirstChild
	for c != nil && c.Type != html.ElementNode {
		c = c.NextSibling
	}
	if c == nil || !containsFold(attr(c, "id"), "close") && !containsFold(attr(c, "class"), "close") {
		return false
	}
	names := lowerNames(c)
	for w, rest := nextName(names); w != "" || rest != ""; w, rest = nextName(rest) {
		if w == "close" {
			return true
		}
	}
	return false
}

// containsFold reports whether s holds the lower-case ASCII word sub in
// any case, without allocating.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// authorBoxFor reports whether n, by a word of its id or class starting
// with "author" or the word "bio" (nameAuthor in f, its names' flags), is
// a box about the author; <html>, <body>, <main> and <article> never are.
func authorBoxFor(n *html.Node, f nameFlags) bool {
	switch tag(n) {
	case atom.Html, atom.Body, atom.Main, atom.Article:
		return false
	}
	return f&nameAuthor != 0
}

// authorMark begins the inAttr mark of an author's box (authorBoxFor), so
// that dropAuthorBoxes finds it in the engine's content, where the engine
// may have put a paragraph in place of the box that held only it.
const authorMark = "author"

// bylineMark begins the inAttr mark of an element named an author
// (authorBoxFor) that is no block: an author's name in a line ("By <span
// class="author">Jane Roe</span>, 5 March 2024"), which stays in the
// content and whose line holds the article's date (navigation).
const bylineMark = "byline"

// maxAuthorBox is the most text (bytes, without spaces) of an author's box
// that dropAuthorBoxes removes: a biography of a few lines, not a page.
const maxAuthorBox = 1000

// dropAuthorBoxes removes from the engine's content n the authors' boxes
// markRegions marked (authorMark) that hold at most maxAuthorBox bytes of
// text and under a third of the content's: the biography an article ends
// with ("Jane Roe is a national affairs correspondent…"), long enough for
// the block classifier to keep it as prose, is no part of the story.
func dropAuthorBoxes(n *html.Node) {
	total := textBytes(n, math.MaxInt/4)
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		var next *html.Node
		for c := n.FirstChild; c != nil; c = next {
			next = c.NextSibling
			if c.Type != html.ElementNode {
				continue
			}
			if m := attr(c, inAttr); strings.HasPrefix(m, authorMark) && m != attr(n, inAttr) {
				if k := textBytes(c, maxAuthorBox); k <= maxAuthorBox && 3*k < total {
					n.RemoveChild(c)
					continue
				}
			}
			walk(c)
		}
	}
	walk(n)
}

// inAttr is the attribute markRegions sets on a navigation region, by its
// tag or role (structuralNav) or its name (regionAttr "nav"), or an
// author's box (authorBoxFor), that is not named the article and holds no
// <article>, <main> or element named the article, on a dialog (whatever it
// holds), and on every element inside one: the number, in document order,
// of the region. The engine keeps it; it tells whether the
// engine took navigation for the article (chosenRegions), and which
// element to remove on another parse of the same page.
const inAttr = "data-neardup-in"

// markIn sets inAttr to mark on n and every element under it.
func markIn(n *html.Node, mark string) {
	if n.Type != html.ElementNode {
		return
	}
	set := false
	for i, a := range n.Attr {
		if a.Key == inAttr {
			n.Attr[i].Val, set = mark, true
		}
	}
	if !set {
		n.Attr = append(n.Attr, html.Attribute{Key: inAttr, Val: mark})
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		markIn(c, mark)
	}
}

// chosenShare is the least share of the engine's prose inside navigation
// regions (inAttr) for which chosenRegions says the engine chose them.
const chosenShare = 0.9

// chosenRegions returns the marks (inAttr) of the navigation regions that
// hold at least chosenShare of the prose of the engine's content n: the
// engine took a sidebar or a footer for the article. nil otherwise.
func chosenRegions(n *html.Node) map[string]bool {
	all, inside := 0, 0
	marks := map[string]bool{}
	var walk func(n *html.Node, in string)
	walk = func(n *html.Node, in string) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				k := nonSpaceRunes(c.Data)
				all += k
				if in != "" && k > 0 {
					inside += k
					marks[in] = true
				}
			case html.ElementNode:
				if neverText[tag(c)] || tag(c) == atom.A {
					continue
				}
				cin := in
				if cin == "" {
					cin = attr(c, inAttr)
				}
				walk(c, cin)
			}
		}
	}
	walk(n, attr(n, inAttr))
	if all == 0 || float64(inside) < chosenShare*float64(all) {
		return nil
	}
	return marks
}

// removeMarked removes from a marked tree the elements whose inAttr mark is
// one of marks (with what they hold).
func removeMarked(n *html.Node, marks map[string]bool) {
	var next *html.Node
	for c := n.FirstChild; c != nil; c = next {
		next = c.NextSibling
		if c.Type != html.ElementNode {
			continue
		}
		if marks[attr(c, inAttr)] {
			n.RemoveChild(c)
			continue
		}
		removeMarked(c, marks)
	}
}

// region returns "related" for a section of related stories, "nav" for a
// navigation region, "" for anything else (markRegions reads the same with
// a page's memo of names: regionFor).
func region(n *html.Node) string {
	names := lowerNames(n)
	return regionFor(n, namesFlags(regionNames(names)), namesArticle(names, namesFlags(names), namesFlags))
}

// regionNames returns names without its first word when that is a slug id
// (slugID), an anchor made of a heading's words.
func regionNames(names string) string {
	if i := strings.IndexByte(names, ' '); i > 0 && slugID(names[:i]) {
		return names[i:]
	}
	return names
}

// regionFor is region with the flags of n's names (regionNames) already
// read, and whether one of them names an article alone (namesArticle): its
// tag, then its names (related stories before navigation; no navigation
// when a name says article), then its ARIA role.
func regionFor(n *html.Node, f nameFlags, article bool) string {
	switch tag(n) {
	case atom.Body, atom.Article, atom.Main:
		return ""
	case atom.Nav, atom.Aside, atom.Footer:
		return "nav"
	}
	if f&nameRelated != 0 {
		return "related"
	}
	if f&nameNav != 0 && !article {
		return "nav"
	}
	switch strings.ToLower(strings.TrimSpace(attr(n, "role"))) {
	case "navigation", "menu", "menubar", "complementary":
		return "nav"
	}
	return ""
}

// slugWords is the fewest words (split at "-" and "_") of an id that make
// it a heading's words ("evolve-shared-mutable-history", the anchor of a
// section) rather than a name: its words do not name a region.
const slugWords = 4

// slugID reports whether an id is a heading's words (slugWords).
func slugID(id string) bool {
	words := 1
	for i := 0; i < len(id); i++ {
		if id[i] == '-' || id[i] == '_' {
			words++
		}
	}
	return words >= slugWords
}

// lowerNames returns n's own names (ownNames) in lower case, "" when it has
// no id and no class.
func lowerNames(n *html.Node) string {
	if attr(n, "id") == "" && attr(n, "class") == "" {
		return ""
	}
	return strings.ToLower(ownNames(n))
}

// nextName returns the first word of names, split at white space, "-" and
// "_" (possibly empty, between two separators), and the rest after it;
// both are empty at the end.
func nextName(names string) (word, rest string) {
	for i := 0; i < len(names); i++ {
		switch names[i] {
		case ' ', '\t', '\n', '\r', '\f', '-', '_':
			return names[:i], names[i+1:]
		}
	}
	return names, ""
}

// ownNames returns n's id and class joined by a space, without the class
// names that do not name what n is:
//   - the taxonomy classes a blog engine gives a post's container besides
//     its own ("category-news", "tag-elections" beside "hentry",
//     "type-post", "post-406"; "entry-category-news", "entry-author-jane"
//     beside "entry-type-post"): they name the post's categories, tags and
//     author, not a list of them or a byline;
//   - the hooks of a page's scripts ("js-external-links": the script
//     handles the links inside);
//   - a page builder's word for each of its components ("elementor-widget-
//     wrap", "elementor-widget-text-editor" are "wrap", "text-editor").
//
// They would mark the article itself as navigation or boilerplate. A blog's
// main widget, which holds its posts ("widget Blog"), is not named a widget
// either.
func ownNames(n *html.Node) string {
	id, class := attr(n, "id"), attr(n, "class")
	if blogWidget(class) {
		return id + " Blog"
	}
	if !strings.Contains(class, "category-") && !strings.Contains(class, "tag-") && !strings.Contains(class, "author-") &&
		!strings.Contains(class, "js-") && !strings.Contains(class, "elementor-widget") {
		return id + " " + class
	}
	toks := strings.Fields(class)
	post := slices.ContainsFunc(toks, blogPostClass)
	kept := toks[:0]
	for _, t := range toks {
		switch l := strings.ToLower(t); {
		case post && taxonomyClass(l), strings.HasPrefix(l, "js-"):
		case strings.HasPrefix(l, builderWidget):
			kept = append(kept, l[len(builderWidget):])
		default:
			kept = append(kept, t)
		}
	}
	return id + " " + strings.Join(kept, " ")
}

// builderWidget begins the class names a page builder gives each component
// of a page, the article's text among them.
const builderWidget = "elementor-widget"

// taxonomyClass reports whether a lower-case class token of a blog post's
// container names one of its categories, tags or its author:
// "category-news", "tag-budget", "entry-category-news", "entry-author-jane".
func taxonomyClass(t string) bool {
	t = strings.TrimPrefix(t, "entry-")
	return strings.HasPrefix(t, "category-") || strings.HasPrefix(t, "tag-") || strings.HasPrefix(t, "author-")
}

// blogWidget reports whether a class attribute is that of the widget a blog
// engine puts its posts in: the words "widget" and "Blog" (and no other
// beside them), unlike the sidebar's widgets ("widget BlogArchive",
// "widget Label").
func blogWidget(class string) bool {
	if !strings.Contains(class, "Blog") {
		return false
	}
	toks := strings.Fields(class)
	return len(toks) == 2 && (toks[0] == "widget" && toks[1] == "Blog" || toks[0] == "Blog" && toks[1] == "widget")
}

// blogPostClass reports whether a class token marks the container of one
// blog post: "hentry" (microformats), or a blog engine's "type-post",
// "entry-type-post", "status-publish", "format-standard", "post-406".
func blogPostClass(t string) bool {
	t = strings.ToLower(t)
	switch {
	case t == "hentry":
		return true
	case strings.HasPrefix(t, "type-"), strings.HasPrefix(t, "entry-type-"), strings.HasPrefix(t, "status-"), strings.HasPrefix(t, "format-"):
		return true
	case strings.HasPrefix(t, "post-") && len(t) > 5 && t[5] >= '0' && t[5] <= '9':
		return true
	}
	return false
}

// inRegion reports whether n or an ancestor is marked as a region.
func inRegion(n *html.Node) bool {
	for ; n != nil; n = n.Parent {
		if n.Type == html.ElementNode && hasAttr(n, regionAttr) {
			return true
		}
	}
	return false
}

// dropRelated removes from the content tree the sections of related stories
// that markRegions marked: teasers with headlines and excerpts that the
// engine kept beside the article. They are removed after the engine has
// chosen: removing them before changed its choice on other pages too, for
// the worse as often as for the better. Only when they hold most of the
// content (the engine took them for the article) does it choose again
// without them (extractDoc).
func dropRelated(n *html.Node) {
	var next *html.Node
	for c := n.FirstChild; c != nil; c = next {
		next = c.NextSibling
		if c.Type == html.ElementNode && attr(c, regionAttr) == "related" {
			n.RemoveChild(c)
			continue
		}
		dropRelated(c)
	}
}
