package extract

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mmcdole/gofeed"

	"github.com/neardup/neardup/core"
)

func TestPageDate(t *testing.T) {
	day := func(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }
	for _, tc := range []struct {
		name, html, url string
		want            time.Time
	}{
		{"meta property", `<meta property="article:published_time" content="2024-03-05T10:00:00Z">`, "", time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)},
		{"meta published-date", `<meta name="modified-date" content="2024-07-30"><meta name="published-date" content="2021-02-16">`, "", day(2021, 2, 16)},
		{"meta name any case", `<meta name="DC.date.issued" content="2012-07-24">`, "", day(2012, 7, 24)},
		{"published time before others", `<time datetime="2020-01-01">x</time><time pubdate datetime="2019-05-06">y</time>`, "", day(2019, 5, 6)},
		{"first time element", `<p><time datetime="2018-02-03">Feb 3</time></p>`, "", day(2018, 2, 3)},
		{"url date", `<p>x</p>`, "https://news.example/2012/07/24/story", day(2012, 7, 24)},
		{"url date with dashes", `<p>x</p>`, "https://news.example/story-2011-12-31.html", day(2011, 12, 31)},
		{"unparsable meta falls through", `<meta name="date" content="soon"><time datetime="2017-08-09">x</time>`, "", day(2017, 8, 9)},
		{"implausible year", `<meta name="date" content="1900-01-01">`, "", time.Time{}},
		{"nothing", `<p>2012-07-24 in text is not declared</p>`, "https://x.example/a", time.Time{}},
		{"\"on\", a weekday and \"@\" in a time's datetime", `<h1>T</h1><time datetime="on Friday December 19, 2025 @08:00PM">on Friday December 19, 2025 @08:00PM</time>`, "", time.Date(2025, 12, 19, 20, 0, 0, 0, time.UTC)},
		{"weekday and dash in a meta date", `<meta property="article:published_time" content="Thu, 09/25/2025 - 11:38">`, "", time.Date(2025, 9, 25, 11, 38, 0, 0, time.UTC)},
		{"json-ld graph", `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"X"},{"@type":"WebPage","datePublished":"2024-03-17T19:47:39+00:00"}]}</script>`, "", time.Date(2024, 3, 17, 19, 47, 39, 0, time.UTC)},
		{"json-ld outer object first", `<script type="application/ld+json">{"@type":"ClaimReview","itemReviewed":{"@type":"Claim","datePublished":"2026-05-07"},"datePublished":"2026-05-13"}</script>`, "", day(2026, 5, 13)},
		{"json-ld before time", `<script type="application/ld+json">[{"@type":"BlogPosting","datePublished":"2025-12-19"}]</script><time datetime="2020-01-01">x</time>`, "", day(2025, 12, 19)},
		{"itemprop text", `<span itemprop="datePublished">October 17, 2018</span>`, "", day(2018, 10, 17)},
		{"itemprop title", `<abbr class="published" itemprop="datePublished" title="2025-12-19T15:18:00Z">December 19</abbr>`, "", time.Date(2025, 12, 19, 15, 18, 0, 0, time.UTC)},
		{"time text", `<h1>T</h1><time>Dec 19, 2025</time>`, "", day(2025, 12, 19)},
		{"a year alone is no date", `<h1>T</h1><time>2019</time>`, "", time.Time{}},
		{"element named a date", `<div class="sno-story-date"><span>May 31, 2024</span></div>`, "", day(2024, 5, 31)},
		{"element named a date, labelled", `<p class="post-date">Published on July 8, 2025</p>`, "", day(2025, 7, 8)},
		{"an update is not named a date", `<p class="last-update">July 8, 2025</p>`, "", time.Time{}},
		// The clock after a date of another language is kept (it was
		// dropped: two stories of one day could not be ordered).
		{"day first with dots", `<h1>T</h1><time>03.04.2024, 14:23 Uhr</time>`, "", time.Date(2024, 4, 3, 14, 23, 0, 0, time.UTC)},
		{"a German month", `<div class="post-date">3. Mai 2024</div>`, "", day(2024, 5, 3)},
		{"a Spanish month", `<div class="post-date">3 de mayo de 2024</div>`, "", day(2024, 5, 3)},
		{"a Polish month", `<div class="post-date">12 grudnia 2011</div>`, "", day(2011, 12, 12)},
		{"a Russian month", `<div class="post-date">3 мая 2024 г.</div>`, "", day(2024, 5, 3)},
		{"year, month, day in characters", `<div class="post-date">2019年4月4日</div>`, "", day(2019, 4, 4)},
		{"and the hour and minute", `<span class="date">2019年04月13日 09時05分</span>`, "", time.Date(2019, 4, 13, 9, 5, 0, 0, time.UTC)},
		{"a Russian month and a clock", `<div class="post-date">3 мая 2024 в 14:05</div>`, "", time.Date(2024, 5, 3, 14, 5, 0, 0, time.UTC)},
		{"no such hour", `<h1>T</h1><time>03.04.2024, 25:10 Uhr</time>`, "", day(2024, 4, 3)},
		{"an English day first, with its ordinal", `<div class="post-date">27th April 2020</div>`, "", day(2020, 4, 27)},
		{"an ordinal, \"of\", a weekday and a clock", `<span class="date">Monday 1st of March, 2021 02:37:18 AM CDT</span>`, "", time.Date(2021, 3, 1, 7, 37, 18, 0, time.UTC)},
		// Regression: a zone's name was read as UTC ("01:00 EST" as 01:00Z).
		{"a zone's name", `<meta property="article:published_time" content="Tue, 03 Mar 2026 01:00:00 EST">`, "", time.Date(2026, 3, 3, 6, 0, 0, 0, time.UTC)},
		// Regression (reviewer's finding): the zone after AM or PM was
		// dropped ("10:00 AM EST" as 10:00Z), an offset there read as the
		// month, and "a.m." refused.
		{"a zone's name after AM", `<meta property="article:published_time" content="March 5, 2024 10:00 AM EST">`, "", time.Date(2024, 3, 5, 15, 0, 0, 0, time.UTC)},
		{"a zone's name after PM", `<h1>T</h1><p class="date">March 5, 2024 10:00 PM EDT</p>`, "", time.Date(2024, 3, 6, 2, 0, 0, 0, time.UTC)},
		{"an offset after a.m.", `<meta property="article:published_time" content="Tuesday, March 5, 2024 10:00 a.m. +01:00">`, "", time.Date(2024, 3, 5, 9, 0, 0, 0, time.UTC)},
		{"GMT and an offset after PM", `<meta property="article:published_time" content="Mar 5, 2024 10:00PM GMT+2">`, "", time.Date(2024, 3, 5, 20, 0, 0, 0, time.UTC)},
		// Regression: the names of zones a news site prints after a
		// clock other than RFC 5322's were read as UTC, or cut short
		// ("AEDT" as "AED"), or gave no date ("10:30 a.m. ET").
		{"IST after AM", `<meta property="article:published_time" content="March 5, 2024 10:00 AM IST">`, "", time.Date(2024, 3, 5, 4, 30, 0, 0, time.UTC)},
		{"AEDT", `<h1>T</h1><p class="date">Tue 5 Mar 2024 10:00 AEDT</p>`, "", time.Date(2024, 3, 4, 23, 0, 0, 0, time.UTC)},
		{"a zone in brackets", `<h1>T</h1><p class="date">March 5, 2024 22:15 (HKT)</p>`, "", time.Date(2024, 3, 5, 14, 15, 0, 0, time.UTC)},
		{"ET in winter", `<h1>T</h1><p class="date">March 5, 2024 10:30 a.m. ET</p>`, "", time.Date(2024, 3, 5, 15, 30, 0, 0, time.UTC)},
		{"ET in summer", `<h1>T</h1><p class="date">July 5, 2024 10:30 a.m. ET</p>`, "", time.Date(2024, 7, 5, 14, 30, 0, 0, time.UTC)},
		{"PT, RFC 1123", `<meta property="article:published_time" content="Fri, 05 Jul 2024 10:30:00 PT">`, "", time.Date(2024, 7, 5, 17, 30, 0, 0, time.UTC)},
		{"a German name after a dotted date", `<h1>T</h1><time>05.12.2024 10:30 MEZ</time>`, "", time.Date(2024, 12, 5, 9, 30, 0, 0, time.UTC)},
		{"fractional seconds and a zone", `<meta property="article:published_time" content="December 19, 2025 20:00:00.123 CEST">`, "", time.Date(2025, 12, 19, 18, 0, 0, 123e6, time.UTC)},
		{"Uhr and a zone", `<h1>T</h1><time>03.04.2024, 14:23 Uhr MESZ</time>`, "", time.Date(2024, 4, 3, 12, 23, 0, 0, time.UTC)},
		{"a clock summer time skips", `<h1>T</h1><p class="date">Mar 10, 2024 2:30 AM ET</p>`, "", time.Date(2024, 3, 10, 7, 30, 0, 0, time.UTC)},
		{"a clock summer time repeats: the first", `<h1>T</h1><p class="date">Nov 3, 2024 1:30 AM ET</p>`, "", time.Date(2024, 11, 3, 5, 30, 0, 0, time.UTC)},
		{"a name no zone table agrees on", `<meta property="article:published_time" content="March 5, 2024 10:00 AM AST">`, "", time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)},
		// Regression: a zone of the IANA database was dropped, the
		// date read without a zone.
		{"a zone of the IANA database", `<h1>T</h1><p class="date">March 5, 2024 10:00 America/New_York</p>`, "", time.Date(2024, 3, 5, 15, 0, 0, 0, time.UTC)},
		// As before: a page reads a date whose clock is followed by a
		// zone no reader reads, without the zone.
		{"a zone no reader reads", `<h1>T</h1><p class="date">March 5, 2024 10:20 Pacific Standard Time</p>`, "", time.Date(2024, 3, 5, 10, 20, 0, 0, core.NoZone)},
		// Regression (reviewer's finding): an English date day first
		// without an ordinal and with a clock gave no date.
		{"an English day first and a clock", `<h1>T</h1><p class="date">5 March 2024 10:00</p>`, "", time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)},
		{"and a zone's name", `<h1>T</h1><p class="date">5 March 2024, 10:00 CET</p>`, "", time.Date(2024, 3, 5, 9, 0, 0, 0, time.UTC)},
		{"and GMT", `<meta property="article:published_time" content="5 March 2024 10:00 GMT">`, "", time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)},
		{"and a 12-hour clock", `<h1>T</h1><p class="date">Tue 5 Mar 2024 at 9.30pm</p>`, "", time.Date(2024, 3, 5, 21, 30, 0, 0, time.UTC)},
		{"and no time of day", `<h1>T</h1><p class="date">5 March 2024 13:00 PM</p>`, "", day(2024, 3, 5)},
		{"no such ordinal day", `<div class="post-date">31st February 2024</div>`, "", time.Time{}},
		{"no such day", `<div class="post-date">31.02.2024</div>`, "", time.Time{}},
		{"day and month in either order", `<div class="blog-date">03/10/2023</div>`, "", time.Time{}},
		{"a date in navigation is another story's", `<nav data-neardup-region="nav"><div class="card-date">Mar 3, 2026</div></nav>`, "", time.Time{}},
		{"meta in navigation still counts", `<div data-neardup-region="nav"><meta itemprop="datePublished" content="2024-04-16"></div>`, "", day(2024, 4, 16)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, tc.html)
			got := pageDate(doc, nil, tc.url, readLinkedData(doc))
			if !got.Equal(tc.want) || tc.want.Location() == core.NoZone && got.Location() != core.NoZone {
				t.Errorf("pageDate = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestPageDateAroundHeading(t *testing.T) {
	day := func(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }
	for _, tc := range []struct {
		name, html string
		want       time.Time
	}{
		{"line after the heading", `<div><header><h1 id="h">Understanding proofs</h1><p class="muted">December 15, 2025</p></header><p>Body text.</p></div>`, day(2025, 12, 15)},
		{"line before the heading", `<div class="hero"><h5>January 23, 2025</h5><h1 id="h">Solar gains</h1></div>`, day(2025, 1, 23)},
		{"published before updated", `<header><p>Last updated: November 13, 2025</p><h1 id="h">Parks</h1><p>June 1, 2025</p></header>`, day(2025, 6, 1)},
		{"updated when there is no other", `<header><h1 id="h">Parks</h1><p>Last updated: November 13, 2025</p></header>`, day(2025, 11, 13)},
		{"date in the byline's box", `<div><h1 id="h">Apps</h1><div class="author-and-date" data-neardup-in="author90"><div>By</div><div>Summer Swann</div><div>June 12, 2025</div></div></div>`, day(2025, 6, 12)},
		{"not in another story's", `<div><h1 id="h">Apps</h1><div data-neardup-in="story1"><p>June 12, 2025</p></div></div>`, time.Time{}},
		{"a part of a byline line", `<header><h1 id="h">Healthcare</h1><p>Aaron Roe | Senior Writer | July 2, 2025</p></header>`, day(2025, 7, 2)},
		{"a line of its own under the name", `<div><h1 id="h">Defer</h1><p class="author">Andrew Roe<br>4 August 2010</p></div>`, day(2010, 8, 4)},
		{"published before updated in one line", `<div><h1 id="h">Gym</h1><p><span>August 16, 2019</span> - <span>Updated July 9, 2025</span></p></div>`, day(2019, 8, 16)},
		{"named in the post's sidebar, after the heading", `<h1 id="h">Tea</h1><div class="single-post-sidebar" data-neardup-region="nav"><div class="single-post-date">July 8, 2025</div></div>`, day(2025, 7, 8)},
		{"a menu's clock before the heading is today's", `<div class="main-menu" data-neardup-region="nav"><span class="date">28.11.2011</span></div><h1 id="h">News</h1>`, time.Time{}},
		{"a teaser's date in a list", `<h1 id="h">Tea</h1><ul data-neardup-region="nav"><li><span class="post-date">July 1, 2025</span></li></ul>`, time.Time{}},
		{"a named date outside navigation first", `<h1 id="h">Tea</h1><div data-neardup-region="nav"><span class="post-date">July 1, 2025</span></div><p class="post-date">July 8, 2025</p>`, day(2025, 7, 8)},
		// Regression: a line of two labelled dates without clocks left
		// the text (the tidy step's stamp) with no date read.
		{"a published and an updated date in one line", `<header><h1 id="h">Ferries</h1><div class="timestamp">Published March 5, 2024 Updated March 7, 2024</div></header>`, day(2024, 3, 5)},
		{"an updated and a published date in one line", `<header><h1 id="h">Ferries</h1><p>Last updated: 7 March 2024 Published: 5 March 2024</p></header>`, day(2024, 3, 5)},
		{"a date, then an updated date", `<header><h1 id="h">Ferries</h1><p>March 5, 2024 Updated March 7, 2024</p></header>`, day(2024, 3, 5)},
		{"a name's line, then the dates' line", `<header><h1 id="h">Books</h1><div><p>Interview by Jane Roe</p><p class="date">December 3, 2025. <i>Updated: December 7, 2025</i></p></div></header>`, day(2025, 12, 3)},
		{"two labelled dates in German", `<header><h1 id="h">Fähre</h1><p>Veröffentlicht am 05.03.2024 Aktualisiert am 07.03.2024</p></header>`, day(2024, 3, 5)},
		{"an updated date alone after a name", `<header><h1 id="h">Ferries</h1><p>Jane Roe Updated March 7, 2024</p></header>`, day(2024, 3, 7)},
		{"a date ended by a full stop, then an update", `<header><h1 id="h">Books</h1><p class="date">December 3, 2025. <i>Updated: December 7, 2025</i></p></header>`, day(2025, 12, 3)},
		{"a byline with the date after a comma", `<header><h1 id="h">Ferries</h1><p>By Jane Roe, 3 March 2026</p></header>`, day(2026, 3, 3)},
		{"a byline with an agency and the date month first", `<header><h1 id="h">Ferries</h1><p>By Jane Roe, Reuters, March 3, 2026</p></header>`, day(2026, 3, 3)},
		{"a name, a comma and the date", `<header><h1 id="h">Ferries</h1><p>Jane Roe, 5 March 2024</p></header>`, day(2024, 3, 5)},
		{"a sentence after a comma is not a byline's date", `<header><h1 id="h">Parks</h1><p>Parks reopened, June 1, 2025</p></header>`, time.Time{}},
		{"a sentence is not a date line", `<header><h1 id="h">Parks</h1><p>On June 1, 2025 the park opened.</p></header>`, time.Time{}},
		{"a clock before the date", `<header><h1 id="h">Ferries</h1><p>Updated 10:15 AM EST, March 5, 2024</p></header>`, time.Date(2024, 3, 5, 15, 15, 0, 0, time.UTC)},
		// Regression: a related story's date in a list by the headline
		// was the page's (DAnIEL's Chinese pages, a year before theirs).
		{"a teaser's date in a list item", `<div><h1 id="h">Ferries</h1><ul><li><a href="/11/0114/story.html">Heroes on stage</a> <span>2011/01/14</span></li></ul></div>`, time.Time{}},
		{"a source linked to its home and a date", `<div><h1 id="h">Ferries</h1><ul><li><a href="http://www.port.example">Port News</a> <span>2012-01-17 16:56</span></li></ul></div>`, time.Date(2012, 1, 17, 16, 56, 0, 0, time.UTC)},
		// Regression: a label of another language than English, which
		// the tidy step cuts the line by, left the date unread.
		{"a German label and a clock", `<header><h1 id="h">Fähre</h1><p>Stand: 05.03.2024 14:23 Uhr</p></header>`, time.Date(2024, 3, 5, 14, 23, 0, 0, time.UTC)},
		{"a French label", `<header><h1 id="h">Ferry</h1><p>Publié le 5 mars 2024</p></header>`, day(2024, 3, 5)},
		{"a German label and \"am\"", `<header><h1 id="h">Fähre</h1><p>Veröffentlicht am 5. März 2024</p></header>`, day(2024, 3, 5)},
		{"a German update and Uhr", `<header><h1 id="h">Fähre</h1><p>Aktualisiert am 05.03.2024, 14:23 Uhr</p></header>`, time.Date(2024, 3, 5, 14, 23, 0, 0, time.UTC)},
		{"a Polish label", `<header><h1 id="h">Prom</h1><p>Opublikowano: 5 marca 2024</p></header>`, day(2024, 3, 5)},
		{"a Russian label", `<header><h1 id="h">Паром</h1><p>Опубликовано: 5 марта 2024</p></header>`, day(2024, 3, 5)},
		{"a Spanish label", `<header><h1 id="h">Ferry</h1><p>Publicado el 5 de marzo de 2024</p></header>`, day(2024, 3, 5)},
		{"an Italian label", `<header><h1 id="h">Traghetto</h1><p>Pubblicato il 5 marzo 2024</p></header>`, day(2024, 3, 5)},
		{"a German label in an element named a date", `<div><h1 id="h">Fähre</h1><span class="date">Stand: 05.03.2024</span></div>`, day(2024, 3, 5)},
		{"published before updated, in German", `<header><h1 id="h">Fähre</h1><p>Aktualisiert am 07.03.2024</p><p>Veröffentlicht am 05.03.2024</p></header>`, day(2024, 3, 5)},
		{"\"Stand\" is an update", `<header><h1 id="h">Fähre</h1><p>Stand: 07.03.2024</p><p>05.03.2024</p></header>`, day(2024, 3, 5)},
		// Regression: a weekday of another language than English before
		// the date left it unread.
		{"a German weekday", `<header><h1 id="h">Fähre</h1><p>Dienstag, 5. März 2024</p></header>`, day(2024, 3, 5)},
		{"a French weekday", `<header><h1 id="h">Ferry</h1><p>Mardi 5 mars 2024</p></header>`, day(2024, 3, 5)},
		{"a Spanish weekday", `<header><h1 id="h">Ferry</h1><p>martes, 5 de marzo de 2024</p></header>`, day(2024, 3, 5)},
		{"a Polish weekday", `<header><h1 id="h">Prom</h1><p>wtorek, 5 marca 2024</p></header>`, day(2024, 3, 5)},
		{"a Russian weekday", `<header><h1 id="h">Паром</h1><p>вторник, 5 марта 2024</p></header>`, day(2024, 3, 5)},
		{"a German weekday in a time", `<div><h1 id="h">Fähre</h1><time>Dienstag, 05.03.2024</time></div>`, day(2024, 3, 5)},
		{"a label and a weekday", `<header><h1 id="h">Fähre</h1><p>Veröffentlicht am Dienstag, 5. März 2024</p></header>`, day(2024, 3, 5)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, tc.html)
			h := find(doc, "h")
			if got := pageDate(doc, h, "", readLinkedData(doc)); !got.Equal(tc.want) {
				t.Errorf("pageDate = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestDateLabelsOfTheTidyStep: every label the tidy step cuts a line of a
// date by (stampLabels) is read before a page's date, as it is written,
// with a colon and capitalised; a label of an update is read as one.
func TestDateLabelsOfTheTidyStep(t *testing.T) {
	for _, label := range stampLabels {
		r, size := utf8.DecodeRuneInString(label)
		date, want := "05.03.2024", time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC)
		if label == "stand" { // a page's own "Stand" gives its hour (see dateOnlyOf)
			date, want = "05.03.2024 14:23 Uhr", time.Date(2024, 3, 5, 14, 23, 0, 0, core.NoZone)
		}
		for _, line := range []string{label + " " + date, string(unicode.ToUpper(r)) + label[size:] + ": " + date} {
			if !isStampLine(line) {
				t.Errorf("isStampLine(%q) = false, want true", line)
			}
			doc := parse(t, `<header><h1 id="h">Ferry</h1><p>`+line+`</p></header>`)
			if got := pageDate(doc, find(doc, "h"), "", readLinkedData(doc)); !got.Equal(want) {
				t.Errorf("pageDate of %q = %v, want %v", line, got, want)
			}
		}
	}
}

// TestStandDatesItsFigures: "Stand: 31.12.2022" under a table or in a
// chart's caption, with no clock time, dates the figures, not the page,
// which stays undated when it gives no other date (a reviewer's finding:
// it became the page's date); a "Stand" with its hour, or in an element
// named a date, is the page's.
func TestStandDatesItsFigures(t *testing.T) {
	long := strings.Repeat("Der Stadtrat hat über den neuen Haushalt beraten und mehrere Änderungen beschlossen. ", 4)
	for _, tc := range []struct {
		name, body string
		want       time.Time
	}{
		{"under a table", `<p>` + long + `</p><table><tr><td>Schulden</td><td>4,5 Mio</td></tr></table><p>Stand: 31.12.2022</p><p>` + long + `</p>`, time.Time{}},
		{"in a caption", `<p>` + long + `</p><figure><img src="c.png"><figcaption>Stand: 31. Dezember 2022</figcaption></figure><p>` + long + `</p>`, time.Time{}},
		{"with its hour", `<p>Stand: 05.03.2024 14:23 Uhr</p><p>` + long + `</p>`, time.Date(2024, 3, 5, 14, 23, 0, 0, core.NoZone)},
		{"named a date", `<p><span class="date">Stand: 05.03.2024</span></p><p>` + long + `</p>`, time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, `<article><h1 id="h">Haushalt beschlossen</h1>`+tc.body+`</article>`)
			if got := pageDate(doc, find(doc, "h"), "", readLinkedData(doc)); !got.Equal(tc.want) {
				t.Errorf("pageDate = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestParseDate: a zone's name with an offset after it is read where a
// convention gives it one (GMT+3 and UTC-05:00 east of UTC, MSK+1 an hour
// on from Moscow), else the date is unread; and what holds no day (a clock
// alone, a weekday and a year) is no date. dateparse, which reads what
// package extract does not, took an offset of hours for the month, the
// hour or seconds, and a clock for a date.
func TestParseDate(t *testing.T) {
	at := func(h, min, off int) time.Time { // March 5, 2024, h:min at UTC+off hours
		return time.Date(2024, 3, 5, h, min, 0, 0, time.FixedZone("", off*3600))
	}
	for _, tc := range []struct {
		name, in string
		want     time.Time // zero: unread
	}{
		// Regression (a tester's finding): a damaged wire clock of an hour
		// of three figures was read as 00:12, and its copy's original.
		{"an hour of three figures", "31-MAR-2024 605:12:19.12", time.Time{}},
		{"an hour of three figures, ISO", "2024-03-05 605:12", time.Time{}},
		// Regression: "MSK+1" was the month (January 5), the zone Moscow's.
		{"MSK+1, ISO", "2024-03-05 10:30 MSK+1", at(10, 30, 4)},
		{"MSK+1, month first", "March 5, 2024 10:30 MSK+1", at(10, 30, 4)},
		{"MSK+1, day first", "5 March 2024 10:30 MSK+1", at(10, 30, 4)},
		{"MSK+1, RFC 1123", "Tue, 05 Mar 2024 10:30:00 MSK+1", at(10, 30, 4)},
		{"MSK+1, dotted", "05.03.2024 10:30 MSK+1", at(10, 30, 4)},
		{"MSK+1, in Russian", "5 марта 2024, 10:30 MSK+1", at(10, 30, 4)},
		{"MSK+1 after PM", "March 5, 2024 10:30 PM MSK+1", at(22, 30, 4)},
		{"MSK+1 in brackets", "2024-03-05 10:30 (MSK+1)", at(10, 30, 4)},
		{"MSK +1, spaced", "2024-03-05 10:30 MSK +1", at(10, 30, 4)},
		{"MSK+01", "2024-03-05 10:30 MSK+01", at(10, 30, 4)},
		{"MSK−1, a minus sign", "2024-03-05 10:30 MSK−1", at(10, 30, 2)},
		{"MSK+9", "2024-03-05 10:30 MSK+9", at(10, 30, 12)},
		{"MSK+10: no such zone", "2024-03-05 10:30 MSK+10", time.Time{}},
		{"MSK and its own offset", "2024-03-05 10:30:00 MSK+0300", at(10, 30, 3)},
		{"MSK and another offset", "2024-03-05 10:30 MSK+01:00", time.Time{}},
		// Regression: "GMT+3" was not read; "UTC-5" was 10:30:05Z, "UTC+3"
		// 03:30Z, "GMT +3" the year 2003, "UTC+0530" UTC.
		{"GMT+3", "2024-03-05 10:30 GMT+3", at(10, 30, 3)},
		{"GMT+3, RFC 1123", "Tue, 05 Mar 2024 10:30:00 GMT+3", at(10, 30, 3)},
		{"GMT +3, spaced", "2024-03-05 10:30 GMT +3", at(10, 30, 3)},
		{"UTC+3", "March 5, 2024 10:30 UTC+3", at(10, 30, 3)},
		{"UTC-5", "March 5, 2024 10:30 UTC-5", at(10, 30, -5)},
		{"UTC-05:00", "2024-03-05 10:30 UTC-05:00", at(10, 30, -5)},
		{"UTC+0530", "2024-03-05 10:30 UTC+0530", time.Date(2024, 3, 5, 10, 30, 0, 0, time.FixedZone("", 5*3600+1800))},
		{"UTC+5:30", "2024-03-05 10:30 UTC+5:30", time.Date(2024, 3, 5, 10, 30, 0, 0, time.FixedZone("", 5*3600+1800))},
		{"GMT+15: no such offset", "2024-03-05 10:30 GMT+15", time.Time{}},
		// Regression: an offset of hours alone was the month ("+1"), the
		// hour ("+3": 03:30Z) or seconds ("-5": 10:30:05Z).
		{"+1", "2024-03-05 10:30 +1", at(10, 30, 1)},
		{"+3", "March 5, 2024 10:30 +3", at(10, 30, 3)},
		{"-5", "2024-03-05 10:30 -5", at(10, 30, -5)},
		{"a full offset", "2024-03-05 10:30:00 +0300", at(10, 30, 3)},
		{"ISO 8601's offset of hours", "2024-03-05T10:30+03", at(10, 30, 3)},
		{"-5 after PM", "March 5, 2024 10:30 PM -5", at(22, 30, -5)},
		{"a name and its own offset", "2024-03-05 10:30:00 EST-0500", at(10, 30, -5)},
		{"CET and its own offset", "2024-03-05 10:30:00 CET+01:00", at(10, 30, 1)},
		// Regression: an offset after a name that the table gives another
		// (f81f954) was no date; the figures settle which zone it is.
		{"CST+0800, China's", "2024-03-05 10:30:00 CST+0800", at(10, 30, 8)},
		{"CST+08:00", "2024-03-05 10:30:00 CST+08:00", at(10, 30, 8)},
		{"IST+0200, Israel's", "2024-03-05 10:30:00 IST+0200", at(10, 30, 2)},
		{"IST+0100, Ireland's", "2024-03-05 10:30:00 IST+0100", at(10, 30, 1)},
		{"BST+0600, Bangladesh's", "2024-03-05 10:30:00 BST+0600", at(10, 30, 6)},
		{"CST-0500", "2024-03-05 10:30:00 CST-0500", at(10, 30, -5)},
		{"PST-0700", "2024-03-05 10:30:00 PST-0700", at(10, 30, -7)},
		{"CET+0200", "2024-03-05 10:30:00 CET+0200", at(10, 30, 2)},
		{"EST-0400", "Tue, 05 Mar 2024 10:30:00 EST-0400", at(10, 30, -4)},
		{"MEZ+0200", "05.03.2024 10:30 MEZ+0200", at(10, 30, 2)},
		{"CST+0800 in brackets", "2024-03-05 10:30 (CST+0800)", at(10, 30, 8)},
		{"CST+0800, month first", "March 5, 2024 10:30 CST+0800", at(10, 30, 8)},
		{"the offset first", "2024-03-05 10:30:00 +0800 CST", at(10, 30, 8)},
		// Hours alone that are the name's own offset, where hours on from
		// it are no offset (UTC+18), are the offset.
		{"KST+9", "2024-03-05 10:30 KST+9", at(10, 30, 9)},
		{"JST+09", "2024-03-05 10:30 JST+09", at(10, 30, 9)},
		{"AEST+10", "2024-03-05 10:30 AEST+10", at(10, 30, 10)},
		{"PST-8", "2024-03-05 10:30 PST-8", at(10, 30, -8)},
		{"EST-5: or UTC-10", "2024-03-05 10:30 EST-5", time.Time{}},
		{"KST+8: not KST's", "2024-03-05 10:30 KST+8", time.Time{}},
		{"Z+0300", "2024-03-05 10:30 Z+0300", time.Time{}},
		// Regression: a zone between the clock and the year, as Unix's
		// date writes it, was no date here, UTC's clock in a feed.
		{"GMT+3 before the year", "Tue Mar  5 10:30:00 GMT+3 2024", at(10, 30, 3)},
		{"MSK before the year", "Tue Mar  5 10:30:00 MSK 2024", at(10, 30, 3)},
		{"MSK+1 before the year", "Tue Mar 5 10:30:00 MSK+1 2024", at(10, 30, 4)},
		{"EST before the year", "Tue Mar  5 10:30:00 EST 2024", at(10, 30, -5)},
		{"CST+0800 before the year", "Tue Mar  5 10:30:00 CST+0800 2024", at(10, 30, 8)},
		{"EST+1 before the year", "Tue Mar  5 10:30:00 EST+1 2024", time.Time{}},
		{"a name no table knows and an offset", "2024-03-05 10:30:00 AST-0400", at(10, 30, -4)},
		{"JavaScript's Date", "Tue Mar 05 2024 10:30:00 GMT+0300 (Moscow Standard Time)", at(10, 30, 3)},
		// Regression: hours after another name (no convention) were the
		// month, January.
		{"EST+1", "2024-03-05 10:30 EST+1", time.Time{}},
		{"EST+1, RFC 1123", "Tue, 05 Mar 2024 10:30:00 EST+1", time.Time{}},
		{"CET+1", "2024-03-05 10:30 CET+1", time.Time{}},
		{"ET+1", "2024-03-05 10:30 ET+1", time.Time{}},
		{"Z+3", "2024-03-05 10:30 Z+3", time.Time{}},
		{"MSK+1 after a date without a clock", "2024-03-05 MSK+1", time.Time{}},
		{"no date before MSK+1", "10:30 MSK+1", time.Time{}},
		// Regression: a clock alone was a date ("10:30:00" October 30,
		// 2000; "01:02:03" January 2, 2003), and so was a weekday and a
		// year (January 1).
		{"a clock", "10:30:00", time.Time{}},
		{"a clock read as January", "01:02:03", time.Time{}},
		{"a clock with a zone", "10:30:00 MSK", time.Time{}},
		{"a clock with an offset", "10:30:00 +0300", time.Time{}},
		{"a weekday and a clock", "Tue 10:30:00", time.Time{}},
		{"a clock and a year", "10:30 MSK 2024", time.Time{}},
		{"a weekday and a year", "Tuesday 2024", time.Time{}},
		{"a month and a year", "March 2024", time.Time{}},
		{"a year, a month and an offset", "2024-03 MSK+1", time.Time{}},
		{"a month's name and a clock", "March 1:05 2024", time.Time{}},
		{"a year alone", "2024", time.Time{}},
		// Regression: a clock before its date and a comma, as AP writes
		// it, gave no date.
		{"AP's clock first", "10:15 AM EST, March 5, 2024", at(10, 15, -5)},
		{"a 24-hour clock and a zone first", "17:41 JST, March 5, 2024", at(17, 41, 9)},
		{"a clock first, a dotted date", "14:23, 05.03.2024", at(14, 23, 0)},
		{"a clock first, a weekday", "9:05 pm, Tuesday, March 5, 2024", at(21, 5, 0)},
		{"a clock first, a month and a year", "10:15 AM EST, March 2024", time.Time{}},
		// Dates of January stay read.
		{"January by its figures", "2024-01-05 10:30", time.Date(2024, 1, 5, 10, 30, 0, 0, time.UTC)},
		{"January by its name", "Jan 5, 2024", time.Date(2024, 1, 5, 0, 0, 0, 0, time.UTC)},
		{"January in Russian", "5 января 2024", time.Date(2024, 1, 5, 0, 0, 0, 0, time.UTC)},
		{"January, compact", "20240105", time.Date(2024, 1, 5, 0, 0, 0, 0, time.UTC)},
		{"a month's name and a two-figure year", "Tuesday, 05-Mar-24 10:30:00 UTC", at(10, 30, 0)},
		// Regression: RFC 3339's lower-case "t" and "z" were no date, and
		// dateparse's readings of figures after a date without a clock
		// were taken: "-05" as seconds (00:00:05), " -05" as an offset.
		{"RFC 3339 in lower case", "2024-03-05t10:30:00z", at(10, 30, 0)},
		{"figures after a date without a clock", "2024-03-05-05", time.Time{}},
		{"hours alone after a date without a clock", "2024-03-05 -05", time.Time{}},
		{"hours and minutes after a date without a clock", "2024-03-05+02:00", at(0, 0, 2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := ParseDate(tc.in)
			if ok != !tc.want.IsZero() || !got.Equal(tc.want) {
				t.Fatalf("ParseDate(%q) = %v, %v; want %v", tc.in, got, ok, tc.want)
			}
			_, off := got.Zone()
			if _, wantOff := tc.want.Zone(); off != wantOff {
				t.Errorf("ParseDate(%q) = %v, offset %ds; want %v", tc.in, got, off, tc.want)
			}
		})
	}
}

// Regression: a feed item's date of no zone or offset was gofeed's
// reading of it, in UTC, or ParseDate's where gofeed read none, in UTC too.
// It is in core.NoZone at gofeed's clock, its day and month as gofeed
// orders them; a date that names its zone or offset is as before.
// Regression: one whose 12-hour clock's "AM" or "PM" ends it was in UTC,
// its "AM" taken for a zone's name.
func TestFeedDateOfNoZone(t *testing.T) {
	utc := func(y, mo, d, h, mi, sec int) *time.Time {
		t := time.Date(y, time.Month(mo), d, h, mi, sec, 0, time.UTC)
		return &t
	}
	for _, tc := range []struct {
		raw    string
		parsed *time.Time // gofeed's reading, nil for none
		want   time.Time
	}{
		{"2024-03-05T10:00:00", utc(2024, 3, 5, 10, 0, 0), time.Date(2024, 3, 5, 10, 0, 0, 0, core.NoZone)},
		{"Tue, 05 Mar 2024 10:00:00", utc(2024, 3, 5, 10, 0, 0), time.Date(2024, 3, 5, 10, 0, 0, 0, core.NoZone)},
		{"2024-03-05", utc(2024, 3, 5, 0, 0, 0), time.Date(2024, 3, 5, 0, 0, 0, 0, core.NoZone)},
		{"02/01/2026", utc(2026, 1, 2, 0, 0, 0), time.Date(2026, 1, 2, 0, 0, 0, 0, core.NoZone)}, // gofeed's day first
		{"1987-02-26 15:01:01", utc(1987, 2, 26, 15, 1, 1), time.Date(1987, 2, 26, 15, 1, 1, 0, core.NoZone)},
		{"March 4, 2024 9:00 AM", utc(2024, 3, 4, 9, 0, 0), time.Date(2024, 3, 4, 9, 0, 0, 0, core.NoZone)},
		{"March 4, 2024 9:00PM", utc(2024, 3, 4, 21, 0, 0), time.Date(2024, 3, 4, 21, 0, 0, 0, core.NoZone)},
		{"2024-03-05T10:00:00", nil, time.Date(2024, 3, 5, 10, 0, 0, 0, core.NoZone)},
		{"03.04.2024, 14:23 Uhr", nil, time.Date(2024, 4, 3, 14, 23, 0, 0, core.NoZone)},
		// As before: a zone or an offset named.
		{"2024-03-05T10:00:00Z", utc(2024, 3, 5, 10, 0, 0), time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)},
		{"Tue, 05 Mar 2024 10:00:00 +0300", utc(2024, 3, 5, 7, 0, 0), time.Date(2024, 3, 5, 7, 0, 0, 0, time.UTC)},
		{"Tue, 05 Mar 2024 10:00:00 GMT", utc(2024, 3, 5, 10, 0, 0), time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)},
	} {
		t.Run(tc.raw, func(t *testing.T) {
			got := FeedDate(tc.raw, tc.parsed, "", nil)
			if !got.Equal(tc.want) || (got.Location() == core.NoZone) != (tc.want.Location() == core.NoZone) {
				t.Errorf("FeedDate(%q) = %v (in core.NoZone: %v), want %v (%v)", tc.raw, got, got.Location() == core.NoZone, tc.want, tc.want.Location() == core.NoZone)
			}
		})
	}
}

// ReadDate reads what ParseDate reads, in any year, a date that names no
// zone in core.NoZone (written without an offset); it reads no placeholder
// and no date whose day and month could go either way. Regression: a
// dotted date's year of two figures was 20xx ("05.03.99" as 2099), where
// RFC 822's "05 Mar 99" is 1999; every year of two figures is in one
// century, time.Parse's (69 to 99: 19xx). Regression: a zone of the IANA
// database after the clock was dropped, and the date read without a zone
// ("10:20:30 America/New_York" as 10:20:30, ordered as UTC), and so were
// UTC's "Z" and "UT" after a space; the zone is read, "Z" and "UT" are
// UTC. Regression: other words after the clock were dropped as well
// ("10:20:30 Pacific Standard Time" as 10:20:30); a date whose clock is
// followed by words no reader took for a zone is no date.
func TestReadDate(t *testing.T) {
	for _, tc := range []struct{ in, want string }{ // want: core.FormatDate's RFC 3339, "" unread
		{"2024-03-05T10:30:00Z", "2024-03-05T10:30:00Z"},
		{"2024-03-05 10:30:00", "2024-03-05T10:30:00"},
		{"March 4, 2024 9:00 AM", "2024-03-04T09:00:00"},
		{"Mar 4, 2024, 9:00 a.m. EST", "2024-03-04T09:00:00-05:00"},
		{"10:15 AM EST, March 4, 2024", "2024-03-04T10:15:00-05:00"},
		{"2024/03/04 09:00", "2024-03-04T09:00:00"},
		// Regression: ISO 8601's basic format was read as a date alone
		// (20240301), not with its clock: the value was unread.
		{"20240301T090000Z", "2024-03-01T09:00:00Z"},
		{"20240301T0900Z", "2024-03-01T09:00:00Z"},
		{"20240301T090000+0100", "2024-03-01T09:00:00+01:00"},
		{"20240301T090000-05", "2024-03-01T09:00:00-05:00"},
		{"20240301T090000.5Z", "2024-03-01T09:00:00.5Z"},
		{"20240301t090000z", "2024-03-01T09:00:00Z"},
		{"20240301T090000", "2024-03-01T09:00:00"},
		{"20240301T0900", "2024-03-01T09:00:00"},
		{"20240301T250000Z", ""},
		{"4.3.2024", "2024-03-04T00:00:00"},
		{"3. Mai 2024, 14:23 Uhr", "2024-05-03T14:23:00"},
		{"27th April 2020", "2020-04-27T00:00:00"},
		{"Monday, March 4, 2024", "2024-03-04T00:00:00"},
		{"03/25/2024", "2024-03-25T00:00:00"},
		{"2024-03-04 09:00:00.5 +0000 UTC", "2024-03-04T09:00:00.5Z"},
		{"March 5, 2024 10:00 AM AST", "2024-03-05T10:00:00Z"}, // a name no table agrees on: UTC
		{"05-Mar-24", "2024-03-05T00:00:00"},
		{"March 4, 1987 9:00 AM", "1987-03-04T09:00:00"}, // ParseDate's years start at 1990
		{"1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z"},
		{"03/10/2023", ""},
		{"03-10-2023 10:00", ""},
		{"1970-01-01T00:00:00Z", ""},
		{"Thu, 01 Jan 1970 00:00:00 +0000", ""},
		{"0001-01-01", ""},
		{"March 2024", ""},
		{"2024-03-05 10:30 EST+1", ""},
		// A year of two figures, in every form in one century.
		{"05.03.99", "1999-03-05T00:00:00"},
		{"5.3.87", "1987-03-05T00:00:00"},
		{"05.03.70", "1970-03-05T00:00:00"},
		{"05.03.69", "1969-03-05T00:00:00"},
		{"05.03.68", "2068-03-05T00:00:00"},
		{"05.03.24", "2024-03-05T00:00:00"},
		{"05.03.99, 10:20", "1999-03-05T10:20:00"},
		{"05 Mar 99 10:20 GMT", "1999-03-05T10:20:00Z"},
		{"05-Mar-68", "2068-03-05T00:00:00"},
		{"3/25/99", "1999-03-25T00:00:00"},
		// A zone after the clock.
		{"2024-03-05 10:20:30 America/New_York", "2024-03-05T10:20:30-05:00"},
		{"2024-07-05 10:20:30 America/New_York", "2024-07-05T10:20:30-04:00"},
		{"2024-03-05 10:20 (Europe/Warsaw)", "2024-03-05T10:20:00+01:00"},
		{"March 5, 2024 10:00 AM America/Los_Angeles", "2024-03-05T10:00:00-08:00"},
		{"05.03.2024, 10:20 Europe/Berlin", "2024-03-05T10:20:00+01:00"},
		{"2024-03-05 10:20:30 Etc/GMT+5", "2024-03-05T10:20:30-05:00"},
		{"Tue, 05 Mar 2024 10:20:30 Z", "2024-03-05T10:20:30Z"},
		{"Tue, 05 Mar 2024 10:20:30 UT", "2024-03-05T10:20:30Z"},
		{"March 5, 2024 10:20 Z", "2024-03-05T10:20:00Z"},
		{"March 5, 2024 10:20 UT", "2024-03-05T10:20:00Z"},
		{"2024-03-05T10:20:30.Z", "2024-03-05T10:20:30Z"},
		{"2024-03-05 10:20:30 Pacific Standard Time", ""},
		{"March 5, 2024 10:00 AM Pacific Standard Time", ""},
		{"2024-03-05 10:20:30 America/Nowhere", ""},
		{"Tue, 05 Mar 2024 10:20:30 (Pacific Standard Time)", ""},
		{"2024-03-05 10:20 Updated", ""},
		{"March 5, 2024 at 10:20 p.m.", "2024-03-05T22:20:00"},
		{"05.03.2024 10:20 Uhr", "2024-03-05T10:20:00"},
		{"10:15 AM, March 4, 2024", "2024-03-04T10:15:00"},
		{"Tue Mar 05 2024 10:30:00 GMT-0800 (Pacific Standard Time)", "2024-03-05T10:30:00-08:00"},
		{"Tue, 05 Mar 2024 10:20:30 +0000 (UTC)", "2024-03-05T10:20:30Z"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, ok := ReadDate(tc.in)
			if s := core.FormatDate(got, time.RFC3339Nano); ok != (tc.want != "") || ok && s != tc.want {
				t.Errorf("ReadDate(%q) = %s, %v; want %q", tc.in, s, ok, tc.want)
			}
		})
	}
}

// Regression: a word after a clock that names no zone was read as one, at
// UTC's offset, by the layouts (a word of capitals: "ABC") or by dateparse
// (a word after a date it reads: "Abc", "Uhr"), so that a date of no zone
// was written and ordered as UTC's; "May 6, 2025 10:30 Uhr" was no date. A
// word no reader knows for a zone is no zone: a field's date is unread, as
// one of other words after its clock ("Pacific Standard Time"), and a
// page's or a feed's item's is read without a zone; "Uhr" names none, and
// a date before it is read without a zone in every input. A zone a reader
// knows, and a name zones far apart share (AST, read as UTC), are read as
// before.
func TestWordAfterClockIsNoZone(t *testing.T) {
	for _, tc := range []struct {
		in          string
		field, page string // core.FormatDate's RFC 3339, "" unread; a page's is a feed's item's too
	}{
		{"2024-03-05 10:20:30 ABC", "", "2024-03-05T10:20:30"},
		{"Tue, 05 Mar 2024 10:20:30 ABC", "", "2024-03-05T10:20:30"},
		{"Tue, 05 Mar 2024 10:20:30 Abc", "", "2024-03-05T10:20:30"},
		{"3 May 2024 09:00 Abc", "", "2024-05-03T09:00:00"},
		{"3 May 2024 09:00 Reuters", "", "2024-05-03T09:00:00"},
		{"12 March 2024 14:05 Updated", "", "2024-03-12T14:05:00"},
		{"March 5, 2024 10:00 AM ABC", "", "2024-03-05T10:00:00"},
		{"10:15 AM ABC, March 4, 2024", "", "2024-03-04T10:15:00"},
		{"Tue Mar  5 10:30:00 ABC 2024", "", "2024-03-05T10:30:00"},
		{"Tue, 05 Mar 2024 10:20:30 Uhr", "2024-03-05T10:20:30", "2024-03-05T10:20:30"},
		{"6 May 2025 10:30 Uhr", "2025-05-06T10:30:00", "2025-05-06T10:30:00"},
		{"May 6, 2025 10:30 Uhr", "2025-05-06T10:30:00", "2025-05-06T10:30:00"},
		// As before.
		{"03.04.2024, 14:23 Uhr", "2024-04-03T14:23:00", "2024-04-03T14:23:00"},
		{"25.04.2024, 14:23 Uhr MEZ", "2024-04-25T14:23:00+01:00", "2024-04-25T14:23:00+01:00"},
		{"Tue, 05 Mar 2024 10:20:30 EST", "2024-03-05T10:20:30-05:00", "2024-03-05T10:20:30-05:00"},
		{"Tue Mar  5 10:30:00 MSK 2024", "2024-03-05T10:30:00+03:00", "2024-03-05T10:30:00+03:00"},
		{"March 5, 2024 10:00 AM ET", "2024-03-05T10:00:00-05:00", "2024-03-05T10:00:00-05:00"},
		{"2024-03-05 10:20 (Europe/Warsaw)", "2024-03-05T10:20:00+01:00", "2024-03-05T10:20:00+01:00"},
		{"2024-03-05 10:20:30 AST", "2024-03-05T10:20:30Z", "2024-03-05T10:20:30Z"},
		{"March 5, 2024 10:00 AM AST", "2024-03-05T10:00:00Z", "2024-03-05T10:00:00Z"},
		// A zone named, then words the readers read past.
		{"Tue, 05 Mar 2024 10:30:00 CET (Central European Time)", "2024-03-05T10:30:00+01:00", "2024-03-05T10:30:00+01:00"},
		{"Tue, 05 Mar 2024 10:30:00 EST (Eastern Standard Time)", "2024-03-05T10:30:00-05:00", "2024-03-05T10:30:00-05:00"},
		{"Tue, 05 Mar 2024 10:30:00 GMT (Greenwich Mean Time)", "2024-03-05T10:30:00Z", "2024-03-05T10:30:00Z"},
		{"Tue, 05 Mar 2024 10:30:00 UTC (Coordinated Universal Time)", "2024-03-05T10:30:00Z", "2024-03-05T10:30:00Z"},
		{"Tue, 05 Mar 2024 10:30:00 GMT GMT", "2024-03-05T10:30:00Z", "2024-03-05T10:30:00Z"},
		{"Tue Mar  5 10:30:00 EST Reuters 2024", "2024-03-05T10:30:00-05:00", "2024-03-05T10:30:00-05:00"},
		{"Tue Mar  5 10:30:00 GMT Abc 2024", "2024-03-05T10:30:00Z", "2024-03-05T10:30:00Z"},
		{"5 March 2024 10:30 MEZ Reuters", "2024-03-05T10:30:00+01:00", "2024-03-05T10:30:00+01:00"},
		{"3 May 2024 09:00 GMT Reuters", "2024-05-03T09:00:00Z", "2024-05-03T09:00:00Z"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			format := func(d time.Time, ok bool) string {
				if !ok || d.IsZero() {
					return ""
				}
				return core.FormatDate(d, time.RFC3339)
			}
			if got := format(ReadDate(tc.in)); got != tc.field {
				t.Errorf("ReadDate: %q, want %q", got, tc.field)
			}
			if got := format(ParseDate(tc.in)); got != tc.page {
				t.Errorf("ParseDate: %q, want %q", got, tc.page)
			}
			f, err := gofeed.NewParser().Parse(strings.NewReader(`<rss version="2.0"><channel><item><title>x</title><pubDate>` +
				tc.in + `</pubDate></item></channel></rss>`))
			if err != nil {
				t.Fatal(err)
			}
			it := f.Items[0]
			if got := format(FeedDate(it.Published, it.PublishedParsed, it.Updated, it.UpdatedParsed), true); got != tc.page {
				t.Errorf("FeedDate: %q, want %q", got, tc.page)
			}
		})
	}
}

// Regression: a date of a year and a month but no day was read as the
// first of the month ("2024-03" as March 1, "2024-01" as January 1), in a
// page's date and a feed's alike: an invented day could make a later copy
// of a story look first. It is no date, as a year alone is; full dates
// read as before.
func TestDateWithoutDay(t *testing.T) {
	at := func(h, min, off int) time.Time { // March 5, 2024, h:min at UTC+off hours
		return time.Date(2024, 3, 5, h, min, 0, 0, time.FixedZone("", off*3600))
	}
	for _, tc := range []struct {
		name, in string
		want     time.Time // zero: no date
	}{
		{"year and month", "2024-03", time.Time{}},
		{"with a slash", "2024/03", time.Time{}},
		{"with a dot", "2024.03", time.Time{}},
		{"a month of one figure", "2024-3", time.Time{}},
		{"January", "2024-01", time.Time{}},
		{"December", "2024-12", time.Time{}},
		{"month first", "03/2024", time.Time{}},
		{"month first with a dash", "03-2024", time.Time{}},
		{"a month's name", "March 2024", time.Time{}},
		{"a month's name shortened", "Mar. 2024", time.Time{}},
		{"a month's name after the year", "2024 March", time.Time{}},
		{"a month's name in German", "März 2024", time.Time{}},
		{"with a clock", "2024-03 10:30", time.Time{}},
		{"with a clock and a zone", "2024-03T10:30:00Z", time.Time{}},
		{"with a fraction of a second", "2024-03 10:30:00.123", time.Time{}},
		{"year and month in characters", "2024年3月", time.Time{}},
		// dateparse reads the day as seconds, and the first of the month.
		{"a day not shown", "March  05 2024", time.Time{}},
		// Full dates, as before.
		{"ISO", "2024-03-05", at(0, 0, 0)},
		{"ISO, the first of the month", "2024-03-01", time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)},
		{"with slashes", "2024/03/05", at(0, 0, 0)},
		{"compact", "20240305", at(0, 0, 0)},
		{"RFC 3339", "2024-03-05T10:30:00.123+01:00", time.Date(2024, 3, 5, 10, 30, 0, 123e6, time.FixedZone("", 3600))},
		{"RFC 1123", "Tue, 05 Mar 2024 10:30:00 GMT", at(10, 30, 0)},
		{"day first", "5 March 2024", at(0, 0, 0)},
		{"month first", "March 5, 2024", at(0, 0, 0)},
		{"a 12-hour clock and a zone", "March 5, 2024 10:00 AM EST", at(10, 0, -5)},
		{"a two-figure year", "Tuesday, 05-Mar-24 10:30:00 UTC", at(10, 30, 0)},
		{"dotted", "05.03.2024", at(0, 0, 0)},
		{"in characters", "2024年3月5日", at(0, 0, 0)},
		{"Unix time", "1709634600", at(10, 30, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := ParseDate(tc.in)
			if ok != !tc.want.IsZero() || !got.Equal(tc.want) {
				t.Errorf("ParseDate(%q) = %v, %v; want %v", tc.in, got, ok, tc.want)
			}
			if feed := FeedDate(tc.in, nil, "", nil); !feed.Equal(tc.want) {
				t.Errorf("FeedDate(%q) = %v, want %v", tc.in, feed, tc.want)
			}
		})
	}
}

// Regression: a page's date of a year and a month but no day, wherever
// the page declares or shows it, was the first of the month (the engine's
// reading of a <meta> date, and package extract's own); it is no date, as
// a URL's year and month without a day is. A full date in the same place
// is read as before.
func TestPageDateWithoutDay(t *testing.T) {
	march5 := time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name, head, body, url string // %s: the date
		full                  string // a full date in its place
	}{
		{"meta in the head", `<meta property="article:published_time" content="%s">`, "", "", "2024-03-05"},
		{"meta in the body", "", `<meta property="article:published_time" content="%s">`, "", "2024-03-05"},
		{"meta named a date", `<meta name="dcterms.created" content="%s">`, "", "", "2024/03/05"},
		{"JSON-LD", `<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"%s"}</script>`, "", "", "2024-03-05"},
		{"time", "", `<time datetime="%s">Spring</time>`, "", "2024-03-05"},
		{"itemprop", "", `<span itemprop="datePublished">%s</span>`, "", "March 5, 2024"},
		{"a time's text", "", `<time>%s</time>`, "", "5 March 2024"},
		{"a date line", "", `<p class="post-date">Published %s</p>`, "", "Mar. 5, 2024"},
		{"the URL", "", "", "https://news.example/%s/budget", "2024/03/05"},
	} {
		for _, month := range []string{"2024-03", "2024/03", "March 2024", "03/2024", "Mar. 2024"} {
			t.Run(tc.name+"/"+month, func(t *testing.T) {
				if got := pageDateOf(t, tc.head, tc.body, tc.url, month); !got.IsZero() {
					t.Errorf("%q: Date = %v, want none", month, got)
				}
			})
		}
		t.Run(tc.name+"/"+tc.full, func(t *testing.T) {
			if got := pageDateOf(t, tc.head, tc.body, tc.url, tc.full); !got.Equal(march5) {
				t.Errorf("%q: Date = %v, want %v", tc.full, got, march5)
			}
		})
	}
}

// pageDateOf returns the date Page reads on a story whose head and body
// (before its article) hold date where they hold %s, at url, which may
// hold it too.
func pageDateOf(t *testing.T, head, body, url, date string) time.Time {
	t.Helper()
	fill := func(s string) string { return strings.ReplaceAll(s, "%s", date) }
	if url == "" {
		url = "https://news.example/budget"
	}
	page := `<html lang="en"><head><title>Budget</title>` + fill(head) + `</head><body>` + fill(body) +
		`<article><h1>Budget</h1>` + englishBody(6) + `</article></body></html>`
	a, _, err := Page(context.Background(), Input{URL: fill(url), Body: []byte(page)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return a.Date
}

// TestPageDateNotAMenusOrTeasersTime: a <time> in navigation (a ticker's
// clock, a menu's) or in a teaser (a related story's list item, in an
// <aside> or not) is not the page's date, even when it comes first; the
// article's own <time> or byline is. Regression: every <time> was read,
// a ticker's 2024-06-01 over the article's 2024-03-05 and a related
// story's 2020-01-01 over the byline's 5 March 2024.
func TestPageDateNotAMenusOrTeasersTime(t *testing.T) {
	march5 := time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name, before, header, after string // after: in <main>, after the article
		want                        time.Time
		end                         string // after <main>
	}{
		{"a ticker's clock", `<nav class="ticker"><ul><li><time datetime="2024-06-01T08:00:00Z">08:00</time> <a href="/y">Storm hits coast</a></li></ul></nav>`,
			`<p class="byline">By Jane Roe</p><time datetime="2024-03-05T10:00:00Z">5 March 2024</time>`, ``, time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC), ``},
		{"a menu's time", `<div class="main-menu"><time>1 June 2024</time></div>`, `<p>By Jane Roe</p><time>5 March 2024</time>`, ``, march5, ``},
		{"a menu's time and no other", `<nav><time datetime="2024-06-01">1 June 2024</time></nav>`, `<p>By Jane Roe</p>`, ``, time.Time{}, ``},
		{"a related story's in an aside", ``, `<p>By Jane Roe, 5 March 2024</p>`,
			`<aside><ul><li><a href="/x">Older story on ferries</a> <time datetime="2020-01-01">1 January 2020</time></li></ul></aside>`, march5, ``},
		{"a related story's in a list", ``, `<p>By Jane Roe, 5 March 2024</p>`,
			`<ul><li><a href="/x">Older story on ferries</a> <time datetime="2020-01-01">1 January 2020</time></li></ul>`, march5, ``},
		{"a card's in its link", `<div><a href="/x"><time datetime="2020-01-01">1 Jan 2020</time> <h3>Older story on ferries</h3></a></div>`,
			`<p>By Jane Roe, 5 March 2024</p>`, ``, march5, ``},
		{"a card's in its link, and a sidebar's", ``, `<p>By Jane Roe</p>`, `<aside><p>Published <time datetime="2024-03-05">5 March 2024</time></p></aside>`, march5,
			`<div><h2>Also see</h2><a href="/x"><time datetime="2020-01-01">1 Jan 2020</time> <h3>Older story on ferries</h3></a></div>`},
		{"a permalink's", ``, `<p>By Jane Roe <a href="/2024/03/05/ferry" rel="bookmark"><time datetime="2024-03-05">March 5, 2024</time></a></p>`, ``, march5, ``},
		// As before: a list item that is only the page's date, linked to
		// the page, and a sidebar's <time> after the headline, in no link
		// or list item, when nothing else dates the page.
		{"a post's meta in a list", ``, `<ul class="meta"><li><a href="/2024/03/05/ferry"><time datetime="2024-03-05">March 5, 2024</time></a></li></ul>`, ``, march5, ``},
		{"a sidebar's time after the headline", ``, `<p>By Jane Roe</p>`, `<aside><p>Posted <time datetime="2024-03-05">March 5, 2024</time></p></aside>`, march5, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := `<!DOCTYPE html><html lang="en"><head><title>Ferry returns to the harbour after long repairs</title></head><body>` + tc.before +
				`<main><article><h1>Ferry returns to the harbour after long repairs</h1>` + tc.header + englishBody(6) + `</article>` + tc.after + `</main>` + tc.end + `</body></html>`
			a, _, err := Page(context.Background(), Input{URL: "https://news.example/ferry", Body: []byte(page)}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !a.Date.Equal(tc.want) {
				t.Errorf("Date = %v, want %v", a.Date, tc.want)
			}
		})
	}
}

// TestLocalDateWords: the words of other languages between a date and its
// clock, and after its year, that the tidy step takes for a date line's
// (localDateWords) are read in a page's date, and such a line is a date
// line. Regression: "o godz.", "om", "às", "ore" and "r." were a date
// line's words, but the date was not read.
func TestLocalDateWords(t *testing.T) {
	at := func(h, m int) time.Time { return time.Date(2024, 3, 5, h, m, 0, 0, core.NoZone) }
	for _, tc := range []struct {
		line string
		want time.Time
	}{
		{"5 marca 2024 r.", at(0, 0)},
		{"5 marca 2024 roku", at(0, 0)},
		{"5 marca 2024 o godz. 14:23", at(14, 23)},
		{"5 marca 2024 r., godz. 10:00", at(10, 0)},
		{"Opublikowano: 5 marca 2024 r., 10:00", at(10, 0)},
		{"5 de março de 2024 às 10:00", at(10, 0)},
		{"5 marzo 2024 ore 10:00", at(10, 0)},
		{"5 maart 2024 om 10:00", at(10, 0)},
		{"5 de marzo de 2024 a las 10:00", at(10, 0)},
		{"5 mars 2024 klockan 10:00", at(10, 0)},
		{"5 марта 2024 г. в 14:23", at(14, 23)},
	} {
		t.Run(tc.line, func(t *testing.T) {
			doc := parse(t, `<article><h1 id="h">Prom</h1><div class="date">`+tc.line+`</div></article>`)
			if got := pageDate(doc, find(doc, "h"), "", readLinkedData(doc)); !got.Equal(tc.want) || got.Location() != core.NoZone {
				t.Errorf("pageDate = %v, want %v", got, tc.want)
			}
			if _, label := stampDate(fold(tc.line)); !label && !isDateLine(tc.line) {
				t.Errorf("%q: not a date line", tc.line)
			}
		})
	}
}

// TestPageDateInAnArticlesOwnRegions: a <time> in a region markRegions
// marks inside the <article> (an <aside> of the post's meta above its
// headline, its <footer>) is the post's, as it was before a <time> in
// navigation was read last (WCXB 4645, 4596); a teaser's there is not.
func TestPageDateInAnArticlesOwnRegions(t *testing.T) {
	march5 := time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name, lead, foot string
		want             time.Time
	}{
		{"an aside above the headline", `<aside class="post-meta"><time datetime="2024-03-05T10:00:00Z">Mar 05, 2024</time></aside>`, ``, march5},
		{"a footer", ``, `<footer><span class="date"><time datetime="2024-03-05T10:00:00Z">March 5, 2024</time></span></footer>`, march5},
		{"a teaser in a footer", ``, `<footer><ul><li><a href="/x">Older story on ferries</a> <time datetime="2020-01-01">1 January 2020</time></li></ul></footer>`, time.Time{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := `<!DOCTYPE html><html lang="en"><head><title>Ferry returns to the harbour after long repairs</title></head><body><main><article>` +
				tc.lead + `<h1>Ferry returns to the harbour after long repairs</h1>` + englishBody(6) + tc.foot + `</article></main></body></html>`
			a, _, err := Page(context.Background(), Input{URL: "https://news.example/ferry", Body: []byte(page)}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !a.Date.Equal(tc.want) {
				t.Errorf("Date = %v, want %v", a.Date, tc.want)
			}
		})
	}
}

// TestPageDateUnderAMarkedAncestorOfTheArticle: a region's name on <html>
// ("sidebar-default", "sidebarNav--active", "scrollbar--overlay") or on a
// column holding the whole article does not make every <time> of the page
// a navigation's. Regression (a reviewer's finding): such pages lost their
// date, or its clock and zone.
func TestPageDateUnderAMarkedAncestorOfTheArticle(t *testing.T) {
	body := "<p>" + strings.Repeat("This is a sentence of the article body that goes on for a while. ", 24) + "</p>"
	want := time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)
	for name, page := range map[string]string{
		"html class, time before the headline": `<!DOCTYPE html><html lang="en" class="sidebar-default"><head><title>Story title here</title></head><body>
<article><p class="kicker"><time datetime="2024-03-05T10:00:00Z">2 hours ago</time></p><h1>Story title here</h1>` + body + `</article></body></html>`,
		"a wrapper's class, no heading": `<!DOCTYPE html><html lang="en"><head><title>Story title here</title></head><body><div class="page sidebar-default">
<article><p class="kicker"><time datetime="2024-03-05T10:00:00Z">2 hours ago</time></p>` + body + `</article></div></body></html>`,
		"a wrapper's class, a heading": `<!DOCTYPE html><html lang="en"><head><title>Story title here</title></head><body><div class="page sidebar-default">
<article><p class="kicker"><time datetime="2024-03-05T10:00:00Z">2 hours ago</time></p><h1>Story title here</h1>` + body + `</article></div></body></html>`,
		"html class, permalink time after the headline": `<!DOCTYPE html><html lang="en" class="sidebarNav--active"><head><title>Story title here</title></head><body>
<article><h1>Story title here</h1><ul class="meta"><li>Jane Roe</li><li><a href="/threads/story.1/post-2"><time datetime="2024-03-05T10:00:00Z" itemprop="datePublished">2 hours ago</time></a></li></ul>` + body + `</article></body></html>`,
	} {
		t.Run(name, func(t *testing.T) {
			a, _, err := Page(context.Background(), Input{URL: "https://news.example/story", Body: []byte(page)}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !a.Date.Equal(want) {
				t.Errorf("Date = %v, want %v", a.Date, want)
			}
		})
	}
}
