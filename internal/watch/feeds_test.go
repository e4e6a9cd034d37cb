package watch

import "testing"

// TestShownURL: a URL's password is left out of what is shown, and any
// other URL is shown as it is.
func TestShownURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://reader:s3cret@daily.example/rss": "https://reader:xxxxx@daily.example/rss",
		"https://reader@daily.example/rss":        "https://reader@daily.example/rss",
		"https://daily.example/rss?key=1":         "https://daily.example/rss?key=1",
		"%zz":                                     "%zz",
	} {
		if got := ShownURL(in); got != want {
			t.Errorf("ShownURL(%q) = %q, want %q", in, got, want)
		}
	}
}
