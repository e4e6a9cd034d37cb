package corpus

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/internal/extract/rules"
)

// TestRecordsCarryTheirNotes: each decoded record carries the notes the
// Reader counts of it, a date no layout reads (Record.UnreadDate) and a
// site rule's body that matched nothing (Record.RuleMiss), skipped records
// too, so that a caller that takes fewer records than were decoded counts
// those it took. Regression: only the Reader counted them, of every record
// decoded, and `neardup index add --strict` warned of a date not read on a
// line after the bad one it stopped at, which its workers had decoded
// ahead.
func TestRecordsCarryTheirNotes(t *testing.T) {
	dir := t.TempDir()
	page := "<html><head><title>A story</title></head><body><article><h1>A story</h1><p>The council approved the new " +
		"budget for the river bridge on Monday after a long debate.</p></article></body></html>"
	writeFiles(t, dir, map[string]string{
		"a.jsonl": `{"id":"1","text":"x","date":"2024-05-01"}` + "\n" +
			`{"id":"2","text":"x","date":"the 1st of May"}` + "\n" +
			`{"id":"3","text":"x","date":0.5}` + "\n" +
			`{"id":"4","text":"x","date":true}` + "\n" +
			`{"id":"5","text":"x","date":"someday","x":"` + "\xff" + `"}` + "\n" + // skipped after its date
			`{"id":"6","date":"someday"}` + "\n", // skipped before it
		"b.csv": "id,text,date\n7,x,someday\n8,x,\n",
		"c.sgm": `<REUTERS NEWID="9"><DATE>garbage date</DATE><TEXT><BODY>A story with a date no one reads.</BODY></TEXT></REUTERS>` + "\n" +
			`<REUTERS NEWID="10"><DATE>garbage date</DATE><TEXT><TITLE>A brief</TITLE></TEXT></REUTERS>`,
		"d.html": page,
	})
	t.Chdir(dir)
	rs, err := rules.Parse([]byte("version: 1\nrules:\n  - name: daily\n    body: '.story-body'\n"), "rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	o := Options{}
	o.Extract.Rules = rs
	r, err := Open([]string{"a.jsonl", "b.csv", "c.sgm", "d.html"}, o)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var dates, misses []string
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		if rec.UnreadDate != "" {
			dates = append(dates, rec.UnreadDate)
		}
		if rec.RuleMiss != "" {
			misses = append(misses, rec.RuleMiss)
		}
	}
	want := []string{`"the 1st of May" at a.jsonl:2`, `"0.5" at a.jsonl:3`, `a JSON boolean at a.jsonl:4`, `"someday" at a.jsonl:5`,
		`"someday" at b.csv:2`, `"garbage date" at c.sgm:1`, `"garbage date" at c.sgm:2`}
	if diff := cmp.Diff(want, dates); diff != "" {
		t.Errorf("the records' unread dates (-want +got)\n%s", diff)
	}
	if n, first := r.UnreadDates(); n != len(dates) || len(dates) == 0 || first != dates[0] {
		t.Errorf("the Reader counts %d unread dates (first %s), the records %d", n, first, len(dates))
	}
	if n, first := r.RuleMisses(); n != 1 || !slices.Equal(misses, []string{first}) {
		t.Errorf("the Reader counts %d rule misses (first %s), the records %q", n, first, misses)
	}
}

// TestNotesFirstInInputOrder: the first date not read and the first page
// a site rule's body matched nothing on, which the Reader gives with its
// counts, are the first in input order however the records are decoded:
// in reverse, or on goroutines that each decode a block of them, a date
// not read starting each block. Regression: the first noted was the first
// decoded, a later record's when a worker ahead got there first, so that
// stats.json named line 290 or line 1 from one run to the next.
func TestNotesFirstInInputOrder(t *testing.T) {
	const lines, workers = 400, 4
	page := "<html><head><title>A story</title></head><body><article><h1>A story</h1><p>The council approved the new " +
		"budget for the river bridge on Monday after a long debate.</p></article></body></html>"
	var jsonl strings.Builder
	for i := range lines {
		date := "2024-05-01"
		if i%(lines/workers) == 0 {
			date = "someday"
		}
		fmt.Fprintf(&jsonl, `{"id":"%d","text":"x","date":%q}`+"\n", i, date)
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.html": page, "b.jsonl": jsonl.String(), "c.html": page})
	t.Chdir(dir)
	rs, err := rules.Parse([]byte("version: 1\nrules:\n  - name: daily\n    body: '.story-body'\n"), "rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	o := Options{}
	o.Extract.Rules = rs
	for _, tc := range []struct {
		name   string
		decode func(r *Reader, raws []Raw, recs []Record)
	}{
		{"in reverse", func(r *Reader, raws []Raw, recs []Record) {
			for i := len(raws) - 1; i >= 0; i-- {
				recs[i] = r.Decode(raws[i])
			}
		}},
		{"a block a goroutine", func(r *Reader, raws []Raw, recs []Record) {
			var wg sync.WaitGroup
			size := (len(raws) + workers - 1) / workers
			for from := 0; from < len(raws); from += size {
				wg.Go(func() {
					for i := from; i < min(from+size, len(raws)); i++ {
						recs[i] = r.Decode(raws[i])
					}
				})
			}
			wg.Wait()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Open([]string{"a.html", "b.jsonl", "c.html"}, o)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			var raws []Raw
			for {
				raw, err := r.NextRaw()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				raws = append(raws, raw)
			}
			recs := make([]Record, len(raws))
			tc.decode(r, raws, recs)
			var dates, misses []string
			for _, rec := range recs {
				if rec.UnreadDate != "" {
					dates = append(dates, rec.UnreadDate)
				}
				if rec.RuleMiss != "" {
					misses = append(misses, rec.RuleMiss)
				}
			}
			if len(dates) != workers || dates[0] != `"someday" at b.jsonl:1` || len(misses) != 2 || !strings.HasPrefix(misses[0], "a.html: ") {
				t.Fatalf("the records' notes: dates %q, misses %q", dates, misses)
			}
			if n, first := r.UnreadDates(); n != len(dates) || first != dates[0] {
				t.Errorf("UnreadDates: %d, first %s; want %d, first %s", n, first, len(dates), dates[0])
			}
			if n, first := r.RuleMisses(); n != len(misses) || first != misses[0] {
				t.Errorf("RuleMisses: %d, first %s; want %d, first %s", n, first, len(misses), misses[0])
			}
		})
	}
}

// TestLongDateNotQuotedWhole: a date value not read that is a long text (a
// column mistaken for the date) is quoted by its first 80 bytes, cut at a
// character's start, in its note: the warning, stats.json and every entry
// of a checkpoint's journal hold the note.
func TestLongDateNotQuotedWhole(t *testing.T) {
	long := "a" + strings.Repeat("é", 45) + strings.Repeat("word ", 200) // byte 80 inside an "é"
	r := &Reader{}
	note := r.unreadDate(long, "a.jsonl:1", 0)
	want := strconv.Quote(long[:79]+"…") + " at a.jsonl:1"
	if note != want {
		t.Errorf("note %q, want %q", note, want)
	}
	if n, first := r.UnreadDates(); n != 1 || first != want {
		t.Errorf("counted %d, first %q", n, first)
	}
}
