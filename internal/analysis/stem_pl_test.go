package analysis

import (
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/blevesearch/stempel"
)

// TestPolishTableLeavesNoName pins that the Polish stemming table, unpacked
// to a temporary file for stempel, which opens tables by path only, has no
// name in TMPDIR while stempel reads it: a run killed then left the 6 MB
// file there. The table it loads stems.
func TestPolishTableLeavesNoName(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	opened := 0
	stempelOpen = func(path string) (stempel.Trie, error) {
		opened++
		if es, err := os.ReadDir(tmp); strings.HasPrefix(path, "/dev/fd/") && (err != nil || len(es) != 0) {
			t.Errorf("while stempel opens %s, TMPDIR holds %v (%v), want nothing", path, es, err)
		}
		return stempel.Open(path)
	}
	defer func() { stempelOpen = stempel.Open }()
	trie, err := loadPolishTrie()
	if err != nil {
		t.Fatal(err)
	}
	if opened == 0 {
		t.Fatal("stempel was not called")
	}
	w := []rune("prezydenta")
	if got := string(stempel.Diff(w, trie.GetLastOnPath(w))); got != "prezydent" {
		t.Errorf("the table stems prezydenta to %q, want prezydent", got)
	}
	if es, err := os.ReadDir(tmp); err != nil || len(es) != 0 {
		t.Errorf("after loading, TMPDIR holds %v (%v), want nothing", es, err)
	}
}

// TestPolishTableNamedLeavesNoName pins the table's load where a file
// without a name cannot be opened by path (no /dev/fd): it is written
// under a name, which is gone once the table is loaded (but on Windows,
// where stempel's open handle keeps it).
func TestPolishTableNamedLeavesNoName(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	trie, err := unpackPolishTrie(true)
	if err != nil {
		t.Fatal(err)
	}
	w := []rune("prezydenta")
	if got := string(stempel.Diff(w, trie.GetLastOnPath(w))); got != "prezydent" {
		t.Errorf("the table stems prezydenta to %q, want prezydent", got)
	}
	if es, err := os.ReadDir(tmp); runtime.GOOS != "windows" && (err != nil || len(es) != 0) {
		t.Errorf("after loading, TMPDIR holds %v (%v), want nothing", es, err)
	}
}
