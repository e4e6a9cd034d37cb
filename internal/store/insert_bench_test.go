package store_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/store"
)

// BenchmarkInsert stores documents as index add does, 1,000 a transaction:
// each with a sketch of 82 + 1,200 bytes, a text of 4 KB and a mark to the
// document before it. A op is one document.
func BenchmarkInsert(b *testing.B) {
	st, err := store.Open(b.Context(), filepath.Join(b.TempDir(), "index.db"), store.Options{Sync: "normal"})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	sk := &store.Sketch{Index: bytes.Repeat([]byte{0x5a}, 82), Detail: bytes.Repeat([]byte{0xa5}, 1200)}
	text := strings.Repeat("A sentence of a news article. ", 4096/30)
	if err := st.Update(b.Context(), func(w store.Writer) error { return w.Init(store.Meta{Method: "minhash", StoreText: true}) }); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(sk.Index) + len(sk.Detail) + len(text)))
	b.ResetTimer()
	for done := 0; done < b.N; done += 1000 {
		err := st.Update(b.Context(), func(w store.Writer) error {
			var prev int64
			for i := done; i < min(done+1000, b.N); i++ {
				d := &store.Doc{ID: fmt.Sprint("doc-", i), Title: "A title", Added: 1, Text: text}
				ord, err := w.Insert(d, sk)
				if err != nil {
					return err
				}
				if prev != 0 {
					if err := w.AddMarks([]store.Mark{{A: prev, B: ord, Method: "minhash", Score: 0.8, Label: core.Similar, Evidence: []byte(`{"jaccard":0.8}`)}}); err != nil {
						return err
					}
				}
				prev = ord
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
