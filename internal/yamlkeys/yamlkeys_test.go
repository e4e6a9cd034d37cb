package yamlkeys

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

// TestRead pins the keys read of a mapping, aliases and merge keys
// followed, and the mistakes refused with the line of the key at fault.
func TestRead(t *testing.T) {
	want := []string{"url", "interval", "rule"}
	for _, tc := range []struct {
		name, src string
		keys      map[string]string // key: value, of a string value
		err       *Error
	}{
		{"plain", "url: a\ninterval: 1h\n", map[string]string{"url": "a", "interval": "1h"}, nil},
		{"an alias", "x: &i 2h\nm:\n  url: a\n  interval: *i\n", map[string]string{"url": "a", "interval": "2h"}, nil},
		{"a merge key, the mapping's own first", "base: &b {url: b, interval: 1h}\nm:\n  <<: *b\n  url: a\n",
			map[string]string{"url": "a", "interval": "1h"}, nil},
		{"a merge of a list", "b1: &b1 {url: b}\nb2: &b2 {interval: 1h}\nm:\n  <<: [*b1, *b2]\n", map[string]string{"url": "b", "interval": "1h"}, nil},
		{"an unknown key", "url: a\nintervall: 1h\n", nil, &Error{2, `unknown key "intervall" (want one of url, interval, rule)`}},
		{"a key twice", "url: a\nurl: b\n", nil, &Error{2, `key "url" given twice`}},
		{"an unknown key merged", "base: &b {urll: b}\nm:\n  <<: *b\n", nil, &Error{1, `unknown key "urll" (want one of url, interval, rule)`}},
		{"a merge of no mapping", "s: &s text\nm:\n  <<: *s\n", nil, &Error{1, "<<: want a mapping, or a list of mappings, to merge"}},
		// Regressions: a mapping merging itself, or one merging it, was
		// read again without end, to a stack overflow.
		{"a merge of its own mapping", "m: &a\n  url: a\n  <<: *a\n", nil,
			&Error{3, "<<: merges the mapping it is in, or one merging it: it would repeat without end"}},
		{"a merge of a mapping merging it", "m: &a\n  url: a\n  <<: [&b {<<: *a}]\n", nil,
			&Error{3, "<<: merges the mapping it is in, or one merging it: it would repeat without end"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(tc.src), &doc); err != nil {
				t.Fatal(err)
			}
			m := doc.Content[0]
			if last := m.Content[len(m.Content)-1]; m.Content[len(m.Content)-2].Value == "m" {
				m = last // the mapping under m, after the anchors it uses
			}
			vals, err := Read(m, want)
			var e *Error
			if tc.err != nil {
				if !errors.As(err, &e) || *e != *tc.err {
					t.Errorf("error %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for k, v := range vals {
				got[k] = v.Value
			}
			if diff := cmp.Diff(tc.keys, got); diff != "" {
				t.Errorf("keys (-want +got)\n%s", diff)
			}
		})
	}
}

// TestReadMergesOnce: a mapping merged by many is read once. Each of 40
// mappings merging the one before twice was read again each time: 2^40
// reads.
func TestReadMergesOnce(t *testing.T) {
	var src strings.Builder
	src.WriteString("a0: &a0 {url: a}\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&src, "a%d: &a%d {<<: [*a%d, *a%d]}\n", i, i, i-1, i-1)
	}
	src.WriteString("m: {<<: *a40, interval: 1h}\n")
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src.String()), &doc); err != nil {
		t.Fatal(err)
	}
	m := doc.Content[0].Content[len(doc.Content[0].Content)-1]
	done := make(chan error, 1)
	go func() {
		vals, err := Read(m, []string{"url", "interval"})
		if err == nil && (vals["url"] == nil || vals["url"].Value != "a") {
			err = fmt.Errorf("keys %v, want url a merged", vals)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Read of 40 mappings each merging the one before twice: not done in 10s")
	}
}
