package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// padSketch is a sketch of the test codec: an ordinal and how many bytes
// its detail part pads it to.
type padSketch struct {
	ord int32
	pad int
}

// padCodec encodes a padSketch as its ordinal (index part) and pad bytes
// of it (detail part).
type padCodec struct{}

func (padCodec) AppendIndex(dst []byte, s *padSketch) []byte {
	return binary.LittleEndian.AppendUint32(dst, uint32(s.ord))
}

func (padCodec) AppendDetail(dst []byte, s *padSketch) []byte {
	return append(dst, bytes.Repeat([]byte{byte(s.ord)}, s.pad)...)
}

func (padCodec) DecodeIndex(b []byte) (*padSketch, error) {
	if len(b) != 4 {
		return nil, errors.New("index part of 4 bytes expected")
	}
	return &padSketch{ord: int32(binary.LittleEndian.Uint32(b))}, nil
}

func (padCodec) DecodeDetail(b []byte) (*padSketch, error) { return &padSketch{pad: len(b)}, nil }

func (c padCodec) DecodeSketch(index, detail []byte) (*padSketch, error) {
	s, err := c.DecodeIndex(index)
	if err != nil {
		return nil, err
	}
	for _, x := range detail {
		if x != byte(s.ord) {
			return nil, errors.New("detail part of another sketch")
		}
	}
	s.pad = len(detail)
	return s, nil
}

// countedFile counts the reads of a spill file.
type countedFile struct {
	*os.File
	reads, most int
}

func (f *countedFile) ReadAt(p []byte, off int64) (int, error) {
	f.reads++
	f.most = max(f.most, len(p))
	return f.File.ReadAt(p, off)
}

// spillPads writes the sketches of pads to a sketch file as a Batch spills
// them, from ordinal 0; a pad below 0 is a document the method skipped.
func spillPads(t *testing.T, pads []int) (*spiller[padSketch, noEvidence], *countedFile) {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "sketches"))
	if err != nil {
		t.Fatal(err)
	}
	cf := &countedFile{File: f}
	t.Cleanup(func() { f.Close() })
	p := &spiller[padSketch, noEvidence]{from: 0}
	if p.sketches, err = newSpillWriter(func(string) (SpillFile, error) { return cf, nil }, "sketches"); err != nil {
		t.Fatal(err)
	}
	var c padCodec
	for i, pad := range pads {
		if pad >= 0 {
			s := &padSketch{ord: int32(i), pad: pad}
			idx := c.AppendIndex(nil, s)
			buf := c.AppendDetail(append(binary.AppendUvarint(nil, uint64(len(idx))), idx...), s)
			if err := p.sketches.write(buf); err != nil {
				t.Fatal(err)
			}
		}
		p.ends = append(p.ends, p.sketches.size)
	}
	if err := p.sketches.w.Flush(); err != nil {
		t.Fatal(err)
	}
	return p, cf
}

type noEvidence struct{}

func (noEvidence) Method() string { return "test" }

// TestReadBack pins that the readers of verification give each spilled
// sketch asked for, nil for a skipped document, and that runReader reads
// sketches close together in one read, of readBackRun bytes at most, and
// seeks past a gap of more than readBackGap bytes.
func TestReadBack(t *testing.T) {
	// 0-299: small sketches side by side; 300: skipped; 301: a gap of
	// twice readBackGap; 302-303 small.
	pads := make([]int, 304)
	for i := range pads {
		pads[i] = 8000 + i
	}
	pads[300], pads[301] = -1, 2*readBackGap
	check := func(t *testing.T, ord int32, s *padSketch, err error) {
		t.Helper()
		switch {
		case err != nil:
			t.Fatalf("document %d: %v", ord, err)
		case pads[ord] < 0 && s != nil:
			t.Fatalf("document %d, skipped, read as %+v", ord, *s)
		case pads[ord] >= 0 && (s == nil || s.ord != ord || s.pad != pads[ord]):
			t.Fatalf("document %d read as %+v", ord, s)
		}
	}
	var want []int32
	for i := range int32(300) {
		want = append(want, i)
	}
	want = append(want, 300, 302, 303)
	t.Run("runReader", func(t *testing.T) {
		p, f := spillPads(t, pads)
		r := runReader[padSketch, noEvidence]{p: p, m: padCodec{}}
		r.reset(want)
		for _, ord := range want {
			s, err := r.next()
			check(t, ord, s, err)
		}
		// 0-299 take 2.4 MB: three reads of 1 MiB at most; 302-303 one more.
		if f.reads != 4 || f.most > readBackRun {
			t.Errorf("%d reads, the largest %d bytes; want 4 of %d at most", f.reads, f.most, readBackRun)
		}
		f.reads = 0
		r.reset([]int32{5, 150, 299, 302})
		for _, ord := range []int32{5, 150, 299, 302} {
			s, err := r.next()
			check(t, ord, s, err)
		}
		if f.reads != 4 {
			t.Errorf("%d reads of four sketches far apart, want 4", f.reads)
		}
	})
	t.Run("sketchReader", func(t *testing.T) {
		p, _ := spillPads(t, pads)
		r := sketchReader[padSketch, noEvidence]{p: p, m: padCodec{}, at: -1}
		for _, ord := range []int32{0, 1, 7, 150, 299, 300, 301, 303} {
			s, err := r.read(ord)
			check(t, ord, s, err)
		}
	})
}
