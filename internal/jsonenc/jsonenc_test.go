package jsonenc

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzAppendString checks that any string encodes exactly as encoding/json
// encodes it with HTML escaping off, for strings and byte slices alike.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"plain", "q\"\\\n\r\t\x00\x1f", "\xff\xfe é \u2028 \u2029", "\ufffd", "<a&b>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		w := bytes.TrimSuffix(want.Bytes(), []byte("\n"))
		if got := AppendString(nil, s); !bytes.Equal(got, w) {
			t.Errorf("%q: got %s, encoding/json writes %s", s, got, w)
		}
		if got := AppendString(nil, []byte(s)); !bytes.Equal(got, w) {
			t.Errorf("%q as bytes: got %s, encoding/json writes %s", s, got, w)
		}
	})
}
