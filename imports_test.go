package neardup_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsRunOneWay checks the package map's rules of who may import
// whom: the index's clients (the server, the web UI, the watcher) declare
// the methods they use in the public package's types and get them from a
// *neardup.Index, knowing neither the index's package nor the store; the
// command line opens indexes through the public API only; the engine knows
// neither the index nor the store.
func TestImportsRunOneWay(t *testing.T) {
	const mod = "github.com/neardup/neardup/"
	clients := []string{"internal/store", "internal/index"}
	for _, tc := range []struct {
		dir    string
		denied []string
	}{
		{"internal/server", clients},
		{"internal/server/api", clients},
		{"internal/server/browse", clients},
		{"internal/server/httperr", clients},
		{"internal/webui", clients},
		{"internal/watch", clients},
		{"cmd/neardup", []string{"internal/index"}},
		{"internal/engine", []string{"internal/store", "internal/index"}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			imports := packageImports(t, tc.dir)
			for _, d := range tc.denied {
				if imports[mod+d] != "" {
					t.Errorf("%s imports %s (in %s)", tc.dir, d, imports[mod+d])
				}
			}
		})
	}
}

// packageImports returns the imports of the package in dir (its test
// files left out), each with a file that imports it.
func packageImports(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s: %v", dir, err)
	}
	out := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			out[p] = f
		}
	}
	return out
}
