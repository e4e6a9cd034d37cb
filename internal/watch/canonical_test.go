package watch

import "testing"

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

func TestPageCanonical(t *testing.T) {
	for _, c := range []struct{ page, want string }{
		{`<html><head><link rel="canonical" href="/news/1?utm_source=x"></head><body></body></html>`, "https://site.example/news/1"},
		{`<html><head><meta property="og:url" content="https://site.example/news/2"></head></html>`, "https://site.example/news/2"},
		{`<head><meta property="og:url" content="https://a.example/og"><link rel=CANONICAL href="https://a.example/c"></head>`, "https://a.example/c"},
		{`<head><link rel="canonical" href="javascript:alert(1)"></head>`, ""},
		{`<head></head><body><link rel="canonical" href="https://late.example/"></body>`, ""},
		{`<p>no head at all`, ""},
	} {
		if got := pageCanonical([]byte(c.page), "https://site.example/story?id=1"); got != c.want {
			t.Errorf("%s: %q, want %q", c.page, got, c.want)
		}
	}
}

// An IPv6 address keeps its brackets (it lost them: http://::1:9200/x).
func TestCanonicalIPv6(t *testing.T) {
	for in, want := range map[string]string{
		"http://[::1]:9200/x":           "http://[::1]:9200/x",
		"http://[::1]/x":                "http://[::1]/x",
		"https://[2001:DB8::1]:443/a?b": "https://[2001:db8::1]/a?b=",
	} {
		if got := Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
	}
}
