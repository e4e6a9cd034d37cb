package enginetest

import (
	"fmt"
	"time"

	"github.com/neardup/neardup/core"
)

// rainfall is the template of a wire table of the rainfall at fourteen
// stations of a coffee region, in three zones, filled in by fmt.Sprintf
// with the day of April and each station's reading.
const rainfall = "CAMPINAS, APRIL %d - THE FOLLOWING RAINFALL WAS MEASURED AT STATIONS IN THE COFFEE BELT IN THE " +
	"24 HOURS TO 0800 LOCAL TIME, THE STATE WEATHER OFFICE SAID.\n\n" +
	"NORTHERN ZONE: ALTO BONITO %s, BOA ESPERA %s, CAMPO LINDO %s, MORRO AZUL %s, VARGEM ALTA %s.\n\n" +
	"CENTRAL ZONE: LAGOA SECA %s, PORTO FELIZ %s, SANTA LUZIA %s, VILA NOVA %s, CORREGO FUNDO %s.\n\n" +
	"SOUTHERN ZONE: PEDRA FUNDA %s, RIBEIRAO CLARO %s, SERRA NEGRA %s, TRES BARRAS %s.\n"

// RainfallStations is how many readings Rainfall takes.
const RainfallStations = 14

// Rainfall returns the wire table of the rainfall at fourteen stations of a
// coffee region in the 24 hours to April day, 2024, as such a table
// writes it: each reading is a station's, in turn, "NIL" for none or a
// value with its unit ("33.0 MILLIMETRES", "5.0 MM"); ID "rain-<day>".
// Two days' tables are one template filled in twice: the same words,
// other readings at the same stations, not a duplicate.
func Rainfall(day int, readings ...string) core.Document {
	if len(readings) != RainfallStations {
		panic(fmt.Sprintf("enginetest: %d readings of rainfall, want %d", len(readings), RainfallStations))
	}
	args := make([]any, 0, 1+len(readings))
	args = append(args, day)
	for _, r := range readings {
		args = append(args, r)
	}
	return core.Document{ID: fmt.Sprintf("rain-%d", day), Title: "COFFEE BELT RAINFALL", Text: fmt.Sprintf(rainfall, args...),
		Date: time.Date(2024, 4, day, 10, 5, 0, 0, time.UTC)}
}

// RainfallReadings returns readings for Rainfall: "NIL" at each station
// but those of rain, by their index (0 to RainfallStations-1), which read
// as it gives them ("33.0 MILLIMETRES").
func RainfallReadings(rain map[int]string) []string {
	r := make([]string, RainfallStations)
	for i := range r {
		r[i] = "NIL"
		if v, ok := rain[i]; ok {
			r[i] = v
		}
	}
	return r
}

// ZeroPlaces counts the places of slots (figures.Slots) that hold the
// value 0: its one digit 0, the eleven after it unused (0xF), as a station
// of NIL fills its place under templates.Scanner.Measures.
func ZeroPlaces(slots []uint64) int {
	n := 0
	for _, v := range slots {
		if v&(1<<48-1) == 0x0FFFFFFFFFFF {
			n++
		}
	}
	return n
}
