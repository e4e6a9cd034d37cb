package simhash

import (
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
)

// forecast is a city's weather bulletin of one day, long enough that a
// sample keeps a quarter of its shingles, the city's name in few of them,
// often none, and that the bulletins of two cities lie a few bits apart.
func forecast(city, rain string) string {
	return strings.ToUpper(city) + ", May 2 (Weather Desk) - The forecast for " + city + " for Thursday, May 2: morning sunshine " +
		"will give way to clouds by the afternoon. The high will reach 24 degrees Celsius, with an overnight low of 14 degrees.\n\n" +
		"Winds will blow from the west at 21 kilometres per hour, with gusts of up to 40 kilometres per hour on exposed ground. " +
		"The chance of rain is " + rain + " percent.\n\nHumidity will be around 45 percent in the afternoon. The UV index will be 5, " +
		"and residents are advised to use sun protection around midday.\n\nLooking ahead, the weather will stay unsettled over the " +
		"next two days, with highs between 22 and 27 degrees. Drivers should expect crosswinds on bridges and elevated roads.\n\n" +
		"Sunrise is at 5:52 a.m. and sunset at 8:16 p.m. The weather desk updates its forecasts every six hours.\n\n" +
		"Air quality is expected to be moderate, and pollen levels will be high for most of the day. People with allergies " +
		"are advised to keep windows closed in the morning.\n\nThe weather in the surrounding region will be similar, with hill " +
		"areas seeing temperatures a few degrees lower than in the city and a greater chance of showers late in the evening.\n\n" +
		"Farmers should expect dry conditions for the harvest, and boaters are warned of choppy water on the lakes in the afternoon. " +
		"The highway department said its crews would be on standby through the weekend."
}

// bulletin is forecast as a document: its title names the city.
func bulletin(id, city, rain string, minute int) core.Document {
	return core.Document{ID: id, Title: city + " weather: high of 24C on Thursday", Text: forecast(city, rain),
		Date: time.Date(2024, 5, 2, 6, minute, 0, 0, time.UTC)}
}

// TestNamesPastTheCut: the bulletins of two cities, one template filled
// in with another city, lie a few bits apart, and at the defaults
// (--sample-size 256) the samples keep too few of their shingles to hold
// either city's name: a name past the other sample's cut is looked up in
// that document's filter of its words (templates.Context.WordFilter), not
// taken as held, so that each names what the other does not and the two
// are not duplicates. They were a duplicate, at Jaccard 0.95, foreign names [2 0]. A
// city's bulletin sent again stays one report.
func TestNamesPastTheCut(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b core.Document
		want core.Label
	}{
		{"bulletins of two cities whose names lie past the samples' cut are two reports",
			bulletin("a", "Tucson", "30", 0), bulletin("b", "Raleigh", "35", 10), core.Similar},
		{"a city's bulletin sent again is one report",
			bulletin("a", "Tucson", "30", 0), bulletin("b", "Tucson", "30", 40), core.Duplicate},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := enginetest.Batch(t, Spec, Defaults(), []core.Document{tc.a, tc.b})["a~b"]
			ev, ok := p.Evidence.(Evidence)
			if !ok || ev.Distance > Defaults().Distance {
				t.Fatalf("not candidates: %+v", p)
			}
			if p.Label != tc.want {
				t.Errorf("label %q, want %q (foreign names %v, Jaccard %.3f)", p.Label, tc.want, ev.ForeignNames, ev.Jaccard)
			}
		})
	}
}
