// Package extract owns turning a web page into an article: title, main
// text, date, author and language.
//
// The main-text detection is an Engine's, by default readeck's
// go-readability v2 (Readeck; the other engines it was measured against
// live in the lab module, not here); this package wraps it with what the
// pipeline needs and the library misses:
//
//   - the page's bytes are decoded to UTF-8 (byte-order mark, HTTP header,
//     <meta> charset; gzip-compressed bodies are inflated);
//   - script, style, noscript, template and elements hidden by inline style
//     (display:none, visibility:hidden, any spacing or case) or by the
//     hidden attribute are removed before the library sees the page;
//   - reader-comment sections, consent notices, newsletter boxes, appeals
//     for donations and the consent placeholders of embedded content
//     (consent.go) are removed before the library runs;
//   - when the page names its article's container (<article>, <main>,
//     itemprop="articleBody", a class such as entry-content) and it holds
//     twice the prose of the library's choice but not its longest block,
//     the library chose another part of the page and the container is
//     taken instead (container.go);
//   - the text is rendered from the library's content tree so that every
//     block boundary is a paragraph break and two paragraphs never run
//     into one word;
//   - what the library leaves in the article that is not its text is taken
//     out: menus, share bars and lists of short links (and the navigation
//     cell of a page laid out in a table), a dateline standing alone in a
//     <time> element, a headline repeated in bold type at the start of the
//     content, an author's biography, and advertisement labels, reading
//     times and publication stamps ("Published … • Last updated …")
//     between paragraphs;
//   - a block classifier (BlockModel, its weights in blockmodel.go written
//     by the lab's extract-train command) removes the leaf blocks of the
//     content it scores as boilerplate: share lines, newsletter boxes,
//     photo credits, tag lines; a labelled link to another story ("Read
//     more: …"), a call to sign up for a newsletter, a figure's caption
//     (<figcaption>, or a short block named a caption beside a picture)
//     and navigation inside the article (<nav>) go whatever their score;
//   - after the classifier, on what it kept: a live blog's entry lines,
//     skip links, pictures' credits, the posts of social networks the page
//     embeds, and the lists of links and the labels the text ends with;
//     on a page that declares
//     itself a story in its JSON-LD, the headline and, in the story's
//     header, its date lines and byline (fields of their own);
//   - site rules (package rules) choose the body by CSS selector, drop
//     parts by selector or attribute pattern, strip boilerplate lines and
//     say which URLs are articles;
//   - every page that yields no article gets a typed skip reason, and every
//     page runs under a size, element-count and time limit.
//
// Page is the entry point for one page; the neardup extract command and the
// corpus reader both call it.
package extract
