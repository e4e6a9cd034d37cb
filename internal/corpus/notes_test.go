package corpus

import (
	"slices"
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
