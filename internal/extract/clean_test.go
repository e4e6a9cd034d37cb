package extract

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
)

func TestHidden(t *testing.T) {
	for _, tc := range []struct {
		name, attrs string
		want        bool
	}{
		{"no style", `class="x"`, false},
		{"display none", `style="display:none"`, true},
		{"spaced with semicolon", `style="display: none ;"`, true},
		{"upper case and spaces", `style="DISPLAY : NONE"`, true},
		{"among other declarations", `style="color:red; display:none; margin:0"`, true},
		{"important", `style="display:none !important"`, true},
		{"visibility hidden", `style="visibility:hidden"`, true},
		{"visibility spaced", `style="visibility :  Hidden;"`, true},
		{"visibility collapse", `style="visibility:collapse"`, true},
		{"hidden attribute", `hidden`, true},
		{"hidden attribute with value", `hidden="hidden"`, true},
		{"display block", `style="display:block"`, false},
		{"none elsewhere", `style="border:none"`, false},
		{"display in a value", `style="font-family:'display:none'"`, false},
		{"aria-hidden is not hidden", `aria-hidden="true"`, false},
		{"class hidden", `class="article-block hidden"`, true},
		{"class in capitals", `class="D-NONE"`, true},
		{"class is-hidden", `class="is-hidden promo"`, true},
		{"screen reader only", `class="sr-only"`, true},
		{"visually hidden", `class="visually-hidden"`, true},
		{"screen reader text", `class="screen-reader-text"`, true},
		{"hidden on phones only", `class="hidden md:block"`, false},
		{"hidden until a breakpoint", `class="d-none d-lg-flex"`, false},
		{"a word of a class", `class="hidden-print overflow-hidden"`, false},
		{"hide is not a hiding class", `class="root hide"`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, "<div id=t "+tc.attrs+">x</div>")
			n := find(doc, "t")
			if n == nil {
				t.Fatal("element not found")
			}
			if got := Hidden(n); got != tc.want {
				t.Errorf("Hidden = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestHiddenByClassBounds checks what a hiding class does not hide: a
// screen reader's name of a link, and a wrapper holding a whole page that
// a script reveals.
func TestHiddenByClassBounds(t *testing.T) {
	long := strings.Repeat("The ferry returned to the harbour at dawn after the storm. ", 100)
	doc := parse(t, `<a href="/b" id=a><span class="sr-only" id=name>Read: the ferry returns</span></a>`+
		`<div class="root hidden" id=root><p>`+long+`</p></div><div class="hidden" id=pitch><p>Subscribe now.</p></div>`)
	for id, want := range map[string]bool{"name": false, "root": false, "pitch": true} {
		if got := Hidden(find(doc, id)); got != want {
			t.Errorf("Hidden(#%s) = %v, want %v", id, got, want)
		}
	}
}

// find returns the element with id under n.
func find(n *html.Node, id string) *html.Node {
	if n.Type == html.ElementNode && attr(n, "id") == id {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := find(c, id); f != nil {
			return f
		}
	}
	return nil
}

func TestClean(t *testing.T) {
	for _, tc := range []struct {
		name, html, want string
		drop             dropFunc
	}{
		{"code and comments removed",
			`<p>a<!-- note --><script>x()</script><style>p{}</style><noscript>n</noscript>b</p>`,
			"<p>ab</p>", nil},
		{"json-ld kept for metadata",
			`<script type="application/ld+json">{}</script><p>a</p>`,
			`<script type="application/ld+json">{}</script><p>a</p>`, nil},
		{"hidden removed",
			`<p>a</p><div style="display : none">b</div><span hidden>c</span>`,
			"<p>a</p>", nil},
		{"a skip link removed, a link to a section kept",
			`<a class="skip-to" href="#main-content">Skip to Content</a><p>a <a href="#notes">notes</a></p><a id="skiplink" href=" #main">Zum Inhalt springen</a>`,
			`<p>a <a href="#notes">notes</a></p>`, nil},
		{"a paragraph hidden from screen readers only is shown to the engine",
			`<p aria-hidden="true" class="paywall">a</p><div aria-hidden="true">b</div>`,
			`<p class="paywall">a</p><div aria-hidden="true">b</div>`, nil},
		{"a newsletter box removed, one word of a name not",
			`<div class="newsletter-promo"><p>The Briefing is a weekly newsletter for readers who want the week's news in five minutes.</p></div><div id="signup"><p>b</p></div><div class="SignUp-box"><p>c</p></div><p class="signups-open">a</p>`,
			`<p class="signups-open">a</p>`, nil},
		{"an appeal for donations removed, a list of donors kept",
			`<div class="p-4 donation"><h2>Support us</h2><p>We are proud to provide our readers with independent news for free. If you can, please support us.</p></div><div class="DonateBox"><p>d</p></div><p class="donor-list">a</p>`,
			`<p class="donor-list">a</p>`, nil},
		{"a long text in a box named a donation kept",
			`<div class="donation">` + strings.Repeat("<p>This week the council approved the budget for the new harbour.</p>", 12) + `</div>`,
			`<div class="donation">` + strings.Repeat("<p>This week the council approved the budget for the new harbour.</p>", 12) + `</div>`, nil},
		{"a long text in a box named a newsletter kept",
			`<div class="newsletter">` + strings.Repeat("<p>This week the council approved the budget for the new harbour.</p>", 12) + `</div>`,
			`<div class="newsletter">` + strings.Repeat("<p>This week the council approved the budget for the new harbour.</p>", 12) + `</div>`, nil},
		{"hidden body kept",
			`<body style="display:none"><p>a</p></body>`,
			"<p>a</p>", nil},
		{"form controls removed",
			`<p>a</p><button>Share</button><select><option>x</option></select>`,
			"<p>a</p>", nil},
		{"controls by their role removed, a link kept",
			`<p>a</p><div role="button">Play Video</div><div role="slider">Progress: 0%</div><a href="#next" role="button">Next</a>`,
			`<p>a</p><a href="#next" role="button">Next</a>`, nil},
		{"a newsletter form removed, a search form kept",
			`<p>a</p><form><label>Your e-mail</label><input type="email"><p>I agree to receive news.</p></form><form role="search"><input type="search"></form>`,
			`<p>a</p><form role="search"><input type="search"/></form>`, nil},
		{"a sign-up form asking for an e-mail address in a text field removed, a search form kept",
			`<p>a</p><form id="subscribe-blog"><p>Enter your e-mail address to follow this blog.</p><input type="text" name="email"><button>Follow</button></form><form><input type="text" name="q"></form>`,
			`<p>a</p><form><input type="text" name="q"/></form>`, nil},
		{"a log-in form removed",
			`<p>a</p><form action="/login">Name <input type="text"> Password <input type="PASSWORD"></form>`,
			"<p>a</p>", nil},
		{"a page wrapped whole in a form kept",
			`<form><p>` + strings.Repeat("The council met. ", 100) + `</p><input type="password"></form>`,
			`<form><p>` + strings.Repeat("The council met. ", 100) + `</p><input type="password"/></form>`, nil},
		{"a cookie notice removed, an article about cookies kept",
			`<p>a</p><div class="widget widget_eu_cookie_law_widget"><p>This site uses cookies. By using it you agree.</p></div><div id="gdpr-consent">OK</div><div class="cookie-recipe">` + strings.Repeat("Cream the butter and sugar, then fold in the flour. ", 25) + `</div>`,
			`<p>a</p><div class="cookie-recipe">` + strings.Repeat("Cream the butter and sugar, then fold in the flour. ", 25) + `</div>`, nil},
		{"drop func applied",
			`<p>a</p><div class="ad">b</div>`,
			"<p>a</p>", func(n *html.Node) bool { return attr(n, "class") == "ad" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, tc.html)
			clean(doc, tc.drop)
			if diff := cmp.Diff(tc.want, renderBody(t, doc)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// renderBody renders the head's and body's children as HTML.
func renderBody(t *testing.T, doc *html.Node) string {
	t.Helper()
	var out []byte
	var w byteWriter = func(p []byte) { out = append(out, p...) }
	htmlEl := doc.LastChild
	for part := htmlEl.FirstChild; part != nil; part = part.NextSibling {
		for c := part.FirstChild; c != nil; c = c.NextSibling {
			if err := html.Render(w, c); err != nil {
				t.Fatal(err)
			}
		}
	}
	return string(out)
}

type byteWriter func([]byte)

func (w byteWriter) Write(p []byte) (int, error) { w(p); return len(p), nil }

func TestIsCommentsInCode(t *testing.T) {
	doc := parse(t, `<pre><code><span id="c" class="token comment">// add.c</span></code></pre><div id="d" class="comment">x</div>`)
	if isComments(find(doc, "c")) {
		t.Error("a highlighter's comment class inside <code> is taken for a comment section")
	}
	if !isComments(find(doc, "d")) {
		t.Error("a comment section outside code is not recognised")
	}
}

func TestRegion(t *testing.T) {
	for _, tc := range []struct {
		html, want string
	}{
		{`<div id=t class="sidebar">x</div>`, "nav"},
		{`<div id=t class="widget widget_archive">x</div>`, "nav"},
		{`<ul id=t class="ipNav">x</ul>`, "nav"},
		{`<div id=t class="site-footer">x</div>`, "nav"},
		{`<div id="t" role="navigation">x</div>`, "nav"},
		{`<aside id=t>x</aside>`, "nav"},
		{`<div id=t class="jp-relatedposts">x</div>`, "related"},
		{`<div id="t" class="related-articles">x</div>`, "related"},
		{`<div id=t class="article-body">x</div>`, ""},
		{`<div id=t class="canvas-wrap">x</div>`, ""},
		{`<div id=t class="unrelated">x</div>`, ""},
		{`<article id=t class="sidebar">x</article>`, ""},
		{`<div id=t class="aside secondary">x</div>`, "nav"},
		{`<div id=t class="post-406 post type-post status-publish hentry category-news tag-elections">x</div>`, ""},
		{`<div id=t class="category-list">x</div>`, "nav"},
		// Regression: a post's own taxonomy classes in another blog
		// engine's spelling, and the widget holding a blog's posts,
		// marked the article as navigation.
		{`<div id=t class="entry-category-travel entry-author-jane_roe entry-type-post entry">x</div>`, ""},
		{`<div id=t class="widget Blog">x</div>`, ""},
		{`<div id=t class="widget BlogArchive">x</div>`, "nav"},
		{`<div id=t class="entry-category-list">x</div>`, "nav"},
		{`<div id=t class="elementor-widget-wrap">x</div>`, ""},
		{`<div id=t class="elementor-element elementor-widget elementor-widget-nav-menu">x</div>`, "nav"},
		{`<div id=t class="column js-external-links">x</div>`, ""},
		// A class naming the article alone beside one naming the layout
		// (the column beside a sidebar) is the article; one class naming
		// both is a region's content.
		{`<div id=t class="sidebar-grid__content article__content">x</div>`, ""},
		{`<div id=t class="mainbar entry-content">x</div>`, ""},
		{`<div id=t class="aside-content">x</div>`, "nav"},
		{`<div id=t class="post-sidebar content">x</div>`, "nav"},
		{`<div id=t class="sidebar content">x</div>`, "nav"},
	} {
		t.Run(tc.html, func(t *testing.T) {
			if got := region(find(parse(t, tc.html), "t")); got != tc.want {
				t.Errorf("region = %q, want %q", got, tc.want)
			}
		})
	}
}

// Regression: a section's anchor made of its heading's words ("shared")
// marked the section as navigation.
func TestRegionSlugID(t *testing.T) {
	for id, want := range map[string]string{"evolve-shared-mutable-history": "", "share-bar": "nav", "share_this_story": "nav"} {
		n := &html.Node{Type: html.ElementNode, Data: "div", Attr: []html.Attribute{{Key: "id", Val: id}, {Key: "class", Val: "section"}}}
		if got := region(n); got != want {
			t.Errorf("id %q: region %q, want %q", id, got, want)
		}
	}
}

func TestDropRelated(t *testing.T) {
	doc := parse(t, `<div><p>Story.</p><div class="jp-relatedposts"><h3>Related</h3><p>Another story, with its excerpt.</p></div><p>End.</p></div>`)
	markRegions(doc, nil)
	dropRelated(doc)
	if diff := cmp.Diff("Story.\n\nEnd.", Text(doc)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestIsComments(t *testing.T) {
	for _, tc := range []struct {
		attrs string
		want  bool
	}{
		{`id="comments"`, true},
		{`id="disqus_thread"`, true},
		{`class="post comment-list"`, true},
		{`class="comments-area"`, true},
		{`id="respond"`, true},
		{`class="Comments"`, true},
		{`class="has-comments"`, false},
		{`class="comment-count"`, false},
		{`class="article-body"`, false},
		{`id="commentary"`, false},
		{`id="DISQUS_THREAD"`, true},
		{`class="x" id="Respond"`, true},
		{`class="REPLIES"`, true},
		{`class="COMMENT_Section"`, true},
		{`class="nav"`, false},
	} {
		t.Run(tc.attrs, func(t *testing.T) {
			n := firstDiv(parse(t, "<div "+tc.attrs+">x</div>"))
			if got := isComments(n); got != tc.want {
				t.Errorf("isComments = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestMayNameComments pins the first look of namesComments: it may say
// yes to names the regexp refuses, never no to one it matches.
func TestMayNameComments(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"comments", true},
		{"CommentList", true},
		{"disqus-thread", true},
		{"RESPOND", true},
		{"replies", true},
		{"has-comments", true},
		{"article-body", false},
		{"", false},
		{"commen", false},
		{"disq", false},
		{"kommentar", false},
		{"ｃomments", true}, // not ASCII: looked at closely
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mayNameComments(tc.name); got != tc.want {
				t.Errorf("mayNameComments(%q) = %v, want %v", tc.name, got, tc.want)
			}
			if commentName.MatchString(strings.ToLower(tc.name)) && !mayNameComments(tc.name) {
				t.Errorf("mayNameComments(%q) refuses a name commentName matches", tc.name)
			}
		})
	}
}

// firstDiv returns the first div element under n.
func firstDiv(n *html.Node) *html.Node {
	if n.Type == html.ElementNode && n.Data == "div" {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if d := firstDiv(c); d != nil {
			return d
		}
	}
	return nil
}

func TestPruneLinkBlocks(t *testing.T) {
	for _, tc := range []struct {
		name, html, want string
	}{
		{"share bar", `<p>Story.</p><ul class="share-tools"><li><a href=/t>Twitter</a></li><li><a href=/e>Email</a></li></ul>`, "Story."},
		{"a paragraph of one link among paragraphs stays", `<div class="sidebar"><p>Story.</p><p><a href=/r>Related: more news</a></p><p>More.</p></div>`,
			"Story.\n\nRelated: more news\n\nMore."},
		{"link-only blocks side by side in a sidebar", `<p>Story.</p><div id="sidebar"><div><a href=/s>Sport</a></div><div><a href=/w>Weather</a></div></div>`, "Story."},
		{"navigation", `<p>Story.</p><nav><a href=/>Home</a></nav>`, "Story."},
		{"a list of links in a most-read box", `<p>Story.</p><div class="most-popular"><ol><li><a href=/m>Most read one</a></li></ol></div>`, "Story."},
		{"the navigation cell of a table layout", `<table><tr><td class="nav"><a href=/>Front page</a><br><a href=/a>Archive</a></td><td>Story.</td></tr></table>`, "Story."},
		{"a table of link cells", `<table><tr><td><a href=/>Home</a></td><td><a href=/a>Archive</a></td></tr><tr><td colspan=2>Story.</td></tr></table>`, "Story."},
		{"links beside dates in a table of data stay", `<table><tr><td><a href=/3>4.2.3</a></td><td>April 2014</td></tr><tr><td><a href=/4>4.2.4</a></td><td>May 2014</td></tr></table>`,
			"4.2.3\nApril 2014\n\n4.2.4\nMay 2014"},
		{"one link cell in a table stays", `<table><tr><th>Founder</th><td><a href=/n>Netscape</a></td></tr></table>`, "Founder\nNetscape"},
		{"a list of links in the article stays", `<p>Apps I use:</p><ul><li><a href=/b>BBEdit</a></li><li><a href=/a>Acorn</a></li></ul>`, "Apps I use:\n\nBBEdit\n\nAcorn"},
		{"a table of contents stays, even in a sidebar", `<div class="sidebar"><ul><li><a href="#one">One</a></li><li><a href="#two">Two</a></li></ul></div>`, "One\n\nTwo"},
		{"text with a link stays", `<p>Read the <a href=#>report</a> here.</p>`, "Read the report here."},
		{"long link-only block stays", `<ul class="menu"><li><a href=/l>` + strings.Repeat("word ", 20) + `</a></li></ul>`, strings.TrimSpace(strings.Repeat("word ", 20))},
		{"outer block with text stays", `<div class="menu">Intro text.<div><a href=/m>Menu</a></div><div><a href=/>Home</a></div></div>`, "Intro text."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, tc.html)
			markRegions(doc, nil)
			pruneLinkBlocks(doc)
			if diff := cmp.Diff(tc.want, Text(doc)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestPruneDateLines(t *testing.T) {
	testPrune(t, pruneDateLines, []pruneCase{
		{"a dateline under the headline", `<article><h1>Ferry</h1><time>2 November 2026</time><p>Story.</p></article>`, "Ferry\n\nStory."},
		{"an update time in its own block", `<div><p><time datetime="x">Updated 10:32 GMT, Tue 3 Nov 2026</time></p><p>Story.</p></div>`, "Story."},
		{"a German dateline with its weekday", `<article><h1>Fähre</h1><time>Dienstag, 05.03.2024</time><p>Story.</p></article>`, "Fähre\n\nStory."},
		{"a French dateline with its clock", `<article><h1>Ferry</h1><p><time>mardi 5 mars 2024 à 14h23</time></p><p>Story.</p></article>`, "Ferry\n\nStory."},
		{"a Russian dateline", `<article><h1>Паром</h1><time>5 марта 2024 г. в 14:23</time><p>Story.</p></article>`, "Паром\n\nStory."},
		{"a date inside a sentence stays", `<p>It sailed on <time>2 November</time> at dawn.</p>`, "It sailed on 2 November at dawn."},
		{"a German date inside a sentence stays", `<p>Sie fuhr am <time>Dienstag, 5. März</time> ab.</p>`, "Sie fuhr am Dienstag, 5. März ab."},
		{"a time element that is not a date stays", `<p><time>Tonight</time></p><p>Story.</p>`, "Tonight\n\nStory."},
	})
}

func TestPruneStampBlocks(t *testing.T) {
	testPrune(t, pruneStampBlocks, []pruneCase{
		{"a live blog's entry lines go whole",
			`<div><div class="entry-info"><time>21:00</time><span>Antony Clements-Thrower</span></div><p>Story.</p><div><time>20:42</time><mark>KEY EVENT</mark></div><p>More.</p></div>`,
			"Story.\n\nMore."},
		{"a byline and time go whole", `<div><p>By Jane Roe, posted on <time>November 13, 2012 6:00 pm</time></p><p>Story.</p></div>`, "Story."},
		{"a short sentence with a date stays", `<div><p>The vote is on <time>5 May</time>.</p><p>Story.</p></div>`, "The vote is on 5 May.\n\nStory."},
		{"a line of six words beside the date stays", `<div><p><time>21:00</time> Crews reach the ferry at last</p><p>Story.</p></div>`, "21:00 Crews reach the ferry at last\n\nStory."},
		{"a time element that is not a date stays", `<div><p><time>Tonight</time> live</p><p>Story.</p></div>`, "Tonight live\n\nStory."},
		{"two times in one block", `<div><p>Posted <time>10:00</time>, updated <time>11:30</time></p><p>Story.</p></div>`, "Story."},
	})
}

func TestPruneSkipLinks(t *testing.T) {
	testPrune(t, pruneSkipLinks, []pruneCase{
		{"a skip link without a name goes",
			`<div><p>Story.</p><a href="#EndOfNewsletterSignup" class="dcr-jzxpee">skip past newsletter promotion</a><p>More.</p></div>`, "Story.\n\nMore."},
		{"in German", `<div><a href="#main">Zum Inhalt springen</a><p>Story.</p></div>`, "Story."},
		{"a link to a section that says more stays", `<div><p>Story.</p><p><a href="#notes">Skip the notes and go straight to the recipe for the cake</a></p></div>`,
			"Story.\n\nSkip the notes and go straight to the recipe for the cake"},
		{"a link to another page stays", `<div><p>Story.</p><p><a href="/skip">Skip Bayless</a></p></div>`, "Story.\n\nSkip Bayless"},
		{"the word alone stays", `<div><p>Story.</p><p><a href="#x">skip</a></p></div>`, "Story.\n\nskip"},
		{"a link back to the top goes", `<div><p>Story.</p><p><a href="#top">(Back to Top)</a></p><p>More.</p></div>`, "Story.\n\nMore."},
		{"to the page's own address too", `<div><p>Story.</p><p><a href="https://example.org/faq.htm">&lt; back to top</a></p></div>`, "Story."},
		{"in German", `<div><p>Story.</p><a href="#seite">Nach oben</a></div>`, "Story."},
		{"top alone to an anchor goes", `<div><p>Story.</p><a href="#header">Top</a></div>`, "Story."},
		{"top alone to another page stays", `<div><p>Story.</p><p><a href="/top">Top</a></p></div>`, "Story.\n\nTop"},
		{"a sentence about the top stays", `<div><p><a href="#top">Back to the top of the hill</a> we went.</p></div>`, "Back to the top of the hill we went."},
	})
}

func TestPruneTail(t *testing.T) {
	story := "<p>" + strings.Repeat("The council met on Monday to vote on the plan for the bridge. ", 5) + "</p>"
	text := strings.TrimSpace(strings.Repeat("The council met on Monday to vote on the plan for the bridge. ", 5))
	testPrune(t, pruneTail, []pruneCase{
		{"links at the end go", `<div>` + story + `<p><a href="/a">Ferry strike ends</a></p><p><b><a href="/b">Port reopens</a></b> // <a href="/">News</a></p></div>`, text},
		{"a block with words outside its links stays", `<div>` + story + `<p>Source: <a href="/a">Harbour office</a></p></div>`, text + "\n\nSource: Harbour office"},
		{"links before the text stay", `<div><p><a href="/a">Ferry strike ends</a></p>` + story + `</div>`, "Ferry strike ends\n\n" + text},
		{"a link within the page stays", `<div>` + story + `<p><a href="#top">Back to the start</a></p></div>`, text + "\n\nBack to the start"},
		{"a list that is much of the content stays",
			`<div><p>Talks of the conference.</p><p><a href="/a">The first talk on the bridge</a></p><p><a href="/b">The second talk on the ferry</a></p></div>`,
			"Talks of the conference.\n\nThe first talk on the bridge\n\nThe second talk on the ferry"},
		{"the only block stays", `<div><p><a href="/a">Ferry strike ends</a></p></div>`, "Ferry strike ends"},
		{"links and their label go", `<div>` + story + `<p>Ссылки по теме:</p><p><a href="/a">Ferry strike ends</a></p></div>`, text},
		{"a label at the end goes", `<div><p>Story.</p><p>More.</p><h3>Ссылки по теме:</h3></div>`, "Story.\n\nMore."},
		{"two in a row", `<div><p>Story.</p><p>Lesen Sie auch:</p><p><b>Mehr zum Thema:</b></p></div>`, "Story."},
		{"a label with links that are much of the text stays", `<div><p>Story.</p><p>Related:</p><p><a href="/x">Ferry strike ends</a></p></div>`,
			"Story.\n\nRelated:\n\nFerry strike ends"},
		{"a sentence ending in a colon stays", `<div><p>Story.</p><p>The council gave three reasons for the delay, which the mayor read out:</p></div>`,
			"Story.\n\nThe council gave three reasons for the delay, which the mayor read out:"},
		{"the only label stays", `<div><p>Related:</p></div>`, "Related:"},
	})
}

func TestPruneCredits(t *testing.T) {
	testPrune(t, pruneCredits, []pruneCase{
		{"a credit beside a figure's caption goes",
			`<div><p>Story.</p><figure><img src="a.jpg"><span><figcaption>The actor in Mexico City.</figcaption><span class="image-source" itemprop="creditText">Jane Roe/Getty Images</span></span></figure><p>More.</p></div>`,
			"Story.\n\nThe actor in Mexico City.\n\nMore."},
		{"a credit named by its class beside a picture goes",
			`<div><p>Story.</p><div class="photo"><img src="a.jpg"><p class="photo-credit">Photo: Jane Roe</p></div><p>More.</p></div>`,
			"Story.\n\nMore."},
		{"a credit without a picture stays", `<div><p>Story.</p><p class="credit">Reporting by Jane Roe</p></div>`,
			"Story.\n\nReporting by Jane Roe"},
		{"a long text named a credit stays",
			`<div><figure><img src="a.jpg"><div class="credits">` + strings.Repeat("The film was shot over two summers in the hills above the town. ", 4) + `</div></figure></div>`,
			strings.TrimSpace(strings.Repeat("The film was shot over two summers in the hills above the town. ", 4))},
	})
}

func TestHeadlineBlock(t *testing.T) {
	prune := func(root *html.Node) {
		blocks := leafBlocks(root)
		if i := headlineBlock(blocks, "Ferry returns to the port | Harbour News", "Ferry returns to the port"); i >= 0 {
			blocks[i].node.Parent.RemoveChild(blocks[i].node)
		}
	}
	testPrune(t, prune, []pruneCase{
		{"the headline goes", `<div><h1>Ferry returns to the port</h1><p>Story.</p></div>`, "Story."},
		{"after a kicker", `<div><p>Harbour</p><h2>Ferry returns to the port!</h2><p>Story.</p></div>`, "Harbour\n\nStory."},
		{"a part of the title of three words", `<div><h1>Ferry returns to</h1><p>Story.</p></div>`, "Story."},
		{"two words stay", `<div><h1>The port</h1><p>Story.</p></div>`, "The port\n\nStory."},
		{"parts of words stay", `<div><h1>erry returns t</h1><p>Story.</p></div>`, "erry returns t\n\nStory."},
		{"after a longer first block it stays", `<div><p>The council met on Monday.</p><h2>Ferry returns to the port</h2><p>Story.</p></div>`,
			"The council met on Monday.\n\nFerry returns to the port\n\nStory."},
		{"a sentence that holds the title stays", `<div><p>Ferry returns to the port, the council said on Monday.</p></div>`,
			"Ferry returns to the port, the council said on Monday."},
	})
	if i := headlineBlock(leafBlocks(parse(t, `<div><h1>Ferry returns</h1><p>Story.</p></div>`)), "", "Ferry returns"); i != -1 {
		t.Errorf("a title of two words: block %d taken for the headline", i)
	}
}

func TestDateLike(t *testing.T) {
	for _, s := range []string{"3. Mai 2024, 17:47", "28.04.2023 | 17:52 Uhr", "17:41 JST, October 13, 2024", "April 28, 2023",
		"Freitag, 28.04.2023, 19:25", "02/02/2025 KL. 09:00", "2026-01-08 | 12:42", "16 September 2024 9:33pm",
		"15.04.2026 - 15:48 Uhr Lesedauer: 2 Min.", "2024年10月13日 17時41分"} {
		if !dateLike(s) {
			t.Errorf("%q: not date-like", s)
		}
	}
	for _, s := range []string{"", "Monday", "The vote is on 5 May 2024.", "Lego 75361 / Spinnenpanzer: 52,99 Euro",
		"Ferry returns to the port in 2024", "1 2 3 4 5 6 7 8 9 10 11 2024"} {
		if dateLike(s) {
			t.Errorf("%q: date-like", s)
		}
	}
}

func TestPruneStoryHeader(t *testing.T) {
	prune := func(root *html.Node) { pruneStoryHeader(leafBlocks(root), "Jane Roe", "Ferry returns to the port") }
	lead := "The ferry came back to the port on Monday after three weeks of repairs, the harbour master said."
	testPrune(t, prune, []pruneCase{
		{"headline and date line go", `<div><h1>Ferry returns to the port</h1><p>3. Mai 2024, 17:47</p><p>` + lead + `</p></div>`, lead},
		{"after the standfirst too", `<div><p>` + lead + `</p><p>3. Mai 2024, 17:47</p><p>` + lead + `</p></div>`, lead + "\n\n" + lead},
		{"a date line after two paragraphs stays", `<div><p>` + lead + `</p><p>` + lead + `</p><p>3. Mai 2024, 17:47</p></div>`,
			lead + "\n\n" + lead + "\n\n3. Mai 2024, 17:47"},
		{"a kicker stays", `<div><p>Harbour</p><p>` + lead + `</p></div>`, "Harbour\n\n" + lead},
		{"without a paragraph of a story all stays", `<div><h1>Ferry returns to the port</h1><p>3. Mai 2024, 17:47</p><p>2021 Petr Fiala 69</p></div>`,
			"Ferry returns to the port\n\n3. Mai 2024, 17:47\n\n2021 Petr Fiala 69"},
		{"the byline goes", `<div><p>Kolumne von Jane Roe</p><p>` + lead + `</p><p>` + lead + `</p><p>Jane Roe</p></div>`, lead + "\n\n" + lead + "\n\nJane Roe"},
		{"a line about the author stays", `<div><p>Jane Roe has covered the harbour for the paper since the ferry strike began.</p><p>` + lead + `</p></div>`,
			"Jane Roe has covered the harbour for the paper since the ferry strike began.\n\n" + lead},
	})
}

func TestPruneAuthorBio(t *testing.T) {
	prune := func(author string) func(*html.Node) {
		return func(root *html.Node) { pruneAuthorBio(leafBlocks(root), author) }
	}
	lead := "The ferry came back to the port on Monday after three weeks of repairs, the harbour master said."
	bio := "Jane Roe is a reporter who covers the harbour and its ferries."
	for _, tc := range []struct {
		name, author, html, want string
	}{
		{"the bio at the end goes", "Jane Roe", `<div><p>` + lead + `</p><p>` + bio + `</p></div>`, lead},
		{"in German", "Jane Roe", `<div><p>` + lead + `</p><p>Jane Roe schreibt seit 2019 über die Fähren.</p></div>`, lead},
		{"a first name alone is no biography", "Jordan Smith", `<div><p>` + lead + `</p><p>Jordan is a close ally of the harbour's owners.</p></div>`,
			lead + "\n\nJordan is a close ally of the harbour's owners."},
		{"before a share bar's last lines", "Jane Roe", `<div><p>` + lead + `</p><p>` + bio + `</p><p>Share</p><p>Print</p></div>`, lead + "\n\nShare\n\nPrint"},
		{"far from the end it stays", "Jane Roe", `<div><p>` + bio + `</p><p>` + lead + `</p><p>` + lead + `</p><p>` + lead + `</p><p>` + lead + `</p></div>`,
			bio + "\n\n" + lead + "\n\n" + lead + "\n\n" + lead + "\n\n" + lead},
		{"a sentence that only names the author stays", "Jane Roe", `<div><p>` + lead + `</p><p>Jane Roe said the ferry is late.</p></div>`,
			lead + "\n\nJane Roe said the ferry is late."},
		{"another person's stays", "Jane Roe", `<div><p>` + lead + `</p><p>John Doe is the harbour master.</p></div>`, lead + "\n\nJohn Doe is the harbour master."},
		{"a name of one word is no person's", "Harbourside", `<div><p>` + lead + `</p><p>Harbourside is the port's own paper.</p></div>`,
			lead + "\n\nHarbourside is the port's own paper."},
		{"no author, nothing goes", "", `<div><p>` + lead + `</p><p>` + bio + `</p></div>`, lead + "\n\n" + bio},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, tc.html)
			prune(tc.author)(doc)
			if diff := cmp.Diff(tc.want, Text(doc)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestPruneHeadline(t *testing.T) {
	for _, tc := range []struct {
		name, html, want string
	}{
		{"a bold headline in a table cell", `<td><font size="4"><b>Ferry returns</b></font><br><br>Story.<br><br>More.</td>`, "Story.\n\nMore."},
		{"another bold first line stays", `<td><b>Breaking</b><br><br>Story.</td>`, "Breaking\n\nStory."},
		{"bold words inside the first sentence stay", `<p><b>Ferry returns</b> to the port, the council said.</p>`, "Ferry returns to the port, the council said."},
		{"text before the headline: it stays", `<p>Intro.</p><p><b>Ferry returns</b></p>`, "Intro.\n\nFerry returns"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, tc.html)
			pruneHeadline(doc, "Ferry Returns!")
			if diff := cmp.Diff(tc.want, Text(doc)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestTidy(t *testing.T) {
	in := "First paragraph.\n\nAdvertisement\n\nSecond paragraph.\nADVERTISEMENT\n\nStory continues below advertisement\n\n" +
		"Continue reading the main story\n\nCONTINUA DEPOIS DA PUBLICIDADE\n\nDalsza część artykułu pod reklamą\n\n" +
		"Advertisement - Continue Reading Below\n\nAnzeige – Weiterlesen nach der Anzeige\n\nAdvertisement: the ferry story continues below\n\n" +
		"An advertisement for the ferry ran all week.\n\nContinue reading the main story before the vote.\n\n" +
		"Published Aug 28, 2024 • Last updated 1 hour ago"
	want := "First paragraph.\n\nSecond paragraph.\n\nAdvertisement: the ferry story continues below\n\nAn advertisement for the ferry ran all week.\n\nContinue reading the main story before the vote."
	if got := tidy(in); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestIsReadingTime(t *testing.T) {
	for _, s := range []string{"5 min read", "4 Min Read", "Lesezeit: ca. 3 Minuten", "Lesezeit 2 Min.",
		"Reading time: 6 minutes", "Czas czytania: 4 min", "Время чтения: 3 минуты", "3–5 min read"} {
		if !isReadingTime(s) {
			t.Errorf("%q: not a reading time", s)
		}
	}
	for _, s := range []string{"", "5 min", "Lesezeit", "The read took 5 min", "It is a 5 min read for most",
		"Reading time matters to editors", "45 minutes from the city"} {
		if isReadingTime(s) {
			t.Errorf("%q: a reading time", s)
		}
	}
}

func TestIsStampLine(t *testing.T) {
	for _, s := range []string{"Published Aug 28, 2024 • Last updated 1 hour ago • 4 minute read",
		"Last updated 21 hours ago", "Aktualisiert am 28. April 2023, 20:22 Uhr", "Published August 13, 2025",
		"Updated on December 11, 2025", "Last Updated: September 26, 2024", "Updated Feb 11, 2026",
		"Published 6 days ago", "Updated on 09/10/2025", "Mis à jour le 3 mars 2024 à 10h15",
		"Publicerad 23 okt 2025 kl 10.23 Uppdaterad kl 12.17", "Publisert 5. august 2024 kl. 12:01",
		"Stand: 28.04.2023 16:11 Uhr", "Erstellt: 28.04.2023, 18:16 Uhr", "Publiziert heute um 12:19 Uhr", "Online seit heute, 7.57 Uhr",
		"Aktualisiert am 07.01.2026 - 18:50 Uhr Lesedauer: 4 Min."} {
		if !isStampLine(s) {
			t.Errorf("%q: not a stamp", s)
		}
	}
	for _, s := range []string{"", "Updated", "Veröffentlicht gestern", "Published by Penguin", "Updated guidance was published in 2024 by the council.",
		"Published in 2024, the report found that rents rose.",
		"Last updated: January 12, 2026. If you find this helpful and buy through my links, I may receive a small commission.",
		"Posted on November 11, 2012 by Jane Roe", "Stand der Dinge 2024", "Erstellt von Jane Roe am 3. Mai 2024"} {
		if isStampLine(s) {
			t.Errorf("%q: a stamp", s)
		}
	}
}

func TestIsRightsNotice(t *testing.T) {
	for _, s := range []string{"© 2024 The Daily Example. All rights reserved.", "Copyright © 2019 The Associated Press",
		"(c) 2021 Example Media", "All Rights Reserved", "Alle Rechte vorbehalten.", "Wszelkie prawa zastrzeżone",
		"Все права защищены © 2020",
		"Copyright 2012 The Associated Press. All rights reserved. This material may not be published, broadcast, rewritten or redistributed.",
		"This material may not be published, broadcast, rewritten or redistributed."} {
		if !isRightsNotice(s) {
			t.Errorf("%q: not a rights notice", s)
		}
	}
	for _, s := range []string{"", "Copyright 1954, softbound tutorial manual", "Copyright, Property, or Business matters",
		"Copyright law protects the author, the court said, but not the idea itself.",
		"(c) the minister shall publish the report within a month",
		"Reprinted with permission of the Example Press. Got Game by John Doe and Jane Roe. Copyright 2004 by John Doe and Jane Roe; All Rights Reserved."} {
		if isRightsNotice(s) {
			t.Errorf("%q: a rights notice", s)
		}
	}
}

func TestTidyRemovesRightsNotice(t *testing.T) {
	in := "The council approved the budget on Tuesday.\n\n© 2024 The Daily Example. All rights reserved."
	if got, want := tidy(in), "The council approved the budget on Tuesday."; got != want {
		t.Errorf("tidy = %q, want %q", got, want)
	}
}

func TestIsDateLine(t *testing.T) {
	for _, s := range []string{"2 November 2026", "November 2, 2026", "Updated 10:32 GMT", "2026-11-02",
		"Posted on July 12th, 2012", "updated 9:32 PM EST, Tue November 6, 2012", "Published: 02/11/2026 | 14:05",
		"Dienstag, 05.03.2024", "Dienstag, 5. März 2024 um 14:23 Uhr", "wtorek, 5 marca 2024 o godz. 14:23",
		"mardi 5 mars 2024 à 14h23", "5 марта 2024 г. в 14:23", "martes, 5 de marzo de 2024",
		// Labelled in the languages whose dates localDate reads.
		"Opublikowano: 5 marca 2024 r., 10:00", "Опубликовано: 5 марта 2024", "Gepubliceerd op 5 maart 2024",
		"Mis à jour le 5 mars 2024 à 14h23", "Stand: 05.03.2024, 14:23 Uhr", "Actualizado el 5 de marzo de 2024",
		"Pubblicato il 5 marzo 2024 ore 10:00", "Atualizado em 5 de março de 2024 às 10:00"} {
		if !isDateLine(s) {
			t.Errorf("%q: not a date line", s)
		}
	}
	for _, s := range []string{"", "May the best team win", "Page 2 of 3", "1 dead, 4 injured", "2026",
		"The ferry sailed on 2 November 2026 after a long delay caused by the storm over the bay",
		"Dienstag 5", "de 2024 el", "Am Dienstag kamen 5 Fähren an", "Opublikowano 5 zdjęć", "Stand 5"} {
		if isDateLine(s) {
			t.Errorf("%q: a date line", s)
		}
	}
}

func TestDisclosedPanelsStay(t *testing.T) {
	// An accordion's answers are hidden until a reader opens them; they are
	// the article's text. A tab a script fills when opened ("Loading…"),
	// a hidden element no control names, and a disclosed panel that is
	// boilerplate for another reason (a cookie notice) stay out.
	answer := "Installers inspect the roof, check the wiring and order the panels, which usually takes two to three weeks after the contract is signed."
	page := articleWith(`<div class="accordion"><h3><a role="button" aria-controls="faq-1">How long does it take?</a></h3>` +
		`<div id="faq-1" role="region" style="display: none"><p>` + answer + `</p></div>` +
		`<button aria-expanded="false" aria-controls="tab-prices">Prices</button><div id="tab-prices" hidden><p>Loading prices for your region…</p></div>` +
		`<div id="mobile-copy" style="display:none"><p>A copy of the menu for small screens, with more than a hundred characters of text in it, never shown here.</p></div>` +
		`<a aria-controls="cookie-more">Details</a><div id="cookie-more" class="cookie-consent" hidden><p>We and our partners store cookies on your device to measure audiences and show you advertising that suits you.</p></div></div>`)
	a, skip := extractPage(t, page, Options{MinChars: -1})
	if skip != "" {
		t.Fatalf("skipped: %s", skip)
	}
	if !strings.Contains(a.Text, answer) {
		t.Errorf("the accordion's answer was lost:\n%s", a.Text)
	}
	for _, gone := range []string{"Loading prices", "A copy of the menu", "We and our partners store cookies"} {
		if strings.Contains(a.Text, gone) {
			t.Errorf("%q stayed:\n%s", gone, a.Text)
		}
	}
}

func TestFold(t *testing.T) {
	for _, s := range []string{"", "  ", "Ferry returns!", "İSTANBUL'da 11 bin — şarj", "STRASSE, Straße: 1.5%", "«ÉTÉ» d'Anvers…", "a\u0301b", "\xff\xfebad", "日本語の記事、です。"} {
		if got, want := fold(s), strings.Join(wordsOf(s), " "); got != want {
			t.Errorf("fold(%q) = %q, want %q", s, got, want)
		}
	}
}

// pruneCase is a page, and its text once a pruning step has run on it.
type pruneCase struct{ name, html, want string }

// testPrune runs prune on each case's page and compares the text.
func testPrune(t *testing.T, prune func(*html.Node), cases []pruneCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, tc.html)
			prune(doc)
			if diff := cmp.Diff(tc.want, Text(doc)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
