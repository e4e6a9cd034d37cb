package output

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// A blockWriter writes exactly the bytes given, whatever the sizes of the
// writes and where the last block ends, with direct I/O and without.
func TestBlockWriterWritesEveryByte(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	dir := t.TempDir()
	for _, total := range []int{0, 1, blockSize - 1, blockSize, blockSize + 1, 3*blockSize + 17, 1 << 16, 5<<16 + 4095} {
		for _, direct := range []bool{true, false} {
			path := filepath.Join(dir, "out")
			f, opened, err := openDirect(path)
			if !direct && err == nil {
				f.Close()
				f, opened, err = must(os.Create(path))
			}
			if err != nil {
				t.Fatal(err)
			}
			w := newBlockWriter(f, direct && opened, 4*blockSize)
			var want bytes.Buffer
			for want.Len() < total {
				n := min(r.IntN(3*4*blockSize), total-want.Len())
				p := make([]byte, n)
				for i := range p {
					p[i] = byte(r.Uint32())
				}
				want.Write(p)
				if _, err := w.Write(p); err != nil {
					t.Fatal(err)
				}
				if r.IntN(4) == 0 && want.Len() < total {
					want.WriteByte('\n')
					if err := w.WriteByte('\n'); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := w.Flush(); err != nil {
				t.Fatalf("%d bytes, direct %v: %v", total, direct, err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want.Bytes()) {
				t.Errorf("%d bytes, direct %v (opened for it: %v): the file has %d bytes, not those written", total, direct, opened, len(got))
			}
		}
	}
}

// A write error is kept and returned from then on, as bufio.Writer does.
func TestBlockWriterKeepsItsError(t *testing.T) {
	f, err := os.Open(os.DevNull) // read-only: writes fail
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := newBlockWriter(f, false, blockSize)
	if _, err := w.Write(make([]byte, 2*blockSize)); err == nil {
		t.Fatal("a write to a read-only file succeeded")
	}
	if _, err := w.Write([]byte("x")); err == nil {
		t.Error("the error was not kept")
	}
	if err := w.Flush(); err == nil {
		t.Error("Flush lost the error")
	}
}

// Where a direct write is refused (here: at a file offset off the block,
// EINVAL), the writer turns direct I/O off and writes the same bytes
// through the page cache.
func TestBlockWriterFallsBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out")
	f, direct, err := openDirect(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if !direct {
		t.Skipf("%s refuses direct I/O at open: no direct write to refuse", path)
	}
	if _, err := f.Seek(1, 0); err != nil {
		t.Fatal(err)
	}
	want := make([]byte, 3*blockSize+100)
	for i := range want {
		want[i] = byte(i*7 + i/blockSize)
	}
	w := newBlockWriter(f, true, 2*blockSize)
	if _, err := w.Write(want); err != nil {
		t.Fatal(err)
	}
	if w.direct {
		t.Skip("the file system took a direct write off the block: nothing refused")
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1+len(want) || !bytes.Equal(got[1:], want) {
		t.Errorf("the file has %d bytes, not the %d written after the first", len(got), len(want))
	}
}

func must(f *os.File, err error) (*os.File, bool, error) { return f, false, err }
