package enginetest

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
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

// StationsFixture checks a fixture of a sketch of the table Rainfall(7)
// with rain at two stations ("33.0 MILLIMETRES", "5.0 MM"), as the binary
// of the format before templates.Scanner.Measures wrote it (path: the
// index part, then the detail part): it decodes with the four places that
// format read (24 hours, 0800 and the two stations with rain), the
// options of an index of that format (old) sketch the table into those
// very bytes, and the defaults (cur) make format, whose first detail byte
// it is, with a place at each of the fourteen stations, twelve of NIL
// (the figure 0). slots gives a sketch's places.
func StationsFixture[S any](t *testing.T, path string, old, cur engine.Sketching[S], slots func(*S) []uint64, format byte) {
	t.Helper()
	parts := ReadFixture(t, path, 2)
	doc := Rainfall(7, RainfallReadings(map[int]string{9: "33.0 MILLIMETRES", 10: "5.0 MM"})...)
	sk, err := old.DecodeSketch(parts[0], parts[1])
	if err != nil {
		t.Fatalf("a sketch of the format before does not decode: %v", err)
	}
	if got := slots(sk); len(got) != 4 {
		t.Errorf("decoded: places %x; want four (24 hours, 0800 and the two stations with rain)", got)
	}
	fresh, _ := old.NewSketcher().Sketch(&doc)
	if i, d := old.AppendIndex(nil, fresh), old.AppendDetail(nil, fresh); !bytes.Equal(i, parts[0]) || !bytes.Equal(d, parts[1]) {
		t.Errorf("the options of an index of the format before sketch other bytes than it did:\n index  %x\n detail %x", i, d)
	}
	s, _ := cur.NewSketcher().Sketch(&doc)
	if got, detail := slots(s), cur.AppendDetail(nil, s); len(got) != 16 || ZeroPlaces(got) != 12 || detail[0] != format {
		t.Errorf("the defaults sketch format %d, places %x; want %d with sixteen places, twelve of NIL", detail[0], got, format)
	}
}
