package output

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkEarlier measures what telling an earlier run's files costs a
// walk, a file at a time, against the stat the walk makes of each entry
// anyway (stat): text files, which Earlier does not open, and JSON files
// of documents, which it opens and reads the first bytes of.
func BenchmarkEarlier(b *testing.B) {
	dir := b.TempDir()
	var txt, json []string
	for i := range 1000 {
		for _, ext := range []string{"txt", "json"} {
			p := filepath.Join(dir, fmt.Sprintf("d%04d.%s", i, ext))
			if err := os.WriteFile(p, []byte(`{"id":"d","text":"A story of some length, told once."}`), 0o644); err != nil {
				b.Fatal(err)
			}
			if ext == "txt" {
				txt = append(txt, p)
			} else {
				json = append(json, p)
			}
		}
	}
	for _, tc := range []struct {
		name  string
		files []string
		f     func(string) bool
	}{
		{"stat", txt, func(p string) bool { _, err := os.Stat(p); return err != nil }},
		{"text", txt, Earlier},
		{"json", json, Earlier},
	} {
		b.Run(tc.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				if tc.f(tc.files[i%len(tc.files)]) {
					b.Fatal("a document told for an earlier run's file")
				}
				i++
			}
		})
	}
}
