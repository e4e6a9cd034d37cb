package yamlkeys

import (
	"errors"
	"testing"

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
