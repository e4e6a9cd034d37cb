package extract

import (
	nurl "net/url"
	"testing"
)

func TestHeadlineOf(t *testing.T) {
	for _, tc := range []struct {
		name, page, url, title, want string
	}{
		{"heading and site after a bar", `<h1 id="h">What is cloud computing?</h1>`, "", "What is cloud computing? | Cloud Corp", "What is cloud computing?"},
		{"heading and a few words after a comma", `<h1 id="h">Best camping hammocks of 2026</h1>`, "", "Best camping hammocks of 2026, Tested & Reviewed", "Best camping hammocks of 2026"},
		{"the site's name after the heading and a space", `<meta property="og:site_name" content="MOONGIFT"><h1 id="h">wasm-module - DOM in WebAssembly</h1>`, "", "wasm-module - DOM in WebAssembly MOONGIFT", "wasm-module - DOM in WebAssembly"},
		{"the host's name in brackets after the heading", `<h1 id="h">The Fold-and-Cut Problem</h1>`, "https://erikdemaine.org/foldcut/", "The Fold-and-Cut Problem (Erik Demaine)", "The Fold-and-Cut Problem"},
		{"a word after the heading that is no site's name", `<meta property="og:site_name" content="Port News"><h1 id="h">Ferry returns</h1>`, "", "Ferry returns today", "Ferry returns today"},
		{"heading after the site", `<h1 id="h">Corporate catering trends</h1>`, "", "Tastify | Corporate catering trends", "Corporate catering trends"},
		{"site name the page gives", `<meta property="og:site_name" content="The Namibian"><h1>Other</h1>`, "", "Green hydrogen pipeline flagged - The Namibian", "Green hydrogen pipeline flagged"},
		{"site name the host gives", `<p>x</p>`, "https://www.golem.de/news/a.html", "Samsung soll Smartphones zerstören - Golem.de", "Samsung soll Smartphones zerstören"},
		{"host's name spaced", `<p>x</p>`, "https://apnews.com/article/x", "Campaigns brace for a sprint | AP News", "Campaigns brace for a sprint"},
		{"a subtitle stays", `<meta property="og:site_name" content="Port News">`, "", "Gym workouts for beginners — strength training", "Gym workouts for beginners — strength training"},
		{"a dash inside the headline stays", `<p>x</p>`, "https://news.example/a", "Mayor - and council - agree on budget", "Mayor - and council - agree on budget"},
		{"full-width bar", `<h1 id="h">気軽に新聞をスクラップできる「ペン」</h1>`, "", "気軽に新聞をスクラップできる「ペン」｜ガジェット通信", "気軽に新聞をスクラップできる「ペン」"},
		{"full-width hyphen, spaced", `<h1 id="h">インテル、容量1ペタバイトのSSD発売</h1>`, "", "インテル、容量1ペタバイトのSSD発売 － Publickey", "インテル、容量1ペタバイトのSSD発売"},
		{"underscores", `<h1 id="h">这个约会软件想帮你找对象</h1>`, "", "这个约会软件想帮你找对象_智能_好奇心日报", "这个约会软件想帮你找对象"},
		{"a kicker stays", `<h1 id="h">Australian teenager dies</h1>`, "", "Laos methanol poisonings: Australian teenager dies", "Laos methanol poisonings: Australian teenager dies"},
		{"no separator", `<h1 id="h">Ferry returns</h1>`, "", "Ferry returns", "Ferry returns"},
		{"heading with many more words after it", `<h1 id="h">Budget</h1>`, "", "Budget | the council agrees on a budget after a long night of talks in the town hall", "Budget | the council agrees on a budget after a long night of talks in the town hall"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, tc.page)
			var u *nurl.URL
			if tc.url != "" {
				u, _ = nurl.Parse(tc.url)
			}
			if got := headlineOf(tc.title, find(doc, "h"), doc, u, nil); got != tc.want {
				t.Errorf("headlineOf(%q) = %q, want %q", tc.title, got, tc.want)
			}
		})
	}
}

func TestOnlyHeadline(t *testing.T) {
	for _, tc := range []struct {
		name, page, want string
	}{
		{"the one headline", `<header><a href="/">Port News</a></header><article><h1>Ferry back in service after storm</h1><p>Text.</p></article>`, "Ferry back in service after storm"},
		{"two", `<h1>Ferry back in service after storm</h1><h1>Orchestra season opens in the old hall</h1>`, ""},
		{"a site's name", `<h1>Port News</h1>`, ""},
		// Regression: a Chinese or Japanese headline, written without
		// spaces, was one word; two characters count as one.
		{"a Chinese headline", `<h1>市议会决定关闭渡轮码头</h1>`, "市议会决定关闭渡轮码头"},
		{"a Chinese section's name", `<h1>国际新闻</h1>`, ""},
		{"a label before something else", `<h1>A message from the editor of Port News:</h1>`, ""},
		{"navigation's aside", `<div data-neardup-region="nav"><h1>Most read stories this week</h1></div><h1>Ferry back in service after storm</h1>`, "Ferry back in service after storm"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			if h := onlyHeadline(parse(t, tc.page)); h != nil {
				got = Text(h)
			}
			if got != tc.want {
				t.Errorf("onlyHeadline = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestEscapedTwice(t *testing.T) {
	for in, want := range map[string]string{
		"And finally&#8230; trouble brewing": "And finally… trouble brewing",
		"Fish &amp; chips":                   "Fish & chips",
		"AT&T and R&D; Q&A":                  "AT&T and R&D; Q&A",
		"Plain title":                        "Plain title",
	} {
		if got := escapedTwice(in); got != want {
			t.Errorf("escapedTwice(%q) = %q, want %q", in, got, want)
		}
	}
}
