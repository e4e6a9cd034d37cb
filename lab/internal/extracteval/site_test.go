package extracteval

import "testing"

func TestSite(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   Input
		want string
	}{
		{"dataset URL first", Input{ID: "1", URL: "http://WWW.Port.example:8080/a", Body: []byte(`<link rel="canonical" href="https://other.example/">`)}, "port.example"},
		{"canonical link", Input{ID: "2", Body: []byte(`<head><link href="https://news.example/2012/x" rel="canonical" /></head>`)}, "news.example"},
		{"canonical unquoted", Input{ID: "2", Body: []byte(`<LINK REL=canonical HREF=http://www.blog.example/p>`)}, "blog.example"},
		{"og:url", Input{ID: "3", Body: []byte(`<meta property="og:url" content="https://www.paper.example/story">`)}, "paper.example"},
		{"relative canonical is no address", Input{ID: "4", Body: []byte(`<link rel="canonical" href="/story">`)}, "id:4"},
		{"no address: a site of its own", Input{ID: "R17", Body: []byte(`<p>text</p>`)}, "id:R17"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Site(tc.in); got != tc.want {
				t.Errorf("Site = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSplitHalf(t *testing.T) {
	// FNV-1a 32 of "a" is 0xe40c292c (even), of "b" 0xe70c2de5 (odd).
	if got := SplitHalf("a"); got != Tune {
		t.Errorf(`SplitHalf("a") = %s, want tune`, got)
	}
	if got := SplitHalf("b"); got != Report {
		t.Errorf(`SplitHalf("b") = %s, want report`, got)
	}
	halves := map[Half]int{}
	for _, s := range []string{"a.example", "b.example", "c.example", "d.example", "e.example", "f.example", "g.example", "h.example"} {
		first, again := SplitHalf(s), SplitHalf(s)
		if first != again {
			t.Fatalf("SplitHalf(%q) = %s, then %s", s, first, again)
		}
		halves[first]++
	}
	if halves[Tune] == 0 || halves[Report] == 0 {
		t.Errorf("eight sites all in one half: %v", halves)
	}
}
