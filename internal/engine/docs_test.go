package engine

import (
	"strings"
	"testing"

	"github.com/neardup/neardup/core"
)

// Every origin comes back as it was added, whatever its form, and runs of
// one file's records share its name.
func TestOriginsAsAdded(t *testing.T) {
	in := []string{"a.jsonl:1", "a.jsonl:2", "a.jsonl:10", "b.csv:3", "a.jsonl:11", "dir/x.txt",
		"dir/y.txt", "a.zip/m.txt", "a.zip/m.jsonl:4", "p:0", "p:007", "p:", ":", ":5", "", "c:\\dir\\f.txt",
		"a:b:3", "f:123456789", "f:1234567890", "f:4294967295", "f:-1", "f:1e3", "ü:2"}
	var o origins
	for _, s := range in {
		o.add(s)
	}
	for i, want := range in {
		if got := o.at(int32(i)); got != want {
			t.Errorf("origin %d: %q, want %q", i, got, want)
		}
	}
	if len(o.names) >= len(in)-1 {
		t.Errorf("%d names for %d origins: runs of a file not shared", len(o.names), len(in))
	}
}

// A repeated id is refused with the origins of both records.
func TestRepeatedIDNamesBothOrigins(t *testing.T) {
	var d docTable
	for i, origin := range []string{"in.jsonl:1", "in.jsonl:2", "in.jsonl:3"} {
		_, err := d.add(&core.Document{ID: []string{"a", "b", "a"}[i], Origin: origin, Text: "x"})
		if i < 2 && err != nil {
			t.Fatal(err)
		}
		if i == 2 && (err == nil || !strings.Contains(err.Error(), "in.jsonl:3") || !strings.Contains(err.Error(), "in.jsonl:1")) {
			t.Errorf("repeated id: %v", err)
		}
	}
}
