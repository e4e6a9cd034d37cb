package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIndexSummaryCountsEachRecordOnce: of five records, one malformed (an
// id that is an object), one too short to compare (stored all the same,
// status added, "skipped": "too-short") and three stored, index add's
// summary counts each record once: the too-short one among the documents
// added and said apart as not compared, the malformed one skipped.
// Regression: "4 documents added (2 skipped: 1 malformed, 1 too-short)"
// counted the too-short one twice, summing to six.
func TestIndexSummaryCountsEachRecordOnce(t *testing.T) {
	dir := t.TempDir()
	long := "A long enough news text about the town hall meeting that ran late into the night with many speakers."
	in := filepath.Join(dir, "ids.jsonl")
	lines := []string{
		`{"id":{"x":1},"text":"` + long + `"}`,
		`{"id":"a","text":"` + long + `"}`,
		`{"id":"b","text":"` + long + ` And one more sentence."}`,
		`{"id":"c","text":"Another long enough text, of a council vote on the budget for two new schools in the district."}`,
		`{"id":"short","text":"override"}`,
	}
	if err := os.WriteFile(in, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "ids.db")
	code, stdout, stderr := runChild(t, "index", "add", "--db", db, in)
	if code != 0 || !strings.Contains(stdout, `{"id":"short","status":"added","skipped":"too-short"`) {
		t.Fatalf("index add: exit code %d, want 0 and the short record added, not compared\n%s\n%s", code, stdout, stderr)
	}
	if want := "5 records: 4 documents added, 1 not compared (1 too-short), 1 skipped (1 malformed);"; !strings.Contains(stderr, want) {
		t.Errorf("index add's summary lacks %q:\n%s", want, stderr)
	}
	code, _, stderr = runChild(t, "index", "query", "--db", db, in)
	if want := "5 records: 0 documents checked, 4 already stored, 1 not compared (1 too-short), 1 skipped (1 malformed);"; code != 0 || !strings.Contains(stderr, want) {
		t.Errorf("index query: exit code %d, want 0 and a summary with %q:\n%s", code, want, stderr)
	}
}
