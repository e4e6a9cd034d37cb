package enginetest

import (
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

// ReadFixture reads a sketch fixture of an older format: n lines of hex,
// the parts of one sketch as the binary of that format wrote them (the
// index part, then the detail part); a line "-" is an empty part.
func ReadFixture(t testing.TB, path string, n int) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(data))
	if len(lines) != n {
		t.Fatalf("%s holds %d lines, want %d", path, len(lines), n)
	}
	parts := make([][]byte, n)
	for i, l := range lines {
		if l == "-" {
			continue // an empty part
		}
		if parts[i], err = hex.DecodeString(l); err != nil {
			t.Fatalf("%s line %d: %v", path, i+1, err)
		}
	}
	return parts
}
