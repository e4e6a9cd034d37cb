package watch

import (
	"net/url"
	"strings"
	"testing"
)

func TestCanonical(t *testing.T) {
	for in, want := range map[string]string{
		"HTTPS://News.Example.COM:443/a/b?utm_source=rss&id=3&fbclid=x#top": "https://news.example.com/a/b?id=3",
		"http://example.com:80":                        "http://example.com/",
		"http://example.com:8080/x?b=2&a=1&utm_medium": "http://example.com:8080/x?a=1&b=2",
		"  https://example.com/a%20b  ":                "https://example.com/a%20b",
		"not a url":                                    "not a url",
	} {
		if got := Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCanonicalQuery pins the reviewer's finding that canonical links
// merged different pages: url.Query dropped every pair holding ';' (two
// items /article?id=7;s=1 and ?id=8;s=1 were one) and rewrote a bare name
// (index.php?/archives/101-story.html became
// ?%2Farchives%2F101-story.html=). Such parameters are kept as written;
// name=value pairs are written as before, so that the keys an index
// stored stay the same.
func TestCanonicalQuery(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"pairs sorted", "http://a.example/x?b=2&a=1", "http://a.example/x?a=1&b=2"},
		{"one name in its order", "http://a.example/x?b=2&a=3&a=1", "http://a.example/x?a=3&a=1&b=2"},
		{"tracking left out", "http://a.example/x?utm_source=rss&id=3&fbclid=x&utm_medium", "http://a.example/x?id=3"},
		{"escapes as before", "http://a.example/x?u=http://b.example/y&q=a%20b", "http://a.example/x?q=a+b&u=http%3A%2F%2Fb.example%2Fy"},
		{"plus as before", "http://a.example/x?q=a+b", "http://a.example/x?q=a+b"},
		{"empty pairs", "http://a.example/x?&a=1&&", "http://a.example/x?a=1"},
		{"bare path as written", "http://a.example/index.php?/archives/101-story.html", "http://a.example/index.php?/archives/101-story.html"},
		{"bare name as written", "http://a.example/x?print&id=2", "http://a.example/x?id=2&print"},
		{"semicolon pair as written", "http://a.example/article?id=7;s=1", "http://a.example/article?id=7;s=1"},
		{"semicolon pair beside others", "http://a.example/article?z=1&id=8;s=1&utm_source=x", "http://a.example/article?id=8;s=1&z=1"},
		{"tracking name with a semicolon kept", "http://a.example/x?utm_source=a;id=7", "http://a.example/x?utm_source=a;id=7"},
		{"malformed escape as written", "http://a.example/x?b=%zz&a=1", "http://a.example/x?a=1&b=%zz"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Canonical(tc.in); got != tc.want {
				t.Errorf("Canonical(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
	// Links that name different pages keep different keys.
	for _, pair := range [][2]string{
		{"http://a.example/article?id=7;s=1", "http://a.example/article?id=8;s=1"},
		{"http://a.example/article?id=7;s=1", "http://a.example/article"},
		{"http://a.example/x?a", "http://a.example/x?a="},
		{"http://a.example/index.php?/a/b", "http://a.example/index.php?%2Fa%2Fb="},
	} {
		if a, b := Canonical(pair[0]), Canonical(pair[1]); a == b {
			t.Errorf("%s and %s are both %s", pair[0], pair[1], a)
		}
	}
}

// An IPv6 address keeps its brackets (it lost them: http://::1:9200/x).
func TestCanonicalIPv6(t *testing.T) {
	for in, want := range map[string]string{
		"http://[::1]:9200/x":           "http://[::1]:9200/x",
		"http://[::1]/x":                "http://[::1]/x",
		"https://[2001:DB8::1]:443/a?b": "https://[2001:db8::1]/a?b",
	} {
		if got := Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFeedURL pins feed URLs stored as written: one feed written four
// ways was stored four times, and an out-of-range port or a raw space was
// accepted.
func TestFeedURL(t *testing.T) {
	for _, tc := range []struct{ name, in, want, err string }{
		{name: "as is", in: "https://a.example/rss?b=2&a=1", want: "https://a.example/rss?b=2&a=1"},
		{name: "case", in: "HTTP://A.Example/Feed", want: "http://a.example/Feed"},
		{name: "default http port", in: "http://a.example:80/feed", want: "http://a.example/feed"},
		{name: "default https port", in: "https://a.example:443/feed", want: "https://a.example/feed"},
		{name: "other port", in: "https://a.example:80/feed", want: "https://a.example:80/feed"},
		{name: "fragment", in: "http://a.example/feed#top", want: "http://a.example/feed"},
		{name: "ipv6", in: "http://[::1]:8080/feed", want: "http://[::1]:8080/feed"},
		{name: "blanks around", in: " http://a.example/feed\n", want: "http://a.example/feed"},
		{name: "leading zeros in the default port", in: "http://a.example:080/feed", want: "http://a.example/feed"},
		{name: "leading zeros in the default https port", in: "https://a.example:00443/feed", want: "https://a.example/feed"},
		{name: "leading zeros in another port", in: "http://a.example:018080/feed", want: "http://a.example:18080/feed"},
		{name: "port out of range", in: "http://a.example:99999/feed", err: "port 99999 is out of range"},
		{name: "port zero", in: "http://a.example:0/feed", err: "port 0 is out of range"},
		{name: "raw space", in: "http://a.example/ feed", err: "a space in the URL"},
		{name: "line break", in: "http://a.example/feed\nhttp://b.example/feed", err: "a line break in the URL (two URLs in one?"},
		{name: "ftp", in: "ftp://a.example/feed", err: "want an http or https URL"},
		{name: "no scheme", in: "notaurl", err: "want an http or https URL"},
		// Regression: a URL of no host was refused as no http or https URL.
		{name: "no host", in: "http:///x", err: `feed "http:///x": the URL names no host`},
		{name: "no host but a port", in: "http://:8080/x", err: `feed "http://:8080/x": the URL names no host`},
		{name: "nothing after the scheme", in: "https://", err: `feed "https://": the URL names no host`},
		{name: "no host but an empty user", in: "http://@/x", err: `feed "http://@/x": the URL names no host`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FeedURL(tc.in)
			switch {
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("FeedURL(%q) = %q, %v; want an error holding %q", tc.in, got, err, tc.err)
			case tc.err == "" && (err != nil || got != tc.want):
				t.Errorf("FeedURL(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
		})
	}
}

// TestPageURL: the URL of a page to try a rule on is checked as a feed's
// and given back without the white space around it, which feeds test
// checked and then fetched as typed (" http://…": a parse error of Go's).
func TestPageURL(t *testing.T) {
	for in, want := range map[string]string{
		" http://a.example/x\n": "http://a.example/x",
		"HTTP://a.example/x":    "HTTP://a.example/x",
		"http://a.example:0/x":  `page "http://a.example:0/x": port 0 is out of range (1-65535)`,
		"http://a example/x":    `page "http://a example/x": a space in the URL (write it %20)`,
		"ftp://a.example/x":     `page "ftp://a.example/x": want an http or https URL`,
		"http:///x":             `page "http:///x": the URL names no host`,
	} {
		got, err := PageURL(in)
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("PageURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// Regression: a port written with leading zeros kept them, so that
// http://example.com:080/feed, :0080 and the URL without a port were three
// feeds, and a link's :018080 another key and another host to the host
// gate than :18080, which connect to the same port. The port is a number.
func TestPortLeadingZeros(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://example.com:080/a", "http://example.com/a"},
		{"http://example.com:0080/a", "http://example.com/a"},
		{"https://example.com:0443/a", "https://example.com/a"},
		{"http://example.com:018080/a", "http://example.com:18080/a"},
		{"http://[::1]:08080/a", "http://[::1]:8080/a"},
		{"http://example.com:0/a", "http://example.com:0/a"},
		{"http://example.com:000/a", "http://example.com:0/a"},
	} {
		if got := Canonical(tc.in); got != tc.want {
			t.Errorf("Canonical(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	a, _ := url.Parse("http://127.0.0.2:018080/x")
	b, _ := url.Parse("http://127.0.0.2:18080/y")
	if ka, kb := hostKey(a), hostKey(b); ka != kb {
		t.Errorf("host gate keys %q and %q, want one host", ka, kb)
	}
	es := []entry{{fetch: "http://a.example:08080/1"}, {fetch: "http://a.example:8080/2"}, {fetch: "http://b.example/3"}}
	if got := pagesHost(es, ""); got != "a.example:8080" {
		t.Errorf("pagesHost = %q, want a.example:8080", got)
	}
}
