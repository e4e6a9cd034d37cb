package engine

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/candidates"
)

// Spiller is the stage that lets a Batch keep a memory budget
// (Grouping.Memory), for a method whose candidates are the documents that
// share a band key with a document (LSH), each key's documents capped as
// candidates.VisitBucket says, verified by Verify against sketches read
// back from their encoding (Codec.DecodeSketch), their keys taken.
type Spiller[S any, E core.Evidence] interface {
	// TakeKeys returns the band keys of s, as the method indexes them,
	// and drops them from s.
	TakeKeys(s *S) []uint32
	// BucketLimit is the cap of candidates.VisitBucket.
	BucketLimit() int
	// SketchSize is about how many bytes s holds in memory, with the
	// postings of its band keys in the method's index.
	SketchSize(s *S) int
	// Verify verifies s against cands, which it may sort, and emits what
	// Match would of them, in increasing ordinal order (as
	// Checker.Verify). Calls run at once on many goroutines.
	Verify(cands []int32, s *S, src Source[S], emit func(other int32, score float64, ev E)) error
}

// SpillFile is a file a Batch spills to: written from its start, read back
// at random, closed by the Batch (see Grouping.Spill).
type SpillFile interface {
	io.Writer
	io.ReaderAt
	io.Closer
}

// The spilled band keys are written in keyParts files by key, and the
// candidate pairs found from them in pairParts files by the later
// document's ordinal: one file of either is read into memory at a time.
const (
	keyParts  = 64
	pairParts = 64
)

// docCost is about how many bytes the documents table, its id index and
// the Batch's bookkeeping hold for one document, besides its id; copyCost
// what the copies' bookkeeping adds under a method's Copies stage.
const (
	docCost  = 96
	copyCost = 40
)

// spiller holds what a Batch with a memory budget spilled: the encoded
// detail parts of the sketches of documents from ordinal from on, and every
// band key (with its document) once spilling started.
type spiller[S any, E core.Evidence] struct {
	budget int64
	create func(name string) (SpillFile, error)
	sp     Spiller[S, E]
	held   int64 // about how many bytes the documents and sketches in memory take
	from   int32 // the first ordinal spilled; -1 while every sketch is in memory

	sketches *spillWriter
	ends     []int64 // ends[i]: where the encoding of ordinal from+i ends in sketches
	keys     [keyParts]*spillWriter
	buf, idx []byte
}

// spillWriter is a spill file with its buffer and the bytes written.
type spillWriter struct {
	f    SpillFile
	w    *bufio.Writer
	size int64
}

func newSpillWriter(create func(string) (SpillFile, error), name string) (*spillWriter, error) {
	f, err := create(name)
	if err != nil {
		return nil, fmt.Errorf("engine: spilling to disk: %w", err)
	}
	return &spillWriter{f: f, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

func (w *spillWriter) write(p []byte) error {
	w.size += int64(len(p))
	_, err := w.w.Write(p)
	return err
}

func (w *spillWriter) word(x uint64) error {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], x)
	return w.write(b[:])
}

// words reads the file back as 64-bit words, into dst.
func (w *spillWriter) words(dst []uint64) ([]uint64, error) {
	if err := w.w.Flush(); err != nil {
		return dst, err
	}
	dst = slices.Grow(dst[:0], int(w.size/8))
	r := bufio.NewReaderSize(io.NewSectionReader(w.f, 0, w.size), 1<<20)
	var b [8]byte
	for range w.size / 8 {
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return dst, fmt.Errorf("engine: reading back a spill file: %w", err)
		}
		dst = append(dst, binary.LittleEndian.Uint64(b[:]))
	}
	return dst, nil
}

func (w *spillWriter) close() error {
	if w == nil {
		return nil
	}
	return w.f.Close()
}

// newSpiller returns the spiller of a Batch of m under g's budget, nil
// when there is none; an error when m cannot keep one.
func newSpiller[S any, E core.Evidence](m Method[S, E], g Grouping) (*spiller[S, E], error) {
	if g.Memory <= 0 {
		return nil, nil
	}
	sp := m.Spill
	if sp == nil {
		return nil, errors.New("engine: this method keeps its candidate index in memory and cannot keep a memory budget (minhash and simhash can)")
	}
	if g.Spill == nil {
		return nil, errors.New("engine: a memory budget needs a place to spill to (Grouping.Spill)")
	}
	return &spiller[S, E]{budget: g.Memory, create: g.Spill, sp: sp, from: -1}, nil
}

// started reports whether sketches are going to disk.
func (p *spiller[S, E]) started() bool { return p != nil && p.from >= 0 }

// spilling reports whether ord's sketch is on disk.
func (p *spiller[S, E]) spilling(ord int32) bool { return p != nil && p.from >= 0 && ord >= p.from }

// add takes the sketch of the document just added at ord (id its id),
// into memory while the budget allows, to disk after; kept reports
// whether the caller keeps it in memory. A copy's band keys are not
// written: it is no candidate of any other document.
func (b *batch[S, E]) spillAdd(ord int32, id string, s *S, copied bool) (kept bool, err error) {
	p := b.spill
	p.held += int64(docCost + len(id))
	if b.copies != nil {
		p.held += copyCost
	}
	if p.from < 0 {
		if s != nil {
			p.held += int64(p.sp.SketchSize(s) + 8)
		}
		if p.held <= p.budget/2 {
			return true, nil
		}
		if err := b.startSpilling(ord); err != nil {
			return false, err
		}
	}
	p.held += 8
	if s != nil {
		if !copied {
			if err := p.writeKeys(ord, s); err != nil {
				return false, err
			}
		}
		// Both parts, the index part once the keys are taken: a method's
		// verification may read it (simhash's fingerprint).
		p.idx = b.m.AppendIndex(p.idx[:0], s)
		p.buf = append(binary.AppendUvarint(p.buf[:0], uint64(len(p.idx))), p.idx...)
		p.buf = b.m.AppendDetail(p.buf, s)
		if err := p.sketches.write(p.buf); err != nil {
			return false, err
		}
	}
	p.ends = append(p.ends, p.sketches.size)
	return false, nil
}

// startSpilling opens the spill files and writes the band keys of the
// sketches held so far, which stay in memory: from ordinal from on, every
// sketch goes to disk.
func (b *batch[S, E]) startSpilling(from int32) error {
	p := b.spill
	var err error
	if p.sketches, err = newSpillWriter(p.create, "sketches"); err != nil {
		return err
	}
	for i := range p.keys {
		if p.keys[i], err = newSpillWriter(p.create, fmt.Sprintf("keys-%02d", i)); err != nil {
			return err
		}
	}
	p.from = from
	for ord, s := range b.sketches {
		if _, copied := b.firstCopy(int32(ord)); s != nil && !copied {
			if err := p.writeKeys(int32(ord), s); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeKeys writes ord's band keys, each to the file of its share.
func (p *spiller[S, E]) writeKeys(ord int32, s *S) error {
	for _, k := range p.sp.TakeKeys(s) {
		if err := p.keys[keyPart(k)].word(uint64(k)<<32 | uint64(uint32(ord))); err != nil {
			return err
		}
	}
	return nil
}

// keyPart spreads the keys evenly over the key files.
func keyPart(k uint32) int { return int((k * 0x9e3779b1) >> 26) }

// span returns where the encoding of the spilled ordinal ord starts and
// ends in the sketch file; they are equal for a document the method
// skipped.
func (p *spiller[S, E]) span(ord int32) (start, end int64) {
	i := int(ord - p.from)
	if i > 0 {
		start = p.ends[i-1]
	}
	return start, p.ends[i]
}

// read returns the sketch of a spilled ordinal, decoded from its index
// and detail parts; nil for a document the method skipped. Safe for concurrent use.
func (p *spiller[S, E]) read(m Codec[S], ord int32) (*S, error) {
	start, end := p.span(ord)
	if start == end {
		return nil, nil
	}
	buf := make([]byte, end-start)
	if _, err := p.sketches.f.ReadAt(buf, start); err != nil {
		return nil, fmt.Errorf("engine: reading back a spilled sketch: %w", err)
	}
	return decodeSpilled(m, buf)
}

// decodeSpilled decodes a spilled sketch's encoding: its index part's
// length, the index part and the detail part. It keeps no reference to
// buf.
func decodeSpilled[S any](m Codec[S], buf []byte) (*S, error) {
	n, k := binary.Uvarint(buf)
	if k <= 0 || n > uint64(len(buf)-k) {
		return nil, errors.New("engine: a spilled sketch damaged")
	}
	return m.DecodeSketch(buf[k:k+int(n)], buf[k+int(n):])
}

func (p *spiller[S, E]) close() error {
	if p == nil || p.sketches == nil {
		return nil
	}
	errs := []error{p.sketches.close()}
	for _, k := range p.keys {
		errs = append(errs, k.close())
	}
	p.sketches, p.keys = nil, [keyParts]*spillWriter{}
	return errors.Join(errs...)
}

// matchSpilled is matchParallel for a Batch that spilled: the candidate
// pairs are found from the spilled band keys one key file at a time and
// written to pair files by the later document, then verified on workers
// goroutines from sketches read back in file order (see verifier). The
// pairs and their order are those of matchParallel.
func (b *batch[S, E]) matchSpilled(ctx context.Context, workers int, progress func(done int)) error {
	p := b.spill
	n := b.Len()
	span := max(1, (n+pairParts-1)/pairParts)
	var pairs [pairParts]*spillWriter
	defer func() {
		for _, w := range pairs {
			w.close()
		}
	}()
	for i := range pairs {
		var err error
		if pairs[i], err = newSpillWriter(p.create, fmt.Sprintf("pairs-%02d", i)); err != nil {
			return err
		}
	}
	if err := p.sketches.w.Flush(); err != nil {
		return err
	}
	var recs []uint64
	limit := p.sp.BucketLimit()
	for i, kw := range p.keys {
		if err := ctx.Err(); err != nil {
			return err
		}
		var err error
		if recs, err = kw.words(recs); err != nil {
			return err
		}
		slices.Sort(recs)
		if err := bucketPairs(recs, limit, func(later, earlier int32) error {
			return pairs[int(later)/span].word(uint64(later)<<32 | uint64(uint32(earlier)))
		}); err != nil {
			return err
		}
		if progress != nil {
			progress(n * (i + 1) / keyParts / 2)
		}
	}
	for ord, first := range b.copyOf { // a copy's one candidate: its first
		if first > 0 {
			if err := pairs[ord/span].word(uint64(ord)<<32 | uint64(first-1)); err != nil {
				return err
			}
		}
	}
	v := &verifier[S, E]{b: b, workers: workers, pairs: pairStream{files: pairs[:]},
		later: &sketchReader[S, E]{p: p, m: b.m, at: -1}, earlier: runReader[S, E]{p: p, m: b.m}}
	v.src.b = b
	return v.run(ctx, n, progress)
}

// bucketPairs calls fn with each candidate pair of the band-key postings
// recs (key<<32 | document, sorted): the documents each document is
// compared with among those before it under the same key, as
// candidates.Earlier holds them.
func bucketPairs(recs []uint64, limit int, fn func(later, earlier int32) error) error {
	for lo := 0; lo < len(recs); {
		hi := lo + 1
		for hi < len(recs) && recs[hi]>>32 == recs[lo]>>32 {
			hi++
		}
		doc := func(i int) int32 { return int32(uint32(recs[i])) }
		for j := lo + 1; j < hi; j++ {
			if doc(j) == doc(j-1) {
				continue // a key twice in one document: the same candidates
			}
			var err error
			later := doc(j)
			candidates.VisitBucket(j-lo, limit, func(i int) {
				if err == nil {
					err = fn(later, doc(lo+i))
				}
			})
			if err != nil {
				return err
			}
		}
		lo = hi
	}
	return nil
}
