package store

import "testing"

// TestClaimedURL pins which documents schema version 11 takes for ones the
// watcher stored under a URL their pages claimed: an http(s) id and a URL
// of another page; never an id that is no URL, nor one page in two forms.
func TestClaimedURL(t *testing.T) {
	for _, tc := range []struct {
		name, id, url string
		want          bool
	}{
		{"another site", "https://evil.example/b/1", "https://victim.example/a/1", true},
		{"another article", "https://site.example/a/1", "https://site.example/a/2", true},
		{"another parameter", "https://site.example/a?id=1", "https://site.example/a?id=2", true},
		{"scheme case", "HTTP://site.example/a", "https://other.example/a", true},
		{"library id", "doc-17", "https://lib.example/a/17", false},
		{"long link", "link-0123456789abcdef0123456789abcdef", "https://site.example/a/1", false},
		{"not http", "ftp://site.example/a", "https://other.example/a", false},
		{"no host", "https:///a", "https://other.example/a", false},
		{"scheme and slash", "http://site.example/news/x/", "https://site.example/news/x", false},
		{"www and host case", "https://www.Site.example/a", "https://site.example/a", false},
		{"tracking", "https://site.example/a?utm_source=rss&fbclid=1", "https://site.example/a", false},
		{"order of parameters", "https://site.example/a?b=2&a=1", "https://site.example/a?a=1&b=2", false},
		{"default port and fragment", "https://site.example:443/a#top", "https://site.example/a", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := claimedURL(tc.id, tc.url); got != tc.want {
				t.Errorf("claimedURL(%q, %q) = %v, want %v", tc.id, tc.url, got, tc.want)
			}
		})
	}
}
