package output

import (
	"bytes"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/corpus"
)

// TestRejectPlace reads records that are not used, a Parquet file's and a
// JSONL file's, under names that tell their format and under names that do
// not (standard input is read as "stdin"), and checks that rejects.jsonl
// places a Parquet record by its row and any other by its line.
func TestRejectPlace(t *testing.T) {
	type row struct {
		ID   string `parquet:"id"`
		Text string `parquet:"text"`
	}
	var pq bytes.Buffer
	w := parquet.NewGenericWriter[row](&pq)
	if _, err := w.Write([]row{{"a", "A text long enough to read."}, {"b", ""}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	jsonl := `{"id":"a","text":"A text long enough to read."}` + "\n" + `{"id":"b","text":""}` + "\n"
	noIDs := `{"text":"A text long enough to read."}` + "\n" + `{"text":""}` + "\n"
	for _, tc := range []struct {
		name, input, data string
		want              []Reject
	}{
		{"parquet file", "news.parquet", pq.String(), []Reject{
			{File: "news.parquet", Row: 1, ID: "a", Reason: "too-short", Error: "not compared: too short to compare"},
			{File: "news.parquet", Row: 2, ID: "b", Reason: "empty", Field: "text", Error: "empty"},
		}},
		// The bug: a Parquet file read from standard input was placed by
		// line, as its name does not say Parquet.
		{"parquet stdin", "stdin", pq.String(), []Reject{
			{File: "stdin", Row: 1, ID: "a", Reason: "too-short", Error: "not compared: too short to compare"},
			{File: "stdin", Row: 2, ID: "b", Reason: "empty", Field: "text", Error: "empty"},
		}},
		{"jsonl stdin", "stdin", jsonl, []Reject{
			{File: "stdin", Line: 1, ID: "a", Reason: "too-short", Error: "not compared: too short to compare"},
			{File: "stdin", Line: 2, ID: "b", Reason: "empty", Field: "text", Error: "empty"},
		}},
		// A document without an id of its own is named by its origin in
		// every file of the run, its line of rejects.jsonl included (it had
		// no id), as an export of an index names it; a record the reader
		// skipped never became a document, and its place names it.
		{"jsonl without ids", "news.jsonl", noIDs, []Reject{
			{File: "news.jsonl", Line: 1, ID: "news.jsonl:1", Reason: "too-short", Error: "not compared: too short to compare"},
			{File: "news.jsonl", Line: 2, Reason: "empty", Field: "text", Error: "empty"},
		}},
		// The second object of an array on one line is "news.json:1#2":
		// its file is news.json, its line 1.
		{"json array on one line", "news.json", `[{"text":"A text long enough to read."},{"text":""}]`, []Reject{
			{File: "news.json", Line: 1, ID: "news.json:1", Reason: "too-short", Error: "not compared: too short to compare"},
			{File: "news.json", Line: 1, Reason: "empty", Field: "text", Error: "empty"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := corpus.OpenReader(tc.input, bytes.NewReader([]byte(tc.data)), corpus.Options{SinglePass: true})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			var got []Reject
			for {
				rec, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if rec.Skip != core.SkipNone {
					got = append(got, *RejectRecord(rec))
				} else {
					got = append(got, *RejectDocument(&rec, core.SkipTooShort, Limits{}))
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("rejects (-want +got)\n%s", diff)
			}
		})
	}
}
