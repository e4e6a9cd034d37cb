package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"

	"github.com/neardup/neardup/core"
)

// pairChunk is how many pairs one goroutine encodes at a time.
const pairChunk = 4096

// pairLines encodes the lines of pairs.jsonl on every core: Pair gathers
// pairs into chunks, a goroutine encodes each chunk into a buffer of its
// own, and the buffers are written in the order of their chunks, so the
// file holds the bytes that encoding the pairs one by one would give. At a
// million documents a run can report ten million pairs, whose encoding on
// one goroutine took 11 s.
type pairLines struct {
	chunk   []core.Pair
	pending []*encoded // chunks given to goroutines, oldest first
	free    []*encoded // chunks written, whose pairs and buffer are reused
	err     error      // the first failure, returned from then on
}

// encoded is a chunk of pairs being encoded. Chunks are reused, so that
// encoding ten million pairs makes no garbage for the collector to chase
// through a heap of gigabytes.
type encoded struct {
	pairs []core.Pair
	done  chan struct{} // closed once buf and err are set
	buf   bytes.Buffer
	err   error
}

// Pair writes a line of pairs.jsonl. *p is copied, and the line encoded
// later on another goroutine, so what p's evidence refers to must not
// change until Commit; an error encoding it is returned by a later Pair and
// by Commit.
func (s *Set) Pair(p *core.Pair) error {
	if s.pairs.err != nil {
		return s.pairs.err
	}
	s.pairs.chunk = append(s.pairs.chunk, *p)
	if len(s.pairs.chunk) < pairChunk {
		return nil
	}
	return s.sendPairs()
}

// sendPairs gives the pairs gathered to a goroutine to encode, then writes
// the oldest chunks while more are pending than there are cores.
func (s *Set) sendPairs() error {
	e := &encoded{}
	if n := len(s.pairs.free); n > 0 {
		e = s.pairs.free[n-1]
		s.pairs.free = s.pairs.free[:n-1]
		e.buf.Reset()
	}
	e.pairs, s.pairs.chunk = s.pairs.chunk, e.pairs[:0]
	e.done = make(chan struct{})
	go e.encode()
	s.pairs.pending = append(s.pairs.pending, e)
	for len(s.pairs.pending) > runtime.GOMAXPROCS(0) {
		if err := s.writePairs(); err != nil {
			return err
		}
	}
	return nil
}

func (e *encoded) encode() {
	defer close(e.done)
	enc := json.NewEncoder(&e.buf)
	enc.SetEscapeHTML(false)
	for i := range e.pairs {
		if e.err = enc.Encode(&e.pairs[i]); e.err != nil {
			return
		}
	}
}

// writePairs writes the oldest pending chunk once it is encoded.
func (s *Set) writePairs() error {
	e := s.pairs.pending[0]
	s.pairs.pending = s.pairs.pending[1:]
	<-e.done
	if e.err == nil {
		_, e.err = s.files[PairsFile].w.Write(e.buf.Bytes())
	}
	if e.err != nil {
		s.pairs.err = fmt.Errorf("writing %s: %w", PairsFile, e.err)
		return s.pairs.err
	}
	clear(e.pairs) // drop what the pairs refer to
	s.pairs.free = append(s.pairs.free, e)
	return nil
}

// flushPairs encodes and writes every pair given so far.
func (s *Set) flushPairs() error {
	if s.pairs.err != nil {
		return s.pairs.err
	}
	if len(s.pairs.chunk) > 0 {
		if err := s.sendPairs(); err != nil {
			return err
		}
	}
	for len(s.pairs.pending) > 0 {
		if err := s.writePairs(); err != nil {
			return err
		}
	}
	return nil
}

// waitPairs waits for the goroutines still encoding, whose work is dropped.
func (s *Set) waitPairs() {
	for _, e := range s.pairs.pending {
		<-e.done
	}
	s.pairs = pairLines{}
}
