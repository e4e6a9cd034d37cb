package sweep

import (
	"context"
	"errors"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/methods"
)

// ReadDocuments reads every document of inputs as neardup dedup reads them.
// Records that cannot be read (malformed, empty, too large) are left out
// and counted in skipped; a labelled corpus should have none.
func ReadDocuments(ctx context.Context, inputs []string, opts corpus.Options) (docs []core.Document, skipped int, err error) {
	if len(inputs) == 0 {
		return nil, 0, errors.New("sweep: no input")
	}
	r, err := corpus.Open(inputs, opts)
	if err != nil {
		return nil, 0, err
	}
	defer r.Close()
	for n := 0; ; n++ {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, 0, err
			}
		}
		rec, err := r.Next()
		if err == io.EOF {
			return docs, skipped, nil
		}
		if err != nil {
			return nil, 0, err
		}
		if rec.Skip != core.SkipNone {
			skipped++
			continue
		}
		rec.Doc.Raw = nil // the sweep never writes the corpus back
		docs = append(docs, rec.Doc)
	}
}

// Run runs one method over docs in-process, as neardup dedup does without
// its files: it sketches the documents on workers goroutines (0: one per
// CPU), adds them in order and finishes the batch.
func Run(ctx context.Context, docs []core.Document, c engine.Config, workers int) (*engine.Result, error) {
	spec, err := methods.Lookup(c.Method())
	if err != nil {
		return nil, err
	}
	b, err := spec.NewBatch(c, "")
	if err != nil {
		return nil, err
	}
	sketches, err := sketchAll(ctx, b, docs, workers)
	if err != nil {
		return nil, err
	}
	for i := range docs {
		if err := b.Add(&docs[i], sketches[i]); err != nil {
			return nil, err
		}
		sketches[i] = engine.Sketch{}
	}
	if err := b.Finish(ctx, nil); err != nil {
		return nil, err
	}
	return b.Result(), nil
}

// sketchChunk is how many documents a sketching goroutine takes at a time.
const sketchChunk = 256

// sketchAll sketches every document concurrently, each goroutine with its
// own Sketcher, and returns the sketches in document order.
func sketchAll(ctx context.Context, b engine.Batch, docs []core.Document, workers int) ([]engine.Sketch, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	out := make([]engine.Sketch, len(docs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := b.NewSketcher()
			for ctx.Err() == nil {
				start := int(next.Add(sketchChunk)) - sketchChunk
				if start >= len(docs) {
					return
				}
				for i := start; i < min(start+sketchChunk, len(docs)); i++ {
					out[i] = s.Sketch(&docs[i])
				}
			}
		}()
	}
	wg.Wait()
	return out, ctx.Err()
}
