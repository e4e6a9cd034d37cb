package engine

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/neardup/neardup/core"
)

// Verification of a Batch that spilled reads the spilled sketches back in
// file order, never one at a time at random: the later documents of the
// candidate pairs come in windows, as many as the budget holds, read in
// one forward pass over the sketch file; for each window, the earlier
// documents its pairs name are read in chunks, in file order, those close
// together in one read, and the window's pairs whose earlier document is
// in the chunk are verified before the next chunk is read. An earlier
// sketch is read once for each window that needs it: at most once for
// each pair, as reading it for each pair did, but in order.

// readBackBuffer is the buffer of a sketchReader, and the gap between two
// sketches it reads past which it seeks instead of reading through.
const readBackBuffer = 256 << 10

// sketchReader reads spilled sketches in increasing ordinal order, not
// known in advance, through a buffer, reading through the ones between or
// seeking past them: the later documents of the pairs, most of them.
type sketchReader[S any, E core.Evidence] struct {
	p   *spiller[S, E]
	m   Codec[S]
	r   *bufio.Reader
	at  int64 // where in the file the next byte r gives is; -1 before the first read
	buf []byte
}

// read returns the sketch of the spilled ordinal ord, which is past those
// read before; nil for a document the method skipped.
func (r *sketchReader[S, E]) read(ord int32) (*S, error) {
	start, end := r.p.span(ord)
	if start == end {
		return nil, nil
	}
	switch {
	case r.at < 0 || start < r.at || start-r.at > readBackBuffer:
		sec := io.NewSectionReader(r.p.sketches.f, start, r.p.sketches.size-start)
		if r.r == nil {
			r.r = bufio.NewReaderSize(sec, readBackBuffer)
		} else {
			r.r.Reset(sec)
		}
	case start > r.at:
		if _, err := r.r.Discard(int(start - r.at)); err != nil {
			return nil, fmt.Errorf("engine: reading back a spilled sketch: %w", err)
		}
	}
	r.buf = slices.Grow(r.buf[:0], int(end-start))[:end-start]
	if _, err := io.ReadFull(r.r, r.buf); err != nil {
		return nil, fmt.Errorf("engine: reading back a spilled sketch: %w", err)
	}
	r.at = end
	return decodeSpilled(r.m, r.buf)
}

// readBackGap and readBackRun bound the reads of a runReader: sketches
// less than readBackGap bytes apart are read in one read, of readBackRun
// bytes at most (or one sketch). A disk reads 64 KiB in about the time it
// takes to seek (0.3 ms at 400 MB/s on the machine measured): past the
// page cache, reading through a gap is cheaper than a read of its own.
const (
	readBackGap = 64 << 10
	readBackRun = 1 << 20
)

// runReader reads the sketches of a sorted list of spilled ordinals, each
// run of them close together in the file in one read.
type runReader[S any, E core.Evidence] struct {
	p    *spiller[S, E]
	m    Codec[S]
	ords []int32
	i    int   // the next of ords to give
	end  int   // ords[i:end] are in buf
	at   int64 // where in the file buf starts
	buf  []byte
}

// reset starts reading the sketches of ords.
func (r *runReader[S, E]) reset(ords []int32) { r.ords, r.i, r.end = ords, 0, 0 }

// next returns the sketch of the next ordinal, nil for a document the
// method skipped.
func (r *runReader[S, E]) next() (*S, error) {
	if r.i == r.end {
		if err := r.fill(); err != nil {
			return nil, err
		}
	}
	start, end := r.p.span(r.ords[r.i])
	r.i++
	if start == end {
		return nil, nil
	}
	return decodeSpilled(r.m, r.buf[start-r.at:end-r.at])
}

// fill reads the run of sketches from ords[i] on.
func (r *runReader[S, E]) fill() error {
	start, end := r.p.span(r.ords[r.i])
	j := r.i + 1
	for ; j < len(r.ords); j++ {
		s, e := r.p.span(r.ords[j])
		if s-end > readBackGap || e-start > readBackRun {
			break
		}
		end = e
	}
	r.buf = slices.Grow(r.buf[:0], int(end-start))[:end-start]
	if _, err := r.p.sketches.f.ReadAt(r.buf, start); err != nil {
		return fmt.Errorf("engine: reading back spilled sketches: %w", err)
	}
	r.at, r.end = start, j
	return nil
}

// sketchSet holds sketches read back, by increasing ordinal.
type sketchSet[S any] struct {
	ords []int32
	sks  []*S
	size int64 // about how many bytes they take
}

func (s *sketchSet[S]) add(ord int32, sk *S, size int64) {
	s.ords, s.sks = append(s.ords, ord), append(s.sks, sk)
	s.size += size
}

func (s *sketchSet[S]) get(ord int32) (*S, bool) {
	i, ok := slices.BinarySearch(s.ords, ord)
	if !ok {
		return nil, false
	}
	return s.sks[i], true
}

func (s *sketchSet[S]) reset() {
	clear(s.sks)
	s.ords, s.sks, s.size = s.ords[:0], s.sks[:0], 0
}

// readBack is the Source of verification from read-back sketches: those
// held in memory, the window's and the chunk's.
type readBack[S any, E core.Evidence] struct {
	b          *batch[S, E]
	win, chunk sketchSet[S]
}

func (r *readBack[S, E]) Sketch(ord int32) (*S, error) {
	if !r.b.spill.spilling(ord) {
		return r.b.sketches[ord], nil
	}
	if s, ok := r.win.get(ord); ok {
		return s, nil
	}
	if s, ok := r.chunk.get(ord); ok {
		return s, nil
	}
	return nil, fmt.Errorf("engine: the spilled sketch of document %d was not read back", ord)
}

// source returns the Source for verifying the later document ord (see
// batch.source).
func (r *readBack[S, E]) source(ord int32) Source[S] {
	if r.b.window <= 0 {
		return r
	}
	return readBackWindow[S, E]{r, ord}
}

// readBackWindow is readBack under a news window, for the later document
// ord.
type readBackWindow[S any, E core.Evidence] struct {
	*readBack[S, E]
	ord int32
}

func (w readBackWindow[S, E]) Outside(other int32) bool { return w.b.outside(other, w.ord) }

// pairStream gives the candidate pairs (later<<32 | earlier) of the pair
// files in order, each file read into memory, sorted and made distinct
// once the one before is used up.
type pairStream struct {
	files []*spillWriter
	next  int
	buf   []uint64
	recs  []uint64 // what is left of the file read last
}

// peek returns the next pair; false at the end.
func (s *pairStream) peek() (uint64, bool, error) {
	for len(s.recs) == 0 {
		if s.next == len(s.files) {
			return 0, false, nil
		}
		var err error
		if s.buf, err = s.files[s.next].words(s.buf); err != nil {
			return 0, false, err
		}
		s.next++
		slices.Sort(s.buf)
		s.buf = slices.Compact(s.buf)
		s.recs = s.buf
	}
	return s.recs[0], true, nil
}

// verifier verifies the pairs of a Batch that spilled (see the top of this
// file).
type verifier[S any, E core.Evidence] struct {
	b       *batch[S, E]
	workers int
	pairs   pairStream
	src     readBack[S, E]
	later   *sketchReader[S, E] // the later documents, in one pass
	earlier runReader[S, E]     // the earlier ones, a pass for each window

	// The window: its later documents, each one's sketch and where its
	// pairs start in recs (and the one after the last's end), and how
	// far its pairs are verified.
	docs   []int32
	sks    []*S
	starts []int
	recs   []uint64
	cur    []int
	blocks []block[E]
	// next is the later document read back but left to the next window.
	next struct {
		ord  int32
		sk   *S
		size int64
		ok   bool
	}
	need []int32 // the spilled earlier documents the window's pairs name
}

// cache returns how many bytes the read-back sketches and the window's
// pairs may take: what the budget leaves of five eighths of it besides
// the documents and sketches held and the pairs found (the rest is the
// collector's room and what the run holds uncounted), and a 32nd of it
// at least.
func (v *verifier[S, E]) cache() int64 {
	p := v.b.spill
	found := int64(v.b.found.n) * int64(unsafe.Sizeof(Found[E]{}))
	return max(p.budget*5/8-p.held-found, p.budget/32)
}

// run verifies every pair, window by window; progress is given how many
// of the n documents count as done, from n/2 (the pairs were found) on.
func (v *verifier[S, E]) run(ctx context.Context, n int, progress func(done int)) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		c := v.cache()
		more, err := v.window(c * 7 / 8)
		if err != nil || !more {
			return err
		}
		if err := v.verifyWindow(ctx, c/8); err != nil {
			return err
		}
		if progress != nil {
			progress(n/2 + int(v.docs[len(v.docs)-1]+1)/2)
		}
	}
}

// window gathers the next window: later documents and their pairs while
// their sketches and pairs take at most budget bytes, one at least. It
// reports false when no pair is left.
func (v *verifier[S, E]) window(budget int64) (bool, error) {
	clear(v.sks) // the sketches of the window before are let go
	v.docs, v.sks, v.starts, v.recs = v.docs[:0], v.sks[:0], v.starts[:0], v.recs[:0]
	v.src.win.reset()
	p := v.b.spill
	for {
		r, ok, err := v.pairs.peek()
		if err != nil || !ok {
			return len(v.docs) > 0, err
		}
		ord := int32(r >> 32)
		if !v.next.ok {
			v.next.ord, v.next.size, v.next.ok = ord, 0, true
			if !p.spilling(ord) {
				v.next.sk = v.b.sketches[ord]
			} else if v.next.sk, err = v.later.read(ord); err != nil {
				return false, err
			} else if v.next.sk != nil {
				v.next.size = int64(p.sp.SketchSize(v.next.sk))
			}
		}
		k := 1
		for k < len(v.pairs.recs) && v.pairs.recs[k]>>32 == r>>32 {
			k++
		}
		size := v.next.size + int64(k)*8 + 32
		if len(v.docs) > 0 && v.src.win.size+size > budget {
			return true, nil
		}
		if p.spilling(ord) {
			v.src.win.add(ord, v.next.sk, size)
		} else {
			v.src.win.size += size
		}
		v.docs, v.sks, v.starts = append(v.docs, ord), append(v.sks, v.next.sk), append(v.starts, len(v.recs))
		v.recs = append(v.recs, v.pairs.recs[:k]...)
		v.pairs.recs = v.pairs.recs[k:]
		v.next.ok, v.next.sk = false, nil
	}
}

// verifyWindow verifies the window's pairs, chunk by chunk of the
// earlier documents they name, each chunk's sketches taking at most
// budget bytes (one sketch at least), and appends what it found.
func (v *verifier[S, E]) verifyWindow(ctx context.Context, budget int64) error {
	b, p := v.b, v.b.spill
	v.starts = append(v.starts, len(v.recs))
	v.cur = append(v.cur[:0], v.starts[:len(v.docs)]...)
	v.need = v.need[:0]
	for d, later := range v.docs {
		for _, r := range v.recs[v.starts[d]:v.starts[d+1]] {
			e := int32(uint32(r))
			if _, ok := v.src.win.get(e); p.spilling(e) && !ok && !b.outside(e, later) {
				v.need = append(v.need, e)
			}
		}
	}
	slices.Sort(v.need)
	v.need = slices.Compact(v.need)
	v.blocks = append(v.blocks[:0], make([]block[E], (len(v.docs)+matchBlock-1)/matchBlock)...)
	v.earlier.reset(v.need)
	var pending *S
	read := false
	for i := 0; ; {
		v.src.chunk.reset()
		for ; i < len(v.need); i++ {
			if !read {
				var err error
				if pending, err = v.earlier.next(); err != nil {
					return err
				}
				read = true
			}
			var size int64
			if pending != nil {
				size = int64(p.sp.SketchSize(pending))
			}
			if len(v.src.chunk.ords) > 0 && v.src.chunk.size+size > budget {
				break
			}
			v.src.chunk.add(v.need[i], pending, size)
			pending, read = nil, false
		}
		end := int32(-1) // the chunk holds the earlier documents before end; -1: all
		if i < len(v.need) {
			end = v.need[i]
		}
		if err := v.verifyChunk(ctx, end); err != nil {
			return err
		}
		if end < 0 {
			break
		}
	}
	v.src.chunk.reset()
	for i := range v.blocks {
		bl := &v.blocks[i]
		slices.SortFunc(bl.found, func(x, y Found[E]) int {
			return cmp.Or(cmp.Compare(x.B, y.B), cmp.Compare(x.A, y.A))
		})
		b.found.addChunk(bl.found)
		b.stats.Candidates += bl.candidates
		*bl = block[E]{}
	}
	return nil
}

// verifyChunk verifies, on workers goroutines, a block of the window's
// later documents each at a time, the pairs left whose earlier document
// is before end (all of them for -1).
func (v *verifier[S, E]) verifyChunk(ctx context.Context, end int32) error {
	b, ck := v.b, v.b.spill.sp
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(v.workers, len(v.blocks))) {
		wg.Go(func() {
			var cands []int32
			for {
				i := int(next.Add(1) - 1)
				if i >= len(v.blocks) || ctx.Err() != nil {
					return
				}
				bl := &v.blocks[i]
				var ord int32
				emit := emitter(b.m, &ord, b.outside, func(f Found[E]) { bl.found = append(bl.found, f) }, &bl.candidates)
				for d := i * matchBlock; d < min(len(v.docs), (i+1)*matchBlock) && bl.err == nil; d++ {
					lo, hi := v.cur[d], v.cur[d]
					for hi < v.starts[d+1] && (end < 0 || int32(uint32(v.recs[hi])) < end) {
						hi++
					}
					v.cur[d] = hi
					if lo == hi || v.sks[d] == nil {
						continue
					}
					cands = cands[:0]
					for _, r := range v.recs[lo:hi] {
						cands = append(cands, int32(uint32(r)))
					}
					ord = v.docs[d]
					bl.err = ck.Verify(cands, v.sks[d], v.src.source(ord), emit)
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	for i := range v.blocks {
		if err := v.blocks[i].err; err != nil {
			return err
		}
	}
	return nil
}
