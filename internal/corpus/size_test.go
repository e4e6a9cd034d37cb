package corpus

import (
	"strings"
	"testing"
)

func TestRawSize(t *testing.T) {
	for _, tc := range []struct {
		name, file, data string
		want             int
	}{
		{"jsonl line", "a.jsonl", `{"id":"1","text":"hello world"}` + "\n", len(`{"id":"1","text":"hello world"}`)},
		{"csv row", "a.csv", "id,text\n7,hello there\n", len("7") + len("hello there")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := OpenReader(tc.file, strings.NewReader(tc.data), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			raw, err := r.NextRaw()
			if err != nil {
				t.Fatal(err)
			}
			if got := raw.Size(); got != tc.want {
				t.Errorf("Size() = %d, want %d", got, tc.want)
			}
		})
	}
}
