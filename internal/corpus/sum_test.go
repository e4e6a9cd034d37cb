package corpus

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sums reads r to its end and returns the sum of each record.
func sums(t *testing.T, r *Reader) []uint64 {
	t.Helper()
	var got []uint64
	for {
		raw, err := r.NextRaw()
		if errors.Is(err, io.EOF) {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, raw.Sum())
	}
}

// TestSum: a second reading of an input gives every record the sum the
// first gave it, of every format; a record changed between the readings,
// its size the same or not, gets another, and no other record does. A
// CSV or TSV header or a Parquet schema that changed, the rows' values the
// same, changes every row's sum: the second reading decodes the rows by
// it (a header "id,text,title" become "id,title,text" put the title in
// kept.jsonl as the text). So does a feed item's date read in another
// zone, the instant the same: kept.jsonl writes it otherwise; and an
// archive member at another position, its name the same (the repeated
// ids' messages name it: "member 2 of f4.tar").
func TestSum(t *testing.T) {
	for _, tc := range []struct {
		name, file   string
		input, after string // the file before and after the change
		changed      []int  // the records changed
	}{
		{"JSONL", "a.jsonl", "{\"id\":\"1\",\"text\":\"one two\"}\n{\"id\":\"2\",\"text\":\"three\"}\n",
			"{\"id\":\"1\",\"text\":\"one two\"}\n{\"id\":\"2\",\"text\":\"thre3\"}\n", []int{1}},
		{"CSV", "a.csv", "id,text\n1,one two\n2,three\n3,four\n", "id,text\n1,one two\n2,three and more\n3,four\n", []int{1}},
		{"text file", "a.txt", "One two three.\n", "One two three!\n", []int{0}},
		{"web page", "a.html", "<html><title>T</title><body><p>One two three.</p></body></html>",
			"<html><title>T</title><body><p>One two four.</p></body></html>", []int{0}},
		{"web feed", "a.rss", rssFeed, strings.Replace(rssFeed, "<b>in May</b>", "<b>in June</b>", 1), []int{0}},
		{"Parquet", "a.parquet", parquetOf(t, []news{{ID: 1, Text: str("one")}, {ID: 2, Text: str("two")}}, 1),
			parquetOf(t, []news{{ID: 1, Text: str("one")}, {ID: 2, Text: str("too")}}, 1), []int{1}},
		{"zip member", "a.zip", zipOf(t, member{"m/a.txt", "One."}, member{"m/b.txt", "Two."}),
			zipOf(t, member{"m/a.txt", "One."}, member{"m/b.txt", "Tow."}), []int{1}},
		{"SGML", "a.sgm", reut(1, "One two.") + reut(2, "Three four."), reut(1, "One two.") + reut(2, "Three five."), []int{1}},
		{"CSV header changed", "a.csv", "id,text,title\n1,one two,Head\n2,three,Foot\n",
			"id,title,text\n1,one two,Head\n2,three,Foot\n", []int{0, 1}},
		{"TSV header changed", "a.tsv", "id\ttext\ttitle\n1\tone two\tHead\n", "id\ttitle\ttext\n1\tone two\tHead\n", []int{0}},
		{"Parquet schema changed", "a.parquet", parquetOf(t, []pqTitleText{{1, "Head", "one two"}, {2, "Foot", "three"}}, 1),
			parquetOf(t, []pqTextTitle{{1, "Head", "one two"}, {2, "Foot", "three"}}, 1), []int{0, 1}},
		{"zip member moved", "a.zip", zipOf(t, member{"m/", ""}, member{"m/a.txt", "One."}, member{"m/b.txt", "Two."}),
			zipOf(t, member{"m/a.txt", "One."}, member{"m/", ""}, member{"m/b.txt", "Two."}), []int{0}},
		{"feed date zone changed", "a.rss", rssFeed, strings.Replace(rssFeed, "10:00:00 GMT", "10:00:00", 1), []int{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.file)
			writeFiles(t, filepath.Dir(path), map[string]string{tc.file: tc.input})
			r, err := Open([]string{path}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			first := sums(t, r)
			if err := r.Rewind(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(first, sums(t, r)); diff != "" {
				t.Errorf("the second reading's sums (-first +second):\n%s", diff)
			}
			if err := os.WriteFile(path, []byte(tc.after), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := r.Rewind(); err != nil {
				t.Fatal(err)
			}
			after := sums(t, r)
			if len(after) != len(first) {
				t.Fatalf("%d records after the change, %d before", len(after), len(first))
			}
			for i := range first {
				if same := first[i] == after[i]; same == slices.Contains(tc.changed, i) {
					t.Errorf("record %d: the sum the same after the change: %v", i, same)
				}
			}
		})
	}
}

// pqTitleText and pqTextTitle are Parquet rows of the same values (and
// their roots' names of one length), their columns named one way and the other.
type pqTitleText struct {
	ID    int64  `parquet:"id"`
	Title string `parquet:"title"`
	Text  string `parquet:"text"`
}

type pqTextTitle struct {
	ID    int64  `parquet:"id"`
	Title string `parquet:"text"`
	Text  string `parquet:"title"`
}

// reut is a Reuters-21578 story of the id and body.
func reut(id int, body string) string {
	return fmt.Sprintf("<REUTERS NEWID=\"%d\"><TEXT><TITLE>T</TITLE><BODY>%s</BODY></TEXT></REUTERS>\n", id, body)
}

// BenchmarkSum hashes JSONL lines of about 3 KB, a news article's size:
// the cost the second reading's check adds to each record, twice.
func BenchmarkSum(b *testing.B) {
	line := []byte(`{"id":"reut-1","title":"Rates rise","text":"` + strings.Repeat("The bank raised its rates again. ", 96) + `"}`)
	raw := Raw{Origin: "news.jsonl:1", kind: rawJSON, data: line}
	b.SetBytes(int64(len(line)))
	var s uint64
	for b.Loop() {
		s ^= raw.Sum()
	}
	_ = s
}
