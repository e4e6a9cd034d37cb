package extract

import (
	"regexp"
	"strings"
	"time"

	"github.com/araddon/dateparse"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// dateMeta are the <meta> names and properties that carry a publication
// date, lower-cased.
var dateMeta = map[string]bool{
	"article:published_time": true, "og:published_time": true, "datepublished": true,
	"date": true, "dc.date": true, "dc.date.issued": true, "dcterms.created": true,
	"dcterms.date": true, "pubdate": true, "publishdate": true, "publish-date": true,
	"publish_date": true, "sailthru.date": true, "parsely-pub-date": true,
	"article.published": true, "cxenseparse:recs:publishtime": true, "originalpublicationdate": true,
}

// urlDate finds a date in a URL path: /2024/03/05/ or 2024-03-05.
var urlDate = regexp.MustCompile(`(?:^|[/_-])((?:19|20)\d{2})[/-](0[1-9]|1[0-2])[/-](0[1-9]|[12]\d|3[01])(?:[/._-]|$)`)

// pageDate looks for the publication date the page declares, for pages
// whose engine found none: <meta> dates, then <time datetime> (a published
// one first), then a date in the URL. It returns the zero time if none
// parses to a plausible date.
func pageDate(doc *html.Node, pageURL string) time.Time {
	var metas, published, times []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.Meta:
				for _, key := range []string{"property", "name", "itemprop"} {
					if dateMeta[strings.ToLower(attr(n, key))] {
						metas = append(metas, attr(n, "content"))
					}
				}
			case atom.Time:
				if dt := attr(n, "datetime"); dt != "" {
					if hasAttr(n, "pubdate") || strings.EqualFold(attr(n, "itemprop"), "datePublished") {
						published = append(published, dt)
					}
					times = append(times, dt)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	for _, group := range [][]string{metas, published, times} {
		for _, s := range group {
			if t, ok := parseDate(s); ok {
				return t
			}
		}
	}
	if m := urlDate.FindStringSubmatch(pageURL); m != nil {
		if t, ok := parseDate(m[1] + "-" + m[2] + "-" + m[3]); ok {
			return t
		}
	}
	return time.Time{}
}

// parseDate parses a date in any common notation, accepting only years
// from 1990 to next year.
func parseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 64 {
		return time.Time{}, false
	}
	t, err := dateparse.ParseIn(s, time.UTC)
	if err != nil || t.Year() < 1990 || t.Year() > time.Now().Year()+1 {
		return time.Time{}, false
	}
	return t, true
}

// bylinePrefix matches the words that introduce an author's name.
var bylinePrefix = regexp.MustCompile(`(?i)^(?:(?:posted|written|published)\s+by|view\s+all\s+posts\s+by|authors?|by|von|par|autor)\b\s*:?\s*`)

// bylineEnd matches where a byline stops naming people: a separator, or a
// date that follows the name.
var bylineEnd = regexp.MustCompile(`(?i)\s*(?:[|·•]|\s-\s|\bon\s+\w+\s+\d|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}|\bupdated\b|\bposted\b).*$`)

// maxByline is the longest author string kept, in bytes; longer ones are
// sentences or profile boxes, not names.
const maxByline = 80

// cleanByline reduces a byline to the names in it: "By Jane Roe | July 24,
// 2012" → "Jane Roe". It returns "" for what is not a name.
func cleanByline(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	for {
		t := bylinePrefix.ReplaceAllString(s, "")
		if t == s {
			break
		}
		s = t
	}
	s = strings.Trim(bylineEnd.ReplaceAllString(s, ""), " ,;:-")
	if len(s) > maxByline || !strings.ContainsFunc(s, isLetter) || weekday.MatchString(s) {
		return ""
	}
	return s
}

// weekday matches a byline that was only a date's weekday.
var weekday = regexp.MustCompile(`(?i)^(mon|tues|wednes|thurs|fri|satur|sun)day$`)

func isLetter(r rune) bool {
	return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r > 0x7f
}
