package extract

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPageStandfirst(t *testing.T) {
	// The summary under the headline, laid out in the header apart from
	// the body and given as the page's description, opens the text; not
	// twice when the body opens with it, nor when it stands away from the
	// headline or the page does not describe itself so.
	const dek = "The council agreed on the harbour's budget after a long night of talks, and the ferry runs again."
	body := `<div class="body"><p>` + paragraph(0) + `</p><p>` + paragraph(1) + `</p><p>` + paragraph(2) + `</p></div>`
	page := func(meta, header, article string) string {
		return `<!DOCTYPE html><html><head><title>Harbour budget agreed</title>` + meta + `</head><body><main><header><h1>Harbour budget agreed</h1>` +
			header + `</header>` + article + `</main></body></html>`
	}
	described := `<meta name="description" content="` + dek + `">`
	cut := `<meta property="og:description" content="` + dek[:70] + `…">`
	longer := `<meta name="description" content="` + dek + ` ` + paragraph(0) + `">`
	for _, tc := range []struct {
		name, page string
		opens      bool // the text opens with the standfirst
		count      int  // how many times the text holds it
	}{
		{"the summary in the header", page(described, `<p class="dek">`+dek+`</p>`, body), true, 1},
		{"described cut short", page(cut, `<p class="dek">`+dek+`</p>`, body), true, 1},
		{"after a dateline", page(described, `<p class="dek"><span>Berlin.</span> `+dek+`</p>`, body), true, 1},
		{"the body opens with it", page(described, ``, `<div class="body"><p>`+dek+`</p><p>`+paragraph(0)+`</p><p>`+paragraph(1)+`</p></div>`), true, 1},
		{"the headline in a breadcrumb trail", `<!DOCTYPE html><html><head><title>Harbour budget agreed</title>` + described +
			`</head><body><main><header><section><div class="breadcrumb"><a href="/news">News</a><h1>Harbour budget agreed</h1></div><p class="teaser">` + dek +
			`</p></section></header>` + body + `</main></body></html>`, true, 1},
		{"the headline in a menu's breadcrumb trail", `<!DOCTYPE html><html><head><title>Harbour budget agreed</title>` + described +
			`</head><body><main><header><nav><div><ul><li><a href="/">Home</a></li><li><h1>Harbour budget agreed</h1></li></ul></div></nav>` +
			`<div><div class="lead"><span>` + dek + `</span></div></div></header>` + body + `</main></body></html>`, true, 1},
		{"in the heading's own region, its quotes not the description's", `<!DOCTYPE html><html><head><title>Harbour budget agreed</title>` +
			`<meta name="description" content="` + strings.ReplaceAll(dek, "harbour's", "harbour’s") + `">` +
			`</head><body><main><div class="category-detail"><div class="category-detail-left"><h1 class="category-detail-title">Harbour budget agreed</h1>` +
			`<h4 class="category-detail-sub-title">` + dek + `</h4></div></div>` + body + `</main></body></html>`, true, 1},
		{"four levels above the headline", `<!DOCTYPE html><html><head><title>Harbour budget agreed</title>` + described +
			`</head><body><main><article><div><div><div><div><h1>Harbour budget agreed</h1></div></div></div><div><p>` + dek +
			`</p></div></div>` + body + `</article></main></body></html>`, true, 1},
		{"described with the lead after it", page(longer, `<p class="dek">`+dek+`</p>`, body), true, 1},
		{"described with the lead, the body opening with it", page(longer, ``, `<div class="body"><p>`+dek+`</p><p>`+paragraph(0)+`</p><p>`+paragraph(1)+`</p></div>`), true, 1},
		{"not described", page(``, `<p class="dek">`+dek+`</p>`, body), false, 0},
		{"away from the headline", `<!DOCTYPE html><html><head><title>Harbour budget agreed</title>` + described +
			`</head><body><div><div><div><div><h1>Harbour budget agreed</h1></div></div></div></div>` + body + `<aside class="promo"><p>` + dek + `</p></aside></body></html>`, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _ := extractPage(t, tc.page, Options{MinChars: -1})
			a.Text = strings.TrimPrefix(a.Text, "Berlin. ")
			if got := strings.HasPrefix(a.Text, dek[:60]); got != tc.opens {
				t.Errorf("opens with the standfirst: %v, want %v\n%s", got, tc.opens, a.Text)
			}
			if got := strings.Count(a.Text, dek[:60]); got != tc.count {
				t.Errorf("holds it %d times, want %d\n%s", got, tc.count, a.Text)
			}
		})
	}
}

func TestDescriptions(t *testing.T) {
	const d = "The council agreed on the harbour's budget after a long night of talks, and the ferry runs again"
	for _, tc := range []struct {
		name, html string
		want       []string
	}{
		{"in the head", `<html><head><meta name="description" content="` + d + `."></head><body><p>x</p></body></html>`, []string{d}},
		{"the site's name after it", `<html><head><meta property="og:description" content="` + d + `. | Harbour News"></head><body></body></html>`, []string{d}},
		{"streamed late into the body", `<html><head><meta charset="utf-8"></head><body><p>x</p><title>Budget</title><meta name="description" content="` + d + `"></body></html>`, []string{d}},
		{"the head's only, when it has one", `<html><head><meta name="description" content="` + d + `"></head><body><meta name="description" content="` + strings.ToUpper(d) + `"></body></html>`, []string{d}},
		{"too short", `<html><head><meta name="description" content="Harbour news"></head><body></body></html>`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, descriptions(parse(t, tc.html))); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestPageTitlesStreamed(t *testing.T) {
	doc := parse(t, `<html><head><meta charset="utf-8"></head><body><div>x</div><title>Ferry  Fares Rise</title><meta property="og:title" content="Ferry fares rise"></body></html>`)
	if diff := cmp.Diff([]string{"ferry fares rise", "ferry fares rise"}, pageTitles(doc)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestPageHeading(t *testing.T) {
	for _, tc := range []struct {
		name, html, want string
	}{
		{"the heading in the title", `<html><head><title>Ferry fares rise | Harbour News</title></head><body><h1>Ferry fares rise</h1></body></html>`, "Ferry fares rise"},
		{"a kicker before the title", `<html><head><meta property="og:title" content="Ferry fares rise from June"></head><body><h2>Teaser</h2><h1><span>Harbour :</span> Ferry fares rise from June</h1></body></html>`,
			"Harbour : Ferry fares rise from June"},
		{"another heading", `<html><head><title>Ferry fares rise from June</title></head><body><h1>Harbour News</h1><h2>Weather</h2></body></html>`, ""},
		// Regression: a Chinese or Japanese heading under 15 characters
		// was never the page's heading; a Han or kana character counts
		// twice, so eight make a heading as 15 letters do.
		{"a short Chinese heading", `<html><head><title>市议会决定关闭渡轮码头_新浪网</title></head><body><h1>市议会决定关闭渡轮码头</h1></body></html>`, "市议会决定关闭渡轮码头"},
		{"a short Japanese heading", `<html><head><title>フェリー乗り場閉鎖へ：朝日新聞デジタル</title></head><body><h1>フェリー乗り場閉鎖へ</h1></body></html>`, "フェリー乗り場閉鎖へ"},
		{"a section's name in the title", `<html><head><title>春節連假旅遊 出遠門前先回診諮詢 | 生活新聞 | 今日新聞網</title></head><body><h2>生活新聞</h2></body></html>`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			if h := pageHeading(parse(t, tc.html)); h != nil {
				got = squash(Text(h))
			}
			if got != tc.want {
				t.Errorf("heading %q, want %q", got, tc.want)
			}
		})
	}
}
