package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// searchPathNames reads a search_path as PostgreSQL does.
func TestSearchPathNames(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		want       []string
	}{
		{"default", `"$user", public`, []string{"ann", "public"}},
		{"one", "news", []string{"news"}},
		{"unquoted folded", " News , Wire2 ", []string{"news", "wire2"}},
		{"quoted kept", `"News", "a,b", "say ""hi"""`, []string{"News", "a,b", `say "hi"`}},
		{"unquoted user", "$user", []string{"ann"}},
		{"empty", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, searchPathNames(tc.path, "ann")); diff != "" {
				t.Errorf("searchPathNames(%q) (-want +got):\n%s", tc.path, diff)
			}
		})
	}
}
