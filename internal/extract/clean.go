package extract

import (
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// neverText are elements whose content is never article text: code,
// embedded objects, what a <video> or <audio> holds for a browser that
// plays neither ("To view this video please enable JavaScript…"), form
// controls, and ruby annotations (<rt>, <rp>: the
// reading of a word printed above it, which would double every annotated
// word of a Japanese or Chinese text). They are removed from the page before
// extraction (measured on the gold sets: this helps the engine slightly) and
// Text skips them.
var neverText = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Iframe: true, atom.Object: true, atom.Embed: true, atom.Svg: true,
	atom.Math: true, atom.Canvas: true, atom.Select: true, atom.Textarea: true,
	atom.Button: true, atom.Rt: true, atom.Rp: true, atom.Video: true, atom.Audio: true,
}

// widgetRoles are the ARIA roles of controls: an element announced as one is
// a control like <button> or <select> (a video player's buttons and
// sliders), never text. A link keeps its text whatever its role.
var widgetRoles = map[string]bool{
	"button": true, "checkbox": true, "combobox": true, "listbox": true, "menuitem": true,
	"menuitemcheckbox": true, "menuitemradio": true, "progressbar": true, "radio": true,
	"scrollbar": true, "searchbox": true, "slider": true, "spinbutton": true, "switch": true,
	"textbox": true,
}

// isWidget reports whether n is a control by its ARIA role.
func isWidget(n *html.Node) bool {
	return n.DataAtom != atom.A && widgetRoles[strings.ToLower(strings.TrimSpace(attr(n, "role")))]
}

// keepScript reports whether a script element carries metadata the library
// reads (JSON-LD) rather than code; it stays in the tree for the metadata
// step and is still never rendered as text.
func keepScript(n *html.Node) bool {
	if n.DataAtom != atom.Script {
		return false
	}
	return strings.EqualFold(strings.TrimSpace(attr(n, "type")), "application/ld+json")
}

// attr returns the value of n's attribute key, or "".
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key && a.Namespace == "" {
			return a.Val
		}
	}
	return ""
}

// hasAttr reports whether n carries attribute key.
func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key && a.Namespace == "" {
			return true
		}
	}
	return false
}

// Hidden reports whether an element is hidden by its own markup: the hidden
// attribute, an inline style setting display:none or visibility:hidden (or
// collapse), in any case and with any spacing or !important, or a class
// that hides it (hiddenByClass).
func Hidden(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	if hasAttr(n, "hidden") || hiddenByClass(n) {
		return true
	}
	style := attr(n, "style")
	if style == "" {
		return false
	}
	for decl := range strings.SplitSeq(style, ";") {
		prop, val, ok := strings.Cut(decl, ":")
		if !ok {
			continue
		}
		prop = strings.ToLower(strings.TrimSpace(prop))
		val = strings.ToLower(strings.Join(strings.Fields(val), ""))
		val = strings.TrimSuffix(val, "!important")
		switch {
		case prop == "display" && val == "none":
			return true
		case prop == "visibility" && (val == "hidden" || val == "collapse"):
			return true
		}
	}
	return false
}

// hidingClasses are the classes that CSS frameworks and sites use to hide
// an element (display:none: "hidden", Bootstrap's "d-none"), true, or to
// show it to screen readers only ("sr-only", "visually-hidden"), false: a
// paywall's pitch kept for a script to show, "Article content" and "Skip to
// content" labels.
var hidingClasses = map[string]bool{"hidden": true, "d-none": true, "is-hidden": true,
	"sr-only": false, "visually-hidden": false, "visuallyhidden": false, "screen-reader-text": false,
	"screen-reader-only": false, "element-invisible": false, "u-visually-hidden": false}

// maxClassHidden is the most text (bytes, without spaces) an element hidden
// by a class holds: a page whose whole content a script reveals hides its
// wrapper by a class too.
const maxClassHidden = 3000

// hiddenByClass reports whether n's classes hide it (hidingClasses, whole
// and in any case) and no class shows it again at some screen size
// (Tailwind's "hidden md:block", Bootstrap's "d-none d-lg-flex" are shown on
// a desktop). A screen reader's text inside a link is the link's name and
// stays: without it a list of links reads as prose (a card's link may show
// nothing itself). An element holding more than maxClassHidden of text is
// not hidden by its class.
func hiddenByClass(n *html.Node) bool {
	class := attr(n, "class")
	if class == "" || !mayHide(class) {
		return false
	}
	hidden, reader := false, false
	for c := range strings.FieldsSeq(class) {
		c = strings.ToLower(c)
		display, ok := hidingClasses[c]
		switch {
		case ok:
			hidden = true
			reader = reader || !display
		case strings.Contains(c, ":") || strings.HasPrefix(c, "d-") || strings.HasPrefix(c, "visible-"):
			return false
		}
	}
	if !hidden || reader && inLink(n) {
		return false
	}
	return textBytes(n, maxClassHidden) <= maxClassHidden
}

// inLink reports whether n is inside a link.
func inLink(n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && p.DataAtom == atom.A {
			return true
		}
	}
	return false
}

// mayHide is hiddenByClass's cheap first look: whether the class names
// "hid", "none", "only", "invisible" or "reader" in some case.
func mayHide(class string) bool {
	for _, part := range [...]string{"id", "ID", "one", "ONE", "nly", "NLY", "isible", "ISIBLE", "eader", "EADER"} {
		if strings.Contains(class, part) {
			return true
		}
	}
	return false
}

// dropFunc decides whether an element and its subtree leave the page.
type dropFunc func(*html.Node) bool

// clean removes from the tree under root every element that is never text
// (JSON-LD scripts excepted) or a control by its role, every hidden element
// below <body> but the panels of a disclosure (isDisclosed), every comment,
// and every element drop selects. The html, head and body elements
// themselves are never removed: pages that hide <body> until a script runs
// still have their article. It returns the text of the inline scripts it
// removed that are long enough to hold an article, and every push of a
// stream of Next.js's server components (a row's head may be a push of
// its own): a page its scripts render may hold its article there alone
// (scriptedBodies).
func clean(root *html.Node, drop dropFunc) []string {
	c := cleaner{drop: drop}
	c.clean(root)
	return c.scripts
}

// dataScript reports whether a script element is code or data a page's
// scripts read (no type, a JavaScript type, a module, JSON), not a
// template or some other text kept in a script.
func dataScript(n *html.Node) bool {
	t := strings.ToLower(strings.TrimSpace(attr(n, "type")))
	return t == "" || t == "module" || strings.Contains(t, "javascript") || strings.Contains(t, "ecmascript") || strings.Contains(t, "json")
}

// cleaner is clean's walk: the drop selector, the ids of the elements a
// control met so far discloses, and the long scripts removed.
type cleaner struct {
	drop      dropFunc
	disclosed map[string]bool
	scripts   []string
}

// clean removes what clean (the function) removes from under root, noting
// the controls it meets on the way.
func (cl *cleaner) clean(root *html.Node) {
	var next *html.Node
	for c := root.FirstChild; c != nil; c = next {
		next = c.NextSibling
		if c.Type == html.ElementNode {
			cl.noteControls(c)
		}
		if cl.isDisclosed(c) {
			show(c) // then removed only for what else it is
		}
		if c.Type == html.ElementNode && c.DataAtom == atom.P && hasAttr(c, "aria-hidden") {
			unhide(c)
		}
		if removable(c, cl.drop) {
			if c.DataAtom == atom.Script && c.FirstChild != nil && dataScript(c) &&
				(len(c.FirstChild.Data) >= minScriptedBytes || strings.Contains(c.FirstChild.Data, nextPush)) {
				cl.scripts = append(cl.scripts, c.FirstChild.Data)
			}
			root.RemoveChild(c)
			continue
		}
		cl.clean(c)
	}
}

// noteControls remembers the elements n discloses: n is a control that
// names them (aria-controls), such as an accordion's heading, a tab or a
// "show more" button.
func (cl *cleaner) noteControls(n *html.Node) {
	ids := attr(n, "aria-controls")
	if ids == "" {
		return
	}
	if cl.disclosed == nil {
		cl.disclosed = map[string]bool{}
	}
	for id := range strings.FieldsSeq(ids) {
		cl.disclosed[id] = true
	}
}

// isDisclosed reports whether n is the panel of a disclosure met before it
// (noteControls), hidden only until a reader opens it: an accordion's
// answer, a collapsed section of the article. Its content is the page's,
// unlike a hidden template or a copy of the text for another screen size.
func (cl *cleaner) isDisclosed(n *html.Node) bool {
	if cl.disclosed == nil || n.Type != html.ElementNode || neverText[n.DataAtom] {
		return false
	}
	id := attr(n, "id")
	return id != "" && cl.disclosed[id] && Hidden(n) && prose(n) >= minDisclosed
}

// minDisclosed is the least prose (runes, links and spaces left out) a
// disclosed panel must hold to be shown: tabs a script fills when opened
// hold a line such as "Loading prices for your region…" until then.
const minDisclosed = 100

// unhide removes aria-hidden from a paragraph: it hides the text from
// screen readers, not from the page's readers (a paywall marks the
// paragraphs it will cover so), and the engine, like Readability.js, skips
// what it marks.
func unhide(p *html.Node) {
	p.Attr = slices.DeleteFunc(p.Attr, func(a html.Attribute) bool { return a.Namespace == "" && a.Key == "aria-hidden" })
}

// show removes what hides n by its own markup (Hidden, and aria-hidden),
// so that the engine sees it as a reader who opened it does.
func show(n *html.Node) {
	n.Attr = slices.DeleteFunc(n.Attr, func(a html.Attribute) bool {
		return a.Namespace == "" && (a.Key == "hidden" || a.Key == "style" || a.Key == "aria-hidden")
	})
}

func removable(n *html.Node, drop dropFunc) bool {
	switch n.Type {
	case html.CommentNode:
		return true
	case html.ElementNode:
	default:
		return false
	}
	switch n.DataAtom {
	case atom.Html, atom.Head, atom.Body:
		return false
	}
	if neverText[n.DataAtom] {
		return !keepScript(n)
	}
	return Hidden(n) || isWidget(n) || n.DataAtom == atom.Form && signupForm(n) || consentNotice(n) || skipLink(n) || pitchBox(n) || (drop != nil && drop(n))
}

// skipLink reports whether n is a link that lets a keyboard skip to a part
// of the page ("Skip to content", "Zum Inhalt springen"): a link to an
// anchor of the page whose id or class names it a skip link.
func skipLink(n *html.Node) bool {
	if n.DataAtom != atom.A || !strings.HasPrefix(strings.TrimSpace(attr(n, "href")), "#") {
		return false
	}
	return containsFold(attr(n, "class"), "skip") || containsFold(attr(n, "id"), "skip")
}

// consentWords are the words of an id or class (split at "-" and "_") that
// name a cookie or privacy consent notice.
var consentWords = map[string]bool{"cookie": true, "cookies": true, "consent": true, "gdpr": true, "cookiebar": true,
	"cookiebanner": true, "cookienotice": true, "cookieconsent": true}

// maxConsentNotice is the most text (bytes, without spaces) of an element
// that consentNotice takes for a consent notice.
const maxConsentNotice = 1000

// consentNotice reports whether n is a cookie or privacy consent notice: its
// id or class names one and it holds little text. Such a notice is never
// the article, and on a page whose article is short the engine may take it
// for one.
func consentNotice(n *html.Node) bool {
	return namedBox(n, mayNameConsent, func(w string) bool { return consentWords[w] }, maxConsentNotice)
}

// namedBox reports whether one word of n's id or class (split at "-" and
// "_", lower-cased) is one that word accepts, and n holds at most max bytes
// of text. may is a cheap first look at the id and the class as written:
// when it fails on both, no word is read.
func namedBox(n *html.Node, may func(string) bool, word func(string) bool, max int) bool {
	id, class := attr(n, "id"), attr(n, "class")
	if id == "" && class == "" || !may(id) && !may(class) {
		return false
	}
	names := strings.ToLower(id + " " + class)
	for w, rest := nextName(names); w != "" || rest != ""; w, rest = nextName(rest) {
		if word(w) {
			return textBytes(n, max) <= max
		}
	}
	return false
}

// maxPitchBox is the most text (bytes, without spaces) of an element that
// pitchBox takes for a sign-up box or an appeal for donations.
const maxPitchBox = 600

// pitchBox reports whether n is a newsletter sign-up box or an appeal for
// donations: an id or class word "signup", or one that begins with
// "newsletter" or "donat" ("donation", "donate-box"), and little text.
// A sign-up form is often drawn by a script, so signupForm does not see
// it; neither its pitch ("The Briefing is a weekly newsletter for…") nor
// an appeal ("We are proud to provide our readers with independent news
// for free… support us") is ever the article.
func pitchBox(n *html.Node) bool {
	return namedBox(n, mayNamePitch, func(w string) bool {
		return w == "signup" || strings.HasPrefix(w, "newsletter") || strings.HasPrefix(w, "donat")
	}, maxPitchBox)
}

// mayNamePitch is pitchBox's cheap first look at a name: whether it holds
// "signup", "newsletter" or "donat" in lower case, capitalised, in camel
// case or in capitals.
func mayNamePitch(s string) bool {
	for _, part := range [...]string{"ignup", "ignUp", "IGNUP", "ewsletter", "ewsLetter", "EWSLETTER", "onat", "ONAT"} {
		if strings.Contains(s, part) {
			return true
		}
	}
	return false
}

// mayNameConsent is consentNotice's cheap first look at a name: whether it
// holds "cookie", "consent" or "gdpr" in lower case, capitalised or in
// capitals.
func mayNameConsent(s string) bool {
	for _, part := range [...]string{"ookie", "OOKIE", "onsent", "ONSENT", "dpr", "DPR"} {
		if strings.Contains(s, part) {
			return true
		}
	}
	return false
}

// textBytes counts the bytes of text under n, without white space, up to a
// little past limit.
func textBytes(n *html.Node, limit int) int {
	k := 0
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil && k <= limit; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				k += nonSpace(c.Data)
			case html.ElementNode:
				walk(c)
			}
		}
	}
	walk(n)
	return k
}

// maxSignupForm is the most text (runes, without spaces) of a form that
// signupForm takes for a sign-up or log-in form; a page wrapped whole in a
// <form> (as some frameworks do) holds more.
const maxSignupForm = 1000

// asksEmail reports whether an <input> asks for an e-mail address or a
// password: by its type, or, a text field, by its name, id or autocomplete
// ("email", "user_email", "EMAIL").
func asksEmail(input *html.Node) bool {
	switch strings.ToLower(strings.TrimSpace(attr(input, "type"))) {
	case "email", "password":
		return true
	case "", "text":
		for _, key := range [...]string{"name", "id", "autocomplete"} {
			if containsFold(attr(input, key), "mail") {
				return true
			}
		}
	}
	return false
}

// signupForm reports whether a form asks for an e-mail address or a
// password (a newsletter sign-up, a log-in, a comment or contact form) and
// holds little text: its labels and consent notices are never the article.
func signupForm(form *html.Node) bool {
	asks := false
	text := 0
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil && text <= maxSignupForm; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				text += len(strings.Join(strings.Fields(c.Data), ""))
			case c.Type != html.ElementNode:
			case c.DataAtom == atom.Input:
				asks = asks || asksEmail(c)
			default:
				walk(c)
			}
		}
	}
	walk(form)
	return asks && text <= maxSignupForm
}
