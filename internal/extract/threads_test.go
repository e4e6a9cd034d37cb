package extract

import (
	"fmt"
	"strings"
	"testing"
)

// threadArticle is the 4-paragraph story the thread pages comment on.
var threadArticle = []string{
	"The ferry between Northport and Eastisle will return to service on March 12, the harbour authority said on Tuesday, ending a three-month suspension caused by storm damage.",
	"Engineers at the Southyard dock replaced twelve steel plates and rebuilt the propeller shaft, work that cost 2.4 million euros, according to the authority.",
	"During the suspension residents of Eastisle relied on a smaller chartered boat that carried at most forty passengers and no vehicles, forcing shops to ration deliveries.",
	"The local council said it would review the contract with the operator in June, after complaints that the company had no spare vessel to cover repairs.",
}

// threadReply is reader i's comment: a short text of about 40 words.
func threadReply(i int) string {
	return fmt.Sprintf("Reply %d. I have lived on the island for thirty years and I have never seen the council handle anything this badly, "+
		"the whole thing is a disgrace and somebody should resign over it before the summer, reader %d says again.", i, i)
}

// threadPage is a story followed by n readers' comments in markup the
// extractor knows by no name: open, close and reply wrap the thread and
// each comment, header is each comment's line of a name and a date (empty
// for none).
func threadPage(n int, open, close, reply, header string) string {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="en"><head><title>Ferry returns to Eastisle</title></head><body><main><article><h1>Ferry returns to Eastisle</h1>`)
	for _, p := range threadArticle {
		fmt.Fprintf(&b, "<p>%s</p>", p)
	}
	b.WriteString("</article>" + open)
	for i := range n {
		b.WriteString(reply)
		if header != "" {
			fmt.Fprintf(&b, header, i, i%28+1)
		}
		fmt.Fprintf(&b, "<p>%s</p></div>", threadReply(i))
	}
	b.WriteString(close + `</main></body></html>`)
	return b.String()
}

// Regression: a thread of 25 readers' comments under a class the
// extractor does not know ("discussion", "talk", "user-reviews", or none)
// outscored the 4-paragraph article above it, and the text was the
// comments alone.
func TestPageCommentThreadReplacedArticle(t *testing.T) {
	for name, page := range map[string]string{
		"discussion":   threadPage(25, `<div class="discussion">`, `</div>`, `<div class="post">`, ""),
		"talk":         threadPage(25, `<div id="talk">`, `</div>`, `<div class="msg">`, ""),
		"user-reviews": threadPage(25, `<div class="user-reviews">`, `</div>`, `<div class="review">`, ""),
		"responses":    threadPage(25, `<section class="reader-responses"><h3>Responses</h3>`, `</section>`, `<div class="response">`, ""),
		"no marking":   threadPage(25, `<div><h3>What readers say</h3>`, `</div>`, `<div>`, ""),
	} {
		t.Run(name, func(t *testing.T) {
			a, _ := extractPage(t, page, Options{MinChars: -1})
			for i, p := range threadArticle {
				if !strings.Contains(a.Text, p) {
					t.Errorf("article paragraph %d missing:\n%s", i, a.Text)
				}
			}
			if strings.Contains(a.Text, "Reply 3.") {
				t.Errorf("the thread taken for the article:\n%s", a.Text)
			}
		})
	}
}

// An article whose paragraphs each sit in a <div> of their own after its
// heading is no thread: no article's worth of prose stands between the
// heading and them.
func TestPageParagraphsInDivsAreNoThread(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="en"><head><title>How the harbour works</title></head><body><header><h1>How the harbour works</h1></header><div class="body">`)
	for i := range 12 {
		fmt.Fprintf(&b, `<div class="para"><p>%s</p></div>`, paragraph(i))
	}
	b.WriteString(`</div><footer><p>Privacy policy and terms of use.</p></footer></body></html>`)
	a, _ := extractPage(t, b.String(), Options{MinChars: -1})
	for i := range 12 {
		if !strings.Contains(a.Text, paragraph(i)) {
			t.Errorf("paragraph %d missing:\n%s", i, a.Text)
		}
	}
}
