package corpus

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestScanRecord(t *testing.T) {
	deep := strings.Repeat("[", maxDepth-1) + strings.Repeat("]", maxDepth-1)
	tooDeep := strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth)
	for _, tc := range []struct {
		name             string
		in               string
		valid, isObject  bool
		text, id, idKind string
	}{
		{name: "plain", in: `{"text":"a","id":"x"}`, valid: true, isObject: true, text: "a", id: "x", idKind: "string"},
		{name: "spaces", in: " \t{ \"text\" :\r\n\"a\" , \"id\" : -0.5e+3 } ", valid: true, isObject: true, text: "a", id: "-0.5e+3", idKind: "number"},
		{name: "nested values skipped", in: `{"a":{"text":"no","b":[1,true,false,null,{}]},"text":"yes"}`, valid: true, isObject: true, text: "yes", idKind: "missing"},
		{name: "escaped key", in: `{"t\u0065xt":"a"}`, valid: true, isObject: true, text: "a", idKind: "missing"},
		{name: "empty object", in: `{}`, valid: true, isObject: true, idKind: "missing"},
		{name: "nesting at the limit", in: `{"a":` + deep + `}`, valid: true, isObject: true, idKind: "missing"},
		{name: "nesting over the limit", in: `{"a":` + tooDeep + `}`, idKind: "missing", isObject: true},
		{name: "array", in: `[1]`, valid: true, idKind: "missing"},
		{name: "trailing garbage", in: `{} x`, isObject: true, idKind: "missing"},
		{name: "two objects", in: `{}{}`, isObject: true, idKind: "missing"},
		{name: "trailing comma", in: `{"a":1,}`, isObject: true, idKind: "missing"},
		{name: "leading zero", in: `{"a":01}`, isObject: true, idKind: "missing"},
		{name: "bare minus", in: `{"a":-}`, isObject: true, idKind: "missing"},
		{name: "dot without digits", in: `{"a":1.}`, isObject: true, idKind: "missing"},
		{name: "bad escape", in: `{"a":"\x"}`, isObject: true, idKind: "missing"},
		{name: "short unicode escape", in: `{"a":"\u12"}`, isObject: true, idKind: "missing"},
		{name: "control character", in: "{\"a\":\"\t\"}", isObject: true, idKind: "missing"},
		{name: "unterminated", in: `{"a":"x`, isObject: true, idKind: "missing"},
		{name: "bad literal", in: `{"a":tru}`, isObject: true, idKind: "missing"},
		{name: "invalid UTF-8 in a string is valid JSON", in: "{\"text\":\"\xff\"}", valid: true, isObject: true, text: "\xff", idKind: "missing"},
		{name: "empty", in: ``, idKind: "missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			keys := keysOf(Options{})
			var vals [nFields]jsonValue
			valid, isObject := scanRecord([]byte(tc.in), &keys, &vals)
			if valid != json.Valid([]byte(tc.in)) {
				t.Errorf("valid %v disagrees with json.Valid", valid)
			}
			type result struct {
				Valid, IsObject  bool
				Text, ID, IDKind string
			}
			got := result{valid, isObject, vals[fText].text(), vals[fID].text(), vals[fID].kind.String()}
			want := result{tc.valid, tc.isObject, tc.text, tc.id, tc.idKind}
			if !valid {
				got.Text, got.ID, got.IDKind = tc.text, tc.id, tc.idKind // values of an invalid line are not used
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func keysOf(o Options) (keys [nFields][]byte) {
	o, _ = o.withDefaults()
	for f, n := range o.names() {
		keys[f] = []byte(n)
	}
	return keys
}

// FuzzScanJSON checks the scanner against encoding/json: the same lines are
// valid, and a valid top-level string field decodes to the same text when
// it is UTF-8.
func FuzzScanJSON(f *testing.F) {
	for _, s := range []string{`{"text":"a\u00e9\ud83d\ude00","id":12}`, `{"text":"\ud800\u0041"}`, `[1,{"a":[]}]`, `{"a":-0.1e-2}`, `"\/"`, `{"text":"\"\\"}`} {
		f.Add([]byte(s))
	}
	keys := keysOf(Options{})
	f.Fuzz(func(t *testing.T, line []byte) {
		var vals [nFields]jsonValue
		valid, isObject := scanRecord(line, &keys, &vals)
		if valid != json.Valid(line) {
			t.Fatalf("valid %v, json.Valid %v", valid, !valid)
		}
		if !valid || !isObject {
			return
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("object rejected by encoding/json: %v", err)
		}
		v := &vals[fText]
		if v.kind != vString || !v.exact {
			return
		}
		got := v.text()
		want, ok := m["text"].(string)
		if ok && utf8.ValidString(got) && got != want {
			t.Errorf("text %q, encoding/json %q", got, want)
		}
	})
}

// TestHasStrSpecial holds the eight-byte test to the byte table: for every
// byte at every place among safe bytes of each kind (ASCII, UTF-8, the
// bytes next to the specials), and for random words.
func TestHasStrSpecial(t *testing.T) {
	plain := func(v uint64) bool {
		for range 8 {
			if !strSafe[byte(v)] {
				return true
			}
			v >>= 8
		}
		return false
	}
	for _, fill := range []byte{'a', ' ', 0xC3, 0xFF, '"' + 1, '"' - 1, '\\' + 1, '\\' - 1, 0x20, 0x80} {
		for place := range 8 {
			for c := range 256 {
				var v uint64
				for i := range 8 {
					b := fill
					if i == place {
						b = byte(c)
					}
					v |= uint64(b) << (8 * i)
				}
				if got, want := hasStrSpecial(v), plain(v); got != want {
					t.Fatalf("hasStrSpecial(%#016x) = %v, want %v", v, got, want)
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200000 {
		v := rng.Uint64()
		if got, want := hasStrSpecial(v), plain(v); got != want {
			t.Fatalf("hasStrSpecial(%#016x) = %v, want %v", v, got, want)
		}
	}
}
