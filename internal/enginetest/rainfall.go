package enginetest

import (
	"bytes"
	"fmt"
	"slices"
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

// Volumes returns the hourly table of volumes of one column under a
// dateline ("NEW YORK, April 8 -"): each figure alone at its line's end,
// set in a column after its word.
func Volumes() core.Document {
	return core.Document{ID: "vol-10", Title: "COMEX ESTIMATED VOLUMES",
		Text: "NEW YORK, April 8 - The following are the estimated volumes traded on the New York Commodity " +
			"Exchange, in lots, the exchange said in its hourly report to members and clients.\n" +
			" Silver       8000\n Copper        900\n Gold         4500\n Aluminum      120\n Platinum      640\nReuter"}
}

// ColumnsFixture checks a fixture of a sketch of Volumes, as the binary of
// the format before templates.Scanner.Columns wrote it (path: the index
// part, then the detail part): it decodes, the words of its place without
// letters; the options of an index of that format (old) sketch the table
// into those very bytes; and the defaults (cur) make format, whose first
// detail byte it is, with other places (each figure in its row's last
// column) and the letters of the dateline's words. slots gives a sketch's
// places, letters the Letters of its names of places (templates.Place;
// templatestest.PlaceLetters).
func ColumnsFixture[S any](t *testing.T, path string, old, cur engine.Sketching[S], slots func(*S) []uint64, letters func(*S) []uint32, format byte) {
	t.Helper()
	parts := ReadFixture(t, path, 2)
	doc := Volumes()
	count := func(ls []uint32) (n int) {
		for _, l := range ls {
			if l != 0 {
				n++
			}
		}
		return n
	}
	sk, err := old.DecodeSketch(parts[0], parts[1])
	if err != nil {
		t.Fatalf("a sketch of the format before does not decode: %v", err)
	}
	if ls := letters(sk); len(ls) == 0 || count(ls) != 0 {
		t.Errorf("decoded: the letters of its place %x; want some words, none with letters", ls)
	}
	fresh, _ := old.NewSketcher().Sketch(&doc)
	if i, d := old.AppendIndex(nil, fresh), old.AppendDetail(nil, fresh); !bytes.Equal(i, parts[0]) || !bytes.Equal(d, parts[1]) {
		t.Errorf("the options of an index of the format before sketch other bytes than it did:\n index  %x\n detail %x", i, d)
	}
	s, _ := cur.NewSketcher().Sketch(&doc)
	if detail := cur.AppendDetail(nil, s); detail[0] != format {
		t.Errorf("the defaults sketch format %d, want %d", detail[0], format)
	}
	if slices.Equal(slots(s), slots(sk)) {
		t.Errorf("the defaults read the table's places as the format before did: %x", slots(s))
	}
	if ls := letters(s); len(ls) == 0 || count(ls) != len(ls) {
		t.Errorf("the defaults keep the letters of its place %x; want some words, each with letters", ls)
	}
}
