package corpus

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// A DECIMAL's scale is the file's to say, unchecked: one far beyond its
// digits (a file damaged, or written by a careless tool) is written as a
// number with an exponent, at once. Its digits were padded with zeros one
// at a time, each pad copying them all: a scale of 2,000,000 took minutes
// and one of 2^31−1 never ended; a negative scale was left out (15e2 as 15).
func TestParquetDecimalScale(t *testing.T) {
	for _, tc := range []struct {
		name  string
		scale int
		v     int32
		want  string
	}{
		{"small", 3, -5, `-0.005`},
		{"huge", 2_000_000, 1234, `1234e-2000000`},
		{"huge negative", 2_000_000, -1234, `-1234e-2000000`},
		{"largest", 1<<31 - 1, 7, `7e-2147483647`},
		{"negative", -2, 15, `15e2`},
		{"zeros", 66, 15, `0.` + strings.Repeat("0", 64) + `15`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			schema := parquet.NewSchema("row", parquet.Group{
				"text":  parquet.String(),
				"price": parquet.Decimal(tc.scale, 9, parquet.Int32Type),
			})
			var b bytes.Buffer
			w := parquet.NewWriter(&b, schema)
			if err := w.Write(map[string]any{"text": "Text.", "price": tc.v}); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"a.parquet": b.String()})
			got, err := readAll(t, []string{filepath.Join(dir, "a.parquet")}, Options{}, config{})
			if err != nil {
				t.Fatal(err)
			}
			if want := `{"price":` + tc.want + `,"text":"Text."}`; len(got) != 1 || got[0].Raw != want {
				t.Errorf("got %.200v, want %s", got, want)
			}
		})
	}
}
