package index_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store/storetest"
)

// endsAfter is a context whose deadline has passed once it has been asked
// n times whether it has (Done or Err): wherever an add looks, in turn.
type endsAfter struct {
	context.Context
	n    atomic.Int64
	done chan struct{}
}

func newEndsAfter(parent context.Context, n int64) *endsAfter {
	c := &endsAfter{Context: parent, done: make(chan struct{})}
	c.n.Store(n)
	close(c.done)
	return c
}

func (c *endsAfter) Done() <-chan struct{} {
	if c.n.Add(-1) < 0 {
		return c.done
	}
	return nil
}

func (c *endsAfter) Err() error {
	if c.n.Add(-1) < 0 {
		return context.DeadlineExceeded
	}
	return nil
}

// TestCancelledAddNamesNoDocument: an add whose context ends, wherever it
// is, fails with the context's error and names none of its documents, on
// both engines; the add is tried with the context ending at each place it
// looks in turn, until it is late enough for the add to succeed.
// Regression: an add stopped while it stored its documents blamed the one
// it was at, on both engines (`test:c0: storing the index's settings:
// context deadline exceeded`).
func TestCancelledAddNamesNoDocument(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			x := open(t, storetest.DSN(t, e), index.OpenOptions{StoreText: true})
			docs := docsOf(enginetest.NewTextGen(71), "c", 3)
			for n := int64(0); ; n++ {
				if n > 5000 {
					t.Fatal("the add never succeeded")
				}
				_, err := x.Add(newEndsAfter(t.Context(), n), docs, index.AddOptions{})
				if err == nil {
					break
				}
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Fatalf("add ending after %d looks: %v, want context.DeadlineExceeded", n, err)
				}
				for _, d := range docs {
					if strings.Contains(err.Error(), d.ID) {
						t.Fatalf("add ending after %d looks: %q names document %s", n, err, d.ID)
					}
				}
			}
			if x.Len() != len(docs) {
				t.Errorf("%d documents in the end, want %d", x.Len(), len(docs))
			}
		})
	}
}
