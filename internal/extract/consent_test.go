package extract

import (
	"strings"
	"testing"
)

func TestDropPlaceholders(t *testing.T) {
	youtube := `<div class="box"><div class="info-box"><div class="h3">Recommended content</div>` +
		`<p>Here you find external content from YouTube that adds to the article. You can show it with one click.</p>` +
		`<input type="checkbox" id="t1"><label for="t1">Allow YouTube content</label>` +
		`<p>I consent to being shown content from YouTube. Personal data may be passed to third-party platforms; see our privacy policy.</p></div></div>`
	chart := `<div class="bpl5ibi"><div>Ein Klick für den Datenschutz</div><div>Erst wenn Sie hier klicken, werden die Grafiken nachgeladen. ` +
		`Ihre Zustimmung speichern wir in den Datenschutzeinstellungen.</div><button>Grafik laden</button></div>`
	for _, tc := range []struct {
		name, body string
		gone       []string
		kept       []string
	}{
		{"placeholders between paragraphs leave",
			`<article><h1>Budget passes</h1><p>` + paragraph(0) + `</p>` + youtube + `<p>` + paragraph(1) + `</p>` + chart + `<p>` + paragraph(2) + `</p><p>` + paragraph(3) + `</p><p>` + paragraph(4) + `</p></article>`,
			[]string{"external content from YouTube", "Allow YouTube", "Ein Klick", "Grafik laden"},
			[]string{paragraph(0), paragraph(1), paragraph(2)}},
		{"a short story about privacy with a share button stays",
			`<article><h1>Cookies fined</h1><div class="body"><p>The regulator fined the firm for setting cookies without consent and for its privacy notice.</p><button>Share</button></div></article>`,
			nil, []string{"fined the firm for setting cookies without consent"}},
		{"a box with a control that asks no consent stays",
			`<div><p>` + paragraph(3) + `</p><div class="more"><p>More on the vote in the council chamber.</p><button>Load more</button></div></div>`,
			nil, []string{"More on the vote", paragraph(3)}},
		{"a long text with consent words and a control stays",
			`<div class="story">` + strings.Repeat("<p>The privacy board asked for consent rules for every cookie the city sets on its pages.</p>", 12) + `<button>Print</button></div>`,
			nil, []string{"The privacy board asked"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, "<html><body>"+tc.body+"</body></html>")
			dropPlaceholders(doc)
			text := Text(doc)
			for _, g := range tc.gone {
				if strings.Contains(text, g) {
					t.Errorf("%q stayed:\n%s", g, text)
				}
			}
			for _, k := range tc.kept {
				if !strings.Contains(text, k) {
					t.Errorf("%q lost:\n%s", k, text)
				}
			}
		})
	}
}
