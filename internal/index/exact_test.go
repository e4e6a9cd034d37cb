package index

import "testing"

// TestHeadlineSlug: a slug counts when it is made of the headline's words;
// a section's name beside an id is not.
func TestHeadlineSlug(t *testing.T) {
	for _, tc := range []struct {
		slug, title string
		want        bool
	}{
		{"storm-hits-the-coast", "Storm hits the coast", true},
		{"storm-hits-the-coast", "Storm hits the coast: thousands leave their homes", true},
		{"storm-hits-coast-thousands-flee", "Storm hits the coast", false}, // 3 of 5 words is under two thirds
		{"uk-england-london", "Man charged after London bus crash", false},
		{"world-us-canada", "US and Canada agree on border rules", false}, // two words only
		{"storm-hits-the-coast", "", false},
		{"sturm-trifft-die-kueste", "Storm hits the coast", false},
		// Sites write their slugs without the headline's accents.
		{"elections-europeennes-macron-dissout-l-assemblee", "Élections européennes : Macron dissout l'Assemblée", true},
		{"sao-paulo-tera-rodizio-de-agua", "São Paulo terá rodízio de água", true},
		{"шторм-обрушился-на-побережье", "Шторм обрушился на побережье", true}, // a path's own letters
	} {
		if got := headlineSlug(tc.slug, tc.title); got != tc.want {
			t.Errorf("headlineSlug(%q, %q) = %v, want %v", tc.slug, tc.title, got, tc.want)
		}
	}
}
