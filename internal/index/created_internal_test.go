package index

import (
	"testing"

	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
	"github.com/neardup/neardup/method/minhash"
)

// TestCreatedIsWhenTheFirstDocumentIsStored: a new index's settings,
// stored with its first documents, say it was created when they were
// stored, not when the Index was opened, however long before. Regression:
// Created was the time of the open, the settings being made then.
func TestCreatedIsWhenTheFirstDocumentIsStored(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			x, err := Open(t.Context(), storetest.DSN(t, e), store.Options{Sync: "normal"}, []engine.Spec{minhash.Spec}, OpenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer x.Close()
			const opened = 1 // as if opened in 1970, long before its first add
			x.meta.Created = opened
			if _, err := x.Add(t.Context(), enginetest.Copies(enginetest.NewTextGen(5), 4, 2), AddOptions{}); err != nil {
				t.Fatal(err)
			}
			m, _, err := readMeta(t.Context(), x.st)
			if err != nil {
				t.Fatal(err)
			}
			if m.Created == opened || x.Meta().Created != m.Created {
				t.Errorf("stored created %d, the Index's %d; want the time of the add, the same", m.Created, x.Meta().Created)
			}
		})
	}
}
