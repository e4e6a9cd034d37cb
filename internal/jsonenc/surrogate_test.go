package jsonenc

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLoneSurrogate(t *testing.T) {
	for _, tc := range []struct {
		in   string // a JSON string literal
		want bool
	}{
		{`"plain"`, false},
		{`""`, false},
		{`"a\u00e9b"`, false},
		{`"\ud83d\ude00"`, false}, // a pair: U+1F600
		{`"\uD83D\uDE00"`, false},
		{`"x\ud800"`, true},
		{`"\ud800x"`, true},
		{`"\udc00"`, true},
		{`"\udc00\ud800"`, true},
		{`"\ud800\ud800"`, true},
		{`"\ud800\u0041"`, true},
		{`"\ud800\n"`, true},
		{`"\ud83d\ude00\udfff"`, true},
		{`"\\ud800"`, false}, // a backslash, then "ud800"
		{`"\\\ud800"`, true},
		{`"\ufffd"`, false},
		{`"\uDFFF"`, true},
		{`"\uE000"`, false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			if got := LoneSurrogate(tc.in); got != tc.want {
				t.Errorf("LoneSurrogate(%s) = %v, want %v", tc.in, got, tc.want)
			}
			if got := LoneSurrogate([]byte(tc.in[1 : len(tc.in)-1])); got != tc.want {
				t.Errorf("LoneSurrogate of the contents of %s = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}

// FuzzLoneSurrogate checks LoneSurrogate against encoding/json: a string
// without a lone surrogate decodes to what it escapes, U+FFFD only where
// it escapes or holds one.
func FuzzLoneSurrogate(f *testing.F) {
	for _, s := range []string{`"a"`, `"\ud800"`, `"\ud83d\ude00"`, `"\\ud800"`, `"\ufffd"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, lit string) {
		var s string
		if !utf8.ValidString(lit) || json.Unmarshal([]byte(lit), &s) != nil {
			return
		}
		if LoneSurrogate(lit) {
			if !strings.ContainsRune(s, utf8.RuneError) {
				t.Errorf("%s: a lone surrogate, but it decodes to %q, without U+FFFD", lit, s)
			}
			return
		}
		if want := strings.Count(lit, "\ufffd") + strings.Count(strings.ToLower(lit), `\ufffd`); strings.Count(s, "\ufffd") > want {
			t.Errorf("%s: no lone surrogate, but it decodes to %q, with more U+FFFD than it names", lit, s)
		}
	})
}
