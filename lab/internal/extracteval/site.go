package extracteval

import (
	"hash/fnv"
	"net/url"
	"regexp"
	"strings"
)

// Half names one side of the per-site split.
type Half string

// The two halves of the per-site split: rules and designs are tuned on
// the pages of some sites and reported on the pages of the others, so that
// a change that only fits the tuning sites shows.
const (
	Tune   Half = "tune"
	Report Half = "report"
)

// siteScan is how much of a page is searched for its address.
const siteScan = 256 << 10

var (
	canonicalRe = regexp.MustCompile(`(?is)<link\b[^>]*\brel\s*=\s*["']?canonical\b[^>]*>`)
	ogURLRe     = regexp.MustCompile(`(?is)<meta\b[^>]*\bproperty\s*=\s*["']?og:url\b[^>]*>`)
	hrefRe      = regexp.MustCompile(`(?is)\b(?:href|content)\s*=\s*["']?(https?://[^"'\s>]+)`)
)

// Site returns the site a page belongs to: the host of its URL when the
// dataset records one, else of its <link rel="canonical"> or <meta
// property="og:url">, lower-cased, without a port or a leading "www.".
// A page without an address is a site of its own, "id:" and its id.
func Site(in Input) string {
	if h := host(in.URL); h != "" {
		return h
	}
	body := in.Body[:min(len(in.Body), siteScan)]
	for _, re := range []*regexp.Regexp{canonicalRe, ogURLRe} {
		if tag := re.Find(body); tag != nil {
			if m := hrefRe.FindSubmatch(tag); m != nil {
				if h := host(string(m[1])); h != "" {
					return h
				}
			}
		}
	}
	return "id:" + in.ID
}

func host(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Hostname() == "" {
		return ""
	}
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
}

// SplitHalf puts a site in the tune half when the 32-bit FNV-1a hash of
// its name is even, in the report half when it is odd: every page of a
// site falls in the same half, on every run.
func SplitHalf(site string) Half {
	h := fnv.New32a()
	h.Write([]byte(site))
	if h.Sum32()%2 == 0 {
		return Tune
	}
	return Report
}
