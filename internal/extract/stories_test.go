package extract

import (
	nurl "net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestPageOtherStoryTakenForTheArticle(t *testing.T) {
	const own = `<div class="scroll"><h1>Ferry returns to the harbour</h1><p id="own">The ferry returned to the harbour on Monday, a week late, after the storm had kept it in port for seven days and nights. Its crew of twelve were greeted on the quay by their families and by the mayor, who thanked them for their patience.</p></div>`
	const taken = `<div class="scroll" id="taken"><h1>Storm closes the bridge</h1><p>The bridge was closed on Sunday night as the storm reached the coast, and it stays closed until engineers have checked every cable. Drivers are asked to take the road by the lake, which adds an hour to the journey to town, and buses will run every half hour instead.</p></div>`
	const other = `<div class="scroll"><h1>Market opens on Sunday</h1><p>The market opens on Sunday with forty stalls.</p></div>`
	for _, tc := range []struct {
		name, body string
		calls      int // 2 when the engine chooses again
		want       string
	}{
		{"two other stories", own + taken + other, 2, "The ferry returned"},
		{"one other story", own + taken, 1, "The bridge was closed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// An engine that takes the longer story classed like the
			// page's own while it is on the page.
			var calls int
			engine := func(doc *html.Node, u *nurl.URL) Found {
				calls++
				if f := firstWith("taken")(doc, u); f.Node != nil {
					return f
				}
				return firstWith("own")(doc, u)
			}
			page := `<!DOCTYPE html><html><head><title>Ferry returns to the harbour | Harbour News</title></head><body>` + tc.body + `</body></html>`
			a, _ := extractPage(t, page, Options{MinChars: -1, Engine: engine})
			if !strings.Contains(a.Text, tc.want) {
				t.Errorf("text %q, want %q in it", a.Text, tc.want)
			}
			if calls != tc.calls {
				t.Errorf("engine called %d times, want %d", calls, tc.calls)
			}
		})
	}
}
