package job

import (
	"context"
	"errors"
	"io"
	"slices"
	"sync"

	"github.com/neardup/neardup/internal/corpus"
)

// A chunk of records travels between goroutines: up to chunkSize records or
// chunkBytes of them, whichever comes first, so web pages of 100 KB do not
// pile up hundreds of megabytes in flight.
const (
	chunkSize  = 256
	chunkBytes = 4 << 20
)

type chunk[T any] struct {
	seq   int
	first int // the input index of raws[0]: records are counted from 0
	raws  []corpus.Raw
	out   []T
	// buf holds the bytes of raws that the reader copied into it (see
	// corpus.Reader.NextRawIn); need is how many bytes their JSONL lines
	// took, in it or not.
	buf  []byte
	need int
	// paused is set of a chunk that ends where the stream waited (its
	// pending reported false): the records after it had not arrived.
	paused bool
}

// nextFunc reads the next raw record, copying its bytes into the spare
// capacity of buf if it can, and returns buf extended by what it copied
// (corpus.Reader.NextRawIn).
type nextFunc func(buf []byte) (corpus.Raw, []byte, error)

// unbuffered makes a nextFunc of a reader that leaves buf alone: its
// records own their bytes (corpus.Reader.NextRaw).
func unbuffered(next func() (corpus.Raw, error)) nextFunc {
	return func(buf []byte) (corpus.Raw, []byte, error) {
		raw, err := next()
		return raw, buf, err
	}
}

// ordered reads raw records with next on one goroutine, applies work on
// workers goroutines (w is the worker's index, for per-worker state; i the
// record's index in the input, counted from 0; out the zero T it fills)
// and calls consume on the results in input order on the calling
// goroutine. A result is valid during its consume call only: its storage
// is then used for a later record.
// It stops at the first error of next, consume or ctx.
func ordered[T any](ctx context.Context, next nextFunc, workers int,
	work func(w, i int, raw corpus.Raw, out *T), consume func(*T) error) error {
	return orderedAhead(ctx, next, nil, nil, workers, workers*2, work, consume)
}

// orderedLive is ordered reading inputs that may pause (standard input, a
// pipe): pending reports whether the next record is at hand
// (corpus.Reader.Pending), and when it is not, the records read are handed
// on, however few, rather than held until the chunk fills: a record that
// arrives alone is consumed while the stream waits. paused, when not nil,
// is called before the last record read before such a wait is consumed,
// so that the consumer hands it on at once too (`neardup index add`
// commits its transaction).
func orderedLive[T any](ctx context.Context, next nextFunc, pending func() bool, paused func(), workers int,
	work func(w, i int, raw corpus.Raw, out *T), consume func(*T) error) error {
	return orderedAhead(ctx, next, pending, paused, workers, workers*2, work, consume)
}

// orderedAhead is ordered with the workers running up to ahead chunks
// before the consumer: a consumer that takes its input in large batches
// (a transaction of an index add) keeps them busy meanwhile. pending and
// paused are orderedLive's, nil for inputs that do not pause.
//
// A chunk consumed goes back to the reader, cleared, for a later one: the
// records and results in flight are the only ones allocated, and their
// memory, written again and again, stays in the caches. The records a
// chunk holds are read into its buffer, which a later chunk then reuses:
// a result must not keep them (Doc.Raw of a JSONL line) past its consume
// call.
func orderedAhead[T any](ctx context.Context, next nextFunc, pending func() bool, paused func(), workers, ahead int,
	work func(w, i int, raw corpus.Raw, out *T), consume func(*T) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	todo := make(chan *chunk[T], ahead)
	done := make(chan *chunk[T], ahead)
	free := make(chan *chunk[T], 2*ahead+workers+1) // more than can be in flight
	// The reader is waited for on every way out: a caller closes the
	// reader once this returns, which must not happen while it reads.
	var readErr error
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		defer close(todo)
		readErr = readChunks(ctx, next, pending, todo, free)
	}()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range todo {
				c.out = slices.Grow(c.out[:0], len(c.raws))[:len(c.raws)]
				for i, raw := range c.raws {
					work(w, c.first+i, raw, &c.out[i])
				}
				select {
				case done <- c:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()

	waiting := map[int]*chunk[T]{}
	want := 0
	for c := range done {
		waiting[c.seq] = c
		for c, ok := waiting[want]; ok; c, ok = waiting[want] {
			delete(waiting, want)
			want++
			for i := range c.out {
				if c.paused && paused != nil && i == len(c.out)-1 {
					paused()
				}
				if err := consume(&c.out[i]); err != nil {
					cancel()
					drain(done)
					<-readDone
					return err
				}
			}
			c.recycle(free)
		}
	}
	<-readDone
	if readErr != nil {
		return readErr
	}
	return ctx.Err()
}

// recycle clears c, so that it holds on to no record or result, and gives
// it to the reader for a later chunk unless free is full. Its buffer is
// made larger when the records did not fit.
func (c *chunk[T]) recycle(free chan<- *chunk[T]) {
	clear(c.raws)
	clear(c.out)
	c.raws, c.out, c.buf = c.raws[:0], c.out[:0], c.buf[:0]
	if c.need > cap(c.buf) {
		c.buf = make([]byte, 0, min(c.need+c.need/4, chunkBytes))
	}
	select {
	case free <- c:
	default:
	}
}

// readChunks reads the records with next into chunks and sends them on
// todo, reusing those of free. A chunk is sent full, or at the end, or,
// when pending is set and reports the next record is not at hand, with
// the records read so far.
func readChunks[T any](ctx context.Context, next nextFunc, pending func() bool, todo chan<- *chunk[T], free <-chan *chunk[T]) error {
	for seq, first := 0, 0; ; seq++ {
		var c *chunk[T]
		select {
		case c = <-free:
		default:
			c = &chunk[T]{raws: make([]corpus.Raw, 0, chunkSize)}
		}
		c.seq, c.first, c.need, c.paused = seq, first, 0, false
		var err error
		for size := 0; len(c.raws) < chunkSize && size < chunkBytes; {
			if len(c.raws) > 0 && pending != nil && !pending() {
				c.paused = true
				break // the stream waits: what it gave goes on
			}
			var raw corpus.Raw
			if raw, c.buf, err = next(c.buf); err != nil {
				break
			}
			size += raw.Size()
			c.raws = append(c.raws, raw)
			c.need += len(raw.JSONLine())
		}
		if err == nil && !c.paused && pending != nil && !pending() {
			c.paused = true // full, and the stream waits after it
		}
		first += len(c.raws)
		if len(c.raws) > 0 {
			select {
			case todo <- c:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func drain[T any](c <-chan T) {
	for range c {
	}
}
