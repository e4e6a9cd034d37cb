package main

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/eval"
	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/watch"
)

// TestPrintedJSONIsLowerCase: every field of the values the commands print
// as JSON (index stats, feeds list and test --json, eval --json, extract, the pairs
// and clusters of dedup and index export) has a lower-case name of its
// own, as the API writes its fields, never a Go field name.
func TestPrintedJSONIsLowerCase(t *testing.T) {
	for _, v := range []any{index.IndexStats{}, watch.Stored{}, eval.Report{}, extract.Record{}, core.Pair{}, core.Cluster{}, watch.Trial{}} {
		checkJSONNames(t, reflect.TypeOf(v), reflect.TypeOf(v).String(), map[reflect.Type]bool{})
	}
}

var (
	marshaler     = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

func checkJSONNames(t *testing.T, ty reflect.Type, path string, seen map[reflect.Type]bool) {
	t.Helper()
	if seen[ty] || ty.Implements(marshaler) || reflect.PointerTo(ty).Implements(marshaler) ||
		ty.Implements(textMarshaler) || reflect.PointerTo(ty).Implements(textMarshaler) {
		return
	}
	seen[ty] = true
	switch ty.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		checkJSONNames(t, ty.Elem(), path+"[]", seen)
	case reflect.Struct:
		for i := range ty.NumField() {
			f := ty.Field(i)
			tag := f.Tag.Get("json")
			name, _, _ := strings.Cut(tag, ",")
			switch {
			case !f.IsExported() || name == "-":
				continue
			case f.Anonymous && name == "":
				checkJSONNames(t, f.Type, path, seen)
				continue
			case name == "" || name != strings.ToLower(name):
				t.Errorf("%s.%s is written as %q: give it a lower-case json name", path, f.Name, cmpOr(name, f.Name))
			}
			checkJSONNames(t, f.Type, path+"."+cmpOr(name, f.Name), seen)
		}
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
