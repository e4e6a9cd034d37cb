package engine

import (
	"errors"
	"fmt"
	"strconv"
	"testing"

	"github.com/neardup/neardup/core"
)

// TestDuplicateIDNamesBothPlaces pins the message of a repeated id, with
// origins and without (a library caller that gives ids only; the message
// read ": id "0" repeats the id of ").
func TestDuplicateIDNamesBothPlaces(t *testing.T) {
	for _, tc := range []struct {
		name   string
		docs   []core.Document
		want   string
		origin string
	}{
		{"origins", []core.Document{{ID: "0", Origin: "a.jsonl:1"}, {ID: "1", Origin: "a.jsonl:2"}, {ID: "0", Origin: "b.jsonl:1"}},
			`b.jsonl:1: id "0" repeats the id of a.jsonl:1`, "b.jsonl:1"},
		{"no origins", []core.Document{{ID: "0"}, {ID: "1"}, {ID: "0"}},
			`document 3: id "0" repeats the id of document 1`, "document 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tab docTable
			var err error
			for i := range tc.docs {
				if _, err = tab.add(&tc.docs[i]); err != nil {
					break
				}
			}
			var dup *DuplicateIDError
			if !errors.As(err, &dup) || err.Error() != tc.want || dup.Origin != tc.origin || dup.ID != "0" {
				t.Errorf("error %v, want %s", err, tc.want)
			}
		})
	}
}

// TestDocTableFindsEveryRepeat adds enough ids to grow the id index many
// times, every fifth one a repeat of an earlier id (the empty id too), and
// checks that each repeat names the first document of its id and nothing
// else is taken for one.
func TestDocTableFindsEveryRepeat(t *testing.T) {
	var tab docTable
	first := map[string]int32{}
	for i := range 30000 {
		id := strconv.Itoa(i * 7)
		if i%5 == 4 {
			id = strconv.Itoa((i / 2) / 7 * 7 * 7)
		}
		if i == 10 || i == 20 {
			id = ""
		}
		ord, err := tab.add(&core.Document{ID: id})
		want, seen := first[id]
		var dup *DuplicateIDError
		switch {
		case seen && (!errors.As(err, &dup) || dup.First != "document "+strconv.Itoa(int(want)+1)):
			t.Fatalf("id %q again at %d: error %v, want one naming document %d", id, i, err, want+1)
		case !seen && err != nil:
			t.Fatalf("new id %q at %d: %v", id, i, err)
		case !seen:
			first[id] = ord
		}
	}
	if len(tab.ids) != len(first) {
		t.Errorf("%d ids kept, %d distinct", len(tab.ids), len(first))
	}
}

// BenchmarkDocTableAdd adds a million documents of 8-character ids, as a
// Batch of a million does while it reads.
func BenchmarkDocTableAdd(b *testing.B) {
	docs := make([]core.Document, 1_000_000)
	for i := range docs {
		docs[i] = core.Document{ID: fmt.Sprintf("d%07d", i), Origin: "c.jsonl:" + strconv.Itoa(i+1)}
	}
	for b.Loop() {
		var tab docTable
		for i := range docs {
			if _, err := tab.add(&docs[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestShown: a score is written with four decimals unless they put it on
// the other side of a bound, then with the digits that keep it on its own.
func TestShown(t *testing.T) {
	below := func(bound float64) func(float64) bool { return func(v float64) bool { return v < bound } }
	above := func(bound float64) func(float64) bool { return func(v float64) bool { return v >= bound } }
	for _, tc := range []struct {
		score float64
		same  func(float64) bool
		want  float64
	}{
		{0.123456, above(0.1), 0.1235},
		{0.6999876, below(0.7), 0.69999},
		{0.69999996, below(0.7), 0.69999996},
		{0.70004, above(0.70004), 0.70004},
	} {
		if got := Shown(tc.score, tc.same); got != tc.want {
			t.Errorf("Shown(%v): %v, want %v", tc.score, got, tc.want)
		}
	}
}

// TestShownDecimals: the decimals a score may be written with run from four,
// rounded as core.Round rounds, to 17, and a method that stops at one
// stops the run there.
func TestShownDecimals(t *testing.T) {
	var got []Decimals
	for d := range ShownDecimals {
		got = append(got, d)
	}
	if len(got) != 14 || got[0] != 4 || got[13] != 17 {
		t.Errorf("ShownDecimals: %v, want 4 to 17", got)
	}
	for _, tc := range []struct{ x, want float64 }{
		{0, 0}, {0.00005, 0.0001}, {0.00004999, 0}, {0.12345, 0.1235}, {0.12346, 0.1235},
		{0.69995, 0.7}, {0.99995, 1}, {1, 1}, {0.30000000000000004, 0.3}, {2.0 / 3, 0.6667},
	} {
		if r := Decimals(4).Round(tc.x); r != tc.want {
			t.Errorf("Decimals(4).Round(%v): %v, want %v", tc.x, r, tc.want)
		}
	}
	if r := Decimals(6).Round(2.0 / 3); r != 0.666667 {
		t.Errorf("Decimals(6).Round(2/3): %v, want 0.666667", r)
	}
	n := 0
	for d := range ShownDecimals {
		if n++; d == 5 {
			break
		}
	}
	if n != 2 {
		t.Errorf("a loop that stops at five decimals ran %d times, want 2", n)
	}
}
