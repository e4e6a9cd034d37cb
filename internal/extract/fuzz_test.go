package extract

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// FuzzPage runs whole pages through decoding, cleaning, the engine and the
// text rendering. Page recovers panics into errors; here they fail.
func FuzzPage(f *testing.F) {
	// Small seeds, so that minimising an input found interesting is quick.
	f.Add([]byte("<html><title>T</title><body><article><h1>T</h1><p>One sentence of text.</p><p>Two.</p></article><footer>f</footer>"), "text/html; charset=utf-8")
	f.Add([]byte("<p>a</p><p style='display : none'>b</p><p hidden>c</p><script>d</script>"), "")
	f.Add([]byte("\xff\xfe<\x00p\x00>\x00x\x00"), "")
	f.Add([]byte("<meta charset=koi8-r><p>\xf0\xd2\xc9\xd7\xc5\xd4</p>"), "")
	f.Add([]byte("<table><tr><td><pre>a\n b</pre><br><li>x"), "text/html; charset=bogus")
	f.Add([]byte("\x1f\x8b\x08\x00"), "")
	f.Add([]byte("<a aria-controls='p q'>x</a><div id=p hidden><p>panel</p></div><div class=caption><img><p>cap</p></div><p>isnâ€™t cafÃ© Ã©</p>"), "")
	f.Add([]byte("<article><h1>T</h1><p>Published Aug 28, 2024 • Last updated 1 hour ago</p><div class=x><p>external content, privacy and consent</p><input type=checkbox id=c><label for=c>Show</label></div><figcaption>a <div>Image:</div>b</figcaption><p>Sign up for our <a href=/n>newsletter</a></p><div class=author-bio><p>Jane is a writer.</p></div><span>20:42</span><span>KEY</span></article>"), "")
	f.Add([]byte("<title>A story</title><a class=skip href=#m>Skip</a><article><h1>A story</h1><p aria-hidden=true>p</p><div class='hidden md:block sr-only'>h</div><video><p>v</p></video></article><article><h1>B</h1><p>n</p></article>"), "")
	f.Add([]byte(`<html><head><script type="application/ld+json">{"@graph":[{"@type":["ReportageNewsArticle"],"articleBody":"<p>One &amp; two.</p>"}]}</script></head><body><article><h1>T</h1><p>One &amp; two.</p><p><b>Sub</b></p><p>Where: here</p><p>Photo REUTERS</p><a href="#top">Back to top</a></article></body></html>`), "")
	f.Add([]byte("<html><head><meta charset=utf-8></head><body><nav><h1>Ferry</h1></nav><div class=lead>A summary of the story that the page describes itself with.</div><section><p>One.</p></section><section><div><h3>Sub</h3></div></section><section><p>Two.</p></section><p>Three.</p><ul><li>a</li></ul><p>Four.</p><figure><img src=a><span class=credit>X/Getty</span></figure><div><time>21:00</time> Jane Roe</div><a href=#x>skip past promo</a><p>Publicerad 23 okt 2025 kl 10.23</p><title>Ferry</title><meta name=description content='A summary of the story that the page describes itself with. | Site'></body></html>"), "")
	f.Add([]byte("<p>a</p>"+strings.Repeat("<div><b>", 600)+"<p>b<template shadowrootmode=open><p>c</p><slot name=x>d</slot></template><i slot=x>e</i>"), "")
	f.Add([]byte("\xff\xfe\x00\x00<\x00\x00\x00p\x00\x00\x00>\x00\x00\x00"), "")
	f.Add([]byte("<meta charset=iso-2022-jp><p>\x1b$B$3$s\x1b(B</p>"), "")
	f.Add([]byte(`<title>A b</title><div>Loading</div><script>self.__next_f.push([1,"5:[\"$\",{\"__html\":\"\\u003cp\\u003eA b c.\\u003cp\\u003e$$AD$$ b\\u003cp\\u003e{{x}}\"}]"])</script><script>x="`+strings.Repeat("<p>a b", 90)+`"</script>`), "")
	f.Add([]byte(`<title>A story</title><link rel=canonical href="https://x.example/a"><article><h1>A story</h1><p>One.</p></article><div><div class=c><h3><a href="/b">Another story of length</a></h3><p>e</p></div><div class=c><h3><a href="https://www.x.example/c">A third story of length</a></h3></div><div class=c><h3><a href="/a#x">The story's own anchor</a></h3></div></div>`), "")
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		// The work per input is bounded (size, elements, time), so that no
		// input stalls the fuzzer, nor its minimising.
		if len(body) > 8<<10 {
			return
		}
		a, _, err := Page(context.Background(), Input{URL: "https://x.example/a", ContentType: contentType, Body: body},
			Options{MinChars: -1, MaxElements: 4000, Timeout: 2 * time.Second})
		if err != nil && strings.Contains(err.Error(), "panic") {
			t.Fatal(err)
		}
		for name, s := range map[string]string{"text": a.Text, "title": a.Title, "author": a.Author} {
			if !utf8.ValidString(s) {
				t.Fatalf("%s is not UTF-8: %q", name, s)
			}
		}
		if strings.TrimSpace(a.Text) != a.Text || strings.Contains(a.Text, "\n\n\n") {
			t.Fatalf("text not normalised: %q", a.Text)
		}
	})
}

// FuzzFlattenNesting checks that flattening never writes more than it
// reads, and that a page flattened at the depth Page uses parses.
func FuzzFlattenNesting(f *testing.F) {
	f.Add([]byte("<div><div><div id=x><p>a</p><p>b<p>c</div></div></div>"), 2)
	f.Add([]byte("<table><tr><td><table><tr><td>x</table><b><i><p>y<script>if (a<b) x()</script></div>"), 1)
	f.Add([]byte(strings.Repeat("<div><b><p>", 400)+"x"), maxNesting)
	f.Fuzz(func(t *testing.T, b []byte, max int) {
		if len(b) > 64<<10 || max < 0 || max > 1024 {
			return
		}
		if out := flattenNesting(b, max); len(out) > len(b) {
			t.Fatalf("flattened %d bytes into %d", len(b), len(out))
		}
		if _, err := html.Parse(bytes.NewReader(flattenNesting(b, maxNesting))); err != nil {
			t.Fatalf("flattened page does not parse: %v", err)
		}
	})
}

// FuzzParseDate: a date read is of a plausible year and has a day (not a
// clock alone, nor a month without a day), one its text shows in its
// figures, its month is one its text shows, and a zone SplitZone splits
// off follows the date it returns, at an offset of 14 hours at most.
func FuzzParseDate(f *testing.F) {
	for _, s := range []string{
		"2024-03-05 10:30 MSK+1", "Tue, 05 Mar 2024 10:30:00 GMT+3", "March 5, 2024 10:30 PM -5", "10:30 EST+1",
		"01:02:03", "Tuesday 2024", "05-Mar-24 10:30 UTC−05:00", "5 марта 2024, 10:30 (MSK+1)", "20240105",
		"2024-03", "2024/03", "03/2024", "Mar. 2024", "2024-01 10:30", "1709634600",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if rest, loc, err := SplitZone(s); err == nil {
			if !strings.HasPrefix(s, rest) {
				t.Fatalf("SplitZone(%q) = %q, not its start", s, rest)
			}
			if _, off := time.Date(2024, 3, 5, 0, 0, 0, 0, loc).Zone(); off < -14*3600 || off > 14*3600 {
				t.Fatalf("SplitZone(%q): offset %ds", s, off)
			}
		}
		d, ok := ParseDate(s)
		if !ok {
			return
		}
		if d.Year() < 1990 || d.Year() > time.Now().Year()+1 {
			t.Fatalf("ParseDate(%q) = %v: year out of range", s, d)
		}
		if dayless(strings.TrimSpace(s)) || !dayShown(s, d.Day()) {
			t.Fatalf("ParseDate(%q) = %v: no day in it", s, d)
		}
	})
}
