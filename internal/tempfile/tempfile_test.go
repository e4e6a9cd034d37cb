package tempfile

import (
	"io"
	"os"
	"runtime"
	"testing"
)

// TestCreateLeavesNoName pins that a temporary file's name is gone from its
// directory while it is written and read (on Unix: a run killed leaves
// nothing), and that Close leaves nothing anywhere.
func TestCreateLeavesNoName(t *testing.T) {
	dir := t.TempDir()
	f, err := Create(dir, "neardup-test-*")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("some text"); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		if f.Named() {
			t.Error("Named() = true, want the name removed at once")
		}
		if left := list(t, dir); len(left) != 0 {
			t.Errorf("while the file is open, %s holds %q, want nothing", dir, left)
		}
	}
	got, err := io.ReadAll(io.NewSectionReader(f, 0, 9))
	if err != nil || string(got) != "some text" {
		t.Errorf("read back %q, %v; want %q", got, err, "some text")
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if left := list(t, dir); len(left) != 0 {
		t.Errorf("after Close, %s holds %q, want nothing", dir, left)
	}
}

func list(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}
